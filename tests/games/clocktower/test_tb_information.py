"""Trouble Brewing's information characters, ruled by the copilot: the Librarian, the Investigator,
the Chef and the Fortune Teller (with its red herring), each test named after the rule point the
official wiki settles; every illegal answer refused in words."""

import json
import random

import pytest
from support.clocktower_pure import GAME, act, allows, by_player, new_game, refuses, timeout

from games.clocktower.asks import asks
from games.clocktower.copilot import _PROPOSERS, read_answer, told
from games.clocktower.setup_tokens import RED_HERRING, place_red_herring
from games.engine import IllegalAction

TB = {"script": "Trouble Brewing"}


def begun(characters, shown=None):
    return act(new_game(TB, characters, shown), type="begin").state


def poison(state, player):
    return act(state, type="add_reminder", target=player, token="Poisoned", source="poisoner").state


def red_herring(state, player):
    return act(state, type="add_reminder", target=player, token="Red Herring", source="fortuneteller").state


def choose(state, player, *targets):
    return act(state, player=player, type="night_choice", targets=list(targets)).state


# ----- the Librarian -----

LIBRARIAN = ["imp", "librarian", "butler", "chef", "monk", "soldier", "poisoner"]


def test_the_librarian_learns_that_one_of_two_other_players_is_a_particular_outsider():
    found = by_player(begun(LIBRARIAN))["p2"]
    assert found.answer == "Name3 (seat 3) or Name4 (seat 4) is the Butler" and found.ready
    assert allows(found, "3 or 6 is the Butler") and allows(found, "Name7 or Name3 is the Butler")
    refuses(found,
            "4 or 5 is the Butler",  # neither is the Butler
            "3 or 4 is the Saint",  # nobody is the Saint
            "3 or 4 is the Chef",  # the Chef is not an Outsider
            "2 or 3 is the Butler",  # the Librarian itself
            "3 is the Butler",  # one player
            "3 or 4 is the Butler and the Saint",  # two characters
            "zero",  # an Outsider is in play
            "banana")
    assert told(found, read_answer(found, "3 or 6 is the Butler")) == \
        "You learn: Name3 (seat 3) or Name6 (seat 6) is the Butler."


def test_the_librarian_learns_zero_when_no_outsider_is_in_play():
    found = by_player(begun(["imp", "librarian", "chef", "monk", "soldier", "empath", "poisoner"]))["p2"]
    assert found.answer == "no Outsiders are in play" and found.ready
    assert read_answer(found, "0").text == read_answer(found, "zero").text == "no Outsiders are in play"
    refuses(found, "3 or 4 is the Butler", "1 or 7 is the Saint")
    assert told(found, read_answer(found, "0")) == "You learn: no Outsiders are in play."


def test_the_librarian_learns_the_drunks_true_character_not_its_card():
    found = by_player(begun(["imp", "librarian", "drunk", "chef", "soldier", "empath", "poisoner"],
                            shown={"p3": "monk"}))["p2"]
    assert found.answer == "Name3 (seat 3) or Name4 (seat 4) is the Drunk"
    refuses(found, "zero",  # the Drunk is an Outsider in play
            "3 or 4 is the Monk")


def test_the_spy_may_register_as_an_outsider_to_the_librarian():
    chars = ["imp", "librarian", "chef", "monk", "soldier", "empath", "spy"]
    state = begun(chars)
    found = by_player(state)["p2"]
    assert found.answer == "no Outsiders are in play"
    assert allows(found, "7 or 4 is the Saint") and allows(found, "zero")
    assert any("the Spy may register as an Outsider" in f for f in found.flags)
    refuses(found, "3 or 4 is the Saint")
    # a poisoned Spy registers as the Spy: no Outsider to show
    refuses(by_player(poison(state, "p7"))["p2"], "7 or 4 is the Saint")


def test_the_recluse_registers_as_the_recluse_to_the_librarian_not_another_outsider():
    chars = ["imp", "librarian", "recluse", "chef", "soldier", "empath", "poisoner"]
    found = by_player(begun(chars))["p2"]
    assert found.answer == "Name3 (seat 3) or Name4 (seat 4) is the Recluse"
    refuses(found, "3 or 4 is the Saint")
    # the reading: a Recluse registering as a Minion is no Outsider, so "zero" is the Storyteller's call
    assert allows(found, "zero") and any("the Recluse may register as a Minion" in f for f in found.flags)


# ----- the Investigator -----

INVESTIGATOR = ["imp", "investigator", "chef", "monk", "soldier", "empath", "poisoner"]


def test_the_investigator_learns_that_one_of_two_other_players_is_a_particular_minion():
    found = by_player(begun(INVESTIGATOR))["p2"]
    assert found.answer == "Name1 (seat 1) or Name7 (seat 7) is the Poisoner" and found.ready
    assert allows(found, "7 or 4 is the Poisoner")
    refuses(found,
            "3 or 4 is the Poisoner",  # neither is
            "1 or 7 is the Imp",  # a Demon is not a Minion
            "7 or 3 is the Baron",  # nobody is the Baron
            "2 or 7 is the Poisoner",  # the Investigator itself
            "zero",  # the Investigator has no "zero"
            "7 is the Poisoner")
    assert told(found, read_answer(found, "7 or 4 is the Poisoner")) == \
        "You learn: Name4 (seat 4) or Name7 (seat 7) is the Poisoner."


def test_the_spy_is_a_minion_and_may_be_shown_to_the_investigator_as_the_spy():
    state = begun(["imp", "investigator", "chef", "monk", "soldier", "empath", "spy"])
    found = by_player(state)["p2"]
    assert found.answer == "Name1 (seat 1) or Name7 (seat 7) is the Spy"
    assert allows(found, "7 or 3 is the Spy")
    refuses(found, "7 or 3 is the Poisoner")  # the Spy registers as good characters only, not another Minion


def test_the_recluse_may_register_as_a_minion_to_the_investigator_while_its_ability_works():
    state = begun(["imp", "investigator", "recluse", "chef", "soldier", "empath", "poisoner"])
    found = by_player(state)["p2"]
    assert allows(found, "3 or 4 is the Baron")  # no Baron in play: the Recluse registers as one
    assert any("the Recluse may register as a Minion" in f for f in found.flags)
    refuses(by_player(poison(state, "p3"))["p2"], "3 or 4 is the Baron")


# ----- the Chef -----

def chef_of(state, player="p1"):
    chars = GAME.chars_of(state)
    return _PROPOSERS["chef"](state, chars, state.seat_of(player))


def test_the_chef_learns_how_many_pairs_of_evil_players_sit_next_to_each_other():
    # the wiki's example: the Imp beside the Baron, across the circle the Poisoner beside the Scarlet Woman
    chars = ["chef", "imp", "baron", "monk", "poisoner", "scarletwoman", "soldier", "empath", "mayor"]
    found = by_player(begun(chars))["p1"]
    assert found.answer == "2" and found.allowed == ["2"]
    refuses(found, "1", "3", "-1", "two", "10")
    assert told(found, read_answer(found, "2")) == "2 pairs of evil players sit next to each other."


def test_three_evil_players_in_a_row_are_two_pairs_for_the_chef():
    found = by_player(begun(["chef", "imp", "baron", "poisoner", "monk", "soldier", "empath"]))["p1"]
    assert found.answer == "2"


def test_the_chef_learns_zero_when_no_evil_players_sit_together_and_the_circle_wraps():
    found = by_player(begun(["imp", "chef", "poisoner", "monk", "soldier", "empath", "mayor"]))["p2"]
    assert found.answer == "0"
    wraps = by_player(begun(["imp", "chef", "monk", "soldier", "empath", "mayor", "poisoner"]))["p2"]
    assert wraps.answer == "1"  # seat 7 sits next to seat 1
    assert told(wraps, read_answer(wraps, "1")) == "1 pair of evil players sits next to each other."


def test_an_evil_traveller_counts_for_the_chef_and_a_good_one_does_not():
    # the wiki's example: an evil Scapegoat between the Imp and a Minion
    chars = ["imp", "chef", "poisoner", "monk", "soldier", "empath", "baron"]
    state = timeout(begun(chars)).state
    while state.phase == "night":
        state = timeout(state).state
    assert chef_of(state, "p2").answer == "1"  # the Baron in seat 7 beside the Imp in seat 1
    evil = act(state, type="add_traveller", target="p9", name="Nine", seat=8, character="scapegoat",
               alignment="evil").state
    assert chef_of(evil, "p2").answer == "2"  # seat 7, the Scapegoat in seat 8, seat 1: two pairs
    good = act(state, type="add_traveller", target="p9", name="Nine", seat=8, character="scapegoat",
               alignment="good").state
    assert chef_of(good, "p2").answer == "0"


def test_dead_players_count_for_the_chef():
    state = begun(["chef", "imp", "baron", "monk", "soldier", "empath", "mayor"])
    dead = act(state, type="kill", target="p3").state
    assert chef_of(dead).answer == "1"


def test_misregistration_widens_the_chefs_count_while_the_ability_works():
    recluse = begun(["chef", "imp", "recluse", "monk", "soldier", "empath", "poisoner"])
    found = by_player(recluse)["p1"]
    assert found.answer == "0" and found.allowed == ["0", "1"]  # the Recluse may register as evil
    assert any("may misregister" in f for f in found.flags)
    spy = begun(["chef", "imp", "spy", "monk", "soldier", "empath", "mayor"])
    found = by_player(spy)["p1"]
    assert found.answer == "1" and found.allowed == ["0", "1"]  # the Spy may register as good
    refuses(found, "2")
    assert by_player(poison(spy, "p3"))["p1"].allowed == ["1"]


# ----- the Fortune Teller -----

FORTUNE = ["imp", "fortuneteller", "chef", "monk", "saint", "empath", "poisoner"]


def test_the_fortune_tellers_night_ask_is_two_players_itself_and_the_dead_allowed():
    ask = asks()["fortuneteller"]
    assert ask.count == 2 and not ask.not_self and not ask.living_only


def test_the_fortune_teller_learns_yes_if_either_chosen_player_is_the_demon():
    state = red_herring(begun(FORTUNE), "p6")
    yes = by_player(choose(state, "p2", "p1", "p3"))["p2"]
    assert yes.answer == "yes" and yes.allowed == ["yes"] and yes.ready
    refuses(yes, "no", "maybe", "3")
    assert told(yes, read_answer(yes, "yes")) == "Is either Name1 (seat 1) or Name3 (seat 3) a Demon? Yes."
    no = by_player(choose(state, "p2", "p3", "p4"))["p2"]
    assert no.answer == "no" and no.allowed == ["no"]
    refuses(no, "yes")
    assert told(no, read_answer(no, "no")) == "Is either Name3 (seat 3) or Name4 (seat 4) a Demon? No."


def test_the_fortune_teller_may_choose_themself_and_the_red_herring_registers_as_a_demon():
    # the wiki's example: the Fortune Teller chooses themselves and the Saint, the red herring: "yes"
    state = red_herring(begun(FORTUNE), "p5")
    found = by_player(choose(state, "p2", "p2", "p5"))["p2"]
    assert found.answer == "yes"
    refuses(found, "no")


def test_the_red_herring_may_be_the_fortune_teller_themself():
    state = red_herring(begun(FORTUNE), "p2")
    assert by_player(choose(state, "p2", "p2", "p3"))["p2"].answer == "yes"


def test_a_dead_demon_still_registers_to_the_fortune_teller():
    # the wiki's example: an alive Butler and a dead Imp: "yes"
    state = red_herring(begun(["imp", "fortuneteller", "butler", "monk", "saint", "empath", "poisoner"]), "p6")
    state = act(state, type="kill", target="p1").state
    assert by_player(choose(state, "p2", "p3", "p1"))["p2"].answer == "yes"


def test_the_recluse_may_register_as_the_demon_to_the_fortune_teller():
    state = red_herring(begun(["imp", "fortuneteller", "recluse", "monk", "saint", "empath", "poisoner"]), "p6")
    found = by_player(choose(state, "p2", "p3", "p4"))["p2"]
    assert found.answer == "no" and found.allowed == ["no", "yes"]
    assert by_player(choose(poison(state, "p3"), "p2", "p3", "p4"))["p2"].allowed == ["no"]


def test_the_spy_does_not_register_as_the_demon_to_the_fortune_teller():
    state = red_herring(begun(["imp", "fortuneteller", "spy", "monk", "saint", "empath", "poisoner"]), "p6")
    assert by_player(choose(state, "p2", "p3", "p4"))["p2"].allowed == ["no"]


def test_the_fortune_teller_waits_for_a_choice_and_flags_a_missing_red_herring():
    state = begun(FORTUNE)
    waiting = by_player(state)["p2"]
    assert not waiting.ready
    refuses(waiting, "yes", "no")
    chosen = by_player(choose(state, "p2", "p3", "p4"))["p2"]
    assert any("no red herring" in f for f in chosen.flags)
    assert not any("red herring" in f for f in by_player(choose(red_herring(state, "p6"), "p2", "p3", "p4"))["p2"].flags)


def test_a_drunk_fortune_teller_may_be_told_yes_or_no():
    state = red_herring(begun(["imp", "drunk", "chef", "monk", "saint", "empath", "poisoner"],
                              shown={"p2": "fortuneteller"}), "p6")
    found = by_player(choose(state, "p2", "p3", "p4"))["p2"]
    assert found.allowed == ["no", "yes"] and "is truly the Drunk" in found.flags[0]
    refuses(found, "maybe")


# ----- the red herring, placed at set-up -----

def test_the_red_herring_is_placed_on_one_good_player_the_fortune_teller_included():
    landed = set()
    for seed in range(60):
        state = new_game(TB, ["imp", "fortuneteller", "chef", "monk", "saint", "empath", "poisoner"])
        placed = place_red_herring(state, random.Random(seed))
        tokens = [r for r in state.reminders if r.token == RED_HERRING and r.source == "fortuneteller"]
        assert len(tokens) == 1 and tokens[0].player == placed
        assert state.seat_of(placed).alignment == "good"
        landed.add(placed)
        assert place_red_herring(state, random.Random(seed)) == placed  # placed once
        assert len([r for r in state.reminders if r.token == RED_HERRING]) == 1
    assert landed == {"p2", "p3", "p4", "p5", "p6"}


def test_the_red_herring_is_placed_for_a_drunk_who_thinks_they_are_the_fortune_teller_and_not_without_one():
    drunk = new_game(TB, ["imp", "drunk", "chef", "monk", "saint", "empath", "poisoner"], shown={"p2": "fortuneteller"})
    assert place_red_herring(drunk, random.Random(1)) is not None
    none = new_game(TB, ["imp", "librarian", "chef", "monk", "saint", "empath", "poisoner"])
    assert place_red_herring(none, random.Random(1)) is None and not none.reminders


# ----- the characters Her Royal Highness Register already rules, checked on Trouble Brewing -----

def test_the_washerwoman_may_be_shown_the_spy_as_a_townsfolk_not_in_play():
    # the wiki's example: the Spy and the Scarlet Woman, "one of them is the Ravenkeeper"
    state = begun(["spy", "washerwoman", "scarletwoman", "imp", "chef", "virgin", "soldier"])
    found = by_player(state)["p2"]
    assert allows(found, "1 or 3 is the Ravenkeeper")
    assert allows(found, "4 or 6 is the Virgin")  # the Imp and the Virgin: "Julian or Alex is the Virgin"
    refuses(found, "3 or 4 is the Ravenkeeper", "4 or 7 is the Virgin")
    refuses(by_player(poison(state, "p1"))["p2"], "1 or 3 is the Ravenkeeper")


def test_the_washerwoman_is_never_shown_the_drunks_card():
    found = by_player(begun(["imp", "washerwoman", "drunk", "chef", "soldier", "empath", "poisoner"],
                            shown={"p3": "monk"}))["p2"]
    refuses(found, "3 or 4 is the Monk", "3 or 4 is the Drunk")


def test_the_empath_with_three_alive_learns_two_whatever_the_seating():
    # the wiki's example: the Empath, the Imp and the Baron alive
    state = begun(["empath", "soldier", "librarian", "imp", "monk", "baron", "chef"])
    for dead in ("p2", "p3", "p5", "p7"):
        state = act(state, type="kill", target=dead).state
    assert by_player(state)["p1"].allowed == ["2"]


def test_an_evil_traveller_is_an_alive_neighbour_to_the_empath():
    # the wiki's example: the Empath's neighbours shift to a Librarian and an evil Gunslinger
    state = timeout(begun(["empath", "soldier", "librarian", "imp", "monk", "baron", "chef"])).state
    while state.phase == "night":
        state = timeout(state).state
    state = act(state, type="add_traveller", target="p9", name="Nine", seat=8, character="gunslinger",
                alignment="evil").state
    found = _PROPOSERS["empath"](state, GAME.chars_of(state), state.seat_of("p1"))
    assert found.answer == "1"  # the Soldier (seat 2) and the evil Gunslinger (seat 8)


def execute(state, target, voters):
    while state.phase == "night":
        state = timeout(state).state
    for voter in voters:
        state = act(state, player=voter, type="vote", target=target).state
    while state.phase == "day":
        state = timeout(state).state
    return state


def test_the_undertaker_learns_the_drunk_not_its_card():
    # the wiki's example: the Drunk who thinks they are the Virgin is executed: the Undertaker learns the Drunk
    state = begun(["imp", "undertaker", "drunk", "chef", "soldier", "empath", "poisoner"], shown={"p3": "virgin"})
    found = by_player(execute(state, "p3", ("p2", "p4", "p5", "p6")))["p2"]
    assert found.answer == "Drunk" and found.allowed == ["Drunk"]
    refuses(found, "Virgin")


def test_the_undertaker_may_learn_an_executed_spy_as_an_outsider():
    # the wiki's example: the Spy executed, the Undertaker learns a Butler
    state = begun(["imp", "undertaker", "spy", "chef", "soldier", "empath", "monk"])
    found = by_player(execute(state, "p3", ("p2", "p4", "p5", "p6")))["p2"]
    assert found.answer == "Spy" and allows(found, "Butler") and allows(found, "Chef")
    refuses(found, "Imp", "Poisoner")


def test_a_librarian_misled_by_the_spy_is_in_the_mathematicians_ledger_as_false_not_against_one_truth():
    script = json.dumps([{"id": "_meta", "name": "Librarian and Mathematician"}, "imp", "librarian", "mathematician",
                         "butler", "saint", "chef", "monk", "soldier", "spy"])
    state = act(new_game({"script": script}, ["imp", "librarian", "butler", "chef", "monk", "mathematician",
                                              "spy"]), type="begin").state
    while state.stage != "closing":
        state = timeout(state).state
    state = timeout(state).state
    assert by_player(state)["p2"].answer == "Name3 (seat 3) or Name4 (seat 4) is the Butler"
    true_pair = act(state, type="inform", target="p2", answer="3 or 7 is the Butler").state
    assert by_player(true_pair)["p6"].answer == "0"
    with pytest.raises(IllegalAction, match="not an answer the rules allow"):
        act(state, type="inform", target="p2", answer="4 or 5 is the Butler")
    # the Spy registering as the Saint: allowed, false on the grimoire, and no "truth" to compare with
    misled = act(state, type="inform", target="p2", answer="7 or 4 is the Saint").state
    ledger = by_player(misled)["p6"]
    assert ledger.answer == "1" and "is the Saint, false on the grimoire" in ledger.flags[0]
    assert "(the truth:" not in ledger.flags[0]


def test_the_investigator_with_no_minion_in_play_waits_for_the_storyteller_and_allows_only_the_recluse():
    state = begun(["imp", "investigator", "recluse", "chef", "soldier", "empath", "monk"])
    found = by_player(state)["p2"]
    assert not found.ready and any("no other Minion is in play" in f for f in found.flags)
    assert allows(found, "3 or 4 is the Poisoner")
    refuses(found, "4 or 5 is the Poisoner")


def test_the_fortune_tellers_answer_is_sent_with_st_inform_and_a_wrong_one_refused():
    state = red_herring(new_game({**TB, "inform_at": "accept"}, FORTUNE), "p6")
    state = choose(act(state, type="begin").state, "p2", "p1", "p4")
    while state.stage != "closing":
        state = timeout(state).state
    state = timeout(state).state
    with pytest.raises(IllegalAction, match="'no' is not an answer the rules allow here"):
        act(state, type="inform", target="p2", answer="no")
    sent = act(state, type="inform", target="p2")
    assert sent.reply.endswith("Is either Name1 (seat 1) or Name4 (seat 4) a Demon? Yes.")


def test_a_poisoned_librarian_investigator_or_chef_may_be_told_anything_of_the_abilitys_form():
    state = begun(["imp", "librarian", "investigator", "chef", "soldier", "empath", "poisoner"])
    for player in ("p2", "p3", "p4"):
        state = poison(state, player)
    found = by_player(state)
    assert allows(found["p2"], "5 or 6 is the Saint") and allows(found["p2"], "zero")
    refuses(found["p2"], "5 or 6 is the Chef", "2 or 5 is the Saint")  # still an Outsider, still 2 other players
    assert allows(found["p3"], "5 or 6 is the Baron")
    refuses(found["p3"], "5 or 6 is the Imp", "zero")
    assert found["p4"].allowed == [str(n) for n in range(8)]
    refuses(found["p4"], "8", "many")
