-- See ../019_fixed_state.sql: the state's fixed part (``Game.fixed_fields``) in a column of its own.
ALTER TABLE games ADD COLUMN fixed TEXT;
