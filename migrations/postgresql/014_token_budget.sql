CREATE TABLE token_budget (
    window_id  BIGINT PRIMARY KEY,
    spent      INTEGER NOT NULL,
    granted    INTEGER NOT NULL
);
