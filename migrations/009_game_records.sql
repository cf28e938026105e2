-- A game's append-only record: what grows all week in a Clocktower game (each day's votes, each
-- whisper) is written here, one row per fact, in the same transaction as the step that made it,
-- instead of in the game's state (which is rewritten on every action). The rows are handed back
-- to the game at the end, for the reveal.
CREATE TABLE game_records (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    step       INTEGER NOT NULL,
    type       TEXT    NOT NULL,
    data       TEXT    NOT NULL,
    created_at REAL    NOT NULL
);
CREATE INDEX game_records_by_game ON game_records (game_id, id);
