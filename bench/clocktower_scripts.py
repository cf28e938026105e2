"""A Clocktower vote and a dawn on the largest script of the 2025 world championship, beside Her Royal
Highness Register, side by side in one run.

Both tables have 15 players and go the bot's whole durable path (lock, load, validate and apply, commit
state + log + record + outbox rows). The vote is measured on day 1 with 30 votes cast before; the dawn
is the night's last stage boundary (the deaths told, the information delivered, the day opened), timed
from the clock's step to the timer batch's end. The two tables alternate, so both see the same machine.

    .venv/bin/python bench/clocktower_scripts.py [--votes 400] [--dawns 6] [--seed 1] [--script FILE]

The largest script (by characters) is read from tests/games/clocktower/reference/wc25/.
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
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot import service as service_module  # noqa: E402
from bot.actor import Actor  # noqa: E402
from bot.clock import ManualClock  # noqa: E402
from bot.service import GameService  # noqa: E402
from bot.stores import open_store  # noqa: E402
from games.clocktower import parse_script  # noqa: E402

HOUR = 3600.0
WC25 = Path(__file__).resolve().parent.parent / "tests" / "games" / "clocktower" / "reference" / "wc25"
STORYTELLER = Actor(id=1000, name="ST")


def largest_script() -> Path:
    return max(sorted(WC25.glob("*.json")), key=lambda p: len(parse_script(p.read_text("utf-8")).all_ids()))


async def table(service: GameService, clock: ManualClock, channel: int, script: str | None) -> int:
    """A 15-player table begun (night 1), on ``script`` (None: Her Royal Highness Register)."""
    options = None if script is None else {"script": script}
    row = await service.new_game(kind="clocktower", guild_id=1, channel_id=channel, host=STORYTELLER)
    if options:
        await service.set_option(row.id, STORYTELLER, "script", script)
    for i in range(1, 16):
        await service.join(row.id, Actor(id=channel * 100 + i, name=f"P{i}"), seat=i)
    await service.start(row.id, STORYTELLER)
    await service.storyteller_act(row.id, STORYTELLER, {"type": "begin"})
    return row.id


async def to_next_phase(service: GameService, store, clock: ManualClock, game_id: int, phase: str) -> float | None:
    """Run the game's stage boundaries until it leaves ``phase``; the seconds the last one took (the
    dawn, or the day's end), or None when the game is not in that phase."""
    elapsed = None
    for _ in range(10):
        row = await store.game(game_id)
        if row is None or row.status != "running" or (await service.load(game_id)).state.phase != phase:
            return elapsed
        if row.deadline is not None and row.deadline > clock.now():
            clock.advance(row.deadline - clock.now())
        t0 = time.perf_counter()
        await service.fire_due()
        elapsed = time.perf_counter() - t0
    return elapsed


async def run(n_votes: int, n_dawns: int, seed: int, script_path: Path) -> dict:
    service_module.new_seed = lambda: seed  # the same deals every run
    folder = Path(tempfile.mkdtemp(prefix="bench-"))
    text = json.dumps(json.loads(script_path.read_text("utf-8")))
    tables: dict[str, tuple[GameService, Any, ManualClock, int]] = {}
    for name, script in (("hrh", None), ("script", text)):  # each on its own database and clock
        store = await open_store(folder / f"{name}.db")
        clock = ManualClock()
        service = GameService(store, clock)
        tables[name] = (service, store, clock, await table(service, clock, 1, script))
    try:
        dawns: dict[str, list[float]] = {"hrh": [], "script": []}
        for _ in range(n_dawns):
            for name, (service, store, clock, game_id) in tables.items():
                await to_next_phase(service, store, clock, game_id, "day")
                elapsed = await to_next_phase(service, store, clock, game_id, "night")
                if elapsed is not None:
                    dawns[name].append(elapsed)
        votes: dict[str, list[float]] = {"hrh": [], "script": []}
        for i in range(n_votes):
            for name, (service, store, _clock, game_id) in tables.items():
                state = (await service.load(game_id)).state
                if state.phase != "day" or state.voting_closed:
                    continue
                living = [s.player for s in state.seats if not s.traveller]
                voter = living[i % len(living)]
                target = living[(i + 1 + i // len(living)) % 4]
                t0 = time.perf_counter()
                try:
                    await service.act(game_id, int(voter), {"type": "vote", "player": voter, "target": target})
                except Exception:  # noqa: BLE001 - a refused vote (a dead voter's spent token) is skipped
                    continue
                votes[name].append(time.perf_counter() - t0)
                await store.db.execute("UPDATE outbox SET delivered_at = 0 WHERE delivered_at IS NULL")
            if i % 40 == 39:  # a new day now and then, so votes stay legal (the executed die)
                for service, store, clock, game_id in tables.values():
                    await to_next_phase(service, store, clock, game_id, "day")
                    await to_next_phase(service, store, clock, game_id, "night")

        def median_us(values: list[float]) -> float:
            return round(statistics.median(values) * 1e6, 1) if values else 0.0

        out = {"script": script_path.name, "characters": len(parse_script(text).all_ids()),
               "votes_measured": {k: len(v) for k, v in votes.items()},
               "dawns_measured": {k: len(v) for k, v in dawns.items()}}
        for kind in ("vote", "dawn"):
            found = votes if kind == "vote" else dawns
            hrh, other = median_us(found["hrh"]), median_us(found["script"])
            out[f"{kind}_hrh_median_us"] = hrh
            out[f"{kind}_script_median_us"] = other
            out[f"{kind}_ratio"] = round(other / hrh, 2) if hrh else None
        return out
    finally:
        for _service, store, _clock, _game_id in tables.values():
            await store.close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--votes", type=int, default=400)
    parser.add_argument("--dawns", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--script", type=Path, default=None, help="a script file (default: the largest of wc25)")
    args = parser.parse_args()
    result = asyncio.run(run(args.votes, args.dawns, args.seed, args.script or largest_script()))
    for key, value in result.items():
        print(f"{key}: {value}")


if __name__ == "__main__":
    main()
