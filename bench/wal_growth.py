"""How big the WAL file grows with many games acting at once: reads in one hop to the database
thread (what the store does) beside reads made as ``execute`` then ``fetchall`` (two hops, which
hold a read snapshot in between while other games commit, so checkpoints cannot complete).

    .venv/bin/python bench/wal_growth.py [--games 100] [--seconds 10]

Prints, for each way of reading, the WAL file's largest size and the actions done.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import games  # noqa: E402
from bot.actor import Actor  # noqa: E402
from bot.clock import ManualClock  # noqa: E402
from bot.service import GameService  # noqa: E402
from bot.store import Store  # noqa: E402
from bot.stores import open_store  # noqa: E402
from games.engine import GameError, PhaseTimeout  # noqa: E402


async def two_hop_read(self: Store, sql: str, args: tuple = ()) -> list[tuple]:
    """The old way: a cursor, then fetchall, as two calls to the database thread."""
    async with self.db.execute(sql, args) as cur:
        return list(await cur.fetchall())


async def play(service: GameService, game_name: str, channel: int, until: float, seed: int) -> int:
    game = games.get(game_name)
    chooser = random.Random(seed)
    done = 0
    while time.perf_counter() < until:
        host = Actor(id=1, name="P1")
        row = await service.new_game(kind=game_name, guild_id=1, channel_id=channel, host=host)
        for i in range(2, 8):
            await service.join(row.id, Actor(id=i, name=f"P{i}"))
        table = await service.start(row.id, host)
        state = table.state
        while not state.finished and time.perf_counter() < until:
            legal = game.legal_actions(state)
            action = (chooser.choice(legal) if legal and chooser.random() > 0.05
                      else PhaseTimeout(phase_seq=state.phase_seq))
            data = action.model_dump()
            with contextlib.suppress(GameError):
                await service.act(row.id, int(data.get("player") or 0) or None, data)
            await service.store.db.execute("UPDATE outbox SET delivered_at = 0 WHERE game_id = ? AND "
                                           "delivered_at IS NULL", (row.id,))
            await service.store.pending_messages(row.id)  # delivery's read
            await service.store.lobby_players(row.id)  # a lobby or thread read
            done += 1
            if (await service.store.game(row.id)).status != "running":
                table = None
                break
            table = await service.load(row.id)  # a click's read
            state = table.state
        if table is not None and not state.finished:
            await service.store.set_status(row.id, "cancelled", 0)
    return done


async def run(mode: str, n_games: int, seconds: float) -> dict:
    folder = Path(tempfile.mkdtemp(prefix="wal-"))
    store = await open_store(folder / "bot.db")
    if mode == "two-hop":
        Store._read = two_hop_read  # type: ignore[method-assign]
    try:
        service = GameService(store, ManualClock())
        wal = folder / "bot.db-wal"
        until = time.perf_counter() + seconds
        largest = 0

        async def watch() -> None:
            nonlocal largest
            while time.perf_counter() < until:
                if wal.exists():
                    largest = max(largest, wal.stat().st_size)
                await asyncio.sleep(0.05)

        results = await asyncio.gather(watch(), *[play(service, "ritual", 100 + k, until, k)
                                                  for k in range(n_games)])
        return {"mode": mode, "games": n_games, "actions": sum(results[1:]),
                "largest_wal_mb": round(largest / 2**20, 2)}
    finally:
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=10)
    args = parser.parse_args()
    one = asyncio.run(run("one-hop", args.games, args.seconds))
    original = Store._read
    two = asyncio.run(run("two-hop", args.games, args.seconds))
    Store._read = original  # type: ignore[method-assign]
    for result in (one, two):
        print(" ".join(f"{k}={v}" for k, v in result.items()))
    if one["largest_wal_mb"]:
        print(f"two-hop / one-hop largest WAL: {two['largest_wal_mb'] / one['largest_wal_mb']:.1f}x")


if __name__ == "__main__":
    main()
