"""Waiting for work the bot does on its own threads or processes (a voice connection, speech being
made): poll until it is ready, with a bound far past any machine's speed, so a busy machine is
slower, never red."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

#: far past how long the work takes on a loaded machine; a test only waits this long when it fails
BOUND_SECONDS = 60.0


async def until(ready: Callable[[], object], what: str, seconds: float = BOUND_SECONDS) -> None:
    """Return once ``ready()`` is true; fail naming ``what`` after ``seconds`` of real time."""
    give_up = time.monotonic() + seconds
    while not ready():
        if time.monotonic() > give_up:
            raise AssertionError(f"{what}: not after {seconds:g} s")
        await asyncio.sleep(0.01)
