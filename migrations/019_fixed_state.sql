-- A game's fixed part stored once (issue 38): the state's fields set at the start that change
-- rarely or never (``Game.fixed_fields``: the Clocktower's script and pool) are kept in their own
-- column, written only when they change, not dumped and written again with every step. A row
-- stored before keeps them inside ``state`` (``fixed`` NULL) and loads as it did; its next step
-- moves them out.
ALTER TABLE games ADD COLUMN fixed TEXT;
