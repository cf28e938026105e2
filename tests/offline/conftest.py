"""The offline table in-process: a real OfflineTable (simcord, preview server, hub, clock pump)
on a temporary SQLite file. No browser here; see test_browser.py for that."""

import contextlib

import pytest
from support.tally import Tally

import games
from bot.config import Settings
from bot.offline import OfflineTable


class ThreadTally(Tally):
    """The test game, with its private messages in a private thread per player (forum games)."""

    name = "tally_threads"
    title = "Tally in threads"
    private_threads = True


@pytest.fixture(autouse=True)
def tally_registered(monkeypatch):
    monkeypatch.setitem(games.GAMES, "tally", "support.tally:GAME")
    monkeypatch.setitem(games.GAMES, "tally_threads", "offline-tests:THREAD_TALLY")
    monkeypatch.setitem(games._loaded, "offline-tests:THREAD_TALLY", ThreadTally())


@pytest.fixture
def settings(tmp_path):
    return Settings(_env_file=None, database_path=str(tmp_path / "offline.db"), pause_scale=0)


@pytest.fixture
def open_table(settings):
    """``async with open_table(names) as table`` with OS-assigned ports."""

    @contextlib.asynccontextmanager
    async def opener(names=("Ann", "Bo", "Cy"), **kwargs):
        kwargs.setdefault("port", 0)
        kwargs.setdefault("hub_port", 0)
        async with OfflineTable(kwargs.pop("settings", settings), list(names), **kwargs) as table:
            yield table

    return opener


def _texts(messages):
    return [m.content + " " + " ".join((e.title or "") + " " + (e.description or "") for e in m.embeds)
            for m in messages]


async def _start_tally(table, options="vote_seconds=5 rounds=2", kind="tally"):
    """Host opens a tally game, the others join, host starts. Returns the lobby message."""
    w = table.world
    async with table.acting():
        res = await w.host.slash(w.channel, "game new", kind=kind, options=options)
        lobby = res.response
        for member in w.players[1:]:
            await member.click(lobby, label="Join")
        await w.host.click(lobby, label="Start")
    return lobby


@pytest.fixture
def texts():
    return _texts


@pytest.fixture
def start_tally():
    return _start_tally
