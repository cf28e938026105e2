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

At low traffic a block is rarely spent twice: calls a few tenths of a second apart would each ask
the database. So a quiet process (a call or two at a time, fewer than ``LEASE_CALLS`` in the last
second) asks, with its block, for a lease of ``LEASE_CALLS`` calls a second for ``LEASE_SECONDS``,
spent with no round trip, and renews it in its last second while it calls. A lease keeps the bound:
from its grant until a second and ``HOLD`` after its end the bucket refills slower by the leases'
rates (the grant refills the bucket up to that moment first, under its row lock); the process
spends at most the lease's rate in any one-second stretch of its own clock, none after its end, and
a fresh lease starts slow (its k-th call no sooner than k / LEASE_CALLS seconds after the answer).
So a one-second stretch's leased calls are matched by the refill withheld over that stretch and the
HOLD before it. The leases together may take at most half the rate, so a busy process's blocks never
stop; a process with no calls to make takes no lease, so its share is not wasted, and a busy
process takes blocks only. The cost: one ask per ``LEASE_SECONDS`` while a quiet process calls, and
the leased rate withheld from a busy process while a quiet one holds its lease.

When the database cannot answer, the process paces itself at a static share of the budget (the
limit times its shards over all shards), says so once in the log, and asks the database again a
few seconds later. A process that runs every shard has no one to share with: it has no
``TokenBudget`` at all and paces in memory, with no database round trip.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import os
import socket
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
#: how long a lease of calls lasts (a quiet process asks about this often)
LEASE_SECONDS = 10.0
#: the calls a second a lease gives (at most a block): what a quiet process makes
LEASE_CALLS = 3
#: after its end, a lease slows the bucket's refill this long still (a one-second stretch and HOLD)
LEASE_TAIL = 1.0 + HOLD
#: a lease is renewed this long before it ends, when a call asks the database then
LEASE_RENEW_BEFORE = 1.0
#: a lease refused (leased enough already): not asked for again for this long
LEASE_REFUSED_SECONDS = 1.0
#: the part of the bucket's rate that leases may take together
LEASED_AT_MOST = 0.5
_processes = itertools.count(1)


def bucket_for(limit: int, block: int) -> tuple[float, int]:
    """The bucket's rate (calls a second) and capacity for a budget of ``limit`` calls in any
    second, taken ``block`` at a time (see the module's docstring)."""
    capacity = max(1, min(block + 1, limit // 2))
    return max(limit - capacity, 0.5) / (1 + HOLD), capacity


class TokenBudget:
    """The token's calls as seen by one process: the block it holds (``credit``, to be spent
    before ``HOLD`` is up), taken from the database's bucket a block at a time."""

    def __init__(self, store: Store, *, share: float, block: int = 5,
                 clock: Callable[[], float] = time.monotonic, lease: bool = True) -> None:
        """``share``: this process's part of the shards (its fallback pace); ``block``: the most
        calls taken in one ask (and leased a second); ``clock``: this process's clock (only
        durations are measured); ``lease``: lease calls at low traffic (see the module)."""
        self.store = store
        self.share = share
        self.block = max(1, block)
        self.clock = clock
        #: this budget's name on the database's leases (unique per process and budget)
        self.holder = f"{socket.gethostname()}:{os.getpid()}:{next(_processes)}"
        self._leasing = lease
        self._lease: Window | None = None  # the leased calls' own one-second window
        self._lease_until = 0.0  # the lease's calls go before this
        self._lease_again_at = 0.0  # a lease refused: not asked for again before this
        self._recent = Window(LEASE_CALLS, 1.0)  # this process's calls of the last second (up to LEASE_CALLS)
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
        self.leases = 0

    @property
    def shared(self) -> bool:
        """Whether the budget is taken from the database now (not at the fallback share)."""
        return self._static is None

    def wait(self) -> float | None:
        """Seconds before a call may go (0: now), or None: ask the database first (``refill``)."""
        now = self.clock()
        if self._static is not None and now < self._ask_again_at:
            return max(0.0, self._static.free_at(now) - now)
        lease_at = self._lease_free_at(now)
        if lease_at is not None and self._lease_wanted(now) and self._recent.room(now) > 0:
            return None  # the lease's last second, and a quiet call: renew it while it counts
        if lease_at == now or (self.credit > 0 and now < self._credit_until):
            return 0.0
        self.credit = 0  # a block not spent in time is given up
        if lease_at is not None and now < self._ready_at:  # the lease's next call or the next block
            return min(lease_at, self._ready_at) - now
        if now < self._ready_at:
            return self._ready_at - now
        return None

    def _lease_free_at(self, now: float) -> float | None:
        """When the lease lets a call go (``now``: at once), or None: no lease, or not in time."""
        if self._lease is None or now >= self._lease_until:
            return None
        at = self._lease.free_at(now)
        return at if at < self._lease_until else None

    def _lease_wanted(self, now: float) -> bool:
        """No lease, or one ending within a second (renewed while it counts, it goes on at its pace)."""
        return self._leasing and now >= self._lease_until - LEASE_RENEW_BEFORE and now >= self._lease_again_at

    def _quiet(self, want: int, now: float) -> bool:
        """Whether this process calls at a lease's pace: a call or two at a time, and fewer than a
        lease's calls in the last second. A busy process takes blocks only: a lease would cost it
        the calls paid up front, and the other processes the refill it withholds."""
        return want < LEASE_CALLS and self._recent.room(now) > 0

    def spend(self) -> None:
        """One call goes now (after ``wait`` said 0)."""
        now = self.clock()
        if len(self._recent.times) >= LEASE_CALLS:
            self._recent.times.popleft()
        self._recent.take(now)
        if self._static is not None and now < self._ask_again_at:
            self._static.take(now)
        elif self._lease is not None and self._lease_free_at(now) == now:
            self._lease.take(now)
        else:
            self.credit -= 1

    async def refill(self, want: int, limit: int) -> None:
        """Take a block of ``want`` calls (at most a block) from the token's bucket of ``limit``
        calls a second, or learn how long until it is there."""
        rate, capacity = bucket_for(limit, self.block)
        now = self.clock()
        if self._lease_wanted(now):
            if self._quiet(want, now):
                await self._take_lease(max(1, min(want, capacity)), rate, capacity)
                return
            self._lease_again_at = now + LEASE_REFUSED_SECONDS  # busy now: a block, and no lease for a while
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

    async def _take_lease(self, want: int, rate: float, capacity: int) -> None:
        """Ask for a block of ``want`` and a lease of ``LEASE_CALLS`` a second for ``LEASE_SECONDS``
        in one round trip (see the module); whether it was answered. A fresh lease starts slow (its
        k-th call no sooner than k / LEASE_CALLS seconds in); one renewed while it still counts
        goes on at its pace. Refused, it is not asked for again for a while (nor after no answer:
        the next call asks for a block, which falls back to the static share if need be)."""
        calls = min(LEASE_CALLS, self.block, capacity)
        sent = self.clock()
        try:
            block, leased = await asyncio.wait_for(self.store.take_lease(
                BUCKET, self.holder, want, rate, capacity, lease=calls, seconds=LEASE_SECONDS,
                tail=LEASE_TAIL, most_leased=rate * LEASED_AT_MOST), ASK_TIMEOUT)
        except (StoreRefused, TimeoutError, OSError):
            self._lease_again_at = sent + RETRY_SECONDS
            return
        back = self.clock()
        self.asks += 1
        if self._static is not None:
            log.warning("the database counts the token's calls again: the budget is shared")
            self._static = None
        self._ready_at = back + block.wait
        if block.calls and back - sent <= HOLD:
            self.granted += block.calls
            self.credit = block.calls
            self._credit_until = sent + HOLD
        if not leased:
            self._lease_again_at = back + LEASE_REFUSED_SECONDS
            return
        self.leases += 1
        if self._lease is None or back >= self._lease_until + LEASE_TAIL - HOLD:
            # a fresh lease: as if its calls had gone evenly over the second before it
            self._lease = Window(calls, 1.0)
            self._lease.times.extend(back - 1.0 + k / calls for k in range(1, calls + 1))
        self._lease_until = sent + LEASE_SECONDS

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
        self._lease, self._lease_until = None, 0.0
        if self._static is None:
            calls = max(1, int(limit * self.share))
            self._static = Window(calls, 1.0)
            log.warning("the database cannot share the token's calls (%s): this process keeps to %d a second, "
                        "its share of %d, until it can", why, calls, limit)
