"""Nothing on a hot path grows with finished games (issue 38): the statements the sweep, the timer
batches, start-up and a /metrics scrape run read an index of the games still in play, and the
games counted for /metrics are kept as games change state, on both engines."""

import pytest

from bot.metrics import Metrics
from bot.shards import Shards
from bot.stores import open_store

from .test_store import new_game


@pytest.fixture
async def store(store_url):
    s = await open_store(store_url)
    yield s
    await s.close()


async def games_counted(store) -> dict[tuple[str, str], int]:
    rows = await store._read("SELECT kind, status, SUM(n) FROM game_counts WHERE n > 0 GROUP BY kind, status")
    return {(kind, status): int(n) for kind, status, n in rows}


async def games_in_table(store) -> dict[tuple[str, str], int]:
    rows = await store._read("SELECT kind, status, COUNT(*) FROM games GROUP BY kind, status")
    return {(kind, status): int(n) for kind, status, n in rows}


async def test_the_counts_follow_every_game_that_is_made_moved_and_deleted(store):
    ids = [await new_game(store, channel=100 + i) for i in range(6)]
    assert await games_counted(store) == {("ritual", "lobby"): 6}
    await store.set_status(ids[0], "running", 1.0)
    await store.set_status(ids[1], "running", 1.0)
    await store.set_status(ids[1], "finished", 2.0)
    await store.set_status(ids[2], "cancelled", 2.0)
    await store._write("UPDATE games SET status = status WHERE id = ?", (ids[2],))  # the same state: no count moves
    await store._write("DELETE FROM games WHERE id = ?", (ids[3],))
    assert await games_counted(store) == await games_in_table(store) == {
        ("ritual", "lobby"): 2, ("ritual", "running"): 1, ("ritual", "finished"): 1, ("ritual", "cancelled"): 1}


async def test_a_scrape_reads_the_counts_of_this_process_shards(store):
    ids = [await new_game(store, channel=200 + i) for i in range(3)]
    await store.set_status(ids[0], "finished", 2.0)

    class Bot:
        class settings:  # noqa: N801 (the shape of bot.settings)
            shards = Shards(count=1, ids=frozenset({0}))

        clock = type("Clock", (), {"now": staticmethod(lambda: 10.0)})()

    metrics = Metrics()
    Bot.store = store
    await metrics.read_database(Bot)
    assert metrics.games.labels("ritual", "lobby")._value.get() == 2
    assert metrics.games.labels("ritual", "finished")._value.get() == 1


HOT_PATHS = ("due_reminders", "claim_due", "due_turns", "active_games", "scrape")


@pytest.mark.parametrize("path", HOT_PATHS)
async def test_a_hot_path_reads_no_finished_game(tmp_path, path):
    """Each statement a hot path runs on SQLite is planned on an index (no plain scan of games), so
    it costs the same at 100 and 100,000 finished games (``bench/finished_games.py`` times it)."""
    store = await open_store(tmp_path / "games.db")
    try:
        statements: list[str] = []
        await store.db.set_trace_callback(statements.append)
        shards = Shards(count=2, ids=frozenset({0}))
        if path == "due_reminders":
            await store.due_reminders(5.0, shards=shards)
        elif path == "claim_due":
            await store.claim_due(5.0, 65.0, shards=shards)
        elif path == "due_turns":
            await store.due_turns(5.0, shards=shards)
        elif path == "active_games":
            await store.active_games(shards=shards)
        else:
            bot = type("Bot", (), {"store": store, "clock": type("C", (), {"now": staticmethod(lambda: 1.0)})(),
                                   "settings": type("S", (), {"shards": shards})()})
            await Metrics().read_database(bot)
        await store.db.set_trace_callback(None)
        reads = [s for s in statements if s.lstrip().upper().startswith("SELECT") and " games" in s]
        assert reads, statements
        for sql in reads:
            plan = [row[-1] for row in await store._read("EXPLAIN QUERY PLAN " + sql)]
            scans = [step for step in plan if step.startswith("SCAN games") or step.startswith("SCAN g ")
                     or step == "SCAN g"]
            assert not [s for s in scans if "USING" not in s], (sql, plan)
    finally:
        await store.close()
