"""Madness (the Cerenovus's and the Mutant's) and the Klutz, pure, on a forced deal of Sects & Violets:
each test named after the rule point the official wiki settles (the readings it leaves open are in the
README's Interpretations, "Sects & Violets' mechanics")."""

import pytest
from support.clocktower_pure import GAME, act, bounded, choose, events_of, new_game, timeout, vote

from games.clocktower.rules import ruled
from games.clocktower.snv_madness import mad_of
from games.engine import IllegalAction

SNV = {"script": "Sects & Violets"}
# the No Dashii in seat 1, the Mutant in seat 4, the Cerenovus in seat 7
TABLE = ["nodashii", "savant", "artist", "mutant", "dreamer", "clockmaker", "cerenovus"]


def begun(characters=TABLE):
    return act(new_game(SNV, characters), type="begin").state



def lock(state):
    """To this night's lock: the lock's outcome."""
    _, state = bounded(state, lambda s: s.stage == "closing", "the closing")
    return timeout(state)


def to_day(state):
    return bounded(state, lambda s: s.phase == "day", "the day")


def to_night(state):
    return bounded(state, lambda s: s.phase == "night", "the night")[1]


def mad_clockmaker(characters=TABLE, target="p5", character="clockmaker"):
    """Night 1: the Cerenovus chooses ``target`` and ``character``."""
    state = choose(begun(characters), "p7", target)
    return act(state, player="p7", type="night_choice", character=character).state


def public_text(out):
    return " ".join(e.text + (e.title or "") for e in events_of(out, "public"))


def to_storytellers(out, kind):
    return [e for e in events_of(out, "storyteller") if e.type == kind]


# ----- the Cerenovus -----

def test_the_cerenovus_and_the_mutant_are_ruled_on_sects_and_violets():
    state = begun()
    assert ruled(state, "cerenovus") and ruled(state, "mutant")


def test_the_cerenovus_chooses_each_night_a_player_and_a_good_character():
    out = act(new_game(SNV, TABLE), type="begin")
    asked = [e for e in out.events if e.type == "night_ask" and e.audience.id == "p7"]
    assert asked and "a good character" in asked[0].text
    state = choose(out.state, "p7", "p5")
    with pytest.raises(IllegalAction, match="Choose a good character"):
        act(state, player="p7", type="night_choice", character="witch")
    assert act(state, player="p7", type="night_choice", character="klutz").state  # an Outsider is good


def test_the_cerenovus_may_make_a_player_mad_as_the_goblin_by_their_jinx():
    # the official jinx: "The Cerenovus may choose to make a player mad that they are the Goblin"
    import json
    script = {"script": json.dumps([{"id": "_meta", "name": "Goblin madness"}, "imp", "cerenovus", "goblin",
                                    "poisoner", "chef", "empath", "washerwoman", "librarian", "soldier"])}
    state = act(new_game(script, ["imp", "cerenovus", "chef", "empath", "washerwoman", "librarian", "soldier"]),
                type="begin").state
    fields = [f.name for p in GAME.prompts(state, "p2") for f in p.fields]
    assert "character_minion" in fields
    state = choose(state, "p2", "p4")
    with pytest.raises(IllegalAction, match="Choose a good character"):
        act(state, player="p2", type="night_choice", character="poisoner")
    state = act(state, player="p2", type="night_choice", character="goblin").state
    assert mad_of(lock(state).state, "p4") == "being the Goblin (the Cerenovus)"
    with pytest.raises(IllegalAction, match="Choose a good character"):  # no jinx on Sects & Violets
        act(choose(begun(), "p7", "p5"), player="p7", type="night_choice", character="goblin")


def test_the_cerenovus_marks_its_choice_mad_as_the_character_and_wakes_them_to_learn_it():
    out = lock(mad_clockmaker())
    state = out.state
    assert [(r.player, r.token) for r in state.reminders if r.source == "cerenovus"] == [("p5", "Mad: Clockmaker")]
    told = [e for e in out.events if e.type == "madness"]
    assert [e.audience.id for e in told] == ["p5"] and "\"mad\" that you are the Clockmaker" in told[0].text
    assert "Cerenovus" not in public_text(out) and "mad" not in public_text(out).lower()
    plan = next(e for e in out.events if e.type == "night_plan")
    assert "Name5 (seat 5): Mad: Clockmaker" in plan.text


def test_the_mad_mark_is_on_the_grimoire_text_and_picture():
    from games.clocktower.info import grimoire_picture, grimoire_text
    from games.clocktower.rules import chars
    state = lock(mad_clockmaker()).state
    assert "Mad: Clockmaker (Cerenovus)" in grimoire_text(state, chars(state))
    seat5 = next(s for s in grimoire_picture(state, chars(state))["seats"] if s["seat"] == 5)
    assert "Mad: Clockmaker (Cerenovus)" in seat5["reminders"]


def test_a_drunk_or_poisoned_cerenovus_makes_nobody_mad():
    state = act(mad_clockmaker(), type="add_reminder", target="p7", token="Poisoned", source="").state
    out = lock(state)
    assert not [r for r in out.state.reminders if r.source == "cerenovus"]
    assert not [e for e in out.events if e.type == "madness"]


def test_madness_lasts_the_next_day_and_night_and_ends_when_the_next_choice_locks():
    _, day = to_day(lock(mad_clockmaker()).state)
    assert mad_of(day, "p5") == "being the Clockmaker (the Cerenovus)"
    night = to_night(day)
    assert mad_of(night, "p5")  # "during the next day or night" (the wiki's How to Run)
    night = act(choose(night, "p7", "p3"), player="p7", type="night_choice", character="savant").state
    after = lock(night).state
    assert not mad_of(after, "p5") and mad_of(after, "p3") == "being the Savant (the Cerenovus)"


def test_the_mad_mark_is_on_the_storytellers_night_sheet_and_dawn_list_never_public():
    out, day = to_day(lock(mad_clockmaker()).state)
    judged = next(e for e in out.events if e.type == "judged_today")
    assert judged.audience.kind == "storyteller"
    assert "Name5 (seat 5) was made \"mad\" as the Clockmaker by Name7 (seat 7), the Cerenovus last night" in judged.text
    out, _ = bounded(day, lambda s: s.phase == "night", "the night")
    sheet = next(e for e in out.events if e.type == "night_sheet")
    assert sheet.audience.kind == "storyteller" and "Name5 (seat 5): Mad: Clockmaker (Cerenovus)" in sheet.text
    assert "mad" not in public_text(out).lower()


def test_the_storytellers_are_reminded_who_is_mad_at_each_nomination():
    _, day = to_day(lock(mad_clockmaker()).state)
    out = vote(day, "p2", "p3")
    told = to_storytellers(out, "madness")
    assert told and "Name5 (seat 5): mad about being the Clockmaker (the Cerenovus)" in told[0].text
    assert "Name4 (seat 4): mad about being an Outsider (the Mutant)" in told[0].text
    assert "mad" not in public_text(out).lower()


def test_a_player_executed_for_madness_by_day_is_the_days_one_execution():
    # the wiki: "Like the Mutant, an execution penalty counts as the one execution allowed per day"
    _, day = to_day(lock(mad_clockmaker()).state)
    out = act(day, type="execute", target="p5")
    assert not out.state.seat_of("p5").alive and out.state.voting_closed
    assert [r.data["text"] for r in out.events if r.type == "judged"] == [
        "executed by the Storytellers, judged mad about being the Clockmaker (the Cerenovus)"]
    with pytest.raises(IllegalAction, match="Today's execution has happened"):
        act(out.state, type="execute", target="p2")
    with pytest.raises(IllegalAction):
        vote(out.state, "p2", "p3")


def test_a_dead_player_may_be_made_mad_and_executed_for_it():
    # the wiki: "The dead Artist is made mad about being the Sage ... The Artist is executed"
    _, day = to_day(begun())
    day = act(day, type="kill", target="p3").state
    night = to_night(day)
    night = act(choose(night, "p7", "p3"), player="p7", type="night_choice", character="sage").state
    _, day2 = to_day(lock(night).state)
    assert mad_of(day2, "p3") == "being the Sage (the Cerenovus)"
    out = act(day2, type="execute", target="p3")
    assert "already dead" in public_text(out) and [e for e in out.events if e.type == "judged"]


# ----- the Mutant -----

def test_the_mutant_is_named_mad_about_being_an_outsider_while_it_has_its_ability():
    _, day = to_day(begun())
    assert mad_of(day, "p4") == "being an Outsider (the Mutant)"
    poisoned = act(day, type="add_reminder", target="p4", token="Poisoned", source="").state
    assert mad_of(poisoned, "p4") == ""  # a drunk or poisoned Mutant has no ability
    dead = act(day, type="kill", target="p4").state
    assert mad_of(dead, "p4") == ""


def test_the_mutant_may_be_executed_at_night_even_after_todays_execution_and_tomorrow_may_execute_again():
    # the wiki: "you may execute them that night, even if an execution happened today. Declare they have
    # died, and continue the night phase as normal. An execution may still happen the next day."
    _, day = to_day(begun())
    day = act(day, type="execute", target="p6").state  # today's execution
    night = to_night(day)
    out = act(night, type="execute", target="p4")
    state = out.state
    assert not state.seat_of("p4").alive and state.phase == "night"
    assert "Name4 (seat 4)** is executed by the Storytellers and dies" in public_text(out)
    assert "Mutant" not in public_text(out)
    assert [e.data["text"] for e in out.events if e.type == "judged"] == [
        "executed by the Storytellers, judged mad about being an Outsider (the Mutant)"]
    _, day2 = to_day(state)
    assert act(day2, type="execute", target="p5").state.executed == "p5"


def test_at_night_only_a_mad_player_is_executed():
    night = to_night(to_day(begun())[1])
    with pytest.raises(IllegalAction, match="not \"mad\" now"):
        act(night, type="execute", target="p6")
    assert night.seat_of("p6").alive
