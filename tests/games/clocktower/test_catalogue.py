"""The official catalogue: every record loads, every validation rule refuses its broken file, ids resolve."""

import json
import shutil
from pathlib import Path

import pytest

from games.clocktower import catalogue as cat_mod
from games.clocktower import characters as hrh_mod
from games.clocktower.catalogue import OFFICIAL, ClocktowerDataError, UnknownCharacter, load, load_from

#: per edition and team, how many records the official file has (its own count, written down once)
EDITION_TEAMS = {
    ("tb", "townsfolk"): 13, ("tb", "outsider"): 4, ("tb", "minion"): 4, ("tb", "demon"): 1,
    ("tb", "traveller"): 5,
    ("bmr", "townsfolk"): 13, ("bmr", "outsider"): 4, ("bmr", "minion"): 4, ("bmr", "demon"): 4,
    ("bmr", "traveller"): 5,
    ("snv", "townsfolk"): 13, ("snv", "outsider"): 4, ("snv", "minion"): 4, ("snv", "demon"): 4,
    ("snv", "traveller"): 5,
    ("carousel", "townsfolk"): 30, ("carousel", "outsider"): 11, ("carousel", "minion"): 15,
    ("carousel", "demon"): 10, ("carousel", "traveller"): 3, ("carousel", "fabled"): 2,
    ("fabled", "fabled"): 12, ("loric", "loric"): 11,
}


def raw(name):
    return json.loads((OFFICIAL / name).read_text(encoding="utf-8"))


def test_every_official_record_loads_as_the_file_has_it():
    cat = load()
    records = raw("roles.json")
    assert len(records) == len(cat.records) == 181
    for entry in records:
        record = cat.records[entry["id"]]
        assert (record.name, record.team, record.edition, record.ability, record.setup) == (
            entry["name"], entry["team"], entry["edition"], entry["ability"], entry["setup"])
        assert record.reminders == tuple(entry["reminders"])
        assert record.reminders_global == tuple(entry.get("remindersGlobal", ()))
        assert record.first_night_reminder == entry.get("firstNightReminder", "")
        assert record.other_night_reminder == entry.get("otherNightReminder", "")
        assert len(record.special) == len(entry.get("special", ()))
    found = {}
    for record in cat.records.values():
        found[(record.edition, record.team)] = found.get((record.edition, record.team), 0) + 1
    assert found == EDITION_TEAMS


def test_every_official_jinx_loads_between_two_known_characters():
    cat = load()
    lists = raw("jinxes.json")
    expected = {(entry["id"], j["id"], j["reason"]) for entry in lists for j in entry["jinx"]}
    assert len(cat.jinxes) == len(expected) == 131
    assert {(j.first, j.second, j.reason) for j in cat.jinxes} == expected
    assert all(j.first in cat.records and j.second in cat.records for j in cat.jinxes)
    # a pair is found from either side, and only when both are on the script
    assert [j.reason for j in cat.jinxes_among(["spy", "alchemist"])] == [
        j["reason"] for entry in lists if entry["id"] == "alchemist" for j in entry["jinx"] if j["id"] == "spy"]
    assert cat.jinxes_among(["spy", "imp"]) == ()


def test_the_sources_note_names_the_source_and_the_policy():
    note = (OFFICIAL / "SOURCES.md").read_text(encoding="utf-8")
    assert "ThePandemoniumInstitute/botc-release" in note and "3d6d930" in note
    assert "Community Created Content Policy" in note
    # the night sheet is the same file the reference copy (tests/games/clocktower/reference) holds
    reference = Path(__file__).parent / "reference" / "official-nightsheet.json"
    assert raw("nightsheet.json") == json.loads(reference.read_text(encoding="utf-8"))


# -- validation: one broken file per rule ----------------------------------------------------------

def _records(mutate):
    def apply(data):
        mutate(data)
        return data
    return ("roles.json", apply)


def _set(name, fn):
    def apply(data):
        fn(data)
        return data
    return (name, apply)


def _find(data, cid):
    return next(r for r in data if r["id"] == cid)


BROKEN = [
    ("an unknown field", _set("roles.json", lambda d: _find(d, "imp").update(flavour="x")),
     "imp (entry 124), flavour: extra inputs are not permitted"),
    ("setup as text (strict)", _set("roles.json", lambda d: _find(d, "imp").update(setup="false")),
     "valid boolean"),
    ("an unknown team", _set("roles.json", lambda d: _find(d, "imp").update(team="devil")), "team"),
    ("an unknown edition", _set("roles.json", lambda d: _find(d, "imp").update(edition="xyz")), "edition"),
    ("an empty ability", _set("roles.json", lambda d: _find(d, "imp").update(ability="")), "ability"),
    ("an id with an underscore", _set("roles.json", lambda d: _find(d, "imp").update(id="the_imp")),
     "lowercase letters and digits"),
    ("a marker's id", _set("roles.json", lambda d: _find(d, "knaves").update(id="dawn")), "night-order marker"),
    ("two records with one id", _set("roles.json", lambda d: _find(d, "knaves").update(id="imp")),
     "share the id 'imp'"),
    ("two records with one name", _set("roles.json", lambda d: _find(d, "knaves").update(name="Imp")),
     "share the name 'Imp'"),
    ("a Fabled on another team", _set("roles.json", lambda d: _find(d, "angel").update(team="townsfolk")),
     "angel is in the fabled edition but on the townsfolk team"),
    ("brackets without setup", _set("roles.json", lambda d: _find(d, "baron").update(setup=False)),
     "baron's ability has [square brackets]"),
    ("a jinx with an unknown character", _set("jinxes.json", lambda d: d[0]["jinx"][0].update(id="nobody")),
     "unknown character 'nobody'"),
    ("a jinx listed twice", _set("jinxes.json", lambda d: d.append(
        {"id": d[0]["jinx"][0]["id"], "jinx": [{"id": d[0]["id"], "reason": "again"}]})), "listed twice"),
    ("a jinx with itself", _set("jinxes.json", lambda d: d[0]["jinx"][0].update(id=d[0]["id"])),
     "jinxed with itself"),
    ("a jinx without a reason", _set("jinxes.json", lambda d: d[0]["jinx"][0].update(reason="")), "reason"),
    ("the sheet naming a stranger", _set("nightsheet.json", lambda d: d["firstNight"].insert(1, "nobody")),
     "unknown character 'nobody'"),
    ("the sheet naming someone twice", _set("nightsheet.json", lambda d: d["otherNight"].insert(1, "imp")),
     "names someone twice"),
    ("Minion Info on other nights", _set("nightsheet.json", lambda d: d["otherNight"].insert(1, "minioninfo")),
     "cannot have the marker 'minioninfo'"),
    ("a missing marker", _set("nightsheet.json", lambda d: d["firstNight"].remove("demoninfo")),
     "no 'demoninfo' marker"),
    ("not starting at dusk", _set("nightsheet.json", lambda d: d["firstNight"].insert(0, d["firstNight"].pop(1))),
     "must start at dusk"),
    ("waking a character with no reminder", _set("nightsheet.json", lambda d: d["firstNight"].insert(2, "imp")),
     "wakes imp, whose record has no reminder"),
    ("leaving out a character with a reminder", _set("nightsheet.json", lambda d: d["otherNight"].remove("imp")),
     "leaves out imp"),
    ("a set-up change for a stranger", _set("setup.json", lambda d: d["changes"].update(nobody={"text": "x"})),
     "unknown character 'nobody'"),
    ("a setup: true record with no change", _set("setup.json", lambda d: d["changes"].pop("xaan")),
     "xaan change the set-up (setup: true) but have no entry"),
    ("requiring a stranger", _set("setup.json", lambda d: d["changes"]["choirboy"].update(requires=["queen"])),
     "requires unknown character 'queen'"),
    ("an Outsider change listed twice", _set("setup.json", lambda d: d["changes"]["baron"].update(outsiders=[2, 2])),
     "each allowed change once"),
    ("an Outsider change that is neither a list nor any",
     _set("setup.json", lambda d: d["changes"]["baron"].update(outsiders="some")), "outsiders"),
    ("copies without 0", _set("setup.json", lambda d: d["changes"]["villageidiot"].update(copies=[1, 2])),
     "copies must include 0"),
    ("an unknown false card", _set("setup.json", lambda d: d["changes"]["drunk"].update(false_card="minion")),
     "false_card"),
    ("an unknown set-up field", _set("setup.json", lambda d: d["changes"]["baron"].update(extra_outsiders=2)),
     "extra"),
    ("a count row that does not add up", _set("counts.json", lambda d: d["counts"][0].update(townsfolk=4)),
     "the row for 5 players adds up to 6"),
    ("a missing count row", _set("counts.json", lambda d: d["counts"].pop(3)), "every player count"),
    ("a count row twice", _set("counts.json", lambda d: d["counts"].append(dict(d["counts"][0]))),
     "two rows for 5 players"),
]


@pytest.fixture
def folder(tmp_path):
    shutil.copytree(OFFICIAL, tmp_path / "official")
    return tmp_path / "official"


@pytest.mark.parametrize(("why", "change", "words"), BROKEN, ids=[b[0] for b in BROKEN])
def test_a_broken_file_is_refused_in_a_sentence(folder, why, change, words):
    name, mutate = change
    path = folder / name
    path.write_text(json.dumps(mutate(json.loads(path.read_text(encoding="utf-8")))), encoding="utf-8")
    with pytest.raises(ClocktowerDataError) as err:
        load_from(folder)
    assert name in str(err.value)
    assert words.lower() in str(err.value).lower()


def test_the_shipped_copy_loads_from_a_folder(folder):
    assert load_from(folder).records == load().records


def test_a_file_that_is_not_json_or_missing_is_refused(folder):
    (folder / "roles.json").write_text("[{", encoding="utf-8")
    with pytest.raises(ClocktowerDataError, match="roles.json"):
        load_from(folder)
    (folder / "counts.json").unlink()
    shutil.copy(OFFICIAL / "roles.json", folder / "roles.json")
    with pytest.raises(ClocktowerDataError, match="counts.json cannot be read"):
        load_from(folder)


# -- ids ----------------------------------------------------------------------------------------------

def test_every_official_id_and_name_round_trips():
    cat = load()
    for record in cat.records.values():
        assert cat.resolve(record.id) is record
        assert cat.resolve(record.name) is record
        words = record.name.lower().replace("'", "").replace("-", " ").split()
        for joiner in ("_", "-", " "):
            assert cat.resolve(joiner.join(words)) is record, joiner.join(words)
            assert cat.resolve(joiner.join(words).upper()) is record


@pytest.mark.parametrize(("spelling", "official"), [
    ("scarlet_woman", "scarletwoman"), ("no_dashii", "nodashii"), ("bone_collector", "bonecollector"),
    ("Scarlet Woman", "scarletwoman"), ("lil_monsta", "lilmonsta"), ("Lil' Monsta", "lilmonsta"),
    ("pit-hag", "pithag"), ("Pit-Hag", "pithag"), ("al-hadikhia", "alhadikhia"), ("hells_librarian", "hellslibrarian"),
    ("Hell's Librarian", "hellslibrarian"), ("fang_gu", "fanggu"), ("evil_twin", "eviltwin"),
    ("devils_advocate", "devilsadvocate"), ("spirit_of_ivory", "spiritofivory"), ("lord_of_typhon", "lordoftyphon"),
    ("waitress", "harlot"), ("Waitress", "harlot"),
])
def test_older_spellings_read_as_the_official_id(spelling, official):
    assert load().official_id(spelling) == official


def test_an_unknown_id_is_refused_in_words():
    cat = load()
    assert cat.resolve("actor") is None
    assert "actor" not in cat
    with pytest.raises(UnknownCharacter, match="'actor' is not an official character"):
        cat["actor"]


def test_every_hrh_character_is_an_official_one_of_the_same_team():
    cat, hrh = load(), hrh_mod.load()
    for character in hrh.characters.values():
        record = cat.resolve(character.id)
        assert record is not None, character.id
        assert record.team == character.team, character.id
    assert cat.aliases == {"waitress": "harlot"}
    # and the official id reads back as the HRH character in HRH's own data
    assert hrh.resolve("harlot").id == "waitress"


def test_every_character_that_changes_the_setup_has_a_change():
    cat = load()
    marked = {r.id for r in cat.records.values() if r.setup}
    assert marked <= set(cat.setup)
    assert set(cat.setup) - marked == {"lunatic"}  # its false card; the record says setup: false
    bracketed = {r.id for r in cat.records.values() if cat_mod.BRACKETS.search(r.ability)}
    assert bracketed <= marked
    assert {"baron", "godfather", "fanggu", "vigormortis", "balloonist", "legion", "atheist", "kazali",
            "villageidiot", "huntsman", "choirboy", "lilmonsta", "summoner", "xaan", "hermit",
            "bountyhunter", "lordoftyphon", "marionette", "drunk", "sentinel"} <= set(cat.setup)
