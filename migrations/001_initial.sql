-- Games, their players in the lobby, the append-only action log, and the outbox.
CREATE TABLE guild_settings (
    guild_id            INTEGER PRIMARY KEY,
    storyteller_role_id INTEGER
);

CREATE TABLE games (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    kind             TEXT    NOT NULL,
    guild_id         INTEGER NOT NULL,
    channel_id       INTEGER NOT NULL,
    host_id          INTEGER NOT NULL,
    status           TEXT    NOT NULL CHECK (status IN ('lobby', 'running', 'finished', 'cancelled')),
    seed             INTEGER NOT NULL,
    options          TEXT    NOT NULL DEFAULT '{}',
    min_players      INTEGER NOT NULL,
    max_players      INTEGER NOT NULL,
    state            TEXT,              -- the game's state as JSON; NULL while in the lobby
    phase_seq        INTEGER NOT NULL DEFAULT 0,
    deadline         REAL,              -- unix seconds when the phase times out; NULL: no timer
    paused_remaining REAL,              -- seconds that were left when paused; NULL: not paused
    created_at       REAL    NOT NULL,
    updated_at       REAL    NOT NULL
);
-- One active game per channel or thread; several per guild.
CREATE UNIQUE INDEX games_one_active_per_channel ON games (channel_id)
    WHERE status IN ('lobby', 'running');
CREATE INDEX games_by_guild ON games (guild_id, status);

CREATE TABLE lobby_players (
    game_id   INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id   INTEGER NOT NULL,
    name      TEXT    NOT NULL,
    joined_at REAL    NOT NULL,
    PRIMARY KEY (game_id, user_id)
);

-- Append-only: every accepted action, in order. Seed + this log replays the game.
CREATE TABLE actions (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    step       INTEGER NOT NULL,
    actor_id   INTEGER,
    action     TEXT    NOT NULL,
    created_at REAL    NOT NULL,
    UNIQUE (game_id, step)
);

-- Messages to deliver, written in the same transaction as the state that caused them.
CREATE TABLE outbox (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    target       TEXT    NOT NULL CHECK (target IN ('channel', 'dm')),
    recipient_id INTEGER,               -- the user for 'dm'; NULL for the game's channel
    phase_seq    INTEGER NOT NULL,
    payload      TEXT    NOT NULL,      -- the event as JSON
    image        BLOB,                  -- a PNG drawn when the event was committed
    created_at   REAL    NOT NULL,
    delivered_at REAL,
    failure      TEXT
);
CREATE INDEX outbox_pending ON outbox (game_id, id) WHERE delivered_at IS NULL;
