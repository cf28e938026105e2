-- See migrations/016_token_leases.sql.
ALTER TABLE token_budget ADD COLUMN leased DOUBLE PRECISION NOT NULL DEFAULT 0;
ALTER TABLE token_budget ADD COLUMN leased_until DOUBLE PRECISION NOT NULL DEFAULT 0;
CREATE TABLE token_leases (
    bucket        TEXT NOT NULL,
    holder        TEXT NOT NULL,
    rate          DOUBLE PRECISION NOT NULL,
    counts_until  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (bucket, holder)
);
