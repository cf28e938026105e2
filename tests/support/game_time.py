"""The game clock for the voice table's benches and tests: the bot's clock and the pacer's waits on
one simulated time line, moved on only when every delivery waits for it (no real sleeping).

``GameTime.run`` settles the bot (every delivery, and the voice table's trailing edits, done or
waiting for the game clock, and simcord's ``settle``), then moves the clock to the next moment
something happens (a pacer's window frees up, a phase or a speaking turn falls due), fires what is
due and lets it queue its calls, and only then wakes the pacer's waits of that moment; and so on.
The results do not depend on the machine's speed: the clock moves only when nothing else can."""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections.abc import Awaitable, Callable

from bot.clock import ManualClock
from bot.pacer import Pacer

REASON = "waits for the game clock (the pacer)"


class GameTime:
    def __init__(self, env, clock: ManualClock) -> None:
        self.env = env
        self.clock = clock
        self._sleepers: list[tuple[float, int, asyncio.Future]] = []
        self._order = itertools.count()
        self._parked: set[asyncio.Task | None] = set()

    async def park(self, awaitable: Awaitable) -> None:
        """Wait for ``awaitable`` as a wait on the game clock: parked, for simcord's settle when
        the task is the bot's own (an interaction's), and for ``settle`` here in any case."""
        task = asyncio.current_task()
        self._parked.add(task)
        try:
            if task in self.env._work.tasks:  # (simcord refuses the declaration from other tasks)
                await self.env.external_wait(awaitable, reason=REASON)
            else:
                await awaitable
        finally:
            self._parked.discard(task)

    async def sleep(self, seconds: float) -> None:
        """The pacer's sleep: until the game clock has moved ``seconds`` on."""
        future = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (self.clock.now() + max(0.0, seconds), next(self._order), future))
        await self.park(future)

    def pacer(self, **kwargs) -> Pacer:
        time = self

        class GamePacer(Pacer):
            async def turn(self, *args, **kw) -> None:
                await time.park(super().turn(*args, **kw))

        return GamePacer(clock=self.clock.now, sleep=self.sleep, **kwargs)

    def next_wake(self) -> float | None:
        while self._sleepers and self._sleepers[0][2].done():
            heapq.heappop(self._sleepers)
        return self._sleepers[0][0] if self._sleepers else None

    def _wake(self) -> None:
        now = self.clock.now()
        while self._sleepers and self._sleepers[0][0] <= now:
            _, _, future = heapq.heappop(self._sleepers)
            if not future.done():
                future.set_result(None)

    def _busy(self, bot) -> list[asyncio.Task]:
        """The bot's deliveries (and the voice table's trailing edits) neither done nor waiting for
        the game clock."""
        delivery = bot.delivery
        watched = [*delivery._tasks.values(), *delivery._side, *getattr(bot.voice, "_trailing", {}).values()]
        runner = delivery.pacer._runner
        if runner is not None:
            watched.append(runner)
        return [t for t in watched if not t.done() and t not in self._parked]

    async def settle(self, bot) -> None:
        """Until everything the bot does waits for the game clock (or is done)."""
        while True:
            await self.env.settle()
            busy = self._busy(bot)
            if not busy:
                for _ in range(20):  # a task just woken gets its turns before the clock moves
                    await asyncio.sleep(0)
                if not self._busy(bot):
                    return
                continue
            await asyncio.wait(busy, timeout=0.005)  # (the database answers from its thread)

    async def run(self, bot, until: float, next_due: Callable[[], Awaitable[float | None]],
                  after_step: Callable[[], Awaitable[None]] | None = None) -> None:
        """Play the game clock up to ``until`` (absolute): each step settles the bot, moves the clock
        to the next wake of the pacer or ``next_due()`` (the games' next deadline), and fires it."""
        while True:
            await self.settle(bot)
            if after_step is not None:
                await after_step()
            times = [t for t in (self.next_wake(), await next_due()) if t is not None]
            if not times or min(times) > until:
                return
            at = min(times)
            if at > self.clock.now():
                self.clock.advance(at - self.clock.now())
            # what falls due at this moment is committed and queued before the pacer wakes at it
            await bot.service.fire_due()
            await self.settle(bot)
            self._wake()
