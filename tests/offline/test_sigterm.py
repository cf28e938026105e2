"""SIGTERM (and SIGINT) stop a real bot process cleanly: the offline table, which runs the same
bot on simcord, started as ``python -m bot --offline`` in a subprocess."""

import asyncio
import os
import signal
import sqlite3
import time
from pathlib import Path

import pytest
from support.offline_process import offline_table

from bot.actor import Actor
from bot.clock import ManualClock, SystemClock
from bot.offline.world import CHANNEL_NAME, GUILD_NAME, VOICE_NAME, stable_id
from bot.service import GameService
from bot.store import SqliteStore

NAMES = ("Ann", "Bo", "Cy")
ROOT = Path(__file__).resolve().parents[2]


def table(db_path, **env: str):
    """``python -m bot --offline`` on ``db_path``, once it says it is open (ended at the exit of the
    block whatever happens)."""
    return offline_table(db_path, "--names", ",".join(NAMES), env={"LOG_LEVEL": "INFO", **env})


async def seed(db_path, options: str | None = None, *, stuck: bool = True) -> tuple[int, int | None]:
    """Two running games of the offline guild, written before the process starts: one whose
    start's messages wait in the outbox (the process sends them), and (unless not ``stuck``) one
    overdue whose state the bot cannot read, so that the process claims it and holds the claim
    (its lease is a minute). ``options``: the first game's. Returns their ids."""
    store = await SqliteStore.open(db_path)
    try:
        service = GameService(store, SystemClock())
        guild = stable_id("guild", GUILD_NAME)
        players = [Actor(id=stable_id("user", name), name=name) for name in NAMES]
        ids = []
        for channel in (stable_id("channel", CHANNEL_NAME), stable_id("channel", VOICE_NAME) + 1)[:1 + stuck]:
            row = await service.new_game(kind="ritual", guild_id=guild, channel_id=channel, host=players[0],
                                         options_text=options if not ids else None)
            for player in players[1:]:
                await service.join(row.id, player)
            await service.start(row.id, players[0])
            ids.append(row.id)
    finally:
        await store.close()
    if not stuck:
        return ids[0], None
    played, stuck = ids
    with sqlite3.connect(db_path) as conn:
        conn.execute("UPDATE outbox SET delivered_at = 1 WHERE game_id = ?", (stuck,))
        conn.execute("UPDATE games SET state = '{not a state', deadline = ?, paused = 0 WHERE id = ?",
                     (time.time() - 60, stuck))
    return played, stuck


def read(db_path, sql, *args):
    with sqlite3.connect(db_path, timeout=10) as conn:
        return conn.execute(sql, args).fetchall()


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_stops_the_bot_cleanly(tmp_path, sig):
    db = tmp_path / "cli.db"
    played, stuck = asyncio.run(seed(db))
    acknowledged = read(db, "SELECT id FROM outbox WHERE game_id = ? ORDER BY id", played)
    assert acknowledged
    with table(db) as (child, _):
        wait_for(lambda: read(db, "SELECT claimed_until FROM games WHERE id = ? AND claimed_until IS NOT NULL",
                              stuck), "the process never claimed the overdue game")
        assert read(db, "SELECT claimed_until FROM games WHERE id = ?", stuck)[0][0] > time.time() + 30  # its lease
        rc = child.stop(sig, 60)  # (a stop that waited for the lease would take over a minute)
    err = child.stderr()
    assert rc == 0, err
    assert "stopped cleanly" in err
    assert read(db, "SELECT id FROM games WHERE claimed_until IS NOT NULL") == []
    # every acknowledged row is still there: sent, or waiting for the next start
    rows = read(db, "SELECT id, delivered_at, failure FROM outbox WHERE game_id = ? ORDER BY id", played)
    assert [r[0] for r in rows[:len(acknowledged)]] == [r[0] for r in acknowledged]
    assert all(failure is None for _, _, failure in rows), rows


class Gateway:
    """A bot as ``run_bot`` sees it: connected until ``shut_down`` closes it."""

    def __init__(self):
        self.closed = asyncio.Event()
        self.calls = []

    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc):
        self.calls.append("exit")

    async def start(self, token):
        self.calls.append(f"start {token}")
        await self.closed.wait()

    def is_ready(self):  # (connected: run_bot waits for start to return)
        return True

    async def shut_down(self):
        self.calls.append("shut_down")
        self.closed.set()
        return True


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_the_discord_bot_stops_cleanly_on_a_signal(sig):
    """``python -m bot`` (``run_bot``) turns SIGTERM and SIGINT into ``shut_down``, then returns."""
    from bot.__main__ import run_bot

    bot = Gateway()

    async def main():
        asyncio.get_running_loop().call_later(0.2, os.kill, os.getpid(), sig)
        await asyncio.wait_for(run_bot(bot, "token"), 5)

    asyncio.run(main())
    assert bot.calls == ["start token", "shut_down", "exit"]


#: Loaded by the process at start-up (``sitecustomize``, on its PYTHONPATH): once the file
#: HOLD_ARM exists, the next message posted to a channel is held in flight, before simcord gets it,
#: until the file HOLD_RELEASE exists (never, if the test never writes it); HOLD_HELD is written
#: when it is held. Test code only: the bot is the one users run.
HOLD_SENDS = """
import asyncio, os, pathlib, threading, time
from simcord.http import client

_real = client.FakeHTTPClient.request
_armed = pathlib.Path(os.environ["HOLD_ARM"])
_held = pathlib.Path(os.environ["HOLD_HELD"])
_release = pathlib.Path(os.environ["HOLD_RELEASE"])


async def _request(self, route, **kwargs):
    if route.method == "POST" and route.path == "/channels/{channel_id}/messages" and _armed.exists() \\
            and not _held.exists():
        released, loop = asyncio.Event(), asyncio.get_running_loop()

        def watch():  # (a thread: the bot's event loop runs on simcord's simulated clock)
            while not _release.exists():
                time.sleep(0.02)
            try:
                loop.call_soon_threadsafe(released.set)
            except RuntimeError:  # the process has stopped
                pass

        threading.Thread(target=watch, daemon=True).start()
        _held.write_text(str(route.channel_id))
        await released.wait()
    return await _real(self, route, **kwargs)


client.FakeHTTPClient.request = _request
"""


class Hold:
    """The files that steer HOLD_SENDS in a table's process, and its environment."""

    def __init__(self, tmp_path: Path, grace: float) -> None:
        site = tmp_path / "site"
        site.mkdir()
        (site / "sitecustomize.py").write_text(HOLD_SENDS)
        self.arm, self.held, self.release = tmp_path / "arm", tmp_path / "held", tmp_path / "release"
        self.env = {"PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")]),
                    "HOLD_ARM": str(self.arm), "HOLD_HELD": str(self.held), "HOLD_RELEASE": str(self.release),
                    "STOP_GRACE_SECONDS": str(grace), "SWEEP_SECONDS": "10"}


def wait_for(check, what: str, seconds: float = 120):
    """Until ``check()`` holds (a generous deadline: only a broken bot reaches it)."""
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


#: the played game's first phase would close long after any test has ended: the test closes it
LONG = "choosing_seconds=900"


async def close_the_phase(db_path, game_id: int) -> None:
    """The game's phase closed by another process, as a shard sharing the database would close it:
    its messages wait in the outbox until the table's sweep sends them."""
    store = await SqliteStore.open(db_path)
    try:
        row = await store.game(game_id)
        assert await GameService(store, ManualClock(row.deadline + 1)).fire_due() == 1
    finally:
        await store.close()


def a_send_in_flight(db, played, hold: Hold) -> int:
    """Once the start's messages are out, armed; then the played game's phase is closed, so that
    the table's sweep sends its messages and the first is held in flight. Returns the outbox id of
    the first row pending then (the one held)."""
    wait_for(lambda: not read(db, "SELECT id FROM outbox WHERE game_id = ? AND delivered_at IS NULL", played),
             "the start's messages were never sent")
    hold.arm.touch()
    asyncio.run(close_the_phase(db, played))
    rows = read(db, "SELECT id FROM outbox WHERE game_id = ? AND delivered_at IS NULL ORDER BY id", played)
    assert rows
    wait_for(hold.held.exists, "no message was held in flight")
    return rows[0][0]


def test_sigterm_lets_a_send_in_flight_finish_within_the_grace(tmp_path):
    """The send is held until the process has begun to stop, then let go: the stop waits for it
    (the grace is longer than any machine takes), sends it, and says so."""
    db = tmp_path / "cli.db"
    played, _stuck = asyncio.run(seed(db, LONG, stuck=False))
    hold = Hold(tmp_path, grace=120)
    with table(db, **hold.env) as (child, _):
        in_flight = a_send_in_flight(db, played, hold)
        child.send(signal.SIGTERM)
        child.wait_for_line("Closing the offline table")
        assert child.returncode is None, child.stderr()  # still running: the send is under way
        assert read(db, "SELECT delivered_at FROM outbox WHERE id = ?", in_flight) == [(None,)]
        hold.release.touch()
        rc = child.wait(120)
    err = child.stderr()
    assert rc == 0, err
    assert "every send under way finished" in err
    assert read(db, "SELECT delivered_at IS NOT NULL, failure FROM outbox WHERE id = ?", in_flight) == [(1, None)]
    assert read(db, "SELECT id FROM games WHERE claimed_until IS NOT NULL") == []


def test_sigterm_cuts_a_send_still_in_flight_after_the_grace_and_the_next_start_sends_it(tmp_path):
    """The send is never let go: the stop ends after its grace (a stop that waited for the send
    would never end), and the next start sends it."""
    db = tmp_path / "cli.db"
    played, _stuck = asyncio.run(seed(db, LONG, stuck=False))
    hold = Hold(tmp_path, grace=1)
    with table(db, **hold.env) as (child, _):
        in_flight = a_send_in_flight(db, played, hold)
        rc = child.stop(signal.SIGTERM, 60)
    err = child.stderr()
    assert rc == 0, err
    assert "cut short" in err and "claims released" in err
    # not lost, not marked sent, not given up
    assert read(db, "SELECT delivered_at, failure FROM outbox WHERE id = ?", in_flight) == [(None, None)]
    assert read(db, "SELECT id FROM games WHERE claimed_until IS NOT NULL") == []

    with table(db) as (child, _):  # the next start sends it
        wait_for(lambda: read(db, "SELECT delivered_at FROM outbox WHERE id = ?", in_flight)[0][0] is not None,
                 "the row cut short was not sent at the next start")
        rc = child.stop(signal.SIGTERM, 60)
    assert rc == 0, child.stderr()
