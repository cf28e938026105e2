"""One Clocktower vote on a 15-player day with 30 votes already cast, beside a Ritual vote, in one run.

Both go the bot's whole durable path: lock, load, validate and apply, commit state + action-log
row + record row + outbox rows (for the Clocktower, the tally's living-message edit) in one
transaction. The Clocktower side is measured on a day whose tally already holds 30 cast or moved
votes; the Ritual side on its Choosing vote (every player votes among the same options). After each
Clocktower vote, a bare commit of the same bytes (state, action, events) on a plain table, as
bench/durable_action.py does: ``clocktower_vote_vs_bare_commit``.

    .venv/bin/python bench/clocktower_vote.py [--votes 1000] [--seed 1] [--no-scheduler]

The players have 18-digit ids, as Discord's are, and the timers' scheduler runs, as in the bot: a
day with a deadline follows its clocks after every vote (``--no-scheduler``: no scheduler, as this
bench ran before issue 38 found that cost).

The nominees are four players who are not the Virgin: a vote for the Virgin can execute its voter
at once, which ends the day's voting (the bench raised "Today's execution has happened" whenever
the deal seated her among the first four).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import aiosqlite  # noqa: E402

import games  # noqa: E402
from bench.durable_action import member  # noqa: E402
from bot import service as service_module  # noqa: E402
from bot.actor import Actor  # noqa: E402
from bot.clock import ManualClock  # noqa: E402
from bot.service import GameService  # noqa: E402
from bot.store import Store  # noqa: E402
from bot.stores import open_store  # noqa: E402

HOUR = 3600.0


async def clocktower_day(service: GameService, clock: ManualClock, players: int = 15) -> tuple[int, list[str]]:
    """A 15-player Clocktower game at dawn of day 1; returns its id and the player ids."""
    storyteller = Actor(id=member(1000), name="Storyteller")
    row = await service.new_game(kind="clocktower", guild_id=1, channel_id=1, host=storyteller)
    for i in range(1, players + 1):
        await service.join(row.id, Actor(id=member(i), name=f"Player {i}"), seat=i)
    await service.start(row.id, storyteller)
    await service.storyteller_act(row.id, storyteller, {"type": "begin"})
    clock.advance(24 * HOUR)
    await service.fire_due()
    return row.id, [str(member(i)) for i in range(1, players + 1)]


CHANNELS = itertools.count(2)


async def ritual_choosing(service: GameService) -> tuple[int, list[str]]:
    host = Actor(id=member(1), name="Player 1")
    row = await service.new_game(kind="ritual", guild_id=1, channel_id=next(CHANNELS), host=host)
    for i in range(2, 8):
        await service.join(row.id, Actor(id=member(i), name=f"Player {i}"))
    await service.start(row.id, host)
    return row.id, [str(member(i)) for i in range(1, 8)]


async def timed(service: GameService, store: Store, game_id: int, voter: str, action: dict,
                bare: aiosqlite.Connection | None = None) -> tuple[float, float]:
    """The vote's durable path; with ``bare``, then a bare commit of the same bytes (state, action,
    events) on a plain table of a file with the same pragmas: (vote, bare commit) seconds."""
    t0 = time.perf_counter()
    outcome = await service.act(game_id, int(voter), action)
    elapsed = time.perf_counter() - t0
    plain = 0.0
    if bare is not None:
        state_json = games.get("clocktower").dump_state(outcome.state)  # the bytes the vote stores
        payload = "[" + ",".join(e.model_dump_json() for e in outcome.events) + "]"
        t1 = time.perf_counter()
        await bare.execute("BEGIN IMMEDIATE")
        await bare.execute("INSERT INTO blobs (state, action, payload) VALUES (?, ?, ?)",
                           (state_json, json.dumps(action), payload))
        await bare.execute("COMMIT")
        plain = time.perf_counter() - t1
    # keep the outbox from growing without bound, as delivery would
    await store.db.execute("UPDATE outbox SET delivered_at = 0 WHERE delivered_at IS NULL")
    return elapsed, plain


async def run(n_votes: int, seed: int, scheduler: bool = True) -> dict:
    service_module.new_seed = lambda: seed  # the same deal every run
    folder = Path(tempfile.mkdtemp(prefix="bench-"))
    store = await open_store(folder / "votes.db")
    bare = await aiosqlite.connect(folder / "bare.db", isolation_level=None)
    for pragma in ("journal_mode=WAL", "synchronous=FULL", "foreign_keys=ON"):
        await bare.execute_fetchall(f"PRAGMA {pragma}")
    await bare.execute("CREATE TABLE blobs (id INTEGER PRIMARY KEY, state TEXT, action TEXT, payload TEXT)")
    clock = ManualClock()
    service = GameService(store, clock)
    try:
        if scheduler:  # (the manual clock never reaches a deadline: a job that fires finds none due)
            service.timers.start()
        ct_id, ct_players = await clocktower_day(service, clock)
        state = (await service.load(ct_id)).state
        targets = [s.player for s in state.seats if not s.traveller and s.character != "virgin"][:4] + ["none"]
        for i in range(30):  # 30 votes cast or moved before the measured ones
            voter = ct_players[i % len(ct_players)]
            await service.act(ct_id, int(voter), {"type": "vote", "player": voter, "target": targets[i % 4]})
        ritual_id, ritual_players = await ritual_choosing(service)
        ritual = games.get("ritual")
        clocktower: list[float] = []
        plain: list[float] = []
        choosing: list[float] = []
        for i in range(n_votes):  # side by side, alternating, so both see the same machine
            voter = ct_players[i % len(ct_players)]
            table = await service.load(ct_id)
            current = table.state.votes.get(voter)
            target = next(t for t in targets[(i % 5):] + targets if t != current)
            vote_s, bare_s = await timed(service, store, ct_id, voter, {
                "type": "vote", "player": voter, "target": target}, bare)
            clocktower.append(vote_s)
            plain.append(bare_s)
            rstate = (await service.load(ritual_id)).state
            votes = [a for a in ritual.legal_actions(rstate) if a.type == "vote_performer"]
            if not votes:  # the Choosing closed: a new Ritual game
                ritual_id, ritual_players = await ritual_choosing(service)
                rstate = (await service.load(ritual_id)).state
                votes = [a for a in ritual.legal_actions(rstate) if a.type == "vote_performer"]
            vote = votes[i % len(votes)]
            choosing.append((await timed(service, store, ritual_id, vote.player, vote.model_dump()))[0])
        ct, rt, bt = statistics.median(clocktower), statistics.median(choosing), statistics.median(plain)
        state = (await service.load(ct_id)).state
        return {"clocktower_players": len(ct_players), "clocktower_votes_before": 30,
                "votes_measured": n_votes, "scheduler": scheduler, "state_bytes": len(games.get("clocktower").dump_state(state)),
                "clocktower_vote_median_us": round(ct * 1e6, 1), "ritual_vote_median_us": round(rt * 1e6, 1),
                "bare_commit_median_us": round(bt * 1e6, 1), "clocktower_vote_vs_bare_commit": round(ct / bt, 2),
                "ratio": round(ct / rt, 2)}
    finally:
        service.timers.shutdown()
        await store.close()
        await bare.close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--votes", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1, help="the games' seed (the deal)")
    parser.add_argument("--no-scheduler", action="store_true", help="run no timers' scheduler")
    args = parser.parse_args()
    for key, value in asyncio.run(run(args.votes, args.seed, not args.no_scheduler)).items():
        print(f"{key}: {value}")


if __name__ == "__main__":
    main()
