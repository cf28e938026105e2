"""Issue 40's loose ends between the editions' characters: the Undertaker on the Butcher's day, the
Bone Collector's regained day abilities, the Lunatic's false information in the grimoire picture; each
test named after the rule point it checks (the readings are in the README's Interpretations, "Sects &
Violets' Travellers")."""

import json

import pytest
from support.clocktower_pure import (
    GAME,
    act,
    allows,
    by_player,
    events_of,
    new_game,
    refuses,
    through_night,
    timeout,
    vote,
)

from games.clocktower.info import grimoire_picture, grimoire_text
from games.clocktower.picture import centre_lines, centre_radius, draw_grimoire
from games.clocktower.state import LunaticInfo
from games.engine import IllegalAction

TB_BUTCHER = ["imp", "undertaker", "chef", "empath", "soldier", "monk", "poisoner", "virgin"]
BUTCHER_SCRIPT = {"script": json.dumps([{"id": "_meta", "name": "Undertaker and Butcher"}, *TB_BUTCHER, "butcher"])}


def public_texts(out):
    return " ".join(e.text for e in out.events if e.audience.kind in ("public", "thread"))


def day1_with_butcher(characters=TB_BUTCHER):
    state = through_night(act(new_game(BUTCHER_SCRIPT, characters), type="begin").state).state
    return act(state, type="add_traveller", target="t9", name="Trav", seat=9, character="butcher",
               alignment="good").state


def executed_at_days_end(state, nominee, voters):
    for voter in voters:
        state = vote(state, voter, nominee).state
    for _ in range(10):
        out = timeout(state)
        if out.state.stage not in ("nominations", "voting", "final") or out.state.phase != "day":
            return out.state
        state = out.state
    raise AssertionError("the day never ended")


def butchers_day(second=True, second_voters=("p5", "p6", "p8")):
    """The Chef executed by vote, then (``second``) the Empath on the Butcher's nomination; the night after."""
    state = executed_at_days_end(day1_with_butcher(), "p3", ("p4", "p5", "p6", "p8"))
    assert state.phase == "day" and not state.seat_of("p3").alive
    if second:
        state = act(state, player="t9", type="butcher_nominate", target="p4").state
        for voter in second_voters:
            state = vote(state, voter, "p4").state
    for _ in range(10):
        if state.phase == "night":
            return state
        state = timeout(state).state
    raise AssertionError("night never fell")


def test_the_undertaker_after_the_butchers_two_executions_may_learn_either_character():
    state = butchers_day()
    assert not state.seat_of("p4").alive
    found = by_player(state)["p2"]
    assert found.answer == "Empath"  # the last execution proposed
    assert allows(found, "Chef") and allows(found, "Empath")
    refuses(found, "Imp", "Soldier")
    assert any("two players died by execution today" in f for f in found.flags)
    assert "Name3 (seat 3)" in found.about and "Name4 (seat 4)" in found.about


def test_the_undertaker_learns_the_first_execution_when_the_butchers_vote_executes_nobody():
    found = by_player(butchers_day(second_voters=()))["p2"]
    assert found.answer == "Chef" and found.allowed == ["Chef"] and not found.flags


def test_the_undertaker_learns_only_a_death_by_execution_the_first_executed_already_dead_is_not_one():
    state = executed_at_days_end(act(day1_with_butcher(), type="kill", target="p3").state, "p3",
                                 ("p4", "p5", "p6", "p8"))
    state = act(state, player="t9", type="butcher_nominate", target="p4").state
    for voter in ("p5", "p6", "p8"):
        state = vote(state, voter, "p4").state
    while state.phase != "night":
        state = timeout(state).state
    found = by_player(state)["p2"]
    assert found.answer == "Empath" and found.allowed == ["Empath"]


def test_the_first_execution_is_forgotten_at_dawn():
    state = through_night(butchers_day()).state
    assert state.phase == "day"
    state = executed_at_days_end(state, "p5", ("p6", "p8", "t9"))
    while state.phase != "night":
        state = timeout(state).state
    found = by_player(state)["p2"]
    assert found.answer == "Soldier" and found.allowed == ["Soldier"]


# ----- the Bone Collector's regained day abilities -----

DAY_ABILITIES = ["imp", "slayer", "gossip", "chef", "empath", "soldier", "poisoner", "virgin"]
BONES_SCRIPT = {"script": json.dumps([{"id": "_meta", "name": "Bones by day"}, *DAY_ABILITIES, "bonecollector",
                                      "gunslinger"])}


def collected_day(dead, chosen, poisoned_collector=False):
    """Day 2, with ``dead`` killed on day 1 and the Bone Collector (seat 9) having chosen ``chosen``."""
    state = through_night(act(new_game(BONES_SCRIPT, DAY_ABILITIES), type="begin").state).state
    state = act(state, type="add_traveller", target="t9", name="Trav", seat=9, character="bonecollector",
                alignment="good").state
    for player in dead:
        state = act(state, type="kill", target=player).state
    if poisoned_collector:
        state = act(state, type="add_reminder", target="t9", token="Poisoned", source="").state
    while state.phase != "night":
        state = timeout(state).state
    if chosen:
        state = act(state, player="t9", type="night_choice", targets=[chosen]).state
    return through_night(state).state


def shot(state, by, target):
    return act(state, player=by, type="slayer_shot", target=target, place="announcements")


def test_a_dead_slayer_given_back_their_ability_shoots_until_dusk_and_kills_the_demon():
    out = shot(collected_day(("p2",), "p2"), "p2", "p1")
    assert not out.state.seat_of("p1").alive
    assert "chooses Name1 (seat 1), as the Slayer: Name1 (seat 1) dies." in public_texts(out)
    assert "Bone Collector" not in public_texts(out)  # the town learns nothing of why


def test_a_dead_slayer_not_chosen_still_has_no_shot():
    with pytest.raises(IllegalAction, match="You are dead"):
        shot(collected_day(("p2", "p3"), "p3"), "p2", "p1")


def test_a_dead_slayer_chosen_by_a_poisoned_bone_collector_shoots_and_nothing_happens():
    # accepted alike (a refusal would tell them the Bone Collector is poisoned): the shot is spent, nothing happens
    out = shot(collected_day(("p2",), "p2", poisoned_collector=True), "p2", "p1")
    assert out.state.seat_of("p1").alive and "nothing happens" in public_texts(out)


def test_the_slayers_regained_shot_ends_at_dusk():
    state = collected_day(("p2",), "p2")
    while state.phase != "night":
        state = timeout(state).state
    state = through_night(state).state
    with pytest.raises(IllegalAction, match="You are dead"):
        shot(state, "p2", "p1")


def test_a_dead_gossip_given_back_their_ability_makes_a_statement_the_storytellers_judge():
    state = collected_day(("p3",), "p3")
    out = act(state, player="p3", type="gossip_statement", statement="The Imp is in seat 1",
              place="announcements")
    assert "states, as the Gossip" in public_texts(out)
    state = out.state
    while state.phase != "night":
        out = timeout(state)
        state = out.state
    sheet = " ".join(e.text for e in events_of(out, "storyteller"))
    assert "Bone Collector" in sheet and "The Imp is in seat 1" in sheet and "Was it true?" in sheet


def test_a_dead_gossip_not_chosen_still_makes_no_statement():
    with pytest.raises(IllegalAction, match="You are dead"):
        act(collected_day(("p3", "p2"), "p2"), player="p3", type="gossip_statement", statement="x",
            place="announcements")


def dead_traveller_given_back(script, character):
    """Day 2: a Bone Collector (t9) and a ``character`` Traveller (t10) seated on day 1, t10 killed,
    and the Bone Collector's choice of t10 standing at night 2's lock; Name4 has nominated Name5."""
    state = through_night(act(new_game(script, DAY_ABILITIES), type="begin").state).state
    for seat, held in ((9, "bonecollector"), (10, character)):
        state = act(state, type="add_traveller", target=f"t{seat}", name="Trav", seat=seat, character=held,
                    alignment="good").state
    state = act(state, type="kill", target="t10").state
    while state.phase != "night":
        state = timeout(state).state
    state = through_night(act(state, player="t9", type="night_choice", targets=["t10"]).state).state
    return vote(state, "p4", "p5").state


def test_a_dead_gunslinger_given_back_their_ability_shoots_a_voter():
    state = dead_traveller_given_back(BONES_SCRIPT, "gunslinger")
    out = act(state, player="t10", type="gunslinger_shot", target="p4")
    assert not out.state.seat_of("p4").alive


# ----- the Lunatic's false information in the grimoire picture -----

def test_the_grimoire_picture_shows_the_lunatics_false_minions_and_bluffs_as_the_text_does():
    state = new_game({"script": "Bad Moon Rising"},
                     ["zombuul", "godfather", "lunatic", "grandmother", "sailor", "chambermaid", "exorcist"],
                     shown={"p3": "pukka"})
    state.lunatic = LunaticInfo(minions=("p5", "p6"), bluffs=("tealady", "gambler", "fool"))
    chars = GAME.chars_of(state)
    assert "The Lunatic is shown as Minions: Name5 (seat 5), Name6 (seat 6)" in grimoire_text(state, chars)
    data = grimoire_picture(state, chars)
    assert data["lunatic_minions"] == ["5 Name5", "6 Name6"]
    assert data["lunatic_bluffs"] == ["Tea Lady", "Gambler", "Fool"]
    lines = [line for line, _, _ in centre_lines(data, centre_radius(len(state.seats)))]
    centre = " ".join(lines)  # (wrapped to the centre's width)
    assert "Bluffs: Shugenja, Juggler, Alsaahir Lunatic's Minions: 5 Name5, 6 Name6 Lunatic's bluffs: Tea Lady, " \
           "Gambler, Fool" in centre
    assert draw_grimoire(data)
    state.lunatic = None
    assert "lunatic_minions" not in grimoire_picture(state, chars) or not grimoire_picture(state, chars)["lunatic_minions"]


# ----- the Barista's "acts twice" for the night's information -----

SNV_TABLE = ["fanggu", "witch", "clockmaker", "dreamer", "mutant", "seamstress", "oracle", "flowergirl"]


def oracle_night2(effect="twice"):
    """Night 2, locked, the Barista (seat 9) having served the Oracle (seat 7) ``effect`` (None: no cup);
    the Oracle poisoned (any number is an answer, so two answers differ; "sober": the cup ends that)."""
    state = through_night(act(new_game({"script": "Sects & Violets"}, SNV_TABLE), type="begin").state).state
    state = act(state, type="add_traveller", target="t9", name="Trav", seat=9, character="barista",
                alignment="good").state
    state = act(state, type="kill", target="p8").state
    state = act(state, type="add_reminder", target="p7", token="Poisoned", source="").state
    while state.phase != "night":
        state = timeout(state).state
    if effect:
        state = act(state, type="barista", target="p7", effect=effect).state
    while state.stage != "locked":
        state = timeout(state).state
    return state


def told_to(out, player):
    return [e.text for e in out.events if e.type == "information" and e.audience.id == player]


def test_an_informant_who_acts_twice_is_flagged_and_learns_both_answers_accepted():
    state = oracle_night2()
    found = by_player(state)["p7"]
    assert any("Acts Twice" in f and "two answers" in f for f in found.flags)
    state = act(state, type="inform", target="p7", answer="0").state
    out = act(state, type="inform", target="p7", answer="1")
    assert "second answer" in out.reply
    dawn = through_night(out.state)
    told = told_to(dawn, "p7")
    assert len(told) == 2 and "0" in told[0] and "1" in told[1]


def test_an_informant_who_acts_twice_a_third_acceptance_corrects_the_second():
    state = oracle_night2()
    for answer in ("0", "1", "2"):
        state = act(state, type="inform", target="p7", answer=answer).state
    told = told_to(through_night(state), "p7")
    assert len(told) == 2 and "0" in told[0] and "2" in told[1]


def test_without_the_cup_a_second_acceptance_still_replaces_the_first():
    state = oracle_night2(effect=None)
    assert not any("Acts Twice" in f for f in by_player(state)["p7"].flags)
    state = act(act(state, type="inform", target="p7", answer="0").state, type="inform", target="p7", answer="1").state
    told = told_to(through_night(state), "p7")
    assert len(told) == 1 and "1" in told[0]


def test_a_sober_cup_does_not_make_two_answers():
    state = oracle_night2(effect="sober")
    state = act(act(state, type="inform", target="p7", answer="0").state, type="inform", target="p7", answer="0").state
    assert len(told_to(through_night(state), "p7")) == 1


def test_a_dead_judge_given_back_their_ability_rules_on_an_execution():
    script = {"script": json.dumps([{"id": "_meta", "name": "Bones and the Judge"}, *DAY_ABILITIES, "bonecollector",
                                    "judge"])}
    state = dead_traveller_given_back(script, "judge")  # Name4 has nominated Name5
    out = act(state, player="t10", type="judge_ruling", target="p5", verdict="pass")
    assert out.state.executed == "p5" and not out.state.seat_of("p5").alive
