-- Delivery that retries: each outbox row keeps the step that wrote it (the deal is step 0, the
-- only step whose failed DMs may be announced in the channel) and how many of its parts (a long
-- text goes as several Discord messages) were already accepted, so a retry resumes where it stopped.
ALTER TABLE outbox ADD COLUMN step INTEGER;
ALTER TABLE outbox ADD COLUMN parts_sent INTEGER NOT NULL DEFAULT 0;
CREATE INDEX outbox_delivered ON outbox (delivered_at) WHERE delivered_at IS NOT NULL;

-- Paused is its own flag: paused_remaining NULL while paused now means "this phase has no timer",
-- and 0 means "due as soon as the game resumes". Before, 0 stood for both.
ALTER TABLE games ADD COLUMN paused INTEGER NOT NULL DEFAULT 0;
UPDATE games SET paused = 1 WHERE paused_remaining IS NOT NULL;
UPDATE games SET paused_remaining = NULL WHERE paused_remaining = 0;
