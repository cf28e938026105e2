"""A SQLite file made by an older version of the bot: the migrations up to ``version`` applied, to
be filled with that version's rows and then opened by the store, which upgrades it."""

import sqlite3
from pathlib import Path

from bot.store import migration_files


def database_at(path: Path, version: int) -> sqlite3.Connection:
    """A connection to a new file at schema ``version`` (the caller commits and closes it)."""
    conn = sqlite3.connect(path)
    for number, migration in migration_files():
        if number <= version:
            conn.executescript(migration.read_text())
    conn.execute(f"PRAGMA user_version = {int(version)}")
    return conn
