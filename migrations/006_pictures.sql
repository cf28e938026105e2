-- Pictures are drawn at delivery, off the bot's event loop, from the public data kept here (JSON)
-- at commit time; drawing inside the commit held every table up (the Castle's tableau: ~50 ms).
ALTER TABLE outbox ADD COLUMN picture TEXT;
