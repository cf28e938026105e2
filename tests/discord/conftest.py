"""The real bot on simcord's simulated Discord, with a real SQLite file and a manual clock."""

import itertools

import pytest
from support.sim import World, close_made_bots, new_bot

import games
from bot.clock import ManualClock


@pytest.fixture(autouse=True)
def tally_registered(monkeypatch):
    monkeypatch.setitem(games.GAMES, "tally", "support.tally:GAME")


@pytest.fixture(autouse=True)
def game_seeds(monkeypatch):
    """Games get seeds 1, 2, 3... so that an end-to-end game plays the same way every run."""
    seeds = itertools.count(1)
    monkeypatch.setattr("bot.service.new_seed", lambda: next(seeds))


@pytest.fixture
def clock():
    return ManualClock()


@pytest.fixture
def db_path(tmp_path):
    return tmp_path / "bot.db"


@pytest.fixture
async def simcord_bot(db_path, clock):
    bot = new_bot(db_path, clock)
    yield bot
    await bot.close()
    await close_made_bots()


@pytest.fixture
async def world(simcord_env):
    return World(simcord_env)
