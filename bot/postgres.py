"""PostgreSQL storage through asyncpg, chosen by ``DATABASE_URL=postgresql://...``.

Several bot processes (shards) share one PostgreSQL database. The queries are ``Store``'s own,
the same SQL as on SQLite with ``?`` turned into ``$1, $2...``; the migrations are the same
numbers in ``migrations/postgresql/``, applied at start-up under an advisory lock (two processes
starting together migrate once) and recorded in ``schema_migrations``.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from .store import MIGRATIONS, Body, Exec, Query, Store, cause_in_words, migration_files, refusing

try:
    import asyncpg
except ImportError:  # pragma: no cover - the message is the point
    asyncpg = None

PG_MIGRATIONS = MIGRATIONS / "postgresql"
#: the advisory lock held while migrating ("STOR")
MIGRATION_LOCK = 0x53544F52


class PostgresUnavailable(RuntimeError):
    """asyncpg is not installed."""


@lru_cache(maxsize=512)
def dollar(sql: str) -> str:
    """``?`` placeholders to PostgreSQL's ``$1, $2...`` (no ``?`` appears in our SQL otherwise)."""
    count = iter(range(1, sql.count("?") + 1))
    return re.sub(r"\?", lambda _m: f"${next(count)}", sql)


def changed(status: str) -> int:
    """Rows changed, from a command status such as ``UPDATE 1`` or ``INSERT 0 1``."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


async def _run_body(conn, body: Body) -> Any:
    """``store._run_body``'s twin over an asyncpg connection: the same statements, awaited (SQLite's
    runs synchronously on its thread, so the two loops cannot be one)."""
    result = None
    try:
        while True:
            statement = body.send(result)
            if isinstance(statement, Exec):
                result = changed(await conn.execute(dollar(statement.sql), *statement.args))
            elif isinstance(statement, Query):
                result = [tuple(r) for r in await conn.fetch(dollar(statement.sql), *statement.args)]
            else:
                await conn.executemany(dollar(statement.sql), statement.rows)
                result = None
    except StopIteration as stop:
        return stop.value
    finally:
        body.close()


class PostgresStore(Store):
    """A pool of asyncpg connections; one transaction takes one connection for its length."""

    SKIP_LOCKED = " FOR UPDATE SKIP LOCKED"

    def __init__(self, pool) -> None:
        self.pool = pool

    @classmethod
    async def open(cls, url: str, *, min_size: int = 1, max_size: int = 10) -> PostgresStore:
        if asyncpg is None:
            raise PostgresUnavailable(
                "DATABASE_URL names PostgreSQL, but asyncpg is not installed: "
                "pip install 'storyteller-bot[postgresql]'")
        with cls.refusals():
            pool = await asyncpg.create_pool(url, min_size=min_size, max_size=max_size)
        return await cls(pool)._ready()

    @refusing
    async def _disconnect(self) -> None:
        await self.pool.close()

    @refusing
    async def migrate(self) -> int:
        async with self.pool.acquire() as conn:
            await conn.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
            try:
                await conn.execute("CREATE TABLE IF NOT EXISTS schema_migrations ("
                                   "version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())")
                version = await self._version(conn)
                for number, path in migration_files(PG_MIGRATIONS):
                    if number <= version:
                        continue
                    async with conn.transaction():
                        await conn.execute(path.read_text())
                        await conn.execute("INSERT INTO schema_migrations (version) VALUES ($1)", number)
                    version = number
                return version
            finally:
                await conn.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)

    @staticmethod
    async def _version(conn) -> int:
        return await conn.fetchval("SELECT coalesce(max(version), 0) FROM schema_migrations")

    @refusing
    async def version(self) -> int:
        async with self.pool.acquire() as conn:
            return await self._version(conn)

    @refusing
    async def _read(self, sql: str, args: tuple = ()) -> list[tuple]:
        return [tuple(r) for r in await self.pool.fetch(dollar(sql), *args)]

    @refusing
    async def _write(self, sql: str, args: tuple = ()) -> int:
        return changed(await self.pool.execute(dollar(sql), *args))

    @refusing
    async def _transaction(self, body: Body) -> Any:
        async with self.pool.acquire() as conn, conn.transaction():
            return await _run_body(conn, body)

    async def after_copy(self) -> None:
        for table in ("games", "actions", "game_records", "outbox"):
            await self._read(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                             f"coalesce(max(id), 0) + 1, false) FROM {table}")

    @staticmethod
    def refusal(exc: BaseException) -> str | None:
        """Any of asyncpg's errors (a constraint too: the error stays a ``UniqueViolationError``
        with its constraint's name, so ``_channel_busy`` still tells its own apart), and a
        connection refused, lost or timed out."""
        of_asyncpg = type(exc).__module__.partition(".")[0] == "asyncpg"
        if of_asyncpg or isinstance(exc, (ConnectionError, TimeoutError)):
            return cause_in_words(exc)
        return None

    def _channel_busy(self, exc: BaseException) -> bool:
        return (asyncpg is not None and isinstance(exc, asyncpg.UniqueViolationError)
                and exc.constraint_name == "games_one_active_per_channel")
