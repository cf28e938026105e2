"""Only what the rules allow, and every message true (issue 27): the Lleech's death link is its
ability (an impaired Lleech outlives its host, and dies once sober again); the Thief's mark stops
with the Thief; a poisoned Soldier killed by the Demon is in the Mathematician's ledger; the Spy
and the Recluse may be swapped for a Scapegoat by their misregistration; the closed tally and the
day's record name who was really executed (the Virgin's nominator, `/st execute`, the Scapegoat)."""

from support.clocktower_pure import GAME, act, events_of, new_game, timeout, to_day, vote

from games.clocktower.copilot import proposals
from games.clocktower.tally import tally

LLEECH = ["lleech", "spy", "washerwoman", "empath", "knight", "soldier", "politician", "virgin"]


def until(state, phase, stage=None):
    """On through the cycle to the start of ``phase`` (and ``stage``); the last outcome."""
    out = timeout(state)
    for _ in range(20):
        if out.state.phase == phase and (not stage or out.state.stage == stage):
            return out
        out = timeout(out.state)
    raise AssertionError(f"never reached {phase} {stage or ''}: {out.state.phase} {out.state.stage}")


def lleech_day_one(token="Poisoned"):
    """Day 1 of a Lleech game: the Knight (p5) is the host, and the Lleech (p1) carries ``token``."""
    state = act(new_game(None, LLEECH), type="begin").state
    state = act(state, player="p1", type="night_choice", targets=["p5"]).state
    state = until(state, "day").state
    return act(state, type="add_reminder", target="p1", token=token, source="").state


def execute_at_dusk(state, target, voters=("p3", "p4", "p6", "p7")):
    for voter in voters:
        state = vote(state, voter, target).state
    return until(state, "night")


def texts(out, kind="public"):
    return [e.text for e in events_of(out, kind)]


# ----- 2. the Lleech's death link is its ability -----

def test_a_poisoned_lleech_does_not_die_with_its_executed_host_and_the_game_goes_on():
    out = execute_at_dusk(lleech_day_one(), "p5")
    assert not out.state.seat_of("p5").alive and out.state.seat_of("p1").alive
    assert out.state.phase == "night" and out.state.pending_end is None  # no good win
    assert not any("Name1 (seat 1) has died" in t for t in texts(out))
    told = " ".join(texts(out, "storyteller"))
    assert "the Lleech, Name1 (seat 1), is impaired (poisoned: your own token) and does not die" in told
    assert any(a.player == "p1" for a in out.state.abnormal)  # the Mathematician's ledger


def test_a_drunk_lleech_outlives_a_host_killed_by_day_or_at_night():
    out = act(lleech_day_one("Drunk"), type="kill", target="p5")
    assert out.state.seat_of("p1").alive and not any("Name1 (seat 1) has died" in t for t in texts(out))
    night = act(until(lleech_day_one("Drunk"), "night").state, type="kill", target="p5").state
    locked = until(night, "night", "locked")
    assert locked.state.seat_of("p1").alive and "p1" not in locked.state.dawn_deaths
    plan = next(e.text for e in events_of(locked, "storyteller") if e.type == "night_plan")
    assert "its host, Name5 (seat 5), is dead, but the Lleech is impaired (drunk: your own token)" in plan


def test_a_lleech_sober_again_with_its_host_dead_dies_at_the_next_check():
    state = execute_at_dusk(lleech_day_one(), "p5").state
    state = act(state, type="remove_reminder", target="p1", token="Poisoned").state
    locked = until(state, "night", "locked")
    assert not locked.state.seat_of("p1").alive and "p1" in locked.state.dawn_deaths
    plan = next(e.text for e in events_of(locked, "storyteller") if e.type == "night_plan")
    assert "its host, Name5 (seat 5), is dead: the Lleech dies too." in plan


# ----- 3. abilities that stop, and deaths that do not happen -----

def thief_day_one():
    state = to_day()
    state = act(state, type="add_traveller", target="t9", name="Thi", seat=9, character="thief",
                alignment="evil").state
    state = act(state, type="count_negatively", target="p5").state  # the Thief's choice, today
    for voter in ("p3", "p4", "p5"):
        state = vote(state, voter, "p2").state
    return state


def test_the_thiefs_mark_stops_at_once_when_the_thief_dies_and_the_tally_shows_it():
    state = thief_day_one()
    assert tally(state).count["p2"] == 1  # 1 + 1 - 1
    out = act(state, type="kill", target="t9")
    assert tally(out.state).count["p2"] == 3
    live = next(e for e in events_of(out, "public") if e.type == "tally")
    assert live.data["count"]["p2"] == 3 and "**Name2 (seat 2)** · 3" in live.text
    ended = until(out.state, "night")
    record = next(e for e in ended.events if e.type == "day")
    assert record.data["count"]["p2"] == 3 and record.data["negative"] == []


def test_an_exiled_thiefs_mark_stops_at_once_and_the_live_tally_shows_it():
    state = thief_day_one()
    for voter in ("p1", "p2", "p3", "p4"):
        state = act(state, player=voter, type="exile_vote", target="t9").state
    out = act(state, player="p6", type="exile_vote", target="t9")  # 5 of 9: exiled, and dies
    assert not out.state.seat_of("t9").alive
    live = next(e for e in events_of(out, "public") if e.type == "tally")
    assert live.data["count"]["p2"] == 3 and "**Name2 (seat 2)** · 3" in live.text


def test_a_mark_chosen_at_night_does_not_count_when_the_thief_dies_before_the_day():
    state = act(to_day(), type="add_traveller", target="t9", name="Thi", seat=9, character="thief",
                alignment="good").state
    state = until(state, "night").state
    state = act(state, player="t9", type="night_choice", targets=["p5"]).state
    state = act(until(state, "night", "locked").state, type="kill", target="t9").state
    day = until(state, "day").state
    assert day.negative == ["p5"]
    day = vote(day, "p5", "p2").state
    assert tally(day).count["p2"] == 1


def test_a_poisoned_soldier_killed_by_the_demon_counts_for_the_mathematician():
    chars = ["po", "spy", "mathematician", "empath", "knight", "soldier", "politician", "virgin"]
    state = act(to_day(characters=chars), type="add_reminder", target="p6", token="Poisoned", source="").state
    state = act(until(state, "night").state, player="p1", type="night_choice", targets=["p6"]).state
    locked = until(state, "night", "locked").state
    assert not locked.seat_of("p6").alive
    math = next(p for p in proposals(locked, GAME.chars_of(locked)) if p.player == "p3")
    assert math.answer == "1" and "Name6 (seat 6)" in math.flags[0]


SCAPE = ["po", "empath", "knight", "soldier", "washerwoman", "virgin", "mathematician", "spy"]


def test_a_good_scapegoat_may_be_executed_instead_of_the_spy():
    state = act(to_day(characters=SCAPE), type="add_traveller", target="t9", name="Goat", seat=9,
                character="scapegoat", alignment="good").state
    out = execute_at_dusk(state, "p8", voters=("p2", "p3", "p4", "p5", "p6"))
    note = next(e for e in events_of(out, "storyteller") if e.type == "scapegoat_due")
    assert "the Spy, who might register as good" in note.text
    out = act(out.state, type="scapegoat")
    assert out.state.seat_of("p8").alive and not out.state.seat_of("t9").alive and out.state.executed == "t9"


def test_an_evil_scapegoat_may_be_executed_instead_of_the_recluse():
    chars = ["po", "empath", "knight", "soldier", "washerwoman", "virgin", "recluse", "spy"]
    state = act(to_day(characters=chars), type="add_traveller", target="t9", name="Goat", seat=9,
                character="scapegoat", alignment="evil").state
    out = act(execute_at_dusk(state, "p7", voters=("p2", "p3", "p4", "p5", "p6")).state, type="scapegoat")
    assert out.state.seat_of("p7").alive and not out.state.seat_of("t9").alive


# ----- 5. the closed tally and the day's record say who was executed -----

def closed_tally(out):
    return next(e for e in events_of(out, "public") if e.type == "tally" and "(closed)" in e.title)


def test_the_virgins_closed_tally_names_the_executed_nominator():
    out = vote(to_day(), "p3", "p8")  # the Washerwoman nominates the Virgin
    closed = closed_tally(out)
    assert "Executed: **Name3 (seat 3)**." in closed.text and "Executed: **Name8" not in closed.text
    assert closed.data["leader"] == "p3"
    assert next(e for e in out.events if e.type == "day").data["executed"] == "p3"


def test_st_execute_of_the_spy_who_nominated_the_virgin_closes_the_tally_truly():
    state = vote(to_day(), "p2", "p8").state  # the Spy: the Storytellers' call
    out = act(state, type="execute", target="p2")
    assert "Executed: **Name2 (seat 2)**." in closed_tally(out).text


def test_the_scapegoats_swap_corrects_the_closed_tally_and_the_record():
    state = act(to_day(characters=SCAPE), type="add_traveller", target="t9", name="Goat", seat=9,
                character="scapegoat", alignment="good").state
    dusk = execute_at_dusk(state, "p3", voters=("p2", "p3", "p4", "p5", "p6"))
    out = act(dusk.state, type="scapegoat")
    assert "Executed: **Goat (seat 9)**." in closed_tally(out).text
    records = [e for e in dusk.events + out.events if e.audience.kind == "record"]
    chronicle = next(e for e in GAME.recap(out.state, records) if e.type == "chronicle").text
    assert "**Day 1**: Goat (seat 9) executed instead of Name3 (seat 3)" in chronicle
    assert chronicle.count("**Day 1**") == 1
