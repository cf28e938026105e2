"""The voice table: the game's linked voice channel, the server mutes the rules ask for (kept in
the database, so nobody is left muted), and the phases spoken aloud."""
