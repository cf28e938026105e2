"""Discord calls per Ritual round with the voice table, beside the same rounds without it.

The real StorytellerBot plays seeded Rituals of nine on simcord's simulated Discord, every player
sitting in the game's voice channel: once with no voice options, once with the silence rules
(`speaking_turns=true`) and the dead muted (`mute_dead=true`). Each speaking turn runs its full
time (the clock is moved on and the bot's timer fires); every other choice is a random legal one.
Calls are counted from simcord's request log by kind; interaction responses are not counted
(Discord does not count them in the bot's budget). It runs on the game clock
(``support.game_time``): a turn's seconds and the pacer's waits for the server's window of member
edits move a simulated clock, so no real second is waited.

    .venv/bin/python bench/voice_calls.py [--games 3]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from simcord import Env  # noqa: E402
from support.game_time import GameTime  # noqa: E402
from support.sim import World, new_bot  # noqa: E402

from bot.actor import Actor  # noqa: E402
from bot.clock import ManualClock  # noqa: E402
from games.engine import GameError, TurnOver  # noqa: E402

MODES = {"no voice": "", "speaking turns + the dead muted": "speaking_turns=true mute_dead=true"}
PLAYERS = 9


def kind_of(method: str, path: str) -> str | None:
    parts = path.strip("/").split("/")
    if path.startswith(("/interactions/", "/webhooks/", "/applications/")):
        return None
    if parts[0] == "guilds" and len(parts) >= 4 and parts[2] == "members":
        return "member edit (mute)"
    if parts[0] == "channels" and len(parts) >= 3 and parts[2] == "messages":
        return "message " + ("send" if method == "POST" else "edit" if method == "PATCH" else method.lower())
    if parts[:2] == ["users", "@me"]:
        return "open DM"
    return f"{method} {parts[0]}"


async def one_game(options: str, seed: int) -> tuple[int, Counter]:
    folder = Path(tempfile.mkdtemp(prefix="voice-"))
    clock = ManualClock()
    bot = new_bot(folder / "bot.db", clock)
    env = Env(bot)
    await env.start()
    try:
        time = GameTime(env, clock)
        bot.delivery.pacer = time.pacer(per_second=50, per_channel=5, channel_seconds=5.0)
        w = World(env)
        members = w.players(PLAYERS)
        vc = w.guild.create_voice_channel("Table")
        for m in members:
            await m.join_voice(vc)
        res = await w.host.slash(w.channel, "game new", kind="ritual", **({"options": options} if options else {}))
        for m in members[1:]:
            await m.click(res.response, label="Join")
        game_id = (await bot.service.game_in_channel(w.channel.id)).id
        start = len(env.http_requests)
        await bot.service.start(game_id, Actor(id=w.host.id, name="host"))
        await time.settle(bot)
        await play(w, time, game_id, clock, random.Random(seed))
        await time.run(bot, clock.now() + 60, nothing_due)  # the last edits waiting for the window
        row = await bot.store.game(game_id)
        rounds = max(1, int(json.loads(row.state).get("round", 1)))
        counted: Counter = Counter()
        for request in env.http_requests[start:]:
            name = kind_of(request.method, request.path)
            if name is not None:
                counted[name] += 1
        return rounds, counted
    finally:
        await env.shutdown()
        await bot.close()


async def nothing_due() -> None:
    return None


async def play(w, time: GameTime, game_id: int, clock: ManualClock, rng: random.Random) -> None:
    service = w.bot.service

    async def turn_due() -> float | None:
        row = await service.row(game_id)
        return row.turn_deadline if row is not None and row.turn_deadline and row.turn_deadline > clock.now() else None

    for _ in range(2000):
        row = await service.row(game_id)
        if row is None or row.status != "running":
            return
        table = await service.load(game_id)
        turn = table.game.speaking_turn(table.state)
        if turn is not None:  # the turn runs its whole time, on the game clock
            await time.run(w.bot, clock.now() + turn.seconds, turn_due)
            continue
        mine: dict[str, list] = {}
        for action in table.game.legal_actions(table.state):
            if not isinstance(action, TurnOver):
                mine.setdefault(action.player, []).append(action)
        if not mine:
            await service.skip(game_id, Actor(id=w.admin.id, name="admin", manage_guild=True))
        for player, actions in mine.items():
            action = rng.choice(actions)
            with contextlib.suppress(GameError):  # the phase moved on meanwhile
                await service.act(game_id, int(player), action.model_dump(exclude_none=True))
        await time.settle(w.bot)


async def main_async(games: int) -> None:
    print(f"The Ritual at {PLAYERS} players, everyone in the voice channel; {games} seeded games per mode")
    results = {}
    for mode, options in MODES.items():
        rounds_all, totals = 0, Counter()
        for seed in range(1, games + 1):
            rounds, counted = await one_game(options, seed)
            rounds_all += rounds
            totals.update(counted)
        results[mode] = sum(totals.values()) / rounds_all
        by_kind = ", ".join(f"{name} {count / rounds_all:.1f}" for name, count in totals.most_common())
        print(f"{mode}: {results[mode]:.1f} calls per round ({rounds_all} rounds)\n  by kind: {by_kind}")
    base, voice = results["no voice"], results["speaking turns + the dead muted"]
    print(f"ratio, with voice / without: {voice / base:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=3)
    args = parser.parse_args()
    asyncio.run(main_async(args.games))


if __name__ == "__main__":
    main()
