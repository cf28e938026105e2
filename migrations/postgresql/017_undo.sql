-- See ../017_undo.sql. PostgreSQL changes the outbox's CHECK in place.
ALTER TABLE outbox DROP CONSTRAINT outbox_target_check;
ALTER TABLE outbox ADD CONSTRAINT outbox_target_check CHECK (target IN ('channel', 'dm', 'group', 'voice', 'undo'));
INSERT INTO outbox (game_id, target, recipient_id, phase_seq, payload, created_at)
    SELECT g.id, 'undo', NULL, g.phase_seq, '{"type": "undo"}', EXTRACT(EPOCH FROM now())
    FROM games AS g JOIN group_threads AS t ON t.game_id = g.id
    WHERE g.status IN ('finished', 'cancelled') AND t.key = 'square:allowed' AND t.members != '[]';
