"""A slash command typed as text on the offline table (``bot/offline/typed.py``), read against a
command list shaped as simcord's catalog gives it: options in order, by name, or a mix; what
cannot be typed is answered with how."""

import pytest

from bot.offline.typed import NotACommand, typed_command


def option(name, kind="string", required=False, choices=()):
    return {"name": name, "type": kind, "required": required, "choices": [{"name": c, "value": c} for c in choices]}


GAME_NEW = {"path": ["game", "new"], "options": [
    option("kind", required=True, choices=("ritual", "cauldron")), option("options"),
    option("min_players", "integer"), option("max_players", "integer"), option("voice", "channel")]}
VOTE = {"path": ["vote"], "options": [option("target", "user", required=True)]}
ENTRIES = [GAME_NEW, VOTE]


@pytest.mark.parametrize("typed,options", [
    ("/game new ritual", {"kind": "ritual"}),
    ("/game new ritual vote_seconds=50 rounds=1", {"kind": "ritual", "options": "vote_seconds=50 rounds=1"}),
    ("/game new ritual options:rounds=2", {"kind": "ritual", "options": "rounds=2"}),
    ("/game new ritual options:rounds=2 min_players:3", {"kind": "ritual", "options": "rounds=2", "min_players": 3}),
    ("/game new kind:cauldron options:night_quiet=true max_players:6",
     {"kind": "cauldron", "options": "night_quiet=true", "max_players": 6}),
])
def test_options_in_order_by_name_or_both(typed, options):
    assert typed_command(typed, ENTRIES).options == options


def test_plain_chat_is_no_command():
    assert typed_command("hello /game", ENTRIES) is None


@pytest.mark.parametrize("typed,words", [
    ("/game new", "type /game new kind:…"),
    ("/vote", "pick /vote from the list"),  # a player is picked, not typed
    ("/game new dragons", "kind is one of ritual, cauldron"),
    ("/game new ritual min_players:many", "min_players is a number"),
])
def test_what_cannot_run_is_answered_with_how(typed, words):
    with pytest.raises(NotACommand) as refused:
        typed_command(typed, ENTRIES)
    assert words in str(refused.value)
