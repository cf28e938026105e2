"""Phase timers: one APScheduler job per game, armed from the deadline stored in the game row.

Jobs live in memory; at start-up ``GameService.rearm_all`` re-arms every running game from the
database, and overdue phases resolve at once. A timeout the database refuses is retried a few
seconds later (``retry``), and a sweep every minute (``every``) closes any phase whose deadline
passed with no job to close it, so no fault leaves a phase open for good. Deadlines are read from an injected clock, so a test
can jump 72 hours with ``ManualClock.advance`` and call ``GameService.fire_due``.

Deadline jobs that fire within ``BATCH_SECONDS`` of each other (many games whose dawn falls
together) are gathered and handed over as one batch (``fire_many``), in deadline order, so the
service closes every one of them before any of their messages is delivered.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta

from apscheduler.schedulers.asyncio import AsyncIOScheduler

from . import metrics
from .clock import Clock
from .deadlines import Deadlines

log = logging.getLogger(__name__)

Fire = Callable[[int, int], Awaitable[object]]  # (what it returns is not used)
#: closes a batch of due phases: [(game id, phase)], in deadline order
FireMany = Callable[[list[tuple[int, int]]], Awaitable[object]]


class Timers:
    #: deadline jobs firing within this many seconds of the first are closed as one batch
    BATCH_SECONDS = 0.05
    #: a phase's close armed again for when its job already runs, within this many seconds by
    #: the wall clock, keeps the job (a test's manual clock moved meanwhile moves it)
    SAME_MOMENT = 0.5

    def __init__(self, clock: Clock, fire: Fire, remind: Fire | None = None, turn: Fire | None = None,
                 *, fire_many: FireMany | None = None) -> None:
        self.clock = clock
        self._fire = fire
        self._fire_many = fire_many or self._each
        #: deadline jobs fired and waiting for their batch (game id -> phase), and the batch's task
        self._gathered: dict[int, int] = {}
        self._batch: asyncio.Task | None = None
        self._remind = remind
        self._turn = turn
        self.scheduler = AsyncIOScheduler(timezone=UTC)
        metrics.watch_scheduler(self.scheduler)  # how late each job fires
        self.armed: dict[int, tuple[int, float]] = {}
        #: games whose timeout failed and is to be tried again (game id -> phase)
        self.retries: dict[int, int] = {}
        #: the reminder and turn jobs in the scheduler (job -> phase, when it fires): a job known
        #: absent costs no scheduler look-up, and a reminder armed no later than asked stays
        self.dated: dict[str, tuple[int, float]] = {}
        #: game -> when its phase's close job runs, by the wall clock, while armed and not fired
        self._close_at: dict[int, float] = {}

    def start(self) -> None:
        if not self.scheduler.running:
            self.scheduler.start()

    def shutdown(self) -> None:
        if self.scheduler.running:
            self.scheduler.shutdown(wait=False)
        self._close_at.clear()
        if self._batch is not None:
            self._batch.cancel()

    def arm(self, game_id: int, phase_seq: int, deadline: float) -> None:
        """Close the phase at ``deadline``. The job already armed for that phase and time, not
        fired, not replaced by a retry, and due at the same moment by the wall clock, is kept:
        every action of a timed phase follows its clocks, and replacing the same job each time
        cost 55 µs of each action (issue 38)."""
        delay = max(0.0, deadline - self.clock.now())
        runs_at = time.time() + delay
        pending = self._close_at.get(game_id)
        if pending is not None and self.armed.get(game_id) == (phase_seq, deadline) \
                and game_id not in self.retries and abs(pending - runs_at) < self.SAME_MOMENT:
            return
        self.armed[game_id] = (phase_seq, deadline)
        self.retries.pop(game_id, None)
        if self.scheduler.running:
            self._close_at[game_id] = runs_at
        self._once(f"game-{game_id}", delay, self._gather, game_id, phase_seq)

    def follow(self, game_id: int, phase_seq: int, deadlines: Deadlines, *, arm_close: bool = True) -> None:
        """Arm the game's jobs as its ``deadlines`` say: the phase's close (else none: paused,
        waiting or no timer), the reminder and the speaking turn (none while paused). With
        ``arm_close`` False the phase's job is left as it is (an overdue phase being closed in a row)."""
        if deadlines.paused or deadlines.close is None:
            self.cancel_close(game_id)  # (the reminder and the turn are armed or removed below)
        elif arm_close:
            self.arm(game_id, phase_seq, deadlines.close)
        self.arm_reminder(game_id, phase_seq, None if deadlines.paused else deadlines.remind_at)
        self.arm_turn(game_id, phase_seq, None if deadlines.paused else deadlines.turn_ends)

    def retry(self, game_id: int, phase_seq: int, delay: float) -> None:
        """Fire the phase's timeout again in ``delay`` seconds (it failed to close the phase)."""
        self.retries[game_id] = phase_seq
        self._close_at.pop(game_id, None)
        self._once(f"game-{game_id}", delay, self._gather, game_id, phase_seq)

    async def _gather(self, game_id: int, phase_seq: int) -> None:
        """A deadline job fired: its phase waits a moment for the others due with it."""
        self._close_at.pop(game_id, None)
        self._gathered[game_id] = phase_seq
        if self._batch is None:
            self._batch = asyncio.get_running_loop().create_task(self._close_gathered())

    async def _close_gathered(self) -> None:
        """Hand every phase gathered in the last ``BATCH_SECONDS`` over as one batch, in deadline order."""
        try:
            await asyncio.sleep(self.BATCH_SECONDS)
        finally:
            due, self._gathered, self._batch = self._gathered, {}, None
        order = sorted(due.items(), key=lambda item: (self.armed.get(item[0], (0, 0.0))[1], item[0]))
        try:
            await self._fire_many(order)
        except Exception:
            log.exception("closing %d due phase(s) failed", len(order))

    async def _each(self, due: list[tuple[int, int]]) -> None:
        """Without ``fire_many``: each due phase is fired on its own, in order."""
        for game_id, phase_seq in due:
            await self._run(self._fire, f"game-{game_id}", game_id, phase_seq)

    def arm_reminder(self, game_id: int, phase_seq: int, at: float | None) -> None:
        """Call ``remind(game_id, phase_seq)`` at ``at`` (None: no reminder); one per game.

        A quiet game's reminder counts from its last change, so every action, and every new phase,
        leaves it later or where it was. The job already armed no later than ``at`` is kept, in
        any phase (``on_reminder`` reminds of the phase the game is in when it fires), not
        replaced per action or per turn (55 µs each): it fires, ``on_reminder`` finds the reminder
        not due yet and arms it for its new time (one look at the game per reminder period)."""
        job = f"remind-{game_id}"
        armed = self.dated.get(job)
        if at is not None and armed is not None and armed[1] <= at:
            return
        self._at(job, at, self._remind, game_id, phase_seq)

    def arm_turn(self, game_id: int, phase_seq: int, at: float | None) -> None:
        """Call ``turn(game_id, phase_seq)`` when the speaking turn ends at ``at`` (None: no
        turn runs); one per game."""
        self._at(f"turn-{game_id}", at, self._turn, game_id, phase_seq)

    def _at(self, job: str, at: float | None, call: Fire | None, game_id: int, phase_seq: int) -> None:
        """The job ``job`` calls ``call`` at ``at``; None (or no call): the job is removed."""
        if at is None or call is None:
            if self.dated.pop(job, None) is not None and self.scheduler.running and self.scheduler.get_job(job):
                self.scheduler.remove_job(job)
            return
        if self.scheduler.running:
            self.dated[job] = (phase_seq, at)
        self._once(job, max(0.0, at - self.clock.now()), call, game_id, phase_seq)

    def _once(self, job: str, delay: float, call: Fire, game_id: int, phase_seq: int) -> None:
        """Run ``call(game_id, phase_seq)`` once in ``delay`` seconds, as the job ``job`` (replacing
        the one of that name). Tests without a scheduler use ``GameService.fire_due`` instead."""
        if not self.scheduler.running:
            return
        self.scheduler.add_job(
            self._run, "date", run_date=datetime.now(UTC) + timedelta(seconds=delay),
            args=[call, job, game_id, phase_seq], id=job, replace_existing=True,
            misfire_grace_time=None, coalesce=True,
        )

    def every(self, seconds: float, job: Callable[[], Awaitable[None]], name: str) -> None:
        """Run ``job`` every ``seconds`` (the sweep); a failing run is logged and the next one comes."""

        async def run() -> None:
            try:
                await job()
            except Exception:
                log.exception("periodic job %s failed; it runs again in %.0f s", name, seconds)

        if self.scheduler.running:
            self.scheduler.add_job(run, "interval", seconds=seconds, id=name, replace_existing=True,
                                   coalesce=True, max_instances=1, misfire_grace_time=None)

    def cancel(self, game_id: int) -> None:
        self.cancel_close(game_id)
        for job in (f"remind-{game_id}", f"turn-{game_id}"):
            self._at(job, None, None, game_id, 0)

    def cancel_close(self, game_id: int) -> None:
        """The phase's close job removed (the reminder and the turn stay)."""
        self._gathered.pop(game_id, None)
        known = self.armed.pop(game_id, None) is not None
        known = self.retries.pop(game_id, None) is not None or known
        self._close_at.pop(game_id, None)
        if known and self.scheduler.running and self.scheduler.get_job(f"game-{game_id}"):
            self.scheduler.remove_job(f"game-{game_id}")

    async def _run(self, call: Fire, job: str, game_id: int, phase_seq: int) -> None:
        self.dated.pop(job, None)  # fired: a date job runs once
        try:
            await call(game_id, phase_seq)
        except Exception:
            log.exception("job %s (phase %s) failed", job, phase_seq)
