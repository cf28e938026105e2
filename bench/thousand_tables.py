"""A thousand concurrent tables in one process: the real StorytellerBot (service, store, delivery,
pacer, APScheduler timers, discord.py's own Message/Channel/View objects) on a fake Discord that
answers every REST call from a tiny in-memory model after a modelled round trip.

The game is the real Ritual, 3-5 players a table (distinct users), with the game's own phase
lengths (90/45/120 s, or ``--phase-seconds`` for all three), each table's scaled by its own factor
in 1 +- ``--jitter`` so that tables started together drift apart. Players act at a fixed total rate
(open loop: an action goes on time whether or not the last one returned), each a random legal
action of a random running table, sent as the bot's buttons send it (with the phase's number, so
an action overtaken by a phase change is refused as stale, and counted). A table that ends is
replaced by a new one, so the number of tables stays constant.

Runs, one after another on one bot and one database file:
  1. ``--rate`` actions/s with the pacer unlimited: ``service.act`` latency p50/p99, the longest
     event-loop stall (a task sleeping 1 ms in a loop), the longest GC pause, peak RSS
     (ru_maxrss), calls/s to Discord. With ``--gc both`` (the default) it runs twice, side by
     side: with the interpreter's default GC, then after ``bot.client.tune_gc()`` (what the bot
     does after start-up recovery when GC_FREEZE is on).
  2. the same with the pacer at ``--budget`` calls/s (``--channel-calls`` per route per channel in
     5 s): also the time from the commit that opened a phase to the delivery of its opening
     message (openers found by wrapping ``store.commit_step``, their delivery by wrapping
     ``service.start_clock``, which the delivery calls once the opener is posted).
  3. restart: the bot is closed as a crash would, tables running and the backlog undelivered; a
     new bot on the same file (APScheduler running, pacer at the budget) times
     ``service.rearm_all()``, then ``delivery.drain_all()``, and when every timer is armed (a
     phase whose opener was not posted gets its clock only when the drain posts it).

The fake Discord: every call sleeps ``--latency`` s, then answers like Discord (a guild text
channel, a full message payload, a DM channel; anything else an empty dict, counted). Guilds and
channels are in discord.py's cache, as GUILD_CREATE would put them; each posted channel message is
fed back as the gateway's MESSAGE_CREATE, as Discord does for the bot's own messages, so the
channel's ``last_message_id`` moves and the game's board can be edited in place. Theatrical pauses
are off (``pause_scale=0``); no interaction is open, so every private message is a DM (none rides
on a follow-up); SQLite runs with synchronous=FULL, as shipped. The first minutes after a
simultaneous start of every table are not a steady state: the figure "openers committed" says
how fast phases were turning over in each run.

    .venv/bin/python bench/thousand_tables.py [--tables 1000] [--rate 100] [--seconds 30]
        [--budget 50] [--gc both|default|frozen] [--phase-seconds 0] [--latency 0.05] [--quick]

``--quick``: 100 tables, 50 actions/s, 5 s runs (a smoke run of about 20 s).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import itertools
import json
import logging
import random
import resource
import sys
import tempfile
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import discord  # noqa: E402
from discord.http import Route  # noqa: E402

import games  # noqa: E402
from bot import client as client_module  # noqa: E402
from bot.actor import Actor  # noqa: E402
from bot.client import StorytellerBot  # noqa: E402
from bot.config import Settings  # noqa: E402
from bot.pacer import Pacer  # noqa: E402
from games.engine import GameError  # noqa: E402

GAME = "ritual"
PHASES = ("choosing_seconds", "offering_seconds", "council_seconds")
BOT_ID = 900_000_000_000_000_001
GUILD_BASE = 300_000_000_000_000_000
CHANNEL_BASE = 400_000_000_000_000_000
USER_BASE = 500_000_000_000_000_000
UNLIMITED = {"discord_calls_per_second": 10_000, "channel_calls": 1_000_000}  # the settings' maxima


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def rss_kib() -> int:
    """The resident set now (KiB), from /proc."""
    try:
        with open("/proc/self/statm") as f:
            pages = int(f.read().split()[1])
        return pages * resource.getpagesize() // 1024
    except OSError:
        return 0


def peak_rss_kib() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux


# ----------------------------------------------------------------------------- the fake Discord
class FakeDiscord:
    """Stands in for ``HTTPClient.request``: the round trip, then what Discord would answer."""

    def __init__(self, state, latency: float, channels: dict[int, int]) -> None:
        self.state = state  # the bot's ConnectionState (for the gateway echo)
        self.latency = latency
        self.channels = channels  # guild text channel id -> guild id
        self.dm_channels: dict[int, int] = {}  # DM channel id -> user id
        self.ids = itertools.count(700_000_000_000_000_000)
        self.calls: list[tuple[float, str, str]] = []  # (monotonic, method, route template)
        self.other: Counter = Counter()
        self.user = {"id": str(BOT_ID), "username": "storyteller", "discriminator": "0", "avatar": None,
                     "bot": True, "global_name": None}

    async def request(self, route: Route, *, files=None, form=None, **kwargs):
        self.calls.append((time.monotonic(), route.method, route.path))
        await asyncio.sleep(self.latency)
        parts = route.url[len(Route.BASE):].strip("/").split("/")
        body = kwargs.get("json")
        if body is None and form:
            body = next((json.loads(f["value"]) for f in form if f.get("name") == "payload_json"), {})
        body = body or {}
        method = route.method
        if parts[0] == "channels" and len(parts) == 2 and method == "GET":
            return self.channel_payload(int(parts[1]))
        if parts[0] == "channels" and len(parts) == 3 and parts[2] == "messages" and method == "POST":
            channel_id = int(parts[1])
            payload = self.message(channel_id, next(self.ids), body, files)
            guild_id = self.channels.get(channel_id)
            if guild_id is not None:  # the gateway's MESSAGE_CREATE for the bot's own message
                self.state.parse_message_create({**payload, "guild_id": str(guild_id)})
            return payload
        if parts[0] == "channels" and len(parts) == 4 and parts[2] == "messages" and method == "PATCH":
            return self.message(int(parts[1]), int(parts[3]), body, files, edited=True)
        if parts[:3] == ["users", "@me", "channels"] and method == "POST":
            user_id = int(body.get("recipient_id"))
            channel_id = next(self.ids)
            self.dm_channels[channel_id] = user_id
            return self.dm_payload(channel_id, user_id)
        self.other[f"{method} {route.path}"] += 1
        return {}

    def channel_payload(self, channel_id: int) -> dict:
        if channel_id in self.dm_channels:
            return self.dm_payload(channel_id, self.dm_channels[channel_id])
        return text_channel(channel_id, self.channels.get(channel_id, GUILD_BASE))

    def dm_payload(self, channel_id: int, user_id: int) -> dict:
        return {"id": str(channel_id), "type": 1, "last_message_id": None,
                "recipients": [{"id": str(user_id), "username": f"u{user_id}", "discriminator": "0",
                                "avatar": None, "global_name": None}]}

    def message(self, channel_id: int, message_id: int, body: dict, files, *, edited: bool = False) -> dict:
        now = datetime.now(UTC).isoformat()
        attachments = [{"id": str(next(self.ids)), "filename": f.filename or "file", "size": 1,
                        "url": "https://cdn.invalid/x", "proxy_url": "https://cdn.invalid/x"}
                       for f in files or ()]
        return {"id": str(message_id), "channel_id": str(channel_id), "author": self.user,
                "content": body.get("content") or "", "embeds": body.get("embeds") or [],
                "components": body.get("components") or [], "timestamp": now,
                "edited_timestamp": now if edited else None, "tts": False, "mention_everyone": False,
                "mentions": [], "mention_roles": [], "attachments": attachments, "pinned": False,
                "type": 0, "flags": 0, "nonce": body.get("nonce")}


def text_channel(channel_id: int, guild_id: int) -> dict:
    return {"id": str(channel_id), "type": 0, "guild_id": str(guild_id), "name": f"games-{channel_id % 100000}",
            "position": 0, "permission_overwrites": [], "nsfw": False, "parent_id": None,
            "topic": None, "last_message_id": None, "rate_limit_per_user": 0}


def guild_payload(guild_id: int, channel_ids: list[int]) -> dict:
    return {"id": str(guild_id), "name": f"guild {guild_id % 100000}", "owner_id": str(USER_BASE),
            "unavailable": False, "member_count": 10, "large": False, "features": [], "emojis": [],
            "stickers": [], "members": [], "presences": [], "voice_states": [], "threads": [],
            "roles": [{"id": str(guild_id), "name": "@everyone", "permissions": "0", "position": 0,
                       "color": 0, "hoist": False, "managed": False, "mentionable": False}],
            "channels": [{k: v for k, v in text_channel(c, guild_id).items() if k != "guild_id"}
                         for c in channel_ids]}


# ----------------------------------------------------------------------------- measuring
class StallMonitor:
    """Sleeps 1 ms in a loop; the lateness of each wake-up is an event-loop stall."""

    def __init__(self) -> None:
        self.worst = 0.0
        self.over_50ms = 0
        self._task: asyncio.Task | None = None

    def reset(self) -> None:
        self.worst, self.over_50ms = 0.0, 0

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            t = loop.time()
            await asyncio.sleep(0.001)
            late = loop.time() - t - 0.001
            if late > self.worst:
                self.worst = late
            if late > 0.05:
                self.over_50ms += 1

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task


class GcWatch:
    """The longest garbage collection (by generation) and how many there were."""

    def __init__(self) -> None:
        self._started = 0.0
        self.reset()

    def reset(self) -> None:
        self.worst = [0.0, 0.0, 0.0]
        self.count = [0, 0, 0]
        self.collected = [0, 0, 0]  # what the longest of each generation collected

    def __call__(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._started = time.perf_counter()
            return
        gen = info.get("generation", 0)
        took = time.perf_counter() - self._started
        self.count[gen] += 1
        if took > self.worst[gen]:
            self.worst[gen] = took
            self.collected[gen] = info.get("collected", 0)


class Openers:
    """Commit of a phase-opening message -> its delivery (``service.start_clock``)."""

    def __init__(self, bot: StorytellerBot) -> None:
        self.committed: dict[tuple[int, int], float] = {}
        self.delays: list[float] = []
        self.recording = False
        store, service = bot.store, bot.service
        commit_step, start_clock = store.commit_step, service.start_clock

        async def commit_step_timed(game_id, **kwargs):
            result = await commit_step(game_id, **kwargs)
            if self.recording and any(m.op == "send" and (m.slot or "").startswith("phase:")
                                      for m in kwargs.get("messages") or ()):
                self.committed[(game_id, kwargs["phase_seq"])] = time.monotonic()
            return result

        async def start_clock_timed(game_id, phase_seq, started_at, delivered):
            t0 = self.committed.pop((game_id, phase_seq), None)
            if t0 is not None:
                self.delays.append(time.monotonic() - t0)
            return await start_clock(game_id, phase_seq, started_at, delivered)

        store.commit_step = commit_step_timed
        service.start_clock = start_clock_timed

    def reset(self) -> None:
        self.committed.clear()
        self.delays.clear()


class Window:
    """What one measured run saw."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.latencies: list[float] = []
        self.refused: Counter = Counter()
        self.started = self.ended = 0.0
        self.calls: list[tuple[float, str, str]] = []
        self.figures: dict[str, str] = {}
        self.details: dict[str, str] = {}


# ----------------------------------------------------------------------------- the harness
class Harness:
    def __init__(self, args: argparse.Namespace, db_path: Path) -> None:
        self.args = args
        self.db_path = db_path
        self.chooser = random.Random(args.seed)
        self.running: list[int] = []  # game ids being played
        self.running_set: set[int] = set()
        self.table_no = itertools.count()
        self.players: dict[int, int] = {}  # game id -> table number
        self.inflight: set[asyncio.Task] = set()
        self.started_games = 0
        self.finished_games = 0
        self.window: Window | None = None
        self.n_guilds = max(1, args.tables // args.tables_per_guild)
        # channels: enough for the tables and their replacements (a channel holds one game at a time)
        self.n_channels = args.tables * 4
        self.channels = {CHANNEL_BASE + i: GUILD_BASE + i % self.n_guilds for i in range(self.n_channels)}
        self.free_channels = list(self.channels)

    def settings(self, **overrides) -> Settings:
        values = {"discord_token": "offline", "database_path": str(self.db_path), "pause_scale": 0,
                  "gc_freeze": False, "log_level": "WARNING"} | UNLIMITED | overrides
        return Settings(_env_file=None, **values)

    async def new_bot(self, *, use_scheduler: bool = True, **settings) -> tuple[StorytellerBot, FakeDiscord]:
        bot = StorytellerBot(self.settings(**settings), sync_commands=False, use_scheduler=use_scheduler)
        await bot._async_setup_hook()  # the loop, as login() would
        state = bot._connection
        state.user = discord.ClientUser(state=state, data={
            "id": str(BOT_ID), "username": "storyteller", "discriminator": "0", "avatar": None,
            "bot": True, "global_name": None, "verified": True, "mfa_enabled": False, "flags": 0})
        state.application_id = BOT_ID
        by_guild: dict[int, list[int]] = {}
        for channel_id, guild_id in self.channels.items():
            by_guild.setdefault(guild_id, []).append(channel_id)
        for guild_id, channel_ids in by_guild.items():  # what GUILD_CREATE would have cached
            state._add_guild_from_data(guild_payload(guild_id, channel_ids))
        fake = FakeDiscord(state, self.args.latency, self.channels)
        bot.http.request = fake.request
        await bot.setup_hook()
        return bot, fake

    # ----- tables -----
    async def open_table(self, service) -> int | None:
        if not self.free_channels:
            return None
        channel_id = self.free_channels.pop()
        number = next(self.table_no)
        n_players = self.chooser.randint(3, 5)
        ids = [USER_BASE + number * 10 + k for k in range(n_players)]
        host = Actor(id=ids[0], name=f"p{number}.0")
        row = await service.new_game(
            kind=GAME, guild_id=self.channels[channel_id], channel_id=channel_id, host=host,
            options_text=self.phase_options())
        for k, uid in enumerate(ids[1:], start=1):
            await service.join(row.id, Actor(id=uid, name=f"p{number}.{k}"))
        await service.start(row.id, host)
        self.players[row.id] = number
        self.running.append(row.id)
        self.running_set.add(row.id)
        self.started_games += 1
        return row.id

    def phase_options(self) -> str:
        """The table's phase lengths: the Ritual's own (or ``--phase-seconds``), each table's scaled
        by its own factor in 1 +- ``--jitter``, so that 1,000 tables started together drift apart."""
        factor = 1 + self.chooser.uniform(-self.args.jitter, self.args.jitter)
        fields = games.get(GAME).Options.model_fields
        parts = []
        for name in PHASES:
            info = fields[name]
            low = next(m.ge for m in info.metadata if hasattr(m, "ge"))
            high = next(m.le for m in info.metadata if hasattr(m, "le"))
            base = self.args.phase_seconds or info.default
            parts.append(f"{name}={min(high, max(low, round(base * factor)))}")
        return " ".join(parts)

    async def open_tables(self, service, n: int) -> None:
        gate = asyncio.Semaphore(32)

        async def one() -> None:
            async with gate:
                await self.open_table(service)

        await asyncio.gather(*(one() for _ in range(n)))

    def watch(self, bot) -> None:
        """Replace a table as soon as its game ends (by an action, a timeout or the sweep)."""
        bot.service.on_game_over.append(lambda game_id: self.finished(game_id, bot.service))

    def finished(self, game_id: int, service) -> None:
        if game_id in self.running_set:
            self.running_set.discard(game_id)
            self.running.remove(game_id)
            self.finished_games += 1
            task = asyncio.get_running_loop().create_task(self.open_table(service))  # keep N tables
            self.inflight.add(task)
            task.add_done_callback(self.inflight.discard)

    # ----- actions -----
    async def one_action(self, service, window: Window) -> None:
        if not self.running:
            return
        game_id = self.chooser.choice(self.running)
        try:
            table = await service.load(game_id)
        except GameError:
            self.finished(game_id, service)
            window.refused["not running"] += 1
            return
        legal = table.game.legal_actions(table.state)
        if not legal:
            window.refused["no legal action"] += 1
            return
        data = self.chooser.choice(legal).model_dump()
        data["phase_seq"] = table.state.phase_seq  # as the phase's buttons send it
        t0 = time.perf_counter()
        try:
            outcome = await service.act(game_id, int(data["player"]), data)
        except GameError as exc:
            window.latencies.append(time.perf_counter() - t0)
            window.refused[getattr(exc, "code", None) or type(exc).__name__] += 1
            return
        window.latencies.append(time.perf_counter() - t0)
        if outcome.state.finished:
            self.finished(game_id, service)

    async def drive(self, bot, fake: FakeDiscord, window: Window, seconds: float, rate: float,
                    monitor: StallMonitor, gcw: GcWatch, openers: Openers) -> None:
        loop = asyncio.get_running_loop()
        await asyncio.sleep(0.01)  # the monitor first sees (and the reset then drops) what came before
        monitor.reset()
        gcw.reset()
        openers.reset()
        openers.recording = True
        calls_before = len(fake.calls)
        finished_before, started_before = self.finished_games, self.started_games
        window.started = time.monotonic()
        start = loop.time()
        next_at = start
        n = 0
        while True:
            now = loop.time()
            if now - start >= seconds:
                break
            while next_at <= now:
                task = loop.create_task(self.one_action(bot.service, window))
                self.inflight.add(task)
                task.add_done_callback(self.inflight.discard)
                n += 1
                next_at = start + n / rate
            await asyncio.sleep(max(0.0, next_at - loop.time()))
        window.ended = time.monotonic()
        openers.recording = False
        waiting_openers = [window.ended - t for t in openers.committed.values()]
        window.calls = fake.calls[calls_before:]
        pending = await bot.store.games_with_pending_messages()
        lat, d = window.latencies, openers.delays
        per_second = Counter(int(t - window.started) for t, _, _ in window.calls)
        worst_gen = max(range(3), key=lambda g: gcw.worst[g])
        f = window.figures
        f["actions sent (per s)"] = f"{n} ({n / seconds:.0f})"
        f["actions refused"] = str(sum(window.refused.values()))
        f["act p50 / p99 / max (ms)"] = (f"{pct(lat, 0.5) * 1000:.1f} / {pct(lat, 0.99) * 1000:.1f} / "
                                         f"{max(lat, default=float('nan')) * 1000:.0f}")
        f["longest loop stall (ms)"] = f"{monitor.worst * 1000:.0f}"
        f["stalls over 50 ms"] = str(monitor.over_50ms)
        f["longest GC pause (ms)"] = f"{gcw.worst[worst_gen] * 1000:.1f} (gen{worst_gen})"
        f["GC runs gen0/1/2"] = "/".join(map(str, gcw.count))
        t = time.perf_counter()
        gc.collect()  # what the next full collection costs (the stall it will be)
        f["a full gc.collect() after (ms)"] = f"{(time.perf_counter() - t) * 1000:.0f}"
        f["peak RSS / RSS now (MiB)"] = f"{peak_rss_kib() / 1024:.0f} / {rss_kib() / 1024:.0f}"
        f["Discord calls/s avg / peak"] = f"{len(window.calls) / seconds:.1f} / {max(per_second.values(), default=0)}"
        f["commit->opener p50/p99 (ms)"] = f"{pct(d, 0.5) * 1000:.0f} / {pct(d, 0.99) * 1000:.0f}"
        f["openers committed (per s)"] = f"{len(d) + len(waiting_openers)} ({(len(d) + len(waiting_openers)) / seconds:.1f})"
        f["openers waiting at end"] = (f"{len(waiting_openers)}"
                                       + (f" (oldest {max(waiting_openers):.1f} s)" if waiting_openers else ""))
        f["pacer queue at end"] = f"{bot.delivery.pacer.waiting} ({len(pending)} games pending)"
        f["tables finished"] = str(self.finished_games - finished_before)
        kinds = Counter(kind_of(m, p) for _, m, p in window.calls)
        window.details["calls"] = ", ".join(f"{k} {v}" for k, v in kinds.most_common()) or "-"
        window.details["refused"] = ", ".join(f"{k} {v}" for k, v in window.refused.most_common()) or "-"
        window.details["tables started"] = str(self.started_games - started_before)


def kind_of(method: str, path: str) -> str:
    if path == "/users/@me/channels":
        return "open DM"
    if path.endswith("/messages"):
        return "send"
    if path.endswith("/messages/{message_id}") and method == "PATCH":
        return "edit"
    if path == "/channels/{channel_id}" and method == "GET":
        return "fetch channel"
    return f"{method} {path}"


async def settle(harness: Harness, bot) -> None:
    """Wait for the actions in flight and the deliveries under way."""
    while harness.inflight:
        await asyncio.gather(*list(harness.inflight), return_exceptions=True)
    await bot.delivery.wait_idle()


async def close_bot(bot) -> None:
    """Stop as a crash or a deploy would: deliveries cut, then timers off and the database closed."""
    tasks = [t for t in bot.delivery._tasks.values() if not t.done()]
    runner = bot.delivery.pacer._runner
    for task in [*tasks, *([runner] if runner is not None else [])]:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for handle in bot.delivery._retries.values():
        handle.cancel()
    await bot.close()  # shuts the scheduler down and closes the store


async def restart(harness: Harness, args) -> dict[str, str]:
    t_setup = time.perf_counter()
    bot, fake = await harness.new_bot(use_scheduler=True, discord_calls_per_second=args.budget,
                                      channel_calls=args.channel_calls)
    t_setup = time.perf_counter() - t_setup
    ended: list[int] = []  # games a timeout overdue at the restart finished: they need no timer
    bot.service.on_game_over.append(ended.append)
    try:
        rows = [r for r in await bot.store.active_games() if r.status == "running"]
        game = games.get(GAME)
        timed = 0
        for r in rows:  # the games whose phase has a clock (all of the Ritual's but none when over)
            if not r.paused and r.state and game.phase_seconds(game.load_state(r.state, r.fixed)) is not None:
                timed += 1
        waiting = sum(1 for r in rows if r.deadline is None and r.waiting_seconds is not None)
        pending = await bot.store.games_with_pending_messages()
        fire_due, fired = bot.service.fire_due, [0.0, 0]

        async def fire_due_timed() -> int:
            t = time.perf_counter()
            closed = await fire_due()
            fired[:] = [time.perf_counter() - t, closed]
            return closed

        bot.service.fire_due = fire_due_timed
        t0 = time.perf_counter()
        armed = await bot.service.rearm_all()
        t_rearm = time.perf_counter() - t0
        jobs = len([j for j in bot.service.timers.scheduler.get_jobs() if j.id.startswith("game-")])
        armed_after_rearm = len(bot.service.timers.armed)
        t1 = time.perf_counter()
        all_armed_at = t_rearm if armed_after_rearm >= timed - len(ended) else None
        timed_out = False

        async def watch() -> None:
            nonlocal all_armed_at
            while all_armed_at is None:
                if len(bot.service.timers.armed) >= timed - len(ended):
                    all_armed_at = time.perf_counter() - t0
                    return
                await asyncio.sleep(0.005)

        watcher = asyncio.get_running_loop().create_task(watch())
        try:
            await asyncio.wait_for(bot.delivery.drain_all(), args.drain_timeout)
        except TimeoutError:
            timed_out = True
        t_drain = time.perf_counter() - t1
        await asyncio.sleep(0.02)
        watcher.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await watcher
        f: dict[str, str] = {}
        f["new bot (open, migrate, setup_hook)"] = f"{t_setup * 1000:.0f} ms"
        f["running games / timed phases"] = f"{len(rows)} / {timed}" + (f" ({len(ended)} ended)" if ended else "")
        f["rearm_all"] = (f"{t_rearm * 1000:.0f} ms (fire_due {fired[0] * 1000:.0f} ms of it, {fired[1]} overdue "
                          f"phases closed): {armed} armed, {jobs} APScheduler jobs, {waiting} waiting for "
                          f"their opener")
        kinds = Counter(kind_of(m, p) for _, m, p in fake.calls)
        f["drain_all"] = (f"{t_drain * 1000:.0f} ms{' (cut at the timeout)' if timed_out else ''}: "
                          f"{len(pending)} games had pending messages; {len(fake.calls)} calls ("
                          + ", ".join(f"{k} {v}" for k, v in kinds.most_common())
                          + "), with the timers running meanwhile")
        f["every timer armed after"] = (f"{all_armed_at * 1000:.0f} ms" if all_armed_at is not None else
                                        f"not yet ({len(bot.service.timers.armed)} of {timed - len(ended)})")
        return f
    finally:
        await close_bot(bot)


def print_table(windows: list[Window]) -> None:
    """The runs side by side, then each run's calls by kind and refusals."""
    keys = list(dict.fromkeys(k for w in windows for k in w.figures))
    label = max(len(k) for k in keys) + 2
    width = max(14, *(len(w.name) + 2 for w in windows),
                *(len(v) + 2 for w in windows for v in w.figures.values()))
    print()
    print(" " * label + "".join(f"{w.name:<{width}}" for w in windows))
    for k in keys:
        print(f"{k:<{label}}" + "".join(f"{w.figures.get(k, ''):<{width}}" for w in windows))
    for w in windows:
        print(f"  {w.name}: calls {w.details['calls']}; refused {w.details['refused']}; "
              f"tables started {w.details['tables started']}")


async def main_async(args: argparse.Namespace) -> None:
    logging.basicConfig(level=logging.ERROR, format="%(levelname)s %(name)s: %(message)s")
    if args.loop_debug:
        asyncio.get_running_loop().slow_callback_duration = 0.05
        logging.getLogger("asyncio").setLevel(logging.WARNING)
    folder = Path(args.db).parent if args.db else Path(tempfile.mkdtemp(prefix="thousand-"))
    db_path = Path(args.db) if args.db else folder / "tables.db"
    harness = Harness(args, db_path)
    monitor, gcw = StallMonitor(), GcWatch()
    gc.callbacks.append(gcw)
    monitor.start()
    phases = (f"{args.phase_seconds} s phases" if args.phase_seconds else
              "phases " + "/".join(str(games.get(GAME).Options.model_fields[p].default) for p in PHASES) + " s")
    print(f"{args.tables} tables of {GAME} (3-5 players, {phases}, each table's x1+-{args.jitter:g}), "
          f"{args.rate:g} actions/s, {args.seconds:g} s a run, Discord round trip {args.latency * 1000:.0f} ms; "
          f"database {db_path}")
    bot, fake = await harness.new_bot(use_scheduler=True)
    openers = Openers(bot)
    harness.watch(bot)
    windows: list[Window] = []
    try:
        t0 = time.perf_counter()
        await harness.open_tables(bot.service, args.tables)
        t_open = time.perf_counter() - t0
        await bot.delivery.wait_idle()
        t_dealt = time.perf_counter() - t0
        print(f"start-up: {args.tables} tables opened in {t_open:.1f} s, their deal delivered after "
              f"{t_dealt:.1f} s ({len(fake.calls)} calls); RSS {rss_kib() / 1024:.0f} MiB")

        modes = ["default", "frozen"] if args.gc == "both" else [args.gc]
        for mode in modes:
            if mode == "frozen":
                tune = getattr(client_module, "tune_gc", None)
                before = gc.get_freeze_count()
                if tune is not None:
                    old = tune()
                    print(f"bot.client.tune_gc(): threshold {old} -> {gc.get_threshold()}, "
                          f"{gc.get_freeze_count() - before} objects frozen")
                else:
                    gc.collect()
                    gc.freeze()
                    print(f"gc.collect(); gc.freeze() (no tune_gc in bot.client): "
                          f"{gc.get_freeze_count() - before} objects frozen")
            w = Window(f"1: no limit, GC {mode}")
            await harness.drive(bot, fake, w, args.seconds, args.rate, monitor, gcw, openers)
            windows.append(w)
            await settle(harness, bot)

        # run 2: the same load under Discord's budget
        bot.delivery.pacer = Pacer(args.budget, args.channel_calls, bot.settings.channel_window_seconds)
        w = Window(f"2: {args.budget:g}/s, GC {modes[-1]}")
        await harness.drive(bot, fake, w, args.seconds, args.rate, monitor, gcw, openers)
        windows.append(w)
        while harness.inflight:
            await asyncio.gather(*list(harness.inflight), return_exceptions=True)
    finally:
        quiet_scheduler()
        await close_bot(bot)
    print(f"\nruns of {args.seconds:g} s; 1: pacer unlimited; 2: pacer {args.budget:g} calls/s and "
          f"{args.channel_calls} per route per channel in 5 s")
    print_table(windows)
    if fake.other:
        print("  other calls, answered {}: " + ", ".join(f"{k} {v}" for k, v in fake.other.most_common()))

    print(f"\n== run 3: restart on the same database (APScheduler running, pacer {args.budget:g} calls/s)")
    figures = await restart(harness, args)
    width = max(len(k) for k in figures) + 2
    for k, v in figures.items():
        print(f"  {k:<{width}}{v}")
    print(f"\npeak RSS of the process: {peak_rss_kib() / 1024:.0f} MiB")
    await monitor.stop()
    gc.callbacks.remove(gcw)


def quiet_scheduler() -> None:
    """A bot closed while its timeout jobs run: APScheduler logs each cancelled one as an error."""
    logging.getLogger("apscheduler").setLevel(logging.CRITICAL)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--rate", type=float, default=100.0, help="player actions per second, all tables")
    parser.add_argument("--seconds", type=float, default=30.0, help="length of each measured run")
    parser.add_argument("--budget", type=float, default=50.0, help="run 2: calls per second to Discord")
    parser.add_argument("--channel-calls", type=int, default=5, help="run 2: calls per route per channel in 5 s")
    parser.add_argument("--phase-seconds", type=int, default=0,
                        help="every Ritual phase's base length (default: the game's own, 90/45/120 s)")
    parser.add_argument("--jitter", type=float, default=0.5,
                        help="each table's phase lengths are scaled by a factor in 1 +- this")
    parser.add_argument("--loop-debug", action="store_true",
                        help="asyncio debug mode: log every callback that holds the loop 50 ms or more")
    parser.add_argument("--latency", type=float, default=0.05, help="the fake Discord's round trip (s)")
    parser.add_argument("--gc", choices=("both", "default", "frozen"), default="both",
                        help="run 1 with the default GC, after tune_gc(), or both side by side")
    parser.add_argument("--tables-per-guild", type=int, default=1)
    parser.add_argument("--drain-timeout", type=float, default=30.0, help="run 3: the longest drain")
    parser.add_argument("--db", default="", help="a new database file to keep (default: in a new temporary folder)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="a smoke run: 100 tables, 5 s runs")
    args = parser.parse_args()
    if args.db and Path(args.db).exists():
        parser.error(f"--db must name a new file ({args.db} exists, and its games would hold the channels)")
    if args.quick:
        args.tables, args.rate, args.seconds = 100, 50.0, 5.0
    asyncio.run(main_async(args), debug=args.loop_debug or None)


if __name__ == "__main__":
    main()
