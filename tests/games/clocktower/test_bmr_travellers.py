"""Bad Moon Rising's Travellers: the Voudon (only it and the dead vote, without tokens), the Bishop
(only the Storytellers nominate; the opposing nomination flagged at dawn), the Matron (seat swaps
the Storytellers carry out, 3 a day) and the Apprentice on this script; each test named after the
rule point the official wiki settles."""

import pytest
from support.clocktower_pure import (
    act,
    events_of,
    first_day,
    new_game,
    shown,
    through_night,
    timeout,
    traveller,
    vote,
)

from games.clocktower.tally import NO_EXECUTION, tally
from games.engine import IllegalAction

BMR = {"script": "Bad Moon Rising"}
TABLE = ["zombuul", "chambermaid", "gambler", "goon", "tealady", "godfather", "professor"]


def day1(characters=TABLE):
    return first_day(BMR, characters)


def to_dawn(state):
    """From a day to the next dawn's outcome."""
    while state.phase == "day":
        state = timeout(state).state
    out = None
    while state.phase != "day":
        out = timeout(state)
        state = out.state
    return out


# ----- the Voudon -----

def test_under_the_voudon_only_the_voudon_and_the_dead_vote():
    state = traveller(day1(), "voudon")
    state = act(state, type="kill", target="p5").state
    state = vote(state, "p2", "p1").state  # a living player's vote still nominates
    assert [n.nominee for n in state.nominations] == ["p1"] and "p2" not in state.votes
    with pytest.raises(IllegalAction, match="Only the Voudon and the dead vote"):
        vote(state, "p3", "p1")
    with pytest.raises(IllegalAction, match="Only the Voudon and the dead vote"):
        vote(state, "p3", NO_EXECUTION)
    state = vote(vote(state, "t9", "p1").state, "p5", "p1").state
    assert tally(state).count["p1"] == 2


def test_under_the_voudon_the_dead_need_no_vote_token():
    state = act(traveller(day1(), "voudon"), type="kill", target="p5").state
    state = vote(vote(state, "p2", "p1").state, "p5", "p1").state
    assert state.seat_of("p5").vote_token  # not spent
    state = timeout(state).state
    while state.phase == "day":
        state = timeout(state).state
    assert state.seat_of("p5").vote_token


def test_under_the_voudon_no_majority_is_needed_the_most_votes_execute():
    state = act(traveller(day1(), "voudon"), type="kill", target="p5").state
    state = vote(vote(state, "p2", "p3").state, "p5", "p3").state  # 1 vote of 8 players
    while state.phase == "day":
        state = timeout(state).state
    assert state.executed == "p3"


def test_a_dead_or_poisoned_voudon_leaves_the_vote_as_usual():
    state = traveller(day1(), "voudon")
    poisoned = act(state, type="add_reminder", target="t9", token="Poisoned", source="pukka").state
    assert "p3" in vote(poisoned, "p3", "p1").state.votes
    dead = act(state, type="kill", target="t9").state
    assert "p3" in vote(dead, "p3", "p1").state.votes


# ----- the Bishop -----

def test_under_the_bishop_only_the_storytellers_nominate():
    state = traveller(day1(), "bishop")
    with pytest.raises(IllegalAction, match="Only the Storytellers nominate while the Bishop"):
        vote(state, "p2", "p1")
    out = act(state, type="st_nominate", target="p1")
    assert any("The Storytellers nominate Name1 (seat 1)" in e.text for e in events_of(out, "public"))
    state = vote(out.state, "p2", "p1").state  # voting on their nomination is open to all
    assert state.votes["p2"] == "p1"
    with pytest.raises(IllegalAction, match="already nominated"):
        act(state, type="st_nominate", target="p1")


def test_the_storytellers_are_reminded_at_dawn_that_an_opposing_player_must_be_nominated():
    out = to_dawn(traveller(day1(), "bishop", "good"))
    told = [e for e in events_of(out, "storyteller") if e.type == "bishop"]
    assert len(told) == 1 and "at least 1 evil player must be nominated" in told[0].text
    assert not [e for e in events_of(out, "public") if "Bishop" in e.text]


# ----- the Matron -----

def test_the_matrons_swaps_move_two_players_seats_3_a_day():
    state = traveller(day1(), "matron")
    out = act(state, type="swap_seats", first="p1", second="p4")
    state = out.state
    assert state.seat_of("p1").seat == 4 and state.seat_of("p4").seat == 1
    assert [s.seat for s in state.seats] == sorted(s.seat for s in state.seats)
    assert [s.player for s in state.seats][:4] == ["p4", "p2", "p3", "p1"]
    assert [p.id for p in state.players] == [s.player for s in state.seats]
    assert any("The Matron's swap" in e.text for e in events_of(out, "public"))
    state = act(act(state, type="swap_seats", first="p2", second="p3").state,
                type="swap_seats", first="p5", second="p6").state
    with pytest.raises(IllegalAction, match="3 swaps for today"):
        act(state, type="swap_seats", first="p5", second="p7")


def test_without_a_living_matron_no_seats_are_swapped():
    with pytest.raises(IllegalAction, match="No living, working Matron"):
        act(day1(), type="swap_seats", first="p1", second="p4")


# ----- the Apprentice, already ruled, once on this script -----

def test_the_good_apprentice_gains_a_bad_moon_rising_townsfolk_ability():
    state = traveller(day1(), "apprentice", "good")
    state = act(state, type="apprentice", target="t9", character="exorcist").state
    assert state.seat_of("t9").ability == "exorcist" and state.seat_of("t9").acting == "exorcist"


# ----- the Judge -----

def judge(state, target, verdict, by="t9"):
    return act(state, player=by, type="judge_ruling", target=target, verdict=verdict)


def test_the_judge_forces_an_execution_to_pass_however_few_voted():
    # the wiki: "Even though the Goon got only one vote, the Judge decides that the Goon is executed immediately"
    state = vote(traveller(day1(), "judge"), "p2", "p4").state
    state = vote(vote(state, "p3", "p5").state, "p6", "p5").state
    out = judge(state, "p4", "pass")
    assert not out.state.seat_of("p4").alive and out.state.executed == "p4" and out.state.voting_closed
    assert any("forces the execution of Name4 (seat 4) to pass" in e.text for e in events_of(out, "public"))


def test_the_judge_forces_an_execution_to_fail_and_the_count_goes_on_without_it():
    # the wiki: the Po's execution fails, "so, as before, the Slayer is about to die"
    state = vote(vote(traveller(day1(), "judge"), "p2", "p4").state, "p3", "p4").state
    state = vote(state, "p5", "p6").state
    out = judge(state, "p4", "fail")
    assert tally(out.state).leader == "p6"
    state = out.state
    while state.phase == "day":
        state = timeout(state).state
    assert state.executed == "p6" and state.seat_of("p4").alive


def test_the_judge_rules_once_per_game_and_not_on_its_own_nomination():
    state = traveller(day1(), "judge")
    mine = vote(state, "t9", "p4").state
    with pytest.raises(IllegalAction, match="another player nominated"):
        judge(mine, "p4", "pass")
    with pytest.raises(IllegalAction, match="not nominated today"):
        judge(mine, "p5", "pass")
    state = judge(vote(mine, "p2", "p5").state, "p5", "fail").state
    with pytest.raises(IllegalAction, match="once per game"):
        judge(state, "p4", "pass")


def test_only_the_living_judge_rules():
    state = vote(traveller(day1(), "judge"), "p2", "p4").state
    with pytest.raises(IllegalAction, match="Only the living Judge"):
        judge(state, "p4", "pass", by="p3")


def test_a_poisoned_judges_ruling_is_spent_and_nothing_happens():
    state = act(traveller(day1(), "judge"), type="add_reminder", target="t9", token="Poisoned", source="pukka").state
    out = judge(vote(state, "p2", "p4").state, "p4", "pass")
    assert out.state.seat_of("p4").alive and not out.state.voting_closed
    assert any("nothing happens" in e.text for e in events_of(out, "storyteller"))


def test_a_cursed_voudon_who_nominates_dies_and_the_living_vote_again_at_once():
    """The Voudon's rule is looked up once a vote; a nomination may end it within the vote (the
    Witch's curse kills the nominating Voudon), so the vote's own count is made without it: the
    living are told they have not voted, and the dead Voudon's vote now needs their token."""
    import json

    characters = ["imp", "witch", "scarletwoman", "washerwoman", "empath", "soldier", "monk", "mayor"]
    script = json.dumps([*characters, "chef", "poisoner", "voudon"])
    state = through_night(act(new_game({"script": script, "dead_vote": "when_cast"}, characters),
                              type="begin").state).state
    state = traveller(state, "voudon")
    while state.phase == "day":
        state = timeout(state).state
    state = through_night(act(state, player="p2", type="night_choice", targets=["t9"]).state).state
    out = vote(state, "t9", "p4")  # the cursed Voudon nominates
    assert not out.state.seat_of("t9").alive
    assert not out.state.seat_of("t9").vote_token  # spent: no Voudon rules any more
    face = next(e for e in shown(out) if e.type == "tally").text
    assert "Not voted (8): Name1 (1), Name2 (2)" in face
