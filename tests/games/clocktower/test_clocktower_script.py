"""Clocktower scripts: the built-in script, importing the official format (and refusing), export, the CLI."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from games.__main__ import main
from games.clocktower import (
    ScriptError,
    UnknownCharacters,
    builtin_script,
    load,
    load_script,
    parse_script,
    script_to_json,
)
from games.engine import GameError

ROOT = Path(__file__).resolve().parents[3]
STOWED_AWAY = Path(__file__).parent / "reference" / "example-official-script-stowedaway.json"

HRH_IMPORT = [
    {"id": "_meta", "name": "Small Princess", "author": "Tester",
     "bootlegger": ["The Storyteller may wear a crown."]},
    "washerwoman", "High_Priestess", {"id": "empath"}, "KNIGHT", "virgin",
    "recluse", "lunatic",
    "spy", "marionette",
    "po", "lleech",
    "Harlot",
    {"id": "thief", "name": "Thief", "team": "traveler",
     "ability": "Each night, choose a player (not yourself): their vote counts negatively tomorrow."},
    {"id": "scapegoat", "name": "Scapegoat", "team": "traveller",
     "ability": "If a player of your alignment is executed, you might be executed instead."},
    "djinn",
]


def test_the_builtin_script_has_the_whole_register():
    script = builtin_script()
    assert script.name == "Her Royal Highness Register"
    counts = {team: len(ids) for team, ids in script.characters.items()}
    assert counts == {"townsfolk": 13, "outsider": 4, "minion": 4, "demon": 3, "traveller": 5, "fabled": 3, "loric": 0}
    assert script.first_night == load().night_order.first_night
    assert script.other_night == load().night_order.other_night
    assert len(script.jinxes) == 4
    assert "waitress" in script.characters["traveller"]


def test_the_example_official_script_imports_with_its_homebrew_characters():
    script = parse_script(STOWED_AWAY.read_text(encoding="utf-8"))
    assert script.rules == "official"
    assert {"grandmother", "devilsadvocate", "vigormortis", "imp"} <= set(script.all_ids())
    homebrew = {c.id: c for c in script.homebrew}
    assert homebrew["stowedawaybonecollector"].name == "Bone Collector"
    assert homebrew["stowedawaybonecollector"].team == "townsfolk"  # the script's team, not the Traveller's
    assert "stowedawaybonecollector" in script.characters["townsfolk"]
    # a homebrew character that wakes is on the night it gives a number for, near that place of the sheet
    assert "stowedawayapprentice" in script.first_night and "stowedawayapprentice" not in script.other_night
    assert "stowedawaybonecollector" in script.other_night
    assert script.first_night[0] == "dusk"


def test_an_id_neither_official_nor_described_is_refused_naming_it():
    doc = ["washerwoman", "chef", "imp", "spy", "gizmo", {"id": "Whatsit"}]
    with pytest.raises(UnknownCharacters) as caught:
        load_script(doc)
    message = str(caught.value)
    assert isinstance(caught.value, GameError)
    assert "not official and that it does not describe: gizmo, whatsit." in message
    assert "chef" not in message


def test_older_spellings_read_as_the_official_ids():
    script = load_script(["Scarlet_Woman", "no_dashii", "bone_collector", "pit-hag", "chef", "imp"])
    assert script.rules == "official"
    assert script.all_ids() == ("chef", "scarletwoman", "pithag", "nodashii", "imp", "bonecollector")


def test_a_script_of_hrh_ids_imports():
    script = load_script(HRH_IMPORT)
    assert script.name == "Small Princess" and script.author == "Tester"
    assert script.bootlegger == ("The Storyteller may wear a crown.",)
    assert script.characters == {
        "townsfolk": ("washerwoman", "highpriestess", "empath", "knight", "virgin"),
        "outsider": ("recluse", "lunatic"), "minion": ("spy", "marionette"), "demon": ("po", "lleech"),
        "traveller": ("waitress", "thief", "scapegoat"), "fabled": ("djinn",), "loric": (),
    }
    assert not script.custom_night_order
    assert script.first_night == ("dusk", "thief", "minioninfo", "demoninfo", "lunatic", "marionette",
                                  "lleech", "washerwoman", "empath", "knight", "spy", "highpriestess", "dawn")
    assert script.other_night == ("dusk", "thief", "waitress", "lunatic", "po", "lleech", "empath", "spy",
                                  "highpriestess", "dawn")
    assert [j.characters for j in script.jinxes] == [("virgin", "lleech")]


def test_a_meta_night_order_is_used():
    doc = json.loads(json.dumps(HRH_IMPORT))
    doc[0]["firstNight"] = ["dusk", "minioninfo", "demoninfo", "Spy", "washerwoman", "dawn"]
    script = load_script(doc)
    assert script.custom_night_order
    assert script.first_night == ("dusk", "minioninfo", "demoninfo", "spy", "washerwoman", "dawn")
    assert script.other_night[:3] == ("dusk", "thief", "waitress")  # not given: the rulebook's, restricted


def test_a_meta_night_order_naming_an_absent_character_is_refused():
    doc = json.loads(json.dumps(HRH_IMPORT))
    doc[0]["otherNight"] = ["dusk", "pukka", "dawn"]
    with pytest.raises(ScriptError, match="not on it: pukka"):
        load_script(doc)


@pytest.mark.parametrize(("text", "words"), [
    ("{not json", "not valid JSON"),
    ('{"id": "_meta", "name": "x"}', "must be a JSON list of characters, but this file holds an object"),
    ('["washerwoman", "empath", 12, "spy", "po"]', "Entry 3 of the script is a number"),
    ('["washerwoman", "empath", {"id": 7}, "spy", "po"]', "Entry 3 of the script has an id that is a number"),
    ('["washerwoman", "empath", {"name": "X"}, "spy", "po"]', "without an 'id'"),
    ('["washerwoman", "spy", "po"]', "between 5 and 201 entries"),
    ('["washerwoman", "empath", "spy", "po", {"id": "_meta", "name": 3}]', "'name' that is a number"),
    ('["washerwoman", "empath", "spy", "po", {"id": "knight", "name": "Knight"}]', "missing 'team', 'ability'"),
    ('["washerwoman", "empath", "spy", "po", {"id": "knight", "name": "Knight", "team": "townsfolk",'
     ' "ability": "x", "colour": "red"}]', "does not allow: 'colour'"),
    ('["washerwoman", "empath", "spy", "po", {"id": "knight", "name": "Knight", "team": "hero",'
     ' "ability": "x"}]', "unknown team 'hero'"),
    ('["washerwoman", "empath", "spy", "po", {"id": "knight", "name": "Knight", "team": "minion",'
     ' "ability": "x"}]', "makes the Knight a Minion, but the Knight is a Townsfolk"),
    ('["chef", "empath", "spy", "imp", {"id": "imp", "name": "Imp", "team": "townsfolk",'
     ' "ability": "x"}]', "give a homebrew character an id of its own"),
])
def test_malformed_scripts_are_refused_in_words(text, words):
    with pytest.raises(ScriptError) as caught:
        parse_script(text)
    assert words in str(caught.value)
    assert str(caught.value).endswith(".")


def test_export_then_import_gives_the_same_script():
    for script in (builtin_script(), load_script(HRH_IMPORT)):
        exported = script_to_json(script)
        assert exported[0]["id"] == "_meta"
        assert "harlot" in exported and "waitress" not in exported  # the official tools' id
        assert parse_script(json.dumps(exported)) == script
    doc = json.loads(json.dumps(HRH_IMPORT))
    doc[0]["otherNight"] = ["dusk", "harlot", "po", "dawn"]
    custom = load_script(doc)
    exported = script_to_json(custom)
    assert exported[0]["otherNight"] == ["dusk", "harlot", "po", "dawn"]
    assert load_script(exported) == custom


def test_cli_prints_the_parsed_script(tmp_path, capsys):
    path = tmp_path / "s.json"
    path.write_text(json.dumps(HRH_IMPORT), encoding="utf-8")
    assert main(["clocktower", "script", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["name"] == "Small Princess"
    assert out["characters"]["traveller"] == ["waitress", "thief", "scapegoat"]
    assert out["jinxes"] == [{"characters": ["virgin", "lleech"],
                              "text": "The Lleech\u2019s host does not register as a Townsfolk to the Virgin."}]
    assert out["bootlegger"] == ["The Storyteller may wear a crown."]
    assert out["first_night"][0] == "dusk" and out["other_night"][-1] == "dawn"


def test_cli_refuses_with_the_reason(tmp_path, capsys):
    assert main(["clocktower", "script", str(STOWED_AWAY)]) == 0
    assert '"stowedawaybonecollector"' in capsys.readouterr().out
    strange = tmp_path / "strange.json"
    strange.write_text(json.dumps(["chef", "empath", "imp", "spy", "gizmo"]), encoding="utf-8")
    assert main(["clocktower", "script", str(strange)]) == 2
    err = capsys.readouterr().err
    assert "not official and that it does not describe: gizmo" in err
    bad = tmp_path / "bad.json"
    bad.write_bytes(b"\xff\xfe not text")
    assert main(["clocktower", "script", str(bad)]) == 2
    assert "not valid JSON" in capsys.readouterr().err
    assert main(["clocktower", "script", str(tmp_path / "missing.json")]) == 2


@pytest.mark.slow
def test_cli_from_a_real_subprocess():
    done = subprocess.run([sys.executable, "-m", "games", "clocktower", "script", "-"], cwd=ROOT,
                          input=json.dumps(script_to_json(builtin_script())), capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["name"] == "Her Royal Highness Register"
    done = subprocess.run([sys.executable, "-m", "games", "clocktower", "script", "-"], cwd=ROOT,
                          input="[1, 2, 3, 4, 5]", capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    assert "Entry 1 of the script is a number" in done.stderr
