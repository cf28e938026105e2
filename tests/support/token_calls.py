"""One process's calls through the real pacer, as fast as it allows (the two-process tests of the
token's shared budget and ``bench/two_processes.py``), and the measure they are judged by."""

from __future__ import annotations

import asyncio
import time

from bot.pacer import URGENT, Pacer


async def calls_flat_out(pacer: Pacer, *, start_at: float, seconds: float, busy: bool,
                         callers: int = 20, every: float | None = None) -> list[float]:
    """From ``start_at`` (wall clock, shared by the processes) for ``seconds``: ``callers`` tasks
    each calling as soon as the pacer lets them (or none, when not ``busy``; or, with ``every``,
    one call at a time, that many seconds apart: a quiet process); the moments the calls went."""
    stamps: list[float] = []
    end = start_at + seconds

    async def caller(channel: int) -> None:
        while time.time() < end:
            await pacer.turn(URGENT, channel)
            stamps.append(time.time())

    await asyncio.sleep(max(0.0, start_at - time.time()))
    if every is not None:
        while time.time() < end:
            await pacer.turn(URGENT, 0)
            stamps.append(time.time())
            await asyncio.sleep(every)
    elif busy:
        await asyncio.gather(*(caller(i) for i in range(callers)))
    else:
        await asyncio.sleep(seconds)
    return [t for t in stamps if t < end]


def most_in_one_second(stamps: list[float]) -> int:
    """The most calls in any one-second stretch (sliding: (t - 1, t] for every call t)."""
    stamps = sorted(stamps)
    most, first = 0, 0
    for last, t in enumerate(stamps):
        while stamps[first] <= t - 1.0:
            first += 1
        most = max(most, last - first + 1)
    return most
