"""APScheduler jobs armed from deadlines: they fire, re-arm replaces, cancel stops, stale is ignored."""

import asyncio

from bot.clock import SystemClock
from bot.timers import Timers


async def test_armed_job_fires_with_its_phase_and_rearming_replaces_it():
    fired: list[tuple[int, int]] = []
    done = asyncio.Event()

    async def fire(game_id, phase_seq):
        fired.append((game_id, phase_seq))
        done.set()

    clock = SystemClock()
    timers = Timers(clock, fire)
    timers.start()
    try:
        timers.arm(7, 1, clock.now() + 60)       # replaced below: must never fire
        timers.arm(7, 2, clock.now() + 0.05)
        timers.arm(8, 1, clock.now() + 0.05)
        timers.cancel(8)
        await asyncio.wait_for(done.wait(), timeout=10)
        await asyncio.sleep(0.1)
        assert fired == [(7, 2)]
        assert timers.scheduler.get_job("game-7") is None  # a date job runs once
    finally:
        timers.shutdown()


async def test_a_reminder_is_its_own_job_beside_the_deadline_and_cancel_stops_both():
    fired: list[tuple[str, int, int]] = []
    done = asyncio.Event()

    async def fire(game_id, phase_seq):
        fired.append(("deadline", game_id, phase_seq))

    async def remind(game_id, phase_seq):
        fired.append(("remind", game_id, phase_seq))
        done.set()

    clock = SystemClock()
    timers = Timers(clock, fire, remind)
    timers.start()
    try:
        timers.arm(7, 3, clock.now() + 60)
        timers.arm_reminder(7, 3, clock.now() + 60)
        timers.arm_reminder(7, 3, None)              # taken back: never fires
        assert timers.scheduler.get_job("remind-7") is None
        timers.arm(8, 1, clock.now() + 60)
        timers.arm_reminder(8, 1, clock.now() + 60)
        timers.cancel(8)
        assert timers.scheduler.get_job("game-8") is None and timers.scheduler.get_job("remind-8") is None
        timers.arm_reminder(9, 2, clock.now() + 0.05)
        await asyncio.wait_for(done.wait(), timeout=10)
        await asyncio.sleep(0.1)
        assert fired == [("remind", 9, 2)]
        assert timers.scheduler.get_job("game-7") is not None  # the deadline beside it is untouched
    finally:
        timers.shutdown()


async def test_an_overdue_deadline_fires_at_once():
    done = asyncio.Event()

    async def fire(game_id, phase_seq):
        done.set()

    clock = SystemClock()
    timers = Timers(clock, fire)
    timers.start()
    try:
        timers.arm(1, 1, clock.now() - 3600)
        await asyncio.wait_for(done.wait(), timeout=10)
    finally:
        timers.shutdown()


def test_tune_gc_freezes_the_start_up_heap_and_collects_less_often():
    import gc

    from bot.client import GC_THRESHOLD, tune_gc

    before = gc.get_threshold()
    try:
        old = tune_gc()
        assert old == before
        assert gc.get_freeze_count() > 1000 and gc.get_threshold() == GC_THRESHOLD
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
