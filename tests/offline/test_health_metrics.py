"""HEALTH_PORT: ``/healthz`` and ``/metrics`` as a monitor reads them.

The first test runs ``python -m bot --offline`` as a real process, plays a few actions through the
table's own page protocol (the HTTP calls the browser makes), and scrapes both endpoints from the
outside. The others are in-process: a bot not yet started, a database closed or hanging, and the
hooks that count Discord's refusals.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import socket
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import urlsplit

import pytest
from prometheus_client.parser import text_string_to_metric_families
from support.offline_process import Child, offline_table

from bot import health, metrics
from bot.client import StorytellerBot
from bot.clock import ManualClock, SystemClock
from bot.config import Settings
from bot.discord_health import DiscordHealth
from bot.health import HealthServer
from bot.metrics import Metrics
from bot.store import NewMessage
from bot.stores import open_store
from bot.timers import Timers

ROOT = Path(__file__).resolve().parents[2]
FAMILIES = {"storyteller_games", "storyteller_actions", "storyteller_commit_seconds",
            "storyteller_timer_lag_seconds", "storyteller_outbox_pending", "storyteller_outbox_oldest_seconds",
            "storyteller_pacer_queue", "storyteller_discord_errors", "storyteller_discord_calls",
            "storyteller_database_up"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def scrape(url: str) -> dict[str, dict[tuple, float]]:
    """``/metrics`` parsed: family -> {(sample name, labels...): value}."""
    status, body = get(url + "/metrics")
    assert status == 200
    found: dict[str, dict[tuple, float]] = {}
    for family in text_string_to_metric_families(body.decode()):
        samples = found.setdefault(family.name, {})
        for s in family.samples:
            samples[(s.name, *sorted(s.labels.items()))] = s.value
    return found


def total(samples: dict[tuple, float], name: str) -> float:
    return sum(v for key, v in samples.items() if key[0] == name)


class Page:
    """One viewer's page on the table, spoken to as the browser does (simcord's preview protocol)."""

    def __init__(self, preview_url: str, viewer_id: str | None = None) -> None:
        parts = urlsplit(preview_url)
        self.base, self.capability = f"{parts.scheme}://{parts.netloc}", parts.fragment
        self.sequence = 0
        self.state = self._call("POST", "/api/pages", {"viewer_id": viewer_id} if viewer_id else {})

    def _call(self, method: str, path: str, body: dict | None = None) -> dict:
        headers = {"X-Simcord-Capability": self.capability, "Content-Type": "application/json"}
        if getattr(self, "state", None):
            headers["X-Simcord-Context"] = self.state["context"]["id"]
        request = urllib.request.Request(self.base + path, method=method, headers=headers,
                                         data=None if body is None else json.dumps(body).encode())
        with urllib.request.urlopen(request, timeout=30) as r:
            return json.loads(r.read())

    def act(self, kind: str, **body) -> dict:
        self.sequence += 1
        state = self.state
        result = self._call("POST", "/api/action", {
            "protocol_version": 3, "generation": state["context"]["generation"],
            "bot_generation": state["botGeneration"], "published_revision": state["publishedRevision"],
            "sequence": self.sequence, "request_id": uuid.uuid4().hex, "kind": kind, **body})
        assert not result["rejected"], result
        self.state = self._call("GET", "/api/state")
        return result

    def command(self, invocation: str, **options) -> str:
        """Run a slash command; returns the id of the bot's answer."""
        entry = next(e for e in self._call("GET", "/api/commands")["entries"] if e["invocation"] == invocation)
        result = self.act("run_command", command_id=entry["commandId"], path=entry["path"],
                          schema_fingerprint=entry["schemaFingerprint"], options=options)
        return result["outcomes"][0]["messageId"]

    def click(self, message_id: str, label: str) -> None:
        self.state = self._call("GET", "/api/state")
        rows = self.state["messages"][message_id]["components"]
        key = next(c["control_key"] for row in rows for c in row["components"] if c.get("label") == label)
        self.act("click", control_key=key, target_id=message_id)


@contextlib.contextmanager
def started_table(tmp_path: Path, health_port: int) -> Iterator[tuple[Child, str]]:
    """The table as a process with its health endpoint on ``health_port``, and its preview's
    address; ended at the exit of the block whatever happens."""
    with offline_table(tmp_path / "table.db", "--names", "Ann,Bo,Cy", "--players", "3",
                       env={"HEALTH_PORT": str(health_port), "PAUSE_SCALE": "0"},
                       until="Health and metrics:") as (child, lines):
        preview = next((w for line in lines for w in line.split() if w.startswith("http://") and "#" in w), None)
        assert preview is not None, "the table did not print its URLs:\n" + "".join(lines)
        yield child, preview


def test_a_running_table_serves_health_and_metrics_that_move(tmp_path):
    port = free_port()
    with started_table(tmp_path, port) as (child, preview):
        url = f"http://127.0.0.1:{port}"
        status, body = get(url + "/healthz")
        assert status == 200, body
        assert json.loads(body) == {"status": "ok", "recovered": True, "database": "ok", "shards": {"0": 0.0}}
        before = scrape(url)
        assert not FAMILIES - set(before), FAMILIES - set(before)
        assert total(before["storyteller_actions"], "storyteller_actions_total") == 0

        ann = Page(preview)
        lobby = ann.command("game new", kind="ritual")
        for viewer in ann.state["viewers"][1:]:  # Bo and Cy join, each on their own page
            Page(preview, viewer["id"]).click(lobby, "Join")
        ann.click(lobby, "Start")

        after = scrape(url)
        assert after["storyteller_actions"][("storyteller_actions_total", ("kind", "ritual"))] >= 1
        assert total(after["storyteller_commit_seconds"], "storyteller_commit_seconds_count") >= 1
        assert after["storyteller_games"] == {("storyteller_games", ("kind", "ritual"), ("state", "running")): 1}
        assert total(after["storyteller_discord_calls"], "storyteller_discord_calls_total") > 0
        assert after["storyteller_database_up"] == {("storyteller_database_up",): 1}
        assert set(after["storyteller_pacer_queue"]) == {
            ("storyteller_pacer_queue", ("priority", p)) for p in ("urgent", "narration", "cosmetic")}
        rc = child.stop(signal.SIGTERM, 20)
        assert rc == 0, child.stderr()


@pytest.fixture
def health_settings(settings):
    return settings.model_copy(update={"health_port": 0})


async def fetch(server: HealthServer, path: str) -> tuple[int, dict]:
    status, body = await asyncio.to_thread(get, server.url + path)
    return status, json.loads(body)


async def test_healthz_is_503_before_the_bot_has_started(health_settings):
    bot = StorytellerBot(health_settings, sync_commands=False, use_scheduler=False)
    server = HealthServer(bot, "127.0.0.1", 0)
    await server.start()
    try:
        status, body = await fetch(server, "/healthz")
    finally:
        await server.stop()  # (the bot never logged in: nothing of its own to close)
    assert status == 503
    assert body["status"] == "unavailable"
    assert body["reasons"] == ["start-up recovery is not finished", "the database is not open yet",
                               "not connected to Discord yet"]


async def test_healthz_is_503_with_the_database_closed_or_silent(open_table, health_settings, monkeypatch):
    async with open_table(settings=health_settings, open_preview=False) as table:
        server = table.bot.health
        assert server is not None and server.port != 0
        assert (await fetch(server, "/healthz"))[0] == 200
        monkeypatch.setattr(health, "DATABASE_SECONDS", 0.2)

        async def silent(*args):
            await asyncio.Event().wait()  # a database that never answers

        with monkeypatch.context() as patched:
            patched.setattr(table.bot.store, "_read", silent)
            status, body = await fetch(server, "/healthz")
        assert status == 503 and body["reasons"] == ["the database did not answer within 0.2 s"]
        table.bot.recovered.clear()
        status, body = await fetch(server, "/healthz")
        assert status == 503 and body["reasons"] == ["start-up recovery is not finished"]
        table.bot.recovered.set()
        await table.bot.store.close()
        status, body = await fetch(server, "/healthz")
        assert status == 503 and body["reasons"] == ["the database is closed"]
        assert body["database"] == "down" and body["recovered"] is True
        # the metrics are still served, without the database's numbers
        status, text = await asyncio.to_thread(get, server.url + "/metrics")
        assert status == 200 and b"storyteller_database_up 0.0" in text
        assert b"storyteller_outbox_pending NaN" in text and b"storyteller_games{" not in text
    assert metrics.installed() is None  # the table's stop took its metrics' hooks down


async def test_discord_refusals_are_counted_by_kind(health_settings):
    bot = StorytellerBot(health_settings, sync_commands=False, use_scheduler=False)
    server = HealthServer(bot, "127.0.0.1", 0)
    await server.start()
    try:
        watched = DiscordHealth()
        for status in (401, 403, 429, 429, 502, 404):
            watched.note(status)
        errors = {s.labels["kind"]: s.value for family in text_string_to_metric_families(
            (await asyncio.to_thread(get, server.url + "/metrics"))[1].decode())
            if family.name == "storyteller_discord_errors" for s in family.samples if s.name.endswith("_total")}
    finally:
        await server.stop()  # (the bot never logged in: nothing of its own to close)
    assert errors == {"401": 1, "403": 1, "429": 2, "5xx": 1, "other": 1}


async def test_a_busy_health_port_is_said_and_the_bot_goes_on(health_settings, caplog):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        bot = StorytellerBot(health_settings.model_copy(update={"health_port": port}), sync_commands=False)
        assert await health.serve_health(bot) is None
    assert f"no health endpoint: HEALTH_PORT {port} on 127.0.0.1 could not be opened" in caplog.text


async def test_timer_lag_is_measured_when_a_job_fires(health_settings):
    """A real scheduler's job, due in 50 ms: its lateness is observed, under the job's kind."""
    server = HealthServer(StorytellerBot(health_settings, sync_commands=False, use_scheduler=False), "127.0.0.1", 0)
    await server.start()
    fired = asyncio.Event()

    async def fire(game_id: int, phase_seq: int) -> None:
        fired.set()

    timers = Timers(SystemClock(), fire, remind=fire)
    timers.start()
    try:
        timers.arm_reminder(7, 1, SystemClock().now() + 0.05)
        await asyncio.wait_for(fired.wait(), 10)
        sample = server.metrics.registry.get_sample_value
        count = sample("storyteller_timer_lag_seconds_count", {"job": "remind"})
        late = sample("storyteller_timer_lag_seconds_sum", {"job": "remind"})
    finally:
        timers.shutdown()
        await server.stop()
    assert count == 1
    assert 0 <= late < 5


async def test_the_database_numbers_on_each_engine_and_of_this_process_shards(store_url):
    """The games by kind and state and the outbox, read at scrape time: on SQLite and PostgreSQL,
    and only the servers of this process's shards when it runs some of them."""
    store = await open_store(store_url)
    try:
        on_shard = {shard: next(g for g in range(1 << 22, 1 << 30, 1 << 22) if (g >> 22) % 2 == shard)
                    for shard in (0, 1)}
        for channel, guild in enumerate((on_shard[0], on_shard[0], on_shard[1])):
            await store.create_game(kind="ritual", guild_id=guild, channel_id=100 + channel, host_id=7, seed=1,
                                    options={}, min_players=3, max_players=9, now=1000.0)
        await store.set_status(1, "cancelled", 1001.0, messages=[NewMessage("channel", None, "{}")])
        clock = ManualClock(1030.0)
        for shard_ids, running, pending in ((None, {"lobby": 2, "cancelled": 1}, 1),
                                            ("1", {"lobby": 1}, 0)):
            settings = Settings(_env_file=None, shard_count=2 if shard_ids else None, shard_ids=shard_ids or "")
            numbers = Metrics()
            await numbers.read_database(SimpleNamespace(store=store, settings=settings, clock=clock))
            sample = numbers.registry.get_sample_value
            assert {state: sample("storyteller_games", {"kind": "ritual", "state": state})
                    for state in running} == running
            assert sample("storyteller_games", {"kind": "ritual", "state": "running"}) is None
            assert sample("storyteller_outbox_pending") == pending
            assert sample("storyteller_outbox_oldest_seconds") == (29.0 if pending else 0.0)
    finally:
        await store.close()
