CREATE TABLE game_threads (
    game_id   BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    owner_id  BIGINT NOT NULL,
    thread_id BIGINT NOT NULL,
    PRIMARY KEY (game_id, owner_id)
);
