"""The Apprentice and the Scapegoat, pure: the Apprentice's first night is the first night after it
joins, it gains an ability not in play of its alignment's team and acts by it (first-night
information on its first night, only then); the Scapegoat is executed instead of a player of its
alignment, from the execution until the night's lock, and never otherwise."""

import pytest
from support.clocktower_pure import GAME, act, events_of, new_game, timeout, traveller

from games.clocktower.copilot import proposals
from games.clocktower.resolve import plan_night
from games.engine import IllegalAction

# seat 1 the Po (the Demon), 2 the Empath, 3 the Knight ... all good but the Po and the Spy (seat 8)
CHARACTERS = ["po", "empath", "knight", "soldier", "washerwoman", "virgin", "mathematician", "spy"]


def day_one():
    state = act(new_game(None, CHARACTERS), type="begin").state
    while state.phase == "night":
        state = timeout(state).state
    return state


def to_night(state):
    while state.phase != "night":
        state = timeout(state).state
    return state


def executed_at_dusk(state, target, voters=("p2", "p3", "p4", "p5", "p6")):
    for voter in voters:
        state = act(state, player=voter, type="vote", target=target).state
    out = timeout(state)
    while out.state.phase == "day":
        out = timeout(out.state)
    return out


def test_the_apprentice_is_due_an_ability_on_its_first_night_and_acts_by_it_then():
    state = traveller(day_one(), "apprentice", "good")
    out = timeout(state)
    while out.state.phase == "day":
        out = timeout(out.state)
    due = next(e for e in events_of(out, "storyteller") if e.type == "apprentice_due")
    assert "Tonight is the first night of Trav (seat 9), the Apprentice (good)" in due.text
    state = out.state
    with pytest.raises(IllegalAction, match="The Empath is in play"):
        act(state, type="apprentice", target="t9", character="empath")
    with pytest.raises(IllegalAction, match="not a townsfolk character"):
        act(state, type="apprentice", target="t9", character="baron")
    with pytest.raises(IllegalAction, match="is not the Apprentice"):
        act(state, type="apprentice", target="p2", character="shugenja")
    out = act(state, type="apprentice", target="t9", character="shugenja")
    told = events_of(out, "player")
    assert [(e.audience.id, e.type) for e in told] == [("t9", "apprentice")]
    assert "You gain the Shugenja's ability" in told[0].text
    state = out.state
    assert state.seat_of("t9").character == "apprentice"  # still the Apprentice to everyone's abilities
    assert any(r.player == "t9" and r.token == "Is The Apprentice" for r in state.reminders)
    # the Shugenja's first-night information, on the Apprentice's first night (night 2)
    found = {p.player: p for p in proposals(state, GAME.chars_of(state))}
    assert found["t9"].character == "shugenja" and found["t9"].answer in ("clockwise", "anticlockwise")
    # and never again: the Shugenja acts on the first night only
    later = state
    while not (later.phase == "night" and later.night == 3):
        later = timeout(later).state
    assert "t9" not in {p.player for p in proposals(later, GAME.chars_of(later))}


def test_an_evil_apprentice_gains_a_minion_ability_and_none_gains_one_in_play():
    state = traveller(day_one(), "apprentice", "evil")
    with pytest.raises(IllegalAction, match="not a minion character"):
        act(state, type="apprentice", target="t9", character="shugenja")
    out = act(state, type="apprentice", target="t9", character="baron")
    assert "works only at the deal: it does nothing now" in out.reply
    good = traveller(day_one(), "apprentice", "good")
    with pytest.raises(IllegalAction, match="The Soldier is in play"):
        act(good, type="apprentice", target="t9", character="soldier")


def test_an_apprentice_soldier_is_safe_from_the_demon():
    characters = ["po", "empath", "knight", "virgin", "washerwoman", "shugenja", "mathematician", "spy"]
    state = act(new_game(None, characters), type="begin").state
    while state.phase == "night":
        state = timeout(state).state
    state = act(traveller(state, "apprentice", "good"), type="apprentice", target="t9", character="soldier").state
    state = to_night(state)
    state = act(state, player="p1", type="night_choice", targets=["t9"]).state
    steps = plan_night(state, GAME.chars_of(state))
    po = next(s for s in steps if s.character == "po")
    assert not po.effects and "is the Soldier, safe from the Demon" in po.notes[0]


def test_the_scapegoat_is_executed_instead_of_a_player_of_its_alignment_until_the_lock():
    state = traveller(day_one(), "scapegoat", "good")
    out = executed_at_dusk(state, "p3")  # the Knight, good
    note = next(e for e in events_of(out, "storyteller") if e.type == "scapegoat_due")
    assert "Trav (seat 9), the Scapegoat, is of their alignment (good)" in note.text
    state = out.state
    assert state.phase == "night" and not state.seat_of("p3").alive
    out = act(state, type="scapegoat")
    swapped = out.state
    assert swapped.seat_of("p3").alive and not swapped.seat_of("t9").alive and swapped.executed == "t9"
    said = events_of(out, "public")
    assert said[0].text == "🐐 Trav (seat 9), the Scapegoat, is executed instead of Name3 (seat 3), who lives."
    with pytest.raises(IllegalAction, match="No living, working Scapegoat"):
        act(swapped, type="scapegoat")
    locked = state
    while locked.stage != "locked":
        locked = timeout(locked).state
    with pytest.raises(IllegalAction, match="until the night's actions lock"):
        act(locked, type="scapegoat")


def test_no_scapegoat_for_a_player_of_the_other_alignment():
    state = traveller(day_one(), "scapegoat", "good")
    out = executed_at_dusk(state, "p1")  # the Po, evil (the Spy might register as good: test_clocktower_truth)
    assert not [e for e in events_of(out, "storyteller") if e.type == "scapegoat_due"]
    with pytest.raises(IllegalAction, match="No living, working Scapegoat"):
        act(out.state, type="scapegoat")


def test_an_evil_scapegoat_saves_the_executed_demon_and_the_game_goes_on():
    state = traveller(day_one(), "scapegoat", "evil")
    out = executed_at_dusk(state, "p1")  # the Po: good would win
    assert out.state.phase == "ending"
    out = act(out.state, type="scapegoat")
    assert out.state.phase == "night" and out.state.seat_of("p1").alive
    assert any(e.type == "night" for e in events_of(out, "public"))
