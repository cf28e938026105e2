-- The voice table (issue 29). The voice channel a quick game is played in: the bot mutes and
-- unmutes the game's seated players there, and says the phases aloud.
ALTER TABLE games ADD COLUMN voice_channel_id INTEGER;
-- When the current speaking turn ends (``Game.speaking_turn``); NULL when no turn runs, while
-- the phase's clock waits for its message, and while the game is paused.
ALTER TABLE games ADD COLUMN turn_deadline REAL;
-- Whom a game may have server-muted: written before the bot asks Discord to mute them and
-- deleted once Discord confirms the unmute, so a crash, a restart or a player who left voice
-- (Discord refuses to unmute a member who is not in voice) is unmuted later, never forgotten.
CREATE TABLE voice_mutes (
    guild_id   INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    game_id    INTEGER NOT NULL,
    muted_at   REAL NOT NULL,
    PRIMARY KEY (guild_id, user_id, game_id)
);
CREATE INDEX voice_mutes_game ON voice_mutes (game_id);
CREATE INDEX games_turn_due ON games (turn_deadline) WHERE status = 'running';
-- The outbox gets a fourth target, 'voice': a step's silent set, delivered after that step's
-- messages (a mute never runs ahead of the reveal that explains it). SQLite cannot change a
-- CHECK constraint in place: rebuild the outbox with the new target.
CREATE TABLE outbox_new (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    target       TEXT    NOT NULL CHECK (target IN ('channel', 'dm', 'group', 'voice')),
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
