-- The host's display name when the game was made, so the sign-up message can name the host in
-- words beside the mention (a mention shows as a raw id on a phone that has not loaded the member),
-- also after the host gave up their seat.
ALTER TABLE games ADD COLUMN host_name TEXT NOT NULL DEFAULT '';
