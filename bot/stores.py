"""The two stores seen from outside: opening one by its address (the SQLite file, the default, or
a PostgreSQL server), and naming why a database refused (``refusal``), so that the service
words a refused write without reading its drivers' errors.
"""

from __future__ import annotations

from pathlib import Path

from .postgres import PostgresStore
from .store import SqliteStore, Store


def is_postgresql(url: str | Path) -> bool:
    return str(url).startswith(("postgresql://", "postgres://"))


async def open_store(url: str | Path, *, synchronous: str = "FULL") -> Store:
    """Open (and migrate) the database: a SQLite file, or a PostgreSQL server for a
    ``postgresql://`` address (``DATABASE_URL``)."""
    if is_postgresql(url):
        return await PostgresStore.open(str(url))
    return await SqliteStore.open(url, synchronous=synchronous)


#: why a database refused: ``refusal``'s answers
BUSY, FULL, READ_ONLY, FAILED = "busy", "full", "read_only", "failed"


def refusal(exc: BaseException) -> str | None:
    """Why the database refused (``BUSY``, ``FULL``, ``READ_ONLY``, or ``FAILED`` for another cause:
    closed, unreachable...), or None when ``exc`` is not the database refusing (a bug). The
    drivers name the cause only in their messages."""
    if not (SqliteStore.refused(exc) or PostgresStore.refused(exc) or isinstance(exc, (ConnectionError, TimeoutError))):
        return None
    text = str(exc).lower()
    if "locked" in text or "busy" in text:
        return BUSY
    if "full" in text:
        return FULL
    if "readonly" in text or "read-only" in text or "read only" in text:
        return READ_ONLY
    return FAILED
