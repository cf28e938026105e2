"""The durable path of one action beside a bare SQLite commit of the same bytes, in one run.

Durable path (what the bot does for every click): lock, load the game row, parse the state,
validate and apply the action, then commit state + action-log row + outgoing messages in one
transaction, then arm the phase's timers. Bare commit: one aiosqlite transaction writing the same
bytes into a plain table, on the same kind of file with the same pragmas. Prints the medians and
their ratio (target <= 1.5x). The timers' scheduler runs, as in the bot (``--no-scheduler``: it does
not, and an action's timer jobs cost nothing, as this bench measured before issue 38 found them).

    .venv/bin/python bench/durable_action.py [--game ritual] [--players 7] [--actions 2000] [--no-scheduler]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import aiosqlite  # noqa: E402

import games  # noqa: E402
from bot.actor import Actor  # noqa: E402
from bot.clock import SystemClock  # noqa: E402
from bot.service import GameService  # noqa: E402
from bot.store import Store  # noqa: E402
from bot.stores import open_store  # noqa: E402
from games.engine import PhaseTimeout  # noqa: E402


def member(seat: int) -> int:
    """A player's Discord id: 18 digits, as real ones are (the stored state and messages name them)."""
    return 1_180_000_000_000_000_000 + 7_919_000_003 * seat


async def run(game_name: str, n_players: int, n_actions: int, seed: int, synchronous: str,
              scheduler: bool = True) -> dict:
    folder = Path(tempfile.mkdtemp(prefix="bench-"))
    store = await open_store(folder / "durable.db", synchronous=synchronous)
    bare = await aiosqlite.connect(folder / "bare.db", isolation_level=None)
    try:  # every path closes both databases (their threads would keep the process alive)
        for pragma in ("journal_mode=WAL", f"synchronous={synchronous}", "foreign_keys=ON"):
            await bare.execute_fetchall(f"PRAGMA {pragma}")
        await bare.execute("CREATE TABLE blobs (id INTEGER PRIMARY KEY, state TEXT, action TEXT, payload TEXT)")
        return await measure(game_name, n_players, n_actions, seed, store, bare, synchronous, scheduler)
    finally:
        await store.close()
        await bare.close()


async def measure(game_name: str, n_players: int, n_actions: int, seed: int, store: Store,
                  bare: aiosqlite.Connection, synchronous: str, scheduler: bool) -> dict:
    game = games.get(game_name)
    service = GameService(store, SystemClock())  # (the clock moves, as the bot's: a reminder moved per action shows)
    if scheduler:  # (a bench's table lasts well under a phase's time: no job fires)
        service.timers.start()
    try:
        return await timed_actions(game_name, game, n_players, n_actions, seed, store, bare, synchronous,
                                   scheduler, service)
    finally:
        service.timers.shutdown()


async def timed_actions(game_name: str, game, n_players: int, n_actions: int, seed: int, store: Store,
                        bare: aiosqlite.Connection, synchronous: str, scheduler: bool,
                        service: GameService) -> dict:
    chooser = random.Random(seed)
    durable: list[float] = []
    plain: list[float] = []
    channel = 1
    table = None
    while len(durable) < n_actions:
        if table is None or table.state.finished:
            host = Actor(id=member(1), name="Player 1")
            row = await service.new_game(kind=game_name, guild_id=1, channel_id=channel, host=host)
            channel += 1
            for i in range(2, min(n_players, row.max_players) + 1):
                await service.join(row.id, Actor(id=member(i), name=f"Player {i}"))
            table = await service.start(row.id, host)
        legal = game.legal_actions(table.state)
        action = (chooser.choice(legal) if legal and chooser.random() > 0.05
                  else PhaseTimeout(phase_seq=table.state.phase_seq))
        data = action.model_dump()
        t0 = time.perf_counter()
        outcome = await service.act(table.row.id, int(data.get("player") or 0) or None, data)
        t1 = time.perf_counter()
        durable.append(t1 - t0)
        state_json = game.dump_state(outcome.state)  # the bytes the action stores
        payload = "[" + ",".join(e.model_dump_json() for e in outcome.events) + "]"
        t2 = time.perf_counter()
        await bare.execute("BEGIN IMMEDIATE")
        await bare.execute("INSERT INTO blobs (state, action, payload) VALUES (?, ?, ?)",
                           (state_json, action.model_dump_json(), payload))
        await bare.execute("COMMIT")
        plain.append(time.perf_counter() - t2)
        table = await service.load(table.row.id) if not outcome.state.finished else None
        # keep the outbox from growing without bound, as delivery would
        await store.db.execute("UPDATE outbox SET delivered_at = 0 WHERE delivered_at IS NULL")
    d, b = statistics.median(durable), statistics.median(plain)
    return {"game": game_name, "players": n_players, "synchronous": synchronous, "scheduler": scheduler,
            "actions": len(durable),
            "durable_median_us": round(d * 1e6, 1), "bare_commit_median_us": round(b * 1e6, 1),
            "ratio": round(d / b, 2)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--game", default="ritual")
    parser.add_argument("--players", type=int, default=7)
    parser.add_argument("--actions", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--synchronous", default="FULL", choices=["FULL", "NORMAL"],
                        help="the SQLite setting, the same for both sides (the bot's default is FULL)")
    parser.add_argument("--no-scheduler", action="store_true", help="run no timers' scheduler")
    args = parser.parse_args()
    result = asyncio.run(run(args.game, args.players, args.actions, args.seed, args.synchronous,
                             not args.no_scheduler))
    for key, value in result.items():
        print(f"{key}: {value}")


if __name__ == "__main__":
    main()
