"""One worker process of the token budget's two-process tests (tests/platform/test_token_budget.py):

    python -m support.token_worker <database url> <start_at> <seconds> <share> <limit> <busy> <every>

calls through the real pacer and the shared budget from ``start_at`` (wall clock) for ``seconds``:
as fast as allowed (``busy`` 1), not at all (0), or one call every ``every`` seconds (2, quiet); it
prints the moments its calls went and how often it asked the database, as JSON. (Started with
``support.offline_process.python_env()``, which puts tests/ on its path as pytest's pythonpath does.)"""

from __future__ import annotations

import asyncio
import json
import sys

from bot.pacer import Pacer
from bot.stores import open_store
from bot.token_budget import TokenBudget
from support.token_calls import calls_flat_out

QUIET = 2


async def hammer(url: str, *, start_at: float, seconds: float, busy: int, share: float, limit: int,
                 every: float) -> dict:
    """Call through the real pacer and the shared budget as fast as allowed from ``start_at`` for
    ``seconds`` (or stay idle, or call quietly); the moments the calls went."""
    store = await open_store(url)
    pacer = Pacer(per_second=limit, per_channel=10**9)
    budget = pacer.budget = TokenBudget(store, share=share)
    stamps = await calls_flat_out(pacer, start_at=start_at, seconds=seconds, busy=busy == 1,
                                  every=every if busy == QUIET else None)
    await store.close()
    return {"stamps": stamps, "asks": budget.asks, "leases": budget.leases}


if __name__ == "__main__":
    url, start_at, seconds, share, limit, busy, every = sys.argv[1:8]
    print(json.dumps(asyncio.run(hammer(url, start_at=float(start_at), seconds=float(seconds), busy=int(busy),
                                        share=float(share), limit=int(limit), every=float(every)))))
