"""The store and the service under the audit's faults, on a real SQLite file: a database locked by a
second connection, a full database, power-safe settings, pruning and memory that does not grow."""

import asyncio
import gc
import logging
import sqlite3
from pathlib import Path

import pytest

from bot.actor import Actor
from bot.deadlines import Deadlines
from bot.service import NotSaved
from bot.store import JOURNAL_SIZE_LIMIT
from bot.stores import open_store

HOST, ANN, BO = Actor(id=1, name="Host"), Actor(id=2, name="Ann"), Actor(id=3, name="Bo")


async def started(service, channel=10, options="vote_seconds=60 rounds=1"):
    row = await service.new_game(kind="tally", guild_id=5, channel_id=channel, host=HOST, options_text=options)
    for actor in (ANN, BO):
        await service.join(row.id, actor)
    await service.start(row.id, HOST)
    return row


def lock(path: Path) -> sqlite3.Connection:
    """A second connection holding the database's write lock, as another process would."""
    locker = sqlite3.connect(path, isolation_level=None)
    locker.execute("BEGIN EXCLUSIVE")
    return locker


def unlock(locker: sqlite3.Connection) -> None:
    locker.execute("ROLLBACK")
    locker.close()


async def test_a_vote_while_the_database_is_locked_is_refused_in_words_and_changes_nothing(service, tmp_path):
    row = await started(service)
    await service.store.db.execute_fetchall("PRAGMA busy_timeout=100")
    locker = lock(tmp_path / "bot.db")
    try:
        with pytest.raises(NotSaved, match="NOT recorded: the game's database is busy"):
            await service.act(row.id, 2, {"type": "vote", "player": "2", "target": "red"})
        # a reader meanwhile sees the committed state, and the cache holds nothing uncommitted
        assert (await service.load(row.id)).state.votes == {}
    finally:
        unlock(locker)
    await service.act(row.id, 2, {"type": "vote", "player": "2", "target": "blue"})
    assert (await service.load(row.id)).state.votes == {"2": "blue"}


async def test_a_full_database_reports_its_real_cause(service, caplog):
    """SQLite rolls a transaction back by itself when the disk is full; rolling back again used to
    log 'cannot rollback - no transaction is active' and hide the cause."""
    row = await started(service)
    pages = (await service.store.db.execute_fetchall("PRAGMA page_count"))[0][0]
    await service.store.db.execute_fetchall(f"PRAGMA max_page_count={pages}")
    big = "x" * 200_000
    with caplog.at_level(logging.WARNING), pytest.raises(sqlite3.OperationalError, match="full"):
        await service.store.commit_step(row.id, state=big, phase_seq=9, step=99, deadlines=Deadlines(),
                                        status="running", actor_id=None,
                                        action=None, messages=[], now=1.0)
    assert "cannot rollback" not in caplog.text
    assert not service.store.db.in_transaction
    assert (await service.store.game(row.id)).phase_seq == 1  # nothing was written


async def test_a_timeout_refused_by_the_database_is_retried_by_the_scheduler(service, clock, tmp_path):
    service.RETRY_SECONDS = 0.05
    service.timers.start()
    try:
        row = await started(service)
        await service.store.db.execute_fetchall("PRAGMA busy_timeout=20")
        locker = lock(tmp_path / "bot.db")
        clock.advance(61)
        service.timers.arm(row.id, 1, clock.now())  # the deadline job fires now, into the lock
        for _ in range(50):
            await asyncio.sleep(0.02)
            if service.timers.retries:
                break
        assert service.timers.retries == {row.id: 1}
        assert (await service.store.game(row.id)).phase_seq == 1
        unlock(locker)
        for _ in range(100):  # the retry job closes the phase once the lock is gone
            await asyncio.sleep(0.02)
            if (await service.store.game(row.id)).status == "finished":
                break
        assert (await service.store.game(row.id)).status == "finished"
    finally:
        service.timers.shutdown()


async def test_power_safe_by_default_and_the_wal_is_bounded(tmp_path):
    store = await open_store(tmp_path / "full.db")
    assert (await store.db.execute_fetchall("PRAGMA synchronous"))[0][0] == 2  # FULL
    assert (await store.db.execute_fetchall("PRAGMA journal_size_limit"))[0][0] == JOURNAL_SIZE_LIMIT
    await store.close()
    store = await open_store(tmp_path / "normal.db", synchronous="NORMAL")
    assert (await store.db.execute_fetchall("PRAGMA synchronous"))[0][0] == 1
    await store.close()
    with pytest.raises(ValueError, match="synchronous"):
        await open_store(tmp_path / "bad.db", synchronous="OFF")


async def test_delivered_messages_are_pruned_but_results_and_logs_stay(service, clock):
    row = await started(service)
    for actor in (HOST, ANN, BO):
        await service.act(row.id, actor.id, {"type": "vote", "player": str(actor.id), "target": "red"})
    store = service.store
    assert (await store.game(row.id)).status == "finished"
    for message in await store.pending_messages(row.id):
        await store.mark_delivered(message.id, clock.now())
    assert await service.prune(7 * 86400) == 0  # too recent
    clock.advance(8 * 86400)
    assert await service.prune(7 * 86400) > 0
    # every delivered row but the newest, which stays so that no outbox id is given twice
    assert [r[0] for r in await store.db.execute_fetchall("SELECT id FROM outbox")] == [
        r[0] for r in await store.db.execute_fetchall("SELECT max(id) FROM outbox")]
    assert len(await store.actions(row.id)) == 3  # a replay is still possible
    assert (await store.game(row.id)).state is not None


async def test_a_finished_game_leaves_nothing_behind_in_memory(service):
    freed: list[int] = []
    service.on_game_over.append(freed.append)
    row = await started(service)
    for actor in (HOST, ANN, BO):
        await service.act(row.id, actor.id, {"type": "vote", "player": str(actor.id), "target": "red"})
    gc.collect()
    assert freed == [row.id]
    assert row.id not in service._cache and row.id not in service._generation
    assert row.id not in service._locks  # locks live only while someone holds them
    assert row.id not in service.timers.armed


async def test_the_bench_closes_its_databases_when_a_game_refuses(tmp_path):
    """bench/durable_action.py --game castle with 7 players used to hang after the lobby refused."""
    from support.bench import bench_script

    durable_action = bench_script("durable_action")

    result = await durable_action.run("castle", 7, 5, 1, "FULL")
    assert result["actions"] == 5 and result["players"] == 7

    async def refuse(*args, **kwargs):
        raise RuntimeError("refused")

    real = durable_action.measure
    durable_action.measure = refuse
    try:
        with pytest.raises(RuntimeError):
            await durable_action.run("castle", 7, 5, 1, "FULL")
    finally:
        durable_action.measure = real


async def test_readers_cache_nothing_read_while_a_write_was_under_way(service):
    """A reader that read the row before a write committed must not put its old copy back into
    the cache after the write (it would show a state that is no longer true)."""
    row = await started(service)
    service._cache.clear()
    store = service.store
    real_game = store.game
    gate = asyncio.Event()

    async def slow_read(game_id):
        found = await real_game(game_id)
        await gate.wait()
        return found

    store.game = slow_read
    reader = asyncio.create_task(service.load(row.id))
    await asyncio.sleep(0)
    store.game = real_game
    await service.act(row.id, 2, {"type": "vote", "player": "2", "target": "red"})
    gate.set()
    old = await reader
    assert old.state.votes == {}  # it read before the vote ...
    assert (await service.load(row.id)).state.votes == {"2": "red"}  # ... and was not cached

