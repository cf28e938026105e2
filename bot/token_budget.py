"""One budget of Discord calls per token, shared by every process that uses the token.

Discord gives a bot token about 50 calls a second in all, however many processes share it
(``SHARD_IDS``). Each process's ``Pacer`` keeps its own windows; the token's global budget is one
token bucket, one row on the database the processes already share. A process takes a block of
calls (what is waiting, at most ``block``) with one atomic statement (``Store.take_calls``), so the
database is asked per block, not per call. The statement refills the bucket by the
database's own clock (PostgreSQL's ``clock_timestamp()``), so the processes' clocks need not agree.
It takes the block only when it is all there; otherwise it says how long until it is, and the
process sleeps exactly that long (no polling). An idle process takes nothing, so a busy one may use
the whole budget.

The arithmetic (limit L calls a second, block k):

- capacity C = k + 1 (one block, and one call more, so what refills while an ask travels is not
  lost) and rate r = (L - C) / (1 + HOLD);
- a block is spent within HOLD seconds of the moment it was asked for, or not at all;
- so the calls spent in any one-second stretch were taken in a stretch of 1 + HOLD seconds, and
  the bucket gives at most C + r x (1 + HOLD) = L in any such stretch: any one-second stretch holds
  at most L calls across all processes, not only each clock second.

With L = 50, k = 5 and HOLD = 0.02 s: C = 6, r = 43.1 calls a second (86% of the limit, the price
of the guarantee). A busy process asks about 9 times a second, and with another busy process about
twice as often (both are told when the next block is there; one of them gets it). An answer later
than HOLD is not spent (its calls are lost, never over the budget); after a few late answers in a
row the process keeps to its static share, as when the database cannot answer. The capacity is at
most half the limit (a small budget takes small blocks), and with L = 1 the rate is half a call a
second: C + r x (1 + HOLD) = 1.5, and calls are whole.

When the database cannot answer, the process paces itself at a static share of the budget (the
limit times its shards over all shards), says so once in the log, and asks the database again a
few seconds later. A process that runs every shard has no one to share with: it has no
``TokenBudget`` at all and paces in memory, with no database round trip.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

from .pacer import Window
from .store import Store, StoreRefused

log = logging.getLogger(__name__)

#: the bucket's row (one per token: the processes on one database share one token)
BUCKET = "discord"
#: a block taken must be spent within this many seconds of the ask, or not at all
HOLD = 0.02
#: answers later than ``HOLD`` this many times in a row: the database is too slow to share through
LATE_IN_A_ROW = 3
#: an ask not answered within this many seconds is given up (the database cannot answer)
ASK_TIMEOUT = 1.0
#: while the database does not answer, it is asked again after this many seconds
RETRY_SECONDS = 5.0


def bucket_for(limit: int, block: int) -> tuple[float, int]:
    """The bucket's rate (calls a second) and capacity for a budget of ``limit`` calls in any
    second, taken ``block`` at a time (see the module's docstring)."""
    capacity = max(1, min(block + 1, limit // 2))
    return max(limit - capacity, 0.5) / (1 + HOLD), capacity


class TokenBudget:
    """The token's calls as seen by one process: the block it holds (``credit``, to be spent
    before ``HOLD`` is up), taken from the database's bucket a block at a time."""

    def __init__(self, store: Store, *, share: float, block: int = 5,
                 clock: Callable[[], float] = time.monotonic) -> None:
        """``share``: this process's part of the shards (its fallback pace); ``block``: the most
        calls taken in one ask; ``clock``: this process's clock (only durations are measured)."""
        self.store = store
        self.share = share
        self.block = max(1, block)
        self.clock = clock
        self.credit = 0
        self._credit_until = 0.0  # the block held must be spent before this
        self._ready_at = 0.0  # the bucket said the next block is there at this time
        self._static: Window | None = None  # the fallback pace, while the database cannot answer
        self._ask_again_at = 0.0
        self._late_in_a_row = 0
        #: database asks so far, calls they gave, blocks given up as late (for the benches and tests)
        self.asks = 0
        self.granted = 0
        self.late = 0

    @property
    def shared(self) -> bool:
        """Whether the budget is taken from the database now (not at the fallback share)."""
        return self._static is None

    def wait(self) -> float | None:
        """Seconds before a call may go (0: now), or None: ask the database first (``refill``)."""
        now = self.clock()
        if self._static is not None and now < self._ask_again_at:
            return max(0.0, self._static.free_at(now) - now)
        if self.credit > 0 and now < self._credit_until:
            return 0.0
        self.credit = 0  # a block not spent in time is given up
        if now < self._ready_at:
            return self._ready_at - now
        return None

    def spend(self) -> None:
        """One call goes now (after ``wait`` said 0)."""
        now = self.clock()
        if self._static is not None and now < self._ask_again_at:
            self._static.take(now)
        else:
            self.credit -= 1

    async def refill(self, want: int, limit: int) -> None:
        """Take a block of ``want`` calls (at most a block) from the token's bucket of ``limit``
        calls a second, or learn how long until it is there."""
        rate, capacity = bucket_for(limit, self.block)
        want = max(1, min(want, self.block, capacity))
        sent = self.clock()
        try:
            grant = await asyncio.wait_for(self.store.take_calls(BUCKET, want, rate, capacity), ASK_TIMEOUT)
        except (StoreRefused, TimeoutError, OSError) as exc:
            self._fall_back(limit, f"it does not answer: {exc or type(exc).__name__}")
            return
        back = self.clock()
        self.asks += 1
        if self._static is not None:
            log.warning("the database counts the token's calls again: the budget of %d a second is shared", limit)
            self._static = None
        self._ready_at = back + grant.wait  # when the next block is there: asked for no sooner
        if not grant.calls:
            return
        if back - sent > HOLD:
            self._too_late(limit, back - sent)
            return
        self._late_in_a_row = 0
        self.granted += grant.calls
        self.credit = grant.calls
        self._credit_until = sent + HOLD

    def _too_late(self, limit: int, took: float) -> None:
        """A block that came back after ``HOLD`` is given up: spent now, its calls could go over the
        budget in some second. Late again and again: the database is too slow to share through."""
        self.late += 1
        self._late_in_a_row += 1
        if self._late_in_a_row >= LATE_IN_A_ROW:
            self._late_in_a_row = 0
            self._fall_back(limit, f"its answers take {took * 1000:.0f} ms, more than the {HOLD * 1000:.0f} ms "
                                   "a block may be held")

    def _fall_back(self, limit: int, why: str) -> None:
        """Pace at this process's share of ``limit`` until the database answers again."""
        self._ask_again_at = self.clock() + RETRY_SECONDS
        self.credit = 0
        if self._static is None:
            calls = max(1, int(limit * self.share))
            self._static = Window(calls, 1.0)
            log.warning("the database cannot share the token's calls (%s): this process keeps to %d a second, "
                        "its share of %d, until it can", why, calls, limit)
