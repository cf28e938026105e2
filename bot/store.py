"""Storage: games, lobby, the action log and the outbox, on SQLite (the default) or PostgreSQL.

One player action is one transaction: the new state, its action-log row and every message it
causes are committed together, so nothing a player was told was accepted is lost to a crash.

``Store`` holds every query once, written with ``?`` placeholders in SQL both engines speak. A
query of several statements is a transaction body: a generator that yields ``Exec``, ``Query``
and ``Many`` statements and is sent back each one's result, so the same body runs on SQLite's
thread in one hop (``SqliteStore``) and over an asyncpg connection (``bot.postgres``);
``bot.stores.open_store`` opens the one an address names.

A database that refuses (busy, full, read-only, closed...) leaves a store as ``StoreRefused``, with
its cause: each engine names its driver's refusals (``refusal``), and its methods that reach the
driver convert them at the boundary (``@refusing``, ``Store.refusals``).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import re
import sqlite3
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, Literal, Self, cast

import aiosqlite

from .deadlines import NONE, Deadlines
from .shards import Shards

log = logging.getLogger(__name__)

MIGRATIONS = Path(__file__).resolve().parent.parent / "migrations"
ACTIVE = ("lobby", "running")


class ChannelBusy(Exception):
    """A game is already open in this channel."""


class MovedOn(Exception):
    """A step was committed after a step other than the one it followed: another process (or a
    writer this one did not know of) committed to the game meanwhile. Nothing was written."""


#: why a database refused: ``StoreRefused.cause``
BUSY, FULL, READ_ONLY, FAILED = "busy", "full", "read_only", "failed"


class StoreRefused(Exception):
    """The database refused a read or a write: nothing was written. ``cause`` says why (``BUSY``,
    ``FULL``, ``READ_ONLY``, or ``FAILED``: closed, unreachable...); the driver's own error is the
    ``__cause__``. What a store raises is of the driver's error class too (``refused``), so code
    that catches the driver's error still catches it."""

    cause: str = FAILED


#: the ``StoreRefused`` that is also a driver's error class, by that class (made once each)
_REFUSED_KINDS: dict[type[BaseException], type[StoreRefused]] = {}


def refused(exc: BaseException, cause: str) -> StoreRefused:
    """A driver's refusal as a ``StoreRefused`` of the same class, message and fields."""
    driver_error = type(exc)
    kind = _REFUSED_KINDS.get(driver_error)
    if kind is None:
        kind = _REFUSED_KINDS[driver_error] = type(
            f"Refused{driver_error.__name__}", (StoreRefused, driver_error), {"__module__": __name__})
    error = kind(*exc.args)
    vars(error).update(vars(exc))  # the driver's fields: SQLite's error code, PostgreSQL's detail...
    error.cause = cause
    return error


def cause_in_words(exc: BaseException) -> str:
    """The cause of a refusal, as the driver's message says it: the drivers name it only there."""
    text = str(exc).lower()
    if "locked" in text or "busy" in text:
        return BUSY
    if "full" in text:
        return FULL
    if "readonly" in text or "read-only" in text or "read only" in text:
        return READ_ONLY
    return FAILED


class Refusals:
    """``Store.refusals``: a driver's refusal raised inside leaves as ``StoreRefused``; anything
    else as it was. (A class, not a generator's context manager: every action enters it twice, and
    this costs a fifth as much.)"""

    __slots__ = ("_refusal",)

    def __init__(self, refusal: Callable[[BaseException], str | None]) -> None:
        self._refusal = refusal

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, _trace: Any) -> Literal[False]:
        if exc is None or isinstance(exc, StoreRefused) or not isinstance(exc, Exception):
            return False
        cause = self._refusal(exc)
        if cause is None:
            return False
        raise refused(exc, cause) from exc


def refusing(method: Callable) -> Callable:
    """Mark an engine's coroutine method that reaches its driver: a refusal leaves it as
    ``StoreRefused`` (``Store.refusals``)."""

    @functools.wraps(method)
    async def converted(self, *args, **kwargs):
        with self.refusals():
            return await method(self, *args, **kwargs)

    return converted


def _mine(shards: Shards | None, column: str = "guild_id") -> tuple[str, tuple]:
    return shards.where(column) if shards is not None else ("", ())


@dataclass(frozen=True)
class CallGrant:
    """What an ask of the token bucket gave: ``calls`` (the whole block, or 0) and the seconds
    ``wait`` until a block as big is there (after this one, when it was given)."""

    calls: int
    wait: float


@dataclass(frozen=True)
class Exec:
    """One statement; the body is sent back how many rows it changed."""

    sql: str
    args: tuple = ()


@dataclass(frozen=True)
class Query:
    """One query; the body is sent back its rows, as tuples."""

    sql: str
    args: tuple = ()


@dataclass(frozen=True)
class Many:
    """One statement run for each row of arguments; the body is sent back None."""

    sql: str
    rows: list[tuple]


Statement = Exec | Query | Many
#: a transaction body: yields statements, receives their results, returns the transaction's result
Body = Generator[Statement, Any, Any]


@dataclass(frozen=True)
class GameRow:
    id: int
    kind: str
    guild_id: int
    channel_id: int
    host_id: int
    status: str
    seed: int
    options: dict[str, Any]
    min_players: int
    max_players: int
    state: str | None
    phase_seq: int
    deadline: float | None
    #: seconds that were left when paused; None while paused means the phase has no timer
    paused_remaining: float | None
    paused: bool = False
    #: the phase's seconds while its clock waits for the delivery of its opening message
    waiting_seconds: float | None = None
    #: where the game's private threads live when not under its channel (a forum post's game)
    thread_channel_id: int | None = None
    #: the host's display name when the game was made
    host_name: str = ""
    #: when the game calls the player it waits for again, after a quiet while (``Game.reminder_seconds``)
    remind_at: float | None = None
    #: the voice channel the game is played in (the voice table), if one is linked
    voice_channel_id: int | None = None
    #: when the current speaking turn ends (None: no turn, or its clock waits or is paused)
    turn_deadline: float | None = None
    #: the step since which the game's living messages (``live`` events: a day's tally) wait to be
    #: drawn from its state; None when every one shows what the state says (migration 020)
    live_step: int | None = None
    #: the first phase whose message still shows it open, a step having closed it and those after
    #: it up to the current phase; None when every closed phase's message says so (migration 022)
    closed_from: int | None = None
    #: the state's fixed part (``Game.dump_fixed``), stored in its own table and only when it changes;
    #: None for a game with none, or a state stored before it was kept apart (that state holds it)
    fixed: str | None = None

    @functools.cached_property
    def deadlines(self) -> Deadlines:
        """The game's clocks as one value (``bot.deadlines``), from its columns (made once per row:
        every action reads it, and ``timed`` gives its copy the value it was made from)."""
        return Deadlines(close=self.deadline, paused=self.paused, remaining=self.paused_remaining,
                         waiting=self.waiting_seconds, remind_at=self.remind_at, turn_ends=self.turn_deadline)

    def timed(self, deadlines: Deadlines, **changes: Any) -> GameRow:
        """This row with its clocks as ``deadlines`` say (as the store writes them), and any other
        ``changes`` of its fields (one copy, not two: the service makes one per action). Copied
        field by field, not with ``dataclasses.replace``, which re-runs ``__init__`` over all 22
        fields: 10 µs of every action, against 1 (issue 38)."""
        if not _GAME_ROW_FIELDS.issuperset(changes):
            raise TypeError(f"GameRow has no field {sorted(changes.keys() - _GAME_ROW_FIELDS)[0]!r}")
        copy = object.__new__(GameRow)
        copy.__dict__.update(self.__dict__, deadline=deadlines.close, paused=deadlines.paused,
                             paused_remaining=deadlines.remaining, waiting_seconds=deadlines.waiting,
                             remind_at=deadlines.remind_at, turn_deadline=deadlines.turn_ends, **changes)
        if _CLOCK_FIELDS.isdisjoint(changes):
            copy.__dict__["deadlines"] = deadlines  # (``deadlines``'s value, as its columns say)
        else:
            copy.__dict__.pop("deadlines", None)
        return copy

    @property
    def threads_under(self) -> int:
        """The text channel private threads are made under."""
        return self.thread_channel_id or self.channel_id


_GAME_ROW_FIELDS = frozenset(f.name for f in fields(GameRow))
#: the columns ``GameRow.deadlines`` is made from
_CLOCK_FIELDS = frozenset({"deadline", "paused", "paused_remaining", "waiting_seconds", "remind_at", "turn_deadline"})


@dataclass(frozen=True)
class Signup:
    """One sign-up of a game: a player, a Traveller or a spectator, with the seat they chose."""

    user_id: int
    name: str
    seat: int | None
    kind: str  # 'player', 'traveller' or 'spectator'


@dataclass(frozen=True)
class OutboxRow:
    id: int
    game_id: int
    target: str
    recipient_id: int | None
    phase_seq: int
    payload: dict[str, Any]
    image: bytes | None
    step: int | None = None  # the step that wrote it; 0 is the deal
    parts_sent: int = 0  # parts of a long text already accepted by Discord
    picture: dict[str, Any] | None = None  # what to draw at delivery (the game's public data)
    op: str = "send"  # 'send', or 'refresh': edit the slot's message to what the game row says now
    slot: str | None = None  # the slot a send creates, or the slot a refresh edits


@dataclass(frozen=True)
class NewMessage:
    target: str  # 'channel', 'dm', or 'group' (a group thread; its key is in the payload)
    recipient_id: int | None
    payload: str
    image: bytes | None = None
    picture: str | None = None  # JSON of the picture's data, drawn at delivery
    op: str = "send"
    slot: str | None = None


@dataclass(frozen=True)
class Slot:
    """The Discord message(s) behind a living message: the countdown is on the first, the buttons
    on the last (the same message unless a long text went out in parts)."""

    channel_id: int
    message_id: int
    last_message_id: int
    shown: list[dict[str, Any]] | None = None  # the events a board message shows


_ROW_COLUMNS = (
    "id, kind, guild_id, channel_id, host_id, status, seed, options, min_players, max_players, "
    "state, phase_seq, deadline, paused_remaining, paused, waiting_seconds, thread_channel_id, host_name, remind_at, "
    "voice_channel_id, turn_deadline, live_step, closed_from"
)
#: a game's fixed part (``GameRow.fixed``), from its own table (migration 019), of the games row ``{games}``
_FIXED_OF = "(SELECT f.fixed FROM game_fixed AS f WHERE f.game_id = {games}.id)"
_GAME_COLUMNS = f"{_ROW_COLUMNS}, {_FIXED_OF.format(games='games')}"
#: the same columns, of a query that names the games table ``g``
_GAME_COLUMNS_OF_G = (", ".join("g." + c.strip() for c in _ROW_COLUMNS.split(",")) + ", "
                      + _FIXED_OF.format(games="g"))
_OUTBOX_COLUMNS = ("id, game_id, target, recipient_id, phase_seq, payload, image, step, parts_sent, picture, "
                   "op, slot")
#: how long a WAL file may stay after a checkpoint (bytes); it is truncated back to this
JOURNAL_SIZE_LIMIT = 64 * 1024 * 1024
SYNCHRONOUS = ("FULL", "NORMAL")
#: the WAL pages past which the writer checkpoints at a commit itself: a safety net only, for when
#: the checkpointer falls behind (below it the checkpointer does it, and no commit waits for one)
WRITER_CHECKPOINT_PAGES = 10_000
#: the commits after which the checkpointer copies the WAL into the database file (about 500
#: to 1,200 pages: a game's step writes 5 to 12)
CHECKPOINT_COMMITS = 100


def _game(row: sqlite3.Row | tuple) -> GameRow:
    (gid, kind, guild, channel, host, status, seed, options, mn, mx, state, seq, deadline,
     remaining, paused, waiting, thread_channel, host_name, remind_at, voice, turn_deadline, live_step,
     closed_from, fixed) = tuple(row)
    return GameRow(gid, kind, guild, channel, host, status, seed, json.loads(options), mn, mx,
                   state, seq, deadline, remaining, bool(paused), waiting, thread_channel, host_name,
                   remind_at, voice, turn_deadline, live_step, closed_from, fixed)


def records_json(records: Sequence[tuple[str, str]]) -> str | None:
    """A step's record rows, (type, JSON data) each, as the JSON array its action's row keeps
    (``actions.records``); None for none."""
    if not records:
        return None
    return "[" + ",".join(f"[{json.dumps(kind)},{data}]" for kind, data in records) + "]"


#: write a game's fixed part (``commit_step``'s ``fixed``), in its own table
UPSERT_FIXED = ("INSERT INTO game_fixed (game_id, fixed) VALUES (?, ?) "
                "ON CONFLICT (game_id) DO UPDATE SET fixed = excluded.fixed")


#: the games table's columns that hold a game's deadlines, as ``deadline_args`` gives their values
DEADLINE_COLUMNS = ("deadline", "paused_remaining", "paused", "waiting_seconds", "remind_at", "turn_deadline")


def deadline_args(d: Deadlines) -> tuple[float | None, float | None, int, float | None, float | None, float | None]:
    """The values of ``DEADLINE_COLUMNS`` that hold ``d``, in that order."""
    return d.close, d.remaining, int(d.paused), d.waiting, d.remind_at, d.turn_ends


#: the ``SET`` of an update that writes a game's deadlines (its arguments: ``deadline_args``)
SET_DEADLINES = ", ".join(f"{column} = ?" for column in DEADLINE_COLUMNS)


def changed_columns(status: str, deadlines: Deadlines, as_read: GameRow | None) -> tuple[str, tuple[Any, ...]]:
    """The ``SET`` part (each ``column = ?, ``) and values for a step's status and clocks: only the
    columns whose value differs from the row as read (all of them when it was not read).

    SQLite rewrites an index whenever its column is named in an UPDATE's SET, changed or not: a
    step that named the status and every clock rewrote five indexes of ``games`` and fsynced their
    pages (12 WAL pages a Castle move, most of them index pages that did not change). A column
    left out keeps what it holds; the status and the phase's clock are also checked against the
    row as read, so what is left out is what is there."""
    new = (status, *deadline_args(deadlines))
    old = None if as_read is None else (as_read.status, *deadline_args(as_read.deadlines))
    kept = [(column, value) for i, (column, value) in enumerate(zip(("status", *DEADLINE_COLUMNS), new, strict=True))
            if old is None or old[i] != value]
    return "".join(f"{column} = ?, " for column, _ in kept), tuple(value for _, value in kept)


def _outbox(r: sqlite3.Row | tuple) -> OutboxRow:
    return OutboxRow(r[0], r[1], r[2], r[3], r[4], json.loads(r[5]), r[6], r[7], r[8],
                     json.loads(r[9]) if r[9] else None, r[10], r[11])


def _insert_messages(game_id: int, phase_seq: int | None, step: int | None, messages: Sequence[NewMessage],
                     now: float) -> Body:
    """Queue messages (``phase_seq`` None: the game's current phase, read in the same statement)."""
    if messages:
        seq = "(SELECT phase_seq FROM games WHERE id = ?)" if phase_seq is None else "?"
        yield Many(
            "INSERT INTO outbox (game_id, target, recipient_id, phase_seq, payload, image, picture, step, "
            f"op, slot, created_at) VALUES (?, ?, ?, {seq}, ?, ?, ?, ?, ?, ?, ?)",
            [(game_id, m.target, m.recipient_id, game_id if phase_seq is None else phase_seq, m.payload,
              m.image, m.picture, step, m.op, m.slot, now) for m in messages])


def closes_sql(phase: str) -> str:
    """The ``SET`` part by which a step that closed a phase marks the game's row with the first
    phase whose message still shows it open: the lower of the mark it has and the phase closed now
    (``phase``: its placeholder, as the engine writes one; bound to the same value twice)."""
    return f"closed_from = CASE WHEN closed_from IS NULL OR closed_from > {phase} THEN {phase} ELSE closed_from END, "


#: ``closes_sql`` for SQLite. Arguments: the phase, twice.
CLOSES = closes_sql("?")

#: take a block of ``want`` calls from the token's bucket in one atomic statement: refill by the
#: database's clock (``{now}``, read once, after the row is locked), capped at the capacity; take
#: the block only when it is all there, else change nothing but the refill. The first ask of a
#: bucket makes its row full. A clock that went back refills nothing (and counts on from its new
#: time). While a lease counts (``leased_until``, see ``Store.take_lease``) the bucket refills slower
#: by the leases' rates, over the whole time since its last refill. Arguments: bucket, capacity,
#: want, rate, capacity, want. (``WHERE true``: SQLite's upsert after a SELECT needs it.)
TAKE_CALLS = (
    "INSERT INTO token_budget (bucket, tokens, refilled_at, granted) "
    "SELECT b.bucket, CASE WHEN b.cap >= b.want THEN b.cap - b.want ELSE b.cap END, {now}, "
    "CASE WHEN b.cap >= b.want THEN b.want ELSE 0 END "
    "FROM (SELECT CAST(? AS TEXT) AS bucket, CAST(? AS DOUBLE PRECISION) AS cap, "
    "CAST(? AS INTEGER) AS want) AS b WHERE true "
    "ON CONFLICT (bucket) DO UPDATE SET (tokens, refilled_at, granted) = ("
    "SELECT CASE WHEN s.avail >= s.want THEN s.avail - s.want ELSE s.avail END, s.t, "
    "CASE WHEN s.avail >= s.want THEN s.want ELSE 0 END "
    "FROM (SELECT d.t, d.want, CASE WHEN token_budget.tokens + d.rate * d.dt > d.cap THEN d.cap "
    "ELSE token_budget.tokens + d.rate * d.dt END AS avail "
    "FROM (SELECT p.t, p.want, p.rate - CASE WHEN token_budget.leased_until > token_budget.refilled_at "
    "THEN token_budget.leased ELSE 0 END AS rate, p.cap, "
    "CASE WHEN p.t > token_budget.refilled_at THEN p.t - token_budget.refilled_at ELSE 0 END AS dt "
    "FROM (SELECT {now} AS t, CAST(? AS DOUBLE PRECISION) AS rate, CAST(? AS DOUBLE PRECISION) AS cap, "
    "CAST(? AS INTEGER) AS want) AS p) AS d) AS s) "
    "RETURNING granted, tokens, CASE WHEN leased_until > refilled_at THEN leased ELSE 0 END")


def migration_files(folder: Path = MIGRATIONS) -> list[tuple[int, Path]]:
    found = []
    for path in sorted(folder.glob("*.sql")):
        match = re.match(r"(\d+)_", path.name)
        if match:
            found.append((int(match.group(1)), path))
    numbers = [n for n, _ in found]
    if numbers != list(range(1, len(numbers) + 1)):
        raise RuntimeError(f"migrations must be numbered 1..N without gaps, found {numbers}")
    return found


class Store:
    """Every query of the bot, on an engine's ``_read``, ``_write`` and ``_transaction``."""

    closed = False
    #: the database's clock in seconds since 1970, read once per statement: SQLite's 'now' holds
    #: still for the length of a statement (and the processes sharing a SQLite file share a machine)
    CLOCK = "((julianday('now') - 2440587.5) * 86400.0)"

    @staticmethod
    def refusal(exc: BaseException) -> str | None:
        """Why the engine's database refused (``BUSY``, ``FULL``, ``READ_ONLY``, ``FAILED``), or None
        when ``exc`` is not the database refusing (a bug)."""
        raise NotImplementedError

    @classmethod
    def refusals(cls) -> Refusals:
        """The store's boundary: a refusal of its driver raised inside leaves as ``StoreRefused``."""
        return Refusals(cls.refusal)

    async def close(self) -> None:
        if not self.closed:
            self.closed = True
            await self._disconnect()

    async def _disconnect(self) -> None:
        raise NotImplementedError

    async def _ready(self) -> Self:
        """Prepare and migrate a store just connected; one that cannot be made ready is closed,
        not left open."""
        try:
            await self._prepare()
            await self.migrate()
        except BaseException:
            await self.close()
            raise
        return self

    async def _prepare(self) -> None:
        """The engine's settings for this connection, before the migrations."""

    async def migrate(self) -> int:
        """Apply each pending migration in its own transaction; return the schema version."""
        raise NotImplementedError

    async def version(self) -> int:
        """The schema version: the number of the last migration applied."""
        raise NotImplementedError

    async def _read(self, sql: str, args: tuple = ()) -> list[tuple]:
        raise NotImplementedError

    async def _write(self, sql: str, args: tuple = ()) -> int:
        """One statement in its own transaction; returns the number of rows it changed."""
        raise NotImplementedError

    async def _transaction(self, body: Body) -> Any:
        """Run a transaction body (see the module's docstring) in one transaction."""
        raise NotImplementedError

    def _channel_busy(self, exc: BaseException) -> bool:
        """Whether ``exc`` is the one-active-game-per-channel index refusing a new game."""
        raise NotImplementedError

    async def after_copy(self) -> None:
        """After rows were copied in with their ids (``bot.migrate``): new rows take the next ids."""

    # ----- games -----
    async def create_game(self, *, kind: str, guild_id: int, channel_id: int, host_id: int,
                          seed: int, options: dict[str, Any], min_players: int, max_players: int,
                          now: float, host_name: str = "", seat_host: bool = False,
                          voice_channel_id: int | None = None) -> int:
        """A new lobby, with its host seated when ``seat_host``: one transaction."""

        def write() -> Body:
            [(game_id,)] = yield Query(
                "INSERT INTO games (kind, guild_id, channel_id, host_id, status, seed, options, "
                "min_players, max_players, created_at, updated_at, host_name, voice_channel_id) "
                "VALUES (?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (kind, guild_id, channel_id, host_id, seed, json.dumps(options), min_players,
                 max_players, now, now, host_name, voice_channel_id))
            if seat_host:
                yield Exec("INSERT INTO lobby_players (game_id, user_id, name, joined_at) "
                           "VALUES (?, ?, ?, ?)", (game_id, host_id, host_name, now))
            return game_id

        try:
            return await self._transaction(write())
        except Exception as exc:
            if self._channel_busy(exc):  # the one-active-game-per-channel index
                raise ChannelBusy() from None
            raise

    async def game(self, game_id: int) -> GameRow | None:
        rows = await self._read(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return _game(rows[0]) if rows else None

    async def active_game_in_channel(self, channel_id: int) -> GameRow | None:
        rows = await self._read(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE channel_id = ? AND status IN ('lobby', 'running')",
            (channel_id,))
        return _game(rows[0]) if rows else None

    async def active_games(self, guild_id: int | None = None, *, shards: Shards | None = None) -> list[GameRow]:
        """The games in a lobby or running: of one server, or of the servers of some shards."""
        mine, args = _mine(shards)
        sql = f"SELECT {_GAME_COLUMNS} FROM games WHERE status IN ('lobby', 'running')" + mine
        if guild_id is not None:
            sql += " AND guild_id = ?"
            args += (guild_id,)
        return [_game(r) for r in await self._read(sql + " ORDER BY id", args)]

    #: how a claim skips rows another transaction holds (PostgreSQL); SQLite has one writer
    SKIP_LOCKED = ""

    async def claim_due(self, now: float, until: float, *, shards: Shards | None = None,
                        limit: int = 100) -> list[tuple[int, int]]:
        """Claim running games whose deadline has passed, until ``until``: (game id, phase). A game
        another process claimed (and has not released by committing) is skipped, so two
        processes sweeping the same shards never close the same phase twice."""
        mine, args = _mine(shards)

        def write() -> Body:
            due = yield Query(
                "SELECT id, phase_seq FROM games WHERE status = 'running' AND paused = 0 AND deadline <= ? "
                "AND (claimed_until IS NULL OR claimed_until < ?)" + mine
                + " ORDER BY deadline, id LIMIT ?" + self.SKIP_LOCKED, (now, now, *args, limit))
            if due:
                yield Many("UPDATE games SET claimed_until = ? WHERE id = ?", [(until, gid) for gid, _seq in due])
            return due

        due = await self._transaction(write())
        held = self._held_claims()
        for gid in [g for g, mine in held.items() if mine < now]:  # lapsed: no longer ours
            del held[gid]
        held.update({gid: until for gid, _seq in due})
        return due

    def _held_claims(self) -> dict[int, float]:
        """The claims this store made (game id -> until), for ``release_claims``."""
        if "_claims" not in self.__dict__:
            self._claims: dict[int, float] = {}
        return self._claims

    async def release_claims(self) -> int:
        """Release the claims this process still holds (a phase it claimed but did not close): at a
        clean stop, so that another process may close those phases at once rather than when the
        lease runs out. A claim another process made since, or one a commit released, is left as
        it is. Returns how many were released."""
        held = self._held_claims()
        if not held:
            return 0

        def write() -> Body:
            released = 0
            for gid, until in held.items():
                released += yield Exec("UPDATE games SET claimed_until = NULL WHERE id = ? AND claimed_until = ?",
                                       (gid, until))
            return released

        released = await self._transaction(write())
        held.clear()
        return released

    async def set_status(self, game_id: int, status: str, now: float,
                         messages: Sequence[NewMessage] = ()) -> None:
        """End a game still in play (``MovedOn``, and nothing written, when another process ended
        it first)."""

        def write() -> Body:
            changed = yield Exec(
                f"UPDATE games SET status = ?, {SET_DEADLINES}, updated_at = ? "
                "WHERE id = ? AND status IN ('lobby', 'running')", (status, *deadline_args(NONE), now, game_id))
            if changed != 1:
                raise MovedOn(f"game {game_id} is no longer in play")
            yield from _insert_messages(game_id, None, None, messages, now)

        await self._transaction(write())

    async def set_timer(self, game_id: int, deadlines: Deadlines, now: float, *,
                        messages: Sequence[NewMessage] = (), phase_seq: int = 0) -> None:
        """The game's clocks, and the messages that show them (a refresh of the phase message), at
        once; ``MovedOn``, and nothing written, when the game is no longer in that phase."""

        def write() -> Body:
            changed = yield Exec(
                f"UPDATE games SET {SET_DEADLINES}, updated_at = ? WHERE id = ? AND status = 'running' "
                "AND phase_seq = ?",
                (*deadline_args(deadlines), now, game_id, phase_seq))
            if changed != 1:
                raise MovedOn(f"game {game_id} is no longer in phase {phase_seq}")
            yield from _insert_messages(game_id, phase_seq, None, messages, now)

        await self._transaction(write())

    async def opener_delivered(self, game_id: int, phase_seq: int, deadline: float | None,
                               delivered: list[int], now: float, turn_deadline: float | None = None) -> bool:
        """Mark a phase's opening rows delivered and start its clock (when ``deadline`` is given
        and the phase still waits for it), in one transaction. Returns whether the clock started."""

        def write() -> Body:
            if delivered:
                yield Many("UPDATE outbox SET delivered_at = ? WHERE id = ?", [(now, i) for i in delivered])
            if deadline is None:
                return False
            return (yield Exec(
                "UPDATE games SET deadline = ?, waiting_seconds = NULL, turn_deadline = ?, updated_at = ? "
                "WHERE id = ? AND phase_seq = ? AND status = 'running' AND paused = 0 "
                "AND waiting_seconds IS NOT NULL",
                (deadline, turn_deadline, now, game_id, phase_seq))) == 1

        return await self._transaction(write())

    # ----- lobby -----
    async def add_player(self, game_id: int, user_id: int, name: str, now: float, *,
                         seat: int | None = None, kind: str = "player") -> bool:
        return await self._write(
            "INSERT INTO lobby_players (game_id, user_id, name, joined_at, seat, kind) "
            "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING", (game_id, user_id, name, now, seat, kind)) == 1

    async def change_signup(self, game_id: int, user_id: int, *, seat: int | None, kind: str) -> bool:
        """Move a sign-up to another seat (or kind): ``/in seat:5`` by someone already signed up."""
        return await self._write(
            "UPDATE lobby_players SET seat = ?, kind = ? WHERE game_id = ? AND user_id = ?",
            (seat, kind, game_id, user_id)) == 1

    async def remove_player(self, game_id: int, user_id: int) -> bool:
        return await self._write(
            "DELETE FROM lobby_players WHERE game_id = ? AND user_id = ?", (game_id, user_id)) == 1

    async def lobby_players(self, game_id: int, kind: str | None = "player") -> list[tuple[int, str]]:
        """(user id, name) of the sign-ups of one kind (all kinds for None), in seat then join order."""
        return [(s.user_id, s.name) for s in await self.signups(game_id) if kind is None or s.kind == kind]

    async def signups(self, game_id: int) -> list[Signup]:
        rows = await self._read(
            "SELECT user_id, name, seat, kind FROM lobby_players WHERE game_id = ? "
            "ORDER BY seat IS NULL, seat, joined_at, user_id", (game_id,))
        return [Signup(*r) for r in rows]

    # ----- Storytellers (games run by people who are not seated) -----
    async def storytellers(self, game_id: int) -> list[tuple[int, str]]:
        """The co-Storytellers added to a game (its host is a Storyteller too, not listed here)."""
        rows = await self._read("SELECT user_id, name FROM game_storytellers WHERE game_id = ? "
                                "ORDER BY added_at, user_id", (game_id,))
        return [(r[0], r[1]) for r in rows]

    async def add_storyteller(self, game_id: int, user_id: int, name: str, now: float) -> bool:
        return await self._write("INSERT INTO game_storytellers (game_id, user_id, name, added_at) "
                                 "VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING", (game_id, user_id, name, now)) == 1

    async def remove_storyteller(self, game_id: int, user_id: int) -> bool:
        return await self._write("DELETE FROM game_storytellers WHERE game_id = ? AND user_id = ?",
                                 (game_id, user_id)) == 1

    async def set_thread_channel(self, game_id: int, channel_id: int | None) -> None:
        await self._write("UPDATE games SET thread_channel_id = ? WHERE id = ?", (channel_id, game_id))

    async def set_options(self, game_id: int, options: dict[str, Any], now: float,
                          limits: tuple[int, int] | None = None) -> bool:
        """Change a lobby's options (a Storyteller loads a script or chooses the pool), and with
        ``limits`` its fewest and most players."""
        if limits is None:
            return await self._write("UPDATE games SET options = ?, updated_at = ? WHERE id = ? AND status = 'lobby'",
                                     (json.dumps(options), now, game_id)) == 1
        return await self._write("UPDATE games SET options = ?, updated_at = ?, min_players = ?, max_players = ? "
                                 "WHERE id = ? AND status = 'lobby'", (json.dumps(options), now, *limits, game_id)) == 1

    async def game_of_thread(self, thread_id: int) -> GameRow | None:
        """The active game one of whose threads (private, group, announcements) this is."""
        rows = await self._read(
            f"SELECT {_GAME_COLUMNS_OF_G} FROM group_threads AS t "
            "JOIN games AS g ON g.id = t.game_id WHERE t.thread_id = ? AND g.status IN ('lobby', 'running')",
            (thread_id,))
        return _game(rows[0]) if rows else None

    # ----- the durable step -----
    async def commit_step(self, game_id: int, *, state: str, phase_seq: int, step: int,
                          deadlines: Deadlines, status: str, actor_id: int | None, action: str | None,
                          messages: list[NewMessage], now: float,
                          substitutes: Sequence[tuple[int, int, str]] = (),
                          records: Sequence[tuple[str, str]] = (),
                          follows: int | None = None, as_read: GameRow | None = None,
                          fixed: str | None = None, live: bool = False, closes: int | None = None) -> None:
        """State, its clocks (``deadlines``, written to their columns), action-log row and
        outgoing messages, in one transaction. ``fixed``: the state's fixed part, written only
        when given (None leaves it as it is: a step that changed none of it). ``live``: the step
        changed a living message, to be drawn from the state (``live_step``). ``closes``: the phase
        the step closed, whose message the delivery is to close (``closed_from``). ``substitutes``:
        (old, new, new name) of players replaced in their seat: the seat's private thread and
        sign-up become the new player's, in the same transaction as the state that says so.
        ``records``: (type, JSON data) rows appended to the game's record. ``follows``: the step
        the game must still be at; ``as_read``: the game's row as the writer read it, whose status
        and timer must still hold (a pause, an extension or a cancel by another process is never
        written over). Either failing raises ``MovedOn``, and nothing is written."""

        def write() -> Body:
            check = ""
            expected: tuple[Any, ...] = ()
            if follows is not None:
                check, expected = " AND step = ?", (follows,)
            if as_read is not None:
                check += (" AND status = ? AND paused = ? AND COALESCE(deadline, -1.0) = ?"
                          " AND COALESCE(waiting_seconds, -1.0) = ?")
                expected += (as_read.status, int(as_read.paused),
                             -1.0 if as_read.deadline is None else as_read.deadline,
                             -1.0 if as_read.waiting_seconds is None else as_read.waiting_seconds)
            columns, values = changed_columns(status, deadlines, as_read)
            if live:
                columns, values = columns + "live_step = ?, ", (*values, step)
            if closes is not None:
                columns, values = columns + CLOSES, (*values, closes, closes)
            changed = yield Exec(
                f"UPDATE games SET state = ?, phase_seq = ?, step = ?, {columns}"
                "claimed_until = NULL, updated_at = ? WHERE id = ?" + check,
                (state, phase_seq, step, *values, now, game_id) + expected)
            if check and changed != 1:
                raise MovedOn(f"game {game_id} is no longer at step {follows} as it was read")
            if fixed is not None:
                yield Exec(UPSERT_FIXED, (game_id, fixed))
            if action is not None:
                yield Exec(
                    "INSERT INTO actions (game_id, step, actor_id, action, created_at, records) "
                    "VALUES (?, ?, ?, ?, ?, ?)", (game_id, step, actor_id, action, now, records_json(records)))
            for old, new, name in substitutes:
                yield Exec("DELETE FROM lobby_players WHERE game_id = ? AND user_id = ?", (game_id, new))
                # a thread the newcomer had before taking the seat (as a spectator) gives way to the seat's
                yield Exec("DELETE FROM group_threads WHERE game_id = ? AND key = ?", (game_id, f"player:{new}"))
                yield Exec("UPDATE group_threads SET key = ? WHERE game_id = ? AND key = ?",
                           (f"player:{new}", game_id, f"player:{old}"))
                yield Exec("UPDATE lobby_players SET user_id = ?, name = ? WHERE game_id = ? AND user_id = ?",
                           (new, name, game_id, old))
                # messages for the seat not yet sent go to its new player: the recipient, and the
                # player id wherever the event names it (a group's members), as the state renames it
                yield Exec("UPDATE outbox SET recipient_id = ? WHERE game_id = ? AND recipient_id = ? "
                           "AND delivered_at IS NULL", (new, game_id, old))
                yield Exec("UPDATE outbox SET payload = REPLACE(payload, ?, ?) WHERE game_id = ? "
                           "AND delivered_at IS NULL", (f'"{old}"', f'"{new}"', game_id))
            if records and action is None:  # (a step with an action keeps them beside it)
                yield Many(
                    "INSERT INTO game_records (game_id, step, seq, type, data, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                    [(game_id, step, seq, kind, data, now) for seq, (kind, data) in enumerate(records)])
            yield from _insert_messages(game_id, phase_seq, step, messages, now)

        await self._transaction(write())

    async def remind(self, game_id: int, phase_seq: int, messages: list[NewMessage], now: float,
                     quiet_since: float | None = None) -> bool:
        """Send a due reminder: clear ``remind_at`` and queue its messages, in one transaction,
        only if the game still waits in that phase with the reminder due (so it goes once), and
        nothing changed in it after ``quiet_since`` (an action another process committed meanwhile)."""

        def write() -> Body:
            quiet, args = ("", ()) if quiet_since is None else (" AND updated_at <= ?", (quiet_since,))
            due = (yield Exec(
                "UPDATE games SET remind_at = NULL WHERE id = ? AND phase_seq = ? AND status = 'running' "
                "AND paused = 0 AND remind_at IS NOT NULL AND remind_at <= ?" + quiet,
                (game_id, phase_seq, now, *args))) == 1
            if due:
                yield from _insert_messages(game_id, phase_seq, None, messages, now)
            return due

        return await self._transaction(write())

    async def last_change(self, game_id: int) -> float | None:
        """When the game last changed (its last step, mostly): what a reminder's quiet counts from."""
        rows = await self._read("SELECT updated_at FROM games WHERE id = ?", (game_id,))
        return rows[0][0] if rows else None

    async def move_reminder(self, game_id: int, phase_seq: int, at: float) -> bool:
        """The game's reminder comes at ``at`` (the quiet it waits for is not over), if it still
        waits in that phase with a reminder set."""
        return await self._write(
            "UPDATE games SET remind_at = ? WHERE id = ? AND phase_seq = ? AND status = 'running' "
            "AND remind_at IS NOT NULL", (at, game_id, phase_seq)) == 1

    async def records(self, game_id: int) -> list[tuple[str, dict[str, Any]]]:
        """The game's record rows, oldest first: (type, data)."""
        return [(kind, data) for kind, data, _at in await self.timed_records(game_id)]

    async def timed_records(self, game_id: int) -> list[tuple[str, dict[str, Any], float]]:
        """The game's record rows, oldest first, with when each was written: (type, data, time).
        Those of a step with an action are kept beside it (``actions.records``, migration 021), the
        others in ``game_records``; both are read, in (step, order)."""
        read = await self._read(  # (one statement: a game's end reads it within the step)
            "SELECT step, seq, type, data, created_at FROM game_records WHERE game_id = ? UNION ALL "
            "SELECT step, 0, NULL, records, created_at FROM actions WHERE game_id = ? AND records IS NOT NULL",
            (game_id, game_id))
        rows = []
        for step, seq, kind, data, at in read:
            if kind is not None:  # a row of game_records
                rows.append((step, seq, kind, json.loads(data), at))
            else:  # an action's records, beside it
                rows += [(step, n, each, value, at) for n, (each, value) in enumerate(json.loads(data))]
        rows.sort(key=lambda r: (r[0], r[1]))
        return [(kind, data, at) for _step, _seq, kind, data, at in rows]

    async def actions(self, game_id: int) -> list[dict[str, Any]]:
        rows = await self._read("SELECT action FROM actions WHERE game_id = ? ORDER BY step", (game_id,))
        return [json.loads(r[0]) for r in rows]

    # ----- the voice table -----
    async def set_voice_channel(self, game_id: int, channel_id: int | None, now: float,
                                messages: Sequence[NewMessage] = ()) -> bool:
        """Link the game to a voice channel (None: unlink) while it is in play, with the messages
        that follow from it (a voice row: the mutes moved to the new channel), at once."""

        def write() -> Body:
            linked = (yield Exec(
                "UPDATE games SET voice_channel_id = ?, updated_at = ? WHERE id = ? "
                "AND status IN ('lobby', 'running')", (channel_id, now, game_id))) == 1
            if linked:
                yield from _insert_messages(game_id, None, None, messages, now)
            return linked

        return await self._transaction(write())

    async def due_turns(self, now: float, *, shards: Shards | None = None) -> list[tuple[int, int]]:
        """Running, unpaused games whose speaking turn is over: (game id, phase)."""
        mine, args = _mine(shards)
        return [(r[0], r[1]) for r in await self._read(
            "SELECT id, phase_seq FROM games WHERE status = 'running' AND paused = 0 "
            "AND turn_deadline <= ?" + mine + " ORDER BY turn_deadline, id", (now, *args))]

    async def note_muted(self, guild_id: int, user_id: int, game_id: int, now: float) -> None:
        """The game is about to ask Discord to mute this member: remember it first."""
        await self._write(
            "INSERT INTO voice_mutes (guild_id, user_id, game_id, muted_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT DO NOTHING", (guild_id, user_id, game_id, now))

    async def forget_muted(self, guild_id: int, user_id: int, game_id: int | None = None) -> None:
        """Discord confirmed the unmute (of one game's mute, or of every game's)."""
        if game_id is None:
            await self._write("DELETE FROM voice_mutes WHERE guild_id = ? AND user_id = ?", (guild_id, user_id))
        else:
            await self._write("DELETE FROM voice_mutes WHERE guild_id = ? AND user_id = ? AND game_id = ?",
                              (guild_id, user_id, game_id))

    async def muted_by_game(self, game_id: int) -> list[int]:
        """The members this game may have muted."""
        return [r[0] for r in await self._read(
            "SELECT user_id FROM voice_mutes WHERE game_id = ? ORDER BY muted_at, user_id", (game_id,))]

    async def forget_mutes(self, guild_id: int, user_id: int, game_ids: list[int]) -> None:
        """Discord confirmed the unmute: forget the rows read before it was asked (a row another
        game wrote meanwhile, for a mute of its own on its way, stays)."""
        if game_ids:
            await self._write(
                "DELETE FROM voice_mutes WHERE guild_id = ? AND user_id = ? AND game_id IN ("
                + ", ".join("?" * len(game_ids)) + ")", (guild_id, user_id, *game_ids))

    async def muted_guilds(self) -> list[int]:
        """The servers where the bot may have muted someone."""
        return [r[0] for r in await self._read("SELECT DISTINCT guild_id FROM voice_mutes ORDER BY guild_id")]

    async def mutes_in_guild(self, guild_id: int) -> dict[int, list[int]]:
        """Every member the bot may have muted in this server, with the games that did."""
        found: dict[int, list[int]] = {}
        for user_id, game_id in await self._read(
                "SELECT user_id, game_id FROM voice_mutes WHERE guild_id = ? ORDER BY user_id, game_id",
                (guild_id,)):
            found.setdefault(user_id, []).append(game_id)
        return found

    async def mutes_of_member(self, guild_id: int, user_id: int) -> list[int]:
        """The games that may have muted this member in this server."""
        return [r[0] for r in await self._read(
            "SELECT game_id FROM voice_mutes WHERE guild_id = ? AND user_id = ? ORDER BY game_id",
            (guild_id, user_id))]

    # ----- outbox -----
    async def pending_messages(self, game_id: int) -> list[OutboxRow]:
        rows = await self._read(
            f"SELECT {_OUTBOX_COLUMNS} FROM outbox WHERE game_id = ? AND delivered_at IS NULL ORDER BY id",
            (game_id,))
        return [_outbox(r) for r in rows]

    async def due_reminders(self, now: float, *, shards: Shards | None = None) -> list[tuple[int, int]]:
        """Running games whose reminder is due, the longest overdue first: (game id, phase). (In
        the order of ``games_remind_due``, so only games in play are read.)"""
        mine, args = _mine(shards)
        return await self._read(
            "SELECT id, phase_seq FROM games WHERE status = 'running' AND paused = 0 AND remind_at <= ?"
            + mine + " ORDER BY remind_at, id", (now, *args))

    async def games_with_pending_messages(self, *, shards: Shards | None = None) -> list[int]:
        """Games with messages to deliver (of the servers of ``shards`` only, when given): rows in
        the outbox, or living messages to draw (``live_step``, looked for among the active games)."""
        mine, args = _mine(shards, "g.guild_id")
        rows = await self._read(
            "SELECT o.game_id FROM outbox AS o JOIN games AS g ON g.id = o.game_id "
            "WHERE o.delivered_at IS NULL" + mine + " UNION "
            "SELECT g.id FROM games AS g WHERE g.status IN ('lobby', 'running') "
            "AND (g.live_step IS NOT NULL OR g.closed_from IS NOT NULL)" + mine + " ORDER BY 1", args + args)
        return [r[0] for r in rows]

    async def phases_closed(self, game_id: int, phase_seq: int) -> None:
        """The messages of the game's phases before ``phase_seq`` say they are closed: its mark is
        cleared, unless a later phase has begun meanwhile (then they are looked at once more)."""
        await self._write("UPDATE games SET closed_from = NULL WHERE id = ? AND phase_seq = ? "
                          "AND closed_from IS NOT NULL", (game_id, phase_seq))

    async def living_drawn(self, game_id: int, step: int) -> None:
        """The game's living messages show its state as of ``step``: its mark is cleared, unless a
        later step marked it again (then they are drawn once more)."""
        await self._write("UPDATE games SET live_step = NULL WHERE id = ? AND live_step <= ?", (game_id, step))

    async def mark_delivered(self, message_id: int, now: float, failure: str | None = None) -> None:
        await self._write(
            "UPDATE outbox SET delivered_at = ?, failure = ? WHERE id = ?", (now, failure, message_id))

    async def mark_all_delivered(self, message_ids: list[int], now: float, failure: str | None = None) -> None:
        """Several rows delivered together (one Discord message carrying several events)."""
        def write() -> Body:
            if message_ids:
                yield Many("UPDATE outbox SET delivered_at = ?, failure = ? WHERE id = ?",
                           [(now, failure, i) for i in message_ids])

        await self._transaction(write())

    async def mark_parts_sent(self, message_id: int, parts_sent: int) -> None:
        await self._write("UPDATE outbox SET parts_sent = ? WHERE id = ?", (parts_sent, message_id))

    async def prune_delivered(self, before: float) -> int:
        """Drop outbox rows delivered before ``before``. A game's state and action log stay (a
        replay needs only the seed and the log); what was sent is only a record of delivery. The
        newest row always stays, so an id is never given twice (the outbox keeps no AUTOINCREMENT
        counter: migration 018)."""
        return await self._write(
            "DELETE FROM outbox WHERE delivered_at IS NOT NULL AND delivered_at < ? "
            "AND id < (SELECT max(id) FROM outbox)", (before,))

    # ----- the token's calls, shared by the processes (bot.token_budget) -----
    async def take_calls(self, bucket: str, want: int, rate: float, capacity: float) -> CallGrant:
        """Take a block of ``want`` calls (at most ``capacity``) from the token bucket ``bucket``,
        refilled at ``rate`` a second up to ``capacity``, in one atomic statement (it returns its
        row, so it goes through ``_read``): all of them or none, and how long until (another)
        ``want`` are there."""
        rows = await self._read(TAKE_CALLS.format(now=self.CLOCK),
                                (bucket, capacity, want, rate, capacity, want))
        granted, tokens, leased = rows[0]
        return CallGrant(granted, max(0.0, want - tokens) / max(rate - leased, rate / 2))

    async def take_lease(self, bucket: str, holder: str, want: int, rate: float, capacity: float, *,
                         lease: int, seconds: float, tail: float, most_leased: float) -> tuple[CallGrant, bool]:
        """Take a block of ``want`` calls (as ``take_calls``: it also refills the bucket up to now
        and locks its row), then lease ``lease`` calls a second for ``seconds`` to ``holder``: from
        now until ``seconds + tail`` from now the bucket refills slower by the rates of the leases
        that count. Refused when the leases would take more than ``most_leased`` calls a second.
        Every lease is granted under the bucket's row lock, so the row's ``leased`` is always the
        sum of the leases that count. Returns the block's grant, and whether the lease was."""
        now = self.CLOCK

        def write() -> Body:
            [(granted, tokens, leased)] = yield Query(TAKE_CALLS.format(now=now),
                                                      (bucket, capacity, want, rate, capacity, want))
            block = CallGrant(granted, max(0.0, want - tokens) / max(rate - leased, rate / 2))
            [(others,)] = yield Query(
                f"SELECT COALESCE(SUM(rate), 0) FROM token_leases WHERE bucket = ? AND holder <> ? "
                f"AND counts_until > {now}", (bucket, holder))
            if others + lease > most_leased:
                return block, False
            yield Exec(f"DELETE FROM token_leases WHERE bucket = ? AND counts_until < {now} - 60", (bucket,))
            yield Exec(
                "INSERT INTO token_leases (bucket, holder, rate, counts_until) "
                f"VALUES (?, ?, ?, {now} + ?) ON CONFLICT (bucket, holder) DO UPDATE SET "
                "rate = excluded.rate, counts_until = excluded.counts_until", (bucket, holder, lease, seconds + tail))
            yield Exec(
                "UPDATE token_budget SET (leased, leased_until) = (SELECT COALESCE(SUM(l.rate), 0), "
                f"COALESCE(MAX(l.counts_until), 0) FROM token_leases AS l WHERE l.bucket = ? "
                f"AND l.counts_until > {now}) WHERE bucket = ?", (bucket, bucket))
            return block, True

        return await self._transaction(write())

    # ----- living messages -----
    async def slot(self, game_id: int, slot: str) -> Slot | None:
        rows = await self._read("SELECT channel_id, message_id, last_message_id, shown FROM message_slots "
                                "WHERE game_id = ? AND slot = ?", (game_id, slot))
        if not rows:
            return None
        channel_id, message_id, last_id, shown = rows[0]
        return Slot(channel_id, message_id, last_id, json.loads(shown) if shown else None)

    async def phase_of_message(self, game_id: int, message_id: int) -> int | None:
        """The latest phase whose slot is this message (None if it shows no phase)."""
        rows = await self._read("SELECT slot FROM message_slots WHERE game_id = ? AND message_id = ? "
                                "AND slot LIKE 'phase:%'", (game_id, message_id))
        seqs = [int(r[0].removeprefix("phase:")) for r in rows]
        return max(seqs) if seqs else None

    async def set_slots(self, game_id: int, slots: dict[str, Slot], *, taken_over: int | None = None) -> None:
        """Save slots at once; with ``taken_over``, first forget the phase slots of that message
        (a later phase was edited into it: their phases are over, with nothing left to close)."""

        def write() -> Body:
            if taken_over is not None:
                yield Exec("DELETE FROM message_slots WHERE game_id = ? AND message_id = ? "
                           "AND slot LIKE 'phase:%'", (game_id, taken_over))
            if slots:
                yield Many(
                    "INSERT INTO message_slots (game_id, slot, channel_id, message_id, last_message_id, shown) "
                    "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, slot) DO UPDATE SET "
                    "channel_id = excluded.channel_id, message_id = excluded.message_id, "
                    "last_message_id = excluded.last_message_id, shown = excluded.shown",
                    [(game_id, name, s.channel_id, s.message_id, s.last_message_id,
                      json.dumps(s.shown) if s.shown is not None else None) for name, s in slots.items()])

        await self._transaction(write())

    async def set_slot(self, game_id: int, slot: str, value: Slot) -> None:
        await self.set_slots(game_id, {slot: value})

    # ----- private threads (per player, and per group of players) -----
    async def group_thread(self, game_id: int, key: str) -> tuple[int, list[int]] | None:
        """The thread of a game's group and the user ids already added to it."""
        rows = await self._read(
            "SELECT thread_id, members FROM group_threads WHERE game_id = ? AND key = ?", (game_id, key))
        return (rows[0][0], json.loads(rows[0][1])) if rows else None

    async def group_threads(self, game_id: int) -> list[tuple[str, int, list[int]]]:
        """Every thread of a game: (key, thread id, user ids added)."""
        rows = await self._read("SELECT key, thread_id, members FROM group_threads WHERE game_id = ? ORDER BY key",
                                (game_id,))
        return [(r[0], r[1], json.loads(r[2])) for r in rows]

    async def set_group_thread(self, game_id: int, key: str, thread_id: int, members: list[int]) -> None:
        await self._write(
            "INSERT INTO group_threads (game_id, key, thread_id, members) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (game_id, key) DO UPDATE SET thread_id = excluded.thread_id, members = excluded.members",
            (game_id, key, thread_id, json.dumps(sorted(members))))

    # ----- DM channels -----
    async def dm_channel(self, user_id: int) -> int | None:
        rows = await self._read("SELECT channel_id FROM dm_channels WHERE user_id = ?", (user_id,))
        return rows[0][0] if rows else None

    async def set_dm_channel(self, user_id: int, channel_id: int) -> None:
        await self._write("INSERT INTO dm_channels (user_id, channel_id) VALUES (?, ?) "
                          "ON CONFLICT (user_id) DO UPDATE SET channel_id = excluded.channel_id",
                          (user_id, channel_id))

    async def forget_dm_channel(self, user_id: int) -> None:
        await self._write("DELETE FROM dm_channels WHERE user_id = ?", (user_id,))

    # ----- guild settings -----
    async def storyteller_role(self, guild_id: int) -> int | None:
        rows = await self._read(
            "SELECT storyteller_role_id FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return rows[0][0] if rows else None

    async def set_storyteller_role(self, guild_id: int, role_id: int | None) -> None:
        await self._write(
            "INSERT INTO guild_settings (guild_id, storyteller_role_id) VALUES (?, ?) "
            "ON CONFLICT (guild_id) DO UPDATE SET storyteller_role_id = excluded.storyteller_role_id",
            (guild_id, role_id))


class Checkpointer:
    """Copies the WAL into the database file, from a connection and a thread of its own.

    SQLite's own checkpoint runs in the commit that takes the WAL past 1,000 pages: that commit,
    and every action queued behind it on the one database thread, waits while about 4 MB are copied
    and the database file is synced (the 1,000-table bench's p99 outliers). Here a passive
    checkpoint runs every ``CHECKPOINT_COMMITS`` commits, beside the writer, and never blocks it.
    Commits start it, not a timer: an idle bot does nothing, and no task waits between two."""

    def __init__(self, path: Path, synchronous: str) -> None:
        self.path = path
        self.synchronous = synchronous
        self._db: aiosqlite.Connection | None = None
        #: the checkpoint running now, if one is (a task lives only while it runs)
        self._running: asyncio.Task[None] | None = None
        self._commits = 0

    async def start(self) -> None:
        self._db = await aiosqlite.connect(self.path, isolation_level=None)
        for pragma in (f"synchronous={self.synchronous}", "busy_timeout=0"):
            await self._db.execute_fetchall(f"PRAGMA {pragma}")

    def committed(self) -> None:
        """A commit went in (called on the event loop): every ``CHECKPOINT_COMMITS``, a checkpoint,
        unless one is still running (the next commits bring the next)."""
        self._commits += 1
        if self._commits < CHECKPOINT_COMMITS or self._db is None or self._running is not None:
            return
        self._commits = 0
        self._running = asyncio.get_running_loop().create_task(self._run(), name="sqlite-checkpoint")

    async def checkpoint(self) -> tuple[int, int, int]:
        """One passive checkpoint: (busy, WAL pages, pages copied), as SQLite reports it."""
        if self._db is None:
            return (0, 0, 0)
        rows = list(await self._db.execute_fetchall("PRAGMA wal_checkpoint(PASSIVE)"))
        busy, pages, copied = rows[0]
        return busy, pages, copied

    async def _run(self) -> None:
        try:
            await self.checkpoint()
        except (sqlite3.Error, ValueError) as exc:  # (busy, or closing: the next one goes on)
            log.debug("A WAL checkpoint did not run: %s", exc)
        finally:
            self._running = None

    async def close(self) -> None:
        running = self._running
        if running is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await running  # (a checkpoint cut short leaves nothing to undo; let it finish)
        db, self._db = self._db, None
        if db is not None:
            await db.close()


class SqliteStore(Store):
    """SQLite through aiosqlite, in WAL mode: the embedded default (nothing to install)."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self.db = db
        self.synchronous = "FULL"
        self.checkpointer: Checkpointer | None = None

    @classmethod
    async def open(cls, path: str | Path, *, synchronous: str = "FULL") -> SqliteStore:
        """Open (and migrate) the database. ``synchronous=FULL`` (the default) keeps every
        acknowledged action through a power cut; ``NORMAL`` survives a crash of the process only."""
        if synchronous.upper() not in SYNCHRONOUS:
            raise ValueError(f"synchronous must be one of {SYNCHRONOUS}, not {synchronous!r}")
        path = Path(path)
        if str(path) != ":memory:":
            path.parent.mkdir(parents=True, exist_ok=True)
        with cls.refusals():
            store = cls(await aiosqlite.connect(path, isolation_level=None))
        store.synchronous = synchronous.upper()
        if str(path) != ":memory:":
            store.checkpointer = Checkpointer(path, store.synchronous)
        return await store._ready()

    @refusing
    async def _prepare(self) -> None:
        for pragma in ("journal_mode=WAL", f"synchronous={self.synchronous}", "foreign_keys=ON",
                       "busy_timeout=5000", f"journal_size_limit={JOURNAL_SIZE_LIMIT}",
                       f"wal_autocheckpoint={WRITER_CHECKPOINT_PAGES if self.checkpointer else 1000}"):
            await self.db.execute_fetchall(f"PRAGMA {pragma}")  # fetched, so no statement stays open
        if self.checkpointer is not None:
            await self.checkpointer.start()

    @refusing
    async def _disconnect(self) -> None:
        if self.checkpointer is not None:
            await self.checkpointer.close()  # (the writer closes last: its close checkpoints the rest)
        await self.db.close()

    @refusing
    async def migrate(self) -> int:
        version = await self.version()
        for number, path in migration_files():
            if number <= version:
                continue
            script = f"BEGIN;\n{path.read_text()}\nPRAGMA user_version = {number};\nCOMMIT;"
            try:
                await self.db.executescript(script)
            except Exception:
                if self.db.in_transaction:  # SQLite may already have rolled back (a full disk)
                    await self.db.execute_fetchall("ROLLBACK")
                raise
            version = number
        return version

    @refusing
    async def version(self) -> int:
        return list(await self.db.execute_fetchall("PRAGMA user_version"))[0][0]

    # ----- one hop to the database thread -----
    async def _in_thread(self, fn, *args):
        """Run ``fn(sqlite3_connection, *args)`` on aiosqlite's own thread, as one call.

        aiosqlite hops to its thread once per call. A read made as ``execute`` then ``fetchall``
        takes two hops and holds a read snapshot in between, while other games commit, which keeps
        WAL checkpoints from completing; every read here is one hop. This is the one place that
        reaches past aiosqlite's public API.
        """
        conn = self.db._conn  # noqa: SLF001
        return await self.db._execute(fn, conn, *args)  # noqa: SLF001

    @refusing
    async def _read(self, sql: str, args: tuple = ()) -> list[tuple]:
        # (no row_factory is set: sqlite3 gives plain tuples, which aiosqlite's stubs call Row)
        return cast(list[tuple], list(await self.db.execute_fetchall(sql, args)))

    @refusing
    async def _write(self, sql: str, args: tuple = ()) -> int:
        """One statement in its own transaction; returns the number of rows it changed."""
        return await self._in_thread(lambda conn: conn.execute(sql, args).rowcount)

    @refusing
    async def _transaction(self, body: Body) -> Any:
        """The body inside BEGIN IMMEDIATE ... COMMIT, on the database thread, in one hop."""

        def run(conn: sqlite3.Connection):
            conn.execute("BEGIN IMMEDIATE")
            try:
                result = _run_body(conn, body)
                conn.execute("COMMIT")
                return result
            except BaseException:
                # SQLite rolls back by itself on some errors (a full disk): only roll back what is
                # still open, so the real cause is what gets reported
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise

        result = await self._in_thread(run)
        if self.checkpointer is not None:
            self.checkpointer.committed()
        return result

    def _channel_busy(self, exc: BaseException) -> bool:
        return isinstance(exc, sqlite3.IntegrityError) and "games.channel_id" in str(exc)

    @staticmethod
    def refusal(exc: BaseException) -> str | None:
        """Any of SQLite's errors (locked, read-only, full, closed; a constraint too: the error
        stays an ``IntegrityError``, so ``_channel_busy`` still tells its own apart)."""
        if isinstance(exc, sqlite3.Error) or (isinstance(exc, ValueError) and "closed" in str(exc).lower()):
            return cause_in_words(exc)
        return None


def _run_body(conn: sqlite3.Connection, body: Body) -> Any:
    """Run a transaction body's statements on a sqlite3 connection (on the database thread)."""
    result: Any = None
    try:
        while True:
            statement = body.send(result)
            if isinstance(statement, Exec):
                result = conn.execute(statement.sql, statement.args).rowcount
            elif isinstance(statement, Query):
                result = [tuple(r) for r in conn.execute(statement.sql, statement.args).fetchall()]
            else:
                # (the cursor is closed on the database thread: one collected on the loop's thread
                # while the database thread works is an "API misuse" to SQLite)
                conn.executemany(statement.sql, statement.rows).close()
                result = None
    except StopIteration as stop:
        return stop.value
