"""Night information from the copilot to the players, pure: accepted (and changed) until dawn and
delivered then, sent at once with ``inform_at=accept``, the unflagged rest sent at dawn with
``auto_inform``, the Mathematician's ledger, and every night's information in the end reveal."""

import pytest
from support.clocktower_pure import GAME, act, events_of, new_game, timeout

from games.clocktower.copilot import proposals
from games.engine import IllegalAction

# seat 1 the Po, 2 the Empath (beside the Po: 1), 5 the Soldier, 8 the Mathematician
CHARACTERS = ["po", "empath", "recluse", "knight", "soldier", "washerwoman", "virgin", "mathematician"]


def begun(characters=CHARACTERS, options=None, shown=None):
    return act(new_game(options, characters, shown), type="begin").state


def locked(characters=CHARACTERS, options=None):
    """Night 1 at its lock, when the information is proposed."""
    return until(begun(characters, options), "night", "locked")


def until(state, phase, stage=None):
    """Timeouts until the phase (and stage) is reached."""
    while not (state.phase == phase and (stage is None or state.stage == stage)):
        state = timeout(state).state
    return state


def next_night(state):
    return until(until(state, "day"), "night")


def dawn(state):
    """The night's remaining stages, then dawn's outcome."""
    while True:
        out = timeout(state)
        if out.state.phase != "night":
            return out
        state = out.state


def mathematician(state):
    return next(p for p in proposals(state, GAME.chars_of(state)) if p.character == "mathematician")


def test_accepted_information_waits_for_dawn_and_can_be_changed_until_then():
    state = locked()
    out = act(state, type="inform", target="p2")
    assert not events_of(out, "player")
    assert "learns at dawn: 1 of your living neighbours is evil" in out.reply
    seen = next(e for e in events_of(out, "storyteller") if e.type == "information_accepted")
    assert "Name2 (seat 2), the Empath learns at dawn" in seen.text
    changed = act(out.state, type="inform", target="p2", answer="2")
    assert events_of(changed, "storyteller")[0].text.endswith(
        "learns at dawn: 2 of your living neighbours are evil. Before: 1 of your living neighbours is evil.")
    morning = dawn(changed.state)
    sent = [e for e in events_of(morning, "player") if e.type == "information"]
    assert [(e.audience.id, e.text) for e in sent] == [("p2", "🌙 2 of your living neighbours are evil.")]
    told = [e.data for e in morning.events if e.type == "told"]
    assert told == [{"night": 1, "player": "p2", "card": "empath", "answer": "2", "proposed": "1",
                     "flags": ["Name3 (seat 3) may misregister: 1 to 2"], "auto": False}]
    summary = next(e for e in events_of(morning, "storyteller") if e.type == "information_dawn")
    assert "1 piece of information delivered at dawn" in summary.text and summary.image == "grimoire"
    # the Knight, the Washerwoman and the Mathematician were due information nobody accepted
    assert "Not sent" in summary.text and "Name4 (seat 4)" in summary.text and "Name2 (seat 2)" not in summary.text


def test_information_is_sent_at_once_with_inform_at_accept():
    out = act(locked(options={"inform_at": "accept"}), type="inform", target="p2")
    assert [e.text for e in events_of(out, "player")] == ["🌙 1 of your living neighbours is evil."]
    morning = dawn(out.state)
    assert not [e for e in events_of(morning, "player") if e.type == "information"]  # not twice


def test_auto_inform_sends_the_unflagged_proposals_at_dawn_and_leaves_the_flagged_ones():
    state = begun(["po", "empath", "knight", "washerwoman", "soldier", "virgin", "spy", "mathematician"],
                  options={"auto_inform": "true"})
    found = {p.player: p for p in proposals(state, GAME.chars_of(state))}
    # the Empath and the Knight are plain; the Washerwoman is flagged (the Spy may register as a Townsfolk)
    assert not found["p2"].flags and not found["p3"].flags and found["p4"].flags
    morning = dawn(state)
    sent = {e.audience.id: e.text for e in events_of(morning, "player") if e.type == "information"}
    unflagged = {p for p, f in found.items() if not f.flags and f.ready and f.character != "spy"}
    assert set(sent) == unflagged == {"p2", "p3"}
    assert all(e.data["auto"] for e in morning.events if e.type == "told")
    summary = next(e for e in events_of(morning, "storyteller") if e.type == "information_dawn")
    assert "Name8 (seat 8)" in summary.text  # the Mathematician is flagged: it waits for a Storyteller


def test_the_mathematician_counts_the_nights_failed_abilities_and_false_information():
    state = next_night(begun())
    state = act(state, player="p1", type="night_choice", targets=["p5"]).state  # the Po attacks the Soldier
    locked = until(state, "night", "locked")
    found = mathematician(locked)
    assert found.answer == "1" and "its kill failed on the Soldier, Name5 (seat 5)" in found.flags[0]
    # the Empath (earlier tonight) told false information counts too; the Recluse allows 1 or 2
    lied = act(locked, type="inform", target="p2", answer="2").state
    assert mathematician(lied).answer == "2" and "the Empath was told 2 (the truth: 1)" in mathematician(lied).flags[0]
    # the ledger is since dawn: tomorrow night starts empty
    assert mathematician(until(next_night(lied), "night", "locked")).answer == "0"


def test_a_poisoned_virgin_and_a_poisoned_demon_are_in_the_ledger():
    state = act(until(begun(), "day"), type="add_reminder", target="p7", token="Poisoned", source="lleech").state
    state = act(state, player="p4", type="vote", target="p7").state  # the Knight nominates the Virgin
    assert [a.player for a in state.abnormal] == ["p7"]
    state = act(state, type="add_reminder", target="p1", token="Poisoned", source="lleech").state
    state = act(until(state, "night"), player="p1", type="night_choice", targets=["p4"]).state
    found = mathematician(until(state, "night", "locked"))
    assert found.answer == "2" and "the Virgin's ability failed" in found.flags[0] and "the Po: impaired" in found.flags[0]


def test_the_lunatic_attacking_elsewhere_than_the_demon_counts_under_the_djinn():
    chars = ["po", "lunatic", "recluse", "knight", "soldier", "washerwoman", "virgin", "mathematician"]
    state = next_night(begun(chars, shown={"p2": "pukka"}))
    state = act(state, player="p1", type="night_choice", targets=["p4"]).state
    state = act(state, player="p2", type="night_choice", targets=["p6"]).state
    assert "the Lunatic attacked other players" in mathematician(state).flags[0]
    same = act(state, player="p2", type="night_choice", targets=["p4"]).state
    assert "Lunatic" not in mathematician(same).flags[0]
    plain = next_night(begun(chars, options={"djinn": "false"}, shown={"p2": "pukka"}))
    plain = act(act(plain, player="p1", type="night_choice", targets=["p4"]).state,
                player="p2", type="night_choice", targets=["p6"]).state
    assert "Lunatic" not in mathematician(plain).flags[0]


def test_a_marionette_beside_the_recluse_counts_the_first_night_or_every_night():
    # seat 3 the Marionette sits between the Recluse (2) and the Knight (4), not beside the Po (1)
    chars = ["po", "recluse", "marionette", "knight", "soldier", "washerwoman", "virgin", "mathematician"]
    options = {"marionette_neighbours": "demon_or_recluse"}
    state = begun(chars, options=options, shown={"p3": "empath"})
    assert "the Marionette neighbours the Recluse" in mathematician(state).flags[0]
    assert "Marionette" not in mathematician(next_night(state)).flags[0]
    every = begun(chars, options=options | {"marionette_recluse_counts": "every_night"}, shown={"p3": "empath"})
    assert "the Marionette neighbours the Recluse" in mathematician(next_night(every)).flags[0]


def test_the_end_reveal_tells_every_nights_information_and_the_truth_where_it_differed():
    morning = dawn(act(locked(), type="inform", target="p2", answer="2").state)
    records = [e for e in morning.events if e.audience.kind == "record"]
    recap = next(e for e in GAME.recap(morning.state, records) if e.type == "information_recap")
    assert recap.audience.kind == "public"
    assert "**Night 1**\n• Name2, as the Empath: 2 (the truth: 1)" in recap.text


def test_an_answer_from_a_panel_of_a_night_that_is_over_is_refused():
    state = until(next_night(begun()), "night", "locked")  # night 2
    with pytest.raises(IllegalAction, match="Night 1 is over"):
        act(state, type="inform", target="p2", night=1)
    assert act(state, type="inform", target="p2", night=2).reply.startswith("Accepted:")
