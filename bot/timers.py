"""Phase timers: one APScheduler job per game, armed from the deadline stored in the game row.

Jobs live in memory; at start-up ``GameService.rearm_all`` re-arms every running game from the
database, and overdue phases resolve at once. Deadlines are read from an injected clock, so a test
can jump 72 hours with ``ManualClock.advance`` and call ``GameService.fire_due``.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta

from apscheduler.schedulers.asyncio import AsyncIOScheduler

from .clock import Clock

log = logging.getLogger(__name__)

Fire = Callable[[int, int], Awaitable[None]]


class Timers:
    def __init__(self, clock: Clock, fire: Fire) -> None:
        self.clock = clock
        self._fire = fire
        self.scheduler = AsyncIOScheduler(timezone=UTC)
        self.armed: dict[int, tuple[int, float]] = {}

    def start(self) -> None:
        if not self.scheduler.running:
            self.scheduler.start()

    def shutdown(self) -> None:
        if self.scheduler.running:
            self.scheduler.shutdown(wait=False)

    def arm(self, game_id: int, phase_seq: int, deadline: float) -> None:
        delay = max(0.0, deadline - self.clock.now())
        self.armed[game_id] = (phase_seq, deadline)
        if not self.scheduler.running:
            return  # tests without a scheduler use GameService.fire_due
        self.scheduler.add_job(
            self._run, "date", run_date=datetime.now(UTC) + timedelta(seconds=delay),
            args=[game_id, phase_seq], id=f"game-{game_id}", replace_existing=True,
            misfire_grace_time=None, coalesce=True,
        )

    def cancel(self, game_id: int) -> None:
        self.armed.pop(game_id, None)
        if self.scheduler.running and self.scheduler.get_job(f"game-{game_id}"):
            self.scheduler.remove_job(f"game-{game_id}")

    async def _run(self, game_id: int, phase_seq: int) -> None:
        try:
            await self._fire(game_id, phase_seq)
        except Exception:
            log.exception("timer of game %s (phase %s) failed", game_id, phase_seq)
