"""What the operator's view costs, side by side in one run:

* one durable action (``GameService.act`` on a SQLite file) with the metrics' hooks feeding a
  ``Metrics`` (HEALTH_PORT set) beside the same with none installed, alternating action by action;
* one log line formatted as JSON (with a game's context) beside the plain text line;
* one ``/metrics`` scrape (two queries and the text exposition) on a database of many games.

    .venv/bin/python bench/observability.py [--actions 2000] [--lines 50000] [--games 5000]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import games  # noqa: E402
from bot import logs, metrics  # noqa: E402
from bot.actor import Actor  # noqa: E402
from bot.clock import ManualClock  # noqa: E402
from bot.config import Settings  # noqa: E402
from bot.service import GameService  # noqa: E402
from bot.stores import open_store  # noqa: E402
from games.engine import PhaseTimeout  # noqa: E402


async def actions(n: int, seed: int) -> tuple[list[float], list[float]]:
    """Durable actions of random Ritual games, every other one with the hooks feeding a Metrics."""
    store = await open_store(Path(tempfile.mkdtemp(prefix="bench-")) / "obs.db", synchronous="NORMAL")
    service = GameService(store, ManualClock())
    game = games.get("ritual")
    chooser = random.Random(seed)
    fed, bare = [], []
    sink = metrics.Metrics()
    table, channel = None, 1
    try:
        while len(fed) + len(bare) < n:
            if table is None or table.state.finished:
                host = Actor(id=1, name="P1")
                row = await service.new_game(kind="ritual", guild_id=1, channel_id=channel, host=host)
                channel += 1
                for i in range(2, 8):
                    await service.join(row.id, Actor(id=i, name=f"P{i}"))
                table = await service.start(row.id, host)
            legal = game.legal_actions(table.state)
            action = (chooser.choice(legal) if legal and chooser.random() > 0.05
                      else PhaseTimeout(phase_seq=table.state.phase_seq))
            data = action.model_dump()
            feeding = len(fed) <= len(bare)
            metrics.install(sink if feeding else None)
            t0 = time.perf_counter()
            outcome = await service.act(table.row.id, int(data.get("player") or 0) or None, data)
            (fed if feeding else bare).append(time.perf_counter() - t0)
            table = await service.load(table.row.id) if not outcome.state.finished else None
    finally:
        metrics.install(None)
        await store.close()
    return fed, bare


def log_lines(n: int) -> tuple[float, float]:
    """Seconds per formatted line: JSON with a game's context, and plain text."""
    record = logging.LogRecord("bot.service", logging.WARNING, __file__, 1, "game %s: vote %s refused",
                               (42, "red"), None)
    json_format, text_format = logs.JsonFormatter(), logs.formatter("text")
    logs.set_shard_count(4)
    with logs.log_context(game_id=42, guild_id=81384788765712384, action="vote"):
        t0 = time.perf_counter()
        for _ in range(n):
            json_format.format(record)
        t1 = time.perf_counter()
        for _ in range(n):
            text_format.format(record)
        t2 = time.perf_counter()
    return (t1 - t0) / n, (t2 - t1) / n


async def scrape(n_games: int) -> float:
    """Seconds per ``/metrics`` body on a database of ``n_games`` games."""
    store = await open_store(Path(tempfile.mkdtemp(prefix="bench-")) / "scrape.db", synchronous="NORMAL")
    try:
        for i in range(n_games):
            await store.create_game(kind=random.choice(["ritual", "castle"]), guild_id=i << 22, channel_id=i,
                                    host_id=1, seed=1, options={}, min_players=3, max_players=9, now=1.0)
        bot = SimpleNamespace(store=store, settings=Settings(_env_file=None), clock=ManualClock(),
                              delivery=SimpleNamespace(pacer=None))
        sink = metrics.Metrics()
        times = []
        for _ in range(50):
            t0 = time.perf_counter()
            await sink.scrape(bot)
            times.append(time.perf_counter() - t0)
        return statistics.median(times)
    finally:
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--actions", type=int, default=2000)
    parser.add_argument("--lines", type=int, default=50_000)
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    fed, bare = asyncio.run(actions(args.actions, args.seed))
    with_hooks, without = statistics.median(fed), statistics.median(bare)
    print(f"durable action, median of {len(fed)} each: hooks feeding {with_hooks * 1e3:.3f} ms, "
          f"none installed {without * 1e3:.3f} ms, ratio {with_hooks / without:.3f}")
    as_json, as_text = log_lines(args.lines)
    print(f"one log line: JSON with context {as_json * 1e6:.2f} us, text {as_text * 1e6:.2f} us, "
          f"ratio {as_json / as_text:.2f}")
    print(f"one /metrics scrape on {args.games} games: {asyncio.run(scrape(args.games)) * 1e3:.2f} ms")


if __name__ == "__main__":
    main()
