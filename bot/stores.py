"""The two stores seen from outside: opening one by its address (the SQLite file, the default, or
a PostgreSQL server). Why a database refused travels on the error itself (``store.StoreRefused``).
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import urlsplit

from . import postgres
from .postgres import PostgresStore
from .store import SqliteStore, Store, StoreRefused


class DatabaseSettingWrong(Exception):
    """DATABASE_URL or DATABASE_PATH cannot work, and waiting will not change that: the sentence
    says which setting and what to do (``python -m bot`` prints it and exits 2)."""


class DatabaseUnreachable(StoreRefused):
    """The database did not open this time (a server that does not answer, a refused password):
    the sentence names where, and the bot tries again."""


def is_postgresql(url: str | Path) -> bool:
    return str(url).startswith(("postgresql://", "postgres://"))


def where(url: str) -> str:
    """A PostgreSQL address without its password, for the log."""
    parts = urlsplit(url)
    host = parts.hostname or "the local socket"
    port = f":{parts.port}" if parts.port else ""
    return f"{host}{port}{parts.path or ''}"


def check_database(url: str, path: str | Path) -> None:
    """Refuse at once, in a sentence, a database setting that cannot work (``DatabaseSettingWrong``):
    a DATABASE_URL that is not PostgreSQL's or is malformed, asyncpg missing, a DATABASE_PATH whose
    folder cannot be made or written."""
    if url:
        check_postgresql(url)
    else:
        check_sqlite_path(Path(path))


def check_postgresql(url: str) -> None:
    if not is_postgresql(url):
        raise DatabaseSettingWrong(
            f"DATABASE_URL must be a PostgreSQL address such as postgresql://user:password@host/db, not "
            f"{url.split('://')[0] + '://...' if '://' in url else repr(url)}. For the SQLite file, leave "
            "DATABASE_URL empty and set DATABASE_PATH.")
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises on a port that is not a number
    except ValueError as exc:
        raise DatabaseSettingWrong(f"DATABASE_URL is malformed ({exc}); it reads like "
                                   "postgresql://user:password@host:5432/db.") from None
    if postgres.asyncpg is None:
        raise DatabaseSettingWrong(
            "DATABASE_URL names PostgreSQL, but asyncpg is not installed. Install it with "
            "pip install -e '.[postgresql]' (or scripts/setup-venv.sh postgresql), or leave DATABASE_URL "
            "empty to use the SQLite file.")


def check_sqlite_path(path: Path) -> None:
    if str(path) == ":memory:":
        return
    folder = path.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DatabaseSettingWrong(
            f"DATABASE_PATH is {str(path)!r}, but its folder {str(folder)!r} cannot be created or reached "
            f"({exc.strerror or exc}). Choose a folder the bot's user can write to.") from None
    if path.is_dir():
        raise DatabaseSettingWrong(f"DATABASE_PATH is {str(path)!r}, a folder; name a file in it, such as "
                                   f"{str(path / 'storyteller.db')!r}.")
    target = path if path.exists() else folder
    if not os.access(target, os.W_OK) or (not path.exists() and not os.access(folder, os.X_OK)):
        raise DatabaseSettingWrong(
            f"DATABASE_PATH is {str(path)!r}, but {'that file' if target is path else 'its folder'} is "
            "read-only for this user. Make it writable (SQLite also writes -wal and -shm files beside it), "
            "or choose another DATABASE_PATH.")
    if path.exists() and not os.access(folder, os.W_OK):
        raise DatabaseSettingWrong(
            f"DATABASE_PATH is {str(path)!r}, but its folder {str(folder)!r} is read-only for this user, and "
            "SQLite writes its -wal and -shm files there. Make the folder writable.")


async def open_store(url: str | Path, *, synchronous: str = "FULL") -> Store:
    """Open (and migrate) the database: a SQLite file, or a PostgreSQL server for a
    ``postgresql://`` address (``DATABASE_URL``)."""
    if is_postgresql(url):
        try:
            return await PostgresStore.open(str(url))
        except (OSError, TimeoutError) as exc:  # refused, unknown host, timed out: the server, not the data
            raise DatabaseUnreachable(
                f"the PostgreSQL server at {where(str(url))} does not answer ({exc or type(exc).__name__}). "
                "Check DATABASE_URL and that the server runs; the bot keeps trying (Ctrl+C or SIGTERM stops it)") from exc
    return await SqliteStore.open(url, synchronous=synchronous)
