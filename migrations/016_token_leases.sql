-- The token's budget at low traffic (issue 38): a quiet process leases a few calls a second for a
-- while, spent with no database round trip each, instead of asking for a block per call. A lease
-- is paid for up front (its calls taken from the bucket when it is granted) and, while any lease
-- counts, the bucket refills slower by the leases' rates (``leased`` until ``leased_until``), so
-- any one-second stretch still holds at most the token's limit (``bot.token_budget``).
ALTER TABLE token_budget ADD COLUMN leased REAL NOT NULL DEFAULT 0;
ALTER TABLE token_budget ADD COLUMN leased_until REAL NOT NULL DEFAULT 0;
CREATE TABLE token_leases (
    bucket        TEXT NOT NULL,
    holder        TEXT NOT NULL,
    rate          REAL NOT NULL,
    counts_until  REAL NOT NULL,
    PRIMARY KEY (bucket, holder)
);
