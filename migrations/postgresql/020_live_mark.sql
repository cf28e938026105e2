-- See ../020_live_mark.sql: the step since which a game's living messages wait to be drawn.
ALTER TABLE games ADD COLUMN live_step INTEGER;
