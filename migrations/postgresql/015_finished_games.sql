-- See migrations/015_finished_games.sql: partial indexes of the games in play, and the games
-- counted by server, kind and state as they change, for /metrics.
CREATE INDEX games_remind_due ON games (remind_at) WHERE status = 'running';
CREATE INDEX games_active ON games (id) WHERE status IN ('lobby', 'running');
CREATE TABLE game_counts (
    guild_id  BIGINT NOT NULL,
    kind      TEXT   NOT NULL,
    status    TEXT   NOT NULL,
    n         BIGINT NOT NULL,
    PRIMARY KEY (guild_id, kind, status)
);
INSERT INTO game_counts (guild_id, kind, status, n)
    SELECT guild_id, kind, status, COUNT(*) FROM games GROUP BY guild_id, kind, status;
CREATE FUNCTION games_counted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        UPDATE game_counts SET n = n - 1
            WHERE guild_id = OLD.guild_id AND kind = OLD.kind AND status = OLD.status;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        INSERT INTO game_counts (guild_id, kind, status, n) VALUES (NEW.guild_id, NEW.kind, NEW.status, 1)
            ON CONFLICT (guild_id, kind, status) DO UPDATE SET n = game_counts.n + 1;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER games_counted_in_out AFTER INSERT OR DELETE ON games
    FOR EACH ROW EXECUTE FUNCTION games_counted();
CREATE TRIGGER games_counted_moved AFTER UPDATE OF status ON games
    FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION games_counted();
