"""A deeply nested script file (a "JSON bomb" under the size limit) is refused in words like any
other malformed file, not with a RecursionError from the JSON parser."""

import json

import pytest

from games.__main__ import main
from games.clocktower import ScriptError, parse_script
from games.clocktower.script import MAX_DEPTH

DEEP = 100_000
SCRIPT = ["washerwoman", "empath", "spy", "po"]


@pytest.mark.parametrize("text", [
    "[" * DEEP + "]" * DEEP,
    '{"a":' * DEEP + "1" + "}" * DEEP,
    ("[" * DEEP + "]" * DEEP).encode(),  # as the bot reads an attachment
    ("[" * DEEP + "]" * DEEP).encode("utf-16"),
    '["washerwoman", "empath", "spy", "po", {"id": "_meta", "name": "x", "z": ' + "[" * DEEP,  # cut short
])
def test_a_json_bomb_is_refused_in_words(text):
    with pytest.raises(ScriptError) as caught:
        parse_script(text)
    assert f"more than {MAX_DEPTH} deep" in str(caught.value) and str(caught.value).endswith(".")


def nested_meta(levels: int) -> str:
    """A script whose ``_meta`` carries an extra field nested so the file is ``levels`` deep."""
    inner = levels - 2  # the script's list and the _meta object
    return json.dumps([*SCRIPT, {"id": "_meta", "name": "x", "z": json.loads("[" * inner + "]" * inner)}])


def test_the_limit_counts_lists_and_objects_not_brackets_in_text():
    assert parse_script(nested_meta(MAX_DEPTH)).name == "x"
    with pytest.raises(ScriptError, match=f"more than {MAX_DEPTH} deep"):
        parse_script(nested_meta(MAX_DEPTH + 1))
    rule = 'Say "[[[[" ' + "[" * 40 + '\\" {{{{'  # brackets and an escaped quote inside a text
    text = json.dumps([*SCRIPT, {"id": "_meta", "name": "x", "bootlegger": [rule]}])
    assert parse_script(text).bootlegger == (rule,)


def test_the_command_line_refuses_a_bomb_in_words(tmp_path, capsys):
    path = tmp_path / "bomb.json"
    path.write_text("[" * DEEP + "]" * DEEP)
    assert main(["clocktower", "script", str(path)]) == 2
    assert f"more than {MAX_DEPTH} deep" in capsys.readouterr().err
