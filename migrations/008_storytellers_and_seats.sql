-- Games run by human Storytellers (Clocktower): sign-ups choose a numbered seat and come in kinds
-- (a regular player, a Traveller, a spectator); a game has co-Storytellers besides its host; and
-- a game whose town square is a forum post keeps its private threads under a text channel the
-- Storyteller names (Discord allows private threads only under a text channel).
ALTER TABLE lobby_players ADD COLUMN seat INTEGER;
ALTER TABLE lobby_players ADD COLUMN kind TEXT NOT NULL DEFAULT 'player'
    CHECK (kind IN ('player', 'traveller', 'spectator'));
CREATE TABLE game_storytellers (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id  INTEGER NOT NULL,
    name     TEXT    NOT NULL,
    added_at REAL    NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
ALTER TABLE games ADD COLUMN thread_channel_id INTEGER;
