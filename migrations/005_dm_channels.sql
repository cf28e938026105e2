-- Each player's DM channel, learnt once: a private message is then one call to Discord (no user
-- fetch, no channel re-open when discord.py's cache of 128 DM channels forgets it).
CREATE TABLE dm_channels (
    user_id    INTEGER PRIMARY KEY,
    channel_id INTEGER NOT NULL
);
