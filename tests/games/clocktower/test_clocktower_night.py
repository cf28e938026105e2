"""The night's choices, pure: who is asked what (by their card, on the nights the order lists
them), choices editable until the lock, the Lunatic's reaching the Demon, the Po's no-one and
its charge, the Waitress's visit and its answer, the Ravenkeeper woken, and the Storytellers'
summary at the lock with every missing choice named."""

import pytest
from support.clocktower_pure import GAME, act, events_of, new_game, timeout, to_night

from games.engine import IllegalAction

# seat 1 the Po, 2 the Lunatic (shown the Pukka), 3 the Spy, 4 the Ravenkeeper, 5 the Empath...
CHARS = ["po", "lunatic", "spy", "ravenkeeper", "empath", "knight", "soldier", "virgin"]
SHOWN = {"p2": "pukka"}


def begun(options=None, characters=CHARS, shown=SHOWN):
    return act(new_game(options, characters, shown), type="begin")




def choose(state, player, *targets):
    return act(state, player=player, type="night_choice", targets=list(targets))


def asked(out):
    return {e.audience.id: e.text for e in events_of(out, "player") if e.type == "night_ask"}


def test_at_dusk_each_player_who_chooses_tonight_is_asked_by_their_card():
    out = begun()
    # night 1: the Lunatic chooses as its Pukka; the Po (Night*) and the Ravenkeeper (not killed) do not
    assert set(asked(out)) == {"p2"}
    assert "they are poisoned" in asked(out)["p2"]
    night2 = to_night(out.state, 2)
    assert GAME.prompts(night2, "p1")[0].fields[0].choices[-1].value == "no-one"
    assert GAME.prompts(night2, "p5") == []  # the Empath learns, it does not choose
    with pytest.raises(IllegalAction, match="chooses nothing tonight"):
        choose(night2, "p5", "p1")


def test_a_choice_is_editable_until_the_lock_and_the_storytellers_see_every_missing_one():
    state = to_night(begun().state, 2)
    out = choose(state, "p1", "p5")
    told = events_of(out, "storyteller")[0]
    assert "Name1 (seat 1), the Po, chose Name5 (seat 5)." in told.text
    assert out.reply.startswith("Your choice tonight: Name5 (seat 5).")
    out = choose(out.state, "p1", "p6")
    assert "instead of Name5 (seat 5)" in events_of(out, "storyteller")[0].text
    assert out.state.night_choices == {"p1": ["p6"]}
    locked = timeout(timeout(out.state).state)
    assert locked.state.stage == "locked"
    summary = next(e for e in locked.events if e.type == "night_choices")
    assert "the Po, chose" not in summary.text and "Name1 (seat 1), the Po: Name6 (seat 6)" in summary.text
    assert "Name2 (seat 2), the Pukka (truly the Lunatic): **nothing submitted** (not the same as no-one)" \
        in summary.text
    with pytest.raises(IllegalAction, match="locked 2 hours before dawn"):
        choose(locked.state, "p1", "p5")
    assert GAME.prompts(locked.state, "p1") == []


def test_the_lunatics_choice_reaches_the_real_demon_at_once():
    state = begun().state
    out = choose(state, "p2", "p6")
    to_demon = [e for e in events_of(out, "player") if e.type == "lunatic_choice"]
    assert [e.audience.id for e in to_demon] == ["p1"]
    assert "The Lunatic, Name2 (seat 2), chose Name6 (seat 6) tonight." in to_demon[0].text
    assert "Lunatic" not in out.reply  # the Lunatic is told only its choice


def test_the_po_chooses_no_one_then_three_and_a_silent_po_is_not_charged_unless_the_option_says():
    state = to_night(begun().state, 2)
    with pytest.raises(IllegalAction, match="Choose 1 different player"):
        choose(state, "p1", "p5", "p6")
    state = choose(state, "p1", "no-one").state
    state = to_night(state, 3)
    prompt = GAME.prompts(state, "p1")[0]
    assert prompt.fields[0].max_values == 3 and "no-one" not in [c.value for c in prompt.fields[0].choices]
    assert "choose 3 players" in prompt.text
    with pytest.raises(IllegalAction, match="Choose 3 players"):
        choose(state, "p1", "no-one")
    state = choose(state, "p1", "p4", "p5", "p6").state
    assert state.night_choices["p1"] == ["p4", "p5", "p6"]
    # a Po that submitted nothing on night 2
    for option, max_values in (({}, 1), ({"po_silent_charges": "true"}, 3)):
        silent = to_night(begun(option).state, 3)
        assert GAME.prompts(silent, "p1")[0].fields[0].max_values == max_values


def test_the_waitress_chooses_a_living_player_who_agrees_or_refuses():
    chars = ["pukka", "spy", "washerwoman", "empath", "knight", "soldier", "virgin"]
    state = begun(characters=chars, shown={}).state
    state = timeout(timeout(timeout(state).state).state).state  # day 1
    state = act(state, type="add_traveller", target="w1", name="Wai", seat=9, character="waitress",
                alignment="good").state
    state = act(state, type="kill", target="p6").state
    state = to_night(state, 2)
    assert "if they agree, you learn their character" in GAME.prompts(state, "w1")[0].text
    with pytest.raises(IllegalAction, match="is dead: choose a living player"):
        choose(state, "w1", "p6")
    with pytest.raises(IllegalAction, match="cannot choose yourself"):
        choose(state, "w1", "w1")
    out = choose(state, "w1", "p4")
    visit = next(e for e in events_of(out, "player") if e.type == "waitress_visit")
    assert visit.audience.id == "p4"
    answers = [p for p in GAME.prompts(out.state, "p4") if p.action == "waitress_answer"]
    assert [p.submit_label for p in answers] == ["Agree to the visit", "Refuse the visit"]
    with pytest.raises(IllegalAction, match="Nobody asked to visit you"):
        act(out.state, player="p5", type="waitress_answer", agree=True)
    answered = act(out.state, player="p4", type="waitress_answer", agree=True)
    assert answered.reply == "You agree to the visit."
    summary = next(e for e in timeout(timeout(answered.state).state).events if e.type == "night_choices")
    assert "the Waitress: Name4 (seat 4) · agreed" in summary.text


def test_the_ravenkeeper_is_woken_when_killed_and_may_choose_after_the_lock():
    state = to_night(begun().state, 2)
    state = timeout(timeout(state).state).state  # locked
    out = act(state, type="kill", target="p4")
    assert "They are woken to choose." in out.reply
    woken = next(e for e in events_of(out, "player") if e.type == "night_ask")
    assert woken.audience.id == "p4" and "You died tonight: choose a player" in woken.text
    assert choose(out.state, "p4", "p3").state.night_choices["p4"] == ["p3"]
    # the dead do not choose
    state = act(begun().state, type="kill", target="p2").state
    while not (state.phase == "day" and state.stage == "final"):
        state = timeout(state).state
    dusk = timeout(state)  # night 2 falls
    assert dusk.state.night == 2 and set(asked(dusk)) == {"p1"}
    assert GAME.prompts(dusk.state, "p2") == []
