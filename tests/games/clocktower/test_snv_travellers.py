"""Sects & Violets' Travellers: the Butcher (a second nomination after the day's execution), the Bone
Collector (a dead player's ability back until dusk), the Harlot (a visit the chosen player agrees to,
deaths the Storytellers decide) and the Barista (the Storytellers' choice of player and effect); each
test named after the rule point the official wiki settles (the readings it leaves open are in the
README's Interpretations, "Sects & Violets' Travellers")."""

import pytest
from support.clocktower_pure import (
    act,
    allows,
    by_player,
    choose,
    events_of,
    first_day,
    lock,
    new_game,
    next_night,
    refuses,
    through_night,
    timeout,
    traveller,
    vote,
)

from games.clocktower.asks import ask_for
from games.clocktower.copilot import read_answer, told
from games.clocktower.night import night_prompts
from games.clocktower.rules import chars, impaired, ruled
from games.clocktower.tally import NO_EXECUTION
from games.engine import IllegalAction

SNV = {"script": "Sects & Violets"}
# seat i holds TABLE[i - 1]: the Fang Gu in seat 1, the Witch in seat 2, the Mutant in seat 5
TABLE = ["fanggu", "witch", "clockmaker", "dreamer", "mutant", "seamstress", "oracle", "flowergirl"]


def day1(characters=TABLE):
    return first_day(SNV, characters)


def public_texts(out):
    return " ".join(e.text for e in events_of(out, "public"))


def storyteller_texts(out):
    return " ".join(e.text for e in events_of(out, "storyteller"))


def test_the_travellers_are_ruled_on_sects_and_violets():
    state = day1()
    assert all(ruled(state, c) for c in ("butcher", "bonecollector", "harlot", "barista"))


# ----- the Butcher -----

def butcher(state, target, by="t9"):
    return act(state, player=by, type="butcher_nominate", target=target)


def executed_at_days_end(state, nominee="p4", voters=("p2", "p3", "p6")):
    """Votes on ``nominee``, then the day's stages to its end: the outcome of the execution."""
    for voter in voters:
        state = vote(state, voter, nominee).state
    while True:
        out = timeout(state)
        if out.state.stage not in ("nominations", "voting", "final") or out.state.phase != "day":
            return out
        state = out.state


def test_after_the_days_execution_the_butcher_may_nominate_again_and_a_second_execution_happens():
    # the wiki: "The Witch is executed and dies. The Butcher then nominates the Sage ... The Sage dies too."
    out = executed_at_days_end(traveller(day1(), "butcher"))
    state = out.state
    assert state.phase == "day" and not state.seat_of("p4").alive
    assert "Butcher" in public_texts(out)  # the town is told the Butcher may nominate again
    out = butcher(state, "p6")
    assert "nominates Name6 (seat 6)" in public_texts(out)
    state = out.state
    for voter in ("p3", "p7", "p8"):
        state = vote(state, voter, "p6").state
    night = timeout(state).state
    assert night.phase == "night" and not night.seat_of("p6").alive and not night.seat_of("p4").alive


def test_the_butchers_nomination_needs_the_votes_as_normal_but_not_more_than_the_first_execution():
    # the wiki: "this second nomination does not need to exceed the vote tally of the previous nominations"
    state = butcher(executed_at_days_end(traveller(day1(), "butcher")).state, "p6").state
    state = vote(state, "p3", "p6").state  # 1 vote, where the first execution had 3
    night = timeout(state).state
    assert not night.seat_of("p6").alive
    # and as normal, no execution winning the vote means none
    state = butcher(executed_at_days_end(traveller(day1(), "butcher")).state, "p6").state
    state = vote(vote(vote(state, "p3", "p6").state, "p7", NO_EXECUTION).state, "p8", NO_EXECUTION).state
    assert timeout(state).state.seat_of("p6").alive


def test_the_butcher_may_nominate_a_player_already_nominated_today_and_after_nominating_today():
    # the wiki: the Butcher nominates the Town Crier, who is not executed; later "the Butcher nominates the Town
    # Crier again"
    state = vote(traveller(day1(), "butcher"), "t9", "p6").state
    state = executed_at_days_end(state, "p4", ("p2", "p3", "p7")).state
    state = butcher(state, "p6").state
    state = vote(vote(state, "p3", "p6").state, "p7", "p6").state
    assert not timeout(state).state.seat_of("p6").alive


def test_a_player_executed_who_does_not_die_still_lets_the_butcher_nominate():
    # the wiki: "If a player is executed, even if they do not die, then the Butcher may use their ability"
    state = act(traveller(day1(), "butcher"), type="kill", target="p4").state
    state = executed_at_days_end(state, "p4").state  # executing the dead
    assert state.executed == "p4"
    assert "nominates" in public_texts(butcher(state, "p6"))


def test_without_an_execution_today_the_butcher_may_not_nominate_again():
    # the wiki: "If no execution occurs today, then the Butcher may not use their ability at all today"
    state = traveller(day1(), "butcher")
    with pytest.raises(IllegalAction, match="after today's first execution"):
        butcher(state, "p6")
    out = executed_at_days_end(state, NO_EXECUTION, ())  # nobody is executed: night falls, no Butcher
    assert out.state.phase == "night" and "Butcher" not in public_texts(out)


def test_exiles_are_not_executions_for_the_butcher():
    # the wiki: "The Bone Collector is exiled, and then the Harlot is exiled ... exiles are not executions."
    state = traveller(traveller(day1(), "butcher"), "bonecollector", seat=10, target="t10")
    for voter in ("p1", "p2", "p3", "p4", "p5", "p6", "p7"):
        if "t10" not in state.exiled:
            state = act(state, player=voter, type="exile_vote", target="t10", vote="yes").state
    assert "t10" in state.exiled and not state.executed
    with pytest.raises(IllegalAction, match="after today's first execution"):
        butcher(state, "p6")


def test_the_butchers_second_execution_does_not_allow_a_third():
    # the wiki: "If this second execution succeeds, it does not allow the Butcher to nominate a third player."
    state = butcher(executed_at_days_end(traveller(day1(), "butcher")).state, "p6").state
    with pytest.raises(IllegalAction, match="does not allow a third"):
        butcher(state, "p7")


def test_the_butchers_window_passes_if_they_do_not_nominate():
    state = executed_at_days_end(traveller(day1(), "butcher")).state
    assert state.phase == "day"
    assert timeout(state).state.phase == "night"


def test_only_the_living_butcher_nominates_again():
    state = executed_at_days_end(traveller(day1(), "butcher")).state
    with pytest.raises(IllegalAction, match="Only the living Butcher"):
        butcher(state, "p6", by="p3")
    dead = act(traveller(day1(), "butcher"), type="kill", target="t9").state
    assert executed_at_days_end(dead).state.phase == "night"  # a dead Butcher has no ability: no window


def test_a_poisoned_butchers_nomination_is_spent_and_nothing_happens():
    state = executed_at_days_end(traveller(day1(), "butcher")).state
    state = act(state, type="add_reminder", target="t9", token="Poisoned", source="").state
    out = butcher(state, "p6")
    assert "nothing happens" in storyteller_texts(out)
    with pytest.raises(IllegalAction):
        vote(out.state, "p3", "p6")
    assert timeout(out.state).state.seat_of("p6").alive


def test_a_cursed_butcher_who_nominates_again_dies():
    state = traveller(day1(), "butcher")
    state = act(state, type="add_reminder", target="t9", token="Cursed", source="witch").state
    state = executed_at_days_end(state).state
    out = butcher(state, "p6")
    assert not out.state.seat_of("t9").alive


def test_the_votes_recap_keeps_both_executions_of_a_butchers_day():
    from games.clocktower.tally import votes_recap
    records = []
    out = executed_at_days_end(traveller(day1(), "butcher"))
    records += [e for e in out.events if e.type == "day"]
    out = butcher(out.state, "p6")
    state = vote(vote(out.state, "p3", "p6").state, "p7", "p6").state
    out = timeout(state)
    records += [e for e in out.events if e.type == "day"]
    recap = votes_recap(out.state, records)
    assert "**Day 1**: Name4 (seat 4) executed" in recap
    assert "**Day 1, the Butcher's nomination**: Name6 (seat 6) executed" in recap


# ----- the Bone Collector -----

def night2_with(characters=TABLE, dead=("p8",), character="bonecollector"):
    """Night 2 with a Traveller in seat 9 and ``dead`` killed by day."""
    state = traveller(day1(characters), character)
    for player in dead:
        state = act(state, type="kill", target=player).state
    return next_night(state)


def has_ability(state, player):
    return any(r.player == player and r.source == "bonecollector" and r.token == "Has Ability"
               for r in state.reminders)


def test_the_bone_collector_chooses_only_a_dead_player():
    state = night2_with()
    with pytest.raises(IllegalAction, match="choose a dead player"):
        choose(state, "t9", "p4")


def test_the_dead_player_chosen_regains_their_ability_and_is_woken_to_use_it():
    # the wiki: "The Bone Collector gives the dead Flowergirl her ability back. That night, the Flowergirl learns"
    state = act(night2_with(characters=[*TABLE[:3], "dreamer", "mutant", "seamstress", "oracle", "flowergirl"],
                            dead=("p8", "p4")), player="t9", type="night_choice", targets=["p4"]).state
    assert has_ability(state, "p4") and not state.seat_of("p4").alive
    assert ask_for(state, state.seat_of("p4"), chars(state)) is not None  # the dead Dreamer is asked tonight
    state = choose(choose(state, "p4", "p2"), "t9", "p8")  # the Bone Collector changes its mind: the Flowergirl
    assert has_ability(state, "p8") and not has_ability(state, "p4")
    state = lock(state).state
    assert "p8" in by_player(state) and "p4" not in by_player(state)  # the dead Flowergirl's information
    assert not state.seat_of("p8").alive  # "The chosen player remains dead"


def test_the_chosen_player_is_not_told_the_bone_collector_chose_them():
    out = act(night2_with(dead=("p4",)), player="t9", type="night_choice", targets=["p4"])
    to_them = [e for e in out.events if e.audience.kind == "player" and e.audience.id == "p4"]
    assert to_them and not any("Bone Collector" in e.text for e in to_them)  # woken to act, not told why
    assert "Bone Collector" not in public_texts(out) and "Has Ability" not in public_texts(out)
    assert "Bone Collector" in storyteller_texts(out)


def test_the_regained_ability_ends_at_dusk():
    state = lock(choose(night2_with(), "t9", "p8")).state
    state = through_night(state).state
    assert has_ability(state, "p8")  # until dusk: through the next day
    state = next_night(state)
    assert not has_ability(state, "p8")
    assert "p8" not in by_player(lock(state).state)


def test_the_bone_collector_uses_its_ability_once_per_game():
    state = lock(choose(night2_with(), "t9", "p8")).state
    assert any(r.player == "t9" and r.token == "No Ability" for r in state.reminders)
    state = next_night(through_night(state).state)
    assert ask_for(state, state.seat_of("t9"), chars(state)) is None


def test_if_the_bone_collector_dies_the_player_loses_the_regained_ability():
    state = choose(night2_with(), "t9", "p8")
    state = act(state, type="kill", target="t9").state
    assert "p8" not in by_player(lock(state).state)


def test_a_poisoned_bone_collectors_choice_regains_nothing():
    state = act(night2_with(), type="add_reminder", target="t9", token="Poisoned", source="").state
    state = lock(choose(state, "t9", "p8")).state
    assert "p8" not in by_player(state)


# ----- the Harlot -----

def plan(out):
    return next(e for e in events_of(out, "storyteller") if e.type == "night_plan").text


def visited(agree=True, target="p6"):
    """Night 2: the Harlot chose ``target``, who answered."""
    state = choose(night2_with(dead=(), character="harlot"), "t9", target)
    return act(state, player=target, type="waitress_answer", agree=agree).state


def test_the_harlot_chooses_a_living_player_each_night():
    state = night2_with(dead=("p8",), character="harlot")
    assert ask_for(state, state.seat_of("t9"), chars(state)) is not None
    with pytest.raises(IllegalAction, match="choose a living player"):
        choose(state, "t9", "p8")


def test_the_chosen_player_is_asked_privately_whether_they_agree():
    out = act(night2_with(dead=(), character="harlot"), player="t9", type="night_choice", targets=["p6"])
    asked = [e for e in out.events if e.audience.kind == "player" and e.audience.id == "p6"]
    assert asked and "Harlot" in asked[0].text and "agree" in asked[0].text
    assert not events_of(out, "public")
    assert [p.action for p in night_prompts(out.state, "p6")].count("waitress_answer") == 2  # agree or refuse


def test_if_they_agree_the_harlot_learns_their_character():
    # the wiki: "The good Harlot wakes and chooses the Philosopher, who chooses to reveal."
    state = lock(visited(agree=True)).state
    proposal = by_player(state)["t9"]
    assert proposal.answer == "Seamstress" and allows(proposal, "Seamstress")
    refuses(proposal, "Oracle")


def test_if_they_refuse_the_harlot_learns_nothing():
    # the wiki: "The next night, the Harlot chooses the No Dashii, who chooses not to reveal."
    state = lock(visited(agree=False)).state
    assert "t9" not in by_player(state)


def test_the_harlot_learns_the_character_not_the_alignment():
    state = lock(visited(agree=True)).state
    text = told(by_player(state)["t9"], read_answer(by_player(state)["t9"], "Seamstress"))
    assert "Seamstress" in text and "good" not in text.lower() and "evil" not in text.lower()


def test_the_storytellers_decide_whether_both_die_and_nobody_dies_unless_they_do():
    out = lock(visited(agree=True))
    assert "you may kill either or both" in plan(out)
    assert out.state.seat_of("p6").alive and out.state.seat_of("t9").alive


def test_a_demon_who_agrees_is_flagged_not_to_be_killed_to_end_the_game():
    # the wiki: "If the Demon reveals to the Harlot, you should not end the game by killing them."
    out = lock(visited(agree=True, target="p1"))
    assert "should not end the game" in plan(out)


def test_the_harlots_visit_is_never_told_to_the_town():
    state = visited(agree=True)
    out = through_night(state)
    assert "Harlot" not in public_texts(out) and "Seamstress" not in public_texts(out)


# ----- the Barista -----

def cup(state, target, effect):
    return act(state, type="barista", target=target, effect=effect)


def test_the_storytellers_are_asked_each_night_whom_the_barista_serves_and_how():
    # the wiki: "The Storyteller chooses which player the Barista affects each night, and which one"
    state = traveller(day1(), "barista")
    out = timeout(state)
    while out.state.phase != "night":
        out = timeout(out.state)
    told = [e for e in events_of(out, "storyteller") if e.type == "barista_due"]
    assert len(told) == 1 and "/st traveller barista" in told[0].text


def test_the_affected_player_learns_which_and_the_barista_learns_nothing():
    # the wiki: "The Barista does not know who or what the Storyteller chooses, but the affected player does."
    out = cup(night2_with(dead=(), character="barista"), "p6", "sober")
    to_them = [e for e in out.events if e.audience.kind == "player" and e.audience.id == "p6"]
    assert to_them and "sober" in to_them[0].text and "true" in to_them[0].text
    assert not [e for e in out.events if e.audience.kind == "player" and e.audience.id == "t9"]
    assert not events_of(out, "public")
    out = cup(out.state, "p7", "twice")
    assert any("twice" in e.text for e in out.events if e.audience.kind == "player" and e.audience.id == "p7")
    assert not any(r.player == "p6" and r.source == "barista" for r in out.state.reminders)  # one a night


NODASHII = ["nodashii", *TABLE[1:]]


def test_a_player_made_sober_and_healthy_is_neither_drunk_nor_poisoned_until_dusk():
    state = night2_with(characters=NODASHII, dead=(), character="barista")
    assert impaired(state, "p8")  # the No Dashii's neighbour (seat 8, the Flowergirl)
    state = cup(state, "p8", "sober").state
    assert not impaired(state, "p8")
    state = through_night(state).state
    assert not impaired(state, "p8")  # until dusk
    assert impaired(next_night(state), "p8")


def test_a_sober_and_healthy_townsfolk_gets_true_information_even_under_the_vortox():
    # the ability: "becomes sober, healthy & gets true info"
    state = act(traveller(day1(["vortox", *TABLE[1:]]), "barista"), type="kill", target="p3").state
    for voter in ("p2", "p5", "p6"):  # an execution today: no Vortox win
        state = vote(state, voter, "p4").state
    state = next_night(state)
    oracle = by_player(lock(state).state)["p7"]
    assert not allows(oracle, "0")  # under the Vortox, the Oracle's true count (no dead evil) is refused
    state = cup(state, "p7", "sober").state
    oracle = by_player(lock(state).state)["p7"]
    assert oracle.answer == "0" and allows(oracle, "0") and not allows(oracle, "1")


def test_acting_twice_lets_a_spent_once_per_game_ability_be_used_again():
    # the wiki: "If they have already used a 'once per game' ability, they may use that ability again."
    state = act(new_game(SNV, TABLE), type="begin").state
    state = choose(state, "p6", "p3", "p4")  # the Seamstress uses hers on night 1
    state = traveller(through_night(state).state, "barista")
    state = next_night(state)
    assert ask_for(state, state.seat_of("p6"), chars(state)) is None
    out = cup(state, "p6", "twice")
    assert ask_for(out.state, out.state.seat_of("p6"), chars(out.state)) is not None
    assert any(e.type == "night_ask" for e in out.events if e.audience.kind == "player" and e.audience.id == "p6")
    assert "a second time" in storyteller_texts(out)  # the second use of a night ability is theirs to run


def test_a_poisoned_barista_serves_nobody():
    state = act(night2_with(characters=NODASHII, dead=(), character="barista"), type="add_reminder", target="t9",
                token="Poisoned", source="").state
    out = cup(state, "p8", "sober")
    assert impaired(out.state, "p8") and "nothing happens" in storyteller_texts(out)
    assert not [e for e in out.events if e.audience.kind == "player"]


def test_only_a_living_barista_is_served_at_night():
    with pytest.raises(IllegalAction, match="living Barista"):
        cup(night2_with(dead=()), "p6", "sober")
    with pytest.raises(IllegalAction, match="at night"):
        cup(traveller(day1(), "barista"), "p6", "sober")


def test_a_you_start_knowing_ability_regained_works_again():
    # the wiki: "If their ability was a 'you start knowing' ... ability—such as the ... Clockmaker ... they may use
    # it again"
    state = night2_with(dead=("p3",))
    assert "p3" not in by_player(lock(state).state)
    state = lock(choose(state, "t9", "p3")).state
    proposal = by_player(state)["p3"]
    assert proposal.character == "clockmaker" and proposal.answer == "1"  # the Fang Gu beside the Witch
