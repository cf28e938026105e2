"""LOG_FORMAT=json: one JSON object per line, carrying the game, server, shard and action of the
work it was logged in; and a bad LOG_FORMAT refused in words."""

import io
import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest
from support.actors import ANN, BO, HOST

from bot import logs
from bot.__main__ import main
from bot.config import Settings
from bot.service import NotSaved

ROOT = Path(__file__).resolve().parents[2]
GUILD = 81384788765712384  # a real-looking server id: its shard of 4 is (id >> 22) % 4


@pytest.fixture
def json_lines():
    """Every line logged under ``bot`` during the test, as the JSON formatter writes it."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logs.JsonFormatter())
    logger = logging.getLogger("bot")
    logger.addHandler(handler)
    logs.set_shard_count(4)
    try:
        yield lambda: [json.loads(line) for line in stream.getvalue().splitlines()]
    finally:
        logger.removeHandler(handler)
        logs.set_shard_count(None)


async def test_a_line_logged_inside_an_action_carries_its_game_and_action(service, json_lines):
    row = await service.new_game(kind="tally", guild_id=GUILD, channel_id=50, host=HOST,
                                 options_text="vote_seconds=60 rounds=2")
    for player in (ANN, BO):
        await service.join(row.id, player)
    await service.start(row.id, HOST, forced={"secrets": {"1": "owl", "2": "cat", "3": "owl"}})
    await service.store.db.execute_fetchall("PRAGMA query_only = ON")  # the next write is refused
    with pytest.raises(NotSaved):
        await service.act(row.id, 2, {"type": "vote", "player": "2", "target": "red", "phase_seq": 1})
    logging.getLogger("bot.service").warning("after the action")

    refused, after = json_lines()
    assert refused["message"].startswith("database write refused")
    assert refused["level"] == "WARNING" and refused["logger"] == "bot.service"
    assert refused["game_id"] == row.id and refused["action"] == "vote"
    assert refused["guild_id"] == GUILD and refused["shard_id"] == (GUILD >> 22) % 4
    assert refused["time"].endswith("+00:00")
    # the context ends with the action: a line after it names no game
    assert after["message"] == "after the action" and not {"game_id", "guild_id", "action"} & set(after)


def test_exc_info_is_one_string_in_the_line(json_lines):
    log = logging.getLogger("bot.test")
    with logs.log_context(game_id=3, action="deliver"):
        try:
            raise ValueError("the disk said no")
        except ValueError:
            log.exception("sending failed")
    (line,) = json_lines()
    assert line["game_id"] == 3 and line["action"] == "deliver" and "guild_id" not in line
    assert isinstance(line["exc_info"], str)
    assert "Traceback" in line["exc_info"] and "ValueError: the disk said no" in line["exc_info"]


def test_setup_puts_the_json_formatter_on_standard_error(monkeypatch):
    root = logging.getLogger()
    monkeypatch.setattr(root, "handlers", [])  # as at a fresh start (restored after the test)
    monkeypatch.setattr(root, "level", root.level)
    logs.setup(Settings(_env_file=None, log_format="JSON", log_level="warning"))
    (handler,) = root.handlers
    assert isinstance(handler.formatter, logs.JsonFormatter) and root.level == logging.WARNING
    root.handlers = []
    logs.setup(Settings(_env_file=None))
    assert type(root.handlers[0].formatter) is logging.Formatter  # text, the default


def test_a_bad_log_format_is_refused_in_words(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)  # no .env here
    monkeypatch.setenv("LOG_FORMAT", "xml")
    assert main(["--offline"]) == 2
    err = capsys.readouterr().err
    assert "The settings in .env are not valid" in err
    assert "LOG_FORMAT must be 'text' or 'json' (not 'xml')." in err
    assert "Traceback" not in err



@pytest.mark.slow
def test_a_bad_log_level_is_refused_in_words(tmp_path):
    """LOG_LEVEL=verbose: refused with the settings' sentence, not a traceback from logging (a
    real process: under pytest the root logger has handlers already, and logging checks no level)."""
    env = {**os.environ, "LOG_LEVEL": "verbose", "DISCORD_TOKEN": "", "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2, done.stderr
    assert "The settings in .env are not valid" in done.stderr
    assert "LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL (not 'verbose')." in done.stderr
    assert "Traceback" not in done.stderr
    assert Settings(_env_file=None, log_level=" debug ").log_level == "DEBUG"  # any case, as before


async def test_game_scope_finds_the_game_and_action_passed_either_way():
    """The decorator reads ``game_id`` and ``action`` by position or by keyword (it no longer binds
    the whole signature on every call), and a method with neither carries no game."""
    seen = []

    class Worker:
        @logs.game_scope
        async def apply(self, game_id: int, action: dict | None = None, note: str = "") -> None:
            seen.append(logs.current())

        @logs.game_scope
        async def other(self, note: str) -> None:
            seen.append(logs.current())

    worker = Worker()
    await worker.apply(7, {"type": "vote"})
    await worker.apply(action={"type": "pass"}, game_id=8)
    await worker.apply(9)
    await worker.other("x")
    assert seen == [{"game_id": 7, "action": "vote"}, {"game_id": 8, "action": "pass"}, {"game_id": 9}, {}]
