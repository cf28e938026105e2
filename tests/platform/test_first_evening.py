"""The first evening on a real server: when something is off at start, ``python -m bot`` says what
in a sentence (no traceback) and exits with the right code; when all is well, its first line says
where it runs, and it warns when Discord's slash commands are not the bot's.

The bot runs as a real process. Where it must reach Discord, Discord is a small local HTTP server
(``FakeDiscord``) answering the two calls of a login, and the process is pointed at it."""

import asyncio
import json
import logging
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
import simcord
from support.offline_process import Child
from support.sim import bot_settings

from bot.client import StorytellerBot
from bot.clock import ManualClock

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.Gabcde.abcdefghijklmnopqrstuvwxyz0123456789ab"
#: ``python -m bot``, with discord.py's address of Discord replaced by ``sys.argv[1]``
RUN_AGAINST = ("import sys, discord.http; discord.http.Route.BASE = sys.argv.pop(1); "
               "from bot.__main__ import main; raise SystemExit(main())")

USER = {"id": "123456789012345678", "username": "Storyteller", "discriminator": "0", "avatar": None,
        "bot": True, "global_name": None}
APPLICATION = {"id": "123456789012345678", "name": "Storyteller", "icon": None, "description": "",
               "bot_public": True, "bot_require_code_grant": False, "verify_key": "0" * 64, "flags": 0,
               "summary": "", "team": None, "owner": USER}


class FakeDiscord:
    """Answers a login: ``GET /users/@me`` with ``status`` (200: the bot's user), and the
    application's own record."""

    def __init__(self, status: int) -> None:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 - http.server's name
                fake.paths.append(self.path)
                if self.path.endswith("/users/@me"):
                    code, body = (fake.status, USER) if fake.status == 200 else \
                        (fake.status, {"message": "401: Unauthorized", "code": 0})
                elif self.path.endswith("/oauth2/applications/@me"):
                    code, body = 200, APPLICATION
                else:
                    code, body = 404, {"message": "Unknown", "code": 0}
                data = json.dumps(body).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self.status = status
        self.paths: list[str] = []
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}/api/v10"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def env_for(tmp_path: Path, **settings: str) -> dict:
    values = {"DISCORD_TOKEN": TOKEN, "DATABASE_URL": "", "DATABASE_PATH": str(tmp_path / "data" / "bot.db"),
              "LOG_LEVEL": "INFO", "HEALTH_PORT": "", "SHARD_COUNT": "", "SHARD_IDS": "", "VOICE_NARRATION": "false"}
    return {**os.environ, "PYTHONPATH": str(ROOT)} | values | settings


def bot_process(tmp_path: Path, base: str, *args: str, **settings: str) -> subprocess.CompletedProcess:
    """``python -m bot ARGS`` to its end, against Discord at ``base``."""
    return subprocess.run([sys.executable, "-c", RUN_AGAINST, base, *args], cwd=tmp_path,
                          env=env_for(tmp_path, **settings), capture_output=True, text=True, timeout=60)


#: a Discord that no one answers at (a closed port on this machine)
NOWHERE = "http://127.0.0.1:1/api/v10"


def says(done: subprocess.CompletedProcess, code: int, *words: str) -> None:
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == code, f"exit {done.returncode}:\n{done.stderr}"
    for word in words:
        assert word in done.stderr, f"{word!r} not in:\n{done.stderr}"


# ----- Discord -----

@pytest.mark.slow
def test_a_token_discord_refuses_is_said_in_a_sentence(tmp_path):
    discord = FakeDiscord(401)
    try:
        done = bot_process(tmp_path, discord.base)
    finally:
        discord.close()
    says(done, 2, "Discord refused the token in DISCORD_TOKEN")
    assert any(p.endswith("/users/@me") for p in discord.paths)  # it was Discord that said no


@pytest.mark.slow
def test_discord_out_of_reach_is_said_in_a_sentence(tmp_path):
    says(bot_process(tmp_path, NOWHERE), 1, "I can't reach Discord", "network")


def test_the_bot_asks_for_no_privileged_intent(tmp_path):
    """Discord refuses a bot that asks for an intent not enabled in the portal: this one asks for
    none, so an admin never has to enable one (the README says to leave them off)."""
    intents = StorytellerBot(bot_settings(tmp_path / "bot.db")).intents
    assert not (intents.members or intents.presences or intents.message_content)


# ----- the database, refused before Discord is asked -----

@pytest.mark.slow
def test_a_database_folder_that_cannot_be_made_is_said(tmp_path):
    (tmp_path / "taken").write_text("a file where the folder should be")
    done = bot_process(tmp_path, NOWHERE, DATABASE_PATH=str(tmp_path / "taken" / "bot.db"))
    says(done, 2, "DATABASE_PATH", "cannot be created")
    offline = bot_process(tmp_path, NOWHERE, "--offline", DATABASE_PATH=str(tmp_path / "taken" / "bot.db"))
    says(offline, 2, "DATABASE_PATH", "cannot be created")


def as_another_user() -> list[str]:
    """A prefix that runs a command as an unprivileged user (root writes anywhere)."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root with no setpriv: a read-only folder cannot be tried")
    return [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"]


@pytest.mark.slow
@pytest.mark.parametrize("existing", [False, True], ids=["new-file", "existing-file"])
def test_a_read_only_database_folder_is_said(existing):
    """(in a folder the other user can reach: pytest's own are its owner's only)"""
    tmp_path = Path(tempfile.mkdtemp(prefix="first-evening-"))
    folder = tmp_path / "ro"
    folder.mkdir()
    if existing:
        (folder / "bot.db").write_bytes(b"")
        (folder / "bot.db").chmod(0o666)
    folder.chmod(0o555)
    tmp_path.chmod(0o755)
    env = env_for(tmp_path, DATABASE_PATH=str(folder / "bot.db"))
    done = subprocess.run([*as_another_user(), sys.executable, "-c", RUN_AGAINST, NOWHERE], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=60)
    folder.chmod(0o755)
    shutil.rmtree(tmp_path)
    says(done, 2, "DATABASE_PATH", "read-only")


@pytest.mark.parametrize(("url", "words"), [
    ("postgresql://bot:secret@db.example:fivefour/games", "malformed"),
    ("sqlite:///data/bot.db", "must be a PostgreSQL address"),
    ("mysql://bot@db.example/games", "must be a PostgreSQL address"),
])
@pytest.mark.slow
def test_a_database_url_that_cannot_work_is_said(tmp_path, url, words):
    done = bot_process(tmp_path, NOWHERE, DATABASE_URL=url)
    says(done, 2, "DATABASE_URL", words)
    assert "secret" not in done.stderr


@pytest.mark.slow
def test_postgresql_without_asyncpg_is_said(tmp_path):
    blocked = tmp_path / "blocked" / "asyncpg"
    blocked.mkdir(parents=True)
    (blocked / "__init__.py").write_text("raise ImportError('asyncpg is not installed here')\n")
    env = env_for(tmp_path, DATABASE_URL="postgresql://bot@127.0.0.1/games")
    env["PYTHONPATH"] = f"{blocked.parent}{os.pathsep}{ROOT}"
    done = subprocess.run([sys.executable, "-c", RUN_AGAINST, NOWHERE], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60)
    says(done, 2, "asyncpg is not installed", "pip install -e '.[postgresql]'")


@pytest.mark.slow
def test_a_postgresql_server_that_does_not_answer_is_waited_for_and_sigterm_stops_it(tmp_path):
    """The bot logs in, then waits for the database: each try says where (not the password) and
    how to stop; SIGTERM stops it, cleanly and soon."""
    discord = FakeDiscord(200)
    env = env_for(tmp_path, DATABASE_URL="postgresql://bot:secret@127.0.0.1:1/games")
    try:
        with Child([sys.executable, "-c", RUN_AGAINST, discord.base], cwd=tmp_path, env=env) as proc:
            waiting = proc.wait_for_line("does not answer", 30, stderr=True)[-1]
            assert "127.0.0.1:1/games" in waiting and "Ctrl+C or SIGTERM" in waiting, proc.stderr()
            assert "secret" not in waiting
            stopped_at = time.monotonic()
            proc.stop(signal.SIGTERM, 30)
            took = time.monotonic() - stopped_at
            err = proc.stderr()
    finally:
        discord.close()
    assert proc.returncode == 0, err
    assert "Traceback" not in err, err
    assert took < 5, f"SIGTERM took {took:.1f} s to stop a bot waiting for its database"


# ----- the first line, and the commands -----

async def started(tmp_path, caplog, **settings) -> list[logging.LogRecord]:
    bot = StorytellerBot(bot_settings(tmp_path / "bot.db", **settings), clock=ManualClock(), use_scheduler=False)
    env = simcord.Env(bot, shard_count=1)
    env.create_guild("Coven")
    with caplog.at_level(logging.INFO, logger="bot.client"):
        await env.start()
        try:
            await asyncio.wait_for(bot.recovered.wait(), 10)
            checked = getattr(bot, "_commands_checked", None)
            if checked is not None:
                await checked
        finally:
            await env.shutdown()
            await bot.close()
    return [r for r in caplog.records if r.name == "bot.client"]


async def test_the_first_line_says_servers_shards_and_database(tmp_path, caplog):
    records = await started(tmp_path, caplog)
    ready = [r.getMessage() for r in records if r.getMessage().startswith("ready as")]
    assert ready == [f"ready as TestBot in 1 server(s), shard(s) 0 of 1; database: the SQLite file "
                     f"{tmp_path / 'bot.db'}; 0 game timer(s) re-armed"]


async def test_commands_never_synced_are_warned_of_with_what_to_run(tmp_path, caplog):
    records = await started(tmp_path, caplog, sync_commands=False)
    warned = [r.getMessage() for r in records if r.levelno == logging.WARNING]
    assert len(warned) == 1 and "python -m bot sync" in warned[0] and "Ctrl+R" in warned[0]


async def test_synced_commands_are_not_warned_of(tmp_path, caplog):
    """With SYNC_COMMANDS the bot sends its tree itself: nothing to compare, nothing said."""
    records = await started(tmp_path, caplog, sync_commands=True)
    assert not [r for r in records if r.levelno >= logging.WARNING]


async def test_commands_that_differ_are_named(tmp_path, caplog):
    """Synced once, then the bot was upgraded: one command gone, one new."""
    bot = StorytellerBot(bot_settings(tmp_path / "bot.db", sync_commands=False), clock=ManualClock(),
                         use_scheduler=False)
    env = simcord.Env(bot, shard_count=1)
    await env.start()
    try:
        await bot.recovered.wait()
        await bot.sync_tree()
        bot.tree.remove_command("vote")
        bot.tree.command(name="newer", description="a command of a later version")(_noop)
        with caplog.at_level(logging.WARNING, logger="bot.client"):
            differ = await bot.check_commands()
    finally:
        await env.shutdown()
        await bot.close()
    assert sorted(differ) == ["newer", "vote"]
    assert "missing: newer" in caplog.text and "not the bot's any more: vote" in caplog.text


async def _noop(interaction) -> None:
    pass


@pytest.mark.slow
def test_help_names_every_command_and_each_exists(tmp_path):
    """``python -m bot --help`` lists the other commands; each one it names answers ``--help``."""
    shown = subprocess.run([sys.executable, "-m", "bot", "--help"], cwd=tmp_path, env=env_for(tmp_path),
                           capture_output=True, text=True, timeout=60)
    named = re.findall(r"^  python -m bot (\S+)", shown.stdout, re.M)
    assert sorted(named) == ["invite", "migrate-db", "sync"], shown.stdout
    for command in named:
        done = subprocess.run([sys.executable, "-m", "bot", command, "--help"], cwd=tmp_path,
                              env=env_for(tmp_path), capture_output=True, text=True, timeout=60)
        assert done.returncode == 0 and f"python -m bot {command}" in done.stdout, done.stderr
