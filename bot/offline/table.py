"""The offline table: the real bot on simcord's in-memory Discord, a browser preview of ``#table``,
a clock pump that keeps simulated time in step with real time, and the table hub.

    async with OfflineTable(settings, ["Ann", "Bo", "Cy"]) as table:
        print(table.preview_url, table.hub_url)
        await table.wait_stopped()
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import sqlite3
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit

import discord
import simcord

import games
from bot.client import StorytellerBot
from bot.config import Settings
from bot.health import serve_health
from bot.views import lobby_view, phase_view

from . import _simcord
from .heard import TableNarrator
from .hub import Hub
from .world import GUILD_NAME, NotInThread, World, build_world, display_name, stable_id

log = logging.getLogger(__name__)


SETTLE_SECONDS = 1.0
BOT_NAME = "Storyteller"


T = TypeVar("T")


class PortBusy(RuntimeError):
    pass


class AlreadyRunning(RuntimeError):
    """Another offline table has this database open: two bots would run the same games."""


@dataclass
class Room:
    """A thread played on the table: a preview of that thread, for its members."""

    thread_id: int
    preview: Any
    gate: _simcord.PreviewGate
    port: int

    @property
    def open(self) -> bool:
        return not _simcord.preview_closed(self.preview)


def lock_database(settings: Settings):
    """Hold an exclusive lock next to the database for as long as the table runs."""
    db = Path(settings.database_path)
    if str(db) == ":memory:":
        return None
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: no lock: run one table at a time
        return None
    db.parent.mkdir(parents=True, exist_ok=True)
    handle = open(db.parent / f".{db.name}.offline-lock", "w")  # noqa: SIM115 - held until stop()
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        raise AlreadyRunning(f"another offline table is already running on {db}; use that one, "
                             "or stop it first (Ctrl+C in its terminal)") from None
    return handle


def forget_threads(settings: Settings, guild_id: int) -> int:
    """The simulated Discord starts with no threads, so the private threads the bot opened for the
    offline guild's games in an earlier run are gone: forget them, and the bot opens new ones at
    the next private message (instead of failing to send to a thread that no longer exists)."""
    db = Path(settings.database_path)
    if str(db) == ":memory:" or not db.exists():
        return 0
    try:
        with contextlib.closing(sqlite3.connect(db, timeout=10)) as conn, conn:
            cursor = conn.execute(
                "DELETE FROM group_threads WHERE game_id IN (SELECT id FROM games WHERE guild_id = ?)",
                (guild_id,))
            return cursor.rowcount
    except sqlite3.OperationalError:  # a database the bot has not migrated yet: no threads to forget
        return 0


def load_secret(settings: Settings) -> str:
    """The table's secret, kept next to the database so the URLs survive a restart."""
    db = Path(settings.database_path)
    if str(db) == ":memory:":
        return secrets.token_urlsafe(32)
    path = db.parent / "offline-secret"
    try:
        text = path.read_text(encoding="utf-8").strip()
        if len(text) >= 32:
            return text
    except OSError:
        pass
    secret = secrets.token_urlsafe(32)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(secret + "\n")
    return secret


class NotStarted(RuntimeError):
    """The table's bot, server and pages exist once ``start`` has made them."""


def _started(value: T | None) -> T:
    if value is None:
        raise NotStarted("the offline table is not started yet")
    return value


class OfflineTable:
    def __init__(self, settings: Settings, names: list[str], *, port: int = 8765,
                 hub_port: int | None = None, secret: str | None = None,
                 pump_interval: float = 0.5, open_preview: bool = True,
                 announce: bool = True) -> None:
        # Slash commands are synced globally inside the simulation; a dev guild id from .env
        # belongs to real Discord and would hide them from the offline guild.
        # No Discord is behind the table, so no budget to pace: a paced call would only hold the
        # click that caused it (simcord waits for the bot's work before it answers a click).
        self.settings = settings.model_copy(update={"dev_guild_id": None, "discord_token": "",
                                                    "discord_calls_per_second": 10000,
                                                    "channel_calls": 1_000_000})
        self.names = names
        self.port = port
        self.hub_port = (port + 1 if port else 0) if hub_port is None else hub_port
        self.secret = secret or load_secret(self.settings)
        self.pump_interval = pump_interval
        self.open_preview = open_preview
        self.announce = announce
        self._bot: StorytellerBot | None = None
        #: what the voice channel would hear (simcord carries no audio)
        self.narrator = TableNarrator()
        self._env: simcord.Env | None = None
        self._world: World | None = None
        self.preview: Any = None
        self._gate: _simcord.PreviewGate | None = None
        self.hub: Hub | None = None
        self.rooms: dict[int, Room] = {}  # thread id -> its room, opened when first asked for
        self.notes: list[str] = []
        self.refreshes = 0
        self._tasks: list[asyncio.Task] = []
        self._time_context: Any = None
        self._stopping = False
        self.finished_sends = True  # whether the sends under way at the stop finished in time
        self._stopped = asyncio.Event()
        self._error_cursor = 0
        self._env_started = False
        self._lock = None

    # ----- lifecycle -----
    async def __aenter__(self) -> OfflineTable:
        try:
            await self.start()
        except BaseException:
            await self.stop()
            raise
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.stop()

    async def start(self) -> None:
        self._lock = lock_database(self.settings)
        forget_threads(self.settings, stable_id("guild", GUILD_NAME))
        warning = _simcord.check_version()
        if warning:
            log.warning(warning)
            self.notes.append(warning)
        # (one process, inside the simulation: it syncs its commands at start, as simcord expects)
        self._bot = StorytellerBot(self.settings, narrator=self.narrator, sync_commands=True)
        self.bot.serves_health = False  # served here, outside simcord's simulated time (HEALTH_PORT)
        self.bot.health = await serve_health(self.bot)
        # settle_timeout: how long simcord waits, in real time, for bot timers before parking
        # them for the clock pump. Short, so a click answers at once and a reveal's pauses play
        # out in real time afterwards instead of holding the click (or timing it out).
        self._env = simcord.Env(self.bot, check_errors=False, settle_timeout=SETTLE_SECONDS,
                                shard_count=None if self.bot.shard_count else 1)
        _simcord.set_epoch(self.env, datetime.now(UTC))
        _simcord.name_bot(self.env, BOT_NAME)
        _simcord.show_mentions()
        _simcord.tick_countdowns()
        self._world = build_world(self.env, self.names)  # before start: the bot sees it in READY
        await self.env.start()  # setup_hook, command sync, READY, on_ready: re-arm timers, deliver
        self._env_started = True
        self._time_context = self.env.time_context()
        self._time_context.__enter__()
        self._gate = _simcord.PreviewGate(self.env)
        await self._join_voice()
        if self.announce:
            await self._announce()
        with contextlib.suppress(TimeoutError):  # a timer due right now; the pump takes over
            await self.env.settle()
        self.hub = Hub(self, self.secret, self.hub_port)
        await self.hub.start()
        if self.hub_port and self.hub.port != self.hub_port:
            self.notes.append(f"Port {self.hub_port} was busy, so the table hub uses port {self.hub.port} "
                              "this time (its address changed).")
        if self.open_preview:
            await self._open_preview()
            self._tasks.append(asyncio.create_task(self._keep_preview(), name="offline-preview"))
        if self.preview is not None:
            self.gate.mark_all(self.preview)
        self._tasks.append(asyncio.create_task(self._pump(), name="offline-clock-pump"))

    async def stop(self) -> None:
        """Close the preview, the hub, simcord and the bot (simcord never closes the bot)."""
        if self._stopping:
            await self._stopped.wait()
            return
        self._stopping = True
        try:
            for task in self._tasks:
                task.cancel()
            await asyncio.gather(*self._tasks, return_exceptions=True)
            if self.hub is not None:
                await self.hub.stop()
            if self.preview is not None:
                with contextlib.suppress(Exception):
                    await self.preview.close()
            for room in self.rooms.values():
                with contextlib.suppress(Exception):
                    await room.preview.close()
            if self._env is not None and self._env_started:
                lock = self._gate.lock if self._gate else asyncio.Lock()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(lock.acquire(), 10)  # let an in-flight click finish
                if self._bot is not None:  # the sends under way finish while simcord still answers
                    self.finished_sends = await self._bot.finish_sends(self.settings.stop_grace_seconds)
                try:
                    await self._env.shutdown()
                except Exception:
                    log.exception("simcord shutdown failed")
            if self._time_context is not None:
                with contextlib.suppress(Exception):
                    self._time_context.__exit__(None, None, None)
                self._time_context = None
            if self._bot is not None:
                await self._bot.close()
        finally:
            if self._lock is not None:
                self._lock.close()
                self._lock = None
            self._stopped.set()

    async def wait_stopped(self) -> None:
        await self._stopped.wait()

    # ----- what start sets up -----
    @property
    def bot(self) -> StorytellerBot:
        return _started(self._bot)

    @property
    def env(self) -> simcord.Env:
        """simcord's environment: the bot's Discord."""
        return _started(self._env)

    @property
    def world(self) -> World:
        """The server, its channels and its members."""
        return _started(self._world)

    @property
    def gate(self) -> _simcord.PreviewGate:
        """Who drives simcord now (a click, the pump, a Python caller): one at a time."""
        return _started(self._gate)

    @property
    def started(self) -> bool:
        return self._bot is not None

    # ----- the preview -----
    @property
    def preview_url(self) -> str | None:
        preview = self.preview
        if preview is None or _simcord.preview_closed(preview):
            return None
        return preview.url

    @property
    def hub_url(self) -> str | None:
        return self.hub.url if self.hub and self.hub.port else None

    async def _open_preview(self) -> None:
        async with self.gate.lock:
            last_error: Exception | None = None
            for port in dict.fromkeys((self.port, 0)):
                preview = self.env.preview(self.world.channel, viewers=self.world.players,
                                           layout="channel", port=port or None)
                self.gate.install(preview, capability=self.secret)
                try:
                    await preview.__aenter__()
                except simcord.SetupError as exc:
                    last_error = exc
                    log.warning("port %s is busy (%s); trying another", port, exc)
                    continue
                if port != self.port and self.port:
                    self.notes.append(f"Port {self.port} was busy, so the table uses port {urlsplit(preview.url).port} "
                                      "this time (its address changed).")
                self.preview = preview
                return
            raise PortBusy(f"the table could not bind a port: {last_error}")

    async def _keep_preview(self) -> None:
        """If someone presses "End preview session" in the browser, the table opens again at once."""
        while not self._stopping:
            preview = self.preview
            await preview.wait_closed()
            if self._stopping:
                return
            log.warning("the preview was ended from the browser; reopening it (reload the page)")
            await asyncio.sleep(0.2)
            try:
                await self._open_preview()
            except Exception:
                log.exception("could not reopen the preview; retrying")
                await asyncio.sleep(2)

    # ----- threads as rooms -----
    async def open_room(self, thread_id: int, member: simcord.MemberActor) -> str:
        """The thread as a page of the table, where its members press its buttons, pick in its
        selects, fill its forms and write, as in the thread on Discord. Opened when first asked
        for, reopened (same address) when the thread's members changed. Returns its address.

        Raises ``NotInThread`` when ``member`` cannot read the thread."""
        thread = next((t for t in self.world.threads() if t.id == thread_id), None)
        readers = self.world.readers(thread) if thread is not None else []
        if thread is None or member not in readers:
            raise NotInThread("That thread is not one of yours.")
        async with self.gate.lock:
            room = self.rooms.get(thread_id)
            if room is not None and room.open and _simcord.viewer_ids(room.preview) != {m.id for m in readers}:
                await room.preview.close()  # a whisper or a co-Storyteller joined: new viewers
            if room is None or not room.open:
                room = await self._open_room(thread, readers, port=room.port if room else 0)
                self.rooms[thread_id] = room
            _simcord.prefer_viewer(room.preview, member)
            return room.preview.url

    async def _open_room(self, thread: simcord.ChannelHandle, readers: list[simcord.MemberActor],
                         *, port: int) -> Room:
        gate = _simcord.PreviewGate(self.env, lock=self.gate.lock)
        try:
            preview = await _simcord.open_room(self.env, gate, thread, readers, port=port,
                                               capability=self.secret)
        except simcord.SetupError as exc:
            if not port:
                raise
            log.warning("the room's port %s is busy (%s); it moves to another", port, exc)
            preview = await _simcord.open_room(self.env, gate, thread, readers, port=0,
                                               capability=self.secret)
        gate.mark_all(preview)
        return Room(thread.id, preview, gate, urlsplit(preview.url).port or 0)

    @contextlib.asynccontextmanager
    async def acting(self):
        """Hold this while driving simcord from Python (actors, settle): the pump and browser wait."""
        async with self.gate.lock:
            yield

    # ----- time and refresh -----
    async def pump_once(self) -> None:
        """Bring simulated time up to real time, then republish the pages behind a change."""
        env, gate = self.env, self.gate
        async with gate.lock:
            if _simcord.operation_busy(env):
                return
            lag = time.time() - env.now().timestamp()
            if lag > 0.01:
                try:
                    await env.advance_time(lag)
                except TimeoutError as exc:
                    # the bot is busy for longer than simcord's settle timeout (a long reveal,
                    # a slow render): what was done is kept, the next tick catches up
                    log.debug("clock pump: %s", exc)
            preview = self.preview
            if preview is not None and not _simcord.preview_closed(preview):
                try:
                    if await gate.refresh(preview):
                        self.refreshes += 1
                except (simcord.SetupError, TimeoutError) as exc:
                    log.debug("refresh skipped: %s", exc)
            for room in list(self.rooms.values()):
                if room.open:
                    try:
                        await room.gate.refresh(room.preview)
                    except (simcord.SetupError, TimeoutError) as exc:
                        log.debug("room refresh skipped: %s", exc)
        self._log_errors()

    async def _pump(self) -> None:
        while True:
            await asyncio.sleep(self.pump_interval)
            try:
                await self.pump_once()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("clock pump tick failed; it goes on")

    def _log_errors(self) -> None:
        env = self.env
        errors = env.errors_since(self._error_cursor)
        self._error_cursor = env.error_cursor
        for error in errors:
            log.error("the bot raised %s: %s", type(error).__name__, error,
                      exc_info=(type(error), error, error.__traceback__))

    # ----- the voice channel -----
    async def _join_voice(self) -> None:
        """Every player sits in the voice channel (at each start: simcord forgets voice states,
        and a running game's silenced players are muted again as they join)."""
        world = self.world
        for member in world.players:
            with contextlib.suppress(TimeoutError):  # a timer due right now; the pump takes over
                await member.join_voice(world.voice)

    # ----- the channel -----
    async def _announce(self) -> None:
        """A welcome in #table, and after a restart the games that go on, with their buttons."""
        bot, world = self.bot, self.world
        channel = bot.get_channel(world.channel.id)
        if not isinstance(channel, discord.abc.Messageable):  # (the table's own text channel, once READY)
            log.warning("the table channel #%s is not in the bot's cache; no welcome", world.channel.name)
            return
        players = ", ".join(display_name(m) for m in world.players)
        kinds = ", ".join(f"`{name}` ({games.get(name).title})" for name in games.available())
        welcome = discord.Embed(
            title="Welcome to the offline table",
            description=(
                f"Players: {players}. {display_name(world.host)} is the host.\n"
                "Choose who you are with **Viewing as** at the top of the page.\n"
                f"Start a game: type `/game new` here. Games: {kinds}.\n"
                + "".join(f"{games.get(name).welcome}\n" for name in games.available() if games.get(name).welcome) +
                f"Everyone sits in the voice channel **{world.voice.name}**; the table hub shows who is "
                "server-muted there and what the bot says aloud.\n"
                "Your secrets: the **My hand** and **Make my choice** buttons under each phase message "
                "(only you see the answer). A game's Storyteller is not seated: "
                + (" or ".join(f"`{games.get(n).truth_command}`" for n in games.available()
                               if games.get(n).truth_command) or "their own commands")
                + " shows them the whole truth.\n"
                "The table hub lists what the bot sent each player privately, and opens each of their "
                "threads on the table (**Open on the table**), to press its buttons and write in it."),
            colour=discord.Colour.dark_purple())
        await channel.send(embed=welcome)
        rows = [r for r in await bot.store.active_games(world.guild.id) if r.channel_id == world.channel.id]
        for row in rows:
            if row.status == "lobby":
                await channel.send(content="The table was restarted; this game is still gathering players.",
                                   embed=await bot.play.lobby_embed(row.id), view=lobby_view(row.id))
            else:
                text = await bot.play.status_text(row)
                embed = discord.Embed(title=f"Game #{row.id} goes on", description=text[:4000],
                                      colour=discord.Colour.dark_purple())
                await channel.send(content="The table was restarted; the game resumes where it was.",
                                   embed=embed, view=phase_view(row.id))
