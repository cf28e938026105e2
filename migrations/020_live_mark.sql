-- The game's living messages (a Clocktower day's tally) drawn when shown (issue 38): a step that
-- changed one marks the game's row, written with the step anyway, with its step; the delivery draws
-- their faces from the committed state and clears the mark. No outbox row (and no pending-index
-- entry) is written per vote, and a restart still finds what it must redraw. No index: the games
-- with a mark are found among the active ones (``games_active``), and an index on the column would
-- be rewritten by every step that names it.
ALTER TABLE games ADD COLUMN live_step INTEGER;
