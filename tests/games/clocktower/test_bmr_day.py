"""Bad Moon Rising by day: the Gossip's public statement (judged by the Storytellers at dusk), the
Pacifist's executions (the Storytellers asked) and the Mastermind's extra day; each test named after
the rule point the official wiki settles, and nothing of the grimoire told to the town."""

import pytest
from support.clocktower_pure import act, end_day, events_of, new_game, through_night

from games.engine import IllegalAction

BMR = {"script": "Bad Moon Rising"}


def day1(characters):
    return through_night(act(new_game(BMR, characters), type="begin").state).state



def sheet(out):
    return next(e for e in events_of(out, "storyteller") if e.type == "night_sheet").text


def state_says(state, player, text, place="announcements"):
    return act(state, player=player, type="gossip_statement", statement=text, place=place)


# ----- the Gossip -----

GOSSIP = ["zombuul", "gossip", "chambermaid", "goon", "tealady", "godfather", "professor"]


def test_the_gossips_statement_is_public_and_the_storytellers_are_asked_at_dusk_if_it_was_true():
    out = state_says(day1(GOSSIP), "p2", "Name6 is the Godfather")
    noted = [e for e in out.events if e.type == "announcement" and e.audience.kind == "thread"]
    assert len(noted) == 1 and "“Name6 is the Godfather”" in noted[0].text  # the announcement thread
    assert not [e for e in out.events if e.audience.kind == "storyteller" and "true" in e.text.lower()]
    night = end_day(out.state)
    assert "The Gossip**: the Gossip, Name2 (seat 2), stated “Name6 is the Godfather”. **Was it true?**" in sheet(night)
    assert not [e for e in events_of(night, "public") if "Gossip" in e.text]  # the town hears no verdict


def test_the_gossip_may_state_once_a_day_and_anyone_may_claim_it():
    state = state_says(day1(GOSSIP), "p2", "the Goon is good").state
    with pytest.raises(IllegalAction, match="one a day"):
        state_says(state, "p2", "something else")
    bluff = state_says(state, "p3", "I am the Gossip")  # a bluff is acknowledged alike
    assert bluff.reply == "Your announcement is noted."
    assert "I am the Gossip" not in sheet(end_day(bluff.state))  # only the real Gossip's is asked about


def test_a_drunk_or_poisoned_gossips_statement_kills_nobody():
    state = act(day1(GOSSIP), type="add_reminder", target="p2", token="Poisoned", source="pukka").state
    night = end_day(state_says(state, "p2", "Name1 is the Demon").state)
    assert "was drunk or poisoned when stating “Name1 is the Demon”: nobody dies of it" in sheet(night)


def test_the_gossips_statement_counts_only_in_the_announcements_by_day():
    with pytest.raises(IllegalAction, match="announcement thread"):
        state_says(day1(GOSSIP), "p2", "Name1 is the Demon", place="thread")


# ----- the Pacifist -----

PACIFIST = ["zombuul", "pacifist", "chambermaid", "goon", "tealady", "godfather", "professor"]


def test_an_executed_good_player_might_not_die_with_the_pacifist_the_storytellers_asked():
    out = end_day(day1(PACIFIST), ("p2", "p3"), ("p4", "p3"), ("p5", "p3"))
    assert not out.state.seat_of("p3").alive  # proposed: they die
    asked = [e for e in events_of(out, "storyteller") if e.type == "pacifist"]
    assert len(asked) == 1 and "might not die: your call" in asked[0].text and "`/st revive`" in asked[0].text
    assert not [e for e in events_of(out, "public") if "Pacifist" in e.text]


def test_the_pacifist_does_not_spare_an_evil_player():
    out = end_day(day1(PACIFIST), ("p2", "p6"), ("p4", "p6"), ("p5", "p6"))
    assert not [e for e in events_of(out, "storyteller") if e.type == "pacifist"]


def test_a_dead_or_poisoned_pacifist_spares_nobody():
    state = act(day1(PACIFIST), type="add_reminder", target="p2", token="Poisoned", source="pukka").state
    out = end_day(state, ("p2", "p3"), ("p4", "p3"), ("p5", "p3"))
    assert not [e for e in events_of(out, "storyteller") if e.type == "pacifist"]


# ----- the Mastermind -----

MASTERMIND = ["shabaloth", "mastermind", "chambermaid", "goon", "tealady", "exorcist", "professor"]


def executed_demon(characters=MASTERMIND):
    return end_day(day1(characters), ("p3", "p1"), ("p4", "p1"), ("p5", "p1"), ("p6", "p1"))


def test_the_demon_executed_with_the_mastermind_alive_plays_one_more_day():
    out = executed_demon()
    assert not out.state.seat_of("p1").alive and out.state.pending_end is None
    assert out.state.phase == "night" and out.state.mastermind_day == 2
    assert "day 2 is played" in sheet(out)
    assert not [e for e in events_of(out, "public") if "Mastermind" in e.text]


def test_a_player_executed_on_the_mastermind_day_loses_their_team_the_game():
    day2 = through_night(executed_demon().state).state
    assert day2.day == 2 and day2.pending_end is None
    good = end_day(day2, ("p3", "p5"), ("p4", "p5"), ("p6", "p5"))
    assert good.state.pending_end.team == "evil" and "Mastermind" in good.state.pending_end.reason
    evil = end_day(day2, ("p3", "p2"), ("p4", "p2"), ("p6", "p2"))
    assert evil.state.pending_end.team == "good"


def test_no_execution_on_the_mastermind_day_and_good_wins():
    day2 = through_night(executed_demon().state).state
    out = end_day(day2)
    assert out.state.pending_end.team == "good" and "no execution" in out.state.pending_end.reason


def test_without_a_living_working_mastermind_the_demons_execution_ends_the_game():
    out = executed_demon(["shabaloth", "godfather", "chambermaid", "goon", "tealady", "exorcist", "professor"])
    assert out.state.pending_end.team == "good"
    state = act(day1(MASTERMIND), type="add_reminder", target="p2", token="Poisoned", source="pukka").state
    out = end_day(state, ("p3", "p1"), ("p4", "p1"), ("p5", "p1"), ("p6", "p1"))
    assert out.state.pending_end.team == "good"


def test_after_the_mastermind_day_a_dead_demon_still_ends_the_game():
    """The extra day ended (good's win, and the Storytellers went on): "every Demon is dead" holds again."""
    day2 = through_night(executed_demon().state).state
    state = act(end_day(day2).state, type="continue").state
    assert state.phase == "night"
    dawn = through_night(state).state
    assert dawn.pending_end is not None and dawn.pending_end.team == "good"
