"""Misregistration is the Recluse's and the Spy's ability: drunk or poisoned, they register as what
they are (issue 37, item 4). Each place that widens an answer by misregistration, with the
exact set the rules allow: impaired, and (still widened) working.

The Empath, the Knight, the Washerwoman, the Shugenja and the Ravenkeeper read the grimoire as it
stands when they wake; the Undertaker, the Scapegoat and the Juggler read what the player was
when executed or guessed; the Virgin and the Alsaahir read it at the nomination or the guess."""

import pytest
from support.clocktower_pure import GAME, act, events_of, new_game, timeout, to_day, vote

from games.clocktower.copilot import NotAllowedAnswer, proposals, read_answer
from games.clocktower.talk import alsaahir_check
from games.engine import IllegalAction

THREAD = "announcements"
MINIONS_AND_DEMONS = ["Spy", "Baron", "Goblin", "Marionette", "Pukka", "Lleech", "Po"]


def begun(characters, shown=None):
    return act(new_game(None, characters, shown), type="begin").state


def poison(state, player, source="pukka"):
    return act(state, type="add_reminder", target=player, token="Poisoned", source=source).state


def cure(state, player):
    return act(state, type="remove_reminder", target=player, token="Poisoned").state


def until(state, phase, stage=None):
    for _ in range(20):
        state = timeout(state).state
        if state.phase == phase and (not stage or state.stage == stage):
            return state
    raise AssertionError(f"never reached {phase} {stage or ''}")


def proposal(state, player):
    return next(p for p in proposals(state, GAME.chars_of(state)) if p.player == player)


# ----- the Empath -----

EMPATH = ["soldier", "empath", "recluse", "knight", "po", "washerwoman", "virgin", "spy"]


def test_the_empath_beside_a_poisoned_recluse_learns_only_zero():
    # seat 2 the Empath between the Soldier (good) and the Recluse
    assert proposal(begun(EMPATH), "p2").allowed == ["0", "1"]
    found = proposal(poison(begun(EMPATH), "p3"), "p2")
    assert found.allowed == ["0"] and found.answer == "0" and not found.flags


def test_the_empath_beside_a_drunk_spy_learns_only_the_truth():
    chars = ["soldier", "empath", "spy", "knight", "po", "washerwoman", "virgin", "recluse"]
    assert proposal(begun(chars), "p2").allowed == ["0", "1"]
    state = act(begun(chars), type="add_reminder", target="p3", token="Drunk", source="").state
    assert proposal(state, "p2").allowed == ["1"]


def test_the_recluse_the_pukka_poisons_tonight_is_poisoned_when_the_empath_wakes():
    chars = ["soldier", "empath", "recluse", "knight", "pukka", "washerwoman", "virgin", "spy"]
    state = act(begun(chars), player="p5", type="night_choice", targets=["p3"]).state
    locked = until(state, "night", "locked")
    assert any(r.player == "p3" and r.source == "pukka" for r in locked.reminders)
    assert proposal(locked, "p2").allowed == ["0"]


# ----- the Undertaker -----

UNDERTAKER = ["po", "undertaker", "recluse", "knight", "soldier", "washerwoman", "virgin", "empath"]


def executed_on_day_one(poisoned_at_execution, poisoned_at_night):
    state = until(begun(UNDERTAKER), "day")
    if poisoned_at_execution:
        state = poison(state, "p3", source="")
    for voter in ("p2", "p4", "p5", "p6", "p7"):
        state = vote(state, voter, "p3").state
    state = until(state, "night")
    assert state.executed == "p3" and not state.seat_of("p3").alive
    if poisoned_at_execution and not poisoned_at_night:
        state = cure(state, "p3")
    if poisoned_at_night and not poisoned_at_execution:
        state = poison(state, "p3", source="")
    return proposal(state, "p2")


def test_the_undertaker_told_of_a_poisoned_recluses_execution_learns_the_recluse():
    found = executed_on_day_one(poisoned_at_execution=True, poisoned_at_night=True)
    assert found.allowed == ["Recluse"] and found.answer == "Recluse" and not found.flags


def test_the_undertaker_reads_the_recluse_as_it_was_when_executed():
    # poisoned when executed, healthy by night: it registered as itself when it died
    assert executed_on_day_one(poisoned_at_execution=True, poisoned_at_night=False).allowed == ["Recluse"]
    # healthy when executed, poisoned after: its misregistration worked at the execution ("even if dead")
    late = executed_on_day_one(poisoned_at_execution=False, poisoned_at_night=True)
    assert late.allowed == ["Recluse", *MINIONS_AND_DEMONS]


def test_the_undertaker_told_of_a_healthy_recluses_execution_may_learn_any_minion_or_demon():
    found = executed_on_day_one(poisoned_at_execution=False, poisoned_at_night=False)
    assert found.allowed == ["Recluse", *MINIONS_AND_DEMONS] and "may misregister" in found.flags[0]


# ----- the Virgin -----

def test_a_poisoned_spy_nominating_the_virgin_is_not_a_townsfolk():
    # the default table: the Spy in seat 2, the Virgin in seat 8
    out = vote(poison(to_day(), "p2"), "p2", "p8")
    told = events_of(out, "storyteller")[0].text
    assert "might register as a Townsfolk" not in told
    assert "not a Townsfolk (Spy): nothing happens." in told
    assert out.state.seat_of("p2").alive and not out.state.voting_closed
    healthy = vote(to_day(), "p2", "p8")
    assert "might register as a Townsfolk" in events_of(healthy, "storyteller")[0].text


def test_an_evil_apprentice_with_the_spys_ability_may_register_as_a_townsfolk_to_the_virgin():
    chars = ["pukka", "baron", "washerwoman", "empath", "knight", "soldier", "politician", "virgin"]
    state = act(to_day(characters=chars), type="add_traveller", target="t9", name="App", seat=9,
                character="apprentice", alignment="evil").state
    state = act(state, type="apprentice", target="t9", character="spy").state
    out = vote(state, "t9", "p8")
    assert "might register as a Townsfolk" in events_of(out, "storyteller")[0].text
    poisoned = vote(poison(state, "t9"), "t9", "p8")
    assert "might register as a Townsfolk" not in events_of(poisoned, "storyteller")[0].text


# ----- the Ravenkeeper -----

def test_the_ravenkeeper_choosing_a_poisoned_spy_learns_the_spy():
    chars = ["po", "ravenkeeper", "spy", "knight", "soldier", "washerwoman", "virgin", "empath"]

    def woken(poisoned):
        state = until(until(begun(chars), "day"), "night")  # night 2: the Po may kill
        if poisoned:
            state = poison(state, "p3", source="")
        state = act(state, player="p1", type="night_choice", targets=["p2"]).state
        state = until(state, "night", "locked")
        assert not state.seat_of("p2").alive
        state = act(state, player="p2", type="night_choice", targets=["p3"]).state
        return proposal(state, "p2")

    assert woken(poisoned=True).allowed == ["Spy"]
    healthy = woken(poisoned=False).allowed
    assert healthy[0] == "Spy" and "Washerwoman" in healthy and "Virgin" in healthy and "Po" not in healthy


def test_the_waitress_visiting_a_poisoned_recluse_learns_the_recluse():
    chars = ["po", "empath", "recluse", "knight", "soldier", "washerwoman", "virgin", "spy"]

    def visited(poisoned):
        state = act(until(begun(chars), "day"), type="add_traveller", target="w1", name="Wai", seat=9,
                    character="waitress", alignment="good").state
        state = until(state, "night")
        if poisoned:
            state = poison(state, "p3", source="")
        state = act(state, player="w1", type="night_choice", targets=["p3"]).state
        state = act(state, player="p3", type="waitress_answer", agree=True).state
        return proposal(until(state, "night", "locked"), "w1")

    assert visited(poisoned=True).allowed == ["Recluse"]
    assert visited(poisoned=False).allowed == ["Recluse", *MINIONS_AND_DEMONS]


# ----- the Knight -----

def test_the_knight_is_not_told_a_poisoned_recluse_may_register_as_the_demon():
    chars = ["po", "empath", "recluse", "knight", "soldier", "washerwoman", "virgin", "spy"]
    assert "the Recluse may register as the Demon" in proposal(begun(chars), "p4").flags[0]
    found = proposal(poison(begun(chars), "p3"), "p4")
    assert not found.flags
    # the Recluse is no longer set aside: the first two others who are not the Demon
    assert found.answer == "Name2 (seat 2) and Name3 (seat 3)"


# ----- the Washerwoman -----

WASHERWOMAN = ["po", "washerwoman", "spy", "knight", "soldier", "empath", "virgin", "recluse"]


def test_the_washerwoman_may_not_be_shown_a_poisoned_spy_as_the_townsfolk():
    healthy = proposal(begun(WASHERWOMAN), "p2")
    assert "the Spy may register as a Townsfolk" in healthy.flags[0]
    assert read_answer(healthy, "3 or 8 is the Empath").players == ("p3", "p8")
    found = proposal(poison(begun(WASHERWOMAN), "p3"), "p2")
    assert not found.flags
    with pytest.raises(NotAllowedAnswer, match="both not the Empath"):
        read_answer(found, "3 or 8 is the Empath")
    assert read_answer(found, "3 or 6 is the Empath").players == ("p3", "p6")


def test_with_no_other_townsfolk_a_poisoned_spy_cannot_stand_in():
    chars = ["po", "washerwoman", "spy", "recluse", "drunk", "politician", "goblin", "baron"]
    shown = {"p5": "empath"}
    healthy = proposal(begun(chars, shown), "p2")
    assert "(a Spy) can be shown" in healthy.flags[0]
    read_answer(healthy, "3 or 4 is the Knight")
    found = proposal(poison(begun(chars, shown), "p3"), "p2")
    assert "nobody can be shown" in found.flags[0]
    with pytest.raises(NotAllowedAnswer):
        read_answer(found, "3 or 4 is the Knight")


# ----- the Shugenja -----

SHUGENJA = ["knight", "shugenja", "recluse", "soldier", "empath", "virgin", "po", "washerwoman"]


def test_the_shugenja_beside_a_poisoned_recluse_learns_only_the_true_direction():
    # seat 2: the Recluse one step clockwise, the Po three steps anticlockwise
    healthy = proposal(begun(SHUGENJA), "p2")
    assert healthy.allowed == ["anticlockwise", "clockwise"] and "may misregister" in healthy.flags[0]
    found = proposal(poison(begun(SHUGENJA), "p3"), "p2")
    assert found.allowed == ["anticlockwise"] and found.answer == "anticlockwise" and not found.flags


# ----- the Juggler -----

JUGGLER = ["po", "juggler", "spy", "knight", "soldier", "washerwoman", "virgin", "recluse"]


def juggled(poisoned_when_guessed, poisoned_at_night):
    state = until(begun(JUGGLER), "day")
    if poisoned_when_guessed:
        state = poison(state, "p8", source="")
    state = act(state, player="p2", type="juggler_guess", place=THREAD, guesses={"p1": "po", "p8": "pukka"}).state
    if poisoned_when_guessed and not poisoned_at_night:
        state = cure(state, "p8")
    if poisoned_at_night and not poisoned_when_guessed:
        state = poison(state, "p8", source="")
    return proposal(until(state, "night"), "p2")


def test_the_juggler_guessing_a_poisoned_recluse_as_a_demon_is_not_right():
    found = juggled(poisoned_when_guessed=True, poisoned_at_night=True)
    assert found.allowed == ["1"] and not found.flags


def test_the_juggler_is_judged_as_the_guess_was_made():
    assert juggled(poisoned_when_guessed=True, poisoned_at_night=False).allowed == ["1"]
    assert juggled(poisoned_when_guessed=False, poisoned_at_night=True).allowed == ["1", "2"]
    assert juggled(poisoned_when_guessed=False, poisoned_at_night=False).allowed == ["1", "2"]


# ----- the Alsaahir -----

def test_the_alsaahir_guessing_a_poisoned_spy_as_not_a_minion_is_wrong():
    chars = ["po", "alsaahir", "spy", "knight", "soldier", "washerwoman", "virgin", "recluse"]
    state = to_day(characters=chars)
    # leaving the Spy out, and naming the Recluse a Minion: right only by misregistration
    assert alsaahir_check(state, GAME.chars_of(state), [], ["p1"]) == "possible"
    assert alsaahir_check(state, GAME.chars_of(state), ["p3", "p8"], ["p1"]) == "possible"
    spy = poison(state, "p3")
    assert alsaahir_check(spy, GAME.chars_of(spy), [], ["p1"]) == "wrong"
    assert alsaahir_check(spy, GAME.chars_of(spy), ["p3", "p8"], ["p1"]) == "possible"
    recluse = poison(state, "p8")
    assert alsaahir_check(recluse, GAME.chars_of(recluse), ["p3", "p8"], ["p1"]) == "wrong"
    assert alsaahir_check(recluse, GAME.chars_of(recluse), ["p3"], ["p1"]) == "correct"


# ----- the Scapegoat -----

def test_an_evil_scapegoat_may_not_take_a_poisoned_recluses_execution():
    chars = ["po", "empath", "knight", "soldier", "washerwoman", "virgin", "recluse", "spy"]
    state = act(to_day(characters=chars), type="add_traveller", target="t9", name="Goat", seat=9,
                character="scapegoat", alignment="evil").state
    state = poison(state, "p7", source="")
    for voter in ("p2", "p3", "p4", "p5", "p6"):
        state = vote(state, voter, "p7").state
    out = timeout(state)
    told = list(out.events)
    while out.state.phase != "night":
        out = timeout(out.state)
        told += out.events
    assert out.state.executed == "p7" and out.state.executed_impaired
    assert not [e for e in told if e.type == "scapegoat_due"]
    # cured after the execution: the Scapegoat still reads the Recluse as it was executed
    cured = cure(out.state, "p7")
    with pytest.raises(IllegalAction, match="No living, working Scapegoat"):
        act(cured, type="scapegoat")
