-- One budget of Discord calls per token (issue 30): the processes that share a token (SHARD_IDS)
-- take its calls from one token bucket here, a block at a time (``bot.token_budget``).
-- ``tokens`` is what was left at ``refilled_at`` (the database's clock, in seconds since 1970);
-- ``granted`` is what the last ask took, so the taking statement can return it.
CREATE TABLE token_budget (
    bucket       TEXT PRIMARY KEY,
    tokens       REAL NOT NULL,
    refilled_at  REAL NOT NULL,
    granted      INTEGER NOT NULL
);
