"""The timers' bookkeeping after each action's commit (``Timers.follow``), with the scheduler running
and a moving clock, piece by piece (the durable benches run the scheduler too, since issue 38 found
what it cost them).

Three kinds of game, each action in turn: one with no clocks (no phase timer, reminder or turn: the
Clocktower by day with no deadline set, a Castle without timers), a quiet one whose reminder every
action moves later (the Castle's 180 s reminder of the player whose turn it is), and a phase with a
timer on the wall clock, whose close job every action that leaves it as it was keeps.

    .venv/bin/python bench/timers_follow.py [--actions 20000]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.clock import ManualClock, SystemClock  # noqa: E402
from bot.deadlines import Deadlines  # noqa: E402
from bot.timers import Timers  # noqa: E402


async def nothing(game_id: int, phase_seq: int) -> None:
    return None


async def run(actions: int) -> dict[str, float]:
    clock = ManualClock()
    timers = Timers(clock, nothing, nothing, nothing)
    timers.start()
    # a timed phase on the wall clock (a manual clock moved faster than the wall's moves its job)
    wall = SystemClock()
    timed = Timers(wall, nothing, nothing, nothing)
    timed.start()
    close = wall.now() + 3600
    try:
        none, moved, phase = [], [], []
        for _ in range(actions):
            clock.advance(2.0)  # an action every 2 s of the game's clock
            t0 = time.perf_counter()
            timers.follow(1, 1, Deadlines())
            t1 = time.perf_counter()
            timers.follow(2, 1, Deadlines(remind_at=clock.now() + 180))
            t2 = time.perf_counter()
            timed.follow(3, 1, Deadlines(close=close))
            t3 = time.perf_counter()
            none.append(t1 - t0)
            moved.append(t2 - t1)
            phase.append(t3 - t2)
        return {"no_clocks_median_us": round(statistics.median(none) * 1e6, 2),
                "moving_reminder_median_us": round(statistics.median(moved) * 1e6, 2),
                "timed_phase_median_us": round(statistics.median(phase) * 1e6, 2)}
    finally:
        timers.shutdown()
        timed.shutdown()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--actions", type=int, default=20000)
    args = parser.parse_args()
    for key, value in asyncio.run(run(args.actions)).items():
        print(f"{key}: {value}")


if __name__ == "__main__":
    main()
