-- See ../019_fixed_state.sql: the state's fixed part (``Game.fixed_fields``) in a table of its own.
CREATE TABLE game_fixed (
    game_id BIGINT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    fixed   TEXT   NOT NULL
);
