-- See ../003_group_threads.sql. PostgreSQL changes the outbox's CHECK in place.
CREATE TABLE group_threads (
    game_id   BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    key       TEXT   NOT NULL,
    thread_id BIGINT NOT NULL,
    members   TEXT   NOT NULL DEFAULT '[]',
    PRIMARY KEY (game_id, key)
);
INSERT INTO group_threads (game_id, key, thread_id, members)
    SELECT t.game_id, 'player:' || t.owner_id, t.thread_id,
           CASE WHEN t.owner_id = g.host_id THEN json_build_array(t.owner_id)::text
                ELSE json_build_array(t.owner_id, g.host_id)::text END
    FROM game_threads AS t JOIN games AS g ON g.id = t.game_id;
DROP TABLE game_threads;

ALTER TABLE outbox DROP CONSTRAINT outbox_target_check;
ALTER TABLE outbox ADD CONSTRAINT outbox_target_check CHECK (target IN ('channel', 'dm', 'group'));
