-- Private threads the bot opened for a game (per player, or for the storyteller), for games whose
-- private messages live in threads rather than DMs (the Clocktower forum game).
CREATE TABLE game_threads (
    game_id   INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    owner_id  INTEGER NOT NULL,   -- the player (or storyteller) the thread belongs to
    thread_id INTEGER NOT NULL,
    PRIMARY KEY (game_id, owner_id)
);
