"""PostgreSQL storage through asyncpg, chosen by ``DATABASE_URL=postgresql://...``.

Several bot processes (shards) share one PostgreSQL database. The queries are ``Store``'s own,
the same SQL as on SQLite with ``?`` turned into ``$1, $2...``; the migrations are the same
numbers in ``migrations/postgresql/``, applied at start-up under an advisory lock (two processes
starting together migrate once) and recorded in ``schema_migrations``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import Awaitable, Callable
from functools import lru_cache
from typing import Any

from .store import MIGRATIONS, Body, Exec, Query, Store, cause_in_words, migration_files, refusing

try:
    import asyncpg
except ImportError:  # pragma: no cover - the message is the point
    asyncpg = None

log = logging.getLogger(__name__)

PG_MIGRATIONS = MIGRATIONS / "postgresql"
#: the channel on which a process that committed to another's game tells its owner (payload: game id)
GAME_CHANNEL = "storyteller_game"
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

    def __init__(self, pool, url: str | None = None) -> None:
        self.pool = pool
        #: where the pool connects (a listener opens its own connection there)
        self.url = url

    @classmethod
    async def open(cls, url: str, *, min_size: int = 1, max_size: int = 10) -> PostgresStore:
        if asyncpg is None:
            raise PostgresUnavailable(
                "DATABASE_URL names PostgreSQL, but asyncpg is not installed: "
                "pip install 'storyteller-bot[postgresql]'")
        with cls.refusals():
            pool = await asyncpg.create_pool(url, min_size=min_size, max_size=max_size)
        return await cls(pool, url)._ready()

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

    async def notify_game(self, game_id: int) -> None:
        """Tell the game's owner (``GameListener``) that it has work: timers to arm, messages to
        send. Never raises: a notice lost here is found by the owner's sweep."""
        try:
            await self.pool.execute("SELECT pg_notify($1, $2)", GAME_CHANNEL, str(game_id))
        except Exception as exc:
            log.warning("game %s: the owner was not notified (%s); its sweep will find the work", game_id, exc)

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


class GameListener:
    """A connection of its own LISTENing on ``GAME_CHANNEL``: every game id heard is handed to
    ``on_game`` (which checks it owns the game). A lost connection is made again, after which
    ``on_again`` runs (what was notified meanwhile is in the database: the sweep finds it)."""

    #: how often an idle connection is checked (a server gone silent shows itself here)
    CHECK_SECONDS = 10.0

    def __init__(self, url: str, on_game: Callable[[int], Awaitable[Any]], *,
                 on_again: Callable[[], Awaitable[Any]] | None = None, retry_seconds: float = 1.0) -> None:
        self.url = url
        self.on_game = on_game
        self.on_again = on_again
        self.retry_seconds = retry_seconds
        #: set while listening (tests wait on it)
        self.listening = asyncio.Event()
        self.connection = None
        self._task: asyncio.Task | None = None
        self._handling: set[asyncio.Task] = set()

    def start(self) -> None:
        if asyncpg is None:
            raise PostgresUnavailable("asyncpg is not installed")
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        for task in list(self._handling):
            task.cancel()

    async def _run(self) -> None:
        delay, first = self.retry_seconds, True
        while True:
            try:
                await self._listen(again=not first)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("listening for handed-over games failed (%s); again in %.0f s", exc, delay)
            else:
                log.warning("the connection listening for handed-over games was lost; again in %.0f s", delay)
            first = False
            await asyncio.sleep(delay)
            delay = min(delay * 2, 30.0)

    async def _listen(self, *, again: bool) -> None:
        """Listen until the connection is lost."""
        conn = await asyncpg.connect(self.url)
        try:
            await conn.add_listener(GAME_CHANNEL, self._heard)
            self.connection = conn
            self.listening.set()
            if again and self.on_again is not None:
                await self._catch_up()
            while True:  # (a sleep, not a wait on the connection: an idle bot stays idle)
                await asyncio.sleep(self.CHECK_SECONDS)
                if conn.is_closed():
                    return
                await asyncio.wait_for(conn.execute("SELECT 1"), self.CHECK_SECONDS)
        finally:
            self.listening.clear()
            self.connection = None
            if not conn.is_closed():
                conn.terminate()

    async def _catch_up(self) -> None:
        try:
            await self.on_again()
        except Exception as exc:  # the periodic sweep comes anyway
            log.warning("catching up after listening again failed (%s)", exc)

    def _heard(self, _conn, _pid, _channel, payload: str) -> None:
        if not payload.isdigit():
            return
        task = asyncio.get_running_loop().create_task(self._handle(int(payload)))
        self._handling.add(task)
        task.add_done_callback(self._handling.discard)

    async def _handle(self, game_id: int) -> None:
        try:
            await self.on_game(game_id)
        except Exception as exc:  # the owner's sweep is the net
            log.warning("game %s: handed over, but not taken up (%s); the sweep will", game_id, exc)
