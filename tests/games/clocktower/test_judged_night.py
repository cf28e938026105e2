"""A night with characters the Storytellers judge, pure: on a script of official characters the bot has
no rules for, and homebrew ones, each is on the Storytellers' night sheet in its slot with its official
reminder, is asked in the form its ability takes, and is answered freely by the Storytellers."""

import json

import pytest
from support.clocktower_pure import GAME, act, events_of, new_game, timeout, to_night

from games.engine import IllegalAction

LANTERN = {"id": "hb-lantern", "name": "Lantern Keeper", "team": "townsfolk",
           "ability": "Each night, choose a character: you learn if it is in play.",
           "firstNight": 30, "firstNightReminder": "The Lantern Keeper chooses a character. Nod if it is in play.",
           "otherNight": 40, "otherNightReminder": "The Lantern Keeper chooses a character. Nod if it is in play."}
ODDBALL = {"id": "hb-oddball", "name": "Oddball", "team": "outsider", "ability": "Something odd happens to you.",
           "firstNight": 31, "firstNightReminder": "Run the Oddball's ability, if applicable."}
SCRIPT = [{"id": "_meta", "name": "Judged Night"}, "fanggu", "cerenovus", "organgrinder", "snakecharmer",
          "seamstress", "clockmaker", "chef", "saint", "witch", LANTERN, ODDBALL]
# seat 1 the Fang Gu, 2 the Cerenovus, 3 the Organ Grinder, 4 the Snake Charmer, 5 the Seamstress,
# 6 the Lantern Keeper, 7 the Oddball, 8 the Clockmaker
CHARS = ["fanggu", "cerenovus", "organgrinder", "snakecharmer", "seamstress", "hblantern", "hboddball", "clockmaker"]


def begun():
    return act(new_game({"script": json.dumps(SCRIPT)}, CHARS), type="begin")




def to_lock(state):
    while state.stage != "locked":
        out = timeout(state)
        state = out.state
    return out


def choose(state, player, **choice):
    return act(state, player=player, type="night_choice", **choice)


def test_the_night_sheet_lists_each_waking_character_in_its_slot_with_its_reminder():
    out = begun()
    sheet = next(e for e in events_of(out, "storyteller") if e.type == "night_sheet")
    lines = [line for line in sheet.text.splitlines() if line.startswith("• ")]
    names = [line.split("**")[1] if "**" in line else line[2:] for line in lines]
    # the official night sheet's first-night order among them; the Fang Gu (night*) does not wake
    assert names[:2] == ["Minion info", "Demon info"]
    order = ["Snake Charmer", "Cerenovus", "Organ Grinder", "Clockmaker", "Seamstress"]
    assert [n for n in names if n in order] == sorted(order, key=names.index)
    assert "Fang Gu" not in names
    # (the Cerenovus is ruled since snvmad: on the sheet in its slot, not marked judged)
    assert "**Cerenovus**: Name2 (seat 2)\n" in sheet.text and "**Organ Grinder**: Name3 (seat 3) · *judged by you*" \
        in sheet.text
    assert "The Cerenovus chooses a player & a character. 🔖 Put the Cerenovus to sleep." in sheet.text
    assert "**Lantern Keeper**: Name6 (seat 6)" in sheet.text and "Nod if it is in play." in sheet.text
    assert sheet.audience.kind == "storyteller"
    assert not any("Cerenovus" in e.text for e in out.events if e.audience.kind == "public")


def test_each_judged_character_is_asked_in_the_form_its_ability_takes():
    out = begun()
    asked = {e.audience.id: e.text for e in events_of(out, "player") if e.type == "night_ask"}
    assert "Choose a player and a good character" in asked["p2"]  # the Cerenovus, ruled (night_asks.json)
    assert "Answer yes or no." in asked["p3"]  # the Organ Grinder: "choose if you are drunk until dusk"
    assert "Choose an alive player" in asked["p4"]  # the Snake Charmer, ruled since (snv_swaps): its own ask
    assert "Answer in your own words." in asked["p7"]  # the Oddball's "Run the … ability"
    assert "p8" not in asked  # the Clockmaker learns; it chooses nothing
    state = out.state
    cerenovus = GAME.prompts(state, "p2")
    assert [p.fields[0].name for p in cerenovus] == ["targets", "character_townsfolk"]
    assert {f.into for f in cerenovus[1].fields} == {"character"} and cerenovus[1].any_field
    grinder = GAME.prompts(state, "p3")
    assert [(p.submit_label, p.extra) for p in grinder] == [("Yes", {"answer": "yes"}), ("No", {"answer": "no"})]
    seamstress = GAME.prompts(state, "p5")
    assert seamstress[0].fields[0].max_values == 2 and "p5" not in [c.value for c in seamstress[0].fields[0].choices]
    assert seamstress[1].extra == {"targets": ["no-one"]}
    assert GAME.prompts(state, "p7") == []  # a free reply is written in the thread


def test_answers_are_kept_editable_and_refused_in_words_when_malformed():
    state = begun().state
    state = choose(state, "p2", targets=["p4"]).state
    out = choose(state, "p2", character="savant")
    assert out.reply.startswith("Your answer tonight: the Savant.")
    out = choose(out.state, "p2", character="Chef")
    assert "answered the Chef (instead of the Savant)" in events_of(out, "storyteller")[0].text
    state = choose(out.state, "p3", answer="yes").state
    with pytest.raises(IllegalAction, match="Answer yes or no"):
        choose(state, "p3")
    with pytest.raises(IllegalAction, match="in your own words"):
        choose(state, "p7", targets=["p1"])
    with pytest.raises(IllegalAction, match="Choose a character"):
        choose(state, "p6", character="gizmo")
    with pytest.raises(IllegalAction, match="Choose 2 different players"):
        choose(state, "p5", targets=["p1"])
    with pytest.raises(IllegalAction, match="cannot choose yourself"):
        choose(state, "p5", targets=["p5", "p1"])
    state = choose(state, "p5", targets=["p1", "p2"]).state
    summary = next(e for e in to_lock(state).events if e.type == "night_choices")
    assert "Name2 (seat 2), the Cerenovus: Name4 (seat 4) and the Chef\n" in summary.text  # ruled
    assert "the Organ Grinder: yes" in summary.text
    assert "the Oddball: answers in their thread" in summary.text
    assert "its once-per-game ability is now used" in summary.text


def test_a_once_per_game_ask_stops_once_used_but_not_after_no_one():
    state = choose(begun().state, "p5", targets=["no-one"]).state
    state = to_night(state, 2)
    assert any(e for e in GAME.prompts(state, "p5"))  # no-one kept it for later
    state = choose(state, "p5", targets=["p1", "p2"]).state
    state = to_night(state, 3)
    assert GAME.prompts(state, "p5") == []
    assert "p5" in state.used_once


def test_a_judged_informant_is_answered_freely_and_told_the_words_at_dawn():
    state = choose(begun().state, "p6", character="fanggu").state
    locked = to_lock(state)
    info = next(e for e in locked.events if e.type == "night_information")
    assert "Lantern Keeper" in info.text and "Clockmaker" in info.text
    with pytest.raises(IllegalAction, match="no rules for the Lantern Keeper"):
        act(locked.state, type="inform", target="p6")
    out = act(locked.state, type="inform", target="p6", answer="Yes: it is in play.")
    assert "learns at dawn: Yes: it is in play" in out.reply
    dawn = timeout(out.state)
    told = [e for e in events_of(dawn, "player") if e.type == "information" and e.audience.id == "p6"]
    assert told and told[0].text == "🌙 Yes: it is in play."
