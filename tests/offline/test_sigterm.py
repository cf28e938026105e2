"""SIGTERM (and SIGINT) stop a real bot process cleanly: the offline table, which runs the same
bot on simcord, started as ``python -m bot --offline`` in a subprocess."""

import asyncio
import os
import signal
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest
from support.offline_process import start_offline

from bot.actor import Actor
from bot.clock import SystemClock
from bot.offline.world import CHANNEL_NAME, GUILD_NAME, VOICE_NAME, stable_id
from bot.service import GameService
from bot.store import SqliteStore

NAMES = ("Ann", "Bo", "Cy")
ROOT = Path(__file__).resolve().parents[2]


def start_table(db_path, **env: str) -> subprocess.Popen:
    """``python -m bot --offline`` on ``db_path``, returned once it says it is open."""
    return start_offline(db_path, "--names", ",".join(NAMES), env={"LOG_LEVEL": "INFO", **env})[0]


async def seed(db_path, options: str | None = None) -> tuple[int, int]:
    """Two running games of the offline guild, written before the process starts: one whose
    start's messages wait in the outbox (the process sends them), and one overdue whose state the
    bot cannot read, so that the process claims it and holds the claim (its lease is a minute).
    ``options``: the first game's. Returns their ids."""
    store = await SqliteStore.open(db_path)
    try:
        service = GameService(store, SystemClock())
        guild = stable_id("guild", GUILD_NAME)
        players = [Actor(id=stable_id("user", name), name=name) for name in NAMES]
        ids = []
        for channel in (stable_id("channel", CHANNEL_NAME), stable_id("channel", VOICE_NAME) + 1):
            row = await service.new_game(kind="ritual", guild_id=guild, channel_id=channel, host=players[0],
                                         options_text=options if not ids else None)
            for player in players[1:]:
                await service.join(row.id, player)
            await service.start(row.id, players[0])
            ids.append(row.id)
    finally:
        await store.close()
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
    proc = start_table(db)
    deadline = time.monotonic() + 20
    while not read(db, "SELECT claimed_until FROM games WHERE id = ? AND claimed_until IS NOT NULL", stuck):
        assert time.monotonic() < deadline, "the process never claimed the overdue game"
        time.sleep(0.1)
    assert read(db, "SELECT claimed_until FROM games WHERE id = ?", stuck)[0][0] > time.time() + 30  # its lease

    started = time.monotonic()
    proc.send_signal(sig)
    try:
        _, err = proc.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        pytest.fail("the process did not stop within 20 s")
    rc, took = proc.returncode, time.monotonic() - started
    assert rc == 0, err
    assert took < 8, err
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
#: HOLD_ARM exists, the next message posted to a channel waits HOLD_SECONDS in flight, before
#: simcord gets it, and HOLD_HELD is written. Test code only: the bot is the one users run.
HOLD_SENDS = """
import asyncio, os, pathlib, threading
from simcord.http import client

_real = client.FakeHTTPClient.request
_armed = pathlib.Path(os.environ["HOLD_ARM"])
_held = pathlib.Path(os.environ["HOLD_HELD"])


async def _request(self, route, **kwargs):
    if route.method == "POST" and route.path == "/channels/{channel_id}/messages" and _armed.exists() \\
            and not _held.exists():
        _held.write_text(str(route.channel_id))
        released, loop = asyncio.Event(), asyncio.get_running_loop()

        def release():
            try:
                loop.call_soon_threadsafe(released.set)
            except RuntimeError:  # the process has stopped
                pass

        timer = threading.Timer(float(os.environ["HOLD_SECONDS"]), release)
        timer.daemon = True
        timer.start()
        await released.wait()
    return await _real(self, route, **kwargs)


client.FakeHTTPClient.request = _request
"""


def holding_sends(tmp_path, seconds: float, grace: float) -> tuple[dict[str, str], Path, Path]:
    """The environment of a table whose next channel message, once armed, waits ``seconds`` in
    flight; the arm and held files."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(HOLD_SENDS)
    arm, held = tmp_path / "arm", tmp_path / "held"
    env = {"PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")]),
           "HOLD_ARM": str(arm), "HOLD_HELD": str(held), "HOLD_SECONDS": str(seconds),
           "STOP_GRACE_SECONDS": str(grace)}
    return env, arm, held


def wait_for(check, what: str, seconds: float = 30):
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


#: the played game's first phase closes 10 s after its message is posted (at the start)
SHORT = "choosing_seconds=10"


def a_send_in_flight(db, played, arm, held) -> int:
    """Once the start's messages are out, armed: the played game's phase closes when its time is
    up, and the first message that posts is held in flight. Returns the outbox id of the first
    row still pending then."""
    wait_for(lambda: not read(db, "SELECT id FROM outbox WHERE game_id = ? AND delivered_at IS NULL", played),
             "the start's messages were never sent")
    arm.touch()
    wait_for(held.exists, "no message was held in flight")
    rows = read(db, "SELECT id FROM outbox WHERE game_id = ? AND delivered_at IS NULL ORDER BY id", played)
    assert rows
    return rows[0][0]


def stop(proc) -> tuple[int, str, float]:
    started = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    try:
        _, err = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        pytest.fail("the process did not stop within 30 s")
    return proc.returncode, err, time.monotonic() - started


def stopped_with_a_send_in_flight(tmp_path, *, seconds: float, grace: float):
    """A table whose sends are each held ``seconds``, stopped by SIGTERM (grace ``grace``) while
    one is in flight: (the database, that send's outbox id, the stop's standard error, how long
    the stop took). The process exited 0."""
    db = tmp_path / "cli.db"
    played, _stuck = asyncio.run(seed(db, SHORT))
    env, arm, held = holding_sends(tmp_path, seconds=seconds, grace=grace)
    proc = start_table(db, **env)
    in_flight = a_send_in_flight(db, played, arm, held)
    rc, err, took = stop(proc)
    assert rc == 0, err
    return db, in_flight, err, took


def test_sigterm_lets_a_send_in_flight_finish_within_the_grace(tmp_path):
    db, in_flight, err, took = stopped_with_a_send_in_flight(tmp_path, seconds=1.5, grace=10)
    assert 1 < took < 10, err  # it waited for the send, not for the whole grace
    assert "every send under way finished" in err
    assert read(db, "SELECT delivered_at IS NOT NULL, failure FROM outbox WHERE id = ?", in_flight) == [(1, None)]
    assert read(db, "SELECT id FROM games WHERE claimed_until IS NOT NULL") == []


def test_sigterm_cuts_a_send_still_in_flight_after_the_grace_and_the_next_start_sends_it(tmp_path):
    db, in_flight, err, took = stopped_with_a_send_in_flight(tmp_path, seconds=60, grace=1)
    assert took < 8, err  # the grace, not the send's minute
    assert "cut short" in err and "claims released" in err
    # not lost, not marked sent, not given up
    assert read(db, "SELECT delivered_at, failure FROM outbox WHERE id = ?", in_flight) == [(None, None)]
    assert read(db, "SELECT id FROM games WHERE claimed_until IS NOT NULL") == []

    proc = start_table(db)  # the next start sends it
    wait_for(lambda: read(db, "SELECT delivered_at FROM outbox WHERE id = ?", in_flight)[0][0] is not None,
             "the row cut short was not sent at the next start")
    rc, err, _ = stop(proc)
    assert rc == 0, err
