"""One budget of Discord calls per token, shared by the processes on one database (issue 30).

The proof runs two real OS processes (``support/token_worker.py``), each with the real
``Pacer`` and ``TokenBudget`` on one PostgreSQL database or one SQLite file, calling as fast as it
is allowed for a few seconds; the calls are the wall-clock moments each was let go, and every
one-second stretch of them (sliding, not only clock seconds) is counted.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import sys
import time

import pytest
from support.offline_process import children, python_env
from support.token_calls import most_in_one_second
from support.token_worker import QUIET

from bot.stores import open_store
from bot.token_budget import (
    HOLD,
    LATE_IN_A_ROW,
    LEASE_CALLS,
    LEASE_SECONDS,
    RETRY_SECONDS,
    TokenBudget,
    bucket_for,
)

LIMIT = 50
SECONDS = 3
#: each worker's static share of the token (two processes)
SHARE = 0.5


# ----- the worker: one process's calls -----
#: how a worker calls: 1 as fast as allowed, 0 not at all, QUIET (2) one call every QUIET_EVERY seconds
QUIET_EVERY = 0.4


def run_two(url: str, busy: tuple[int, int]) -> tuple[list[dict], float]:
    """Two worker processes on ``url`` (prepared by the caller); their calls, and the start."""
    start_at = time.time() + 2.0  # both processes are up and connected by then
    results = []
    with children(*[[sys.executable, "-m", "support.token_worker", str(url), str(start_at), str(SECONDS),
                      str(SHARE), str(LIMIT), str(int(b)), str(QUIET_EVERY)] for b in busy],
                  env=python_env()) as workers:  # (each ended whatever happens)
        for worker in workers:
            assert worker.wait(60) == 0, worker.stderr()
            results.append(json.loads(worker.stdout()))
    return results, start_at


def test_a_stretch_across_two_clock_seconds_is_counted():
    # 50 at the end of one second and 50 at the start of the next: 100 in one stretch
    stamps = [99.5 + i / 100 for i in range(50)] + [100.0 + i / 100 for i in range(50)]
    assert most_in_one_second(stamps) == 100
    assert most_in_one_second([0.0, 1.0, 2.0]) == 1  # a stretch is one second long, not more


async def prepared(url) -> str:
    """The database migrated once, before the two processes open it."""
    await (await open_store(url)).close()
    return str(url)


# ----- two processes -----
@pytest.mark.slow
async def test_two_busy_processes_never_spend_more_than_the_token_allows_in_any_second(store_url):
    url = await prepared(store_url)
    (a, b), _ = await asyncio.to_thread(run_two, url, (True, True))
    calls = a["stamps"] + b["stamps"]
    assert most_in_one_second(calls) <= LIMIT
    # the budget is used, not lost between them, and both got calls through
    assert len(calls) / SECONDS >= LIMIT * 0.85, len(calls)
    assert a["stamps"] and b["stamps"]
    # the database is asked per block, not per call: a block's ask, and about one refusal of
    # the other process (both are told when the next block is there, and both come for it)
    assert a["asks"] + b["asks"] < len(calls) * 0.6


@pytest.mark.slow
async def test_a_busy_process_may_use_the_whole_budget_while_the_other_is_idle(store_url):
    url = await prepared(store_url)
    (busy, idle), _ = await asyncio.to_thread(run_two, url, (True, False))
    assert not idle["stamps"]
    assert most_in_one_second(busy["stamps"]) <= LIMIT
    # more than its static half (what it could spend if the idle one's share were wasted): how
    # far above depends on the machine's speed, so only "above" is asked
    # (its share for every second, and one second's more for a start with a full bucket)
    assert len(busy["stamps"]) > LIMIT * SHARE * (SECONDS + 1), len(busy["stamps"])


@pytest.mark.slow
async def test_a_quiet_process_beside_a_busy_one_leases_and_the_token_still_holds(store_url):
    url = await prepared(store_url)
    (busy, quiet), _ = await asyncio.to_thread(run_two, url, (1, QUIET))
    assert most_in_one_second(busy["stamps"] + quiet["stamps"]) <= LIMIT
    # the quiet one's calls went, on a lease: one ask for it, not one per call
    assert len(quiet["stamps"]) >= 2  # (how many fit in the seconds is the machine's speed, not the point)
    assert quiet["leases"] == 1 and quiet["asks"] == 1, quiet["asks"]


# ----- the bucket's statement on each engine -----
async def shift(store, seconds: float) -> None:
    """Move the bucket's last refill ``seconds`` into the past (negative: into the future, as
    after the database's clock went back)."""
    await store._write("UPDATE token_budget SET refilled_at = refilled_at - ?", (seconds,))


async def tokens(store) -> float:
    return (await store._read("SELECT tokens FROM token_budget WHERE bucket = ?", ("t",)))[0][0]


@pytest.mark.slow  # (the database's own clock, in real time: fails on a loaded machine)
async def test_the_bucket_refills_by_the_database_clock_up_to_its_capacity(store_url):
    store = await open_store(store_url)
    take = store.take_calls
    try:
        assert (await take("t", 5, 45.0, 5.0)).calls == 5  # a new bucket is full
        refused = await take("t", 5, 45.0, 5.0)  # empty: how long until five are there
        assert refused.calls == 0 and 5 / 45 - 0.05 < refused.wait <= 5 / 45 + 0.002
        await shift(store, 0.1)  # 0.1 s later: 4.5 calls are there, not yet 5
        refused = await take("t", 5, 45.0, 5.0)
        # (SQLite's julianday('now') keeps time to about a millisecond: the wait may be that much longer)
        assert refused.calls == 0 and 0 < refused.wait <= 0.5 / 45 + 0.002
        assert (await take("t", 4, 45.0, 5.0)).calls == 4  # a refusal took nothing
        assert 0.5 <= await tokens(store) < 1.0
        await shift(store, 100.0)  # 100 s idle: the bucket holds its capacity, not 4,500
        assert (await take("t", 5, 45.0, 5.0)).calls == 5
        assert (await take("t", 1, 45.0, 5.0)).calls == 0
        await shift(store, -100.0)  # the database's clock went back: nothing is refilled meanwhile
        assert 0 < (await take("t", 1, 45.0, 5.0)).wait <= 1 / 45 + 0.002
        await shift(store, 1.0)  # and it counts on from its new time
        assert (await take("t", 5, 45.0, 5.0)).calls == 5
        assert (await take("other", 5, 45.0, 5.0)).calls == 5  # one bucket per name
    finally:
        await store.close()


def test_no_one_second_stretch_can_hold_more_than_the_limit():
    # capacity + rate x (1 + HOLD): what a block spent up to HOLD after its ask can add to a second
    for limit in (1, 2, 25, 50, 100, 1000):
        for block in (1, 5, 10):
            rate, capacity = bucket_for(limit, block)
            assert 1 <= capacity <= block + 1 and rate > 0
            assert capacity + rate * (1 + HOLD) < limit + 1, (limit, block)  # calls are whole
    rate, capacity = bucket_for(50, 5)
    assert capacity == 6 and rate >= 0.85 * 50


async def test_a_database_that_cannot_answer_leaves_the_static_share(tmp_path, caplog):
    store = await open_store(tmp_path / "bot.db")
    await store.close()  # it refuses every ask now
    seconds = [1000.0]
    budget = TokenBudget(store, share=0.5, clock=lambda: seconds[0])
    caplog.set_level(logging.WARNING, "bot.token_budget")
    assert budget.wait() is None  # ask the database first
    await budget.refill(5, LIMIT)
    went = 0
    while budget.wait() == 0:
        budget.spend()
        went += 1
    assert went == LIMIT // 2 and not budget.shared
    seconds[0] += 1.0
    assert budget.wait() == 0  # the next second of its share, without asking the database
    seconds[0] += RETRY_SECONDS
    assert budget.wait() is None  # a while later it asks again
    await budget.refill(5, LIMIT)  # still refusing: its share again, not logged again
    assert budget.wait() == 0 and not budget.shared
    cannot = [r for r in caplog.records if "cannot share" in r.message]
    assert len(cannot) == 1 and f"keeps to {LIMIT // 2} a second" in cannot[0].getMessage()
    budget.store = await open_store(tmp_path / "bot.db")  # the database answers again
    try:
        seconds[0] += RETRY_SECONDS
        await budget.refill(5, LIMIT)
        assert budget.shared and budget.credit == 5 and budget.wait() == 0
        assert any("again" in r.message for r in caplog.records)
    finally:
        await budget.store.close()


# ----- the lease of a quiet process (issue 38) -----
async def test_a_quiet_process_asks_the_database_once_per_lease_not_once_per_call(store_url):
    store = await open_store(store_url)
    seconds = [1000.0]
    budget = TokenBudget(store, share=0.5, clock=lambda: seconds[0])
    try:
        went = 0
        for _ in range(75):  # a call every 0.4 s for 30 s, one at a time
            while (wait := budget.wait()) != 0:
                assert wait is None  # nothing to wait for: asked at once
                await budget.refill(1, LIMIT)
            budget.spend()
            went += 1
            seconds[0] += 0.4
        # one ask per lease (each renewed in its last second, so it goes on at its pace): was 75
        assert went == 75 and budget.leases == budget.asks == 4
        seconds[0] += LEASE_SECONDS  # no calls for a while: the lease is over, the next call asks
        assert budget.wait() is None
    finally:
        await store.close()


async def test_a_fresh_lease_starts_slow_and_a_busy_process_takes_blocks(store_url):
    store = await open_store(store_url)
    seconds = [1000.0]
    quiet = TokenBudget(store, share=0.5, clock=lambda: seconds[0])
    try:
        await quiet.refill(1, LIMIT)  # one ask: a block for the call waiting now, and a lease
        assert quiet.leases == 1 and quiet.credit == 1
        assert quiet.wait() == 0
        quiet.spend()  # on the block
        # the lease's first call is a third of a second in: a call now asks for a block instead
        assert quiet.wait() is None
        seconds[0] += 1 / LEASE_CALLS
        assert quiet.wait() == 0
        quiet.spend()
        seconds[0] += 1.0  # a second later the lease keeps to LEASE_CALLS in any second
        for _ in range(LEASE_CALLS):
            assert quiet.wait() == 0
            quiet.spend()
        assert quiet.wait() is None and quiet.asks == 1  # the lease's second is spent: a block next
        busy = TokenBudget(store, share=0.5, clock=lambda: seconds[0])
        await busy.refill(LEASE_CALLS, LIMIT)  # many calls waiting: a block, no lease
        assert busy.leases == 0 and busy.credit == LEASE_CALLS
    finally:
        await store.close()


async def test_leases_slow_the_refill_while_they_count_and_are_capped(store_url):
    store = await open_store(store_url)
    lease = functools.partial(store.take_lease, "t", rate=45.0, capacity=6.0, seconds=10.0, tail=1.02,
                              most_leased=5.0)
    try:
        block, leased = await lease("a", 2, lease=3)  # a new bucket is full: the block, and the lease
        assert block.calls == 2 and leased
        block, leased = await lease("b", 1, lease=3)  # 3 + 3 a second leased is over the cap of 5
        assert block.calls == 1 and not leased
        assert (await lease("a", 1, lease=3))[1]  # a holder's new lease replaces its old one
        two_seconds_ago = f"UPDATE token_budget SET tokens = 0, refilled_at = {store.CLOCK} - 2.0"
        await store._write(two_seconds_ago)
        assert (await store.take_calls("t", 200, 45.0, 200.0)).calls == 0
        assert 84 <= await tokens(store) < 86  # 2 s at 45 - 3 a second: 84 calls, not 90
        await store._write("UPDATE token_leases SET counts_until = counts_until - 100")
        await store._write("UPDATE token_budget SET leased_until = leased_until - 100")
        await store._write(two_seconds_ago)  # the lease no longer counts: the whole rate again
        await store.take_calls("t", 200, 45.0, 200.0)
        assert 90 <= await tokens(store) < 92
    finally:
        await store.close()


class SlowStore:
    """A database whose every answer comes after the time a block may be held."""

    def __init__(self) -> None:
        self.asked = 0

    async def take_calls(self, bucket, want, rate, capacity):
        from bot.store import CallGrant

        self.asked += 1
        await asyncio.sleep(HOLD * 2)
        return CallGrant(want, 0.0)


async def test_a_block_that_comes_back_late_is_not_spent(caplog):
    caplog.set_level(logging.WARNING, "bot.token_budget")
    budget = TokenBudget(SlowStore(), share=0.5)
    for _ in range(LATE_IN_A_ROW - 1):
        await budget.refill(5, LIMIT)
        assert budget.credit == 0 and budget.wait() is None  # given up: ask again
    assert budget.late == LATE_IN_A_ROW - 1 and budget.shared
    await budget.refill(5, LIMIT)  # too slow again and again: the static share, said once
    assert not budget.shared and budget.wait() == 0
    assert [r.getMessage() for r in caplog.records if "more than the 20 ms" in r.getMessage()]


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

