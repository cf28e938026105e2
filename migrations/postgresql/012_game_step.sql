ALTER TABLE games ADD COLUMN step INTEGER NOT NULL DEFAULT 0;
UPDATE games SET step = coalesce((state::json ->> 'step')::integer, 0) WHERE state IS NOT NULL;
ALTER TABLE games ADD COLUMN claimed_until DOUBLE PRECISION;
CREATE INDEX games_due ON games (deadline) WHERE status = 'running';
