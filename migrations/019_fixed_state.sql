-- A game's fixed part stored once (issue 38): the state's fields set at the start that change
-- rarely or never (``Game.fixed_fields``: the Clocktower's script and pool) are kept in a row of
-- their own, written only when they change, not dumped and written again with every step. A table
-- of its own, not a column of ``games``: SQLite rewrites a row whole on every UPDATE, so a column
-- beside the state would still be written with each vote (and keep the Clocktower's game row past
-- one page). A game stored before keeps them inside ``state`` (no row here) and loads as it did;
-- its next step moves them out.
CREATE TABLE game_fixed (
    game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    fixed   TEXT    NOT NULL
);
