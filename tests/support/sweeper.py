"""One bot process for the tests: it opens the store, owns some shards, re-arms their games (an
overdue phase closes at once) and prints the ids of the games whose phase it closed, as JSON.

    python -m support.sweeper <database url> <shard count> <shard ids, comma separated>

(started with ``support.offline_process.python_env()``, which puts tests/ on its path)
"""

import asyncio
import json
import sys

import games
from bot.clock import SystemClock
from bot.service import GameService
from bot.shards import Shards
from bot.stores import open_store

games.GAMES["tally"] = "support.tally:GAME"


async def main(url: str, count: int, ids: str) -> None:
    service = GameService(await open_store(url), SystemClock(),
                          shards=Shards(count, frozenset(int(i) for i in ids.split(","))))
    closed: list[int] = []
    real = service.on_deadline

    async def counted(game_id: int, phase_seq: int) -> bool:
        done = await real(game_id, phase_seq)
        if done:
            closed.append(game_id)
        return done

    service.on_deadline = counted
    await service.rearm_all()
    await service.store.close()
    print(json.dumps(sorted(closed)))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), sys.argv[3]))
