"""One budget of Discord calls per token, shared by the processes on one database (issue 30).

The proof runs two real OS processes (this file, run as a script: ``worker``), each with the real
``Pacer`` and ``TokenBudget`` on one PostgreSQL database or one SQLite file, calling as fast as it
is allowed for a few seconds; the calls are the wall-clock moments each was let go.
"""

from __future__ import annotations

import asyncio
import json
import logging
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if __name__ == "__main__":  # run as a worker process
    sys.path.insert(0, str(ROOT))

from bot.pacer import URGENT, Pacer  # noqa: E402
from bot.stores import open_store  # noqa: E402
from bot.token_budget import TokenBudget  # noqa: E402

LIMIT = 50
SECONDS = 3


# ----- the worker: one process's calls -----
async def hammer(url: str, *, start_at: float, seconds: float, busy: bool, share: float) -> dict:
    """Call through the real pacer and the shared budget as fast as allowed from ``start_at`` for
    ``seconds`` (or stay idle); the moments the calls went."""
    store = await open_store(url)
    pacer = Pacer(per_second=LIMIT, per_channel=10**9)
    budget = pacer.budget = TokenBudget(store, share=share)
    stamps: list[float] = []
    end = start_at + seconds

    async def caller(channel: int) -> None:
        while time.time() < end:
            await pacer.turn(URGENT, channel)
            stamps.append(time.time())

    await asyncio.sleep(max(0.0, start_at - time.time()))
    if busy:
        await asyncio.gather(*(caller(i) for i in range(20)))
    else:
        await asyncio.sleep(seconds)
    await store.close()
    return {"stamps": [t for t in stamps if t < end], "asks": budget.asks}


def run_two(url: str, busy: tuple[bool, bool]) -> tuple[list[dict], float]:
    """Two worker processes on ``url`` (prepared by the caller); their calls, and the start."""
    start_at = time.time() + 2.0  # both processes are up and connected by then
    workers = [subprocess.Popen([sys.executable, __file__, "worker", str(url), str(start_at), str(int(b))],
                                stdout=subprocess.PIPE, text=True, cwd=ROOT) for b in busy]
    results = []
    for worker in workers:
        out, _ = worker.communicate(timeout=60)
        assert worker.returncode == 0
        results.append(json.loads(out))
    return results, start_at


def per_second(stamps: list[float]) -> Counter:
    return Counter(int(t) for t in stamps)


def whole_seconds(start_at: float) -> range:
    """The seconds wholly inside the run."""
    return range(int(start_at) + 1, int(start_at + SECONDS))


async def prepared(url) -> str:
    """The database migrated once, before the two processes open it."""
    await (await open_store(url)).close()
    return str(url)


# ----- two processes -----
async def test_two_busy_processes_never_spend_more_than_the_token_allows_in_a_second(store_url):
    url = await prepared(store_url)
    (a, b), start_at = await asyncio.to_thread(run_two, url, (True, True))
    combined = per_second(a["stamps"] + b["stamps"])
    assert max(combined.values()) <= LIMIT, combined
    # the budget is used, not lost between them, and both got calls through
    assert all(combined[s] >= LIMIT * 0.9 for s in whole_seconds(start_at)), combined
    assert a["stamps"] and b["stamps"]
    # the database is asked once per block, not once per call
    assert a["asks"] + b["asks"] < (len(a["stamps"]) + len(b["stamps"])) / 2


async def test_a_busy_process_may_use_the_whole_budget_while_the_other_is_idle(store_url):
    url = await prepared(store_url)
    (busy, idle), start_at = await asyncio.to_thread(run_two, url, (True, False))
    counts = per_second(busy["stamps"])
    assert not idle["stamps"]
    assert max(counts.values()) <= LIMIT
    # more than its static half: the idle process's share is not wasted
    assert all(counts[s] >= LIMIT * 0.9 for s in whole_seconds(start_at)), counts


# ----- the shared count on each engine -----
async def test_a_window_gives_blocks_then_what_is_left_then_nothing(store_url):
    store = await open_store(store_url)
    try:
        assert [await store.take_calls(100, 5, 12) for _ in range(4)] == [5, 5, 2, 0]
        assert await store.take_calls(101, 5, 12) == 5  # the next second starts afresh
        assert await store.forget_calls_before(101) == 1
        assert await store.take_calls(100, 5, 12) == 5  # forgotten
    finally:
        await store.close()


async def test_a_database_that_cannot_answer_leaves_the_static_share(tmp_path, caplog):
    store = await open_store(tmp_path / "bot.db")
    await store.close()  # it refuses every ask now
    seconds = [1000.0]
    budget = TokenBudget(store, share=0.5, wall=lambda: seconds[0])
    caplog.set_level(logging.WARNING, "bot.token_budget")
    assert budget.wait() is None  # ask the database first
    await budget.refill(5, LIMIT)
    went = 0
    while budget.wait() == 0:
        budget.spend()
        went += 1
    assert went == LIMIT // 2 and not budget.shared
    seconds[0] += 1.0
    await budget.refill(5, LIMIT)  # still refusing: it is not asked again for a while, nor logged again
    assert budget.wait() == 0
    assert len([r for r in caplog.records if "cannot count" in r.message]) == 1


async def test_only_a_process_sharing_the_token_asks_the_database(tmp_path, clock):
    from support.sim import close_made_bots, new_bot

    alone, sharing = new_bot(tmp_path / "bot.db", clock, shard_count=2), new_bot(
        tmp_path / "bot.db", clock, shard_count=2, shard_ids="1")
    try:
        for bot in (alone, sharing):
            bot.store = await open_store(tmp_path / "bot.db")
            bot.share_token_budget()
        assert alone.delivery.pacer.budget is None  # every shard: in memory, no database round trip
        assert isinstance(sharing.delivery.pacer.budget, TokenBudget)
        assert sharing.delivery.pacer.budget.share == 0.5
    finally:
        await close_made_bots()


if __name__ == "__main__" and sys.argv[1:2] == ["worker"]:
    _url, _start, _busy = sys.argv[2:5]
    print(json.dumps(asyncio.run(hammer(_url, start_at=float(_start), seconds=SECONDS, busy=_busy == "1",
                                        share=0.5))))
elif __name__ == "__main__":
    pytest.main([__file__])
