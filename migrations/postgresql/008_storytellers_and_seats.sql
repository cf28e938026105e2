ALTER TABLE lobby_players ADD COLUMN seat INTEGER;
ALTER TABLE lobby_players ADD COLUMN kind TEXT NOT NULL DEFAULT 'player'
    CHECK (kind IN ('player', 'traveller', 'spectator'));
CREATE TABLE game_storytellers (
    game_id  BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id  BIGINT NOT NULL,
    name     TEXT   NOT NULL,
    added_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
ALTER TABLE games ADD COLUMN thread_channel_id BIGINT;
