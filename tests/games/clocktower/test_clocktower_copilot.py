"""The copilot's proposals, pure: the Empath's number with misregistering neighbours, the
Undertaker's character, the Ravenkeeper's (poisoned when the Pukka killed it), the Knight's pair,
the Juggler's count, the Storyteller's own answers flagged, a Drunk or poisoned informant
allowed any answer; the proposal always inside the set the rules allow."""

import pytest
from support.clocktower_pure import act, by_player, events_of, new_game, timeout

from games.engine import IllegalAction

THREAD = "announcements"


def begun(characters, options=None, shown=None):
    return act(new_game(options, characters, shown), type="begin").state


def lock(state):
    while state.stage != "closing":
        state = timeout(state).state
    return timeout(state)


def information(out):
    return next(e for e in events_of(out, "storyteller") if e.type == "night_information")


def test_the_empath_counts_evil_living_neighbours_and_misregistration_widens_the_set():
    # seat 1 the Po (evil), 2 the Empath, 3 the Recluse; the circle wraps to seat 8
    state = begun(["po", "empath", "recluse", "knight", "soldier", "washerwoman", "virgin", "spy"])
    empath = by_player(state)["p2"]
    assert empath.answer == "1" and empath.allowed == ["1", "2"]
    assert "Name3 (seat 3) may misregister" in empath.flags[0]
    out = lock(state)
    data = information(out).data["proposals"]
    assert {p["player"] for p in data} >= {"p2", "p4"}
    assert "Name2 (seat 2), the Empath: **1** (allowed: 1, 2)" in information(out).text


def test_a_drunk_or_poisoned_informant_may_be_told_anything_of_its_abilitys_form():
    state = begun(["po", "drunk", "recluse", "knight", "soldier", "washerwoman", "virgin", "spy"], shown={"p2": "empath"})
    drunk = by_player(state)["p2"]
    assert drunk.allowed == ["0", "1", "2"] and "is truly the Drunk: any answer" in drunk.flags[0]
    poisoned = act(begun(["po", "empath", "recluse", "knight", "soldier", "washerwoman", "virgin", "spy"]),
                   type="add_reminder", target="p2", token="Poisoned", source="pukka").state
    assert "drunk or poisoned" in by_player(poisoned)["p2"].flags[0]


def test_the_knight_learns_two_players_who_are_not_the_demon():
    state = begun(["po", "empath", "recluse", "knight", "soldier", "washerwoman", "virgin", "spy"])
    knight = by_player(state)["p4"]
    assert "Name1" not in knight.answer and "Name3" not in knight.answer  # neither the Demon nor the Recluse
    assert knight.answer.count("seat") == 2 and "the Recluse may register as the Demon" in knight.flags[0]


def test_the_undertaker_learns_the_executed_character_and_nothing_without_an_execution():
    chars = ["po", "undertaker", "spy", "knight", "soldier", "washerwoman", "virgin", "empath"]
    state = begun(chars)
    while state.phase == "night":
        state = timeout(state).state
    for voter in ("p2", "p4", "p5", "p6", "p7"):
        state = act(state, player=voter, type="vote", target="p3").state
    while state.phase == "day":
        state = timeout(state).state
    undertaker = by_player(state)["p2"]
    assert undertaker.answer == "Spy" and "Washerwoman" in undertaker.allowed and "Po" not in undertaker.allowed
    quiet = begun(chars)
    while not (quiet.phase == "night" and quiet.night == 2):
        quiet = timeout(quiet).state
    assert by_player(quiet)["p2"].answer == "nothing"


def test_the_ravenkeeper_killed_by_the_pukka_wakes_poisoned_unless_the_option_says_healthy():
    chars = ["pukka", "ravenkeeper", "spy", "knight", "soldier", "washerwoman", "virgin", "empath"]
    for option, flagged in (({}, True), ({"pukka_ravenkeeper": "healthy"}, False)):
        state = act(begun(chars, option), player="p1", type="night_choice", targets=["p2"]).state
        state = lock(state).state
        while state.phase == "night":
            state = timeout(state).state
        while state.phase != "night":
            state = timeout(state).state
        out = lock(state)  # night 2: the poisoned Ravenkeeper dies and is woken
        assert out.state.killed_tonight == {"p2": "pukka"}
        chose = act(out.state, player="p2", type="night_choice", targets=["p1"])
        told = information(chose)
        assert ("killed by the Pukka, so poisoned when woken" in told.text) is flagged
        if not flagged:
            assert "about Name1 (seat 1): **Pukka** (allowed: Pukka)" in told.text


def test_the_juggler_learns_how_many_of_its_first_days_guesses_were_right():
    chars = ["po", "juggler", "spy", "knight", "soldier", "washerwoman", "virgin", "recluse"]
    state = begun(chars)
    while state.phase == "night":
        state = timeout(state).state
    state = act(state, player="p2", type="juggler_guess", place=THREAD,
                guesses={"p1": "po", "p3": "empath", "p8": "pukka"}).state
    while state.phase != "night":
        state = timeout(state).state
    juggler = by_player(state)["p2"]
    # right: the Po; the Spy may register as the Empath, the Recluse as the Pukka
    assert juggler.answer == "1" and juggler.allowed == ["1", "2", "3"]


def test_the_storytellers_own_answers_are_flagged_as_theirs():
    state = begun(["po", "highpriestess", "mathematician", "knight", "soldier", "washerwoman", "virgin", "spy"])
    found = by_player(state)
    assert not found["p2"].ready and "your choice, by rule" in found["p2"].flags
    assert "Name2 (seat 2)" not in found["p2"].allowed and len(found["p2"].allowed) == 7  # any other player
    assert found["p3"].answer == "0" and found["p3"].flags[0] == "the ledger since dawn: nothing recorded"
    assert found["p3"].allowed == [str(n) for n in range(8)]


def test_the_washerwoman_sees_a_townsfolk_among_two_players():
    state = begun(["po", "washerwoman", "recluse", "knight", "soldier", "empath", "virgin", "spy"])
    found = by_player(state)["p2"]
    assert found.answer == "Name4 (seat 4) or Name5 (seat 5) is the Knight"
    assert "the Spy may register as a Townsfolk" in found.flags[0]


def test_the_shugenja_learns_the_direction_of_the_closest_evil_player():
    # seat 2 the Shugenja: the Po in seat 1 (one step anticlockwise), the Spy in seat 4
    state = begun(["po", "shugenja", "knight", "spy", "soldier", "empath", "virgin", "washerwoman"])
    found = by_player(state)["p2"]
    assert found.answer == "anticlockwise"
    # the Spy may register good: still the Po is closest; the answer cannot change
    assert found.allowed == ["anticlockwise"] and not found.flags
    # the Po and the Spy both two steps away: equidistant, the Storyteller's choice
    state = begun(["po", "knight", "shugenja", "empath", "spy", "soldier", "virgin", "washerwoman"])
    found = by_player(state)["p3"]
    assert found.allowed == ["anticlockwise", "clockwise"] and "equidistant" in found.flags[0]


def test_st_inform_sends_the_proposal_or_an_allowed_answer_and_refuses_the_rest():
    state = begun(["po", "empath", "recluse", "knight", "soldier", "washerwoman", "virgin", "highpriestess"],
                  options={"inform_at": "accept"})
    with pytest.raises(IllegalAction, match="proposed when the night's actions lock"):
        act(state, type="inform", target="p2")
    state = lock(state).state
    out = act(state, type="inform", target="p2")
    sent = next(e for e in events_of(out, "player") if e.type == "information")
    assert sent.audience.id == "p2" and sent.text == "🌙 1 of your living neighbours is evil."
    assert [e.type for e in out.events if e.audience.kind == "record"] == ["told"]
    assert act(state, type="inform", target="p2", answer="2").reply.endswith("2 of your living neighbours are evil.")
    with pytest.raises(IllegalAction, match="'0' is not an answer the rules allow here: 1, 2"):
        act(state, type="inform", target="p2", answer="0")
    with pytest.raises(IllegalAction, match="answer waits for you"):
        act(state, type="inform", target="p8")
    told = act(state, type="inform", target="p8", answer="Name4 (seat 4)")
    assert "The player you should talk to most: Name4 (seat 4)." in told.reply
    with pytest.raises(IllegalAction, match="is due no information tonight"):
        act(state, type="inform", target="p5")


def test_the_spy_sees_the_grimoire_without_the_demon_and_magician_under_the_djinns_jinx():
    chars = ["po", "spy", "magician", "empath", "knight", "soldier", "virgin", "washerwoman"]
    state = lock(begun(chars, options={"inform_at": "accept"})).state
    spy = by_player(state)["p2"]
    assert spy.ready and "the Djinn's jinx" in spy.flags[0]
    out = act(state, type="inform", target="p2")
    sent = next(e for e in events_of(out, "player") if e.type == "information").text
    assert "1 · Name1: (token removed)" in sent and "3 · Name3: (token removed)" in sent
    assert "4 · Name4: Empath" in sent and "Po" not in sent and "Magician" not in sent
    plain = lock(begun(chars, options={"djinn": "false", "inform_at": "accept"})).state
    assert not by_player(plain)["p2"].flags
    sent = next(e for e in events_of(act(plain, type="inform", target="p2"), "player") if e.type == "information")
    assert "1 · Name1: Po" in sent.text and "3 · Name3: Magician" in sent.text


def test_the_spy_sees_the_marionette_as_its_card_and_no_marionette_reminder_under_the_djinns_jinx():
    chars = ["po", "spy", "magician", "marionette", "knight", "soldier", "virgin", "washerwoman"]
    for djinn, seen in (("true", False), ("false", True)):
        state = begun(chars, options={"djinn": djinn, "inform_at": "accept"}, shown={"p4": "empath"})
        state = lock(act(state, type="add_reminder", target="p4", token="Is the Marionette").state).state
        sent = next(e for e in events_of(act(state, type="inform", target="p2"), "player") if e.type == "information")
        assert ("Is the Marionette" in sent.text) is seen, djinn
        assert ("Marionette" in sent.text) is seen, djinn  # under the jinx nothing marks the Marionette
        line = "4 · Name4: Marionette (thinks they are the Empath)" if seen else "4 · Name4: Empath\n"
        assert line in sent.text, djinn
