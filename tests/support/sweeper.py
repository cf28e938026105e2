"""One bot process for the tests: it opens the store, owns some shards, re-arms their games (an
overdue phase closes at once) and prints the ids of the games whose phase it closed, as JSON.

    python tests/support/sweeper.py <database url> <shard count> <shard ids, comma separated>
"""

import asyncio
import json
import sys
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[2]), str(Path(__file__).resolve().parents[1])]

import games  # noqa: E402
from bot.clock import SystemClock  # noqa: E402
from bot.service import GameService  # noqa: E402
from bot.shards import Shards  # noqa: E402
from bot.stores import open_store  # noqa: E402

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
