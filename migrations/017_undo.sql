-- A game's end undoes what its nights changed on Discord (issue 36, item 10): the town square's
-- @everyone deny and the allows the game set, the whispers' threads the night locked. That work
-- is an outbox row, target 'undo', written in the same transaction as the game's end (or its
-- cancel), so a process that stops before it runs, or a Discord that says no, leaves it pending,
-- retried and found again at start-up. SQLite cannot change a CHECK constraint in place: rebuild
-- the outbox with the new target.
CREATE TABLE outbox_new (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    target       TEXT    NOT NULL CHECK (target IN ('channel', 'dm', 'group', 'voice', 'undo')),
    recipient_id INTEGER,
    phase_seq    INTEGER NOT NULL,
    payload      TEXT    NOT NULL,
    image        BLOB,
    created_at   REAL    NOT NULL,
    delivered_at REAL,
    failure      TEXT,
    step         INTEGER,
    parts_sent   INTEGER NOT NULL DEFAULT 0,
    picture      TEXT,
    op           TEXT    NOT NULL DEFAULT 'send' CHECK (op IN ('send', 'refresh', 'slot')),
    slot         TEXT
);
INSERT INTO outbox_new (id, game_id, target, recipient_id, phase_seq, payload, image, created_at,
                        delivered_at, failure, step, parts_sent, picture, op, slot)
    SELECT id, game_id, target, recipient_id, phase_seq, payload, image, created_at,
           delivered_at, failure, step, parts_sent, picture, op, slot
    FROM outbox;
DROP TABLE outbox;
ALTER TABLE outbox_new RENAME TO outbox;
CREATE INDEX outbox_pending ON outbox (game_id, id) WHERE delivered_at IS NULL;
CREATE INDEX outbox_delivered ON outbox (delivered_at) WHERE delivered_at IS NOT NULL;
-- A game that ended before this version with its town square's allows not taken back (a cancel at
-- night whose undo was lost): its undo, now.
INSERT INTO outbox (game_id, target, recipient_id, phase_seq, payload, created_at)
    SELECT g.id, 'undo', NULL, g.phase_seq, '{"type": "undo"}', (julianday('now') - 2440587.5) * 86400.0
    FROM games AS g JOIN group_threads AS t ON t.game_id = g.id
    WHERE g.status IN ('finished', 'cancelled') AND t.key = 'square:allowed' AND t.members != '[]';
