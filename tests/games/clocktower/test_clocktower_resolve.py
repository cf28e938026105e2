"""What the night's choices do, pure: the Pukka's poison and its death a night later, the Po's
kill, no-one and three, the Lleech's host and its death with the host by day, the Soldier safe
from the Demon, an impaired Demon, the Thief's mark, the Ravenkeeper woken by a kill, and the
Storytellers' overrule before dawn."""

from support.clocktower_pure import (
    CHARACTERS,
    act,
    choose,
    events_of,
    lock,
    new_game,
    next_night,
    timeout,
)
from support.clocktower_pure import through_night as dawn

PO = ["po", "spy", "ravenkeeper", "empath", "knight", "soldier", "politician", "virgin"]
LLEECH = ["lleech", "spy", "washerwoman", "empath", "knight", "soldier", "politician", "virgin"]


def begun(characters=CHARACTERS, options=None):
    return act(new_game(options, characters), type="begin").state


def plan(out):
    return next(e for e in events_of(out, "storyteller") if e.type == "night_plan").text


def poisoned(state):
    return {(r.player, r.source) for r in state.reminders if r.token == "Poisoned"}


def test_the_pukka_poisons_tonight_and_the_poisoned_player_dies_the_next_night():
    state = choose(begun(), "p1", "p3")
    out = lock(state)
    assert poisoned(out.state) == {("p3", "pukka")} and out.state.seat_of("p3").alive
    assert "Name1 (seat 1), the Pukka chose Name3 (seat 3): Name3 (seat 3) is poisoned." in plan(out)
    day = dawn(out.state)
    assert "Nobody died in the night." in next(e for e in day.events if e.type == "dawn").text
    state = choose(next_night(day.state), "p1", "p4")
    out = lock(state)
    assert not out.state.seat_of("p3").alive and poisoned(out.state) == {("p4", "pukka")}
    assert "Name4 (seat 4) is poisoned; Name3 (seat 3) dies; Name3 (seat 3) becomes healthy." in plan(out)
    assert "Name3 (seat 3) died in the night" in next(e for e in dawn(out.state).events if e.type == "dawn").text


def test_the_soldier_is_safe_from_the_pukkas_poison_unless_the_option_says_otherwise():
    out = lock(choose(begun(), "p1", "p6"))
    assert poisoned(out.state) == set() and "the Soldier, safe from the Demon: not poisoned" in plan(out)
    out = lock(choose(begun(options={"soldier_safe_from_pukka": "false"}), "p1", "p6"))
    assert poisoned(out.state) == {("p6", "pukka")}


def test_an_impaired_demon_does_nothing_and_a_demon_that_chose_nothing_kills_nobody():
    state = act(begun(PO), type="add_reminder", target="p1", token="Poisoned", source="").state
    state = choose(next_night(dawn(lock(state).state).state), "p1", "p4")
    out = lock(state)
    assert out.state.seat_of("p4").alive and "impaired (poisoned: your own token): nobody dies." in plan(out)
    out = lock(next_night(dawn(lock(begun(PO)).state).state))
    assert "nothing submitted: nothing happens (not the same as no-one)." in plan(out)


def test_the_po_kills_spares_the_soldier_and_after_no_one_kills_three():
    night2 = next_night(dawn(lock(begun(PO)).state).state)
    out = lock(choose(night2, "p1", "p4"))
    assert not out.state.seat_of("p4").alive and out.state.dawn_deaths == ["p4"]
    out = lock(choose(night2, "p1", "p6"))
    assert out.state.seat_of("p6").alive and "Soldier, safe from the Demon: nobody dies of it" in plan(out)
    out = lock(choose(night2, "p1", "no-one"))
    assert out.state.dawn_deaths == [] and "chooses three players next night" in plan(out)
    night3 = next_night(dawn(out.state).state)
    out = lock(choose(night3, "p1", "p4", "p5", "p7"))
    assert sorted(out.state.dawn_deaths) == ["p4", "p5", "p7"]


def test_the_ravenkeeper_killed_by_the_demon_is_woken_at_the_lock():
    night2 = next_night(dawn(lock(begun(PO)).state).state)
    out = lock(choose(night2, "p1", "p3"))
    woken = [e for e in events_of(out, "player") if e.type == "night_ask"]
    assert [e.audience.id for e in woken] == ["p3"]


def test_the_lleech_takes_a_host_then_kills_and_dies_when_its_host_is_executed():
    state = choose(begun(LLEECH), "p1", "p3")
    out = lock(state)
    assert poisoned(out.state) == {("p3", "lleech")} and out.state.dawn_deaths == []
    assert "Name3 (seat 3) is the Lleech's host." in plan(out)
    state = choose(next_night(dawn(out.state).state), "p1", "p5")
    out = lock(state)
    assert out.state.dawn_deaths == ["p5"]
    day = dawn(out.state).state
    for voter in ("p4", "p6", "p7", "p8"):
        day = act(day, player=voter, type="vote", target="p3").state
    while day.phase == "day":
        ended = timeout(day)
        day = ended.state
    said = [e.text for e in events_of(ended, "public")]
    assert any("Name1 (seat 1) has died." in t for t in said)  # the Lleech goes with its host
    assert day.phase == "ending" and day.pending_end.team == "good"


def test_the_lleechs_host_killed_at_night_takes_the_lleech_with_them():
    state = lock(choose(begun(LLEECH), "p1", "p3")).state
    state = next_night(dawn(state).state)
    state = act(state, type="kill", target="p3").state  # the Storyteller's kill, before the lock
    out = lock(state)
    assert not out.state.seat_of("p1").alive and "its host, Name3 (seat 3), is dead: the Lleech dies too." in plan(out)


def test_the_thiefs_choice_counts_negatively_the_next_day_and_the_storytellers_may_overrule():
    state = begun(PO)
    state = timeout(timeout(timeout(state).state).state).state  # day 1
    state = act(state, type="add_traveller", target="t1", name="Thi", seat=9, character="thief",
                alignment="evil").state
    state = next_night(state)
    state = choose(state, "t1", "p4")
    state = choose(state, "p1", "p5")
    out = lock(state)
    assert out.state.negative_tomorrow == ["p4"]
    # the Storytellers overrule a death before dawn: the town never hears of it
    state = act(out.state, type="revive", target="p5").state
    day = dawn(state)
    assert day.state.negative == ["p4"]
    assert "Name5" not in next(e for e in day.events if e.type == "dawn").text
