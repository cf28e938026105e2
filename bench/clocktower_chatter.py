"""What a message in a Clocktower town square costs the bot, beside a vote, in one run.

Every message posted in the town square passes the whisper listener (``Town.on_message``). A
message by a player with no open whisper should cost next to nothing: a cached lookup of the
channel, the cached state, and the rule's check. One that breaks a whisper is a whole durable
action (the ``spoke`` action's apply and commit, with its record and outbox rows). Both are
measured beside a vote on the same 15-player day (a vote for no execution, taken back between
rounds untimed, so that nobody is ever executed and the game runs as long as the bench).

    .venv/bin/python bench/clocktower_chatter.py [--messages 1000]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.clocktower_vote import HOUR, clocktower_day  # noqa: E402
from bot.clock import ManualClock  # noqa: E402
from bot.clocktower.town import Town  # noqa: E402
from bot.service import GameService  # noqa: E402
from bot.stores import open_store  # noqa: E402
from games.clocktower.talk import whisper_limit  # noqa: E402


def message(author: str, channel: int, n: int) -> SimpleNamespace:
    return SimpleNamespace(id=n, guild=object(), channel=SimpleNamespace(id=channel),
                           author=SimpleNamespace(id=int(author), bot=False))


async def run(n: int) -> dict:
    folder = Path(tempfile.mkdtemp(prefix="bench-"))
    store = await open_store(folder / "chatter.db")
    try:
        clock = ManualClock()
        service = GameService(store, clock)
        game_id, players = await clocktower_day(service, clock)
        town = Town(SimpleNamespace(store=store, service=service))
        talker = players[-1]  # never in a whisper
        chatter, breaking, votes = [], [], []
        for i in range(n):  # side by side, so all three see the same machine
            t0 = time.perf_counter()
            await town.on_message(message(talker, 1, i))
            chatter.append(time.perf_counter() - t0)

            state = (await service.load(game_id)).state
            a, b = players[i % 13], players[i % 13 + 1]
            if state.whispers_used.get(a, 0) >= whisper_limit(state):
                clock.advance(72 * HOUR)  # the next dawn: the counts start again
                await service.fire_due()
            await service.act(game_id, int(a), {"type": "whisper", "player": a, "players": [b],
                                                "place": "announcements"})
            t0 = time.perf_counter()
            await town.on_message(message(b, 1, i))
            breaking.append(time.perf_counter() - t0)

            voter = players[i % 15]
            t0 = time.perf_counter()
            await service.act(game_id, int(voter), {"type": "vote", "player": voter, "target": "none"})
            votes.append(time.perf_counter() - t0)
            await service.act(game_id, int(voter), {"type": "unvote", "player": voter})
            await store.db.execute("UPDATE outbox SET delivered_at = 0 WHERE delivered_at IS NULL")
        broken = sum(1 for kind, _data in await store.records(game_id) if kind == "whisper_broken")
        c, b, v = (statistics.median(x) for x in (chatter, breaking, votes))
        return {"messages_measured": n, "whispers_broken": broken,
                "chatter_median_us": round(c * 1e6, 1), "breaking_median_us": round(b * 1e6, 1),
                "vote_median_us": round(v * 1e6, 1), "chatter_to_vote": round(c / v, 3),
                "breaking_to_vote": round(b / v, 2)}
    finally:
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--messages", type=int, default=1000)
    args = parser.parse_args()
    for key, value in asyncio.run(run(args.messages)).items():
        print(f"{key}: {value}")


if __name__ == "__main__":
    main()
