-- See ../022_closed_mark.sql: the first phase whose message still shows it open.
ALTER TABLE games ADD COLUMN closed_from INTEGER;
