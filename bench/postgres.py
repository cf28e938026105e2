"""PostgreSQL as the bot's store, measured side by side in one run.

``action``: the durable path of one action on PostgreSQL (lock, load, apply, commit state +
log row + outbox rows in one transaction) beside a bare PostgreSQL commit of the same bytes (one
transaction inserting them into a plain table), on the same server; medians and their ratio.

``tables``: 1,000 concurrent tables split over two bot processes (real OS processes, shards 0 and
1 of 2) on one PostgreSQL server; each table acts, waits a moment (``--think``), acts again.
Prints each process's and the whole run's p50 and p99 action latency and commits per second.

Without ``--url`` it starts its own server from the machine's binaries with PostgreSQL's own
durability settings (fsync on), in a temporary folder.

    .venv/bin/python bench/postgres.py action [--game ritual] [--actions 1000] [--no-scheduler]

``action`` seats players with 18-digit ids, as Discord's are, and runs the timers' scheduler, as the
bot does (``--no-scheduler``: none, as this bench ran before issue 38 found what it costs).
    .venv/bin/python bench/postgres.py tables [--tables 1000] [--seconds 20] [--think 0.5]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

import games  # noqa: E402
from bot.actor import Actor  # noqa: E402
from bot.clock import SystemClock  # noqa: E402
from bot.service import GameService, Table  # noqa: E402
from bot.shards import Shards  # noqa: E402
from bot.stores import open_store  # noqa: E402
from games.engine import PhaseTimeout  # noqa: E402


def start_server():
    from support.postgres import Server, binaries

    bindir = binaries()
    if bindir is None:
        sys.exit("PostgreSQL's server binaries are not installed (apt-get install -y postgresql), or give --url")
    server = Server(bindir, durable=True)
    server.start()
    return server


#: where the players' ids start: 18 digits, as Discord's are (the stored state and messages name them)
SNOWFLAKES = 1_180_000_000_000_000_000


async def new_table(service: GameService, game_name: str, guild: int, channel: int, players: int):
    host = Actor(id=SNOWFLAKES + channel * 100 + 1, name="Player 1")
    row = await service.new_game(kind=game_name, guild_id=guild, channel_id=channel, host=host)
    for i in range(2, min(players, row.max_players) + 1):
        await service.join(row.id, Actor(id=SNOWFLAKES + channel * 100 + i, name=f"Player {i}"))
    return await service.start(row.id, host)


def next_action(game, state, chooser: random.Random):
    legal = game.legal_actions(state)
    action = chooser.choice(legal) if legal and chooser.random() > 0.05 else PhaseTimeout(phase_seq=state.phase_seq)
    return action, action.model_dump()


# ----------------------------------------------------------------------------- one action


async def bench_action(url: str, game_name: str, players: int, n_actions: int, seed: int,
                       scheduler: bool = True) -> dict:
    import asyncpg

    store = await open_store(url)
    bare = await asyncpg.connect(url)
    service = GameService(store, SystemClock())
    if scheduler:
        service.timers.start()
    try:
        await bare.execute("CREATE TABLE IF NOT EXISTS bare_blobs (id BIGSERIAL PRIMARY KEY, state TEXT, "
                           "action TEXT, payload TEXT)")
        game = games.get(game_name)
        chooser = random.Random(seed)
        durable, plain = [], []
        channel, table = 1, None
        while len(durable) < n_actions:
            if table is None or table.state.finished:
                table = await new_table(service, game_name, 1, channel, players)
                channel += 1
            action, data = next_action(game, table.state, chooser)
            t0 = time.perf_counter()
            outcome = await service.act(table.row.id, int(data.get("player") or 0) or None, data)
            durable.append(time.perf_counter() - t0)
            state_json = game.dump_state(outcome.state)  # the bytes the action stores
            payload = "[" + ",".join(e.model_dump_json() for e in outcome.events) + "]"
            t1 = time.perf_counter()
            async with bare.transaction():
                await bare.execute("INSERT INTO bare_blobs (state, action, payload) VALUES ($1, $2, $3)",
                                   state_json, action.model_dump_json(), payload)
            plain.append(time.perf_counter() - t1)
            table = await service.load(table.row.id) if not outcome.state.finished else None
            await store._write("UPDATE outbox SET delivered_at = 0 WHERE delivered_at IS NULL")  # noqa: SLF001
    finally:
        service.timers.shutdown()
        await bare.close()
        await store.close()
    d, b = statistics.median(durable), statistics.median(plain)
    return {"game": game_name, "players": players, "scheduler": scheduler, "actions": len(durable),
            "durable_median_us": round(d * 1e6, 1), "bare_commit_median_us": round(b * 1e6, 1),
            "ratio": round(d / b, 2)}


# ----------------------------------------------------------------------------- 1,000 tables


def guild_of(shard: int, n: int) -> int:
    return ((2 * n + shard) << 22) | 777


async def worker(url: str, shard: int, tables: int, seconds: float, think: float, game_name: str,
                 players: int) -> dict:
    """One bot process: its shard's tables, each acting in a loop; latencies of every action."""
    store = await open_store(url)
    service = GameService(store, SystemClock(), shards=Shards(2, frozenset({shard})))
    game = games.get(game_name)
    latencies: list[float] = []
    first = [await new_table(service, game_name, guild_of(shard, n), (shard + 1) * 10_000_000 + n * 1000, players)
             for n in range(tables)]  # every table open before the clock starts
    stop = time.monotonic() + seconds

    async def play(n: int) -> None:
        chooser = random.Random(shard * 100_000 + n)
        channel = (shard + 1) * 10_000_000 + n * 1000
        table = first[n]
        await asyncio.sleep(chooser.random() * think)
        while time.monotonic() < stop:
            if table.state.finished:
                channel += 1
                table = await new_table(service, game_name, guild_of(shard, n), channel, players)
            action, data = next_action(game, table.state, chooser)
            t0 = time.perf_counter()
            try:
                outcome = await service.act(table.row.id, int(data.get("player") or 0) or None, data)
            except Exception:
                outcome = None  # (a move made stale by its own timeout; not counted)
            else:
                latencies.append(time.perf_counter() - t0)
            if outcome is None or not outcome.state.finished:
                table = await service.load(table.row.id)
            else:
                table = Table(table.row, table.game, outcome.state)
            await asyncio.sleep(think * (0.5 + chooser.random()))

    async def deliver() -> None:  # as the delivery would: the outbox does not grow without bound
        while time.monotonic() < stop:
            await asyncio.sleep(1.0)
            await store._write("UPDATE outbox SET delivered_at = 0 WHERE delivered_at IS NULL")  # noqa: SLF001

    await asyncio.gather(deliver(), *(play(n) for n in range(tables)))
    await store.close()
    # (actions start only inside the window: the rate is over the window's seconds)
    return {"shard": shard, "tables": tables, "actions": len(latencies), "seconds": seconds,
            "latencies": latencies}


def percentiles(latencies: list[float]) -> tuple[float, float]:
    ordered = sorted(latencies)
    return (ordered[len(ordered) // 2] * 1000, ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000)


def bench_tables(url: str, args) -> dict:
    # the schema once, before the two processes start
    asyncio.run(_open_close(url))
    procs = [subprocess.Popen(
        [sys.executable, __file__, "worker", "--url", url, "--shard", str(shard), "--tables",
         str(args.tables // 2), "--seconds", str(args.seconds), "--think", str(args.think), "--game", args.game,
         "--players", str(args.players)], stdout=subprocess.PIPE, text=True) for shard in (0, 1)]
    results = []
    for proc in procs:
        out, _ = proc.communicate()
        if proc.returncode:
            raise SystemExit(f"a worker failed ({proc.returncode})")
        results.append(json.loads(out.strip().splitlines()[-1]))
    report = {"tables": args.tables, "processes": 2, "game": args.game, "think_s": args.think}
    every = []
    for r in results:
        p50, p99 = percentiles(r["latencies"])
        report[f"shard{r['shard']}"] = {"actions": r["actions"], "p50_ms": round(p50, 2), "p99_ms": round(p99, 2),
                                        "commits_per_s": round(r["actions"] / r["seconds"], 1)}
        every += r["latencies"]
    p50, p99 = percentiles(every)
    seconds = max(r["seconds"] for r in results)
    report["all"] = {"actions": len(every), "p50_ms": round(p50, 2), "p99_ms": round(p99, 2),
                     "commits_per_s": round(len(every) / seconds, 1)}
    return report


async def _open_close(url: str) -> None:
    await (await open_store(url)).close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=["action", "tables", "worker"])
    parser.add_argument("--url", default="", help="an empty PostgreSQL database (default: start a server)")
    parser.add_argument("--game", default="ritual")
    parser.add_argument("--players", type=int, default=7)
    parser.add_argument("--actions", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-scheduler", action="store_true", help="action: run no timers' scheduler")
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--think", type=float, default=0.5, help="seconds between a table's actions (mean)")
    parser.add_argument("--shard", type=int, default=0)
    args = parser.parse_args()
    if args.mode == "worker":
        result = asyncio.run(worker(args.url, args.shard, args.tables, args.seconds, args.think, args.game,
                                    args.players))
        print(json.dumps(result))
        return
    server = None if args.url else start_server()
    url = args.url or server.new_database()
    try:
        if args.mode == "action":
            result = asyncio.run(bench_action(url, args.game, args.players, args.actions, args.seed,
                                              not args.no_scheduler))
        else:
            result = bench_tables(url, args)
    finally:
        if server is not None:
            server.stop()
    for key, value in result.items():
        print(f"{key}: {value}")


if __name__ == "__main__":
    main()
