"""100 Clocktower games whose dawn falls together: how long closing every night takes with their
delivery running beside it (each commit kicks its game's delivery at once, as before issue 30)
against held back until all are closed (``GameService.fire_due`` today), side by side in one run.

The real StorytellerBot on simcord's simulated Discord (tests/support/sim.py settings: no pacing,
no theatrical pauses), a real SQLite file and a manual clock. Each world seats the same seeded
games (15 players, one Storyteller, each game in its own channel), begins night 1 and delivers
it; then the clock jumps to dawn and every game's night is closed at once. Measured: the seconds
from the first closing to the last game's dawn committed ("closing"), to every message of the
dawns delivered ("delivered"), and the REST calls per game's dawn (simcord's request log, not
counting interaction answers, which do not count against Discord's limit), by kind (method and
route, ids left out).

    .venv/bin/python bench/shared_dawns.py [--games 100] [--players 15] [--rounds 1]
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import itertools
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from simcord import Env  # noqa: E402
from support.sim import new_bot  # noqa: E402

import bot.service as service_module  # noqa: E402
from bot.actor import Actor  # noqa: E402
from bot.clock import ManualClock  # noqa: E402

HOUR = 3600.0
NIGHT_HOURS = 24  # night 1 begins at "st begin"; its dawn falls 24 hours later


async def seat_games(env: Env, bot, n_games: int, n_players: int) -> list[int]:
    """``n_games`` Clocktower games, each in its own channel of one server, night 1 begun and
    delivered; returns their ids."""
    guild = env.create_guild("Town")
    storyteller = guild.add_member(env.create_user("storyteller"))
    members = [guild.add_member(env.create_user(f"p{i}")) for i in range(n_players)]
    st = Actor(id=storyteller.id, name="storyteller")
    seeds = itertools.count(1)
    service_module.new_seed = lambda: next(seeds)  # the same games in every world
    service = bot.service
    ids = []
    for g in range(n_games):
        channel = guild.create_text_channel(f"town-{g}")
        row = await service.new_game(kind="clocktower", guild_id=guild.id, channel_id=channel.id, host=st)
        for seat, member in enumerate(members, start=1):
            await service.join(row.id, Actor(id=member.id, name=member.user.name), seat=seat)
        await service.start(row.id, st)
        await service.storyteller_act(row.id, st, {"type": "begin"})
        ids.append(row.id)
    await settle(env, bot)
    return ids


async def settle(env: Env, bot) -> None:
    await bot.delivery.wait_idle()
    await env.settle()


def counted_calls(env: Env, since: int) -> int:
    """REST calls against Discord's global limit since ``since`` (not interaction answers)."""
    return sum(1 for r in env.http_requests[since:]
               if not r.path.startswith(("/interactions/", "/webhooks/", "/applications/")))


def calls_by_kind(env: Env, since: int) -> collections.Counter:
    """The counted calls since ``since`` by method and route, ids left out."""
    return collections.Counter(f"{r.method} {re.sub(r'[0-9]{5,}', '{id}', r.path)}"
                               for r in env.http_requests[since:]
                               if not r.path.startswith(("/interactions/", "/webhooks/", "/applications/")))


async def close_with_delivery_running(bot) -> None:
    """Before issue 30: each due game closed on its own, its delivery kicked at its commit."""
    service = bot.service
    now = bot.clock.now()
    for game_id, phase_seq in await service.store.claim_due(now, now + service.CLAIM_SECONDS):
        await service.on_deadline(game_id, phase_seq)


async def close_held(bot) -> None:
    """Today's sweep (and start-up recovery): every due phase closed first, then all delivered."""
    await bot.service.fire_due()


async def close_timer_batch(bot) -> None:
    """Today's timer jobs of one moment, as ``Timers`` hands them over: one batch, deadline order."""
    service = bot.service
    due = [(row.id, row.phase_seq) for row in await service.store.active_games()
           if row.status == "running" and row.deadline is not None and row.deadline <= bot.clock.now()]
    await service.on_deadlines(due)


CLOSE = {"running": close_with_delivery_running, "held": close_held, "timers": close_timer_batch}
LABELS = {"running": "delivery running (before)", "held": "held, the sweep (now)",
          "timers": "held, timer jobs (now)"}


async def one_world(mode: str, args: argparse.Namespace) -> dict:
    folder = Path(tempfile.mkdtemp(prefix="dawns-"))
    clock = ManualClock()
    bot = new_bot(folder / "bot.db", clock)
    env = Env(bot, settle_timeout=600.0)
    await env.start()
    try:
        ids = await seat_games(env, bot, args.games, args.players)
        before = {gid: (await bot.store.game(gid)).phase_seq for gid in ids}
        clock.advance(NIGHT_HOURS * HOUR)
        since = len(env.http_requests)
        committed: list[float] = []
        real_commit = bot.store.commit_step

        async def commit_step(game_id, **kwargs):
            await real_commit(game_id, **kwargs)
            committed.append(time.perf_counter())

        bot.store.commit_step = commit_step
        t0 = time.perf_counter()
        await CLOSE[mode](bot)
        closing = max(committed) - t0
        await settle(env, bot)
        delivered = time.perf_counter() - t0
        moved = sum([(await bot.store.game(gid)).phase_seq != before[gid] for gid in ids])
        assert moved == len(ids), f"only {moved} of {len(ids)} dawns closed"
        return {"closing": closing, "delivered": delivered, "commits": len(committed),
                "calls_per_dawn": counted_calls(env, since) / len(ids),
                "by_kind": calls_by_kind(env, since), "games": len(ids)}
    finally:
        await env.shutdown()
        await bot.close()


async def main_async(args: argparse.Namespace) -> None:
    results: dict[str, list[dict]] = {mode: [] for mode in CLOSE}
    for r in range(args.rounds):  # rotating which goes first, so all see the same machine
        modes = list(CLOSE)
        for mode in modes[r % 3:] + modes[:r % 3]:
            results[mode].append(await one_world(mode, args))
    print(f"{args.games} Clocktower games, {args.players} players each, dawn of night 1 due together "
          f"(median of {args.rounds} round(s))")
    median = {mode: {key: statistics.median(x[key] for x in runs) for key in runs[0] if key != "by_kind"}
              for mode, runs in results.items()}
    for mode, label in LABELS.items():
        m = median[mode]
        print(f"  {label:26} closing {m['closing']:.2f} s ({m['commits']:.0f} commits), all delivered "
              f"{m['delivered']:.2f} s, {m['calls_per_dawn']:.1f} calls per game's dawn")
    for mode in ("held", "timers"):
        print(f"  closing, running / {LABELS[mode]}: {median['running']['closing'] / median[mode]['closing']:.1f}x")
    last = results["held"][-1]
    print(f"  calls per game's dawn by kind ({LABELS['held']}, last round):")
    for kind, count in last["by_kind"].most_common():
        print(f"    {count / last['games']:6.2f}  {kind}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int, default=15)
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
