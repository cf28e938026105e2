import pytest

import games
from bot.clock import ManualClock
from bot.service import GameService
from bot.stores import open_store


@pytest.fixture(autouse=True)
def tally_registered(monkeypatch):
    monkeypatch.setitem(games.GAMES, "tally", "support.tally:GAME")


@pytest.fixture
def clock():
    return ManualClock()


@pytest.fixture
async def service(tmp_path, clock):
    store = await open_store(tmp_path / "bot.db")
    svc = GameService(store, clock)
    yield svc
    await store.close()
