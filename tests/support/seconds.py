"""Simulated seconds for the pacer's tests: its waits pass at once and the clock jumps by them."""

import asyncio


class SimulatedSeconds:
    """The pacer's clock and sleep in a test. It is the only thing that waits (simcord answers every
    call at once), so jumping the clock by each wait is a faithful simulation; before a jump, the
    work already let through gets ``yields`` turns of the loop to make its call and queue the next."""

    def __init__(self, yields: int = 50) -> None:
        self.t = 0.0
        self.yields = yields

    def now(self) -> float:
        return self.t

    async def sleep(self, seconds: float) -> None:
        for _ in range(self.yields):
            await asyncio.sleep(0)
        self.t += seconds  # (a wait cancelled meanwhile passes no time)
