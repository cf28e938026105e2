-- Fewer pages written per action (issue 38): every commit wrote, beside the game's row and its
-- messages, the action log's row and a separate unique index page, the record's row and its index
-- page, and the AUTOINCREMENT counters' page (sqlite_sequence). Now the action log and the record
-- are clustered on their keys (WITHOUT ROWID: the row is its own index), and neither they nor the
-- outbox keep an AUTOINCREMENT counter. An outbox id is still not used twice: nothing deletes
-- outbox rows but the prune of delivered ones, which from now on keeps the newest row
-- (``Store.prune_delivered``), so the next id is past every id given since. (Ids a prune deleted
-- before this version, a week or more after they were delivered, may be given again: nothing
-- remembers an id that long; a message's nonce is only checked by Discord for minutes.)
CREATE TABLE actions_new (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    step       INTEGER NOT NULL,
    actor_id   INTEGER,
    action     TEXT    NOT NULL,
    created_at REAL    NOT NULL,
    PRIMARY KEY (game_id, step)
) WITHOUT ROWID;
INSERT INTO actions_new (game_id, step, actor_id, action, created_at)
    SELECT game_id, step, actor_id, action, created_at FROM actions;
DROP TABLE actions;
ALTER TABLE actions_new RENAME TO actions;

-- A record row is the ``seq``-th fact its step wrote (a step commits once: ``commit_step``'s check).
CREATE TABLE game_records_new (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    step       INTEGER NOT NULL,
    seq        INTEGER NOT NULL,
    type       TEXT    NOT NULL,
    data       TEXT    NOT NULL,
    created_at REAL    NOT NULL,
    PRIMARY KEY (game_id, step, seq)
) WITHOUT ROWID;
INSERT INTO game_records_new (game_id, step, seq, type, data, created_at)
    SELECT game_id, step, row_number() OVER (PARTITION BY game_id, step ORDER BY id) - 1, type, data, created_at
    FROM game_records;
DROP TABLE game_records;
ALTER TABLE game_records_new RENAME TO game_records;

CREATE TABLE outbox_new (
    id           INTEGER PRIMARY KEY,
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
