"""Every setting refused in words (issue 36, item 14): a bad value in .env or the environment gets
one sentence naming the setting as it is spelled there, never pydantic's report and its link."""

import typing

import pytest
from annotated_types import Ge, Gt, Le, Lt
from pydantic import ValidationError

from bot.__main__ import main
from bot.config import Settings, problems

#: settings where any text is a value (a token, a path, an address)
FREE_TEXT = {"discord_token", "database_path", "database_url", "health_host"}


def bad_values(name: str) -> list[str]:
    """Values the setting ``name`` refuses, from its type and its bounds."""
    field = Settings.model_fields[name]
    kind = field.annotation
    args = typing.get_args(kind)
    if typing.get_origin(kind) is typing.Literal:
        return ["nonsense"]
    if name == "log_level":
        return ["verbose"]
    if name == "shard_ids":
        return ["a,b"]
    if kind is bool:
        return ["maybe"]
    number = next((t for t in (int, float) if kind is t or t in args), None)
    assert number is not None, f"a bad value of {name} ({kind}) is not known to this test: add it"
    values = ["abc"]
    if number is int:
        values.append("1.5")
    for bound in field.metadata:
        if isinstance(bound, Ge):
            values.append(str(bound.ge - 1))
        elif isinstance(bound, Gt):
            values.append(str(bound.gt))
        elif isinstance(bound, Le):
            values.append(str(bound.le + 1))
        elif isinstance(bound, Lt):
            values.append(str(bound.lt))
    return values


CASES = [(name, value) for name in Settings.model_fields if name not in FREE_TEXT for value in bad_values(name)]


@pytest.mark.parametrize(("name", "value"), CASES)
def test_every_bad_setting_is_one_sentence_in_words(name, value):
    with pytest.raises(ValidationError) as caught:
        Settings(_env_file=None, **{name: value})
    [sentence] = problems(caught.value)
    assert sentence.startswith(name.upper() + " "), sentence
    assert sentence.endswith(".") and "\n" not in sentence
    assert repr(value) in sentence  # what was given, to find it in .env
    for jargon in ("pydantic", "http", "type=", "Input should", "Value error", "input_value"):
        assert jargon not in sentence, sentence


def test_every_setting_but_free_text_is_checked():
    assert {name for name, _ in CASES} | FREE_TEXT == set(Settings.model_fields)


def test_the_bot_says_it_in_words_and_stops(tmp_path, monkeypatch, capsys):
    """``LOG_LEVEL=verbose`` and ``SWEEP_SECONDS=1`` in .env: one sentence each, exit 2."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".env").write_text("LOG_LEVEL=verbose\nSWEEP_SECONDS=1\n")
    assert main([]) == 2
    err = capsys.readouterr().err
    assert err.splitlines() == [
        "The settings in .env are not valid:",
        "  LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL (not 'verbose').",
        "  SWEEP_SECONDS must be at least 5 (not '1').",
    ]


def test_a_rule_across_settings_is_its_own_sentence():
    with pytest.raises(ValidationError) as caught:
        Settings(_env_file=None, shard_count=2, shard_ids="5")
    assert problems(caught.value) == ["SHARD_IDS must be numbers from 0 to 1 (SHARD_COUNT is 2)."]
