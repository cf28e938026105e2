CREATE TABLE token_budget (
    bucket       TEXT PRIMARY KEY,
    tokens       DOUBLE PRECISION NOT NULL,
    refilled_at  DOUBLE PRECISION NOT NULL,
    granted      INTEGER NOT NULL
);
