ALTER TABLE outbox ADD COLUMN op TEXT NOT NULL DEFAULT 'send' CHECK (op IN ('send', 'refresh', 'slot'));
ALTER TABLE outbox ADD COLUMN slot TEXT;

CREATE TABLE message_slots (
    game_id         BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    slot            TEXT   NOT NULL,
    channel_id      BIGINT NOT NULL,
    message_id      BIGINT NOT NULL,
    last_message_id BIGINT NOT NULL,
    shown           TEXT,
    PRIMARY KEY (game_id, slot)
);

ALTER TABLE games ADD COLUMN waiting_seconds DOUBLE PRECISION;
