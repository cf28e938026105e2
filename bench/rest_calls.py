"""REST calls the bot makes to Discord per round of each game, by kind, from simcord's request log.

The real StorytellerBot plays whole seeded games on simcord's simulated Discord, every player
clicking "Make my choice" and choosing at random (tests/support/sim.py). Interaction responses and
follow-ups (``/interactions``, ``/webhooks``) are counted apart and left out of the budget: Discord
does not count them toward the global limit of 50 calls a second (and the pacer leaves them out of
its budget too). Issue 30's budget: at most 8 calls per Ritual round at 7 players in every mode,
at most 6 per Cauldron round.

The Ritual is played in its three modes side by side: a quiet channel (the next phase edited into
the board), a table that talks in the channel (each phase a new message), and every private message
by DM (``ride_seconds`` 0: none rides on a player's open interaction). Opening a player's DM
channel is shown apart too: the bot does it once per player ever (the channel is kept in the
database), while each game here starts with an empty database.

Each game is played twice side by side: with living lines edited on every change
(``living_edit_seconds`` 0) and with them coalesced. A round's clicks all come within one window
there (simcord plays them at once; the window is past simcord's settle timeout, so it ends only
when the game is over), so this is the burst case: a slower table gets an edit per window.

    .venv/bin/python bench/rest_calls.py [--games 3] [--kinds ritual,cauldron,castle] [--chatter] [--dm-only]
                                         [--before DIR]

(``--chatter`` and ``--dm-only`` set the mode of the other games; the Ritual plays all three.)
``--before DIR`` plays the Ritual's modes on another tree of the bot too (an export of an earlier
commit: ``git archive COMMIT | tar -x -C DIR``), in the same run, and prints them side by side.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

#: the bot's tree to measure: this one, or another (``--before``) in a child process
ROOT = Path(os.environ.get("REST_CALLS_TREE") or Path(__file__).resolve().parent.parent)
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from simcord import Env  # noqa: E402
from support.sim import World, new_bot, play_by_clicking  # noqa: E402

import bot.service as service_module  # noqa: E402
from bot.clock import ManualClock  # noqa: E402
from bot.pacer import Pacer  # noqa: E402

BUDGET = {"ritual": 8, "cauldron": 6}
#: interaction responses and follow-ups: counted, outside Discord's global limit and the budget
INTERACTION = "interaction (outside the global limit)"
OPEN_DM = "open DM"
#: the Ritual's modes: (label, one_game's keyword arguments)
RITUAL_MODES = (("quiet channel", {}), ("people talk", {"chatter": True}), ("DM only", {"dm_only": True}))
GAMES = {"ritual": (7, "choosing_seconds=30 offering_seconds=30 council_seconds=30"),
         "cauldron": (7, ""), "castle": (4, "")}


def kind_of(method: str, path: str, dm_channels: set[str]) -> str | None:
    """What a REST call was for; None for calls that are not bot-initiated."""
    if path.startswith(("/interactions/", "/webhooks/")):
        return INTERACTION
    if path.startswith("/applications/"):
        return None
    parts = path.strip("/").split("/")
    if parts[:2] == ["users", "@me"] and parts[-1] == "channels":
        return OPEN_DM
    if parts[0] == "users":
        return "fetch user"
    if parts[0] == "channels" and len(parts) >= 3 and parts[2] == "messages":
        where = "DM" if parts[1] in dm_channels else "channel"
        return f"{where} {'send' if method == 'POST' else 'edit' if method == 'PATCH' else method.lower()}"
    if parts[0] == "channels" and ("threads" in parts or "thread-members" in parts):
        return "thread"
    return f"{method} {parts[0]}"


#: the coalescing window of the side that coalesces: longer than a simcord settle (5 s)
BURST_WINDOW = 10.0


#: ``--theatre-beats``: the steps a reveal is shown in (THEATRE_BEATS; 1: at once, no beat edits)
THEATRE_BEATS = 2
#: ``--pressed``: as when the token's budget is pressed
PRESSED = False


async def one_game(kind: str, seed: int, *, chatter: bool = False, dm_only: bool = False,
                   window: float = 0.0) -> tuple[int, Counter]:
    players, options = GAMES[kind]
    folder = Path(tempfile.mkdtemp(prefix="rest-"))
    bot = new_bot(folder / "bot.db", ManualClock(), living_edit_seconds=window, theatre_beats=THEATRE_BEATS,
                  **({"ride_seconds": 0} if dm_only else {}))
    env = Env(bot)
    await env.start()
    try:
        w = World(env)
        members = w.players(players)
        service_module.new_seed = lambda: seed  # the game's seed: the same game every run
        start = len(env.http_requests)
        game_id, _accepted = await play_by_clicking(w, members, kind, options, random.Random(seed),
                                                    chatter=chatter)
        await w.settle()
        if window:
            await env.advance_time(window)  # the held edits of the last window go out
            await w.settle()
        row = await bot.store.game(game_id)
        rounds = max(1, int(json.loads(row.state).get("round", 1)))
        dm_channels = {str(m.user.dm_channel.id) for m in members if m.user.dm_channel is not None}
        counted = Counter()
        for request in env.http_requests[start:]:
            kind_name = kind_of(request.method, request.path, dm_channels)
            if kind_name is not None:
                counted[kind_name] += 1
        return rounds, counted
    finally:
        await env.shutdown()
        await bot.close()


def budgeted(counted: Counter) -> int:
    """The calls that count toward Discord's global limit."""
    return sum(n for name, n in counted.items() if name != INTERACTION)


async def measure(kind: str, games_per_kind: int, window: float, **mode) -> dict:
    """Median calls per round over seeded games, and the totals by kind."""
    per_round, without_dm, interactions = [], [], []
    totals: Counter = Counter()
    all_rounds = 0
    for seed in range(1, games_per_kind + 1):
        rounds, counted = await one_game(kind, seed, window=window, **mode)
        per_round.append(budgeted(counted) / rounds)
        without_dm.append((budgeted(counted) - counted[OPEN_DM]) / rounds)
        interactions.append(counted[INTERACTION] / rounds)
        totals.update(counted)
        all_rounds += rounds
    return {"median": statistics.median(per_round), "without_dm": statistics.median(without_dm),
            "interactions": statistics.median(interactions), "totals": totals, "rounds": all_rounds}


def by_kind(result: dict) -> str:
    return ", ".join(f"{name} {count / result['rounds']:.1f}" for name, count in result["totals"].most_common())


async def ritual_results(games_per_kind: int) -> dict[str, dict[str, float]]:
    """The Ritual's modes on this tree: calls per round, every change edited and coalesced."""
    out = {}
    for label, mode in RITUAL_MODES:
        every = await measure("ritual", games_per_kind, 0.0, **mode)
        coalesced = await measure("ritual", games_per_kind, BURST_WINDOW, **mode)
        out[label] = {"every": every["median"], "coalesced": coalesced["median"],
                      "without_dm": coalesced["without_dm"], "interactions": coalesced["interactions"],
                      "by_kind": by_kind(coalesced)}
    return out


def ritual_before(tree: str, games_per_kind: int) -> dict[str, dict[str, float]]:
    """The Ritual's modes on another tree of the bot, measured by this script in a child process."""
    env = {**os.environ, "REST_CALLS_TREE": tree, "PYTHONPATH": tree}
    done = subprocess.run([sys.executable, __file__, "--games", str(games_per_kind), "--ritual-json",
                           "--theatre-beats", str(THEATRE_BEATS), *(["--pressed"] if PRESSED else [])],
                          env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


async def ritual_modes(games_per_kind: int, before: str | None) -> None:
    """The Ritual in its three modes, side by side (and beside another tree's, with ``before``)."""
    then = ritual_before(before, games_per_kind) if before else None
    now = await ritual_results(games_per_kind)
    print(f"ritual, 7 players, calls per round toward the global limit (median of {games_per_kind} "
          f"games, THEATRE_BEATS={THEATRE_BEATS}{', budget pressed' if PRESSED else ''}); budget {BUDGET['ritual']} in every mode")
    if then is not None:
        print(f"  before = the tree in {before}")
        print(f"  {'mode':<14} {'before':>7} {'now':>6} {'now/before':>11} {'no DM opening: before':>22} "
              f"{'now':>6} {'now, every change':>18} {'interactions, now':>18}")
        for label, _mode in RITUAL_MODES:
            a, b = then[label], now[label]
            print(f"  {label:<14} {a['coalesced']:>7.1f} {b['coalesced']:>6.1f} {b['coalesced'] / a['coalesced']:>11.2f} "
                  f"{a['without_dm']:>22.1f} {b['without_dm']:>6.1f} {b['every']:>18.1f} {b['interactions']:>18.1f}")
        for label, _mode in RITUAL_MODES:
            print(f"    {label}, before: {then[label]['by_kind']}")
            print(f"    {label}, now:    {now[label]['by_kind']}")
        return
    print(f"  {'mode':<14} {'every change':>13} {'coalesced':>10} {'no DM opening':>14} {'interactions':>13}")
    for label, _mode in RITUAL_MODES:
        r = now[label]
        print(f"  {label:<14} {r['every']:>13.1f} {r['coalesced']:>10.1f} {r['without_dm']:>14.1f} "
              f"{r['interactions']:>13.1f}")
        print(f"    by kind: {r['by_kind']}")


async def main_async(games_per_kind: int, kinds: list[str], chatter: bool, dm_only: bool,
                     before: str | None = None) -> None:
    if "ritual" in kinds:
        await ritual_modes(games_per_kind, before)
    others = [k for k in kinds if k != "ritual"]
    if not others:
        return
    print("a table that talks in the channel (each phase a new message)" if chatter else
          "a quiet channel (the next phase edited into the board)",
          "; every private message a DM" if dm_only else "; private messages ride on open interactions")
    for kind in others:
        medians = []
        for window, label in ((0.0, "every change edited"), (BURST_WINDOW, "living lines coalesced")):
            result = await measure(kind, games_per_kind, window, chatter=chatter, dm_only=dm_only)
            budget = BUDGET.get(kind)
            medians.append(result["median"])
            print(f"{kind}, {label}: {result['median']:.1f} calls per round (median of {games_per_kind} "
                  f"games, {result['rounds']} rounds)" + (f"; budget {budget}" if budget else "")
                  + f"; interactions {result['interactions']:.1f} more")
            print(f"  per round by kind: {by_kind(result)}")
        print(f"  {kind}: coalesced / every change = {medians[1] / medians[0]:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--theatre-beats", type=int, default=2,
                        help="THEATRE_BEATS: the steps a reveal is shown in (1: at once)")
    parser.add_argument("--pressed", action="store_true",
                        help="as when the token's budget is pressed (many tables): a reveal in one step")
    parser.add_argument("--kinds", default=",".join(GAMES), help="the games to play, comma-separated")
    parser.add_argument("--chatter", action="store_true",
                        help="someone writes in the channel before each phase's choices")
    parser.add_argument("--dm-only", action="store_true", help="no private message rides on an interaction")
    parser.add_argument("--before", help="another tree of the bot: its Ritual figures side by side")
    parser.add_argument("--ritual-json", action="store_true", help=argparse.SUPPRESS)  # (--before's child)
    args = parser.parse_args()
    global THEATRE_BEATS, PRESSED
    THEATRE_BEATS, PRESSED = args.theatre_beats, args.pressed
    if args.pressed:  # what the pacer says with calls waiting or half of each second used
        Pacer.pressed = lambda self: True
    if args.ritual_json:
        print(json.dumps(asyncio.run(ritual_results(args.games))))
        return
    before = str(Path(args.before).resolve()) if args.before else None
    asyncio.run(main_async(args.games, args.kinds.split(","), args.chatter, args.dm_only, before))


if __name__ == "__main__":
    main()
