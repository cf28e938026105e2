"""One pacer for every call the bot makes to Discord on its own (sends, edits, DMs, threads).

Discord gives a bot token about 50 requests per second in all, and each channel a few messages
per few seconds. discord.py waits out a 429 once it gets one; the pacer keeps the bot from getting
there, and decides who goes first when the budget is short: what a player waits on (a phase's
opening message, a prompt, a role card) before narration, and narration before cosmetic edits.
Interaction responses and follow-ups are not paced: Discord does not count them in the budget.
Within a priority a call may carry a ``rank`` (lower first): the voice table ranks a speaker's
unmute before the previous speaker's mute before the other mutes of every game of a server, and a
window may keep a few of its calls (``reserve``) for the ranks below ``RESERVED_RANKS`` alone.

Both limits are sliding windows ("at most N calls in any W seconds"), so a burst never goes over,
not even at the edge of a second.

Discord's answer is the truth: the numbers above are a first guess, and ``learn`` corrects them from
a refusal's rate-limit headers (a route's own limit, a 429's wait, a global 429 lowering the whole
budget for a while). ``ease`` slows what can wait as the invalid requests near Discord's ban
(``bot.discord_health``): cosmetic edits first, then narration.

Several processes on one token share its global budget through the database (``budget``, a
``SharedBudget`` such as ``bot.token_budget.TokenBudget``, a token bucket): a call goes when this
process's windows allow it and the process holds a call of the block it took from the bucket. The
channels' windows stay per process (a channel's games belong to one process).
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import math
from collections import deque
from collections.abc import Awaitable, Callable, Hashable
from typing import Protocol

from . import metrics

#: priorities, most urgent first
URGENT, NARRATION, COSMETIC = 0, 1, 2
#: the windows of the kinds of call that Discord limits otherwise than a channel's messages: a
#: server's member edits (the voice table's server mutes) share one bucket of about ten calls in
#: ten seconds, so a table of ten is muted at once and an eleventh waits
KIND_WINDOWS: dict[str | None, tuple[int, float]] = {"voice": (10, 10.0)}
#: the ranks a window's ``reserve`` is kept for (the voice table's speaker unmute and the previous
#: speaker's mute); a call of a higher rank leaves the reserve free
RESERVED_RANKS = 2
#: after a global 429 the budget is halved for this long
GLOBAL_EASE_SECONDS = 60.0
#: the pace of what can wait when the invalid requests pass a share of Discord's limit:
#: (share, {priority: (calls, seconds)}), the highest share passed applies
STRAINED: tuple[tuple[float, dict[int, tuple[int, float]]], ...] = (
    (0.5, {COSMETIC: (1, 1.0)}),
    (0.9, {COSMETIC: (1, 10.0), NARRATION: (1, 1.0)}),
)


def kind_of(key: Hashable) -> str | None:
    """The kind of a pacer key ``((kind, id), method)``, as ``Calls.call`` makes them."""
    if isinstance(key, tuple) and key and isinstance(key[0], tuple) and key[0]:
        return key[0][0]
    return None


class SharedBudget(Protocol):
    """The token's budget shared with other processes (``bot.token_budget.TokenBudget``)."""

    def wait(self) -> float | None:
        """Seconds before a call may go (0: now), or None: ``refill`` first."""

    def spend(self) -> None:
        """One call goes now."""

    async def refill(self, want: int, limit: int) -> None:
        """Take a block of up to ``want`` calls from the token's bucket of ``limit`` calls a second
        (or learn how long until one is there)."""


class Window:
    """At most ``limit`` calls in any ``seconds``."""

    def __init__(self, limit: int, seconds: float) -> None:
        self.limit = limit
        self.seconds = seconds
        self.times: deque[float] = deque()
        #: nothing goes before this time (Discord said to wait)
        self.closed_until = 0.0

        #: of ``limit``, the calls kept for the ranks below ``RESERVED_RANKS`` (``Pacer.reserve``)
        self.reserve = 0

    def free_at(self, now: float, keep: int = 0) -> float:
        """When the next call may go (``now`` if it may go now), leaving ``keep`` calls of the
        window unused (at least one call is always allowed)."""
        while self.times and self.times[0] <= now - self.seconds:
            self.times.popleft()
        limit = max(1, self.limit - keep)
        at = now if len(self.times) < limit else self.times[-limit] + self.seconds
        return at if at >= self.closed_until else self.closed_until

    def room(self, now: float) -> int:
        """How many calls may go now."""
        return max(0, self.limit - len(self.times)) if self.free_at(now) <= now else 0

    def take(self, now: float) -> None:
        self.times.append(now)


class Pacer:
    def __init__(self, per_second: float = 50, per_channel: int = 5, channel_seconds: float = 5.0, *,
                 clock: Callable[[], float] | None = None,
                 sleep: Callable[[float], Awaitable[None]] | None = None) -> None:
        #: the time and the wait it goes by (the event loop's; a test may simulate seconds)
        self.clock = clock
        self.sleep = sleep or asyncio.sleep
        # the global budget as a one-second window of whole calls (at least one)
        self.total = Window(max(1, int(per_second)), 1.0)
        self.per_channel = per_channel
        self.channel_seconds = channel_seconds
        self._channels: dict[Hashable, Window] = {}
        self._prune_at = 4096
        self._queue: list[tuple[int, int, int, Hashable, asyncio.Future]] = []
        self._order = itertools.count()
        self._runner: asyncio.Task | None = None
        self._runner_at = 0.0  # when the runner wakes next
        #: calls let through so far, by priority (for the benches and the operator's log)
        self.served = [0, 0, 0]
        #: priority -> the slower pace it keeps while Discord's invalid requests are many (``ease``)
        self._slowed: dict[int, Window] = {}
        self._strain = 0.0
        self._total_limit = self.total.limit  # the budget to come back to after a global 429
        self._total_back_at: float | None = None
        #: the token's budget shared with other processes (None: this process is alone on the token)
        self.budget: SharedBudget | None = None
        self._ask_budget = False  # the budget's credit ran out while someone could go

    @property
    def waiting(self) -> int:
        return sum(1 for *_, f in self._queue if not f.done())

    def pressed(self) -> bool:
        """Whether the token's budget is pressed: calls wait their turn, the last second used half
        of the budget or more, or Discord's invalid requests slow us. What only adorns (a reveal's
        extra steps) is then left out."""
        self.total.free_at(self.now())  # (forgets the calls older than its second)
        return self.waiting > 0 or 2 * len(self.total.times) >= self.total.limit or self._strain > 0

    def _channel(self, key: Hashable) -> Window:
        window = self._channels.get(key)
        if window is None:
            limit, seconds = KIND_WINDOWS.get(kind_of(key), (self.per_channel, self.channel_seconds))
            window = self._channels[key] = Window(limit, seconds)
        return window

    def reserve(self, channel: Hashable, calls: int) -> None:
        """Keep ``calls`` of ``channel``'s window for the ranks below ``RESERVED_RANKS`` (0: none)."""
        self._channel(channel).reserve = max(0, calls)

    async def turn(self, priority: int, channel: Hashable, rank: int = 0) -> None:
        """Wait until a call to ``channel`` of this priority may go; the call is counted now.
        ``rank`` orders the calls of one priority (lower first)."""
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        heapq.heappush(self._queue, (priority, rank, next(self._order), channel, future))
        wait = self._release(self.now())
        if wait is not None and (self._runner is None or self._runner.done() or wait < self._runner_at):
            if self._runner is not None:
                self._runner.cancel()
            self._runner = loop.create_task(self._run())
        await future

    async def _run(self) -> None:
        """Let the waiters go as the windows free up (a task that sleeps, rather than a timer
        callback, so simulated clocks see what it waits for)."""
        while True:
            next_at = self._release(self.now())
            if next_at is None:
                return
            if self._ask_budget and self.budget is not None:
                self._runner_at = -math.inf  # asking the database: a new arrival must not cancel it
                self._ask_budget = False
                # no more than this process's own window lets go now: a block not spent soon after
                # it is taken (``token_budget.HOLD``) is lost to every process
                await self.budget.refill(min(self.waiting, self.total.room(self.now())), self.total.limit)
                continue
            self._runner_at = next_at
            await self.sleep(max(0.0, next_at - self.now()))

    def now(self) -> float:
        return self.clock() if self.clock is not None else asyncio.get_running_loop().time()

    def _release(self, now: float) -> float | None:
        """Let go every waiter the windows allow now, most urgent first; returns when to try
        again (None when no one waits)."""
        held: list[tuple[int, int, int, Hashable, asyncio.Future]] = []
        next_at: float | None = None
        self._ask_budget = False
        if self._total_back_at is not None and now >= self._total_back_at:
            self.total.limit, self._total_back_at = self._total_limit, None
        while self._queue:
            total_at = self.total.free_at(now)
            if total_at > now:
                next_at = total_at
                break
            item = heapq.heappop(self._queue)
            priority, rank, _, channel, future = item
            if future.done():  # cancelled while waiting
                continue
            window = self._channel(channel)
            channel_at = window.free_at(now, window.reserve if rank >= RESERVED_RANKS else 0)
            slowed = self._slowed.get(priority) if self._slowed else None
            if slowed is not None:
                channel_at = max(channel_at, slowed.free_at(now))
            if channel_at > now:  # this channel (or priority) is full: the next waiter may go instead
                held.append(item)
                next_at = channel_at if next_at is None else min(next_at, channel_at)
                continue
            shared_at = self._shared_at(now)
            if shared_at is not None:  # the token's budget is spent, or must be asked for first
                held.append(item)
                next_at = shared_at if next_at is None else min(next_at, shared_at)
                break
            self.total.take(now)
            if self.budget is not None:
                self.budget.spend()
            window.take(now)
            if slowed is not None:
                slowed.take(now)
            self.served[priority] += 1
            metrics.discord_call(kind_of(channel))
            future.set_result(None)
        for item in held:
            heapq.heappush(self._queue, item)
        self._forget_idle(now)
        return next_at if self._queue else None

    def _shared_at(self, now: float) -> float | None:
        """None when the token's shared budget lets a call go now; else when to try again (now,
        with ``_ask_budget`` set, when the database must be asked first)."""
        if self.budget is None:
            return None
        wait = self.budget.wait()
        if wait is None:
            self._ask_budget = True
            return now
        return now + wait if wait > 0 else None

    def _forget_idle(self, now: float) -> None:
        """Drop the windows of channels quiet for longer than their window (no growth per channel),
        but not one that keeps a reserve (``reserve``: its owner sets it only when it changes);
        only when their number has doubled since the last time, so it costs little on average."""
        if len(self._channels) > self._prune_at:
            self._channels = {k: w for k, w in self._channels.items()
                              if (w.times and w.times[-1] > now - w.seconds) or w.reserve}
            self._prune_at = max(4096, 2 * len(self._channels))

    # ----- what Discord's answers teach -----
    def learn(self, key: Hashable, *, retry_after: float | None = None, is_global: bool = False,
              limit: int | None = None, reset_after: float | None = None) -> None:
        """Correct the windows from Discord's answer to a call of ``key``: a global 429 closes the
        whole budget for ``retry_after`` and halves it for a while; a route's 429 closes its window
        for ``retry_after``; a route's ``limit`` (calls per ``reset_after`` seconds) narrows its
        window, never widens it (the guess stays the ceiling)."""
        now = self.now()
        if is_global:
            self.total.closed_until = max(self.total.closed_until, now + (retry_after or 1.0))
            self.total.limit = max(1, self._total_limit // 2)
            self._total_back_at = now + GLOBAL_EASE_SECONDS
            return
        window = self._channel(key)
        if limit is not None and limit >= 1 and reset_after is not None and reset_after > 0:
            window.limit = min(window.limit, limit)
            window.seconds = max(window.seconds, reset_after)
        if retry_after:
            window.closed_until = max(window.closed_until, now + retry_after)

    def heed_route(self, key: Hashable, *, limit: int, reset_after: float) -> None:
        """A successful answer's word on the route of ``key``: ``limit`` calls, and its bucket
        resets in ``reset_after`` seconds (at most its window's length, so the pace it gives is
        at least Discord's). The window narrows (``learn``) only when even that pace is slower
        than the window's own: a guess already as strict stays as it is."""
        window = self._channel(key)
        if limit >= 1 and reset_after > 0 and limit / reset_after < window.limit / window.seconds:
            self.learn(key, limit=limit, reset_after=reset_after)

    def ease(self, strain: float) -> None:
        """Slow what can wait when ``strain`` (the share of Discord's invalid-request limit used)
        is high: the pace of the highest share of ``STRAINED`` passed, or none below them all."""
        paces: dict[int, tuple[int, float]] = {}
        for share, pace in STRAINED:
            if strain >= share:
                paces = pace
        if paces != {p: (w.limit, w.seconds) for p, w in self._slowed.items()}:
            self._slowed = {p: Window(*pace) for p, pace in paces.items()}
        self._strain = strain

    @property
    def strain(self) -> float:
        """The strain last given to ``ease``."""
        return self._strain
