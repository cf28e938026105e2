"""Sects & Violets' information characters, ruled by the copilot: the Clockmaker, the Dreamer, the
Flowergirl, the Town Crier, the Oracle, the Seamstress and the Sage, and the Vortox's false information;
each test named after the rule point the official wiki settles; every illegal answer refused in words."""

import json

import pytest
from support.clocktower_pure import (
    GAME,
    act,
    allows,
    by_player,
    new_game,
    refuses,
    through_night,
    timeout,
    vote,
)

from games.clocktower.asks import asks
from games.clocktower.copilot import _PROPOSERS, read_answer, told
from games.engine import IllegalAction

SNV = {"script": "Sects & Violets"}


def begun(characters, options=SNV, shown=None):
    return act(new_game(options, characters, shown), type="begin").state


def script(*ids):
    return {"script": json.dumps([{"id": "_meta", "name": "Sects and more"}, *ids])}


def proposer(state, card, player):
    return _PROPOSERS[card](state, GAME.chars_of(state), state.seat_of(player))


def poison(state, player, source="nodashii"):
    return act(state, type="add_reminder", target=player, token="Poisoned", source=source).state


def choose(state, player, *targets):
    return act(state, player=player, type="night_choice", targets=list(targets)).state


def to_lock(state):
    for _ in range(50):
        if state.stage == "locked":
            return state
        state = timeout(state).state
    raise AssertionError(f"never reached the lock: {state.phase} {state.stage}")


def to_day(state):
    while state.phase == "night":
        state = timeout(state).state
    return state


def to_night(state):
    for _ in range(50):
        if state.phase == "night":
            return state
        if state.phase == "ending":  # a day without an execution under the Vortox (snv_day): the Storytellers
            state = act(state, type="continue").state  # let the game go on, as these tests read information
            continue
        state = timeout(state).state
    raise AssertionError(f"never reached the night: {state.phase} {state.stage}")


# ----- the Clockmaker -----

def test_the_clockmaker_learns_1_when_the_demon_sits_next_to_a_minion():
    # the wiki: the Fang Gu is sitting next to the Pit-Hag: "1"
    found = by_player(begun(["fanggu", "pithag", "clockmaker", "oracle", "sage", "dreamer", "mutant"]))["p3"]
    assert found.answer == "1" and found.allowed == ["1"] and found.ready
    refuses(found, "2", "0", "4", "one", "-1")
    assert told(found, read_answer(found, "1")) == "The Demon is 1 step from its nearest Minion."


def test_the_clockmaker_counts_to_the_nearest_minion_either_way_around():
    # the wiki: clockwise the Dreamer, the Snake Charmer, then the Evil Twin (3); anticlockwise the Mutant,
    # the Sweetheart, the Philosopher, the Sage, then the Witch (5): "3"
    chars = ["nodashii", "dreamer", "snakecharmer", "eviltwin", "clockmaker", "oracle", "witch", "sage",
             "philosopher", "sweetheart", "mutant"]
    found = by_player(begun(chars))["p5"]
    assert found.answer == "3" and found.allowed == ["3"]
    refuses(found, "5", "6")  # 11 players: at most 5 steps
    assert told(found, read_answer(found, "3")) == "The Demon is 3 steps from its nearest Minion."


def test_an_evil_traveller_is_a_step_for_the_clockmaker_and_not_a_minion():
    # the wiki: the Fang Gu neighbours an evil Traveller, beside whom sits the Cerenovus: "2"
    state = to_day(begun(["fanggu", "clockmaker", "oracle", "sage", "dreamer", "towncrier", "cerenovus"]))
    assert proposer(state, "clockmaker", "p2").answer == "1"
    evil = act(state, type="add_traveller", target="p9", name="Nine", seat=8, character="bonecollector",
               alignment="evil").state
    assert proposer(evil, "clockmaker", "p2").answer == "2"


def test_the_clockmaker_wakes_on_the_first_night_only():
    state = begun(["fanggu", "pithag", "clockmaker", "oracle", "sage", "dreamer", "mutant"])
    assert "p3" in by_player(to_lock(state))
    assert "p3" not in by_player(to_lock(to_night(to_day(state))))


def test_the_recluse_may_register_as_a_minion_or_the_demon_to_the_clockmaker():
    ids = ("imp", "clockmaker", "chef", "soldier", "poisoner", "empath", "recluse")
    state = begun(list(ids), script(*ids))
    found = by_player(state)["p2"]
    assert found.answer == "3"  # the Poisoner in seat 5, three steps anticlockwise from the Imp in seat 1
    # the Recluse in seat 7 registering as a Minion: 1; as the Demon: 2 (to the Poisoner in seat 5)
    assert found.allowed == ["1", "2", "3"]
    assert any("may misregister" in f for f in found.flags)
    assert by_player(poison(state, "p7", "poisoner"))["p2"].allowed == ["3"]
    spy = begun(["imp", "clockmaker", "chef", "spy", "soldier", "empath", "monk"],
                script("imp", "clockmaker", "chef", "spy", "soldier", "empath", "monk"))
    found = by_player(spy)["p2"]
    assert found.answer == "3"
    # the Spy may register as good: no Minion at all, so no count from it; 3 stays the only answer
    assert found.allowed == ["3"]


def test_a_poisoned_clockmaker_may_be_told_any_number_of_steps():
    state = poison(begun(["fanggu", "pithag", "clockmaker", "oracle", "sage", "dreamer", "mutant"]), "p3")
    found = by_player(state)["p3"]
    assert found.allowed == ["1", "2", "3"] and "drunk or poisoned" in found.flags[0]
    refuses(found, "0", "4")


# ----- the Dreamer -----

DREAMER = ["vortox", "dreamer", "mutant", "sage", "oracle", "cerenovus", "clockmaker"]


def test_the_dreamer_chooses_a_player_not_themself_nor_a_traveller():
    ask = asks()["dreamer"]
    assert ask.count == 1 and ask.not_self and ask.not_traveller
    state = to_night(to_day(begun(["fanggu", "dreamer", "mutant", "sage", "oracle", "cerenovus", "clockmaker"])))
    with pytest.raises(IllegalAction, match="cannot choose yourself"):
        choose(state, "p2", "p2")
    traveller = act(to_day(begun(["fanggu", "dreamer", "mutant", "sage", "oracle", "cerenovus", "clockmaker"])),
                    type="add_traveller", target="p9", name="Nine", seat=8, character="barista",
                    alignment="good").state
    with pytest.raises(IllegalAction, match="is a Traveller"):
        choose(to_night(traveller), "p2", "p9")


def test_the_dreamer_learns_the_players_character_and_one_of_the_other_kind():
    # the wiki: the Dreamer chooses the Mutant and learns "the Mutant or the Cerenovus"
    state = choose(begun(["fanggu", "dreamer", "mutant", "sage", "oracle", "cerenovus", "clockmaker"]), "p2", "p3")
    found = by_player(state)["p2"]
    assert found.ready and found.about == "Name3 (seat 3)"
    assert allows(found, "Mutant or Cerenovus") and allows(found, "Vortox or Mutant")
    refuses(found,
            "Sage or Cerenovus",  # neither is correct
            "Mutant or Sage",  # two good characters
            "Cerenovus or Vortox",  # two evil characters
            "Mutant",  # one character
            "Mutant or Imp",  # the Imp is not on the script
            "3 or Cerenovus")
    assert told(found, read_answer(found, "Mutant or Cerenovus")) == "Name3 (seat 3) is the Mutant or the Cerenovus."


def test_the_dreamer_choosing_an_evil_player_learns_their_character_and_a_good_one():
    state = choose(begun(["fanggu", "dreamer", "mutant", "sage", "oracle", "cerenovus", "clockmaker"]), "p2", "p1")
    found = by_player(state)["p2"]
    assert allows(found, "Sage or Fang Gu") and allows(found, "Fang Gu or Savant")
    refuses(found, "Sage or Vortox", "Fang Gu or Cerenovus")


def test_the_dreamer_waits_for_a_choice():
    found = by_player(begun(["fanggu", "dreamer", "mutant", "sage", "oracle", "cerenovus", "clockmaker"]))["p2"]
    assert not found.ready
    refuses(found, "Mutant or Cerenovus")


def test_the_recluse_may_be_shown_to_the_dreamer_as_an_evil_character():
    ids = ("imp", "dreamer", "recluse", "chef", "soldier", "empath", "poisoner")
    state = choose(begun(list(ids), script(*ids)), "p2", "p3")
    found = by_player(state)["p2"]
    assert allows(found, "Chef or Poisoner") and allows(found, "Recluse or Imp")
    refuses(by_player(poison(state, "p3", "poisoner"))["p2"], "Chef or Poisoner")


def test_a_poisoned_dreamer_may_be_told_any_good_and_evil_pair():
    state = poison(choose(begun(["fanggu", "dreamer", "mutant", "sage", "oracle", "cerenovus", "clockmaker"]),
                          "p2", "p3"), "p2")
    found = by_player(state)["p2"]
    assert allows(found, "Sage or Witch")
    refuses(found, "Sage or Oracle", "Witch")


# ----- the Flowergirl -----

# (the information fixtures seat a Fang Gu: a No Dashii would poison the Townsfolk beside it)
FLOWERGIRL = ["fanggu", "flowergirl", "sage", "oracle", "dreamer", "clockmaker", "witch"]


def day_one(characters=FLOWERGIRL, options=SNV):
    return to_day(begun(characters, options))


def test_the_flowergirl_learns_yes_if_a_demon_voted_today_even_on_a_player_not_executed():
    state = day_one()
    state = vote(state, "p3", "p4").state  # the Sage nominates the Oracle
    state = vote(state, "p1", "p4").state  # the Demon votes on it
    state = vote(state, "p5", "p6").state
    for voter in ("p6", "p7", "p2"):
        state = vote(state, voter, "p6").state  # the Clockmaker is executed, not the Oracle
    found = by_player(to_lock(to_night(state)))["p2"]
    assert found.answer == "yes" and found.allowed == ["yes"]
    refuses(found, "no", "maybe")
    assert told(found, read_answer(found, "yes")) == "A Demon voted on day 1."


def test_the_flowergirl_learns_no_when_the_demon_did_not_vote():
    state = day_one()
    state = vote(state, "p3", "p4").state
    state = vote(state, "p7", "p4").state  # a Minion's vote is not a Demon's
    state = vote(state, "p1", "none").state  # a vote for no execution is on no nomination
    found = by_player(to_lock(to_night(state)))["p2"]
    assert found.answer == "no" and found.allowed == ["no"]
    assert told(found, read_answer(found, "no")) == "No Demon voted on day 1."


def test_the_flowergirl_does_not_wake_on_the_first_night():
    assert "p2" not in by_player(to_lock(begun(FLOWERGIRL)))


def test_the_recluse_voting_may_register_as_the_demon_to_the_flowergirl():
    ids = ("imp", "flowergirl", "recluse", "chef", "soldier", "empath", "poisoner")
    state = day_one(list(ids), script(*ids))
    state = vote(state, "p3", "p4").state
    found = by_player(to_lock(to_night(state)))["p2"]
    assert found.answer == "no" and found.allowed == ["no", "yes"]


# ----- the Town Crier -----

CRIER = ["fanggu", "towncrier", "sage", "oracle", "dreamer", "clockmaker", "witch"]


def test_the_town_crier_learns_yes_if_a_minion_nominated_today():
    # the wiki: four players nominated, two of them Minions, no execution: "yes"
    state = day_one(CRIER)
    state = vote(state, "p7", "p4").state  # the Witch nominates the Oracle
    state = vote(state, "p3", "p5").state
    found = by_player(to_lock(to_night(state)))["p2"]
    assert found.answer == "yes" and found.allowed == ["yes"]
    refuses(found, "no")
    assert told(found, read_answer(found, "yes")) == "A Minion nominated on day 1."


def test_a_minion_calling_an_exile_is_no_nomination_to_the_town_crier():
    # the wiki: a Minion called for the exile of a Traveller, who was exiled: "no"
    state = act(day_one(CRIER), type="add_traveller", target="p9", name="Nine", seat=8, character="barista",
                alignment="good").state
    state = act(state, player="p7", type="exile_vote", target="p9", vote="yes").state
    state = vote(state, "p3", "p5").state  # a good player nominates
    found = by_player(to_lock(to_night(state)))["p2"]
    assert found.answer == "no" and found.allowed == ["no"]
    assert told(found, read_answer(found, "no")) == "No Minion nominated on day 1."


def test_the_spy_nominating_may_register_as_good_to_the_town_crier():
    ids = ("imp", "towncrier", "chef", "spy", "soldier", "empath", "monk")
    state = vote(day_one(list(ids), script(*ids)), "p4", "p5").state
    found = by_player(to_lock(to_night(state)))["p2"]
    assert found.answer == "yes" and found.allowed == ["no", "yes"]


# ----- the Oracle -----

ORACLE = ["fanggu", "oracle", "flowergirl", "juggler", "dreamer", "clockmaker", "witch"]


def test_the_oracle_learns_zero_when_every_dead_player_is_good():
    # the wiki: the Flowergirl executed, the Demon kills the Juggler: "0"
    state = day_one(ORACLE)
    for voter in ("p1", "p2", "p4", "p5"):
        state = vote(state, voter, "p3").state
    state = to_night(state)
    state = act(state, type="kill", target="p4").state
    found = by_player(to_lock(state))["p2"]
    assert found.answer == "0" and found.allowed == ["0"]
    refuses(found, "1", "many", "-1")
    assert told(found, read_answer(found, "0")) == "0 dead players are evil."


def test_the_oracle_counts_dead_minions_and_evil_travellers():
    # the wiki: an evil Traveller exiled and a dead Minion count
    state = act(day_one(ORACLE), type="add_traveller", target="p9", name="Nine", seat=8, character="butcher",
                alignment="evil").state
    state = act(state, type="kill", target="p9").state
    state = act(state, type="kill", target="p7").state
    state = act(state, type="kill", target="p3").state
    found = by_player(to_lock(to_night(state)))["p2"]
    assert found.answer == "2" and found.allowed == ["2"]
    assert told(found, read_answer(found, "2")) == "2 dead players are evil."


def test_a_dead_recluse_may_register_as_evil_to_the_oracle():
    ids = ("imp", "oracle", "recluse", "chef", "soldier", "empath", "poisoner")
    state = act(day_one(list(ids), script(*ids)), type="kill", target="p3").state
    found = by_player(to_lock(to_night(state)))["p2"]
    assert found.answer == "0" and found.allowed == ["0", "1"]


# ----- the Seamstress -----

SEAMSTRESS = ["fanggu", "seamstress", "sage", "oracle", "dreamer", "clockmaker", "witch"]


def test_the_seamstress_chooses_2_players_not_themself_or_no_one():
    ask = asks()["seamstress"]
    assert ask.count == 2 and ask.not_self and ask.may_choose_no_one and ask.once_per_game
    state = begun(SEAMSTRESS)
    with pytest.raises(IllegalAction, match="cannot choose yourself"):
        choose(state, "p2", "p2", "p3")
    assert choose(state, "p2", "no-one").night_choices["p2"] == ["no-one"]


def test_the_seamstress_learns_if_two_players_are_the_same_alignment():
    state = begun(SEAMSTRESS)
    same = by_player(to_lock(choose(state, "p2", "p3", "p4")))["p2"]
    assert same.answer == "yes" and same.allowed == ["yes"]
    refuses(same, "no")
    assert told(same, read_answer(same, "yes")) == "Name3 (seat 3) and Name4 (seat 4) are of the same alignment."
    differ = by_player(to_lock(choose(state, "p2", "p7", "p4")))["p2"]
    assert differ.answer == "no" and differ.allowed == ["no"]
    assert told(differ, read_answer(differ, "no")) == \
        "Name4 (seat 4) and Name7 (seat 7) are not of the same alignment."


def test_the_seamstress_uses_the_ability_once_and_no_one_keeps_it():
    state = choose(begun(SEAMSTRESS), "p2", "no-one")
    assert "p2" not in by_player(to_lock(state))  # no choice: nothing to learn
    state = to_night(to_day(state))
    state = choose(state, "p2", "p3", "p4")
    state = to_night(to_day(state))
    with pytest.raises(IllegalAction, match="chooses nothing tonight"):
        choose(state, "p2", "p5", "p6")


def test_the_spy_may_register_as_good_to_the_seamstress():
    ids = ("imp", "seamstress", "chef", "spy", "soldier", "empath", "monk")
    state = choose(begun(list(ids), script(*ids)), "p2", "p4", "p5")
    found = by_player(to_lock(state))["p2"]
    assert found.answer == "no" and found.allowed == ["no", "yes"]


# ----- the Sage -----

SAGE_SCRIPT = ("imp", "sage", "chef", "soldier", "empath", "monk", "poisoner", "pithag")


def night_two(characters, options):
    return to_night(to_day(begun(characters, options)))


def test_the_sage_the_demon_kills_learns_that_it_is_1_of_2_players():
    # the wiki: the Demon kills the Sage; the Storyteller points at two players, one of them the Demon
    state = night_two(["imp", "sage", "chef", "soldier", "empath", "monk", "poisoner"], script(*SAGE_SCRIPT))
    state = choose(state, "p1", "p2")
    found = by_player(to_lock(state))["p2"]
    assert found.ready and allows(found, "1 and 5") and allows(found, "4 and 1")
    refuses(found, "3 and 4",  # neither is the Demon
            "1", "2 and 1")  # one player; the Sage themself
    assert told(found, read_answer(found, "1 and 5")) == \
        "The Demon who killed you is one of Name1 (seat 1) and Name5 (seat 5)."


def test_the_sage_learns_nothing_when_killed_otherwise():
    state = night_two(["imp", "sage", "chef", "soldier", "empath", "monk", "poisoner"], script(*SAGE_SCRIPT))
    assert "p2" not in by_player(to_lock(choose(state, "p1", "p3")))  # alive: nothing
    state = to_day(night_two(["imp", "sage", "chef", "soldier", "empath", "monk", "poisoner"], script(*SAGE_SCRIPT)))
    for voter in ("p1", "p3", "p4", "p5"):
        state = vote(state, voter, "p2").state
    assert "p2" not in by_player(to_lock(to_night(state)))  # executed: not the Demon's kill


def test_a_sage_killed_by_the_storytellers_hand_is_flagged_as_theirs_to_send():
    state = act(night_two(["imp", "sage", "chef", "soldier", "empath", "monk", "poisoner"], script(*SAGE_SCRIPT)),
                type="kill", target="p2").state
    found = by_player(to_lock(state))["p2"]
    assert any("killed by your hand" in f for f in found.flags)
    assert allows(found, "1 and 3")


def test_a_drunk_sage_the_demon_kills_may_be_shown_any_2_players():
    # the wiki: the Demon kills a drunk Sage: a dead player and an alive one, neither the Demon
    state = night_two(["imp", "sage", "chef", "soldier", "empath", "monk", "poisoner"], script(*SAGE_SCRIPT))
    state = poison(choose(state, "p1", "p2"), "p2", "poisoner")
    found = by_player(to_lock(state))["p2"]
    assert allows(found, "3 and 4")
    refuses(found, "3")


# ----- the Vortox -----

VORTOX = ["vortox", "clockmaker", "dreamer", "seamstress", "oracle", "witch", "mutant"]


def test_under_the_vortox_the_clockmaker_learns_a_false_number():
    found = by_player(begun(VORTOX))["p2"]
    assert found.allowed == ["1", "3"] and found.answer == "1"  # the truth: the Witch in seat 6, 2 steps away
    assert "the Vortox" in found.flags[0]


def test_under_the_vortox_the_dreamer_learns_two_characters_the_player_is_not():
    state = choose(begun(VORTOX), "p3", "p7")
    found = by_player(state)["p3"]
    assert found.ready and allows(found, found.answer)
    assert allows(found, "Sage or Witch")
    refuses(found, "Mutant or Witch")  # true
    assert "the Vortox" in found.flags[0]


def test_under_the_vortox_the_seamstress_learns_the_opposite():
    found = by_player(to_lock(choose(begun(VORTOX), "p4", "p2", "p3")))["p4"]
    assert found.answer == "no" and found.allowed == ["no"]


def test_the_vortox_does_not_falsify_when_poisoned_or_dead():
    state = begun(VORTOX)
    poisoned = by_player(poison(state, "p1", ""))["p2"]
    assert poisoned.allowed == ["2"]
    dead = by_player(act(state, type="kill", target="p1").state)["p2"]
    assert dead.allowed == ["2"]


def test_under_the_vortox_an_answer_with_no_false_value_is_flagged_any_answer():
    # the Seamstress choosing two players who may misregister both ways has no false answer
    ids = ("vortox", "seamstress", "recluse", "spy", "clockmaker", "oracle", "dreamer")
    state = choose(begun(list(ids), script(*ids)), "p2", "p3", "p4")
    found = by_player(to_lock(state))["p2"]
    assert found.allowed == ["no", "yes"] and "no answer of the form is false" in found.flags[0]


def test_under_the_vortox_the_oracle_refuses_the_true_count():
    state = act(day_one(["vortox", "oracle", "flowergirl", "juggler", "dreamer", "clockmaker", "witch"]),
                type="kill", target="p7").state
    found = by_player(to_lock(to_night(state)))["p2"]
    refuses(found, "1")
    assert allows(found, "0") and allows(found, "3")


# ----- the characters Her Royal Highness Register already rules, checked on Sects & Violets -----

def test_the_mathematician_and_the_juggler_are_proposed_on_sects_and_violets():
    state = begun(["fanggu", "mathematician", "juggler", "oracle", "dreamer", "clockmaker", "witch"])
    found = by_player(state)["p2"]
    assert found.answer == "0" and found.allowed == [str(n) for n in range(7)]
    state = to_day(state)
    state = act(state, player="p3", type="juggler_guess", guesses={"p1": "fanggu", "p4": "sage"},
                place="announcements").state
    juggler = by_player(to_lock(to_night(state)))["p3"]
    assert juggler.answer == "1" and juggler.allowed == ["1"]


# ----- nothing of it reaches anyone else -----

def test_sects_and_violets_information_reaches_its_player_alone():
    state = choose(begun(["nodashii", "seamstress", "dreamer", "clockmaker", "sage", "oracle", "witch"]),
                   "p2", "p3", "p7")
    state = choose(state, "p3", "p1")
    state = to_lock(state)
    for player in ("p2", "p3", "p4"):
        out = act(state, type="inform", target=player)
        assert all(e.audience.kind == "storyteller" for e in out.events)
        state = out.state
    dawn = timeout(state)
    told_events = [e for e in dawn.events if e.type == "information"]
    assert sorted(e.audience.id for e in told_events) == ["p2", "p3", "p4"]
    assert all(e.audience.kind == "player" for e in told_events)
    public = " ".join(e.text for e in dawn.events if e.audience.kind in ("public", "thread"))
    for words in ("alignment", "No Dashii", "steps", "Seamstress", "Dreamer", "Clockmaker"):
        assert words not in public


# ----- the Vortox, by the wiki's examples -----

def test_the_vortox_kills_the_sage_who_learns_two_players_neither_of_them_the_demon():
    # the Storytellers kill the Sage as the Vortox's kill (the bot does not rule the Vortox's kill)
    sage = to_night(to_day(begun(["vortox", "sage", "dreamer", "seamstress", "oracle", "witch", "mutant"])))
    sage = act(sage, type="kill", target="p2").state
    found = by_player(to_lock(sage))["p2"]
    assert "the Vortox" in found.flags[0]
    refuses(found, "1 and 3")  # the Vortox is one of them: true
    assert allows(found, "3 and 4") and allows(found, found.answer)


def test_under_the_vortox_with_no_vote_and_no_nomination_the_flowergirl_and_town_crier_learn_yes():
    state = day_one(["vortox", "flowergirl", "towncrier", "oracle", "dreamer", "clockmaker", "witch"])
    found = by_player(to_lock(to_night(state)))
    assert found["p2"].allowed == ["yes"] and found["p3"].allowed == ["yes"]
    assert found["p2"].answer == found["p3"].answer == "yes"


def test_under_the_vortox_the_dreamer_choosing_the_savant_learns_two_wrong_characters():
    # the wiki: the Dreamer chooses the Savant and learns "the Philosopher or the No Dashii"
    state = choose(begun(["vortox", "dreamer", "savant", "oracle", "sage", "clockmaker", "witch"]), "p2", "p3")
    found = by_player(state)["p2"]
    assert allows(found, "Philosopher or No Dashii")
    refuses(found, "Savant or No Dashii")


def test_under_the_vortox_a_poisoned_townsfolk_still_learns_false_information():
    # the wiki: "Even if they are drunk or poisoned, it must be false"
    state = poison(begun(VORTOX), "p2", "")
    found = by_player(state)["p2"]
    assert found.allowed == ["1", "3"] and any("false all the same" in f for f in found.flags)


def test_under_the_vortox_the_mathematician_may_be_told_any_count_but_its_own():
    found = by_player(begun(["vortox", "mathematician", "dreamer", "oracle", "sage", "clockmaker", "witch"]))["p2"]
    assert found.answer != "0" and "0" not in found.allowed and "7" in found.allowed


# ----- the Evil Twin's pair -----

def test_the_evil_twin_is_paired_with_one_random_opposing_player_once():
    import random

    from games.clocktower.snv_setup import TWIN, place_twin, twins
    landed = set()
    for seed in range(40):
        state = new_game(SNV, ["fanggu", "eviltwin", "sage", "oracle", "dreamer", "clockmaker", "mutant"])
        good = place_twin(state, random.Random(seed))
        assert state.seat_of(good).alignment == "good" and twins(state) == [("p2", good)]
        assert place_twin(state, random.Random(seed + 1)) == good  # placed once
        assert [r.player for r in state.reminders if r.token == TWIN] == [good]
        landed.add(good)
    assert landed == {"p3", "p4", "p5", "p6", "p7"}
    none = new_game(SNV, ["fanggu", "witch", "sage", "oracle", "dreamer", "clockmaker", "mutant"])
    assert place_twin(none, random.Random(1)) is None and not none.reminders


def test_the_twins_learn_each_other_and_their_characters_and_nobody_else_does():
    import random

    from games.clocktower.snv_setup import place_twin
    state = new_game(SNV, ["fanggu", "eviltwin", "sage", "oracle", "dreamer", "clockmaker", "mutant"])
    good = place_twin(state, random.Random(3))
    out = act(state, type="begin")
    cards = {e.audience.id: e.text for e in out.events if e.type == "character"}
    label = state.label(good)
    good_character = GAME.chars_of(state)[state.seat_of(good).character].name
    assert f"Your twin: {label}, the {good_character}." in cards["p2"]
    assert "Your twin: Name2 (seat 2), the Evil Twin." in cards[good]
    for player, text in cards.items():
        if player not in ("p2", good):
            assert "twin" not in text.lower()
    public = " ".join(e.text for e in out.events if e.audience.kind in ("public", "thread"))
    assert "twin" not in public.lower()


# ----- the Storytellers' judgements by day: the Savant, the Artist, madness -----


def judged_text(out):
    found = [e for e in out.events if e.type == "judged_today"]
    assert all(e.audience.kind == "storyteller" for e in found)
    return found[0].text if found else ""


def test_the_savant_is_named_to_the_storytellers_as_theirs_to_judge_each_day():
    out = through_night(begun(["nodashii", "savant", "artist", "mutant", "dreamer", "clockmaker", "witch"]))
    text = judged_text(out)
    assert "Name2 (seat 2), the Savant, may visit you today: tell them 2 things, 1 true & 1 false" in text
    assert "Name3 (seat 3), the Artist, may privately ask you one yes/no question" in text
    assert "Name4 (seat 4), the Mutant: if they are \"mad\" about being an Outsider today" in text
    public = " ".join(e.text for e in out.events if e.audience.kind in ("public", "thread"))
    assert "Savant" not in public and "Artist" not in public and "Mutant" not in public


def test_under_the_vortox_both_of_the_savants_statements_are_false():
    # the wiki (the Vortox): the Savant learns two pieces of information each day; both are false
    text = judged_text(through_night(begun(["vortox", "savant", "artist", "oracle", "dreamer", "clockmaker", "witch"])))
    assert "Under the Vortox (Name1 (seat 1)) both must be false." in text
    assert "the Artist, may privately ask" in text and "it must be false" in text


def test_the_artists_question_is_named_until_its_no_ability_token_is_placed():
    state = begun(["nodashii", "savant", "artist", "mutant", "dreamer", "clockmaker", "witch"])
    state = act(state, type="add_reminder", target="p3", token="No Ability", source="artist").state
    assert "Artist" not in judged_text(through_night(state))


def test_the_cerenovus_target_is_named_with_the_madness_for_the_storytellers_to_judge():
    state = begun(["nodashii", "savant", "artist", "oracle", "dreamer", "clockmaker", "cerenovus"])
    state = choose(state, "p7", "p5")
    state = act(state, player="p7", type="night_choice", character="clockmaker").state
    text = judged_text(through_night(state))
    assert "Name5 (seat 5) was made \"mad\" as the Clockmaker by Name7 (seat 7), the Cerenovus last night" in text


def test_what_the_storytellers_tell_the_savant_is_recorded_and_revealed_at_the_end():
    state = to_day(begun(["nodashii", "savant", "artist", "oracle", "dreamer", "clockmaker", "witch"]))
    out = act(state, type="tell", target="p2", text="The Witch is alive. The Dreamer is evil.")
    records = [e for e in out.events if e.audience.kind == "record"]
    assert [r.type for r in records] == ["judged"] and records[0].data["card"] == "savant"
    assert not [e for e in act(state, type="tell", target="p4", text="hello").events
                if e.audience.kind == "record"]  # the Oracle's words are not a judgement of the Savant's kind
    ended = act(out.state, type="declare_winner", team="good", reason="").state
    recap = GAME.recap(ended, records)
    judged = [e for e in recap if e.type == "judged_recap"]
    assert judged and "day 1, Name2, as the Savant: The Witch is alive. The Dreamer is evil." in judged[0].text


def test_the_witch_and_cerenovus_tokens_are_on_the_storytellers_night_sheet_only():
    state = to_day(begun(["nodashii", "savant", "artist", "oracle", "dreamer", "cerenovus", "witch"]))
    state = act(state, type="add_reminder", target="p4", token="Cursed", source="witch").state
    state = act(state, type="add_reminder", target="p5", token="Mad", source="cerenovus").state
    out = None
    while state.phase != "night":
        out = timeout(state)
        state = out.state
    sheet = next(e for e in out.events if e.type == "night_sheet")
    assert sheet.audience.kind == "storyteller"
    # (the Witch's curse lasts until dusk, snv_day: a Cursed token is gone from the grimoire by the sheet)
    assert "Name5 (seat 5): Mad (Cerenovus)" in sheet.text.split("🔖 On the grimoire: ")[1]
    public = " ".join(e.text for e in out.events if e.audience.kind in ("public", "thread"))
    assert "Cursed" not in public and "Mad" not in public


def test_a_dealt_evil_twin_gets_its_twin_token_with_the_deal():
    from games.clocktower.snv_setup import twins
    from games.engine import Player
    from games.engine.run import start
    found = 0
    for seed in range(60):
        players = [Player(id=f"p{i}", name=f"Name{i}", seat=i) for i in range(1, 11)]
        state = start(GAME, players, SNV, seed=seed).state
        if not state.by_character("eviltwin"):
            continue
        found += 1
        [(evil, good)] = twins(state)
        assert state.seat_of(evil).character == "eviltwin" and state.seat_of(good).alignment == "good"
    assert found


def test_the_clockmakers_number_is_the_storytellers_with_no_minion_in_play():
    found = by_player(begun(["fanggu", "clockmaker", "oracle", "sage", "dreamer", "towncrier", "mutant"]))["p2"]
    assert not found.ready and found.allowed == ["1", "2", "3"]
    assert any("no Demon or no Minion" in f for f in found.flags)


def test_under_the_vortox_the_undertaker_after_no_execution_still_learns_nothing():
    ids = ("vortox", "undertaker", "clockmaker", "oracle", "dreamer", "sage", "witch")
    state = to_lock(to_night(to_day(begun(list(ids), script(*ids)))))
    found = by_player(state)["p2"]
    assert found.allowed == ["nothing"] and "nothing to learn" in found.flags[0]
    executed = to_day(begun(list(ids), script(*ids)))
    for voter in ("p1", "p3", "p4", "p5"):
        executed = vote(executed, voter, "p6").state
    found = by_player(to_lock(to_night(executed)))["p2"]
    refuses(found, "Sage")  # the truth
    assert allows(found, "Oracle") and found.answer != "Sage"


def test_the_oracle_counts_a_minion_the_demon_killed_tonight():
    # the wiki: the Oracle wakes after the Demon; "the Demon kills one of its Minions": it counts
    state = to_night(day_one(ORACLE))
    state = act(state, type="kill", target="p7").state
    assert by_player(to_lock(state))["p2"].answer == "1"


def test_a_poisoned_seamstress_spends_the_ability_all_the_same():
    state = poison(choose(begun(SEAMSTRESS), "p2", "p3", "p4"), "p2")
    found = by_player(to_lock(state))["p2"]
    assert found.allowed == ["no", "yes"]  # any answer
    with pytest.raises(IllegalAction, match="chooses nothing tonight"):
        choose(to_night(to_day(state)), "p2", "p5", "p6")


def test_the_mathematician_counts_a_dreamer_told_false_through_no_dashii_poison_or_the_vortox():
    state = begun(["nodashii", "dreamer", "mutant", "mathematician", "sage", "clockmaker", "witch"])
    state = to_lock(poison(choose(state, "p2", "p3"), "p2"))
    assert by_player(state)["p4"].answer == "0"
    misled = act(state, type="inform", target="p2", answer="Sage or Witch").state  # the Mutant: false
    ledger = by_player(misled)["p4"]
    assert ledger.answer == "1" and "the Dreamer was told the Sage or the Witch, false on the grimoire" in \
        ledger.flags[0]
    vortox = to_lock(begun(["vortox", "clockmaker", "dreamer", "mathematician", "sage", "witch", "mutant"]))
    told_false = act(vortox, type="inform", target="p2").state  # as proposed: false under the Vortox
    assert by_player(told_false)["p4"].flags[1].startswith("the ledger since dawn: Name2 (seat 2): the Clockmaker")


def test_an_execution_for_madness_is_recorded_as_the_storytellers_judgement():
    state = begun(["nodashii", "savant", "artist", "mutant", "dreamer", "clockmaker", "cerenovus"])
    state = choose(state, "p7", "p5")
    state = act(state, player="p7", type="night_choice", character="clockmaker").state
    state = to_day(state)
    mutant = act(state, type="execute", target="p4")
    rows = [e for e in mutant.events if e.audience.kind == "record" and e.type == "judged"]
    assert [r.data["text"] for r in rows] == ["executed by the Storytellers, judged mad about being an Outsider "
                                              "(the Mutant)"]
    mad = act(state, type="execute", target="p5")
    rows = [e for e in mad.events if e.audience.kind == "record" and e.type == "judged"]
    assert rows and "mad about being the Clockmaker (the Cerenovus)" in rows[0].data["text"]
    sane = act(state, type="execute", target="p6")
    assert not [e for e in sane.events if e.type == "judged"]
    ended = act(mutant.state, type="declare_winner", team="good", reason="").state
    recap = [e for e in GAME.recap(ended, rows) if e.type == "judged_recap"]
    assert "day 1, Name5, as the Dreamer: executed by the Storytellers, judged mad about being the Clockmaker" \
        in recap[0].text


def test_a_sage_killed_by_the_pit_hags_arbitrary_deaths_learns_nothing():
    # the wiki: the Pit-Hag makes a Demon, the deaths are arbitrary, the Sage dies: it does not wake
    state = act(night_two(["imp", "sage", "chef", "soldier", "empath", "monk", "pithag"], script(*SAGE_SCRIPT)),
                type="kill", target="p2").state
    state = to_lock(state)
    state.killed_tonight["p2"] = "pithag"  # as the mechanics record a death by the Pit-Hag's ability
    assert "p2" not in by_player(state)
    state.killed_tonight["p2"] = "imp"
    assert by_player(state)["p2"].ready
