ALTER TABLE outbox ADD COLUMN step INTEGER;
ALTER TABLE outbox ADD COLUMN parts_sent INTEGER NOT NULL DEFAULT 0;
CREATE INDEX outbox_delivered ON outbox (delivered_at) WHERE delivered_at IS NOT NULL;

ALTER TABLE games ADD COLUMN paused INTEGER NOT NULL DEFAULT 0;
UPDATE games SET paused = 1 WHERE paused_remaining IS NOT NULL;
UPDATE games SET paused_remaining = NULL WHERE paused_remaining = 0;
