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


async def test_a_reminder_moved_later_keeps_its_job_which_fires_once_and_is_armed_again():
    """Every action of a quiet game moves its reminder later: the job already armed no later is
    kept (no scheduler job replaced per action, nor per phase), fires, finds the reminder not due,
    and arms it for its new time, as ``on_reminder`` does."""
    clock = SystemClock()
    due = {"at": 0.0}
    fired: list[float] = []
    done = asyncio.Event()

    async def remind(game_id, phase_seq):
        fired.append(clock.now())
        if clock.now() < due["at"]:
            timers.arm_reminder(game_id, phase_seq, due["at"])  # not due yet: armed for its new time
        else:
            done.set()

    timers = Timers(clock, lambda *_: asyncio.sleep(0), remind)
    timers.start()
    added = []
    real_add = timers.scheduler.add_job
    timers.scheduler.add_job = lambda *a, **k: added.append(k["id"]) or real_add(*a, **k)
    try:
        due["at"] = clock.now() + 0.05
        timers.arm_reminder(5, 1, due["at"])
        first = timers.scheduler.get_job("remind-5").next_run_time
        for step in range(1, 101):  # 100 actions, each moving it later
            due["at"] = clock.now() + 0.05 + step * 0.002
            timers.arm_reminder(5, 1, due["at"])
        assert added == ["remind-5"] and timers.scheduler.get_job("remind-5").next_run_time == first
        await asyncio.wait_for(done.wait(), timeout=10)
        assert len(fired) == 2 and fired[-1] >= due["at"]  # early once, then at its new time
        assert added == ["remind-5", "remind-5"]
        timers.arm_reminder(5, 2, clock.now() + 60)  # fired: the next one is armed again
        timers.arm_reminder(5, 3, clock.now() + 90)  # a new phase's, later: the job is kept
        assert added == ["remind-5"] * 3
        timers.arm_reminder(5, 3, clock.now() + 30)  # one moved earlier is armed again
        assert added == ["remind-5"] * 4
    finally:
        timers.shutdown()


async def test_a_game_with_no_clocks_costs_no_scheduler_look_up_per_action():
    """``follow`` for a game with no phase clock, no reminder and no turn: nothing was armed, so
    nothing is looked up or removed (it looked up three jobs on every action before)."""
    from bot.deadlines import Deadlines

    timers = Timers(SystemClock(), lambda *_: asyncio.sleep(0), lambda *_: asyncio.sleep(0))
    timers.start()
    looked = []
    real_get = timers.scheduler.get_job
    timers.scheduler.get_job = lambda job, *a: looked.append(job) or real_get(job, *a)
    try:
        for _ in range(50):
            timers.follow(3, 1, Deadlines())
        assert looked == []
        timers.arm_reminder(3, 1, SystemClock().now() + 60)
        timers.follow(3, 1, Deadlines())  # its reminder is gone: now it is looked up and removed
        assert looked == ["remind-3"] and real_get("remind-3") is None
    finally:
        timers.shutdown()


async def test_a_timed_phase_keeps_its_close_job_through_its_actions_and_it_fires_once():
    """Every action of a timed phase follows its clocks: the close job armed for the same phase and
    time is kept (it was replaced per action, 55 µs each), fires once, and after it fired, a retry,
    a moved deadline or a new phase is armed again."""
    from bot.deadlines import Deadlines

    clock = SystemClock()
    fired: list[tuple[int, int]] = []
    done = asyncio.Event()

    async def fire(game_id, phase_seq):
        fired.append((game_id, phase_seq))
        done.set()

    timers = Timers(clock, fire)
    timers.BATCH_SECONDS = 0.0
    timers.start()
    added = []
    real_add = timers.scheduler.add_job
    timers.scheduler.add_job = lambda *a, **k: added.append(k["id"]) or real_add(*a, **k)
    try:
        close = clock.now() + 0.2
        for _ in range(100):  # 100 actions of one phase
            timers.follow(4, 1, Deadlines(close=close))
        assert added == ["game-4"]
        await asyncio.wait_for(done.wait(), timeout=10)
        assert fired == [(4, 1)]
        timers.follow(4, 1, Deadlines(close=close))  # fired: the phase still open is armed again
        assert added == ["game-4"] * 2
        timers.retry(4, 1, 60)
        timers.follow(4, 1, Deadlines(close=close))  # the retry's job is replaced by the close's
        timers.follow(4, 1, Deadlines(close=close + 30))  # extended
        timers.follow(4, 2, Deadlines(close=close + 30))  # the next phase
        assert added == ["game-4"] * 6
        timers.cancel(4)
        timers.follow(4, 2, Deadlines(close=close + 30))  # cancelled: armed again
        assert added == ["game-4"] * 7 and timers.scheduler.get_job("game-4") is not None
    finally:
        timers.shutdown()
