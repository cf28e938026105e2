"""The WAL is checkpointed beside the writer, never in a commit (issue 38: SQLite's own checkpoint
ran in the commit that took the WAL past 1,000 pages, and every action queued behind it waited).
Counted, not timed: how many WAL pages commits leave, and who copies them."""

import os

import pytest

from bot import store as store_module
from bot.deadlines import Deadlines
from bot.stores import open_store


async def write_pages(store, game_id: int, steps: int) -> None:
    for step in range(1, steps + 1):
        await store.commit_step(game_id, state="x" * 9000 + str(step), phase_seq=1, step=step,
                                deadlines=Deadlines(), status="running", actor_id=None, action=None,
                                messages=[], now=1.0 + step)


async def new_running_game(store) -> int:
    return await store.create_game(kind="ritual", guild_id=1, channel_id=1, host_id=1, host_name="H",
                                   seed=1, options={}, min_players=1, max_players=9, now=1.0)


async def test_commits_never_checkpoint_and_the_checkpointer_copies_the_wal(tmp_path, monkeypatch):
    monkeypatch.setattr(store_module, "CHECKPOINT_COMMITS", 10**9)  # (only the test's own checkpoint runs)
    store = await open_store(tmp_path / "bot.db")
    try:
        game_id = await new_running_game(store)
        await write_pages(store, game_id, 400)  # 3 pages of state a step: past SQLite's 1,000
        wal_pages = os.path.getsize(tmp_path / "bot.db-wal") // (4096 + 24)
        assert wal_pages > 1000  # no commit checkpointed (SQLite's default would have, at 1,000)
        busy, pages, copied = await store.checkpointer.checkpoint()
        assert (busy, copied) == (0, pages) and pages > 1000
        await write_pages(store, game_id, 5)  # the WAL starts again from its beginning
        _busy, pages, copied = await store.checkpointer.checkpoint()
        assert pages == copied and pages < 50
    finally:
        await store.close()
    assert not (tmp_path / "bot.db-wal").exists() or os.path.getsize(tmp_path / "bot.db-wal") == 0


async def test_the_checkpointer_runs_every_so_many_commits_and_stops_with_the_store(tmp_path, monkeypatch):
    monkeypatch.setattr(store_module, "CHECKPOINT_COMMITS", 5)
    store = await open_store(tmp_path / "bot.db")
    checkpointer = store.checkpointer
    runs = []
    real = checkpointer.checkpoint

    async def counted():
        runs.append(1)
        return await real()

    monkeypatch.setattr(checkpointer, "checkpoint", counted)
    try:
        game_id = await new_running_game(store)  # (a commit: the count starts at 1)
        for batch in range(1, 5):
            await write_pages(store, game_id, 5)  # each 5 commits start one checkpoint
            if checkpointer._running is not None:
                await checkpointer._running  # (counted whatever the machine's speed)
            assert len(runs) == batch
    finally:
        await store.close()
    assert checkpointer._running is None and checkpointer._db is None


@pytest.mark.parametrize("path", [":memory:"])
async def test_a_database_in_memory_has_no_checkpointer(path):
    store = await open_store(path)
    try:
        assert store.checkpointer is None
    finally:
        await store.close()
