"""The two stores seen from outside: opening one by its address (the SQLite file, the default, or
a PostgreSQL server). Why a database refused travels on the error itself (``store.StoreRefused``).
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
