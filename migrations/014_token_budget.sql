-- One budget of Discord calls per token (issue 30): the processes that share a token (SHARD_IDS)
-- count its calls of each one-second window here, a block at a time (``bot.token_budget``).
-- ``granted`` is the last block taken, so the taking statement can return it.
CREATE TABLE token_budget (
    window_id  INTEGER PRIMARY KEY,
    spent      INTEGER NOT NULL,
    granted    INTEGER NOT NULL
);
