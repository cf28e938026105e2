-- Group threads: one private thread per group of players that a game names (a Clocktower whisper),
-- shared by its members and the storyteller. A player's own thread (migration 002) is the group of
-- one, key 'player:<user id>', so game_threads moves in here. The outbox gets a third target,
-- 'group', whose thread key and members travel in the event's audience.
CREATE TABLE group_threads (
    game_id   INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    key       TEXT    NOT NULL,               -- the game's name for the group
    thread_id INTEGER NOT NULL,
    members   TEXT    NOT NULL DEFAULT '[]',  -- JSON list of the user ids already added
    PRIMARY KEY (game_id, key)
);
INSERT INTO group_threads (game_id, key, thread_id, members)
    SELECT t.game_id, 'player:' || t.owner_id, t.thread_id,
           CASE WHEN t.owner_id = g.host_id THEN json_array(t.owner_id)
                ELSE json_array(t.owner_id, g.host_id) END
    FROM game_threads AS t JOIN games AS g ON g.id = t.game_id;
DROP TABLE game_threads;

-- SQLite cannot change a CHECK constraint in place: rebuild the outbox with the new target.
CREATE TABLE outbox_new (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    target       TEXT    NOT NULL CHECK (target IN ('channel', 'dm', 'group')),
    recipient_id INTEGER,               -- the user for 'dm'; NULL for the channel and for 'group'
    phase_seq    INTEGER NOT NULL,
    payload      TEXT    NOT NULL,      -- the event as JSON
    image        BLOB,                  -- a PNG drawn when the event was committed
    created_at   REAL    NOT NULL,
    delivered_at REAL,
    failure      TEXT
);
INSERT INTO outbox_new (id, game_id, target, recipient_id, phase_seq, payload, image, created_at,
                        delivered_at, failure)
    SELECT id, game_id, target, recipient_id, phase_seq, payload, image, created_at, delivered_at, failure
    FROM outbox;
DROP TABLE outbox;
ALTER TABLE outbox_new RENAME TO outbox;
CREATE INDEX outbox_pending ON outbox (game_id, id) WHERE delivered_at IS NULL;
