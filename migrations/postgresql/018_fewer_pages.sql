-- See ../018_fewer_pages.sql. PostgreSQL keeps its tables as heaps, so there is no page to save by
-- clustering; the columns follow SQLite's, so that ``bot.migrate`` copies the same rows both ways:
-- the action log is keyed by (game, step) and the record by (game, step, seq), neither by an id.
ALTER TABLE actions DROP COLUMN id;
ALTER TABLE actions DROP CONSTRAINT actions_game_id_step_key;
ALTER TABLE actions ADD PRIMARY KEY (game_id, step);
ALTER TABLE game_records ADD COLUMN seq INTEGER;
UPDATE game_records AS r SET seq = n.seq
    FROM (SELECT id, row_number() OVER (PARTITION BY game_id, step ORDER BY id) - 1 AS seq FROM game_records) AS n
    WHERE n.id = r.id;
ALTER TABLE game_records ALTER COLUMN seq SET NOT NULL;
ALTER TABLE game_records DROP COLUMN id;
ALTER TABLE game_records ADD PRIMARY KEY (game_id, step, seq);
DROP INDEX IF EXISTS game_records_by_game;
