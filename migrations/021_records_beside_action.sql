-- A step's record rows kept beside its action (issue 38): the ``records`` of the action's row, a JSON
-- array of [type, data] in the step's order, so a step with an action and a record (a Clocktower
-- vote) writes one page of the log, not one of ``actions`` and one of ``game_records``. A step with
-- no action of its own (a game's start) still writes ``game_records``, and rows written there before
-- stay where they are: the record is read from both, in (step, order).
ALTER TABLE actions ADD COLUMN records TEXT;
