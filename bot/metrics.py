"""What an operator's Prometheus scrapes from ``/metrics`` (``bot.health`` serves it).

Two kinds of numbers:

* counted as things happen, through the one-line hooks below (``observe_commit``, ``discord_call``,
  ``discord_answer``, and the timer lag seen by ``watch_scheduler``), called from the service, the
  pacer, ``DiscordHealth`` and the timers;
* read at scrape time (``Metrics.scrape``): the games by kind and state and the outbox from the
  database, the pacer's queue from memory.

Each ``Metrics`` has its own ``CollectorRegistry`` (never prometheus_client's global one), so
several can live in one test process. The hooks feed the one installed (``install``), the one of
the process's health server; with none installed (HEALTH_PORT unset) they do nothing.
"""

from __future__ import annotations

import asyncio
import math
import time
from datetime import UTC, datetime
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

#: how long a scrape or `/healthz` waits for the database (a scrape then answers without its numbers)
DATABASE_SECONDS = 2.0
#: the pacer's priorities (bot.pacer URGENT, NARRATION, COSMETIC), by name
PRIORITIES = ("urgent", "narration", "cosmetic")
#: commits take milliseconds; a disk in trouble, seconds
COMMIT_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
#: a timer fires within milliseconds of its time, unless the event loop is stalled
LAG_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)


def error_kind(status: int) -> str:
    """Discord's answer sorted for the errors counter: 401, 403, 429, 5xx, or other (404, 400...)."""
    if status in (401, 403, 429):
        return str(status)
    return "5xx" if status >= 500 else "other"


class Metrics:
    """The process's instruments, in a registry of their own."""

    def __init__(self) -> None:
        self.registry = registry = CollectorRegistry(auto_describe=True)
        self.actions = Counter("storyteller_actions", "Game steps committed (actions, timeouts, deals), "
                               "by game kind", ["kind"], registry=registry)
        self.commit_seconds = Histogram("storyteller_commit_seconds", "How long the database took to "
                                        "commit a game step", ["kind"], buckets=COMMIT_BUCKETS, registry=registry)
        self.timer_lag = Histogram("storyteller_timer_lag_seconds", "How late a timer job fired after its "
                                   "due time, by job (game, remind, turn, sweep)", ["job"], buckets=LAG_BUCKETS,
                                   registry=registry)
        self.discord_errors = Counter("storyteller_discord_errors", "Discord's refusals of the bot's calls, "
                                      "by kind (401, 403, 429, 5xx, other)", ["kind"], registry=registry)
        self.discord_calls = Counter("storyteller_discord_calls", "Calls made to Discord's REST API through "
                                     "the pacer, by destination kind (channel, dm, thread, voice)", ["kind"],
                                     registry=registry)
        self.games = Gauge("storyteller_games", "Games in the database by kind and state (this process's "
                           "shards)", ["kind", "state"], registry=registry)
        self.outbox_pending = Gauge("storyteller_outbox_pending", "Messages committed and not yet delivered",
                                    registry=registry)
        self.outbox_oldest = Gauge("storyteller_outbox_oldest_seconds", "Age of the oldest undelivered "
                                   "message (0 when none)", registry=registry)
        self.pacer_queue = Gauge("storyteller_pacer_queue", "Calls waiting for the pacer, by priority",
                                 ["priority"], registry=registry)
        self.database_up = Gauge("storyteller_database_up", "Whether the database answered the last scrape "
                                 "(1) or not (0)", registry=registry)
        for priority in PRIORITIES:  # present from the first scrape, at 0
            self.pacer_queue.labels(priority)

    # ----- counted as things happen -----
    def commit(self, kind: str, seconds: float) -> None:
        self.actions.labels(kind).inc()
        self.commit_seconds.labels(kind).observe(seconds)

    def lag(self, job: str, seconds: float) -> None:
        self.timer_lag.labels(job).observe(max(0.0, seconds))

    # ----- read at scrape time -----
    async def scrape(self, bot: Any) -> bytes:
        """The text exposition of every instrument, with the database's and the pacer's numbers
        read now. A database that does not answer in ``DATABASE_SECONDS`` leaves its numbers out
        (the games gone, the outbox's NaN, ``storyteller_database_up`` 0); the rest is still served."""
        self.read_pacer(getattr(getattr(bot, "delivery", None), "pacer", None))
        try:
            await asyncio.wait_for(self.read_database(bot), DATABASE_SECONDS)
            self.database_up.set(1)
        except Exception:
            self.games.clear()
            self.outbox_pending.set(math.nan)
            self.outbox_oldest.set(math.nan)
            self.database_up.set(0)
        return generate_latest(self.registry)

    def read_pacer(self, pacer: Any) -> None:
        waiting = [0] * len(PRIORITIES)
        for priority, _, _, future in getattr(pacer, "_queue", ()):  # (priority, order, key, future)
            if not future.done():
                waiting[priority] += 1
        for name, count in zip(PRIORITIES, waiting, strict=True):
            self.pacer_queue.labels(name).set(count)

    async def read_database(self, bot: Any) -> None:
        """One grouped query for the games, one for the outbox, of this process's shards."""
        store = bot.store
        shards = bot.settings.shards
        mine, args = shards.where("guild_id") if shards is not None else ("", ())
        # counted as games change state (migration 015): a few rows per server, however many
        # games have finished
        rows = await store._read(f"SELECT kind, status, SUM(n) FROM game_counts WHERE n > 0{mine} "
                                 "GROUP BY kind, status", args)
        self.games.clear()
        for kind, status, count in rows:
            self.games.labels(kind, status).set(count)
        mine, args = shards.where("g.guild_id") if shards is not None else ("", ())
        (pending, oldest), = await store._read(
            "SELECT COUNT(*), MIN(o.created_at) FROM outbox AS o JOIN games AS g ON g.id = o.game_id "
            f"WHERE o.delivered_at IS NULL{mine}", args)
        self.outbox_pending.set(pending)
        self.outbox_oldest.set(max(0.0, bot.clock.now() - oldest) if oldest is not None else 0.0)


# ----- the hooks: one line at each place, feeding the installed Metrics -----
_installed: Metrics | None = None


def install(metrics: Metrics | None) -> None:
    """The hooks feed ``metrics`` from now on (None: they do nothing)."""
    global _installed
    _installed = metrics


def installed() -> Metrics | None:
    return _installed


def now() -> float:
    """A start time for ``observe_commit``."""
    return time.perf_counter()


def observe_commit(kind: str, started: float) -> None:
    """A game step of ``kind`` was committed; it took since ``started`` (``now()``)."""
    if _installed is not None:
        _installed.commit(kind, time.perf_counter() - started)


def discord_call(kind: str | None) -> None:
    """The pacer let a call to Discord go (``kind``: channel, dm, thread, voice)."""
    if _installed is not None:
        _installed.discord_calls.labels(kind or "other").inc()


def discord_answer(status: int) -> None:
    """Discord refused a call with ``status`` (``DiscordHealth.note``)."""
    if _installed is not None:
        _installed.discord_errors.labels(error_kind(status)).inc()


def watch_scheduler(scheduler: Any) -> None:
    """Measure how late each of the scheduler's jobs fires (``storyteller_timer_lag_seconds``):
    the time it was submitted to run against the time it was due."""
    from apscheduler.events import EVENT_JOB_SUBMITTED

    scheduler.add_listener(_job_submitted, EVENT_JOB_SUBMITTED)


def _job_submitted(event: Any) -> None:
    if _installed is not None and event.scheduled_run_times:
        late = (datetime.now(UTC) - min(event.scheduled_run_times)).total_seconds()
        _installed.lag(str(event.job_id).split("-")[0], late)
