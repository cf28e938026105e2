-- The messages of the phases a step closed are edited to say so (and lose their buttons) by the
-- delivery, from the game's row (issue 38): a step that opens a new phase of a running game marks
-- its row with the first phase whose message still shows it open, in the UPDATE it makes anyway,
-- instead of writing an outbox row (and a pending-index entry) to refresh it. The delivery closes
-- the messages of the phases from the mark up to the current one, after the channel's pending
-- rows, and clears it; a restart finds the games with a mark among the active ones
-- (``games_active``). No index, as for ``live_step``: an indexed column would be rewritten by
-- every step that names it (and a PostgreSQL update would never be in place).
ALTER TABLE games ADD COLUMN closed_from INTEGER;
