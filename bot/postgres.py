"""PostgreSQL storage through asyncpg, chosen by ``DATABASE_URL=postgresql://...``.

Several bot processes (shards) share one PostgreSQL database. The queries are ``Store``'s own,
the same SQL as on SQLite with ``?`` turned into ``$1, $2...``; the migrations are the same
numbers in ``migrations/postgresql/``, applied at start-up under an advisory lock (two processes
starting together migrate once) and recorded in ``schema_migrations``.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Awaitable, Callable, Sequence
from functools import lru_cache
from typing import Any

from .deadlines import Deadlines
from .store import (
    DEADLINE_COLUMNS,
    MIGRATIONS,
    Body,
    Exec,
    GameRow,
    MovedOn,
    NewMessage,
    Query,
    Store,
    cause_in_words,
    closes_sql,
    deadline_args,
    migration_files,
    records_json,
    refusing,
)

try:
    import asyncpg
except ImportError:  # pragma: no cover - the message is the point
    asyncpg = None

log = logging.getLogger(__name__)

PG_MIGRATIONS = MIGRATIONS / "postgresql"
#: the channel on which a process that committed to another's game tells its owner (payload: game id)
GAME_CHANNEL = "storyteller_game"


def game_channel(shard: int) -> str:
    """The channel a shard's owner listens on: a notice wakes only the process that runs it."""
    return f"{GAME_CHANNEL}_{shard}"
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
    result: Any = None
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


async def _release(conn) -> None:
    """A connection going back to the pool: a transaction left open (an error inside one) is rolled
    back. asyncpg's own reset also resets every session setting, closes cursors, stops listening and
    releases advisory locks, one more round trip on every release; the store's connections set none
    of those (the migration's lock is released by itself, the listener has its own connection)."""
    if conn.is_in_transaction():
        await conn.execute("ROLLBACK")


def one_statement_commit(game_id: int, *, state: str, phase_seq: int, step: int, deadlines: Deadlines,
                         status: str, actor_id: int | None, action: str | None, messages: list[NewMessage],
                         now: float, records: Sequence[tuple[str, str]], follows: int | None,
                         as_read: GameRow | None, fixed: str | None = None,
                         live: bool = False, closes: int | None = None) -> tuple[str, list[Any]]:
    """The SQL and arguments of ``PostgresStore.commit_step``'s one statement: ``UPDATE games``
    (with the same checks as ``Store.commit_step``), and the rows that select from its result; it
    returns how many game rows were written (0 when a check failed, and then nothing is)."""
    args: list[Any] = [state, phase_seq, step, status, *deadline_args(deadlines), now, game_id]
    set_deadlines = ", ".join(f"{column} = ${n}" for n, column in enumerate(DEADLINE_COLUMNS, start=5))

    def arg(value: Any) -> str:
        args.append(value)
        return f"${len(args)}"

    check = ""
    if follows is not None:
        check += f" AND step = {arg(follows)}"
    if as_read is not None:
        check += (f" AND status = {arg(as_read.status)} AND paused = {arg(int(as_read.paused))}"
                  f" AND COALESCE(deadline, -1.0) = {arg(-1.0 if as_read.deadline is None else as_read.deadline)}"
                  " AND COALESCE(waiting_seconds, -1.0) = "
                  f"{arg(-1.0 if as_read.waiting_seconds is None else as_read.waiting_seconds)}")
    marked = "live_step = $3, " if live else ""  # (the step's living messages wait to be drawn)
    if closes is not None:  # (the phase it closed: its message waits to say so)
        marked += closes_sql(f"{arg(closes)}::INTEGER")
    parts = [
        f"g AS (UPDATE games SET state = $1, phase_seq = $2, step = $3, status = $4, {set_deadlines}, "
        f"{marked}claimed_until = NULL, updated_at = $11 WHERE id = $12{check} RETURNING id)"]
    if fixed is not None:  # (None: the game's fixed part is left as it is)
        parts.append(f"f AS (INSERT INTO game_fixed (game_id, fixed) SELECT id, {arg(fixed)} FROM g "
                     "ON CONFLICT (game_id) DO UPDATE SET fixed = EXCLUDED.fixed)")
    if action is not None:  # (with the step's record rows beside it: ``records_json``)
        parts.append(f"a AS (INSERT INTO actions (game_id, step, actor_id, action, created_at, records) "
                     f"SELECT id, $3, {arg(actor_id)}::BIGINT, {arg(action)}, $11, {arg(records_json(records))}::TEXT "
                     "FROM g)")
    if records and action is None:
        parts.append(
            "r AS (INSERT INTO game_records (game_id, step, seq, type, data, created_at) "
            f"SELECT g.id, $3, t.n - 1, t.type, t.data, $11 FROM g, unnest({arg([k for k, _ in records])}::TEXT[], "
            f"{arg([d for _, d in records])}::TEXT[]) WITH ORDINALITY AS t(type, data, n) ORDER BY t.n)")
    if messages:
        # a row of parameters per message (the first typed): cheaper for the server than
        # ``unnest`` of seven arrays (a Castle turn's two rows, 15-25 µs of its commit; issue 38).
        # The statement's text differs by the number of messages: a prepared statement for each.
        rows = []
        for n, m in enumerate(messages):
            values = [arg(getattr(m, name)) for name, _kind in _MESSAGE_COLUMNS]
            if n == 0:
                values = [f"{value}::{kind}" for value, (_name, kind) in zip(values, _MESSAGE_COLUMNS, strict=True)]
            rows.append(f"({n}, {', '.join(values)})")
        parts.append(
            "o AS (INSERT INTO outbox (game_id, target, recipient_id, phase_seq, payload, image, picture, step, "
            "op, slot, created_at) SELECT g.id, m.target, m.recipient_id, $2, m.payload, m.image, m.picture, $3, "
            f"m.op, m.slot, $11 FROM g, (VALUES {', '.join(rows)}) "
            "AS m(n, target, recipient_id, payload, image, picture, op, slot) ORDER BY m.n)")
    return "WITH " + ", ".join(parts) + " SELECT count(*) FROM g", args


#: an outbox row's columns a step's message gives, with their types
_MESSAGE_COLUMNS = (("target", "TEXT"), ("recipient_id", "BIGINT"), ("payload", "TEXT"), ("image", "BYTEA"),
                    ("picture", "TEXT"), ("op", "TEXT"), ("slot", "TEXT"))


class PostgresStore(Store):
    """A pool of asyncpg connections; one transaction takes one connection for its length."""

    SKIP_LOCKED = " FOR UPDATE SKIP LOCKED"
    #: the token bucket's clock: ``clock_timestamp()``, the time it is read, not ``now()``, the time
    #: the transaction began: ``TAKE_CALLS`` reads it once, after the bucket's row is locked, so an
    #: ask that waited on another's lock refills from that one's time, never from before it
    CLOCK = "CAST(EXTRACT(EPOCH FROM clock_timestamp()) AS DOUBLE PRECISION)"

    def __init__(self, pool, url: str | None = None) -> None:
        self.pool = pool
        #: where the pool connects (a listener opens its own connection there)
        self.url = url
        #: the pool's connection the store keeps for steps' commits, while it is free (``_step_value``)
        self._kept: Any = None
        #: whether the store holds one (free or in a commit now)
        self._keeping = False
        #: connections being given back to the pool after a failure (kept referenced until done)
        self._returning: set[asyncio.Task] = set()

    @classmethod
    async def open(cls, url: str, *, min_size: int = 1, max_size: int = 10) -> PostgresStore:
        if asyncpg is None:
            raise PostgresUnavailable(
                "DATABASE_URL names PostgreSQL, but asyncpg is not installed: "
                "pip install 'storyteller-bot[postgresql]'")
        with cls.refusals():
            pool = await asyncpg.create_pool(url, min_size=min_size, max_size=max_size, reset=_release)
        return await cls(pool, url)._ready()

    @refusing
    async def _disconnect(self) -> None:
        kept, self._kept, self._keeping = self._kept, None, False
        if kept is not None:
            await self.pool.release(kept)
        if self._returning:
            await asyncio.gather(*self._returning, return_exceptions=True)
        await self.pool.close()

    async def _step_value(self, sql: str, args: list[Any]) -> Any:
        """A step's one statement, on the connection the store keeps while it is free, else on one
        of the pool's. asyncpg's pool takes and gives back a connection in about 45 µs of the event
        loop's time (a task to shield the release, a timer re-armed): a tenth of a commit (issue 38).
        A statement the server refuses leaves the connection as it was (the statement runs on its
        own, so no transaction is left open); any other failure (the connection lost, a cancel)
        gives it back to the pool, which resets or closes it, and the next step takes another."""
        conn = self._kept
        if conn is None:
            if self._keeping or self.closed:  # the kept one is in another step's commit now
                return await self.pool.fetchval(sql, *args)
            self._keeping = True
            try:
                conn = await self.pool.acquire()
            except BaseException:
                self._keeping = False
                raise
        self._kept = None
        try:
            value = await conn.fetchval(sql, *args)
        except asyncpg.PostgresError:
            self._keep(conn)
            raise
        except BaseException:
            self._return(conn)
            raise
        self._keep(conn)
        return value

    def _keep(self, conn: Any) -> None:
        if self.closed:  # (closed meanwhile: the pool waits for it)
            self._return(conn)
        else:
            self._kept = conn

    def _return(self, conn: Any) -> None:
        """The kept connection goes back to the pool (in a task: a cancelled step cannot await it)."""
        self._keeping = False
        task = asyncio.get_running_loop().create_task(self._give_back(conn))
        self._returning.add(task)
        task.add_done_callback(self._returning.discard)

    async def _give_back(self, conn: Any) -> None:
        try:
            await self.pool.release(conn)
        except Exception as exc:  # (the pool closes a connection it cannot reset)
            log.debug("a kept connection could not go back to the pool: %s", exc)

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

    async def commit_step(self, game_id: int, *, state: str, phase_seq: int, step: int,
                          deadlines: Deadlines, status: str, actor_id: int | None, action: str | None,
                          messages: list[NewMessage], now: float,
                          substitutes: Sequence[tuple[int, int, str]] = (),
                          records: Sequence[tuple[str, str]] = (),
                          follows: int | None = None, as_read: GameRow | None = None,
                          fixed: str | None = None, live: bool = False, closes: int | None = None) -> None:
        """``Store.commit_step`` in one statement, one round trip: the game's row, its action-log row,
        its record rows and its messages written by one ``UPDATE`` and the ``INSERT``s that select
        from it (data-modifying CTEs), so a check that fails writes nothing, and a single statement
        needs no ``BEGIN`` and ``COMMIT`` of its own (PostgreSQL runs it atomically). Every round trip
        is a wait on the server: five of them made an action 2.5 times a bare commit. A seat changing
        hands (``substitutes``, rare) goes the general way, statement by statement."""
        if substitutes:
            return await super().commit_step(
                game_id, state=state, phase_seq=phase_seq, step=step, deadlines=deadlines, status=status,
                actor_id=actor_id, action=action, messages=messages, now=now, substitutes=substitutes,
                records=records, follows=follows, as_read=as_read, fixed=fixed, live=live, closes=closes)
        sql, args = one_statement_commit(
            game_id, state=state, phase_seq=phase_seq, step=step, deadlines=deadlines, status=status,
            actor_id=actor_id, action=action, messages=messages, now=now, records=records, follows=follows,
            as_read=as_read, fixed=fixed, live=live, closes=closes)
        with self.refusals():
            written = await self._step_value(sql, args)
        if (follows is not None or as_read is not None) and written != 1:
            raise MovedOn(f"game {game_id} is no longer at step {follows} as it was read")

    async def notify_game(self, game_id: int, shard: int) -> None:
        """Tell the game's owner (``GameListener`` on the shard's channel) that it has work:
        timers to arm, messages to send. Never raises: a notice lost here is found by the owner's
        sweep."""
        try:
            await self.pool.execute("SELECT pg_notify($1, $2)", game_channel(shard), str(game_id))
        except Exception as exc:
            log.warning("game %s: the owner was not notified (%s); its sweep will find the work", game_id, exc)

    async def after_copy(self) -> None:
        for table in ("games", "outbox"):
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
    """A connection of its own LISTENing on its shards' channels (``game_channel``; by default
    ``GAME_CHANNEL``): every game id heard is handed to
    ``on_game`` (which checks it owns the game). A lost connection (closed, or found dead by
    ``check``, which the sweep calls) is made again, then ``on_again`` runs: what was notified
    meanwhile is in the database, and the sweep finds it. No task runs while all is well."""

    #: how long a check of the connection may take before it counts as dead
    CHECK_SECONDS = 10.0

    def __init__(self, url: str, on_game: Callable[[int], Awaitable[Any]], *,
                 on_again: Callable[[], Awaitable[Any]] | None = None, retry_seconds: float = 1.0,
                 channels: tuple[str, ...] = (GAME_CHANNEL,)) -> None:
        self.url = url
        self.channels = channels
        self.on_game = on_game
        self.on_again = on_again
        self.retry_seconds = retry_seconds
        #: set while listening
        self.listening = asyncio.Event()
        self.connection = None
        self._stopped = False
        self._again: asyncio.Task | None = None
        self._tasks: set[asyncio.Task] = set()

    async def start(self) -> bool:
        """Listen; when the database cannot be reached now, keep trying in the background.
        Returns whether it listens."""
        if asyncpg is None:
            raise PostgresUnavailable("asyncpg is not installed")
        try:
            await self._connect()
        except Exception as exc:
            log.warning("not listening for handed-over games yet (%s); trying again", exc)
            self._listen_again(catch_up=False)
        return self.listening.is_set()

    async def stop(self) -> None:
        self._stopped = True
        for task in [self._again, *self._tasks]:
            if task is not None:
                task.cancel()
        await self._drop()

    async def check(self) -> bool:
        """Whether the connection answers; a dead one is dropped and made again."""
        conn = self.connection
        if conn is not None and not conn.is_closed():
            try:
                await asyncio.wait_for(conn.execute("SELECT 1"), self.CHECK_SECONDS)
                return True
            except Exception as exc:
                log.warning("the connection listening for handed-over games is dead (%s)", exc)
        await self._drop()
        self._listen_again()
        return False

    async def _connect(self) -> None:
        conn = await asyncpg.connect(self.url)
        try:
            conn.add_termination_listener(self._lost)
            for channel in self.channels:
                await conn.add_listener(channel, self._heard)
        except BaseException:
            conn.terminate()
            raise
        self.connection = conn
        self.listening.set()

    async def _drop(self) -> None:
        conn, self.connection = self.connection, None
        self.listening.clear()
        if conn is not None and not conn.is_closed():
            conn.terminate()

    def _lost(self, conn) -> None:
        if conn is self.connection:
            self.connection = None
            self.listening.clear()
            log.warning("the connection listening for handed-over games was lost")
            self._listen_again()

    def _listen_again(self, *, catch_up: bool = True) -> None:
        if self._stopped or (self._again is not None and not self._again.done()):
            return
        self._again = asyncio.get_running_loop().create_task(self._reconnect(catch_up))

    async def _reconnect(self, catch_up: bool) -> None:
        delay = self.retry_seconds
        while not self._stopped:
            try:
                await self._connect()
                break
            except Exception as exc:
                log.warning("listening for handed-over games failed (%s); again in %.0f s", exc, delay)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 30.0)
        if catch_up and self.on_again is not None:
            try:
                await self.on_again()
            except Exception as exc:  # the periodic sweep comes anyway
                log.warning("catching up after listening again failed (%s)", exc)

    def _heard(self, _conn, _pid, _channel, payload: str) -> None:
        if not payload.isdigit():
            return
        task = asyncio.get_running_loop().create_task(self._handle(int(payload)))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _handle(self, game_id: int) -> None:
        try:
            await self.on_game(game_id)
        except Exception as exc:  # the owner's sweep is the net
            log.warning("game %s: handed over, but not taken up (%s); the sweep will", game_id, exc)
