"""The script as a player reads it (``/game script``), pure: the characters by type with their
abilities, the Travellers and Fabled in play only, the jinxes among the script's characters, the
night order by name, and nothing that depends on who holds which character."""

import json

from support.clocktower_pure import GAME, act, new_game, to_day

from games.clocktower import builtin_script, load, parse_script
from games.clocktower.script_text import plain, script_sheet, sheet_of_state

CHARS = load()


def section(sheet, title):
    return next(s for s in sheet.sections if s.title == title or s.title.startswith(f"{title} ("))


def all_text(sheet):
    return "\n".join([sheet.title] + [s.title + "\n" + "\n".join(s.lines) for s in sheet.sections])


def test_the_built_in_script_by_type_with_every_ability():
    sheet = script_sheet(builtin_script())
    assert sheet.title == "Her Royal Highness Register, by May & Daeron"
    titles = [s.title for s in sheet.sections]
    assert titles == ["Townsfolk (13)", "Outsiders (4)", "Minions (4)", "Demons (3)", "Travellers in play",
                      "Fabled in play", "Jinxes", "Reminder tokens", "First night", "Other nights"]
    assert section(sheet, "Townsfolk").lines[0] == (
        "**Washerwoman**: You start knowing that 1 of 2 players is a particular Townsfolk.")
    for team, title in (("townsfolk", "Townsfolk"), ("outsider", "Outsiders"), ("minion", "Minions"),
                        ("demon", "Demons")):
        lines = section(sheet, title).lines
        assert lines == tuple(f"**{c.name}**: {plain(c.ability)}" for c in CHARS.by_team(team))
    assert section(sheet, "Travellers in play").lines == ("None.",)
    assert section(sheet, "Fabled in play").lines == ("None.",)
    assert "**Spy, Magician & Marionette**: When the Spy sees the grimoire with a Magician" in all_text(sheet)
    assert len(section(sheet, "Jinxes").lines) == 4


def test_the_night_order_by_name_with_only_the_travellers_in_play():
    sheet = script_sheet(builtin_script())
    first = section(sheet, "First night").lines
    assert first[:4] == ("1. Dusk", "2. Minion Info", "3. Magician", "4. Demon Info") and first[-1] == "16. Dawn"
    other = section(sheet, "Other nights").lines
    assert other[:3] == ("1. Dusk", "2. Lunatic", "3. Pukka") and other[-1] == "13. Dawn"
    assert not any("Thief" in line or "Apprentice" in line or "Waitress" in line for line in first + other)
    # the Thief and the Waitress in play wake; they are listed in the script's order, not as given
    sheet = script_sheet(builtin_script(), travellers=["waitress", "thief"], fabled=["fiddler", "djinn"])
    assert section(sheet, "Travellers in play").lines == tuple(
        f"**{CHARS[c].name}**: {plain(CHARS[c].ability)}" for c in ("thief", "waitress"))
    assert [line.split(":")[0] for line in section(sheet, "Fabled in play").lines] == ["**Fiddler**", "**Djinn**"]
    assert section(sheet, "First night").lines[1] == "2. Thief"
    assert section(sheet, "Other nights").lines[1:3] == ("2. Thief", "3. Waitress")


def test_a_loaded_script_shows_its_own_characters_jinxes_order_and_house_rules():
    text = json.dumps([
        {"id": "_meta", "name": "Small Hours", "bootlegger": ["Whispers are free on day 1."],
         "firstNight": ["dusk", "minioninfo", "demoninfo", "empath", "dawn"],
         "otherNight": ["dusk", "lleech", "empath", "dawn"]},
        "virgin", "empath", "soldier", "knight", "drunk", "baron", "lleech", "scapegoat"])
    sheet = script_sheet(parse_script(text))
    assert sheet.title == "Small Hours"
    assert [s.title for s in sheet.sections] == [
        "Townsfolk (4)", "Outsiders (1)", "Minions (1)", "Demons (1)", "Travellers in play", "Fabled in play",
        "Jinxes", "Reminder tokens", "First night", "Other nights", "House rules"]
    assert section(sheet, "Jinxes").lines == ("**Virgin & Lleech**: The Lleech’s host does not register as a "
                                              "Townsfolk to the Virgin.",)
    assert section(sheet, "First night").lines == ("1. Dusk", "2. Minion Info", "3. Demon Info", "4. Empath",
                                                   "5. Dawn")
    assert section(sheet, "Other nights").lines == ("1. Dusk", "2. Lleech", "3. Empath", "4. Dawn")
    assert section(sheet, "House rules").lines == ("Whispers are free on day 1.",)
    assert "Pukka" not in all_text(sheet) and "Spy" not in all_text(sheet)


def test_the_sheet_of_a_game_says_nothing_of_who_is_who():
    """Two games of the same script dealt differently give the same sheet: it cannot tell who holds
    which character. No player's name, id or seat appears in it."""
    one = to_day()
    other = to_day(characters=["po", "baron", "virgin", "empath", "knight", "soldier", "recluse", "washerwoman"])
    assert sheet_of_state(one) == sheet_of_state(other)
    text = all_text(sheet_of_state(one))
    for seat in one.seats:
        assert seat.player not in text and one.name(seat.player) not in text  # p1..p8, Name1..Name8
    assert "seat" not in text.lower()


def test_a_seated_traveller_and_a_fabled_put_in_play_appear_with_no_seat_or_name():
    state = to_day()
    state = act(state, type="add_traveller", target="t9", name="Zed", seat=9, character="scapegoat",
                alignment="evil").state
    state = act(state, type="add_fabled", fabled="hellslibrarian").state
    sheet = sheet_of_state(state)
    assert section(sheet, "Travellers in play").lines == (f"**Scapegoat**: {plain(CHARS['scapegoat'].ability)}",)
    assert section(sheet, "Fabled in play").lines == tuple(  # in the script's order
        f"**{CHARS[c].name}**: {plain(CHARS[c].ability)}" for c in ("hellslibrarian", "djinn"))
    assert "Zed" not in all_text(sheet) and "t9" not in all_text(sheet)


def test_the_game_gives_the_sheet_before_the_deal_from_its_options():
    sheet = GAME.script_sheet({}, None)
    assert sheet == script_sheet(builtin_script(), fabled=["djinn"])
    assert GAME.script_sheet({"djinn": False}, None) == script_sheet(builtin_script())
    state = new_game()
    assert GAME.script_sheet({}, state) == sheet_of_state(state)
