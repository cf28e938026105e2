"""Clocktower data: the characters, night order and jinxes load and match the rulebook; bad data is refused."""

import json
import shutil
from pathlib import Path

import pytest

from games.clocktower import characters as ct
from games.engine import DataError

#: copies of ../shared/data/clocktower (SOURCES.md says where each came from) and of the rulebook
REFERENCE = Path(__file__).parent / "reference"

FIRST_NIGHT = [
    "dusk", "apprentice", "thief",  # Travellers, placed as the official night sheet does
    "minioninfo", "magician", "demoninfo", "lunatic", "marionette", "lleech", "pukka",
    "washerwoman", "empath", "knight", "shugenja", "spy", "highpriestess", "mathematician", "dawn",
]
OTHER_NIGHT = [
    "dusk", "thief", "waitress",  # Travellers, placed as the official night sheet does
    "lunatic", "pukka", "po", "lleech", "ravenkeeper", "empath", "undertaker", "juggler", "spy",
    "highpriestess", "mathematician", "dawn",
]
#: a few abilities, as the rulebook's tables print them
RULEBOOK_ABILITIES = {
    "highpriestess": "Each night, learn which player the Storyteller thinks you should talk to most.",
    "lunatic": "You think you are the Demon, but you are not. The Demon knows who you are & who you choose at night.",
    "baron": "There are extra Outsiders in play. [+2 Outsiders]",
    "mathematician": "Each night, you learn how many players\u2019 abilities worked abnormally (since dawn) "
                     "due to another character\u2019s ability.",
    "waitress": "Each night*, choose a living player: if they agree, you learn their character, "
                "but you both might die.",
    "fiddler": "Once per game, at night, the Demon secretly chooses a player of an opposing alignment; "
               "All players then vote which of these two wins the game.",
}


def reference(name):
    return json.loads((REFERENCE / name).read_text(encoding="utf-8"))


def test_counts_by_team():
    data = ct.load()
    counts = {team: len(data.by_team(team)) for team in ct.TEAMS}
    assert counts == {"townsfolk": 13, "outsider": 4, "minion": 4, "demon": 3, "traveller": 5, "fabled": 3, "loric": 0}
    assert len(data.characters) == 32


def test_every_official_character_is_present_with_its_team():
    data = ct.load()
    for record in reference("official-roles-hrh.json"):
        character = data.resolve(record["id"])
        assert character is not None, record["id"]
        assert character.team == record["team"], record["id"]
    assert data.resolve("harlot").id == "waitress"
    assert data["High Priestess"].id == "highpriestess"
    assert "hellslibrarian" in data


def test_abilities_are_the_rulebooks_text():
    data = ct.load()
    rulebook = (REFERENCE / "clocktower-her-royal-highness.md").read_text(encoding="utf-8")
    for cid, text in RULEBOOK_ABILITIES.items():
        assert data[cid].ability == text
    for character in data.characters.values():
        assert character.ability in rulebook, character.id
        assert character.name


def test_setup_modifiers_and_false_cards():
    data = ct.load()
    assert data["baron"].setup.outsiders == 2
    assert data["marionette"].setup.neighbours == "demon"
    assert data["marionette"].setup.or_neighbours == ("recluse",)
    assert {c.id: c.false_card for c in data.characters.values() if c.false_card} == {
        "drunk": "townsfolk", "lunatic": "demon", "marionette": "good"}


def test_night_orders_are_the_rulebooks_tables():
    order = ct.load().night_order
    assert list(order.first_night) == FIRST_NIGHT
    assert list(order.other_night) == OTHER_NIGHT
    assert {"apprentice", "thief", "waitress"} <= set(order.notes)


def test_jinxes_are_the_djinns_list():
    jinxes = ct.load().jinxes
    assert [j.characters for j in jinxes] == [
        ("mathematician", "lunatic"), ("spy", "magician"), ("spy", "magician", "marionette"), ("virgin", "lleech")]
    assert jinxes[3].text == "The Lleech\u2019s host does not register as a Townsfolk to the Virgin."
    assert ct.load().jinxes_among(frozenset({"spy", "magician"})) == (jinxes[1],)


@pytest.fixture
def copy(tmp_path):
    folder = tmp_path / "data"
    shutil.copytree(ct.DATA, folder)

    def edit(name, change):
        path = folder / name
        raw = json.loads(path.read_text(encoding="utf-8"))
        change(raw)
        path.write_text(json.dumps(raw), encoding="utf-8")
        return folder
    return edit


def _refused(folder, words):
    with pytest.raises(ct.ClocktowerDataError) as caught:
        ct.load_from(folder)
    assert isinstance(caught.value, DataError)
    assert words in str(caught.value)


def test_the_shipped_copy_loads(copy):
    assert ct.load_from(copy("jinxes.json", lambda raw: None)).characters.keys() == ct.load().characters.keys()


def test_a_duplicate_id_is_refused(copy):
    _refused(copy("characters.json", lambda raw: raw["characters"][1].update(id="washerwoman")), "share the id")


def test_a_badly_formed_id_is_refused(copy):
    _refused(copy("characters.json", lambda raw: raw["characters"][0].update(id="Wash-Woman")), "lowercase")


def test_a_wrong_team_count_is_refused(copy):
    _refused(copy("characters.json", lambda raw: raw["characters"][0].update(team="outsider")), "13 townsfolk")


def test_an_unknown_team_is_refused(copy):
    _refused(copy("characters.json", lambda raw: raw["characters"][0].update(team="hero")), "bad data")


def test_an_unknown_night_order_id_is_refused(copy):
    _refused(copy("night_order.json", lambda raw: raw["other_night"].insert(2, "imp")), "unknown character 'imp'")


def test_a_missing_marker_is_refused(copy):
    _refused(copy("night_order.json", lambda raw: raw["first_night"].remove("demoninfo")), "'demoninfo' exactly once")


def test_a_marker_in_the_wrong_list_is_refused(copy):
    _refused(copy("night_order.json", lambda raw: raw["other_night"].insert(3, "minioninfo")), "cannot have")


def test_an_unknown_jinx_character_is_refused(copy):
    _refused(copy("jinxes.json", lambda raw: raw["jinxes"][0]["characters"].append("imp")), "unknown character 'imp'")


def test_a_file_that_is_not_json_is_refused(tmp_path):
    shutil.copytree(ct.DATA, tmp_path / "data")
    (tmp_path / "data" / "jinxes.json").write_text("{not json")
    _refused(tmp_path / "data", "cannot read data/jinxes.json")
