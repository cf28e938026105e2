"""``.env.example`` is what an admin copies first (README, Quickstart): copied as it is, it must be
settings the bot accepts, and it must name every setting the bot has, and no other."""

from __future__ import annotations

import re
from pathlib import Path

from bot.config import Settings

EXAMPLE = Path(__file__).resolve().parents[2] / ".env.example"
#: ``KEY=value`` lines, and the ``# KEY=value`` lines that show a setting left off
SETTING = re.compile(r"^#?\s*([A-Z][A-Z0-9_]*)=(.*)$")


def example_lines() -> dict[str, str]:
    found = {}
    for line in EXAMPLE.read_text().splitlines():
        match = SETTING.match(line.strip())
        if match:
            found[match.group(1)] = match.group(2)
    return found


def test_the_example_copied_as_it_is_is_accepted(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for key in Settings.model_fields:
        monkeypatch.delenv(key.upper(), raising=False)
    (tmp_path / ".env").write_text(EXAMPLE.read_text())
    settings = Settings()
    assert settings.dev_guild_id is None and settings.shard_count is None and settings.discord_token == ""


def test_the_example_names_every_setting_and_no_other():
    named = {key.lower() for key in example_lines()}
    assert named == set(Settings.model_fields)


def test_an_empty_number_is_unset_and_a_wrong_one_is_refused_in_words():
    assert Settings(_env_file=None, dev_guild_id="", health_port=" ").health_port is None
    try:
        Settings(_env_file=None, dev_guild_id="my server")
    except ValueError as exc:
        assert "dev_guild_id" in str(exc)
    else:
        raise AssertionError("a server id that is not a number was accepted")
