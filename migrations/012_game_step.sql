-- The step the game's state was committed at, so that a write says which step it follows: a
-- commit whose game moved on meanwhile (another bot process applied to it) changes nothing.
ALTER TABLE games ADD COLUMN step INTEGER NOT NULL DEFAULT 0;
UPDATE games SET step = coalesce(json_extract(state, '$.step'), 0) WHERE state IS NOT NULL;
-- A claim on an overdue phase by the process closing it (``Store.claim_due``): others skip it
-- until then, so a sweep of two processes never closes the same phase twice.
ALTER TABLE games ADD COLUMN claimed_until REAL;
CREATE INDEX games_due ON games (deadline) WHERE status = 'running';
