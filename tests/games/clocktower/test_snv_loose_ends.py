"""Issue 40's loose ends between the editions' characters: the Butcher's second execution and the
Undertaker; each test named after the rule point it checks (the readings are in the README's
Interpretations, "Sects & Violets' Travellers")."""

import json

from support.clocktower_pure import act, allows, by_player, new_game, refuses, through_night, timeout, vote

TB_BUTCHER = ["imp", "undertaker", "chef", "empath", "soldier", "monk", "poisoner", "virgin"]
BUTCHER_SCRIPT = {"script": json.dumps([{"id": "_meta", "name": "Undertaker and Butcher"}, *TB_BUTCHER, "butcher"])}


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
