-- A reminder per game: when a phase with no timer has been quiet this long, the game calls the
-- player it waits for again (the Castle's turn without a turn timer). Not a game action: it
-- changes no state, and is cleared when sent or when anything happens in the game.
ALTER TABLE games ADD COLUMN remind_at REAL;
