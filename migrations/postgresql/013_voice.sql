ALTER TABLE games ADD COLUMN voice_channel_id BIGINT;
ALTER TABLE games ADD COLUMN turn_deadline DOUBLE PRECISION;
CREATE TABLE voice_mutes (
    guild_id   BIGINT NOT NULL,
    user_id    BIGINT NOT NULL,
    game_id    BIGINT NOT NULL,
    muted_at   DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, user_id, game_id)
);
CREATE INDEX voice_mutes_game ON voice_mutes (game_id);
CREATE INDEX games_turn_due ON games (turn_deadline) WHERE status = 'running';
ALTER TABLE outbox DROP CONSTRAINT outbox_target_check;
ALTER TABLE outbox ADD CONSTRAINT outbox_target_check CHECK (target IN ('channel', 'dm', 'group', 'voice'));
