"""What the hot paths that read the games table cost as finished games pile up (issue 38).

Fills a SQLite file with N finished games (each with a state of ``--state-bytes``) and 100 running
ones, then times, per statement, the median of ``--repeat`` runs of: the sweep's due reminders and
due phases, the timer batch's due turns, start-up's active games, and a /metrics scrape's reads.
The goal: the same cost at 1,000 and 100,000 finished games.

    .venv/bin/python bench/finished_games.py [--counts 1000 10000 100000] [--repeat 30]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.metrics import Metrics  # noqa: E402
from bot.shards import Shards  # noqa: E402
from bot.stores import open_store  # noqa: E402

RUNNING = 100


class _Settings:
    shards = Shards(count=1, ids=frozenset({0}))


class _Clock:
    @staticmethod
    def now() -> float:
        return 1_800_000_000.0


async def fill(store, finished: int, state_bytes: int) -> None:
    state = json.dumps({"pad": "x" * state_bytes})
    rows = [("ritual", 1000 + i % 50, 10_000 + i, 7, "finished", 42, "{}", 3, 9, state, 1.0, 2.0)
            for i in range(finished)]
    rows += [("ritual", 1000 + i % 50, 900_000 + i, 7, "running", 42, "{}", 3, 9, state, 1.0, 2.0)
             for i in range(RUNNING)]
    await store.db.executemany(
        "INSERT INTO games (kind, guild_id, channel_id, host_id, status, seed, options, min_players, "
        "max_players, state, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
    await store.db.execute(
        "UPDATE games SET deadline = 2e9, remind_at = 2e9, turn_deadline = 2e9 WHERE status = 'running'")
    await store.db.commit()


async def timed(job, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        await job()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


async def measure(finished: int, repeat: int, state_bytes: int) -> dict[str, float]:
    folder = Path(tempfile.mkdtemp(prefix="bench-finished-"))
    store = await open_store(folder / "games.db")
    try:
        await fill(store, finished, state_bytes)
        bot = type("Bot", (), {"store": store, "clock": _Clock(), "settings": _Settings()})
        metrics = Metrics()
        now = _Clock.now()
        shards = _Settings.shards
        return {
            "due_reminders": await timed(lambda: store.due_reminders(now, shards=shards), repeat),
            "claim_due": await timed(lambda: store.claim_due(now, now + 60, shards=shards), repeat),
            "due_turns": await timed(lambda: store.due_turns(now, shards=shards), repeat),
            "active_games": await timed(lambda: store.active_games(shards=shards), repeat),
            "scrape": await timed(lambda: metrics.read_database(bot), repeat),
        }
    finally:
        await store.close()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--counts", type=int, nargs="+", default=[1000, 10_000, 100_000])
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--state-bytes", type=int, default=2000)
    args = parser.parse_args()
    results = {n: await measure(n, args.repeat, args.state_bytes) for n in args.counts}
    names = list(next(iter(results.values())))
    print("median ms per read, by finished games stored (+ 100 running)")
    print(f"{'read':<14}" + "".join(f"{n:>12,}" for n in args.counts))
    for name in names:
        print(f"{name:<14}" + "".join(f"{results[n][name]:>12.3f}" for n in args.counts))


if __name__ == "__main__":
    asyncio.run(main())
