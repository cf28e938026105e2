-- Nothing on a hot path grows with finished games (issue 38): the sweep's reminders and start-up's
-- active games read partial indexes of the games still in play, and the games counted by kind and
-- state for /metrics are kept as they change (a row per server, kind and state), so a scrape reads
-- a few rows instead of counting every game ever played.
CREATE INDEX games_remind_due ON games (remind_at) WHERE status = 'running';
CREATE INDEX games_active ON games (id) WHERE status IN ('lobby', 'running');
CREATE TABLE game_counts (
    guild_id  INTEGER NOT NULL,
    kind      TEXT    NOT NULL,
    status    TEXT    NOT NULL,
    n         INTEGER NOT NULL,
    PRIMARY KEY (guild_id, kind, status)
);
INSERT INTO game_counts (guild_id, kind, status, n)
    SELECT guild_id, kind, status, COUNT(*) FROM games GROUP BY guild_id, kind, status;
CREATE TRIGGER games_counted_in AFTER INSERT ON games BEGIN
    INSERT INTO game_counts (guild_id, kind, status, n) VALUES (NEW.guild_id, NEW.kind, NEW.status, 1)
        ON CONFLICT (guild_id, kind, status) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER games_counted_moved AFTER UPDATE OF status ON games WHEN OLD.status IS NOT NEW.status BEGIN
    UPDATE game_counts SET n = n - 1 WHERE guild_id = OLD.guild_id AND kind = OLD.kind AND status = OLD.status;
    INSERT INTO game_counts (guild_id, kind, status, n) VALUES (NEW.guild_id, NEW.kind, NEW.status, 1)
        ON CONFLICT (guild_id, kind, status) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER games_counted_out AFTER DELETE ON games BEGIN
    UPDATE game_counts SET n = n - 1 WHERE guild_id = OLD.guild_id AND kind = OLD.kind AND status = OLD.status;
END;
