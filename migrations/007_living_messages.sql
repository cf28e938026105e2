-- Living messages: a message the bot sent can be edited later. An outbox row either sends
-- (op 'send'), possibly creating a named slot ('phase:<seq>'); or refreshes a phase's slot
-- (op 'refresh'): the message is edited to what the game row says now (its countdown, or "closed"
-- without buttons); or shows its event in a slot the game named (op 'slot', such as a vote
-- tally): an edit of the slot's message, sent the first time. Of a burst of refreshes or of
-- events for one slot, only the last is delivered.
ALTER TABLE outbox ADD COLUMN op TEXT NOT NULL DEFAULT 'send' CHECK (op IN ('send', 'refresh', 'slot'));
ALTER TABLE outbox ADD COLUMN slot TEXT;

-- The Discord messages behind each game's slots: the first carries the countdown, the last the
-- buttons (the same message unless a long text went out in parts). The slot 'board' is the
-- channel message that shows the game's latest events (``shown``, JSON): while it is still the
-- channel's last message, the next phase is edited into it instead of posted anew.
CREATE TABLE message_slots (
    game_id         INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    slot            TEXT    NOT NULL,
    channel_id      INTEGER NOT NULL,
    message_id      INTEGER NOT NULL,
    last_message_id INTEGER NOT NULL,
    shown           TEXT,
    PRIMARY KEY (game_id, slot)
);

-- A phase's time counts from the delivery of the message that opens it: until then the phase's
-- seconds wait here (deadline NULL), so narration still queued never eats the players' time.
ALTER TABLE games ADD COLUMN waiting_seconds REAL;
