"""One budget of Discord calls per token, shared by every process that uses the token.

Discord gives a bot token about 50 calls a second in all, however many processes share it
(``SHARD_IDS``). Each process's ``Pacer`` keeps its own windows; the token's global budget is
counted on the database the processes already share, one row per one-second window of the wall
clock. A process takes a block of calls (what is waiting, at most ``block``) with one atomic
statement (``Store.take_calls``), so the database is asked once per block, not once per call; the
block is spent in that second or not at all. When the window is full the process waits for the
next one. An idle process takes nothing, so a busy one may use the whole budget.

When the database cannot answer, the process paces itself at a static share of the budget (the
limit times its shards over all shards), says so once in the log, and asks the database again a
few seconds later. A process that runs every shard has no one to share with: it has no
``TokenBudget`` at all and paces in memory, with no database round trip.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections.abc import Callable

from .pacer import Window
from .store import Store, StoreRefused

log = logging.getLogger(__name__)

#: the length of one window of the shared count, in seconds
WINDOW_SECONDS = 1.0
#: a block asked of the database longer than this is given up (it could only be spent in its second)
ASK_TIMEOUT = 1.0
#: while the database does not answer, it is asked again after this many seconds
RETRY_SECONDS = 5.0
#: the counts of past windows are deleted every this many windows
FORGET_EVERY = 60


class TokenBudget:
    """The token's calls of each second, as seen by one process: the calls it holds for the
    current window (``credit``), taken from the database a block at a time."""

    def __init__(self, store: Store, *, share: float, block: int = 5,
                 wall: Callable[[], float] = time.time) -> None:
        """``share``: this process's part of the shards (its fallback pace); ``block``: the most
        calls taken in one ask; ``wall``: the clock every process agrees on."""
        self.store = store
        self.share = share
        self.block = max(1, block)
        self.wall = wall
        self.credit = 0
        self._credit_window = -1
        self._full_window = -1  # the database said this window is full
        self._static: Window | None = None  # the fallback pace, while the database cannot answer
        self._ask_again_at = 0.0
        self._forgotten_at = -1
        #: database asks so far, and calls they gave (for the benches and tests)
        self.asks = 0
        self.granted = 0

    def window(self) -> int:
        return math.floor(self.wall() / WINDOW_SECONDS)

    @property
    def shared(self) -> bool:
        """Whether the budget is counted on the database now (not at the fallback share)."""
        return self._static is None

    def wait(self) -> float | None:
        """Seconds before a call may go (0: now), or None: ask the database first (``refill``)."""
        now = self.wall()
        window = math.floor(now / WINDOW_SECONDS)
        if self._static is not None and now < self._ask_again_at:
            return max(0.0, self._static.free_at(now) - now)
        if self._credit_window == window and self.credit > 0:
            return 0.0
        if self._full_window == window:
            return (window + 1) * WINDOW_SECONDS - now
        return None

    def spend(self) -> None:
        """One call goes now (after ``wait`` said 0)."""
        if self._static is not None and self.wall() < self._ask_again_at:
            self._static.take(self.wall())
        else:
            self.credit -= 1

    async def refill(self, want: int, limit: int) -> None:
        """Take up to ``want`` (at most a block) of the ``limit`` calls of this window."""
        window = self.window()
        want = max(1, min(want, self.block, limit))
        try:
            taken = await asyncio.wait_for(self.store.take_calls(window, want, limit), ASK_TIMEOUT)
        except (StoreRefused, TimeoutError, OSError) as exc:
            self._fall_back(limit, exc)
            return
        self.asks += 1
        self.granted += taken
        if self._static is not None:
            log.warning("the database counts the token's calls again: the budget of %d a second is shared", limit)
            self._static = None
        if taken:
            self.credit = taken + (self.credit if self._credit_window == window else 0)
            self._credit_window = window
        else:
            self._full_window = window
        await self._forget_old(window)

    def _fall_back(self, limit: int, exc: BaseException) -> None:
        """Pace at this process's share of ``limit`` until the database answers again."""
        self._ask_again_at = self.wall() + RETRY_SECONDS
        if self._static is None:
            calls = max(1, int(limit * self.share))
            self._static = Window(calls, WINDOW_SECONDS)
            log.warning("the database cannot count the token's calls (%s): this process keeps to %d a second, "
                        "its share of %d, until it answers", exc or type(exc).__name__, calls, limit)

    async def _forget_old(self, window: int) -> None:
        if window - self._forgotten_at < FORGET_EVERY:
            return
        self._forgotten_at = window
        with contextlib.suppress(StoreRefused):  # refused: the old counts stay a little longer
            await self.store.forget_calls_before(window - FORGET_EVERY)
