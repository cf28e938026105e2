"""The Evil Twin's win, pure, on a forced deal of Sects & Violets: each test named after the rule point
the official wiki settles (its readings are in the README's Interpretations, "Sects & Violets' mechanics")."""

from support.clocktower_pure import act, events_of, new_game, timeout, vote

from games.clocktower.rules import ruled
from games.clocktower.snv_setup import TWIN
from games.clocktower.state import Reminder

SNV = {"script": "Sects & Violets"}
# the Fang Gu in seat 1, the Evil Twin in seat 2, its good twin the Sage in seat 3
TABLE = ["fanggu", "eviltwin", "sage", "oracle", "dreamer", "clockmaker", "seamstress"]
VOTERS = ("p1", "p2", "p4", "p5", "p6", "p7", "p3")


def day1(characters=TABLE, twin="p3"):
    state = new_game(SNV, characters)
    state.reminders.append(Reminder(player=twin, token=TWIN, source="eviltwin"))
    state = act(state, type="begin").state
    while state.phase == "night":
        state = timeout(state).state
    return state


def execute_by_vote(state, target):
    """The town votes ``target`` out; the outcome of the day's end."""
    for voter in VOTERS:
        if voter != target and state.seat_of(voter).alive:
            state = vote(state, voter, target).state
    for _ in range(10):
        out = timeout(state)
        if out.state.phase != "day":
            return out
        state = out.state
    raise AssertionError("the day never ended")


def to_dawn(state):
    """Forward to the next dawn (bounded: a game waiting in ``ending`` does not get there)."""
    out = None
    for _ in range(10):
        if state.phase == "day":
            return out
        out = timeout(state)
        state = out.state
    raise AssertionError(f"never dawned: {state.phase}")


def public_text(out):
    return " ".join(e.text + (e.title or "") for e in events_of(out, "public"))


def storyteller(out, kind):
    return [e for e in events_of(out, "storyteller") if e.type == kind]


def test_the_evil_twin_is_ruled_on_sects_and_violets():
    assert ruled(day1(), "eviltwin")


def test_if_the_good_twin_is_executed_evil_wins():
    out = execute_by_vote(day1(), "p3")
    assert out.state.phase == "ending" and out.state.pending_end.team == "evil"
    assert "the good twin, Name3 (seat 3), was executed" in out.state.pending_end.reason
    assert "twin" not in public_text(out).lower()  # the town hears nothing until the Storytellers confirm


def test_the_good_twin_executed_by_the_storytellers_ruling_wins_for_evil_too():
    out = act(day1(), type="execute", target="p3")
    assert out.state.pending_end is not None and out.state.pending_end.team == "evil"


def test_if_the_evil_twin_is_executed_the_game_continues():
    out = execute_by_vote(day1(), "p2")
    assert out.state.phase == "night" and out.state.pending_end is None


def test_a_dead_evil_twin_has_no_ability_so_the_good_twin_executed_later_does_not_win():
    state = act(day1(), type="kill", target="p2").state
    out = execute_by_vote(state, "p3")
    assert out.state.phase == "night" and out.state.pending_end is None


def test_good_cannot_win_while_both_twins_live_the_demons_death_does_not_end_the_game():
    out = execute_by_vote(day1(), "p1")  # the Fang Gu, executed: every Demon is dead
    assert out.state.phase == "night" and out.state.pending_end is None
    told = storyteller(out, "twins_live")
    assert told and "both twins live (Name2 (seat 2), the Evil Twin, and Name3 (seat 3))" in told[0].text
    # what the town sees: the execution and its death, then night falls; nothing of the twins
    assert "Name1 (seat 1)** is executed and dies" in public_text(out)
    assert any(e.type == "night" for e in events_of(out, "public"))
    assert "twin" not in public_text(out).lower()


def test_good_must_kill_the_evil_twin_as_well_as_the_demon_to_win():
    out = to_dawn(execute_by_vote(day1(), "p1").state)
    state = out.state
    assert state.pending_end is None  # dawn: still no win for good, and the Storytellers are reminded why
    judged = next(e for e in out.events if e.type == "judged_today")
    assert judged.audience.kind == "storyteller" and "Every Demon is dead, but both twins live" in judged.text
    out = execute_by_vote(state, "p2")
    assert out.state.pending_end is not None and out.state.pending_end.team == "good"


def test_the_demon_dead_and_the_good_twin_executed_evil_still_wins():
    state = to_dawn(execute_by_vote(day1(), "p1").state).state
    out = execute_by_vote(state, "p3")
    assert out.state.pending_end is not None and out.state.pending_end.team == "evil"


def test_a_poisoned_evil_twin_neither_wins_nor_stops_good():
    state = act(day1(), type="add_reminder", target="p2", token="Poisoned", source="nodashii").state
    out = execute_by_vote(state, "p3")
    assert out.state.phase == "night" and out.state.pending_end is None
    assert any("the Evil Twin" in a.why for a in out.state.abnormal)
    state = act(day1(), type="add_reminder", target="p2", token="Poisoned", source="nodashii").state
    out = execute_by_vote(state, "p1")
    assert out.state.pending_end is not None and out.state.pending_end.team == "good"


def test_a_good_player_made_the_evil_twin_is_still_good_and_executing_them_wins_for_evil():
    # the wiki: it doesn't matter which twin is which character, what matters is their alignment
    state = day1(twin="p1")  # the Twin token on the (evil) Fang Gu
    state = act(state, type="set_alignment", target="p2", alignment="good", tell=False).state
    out = execute_by_vote(state, "p2")
    assert out.state.pending_end is not None and out.state.pending_end.team == "evil"
    safe = act(day1(twin="p1"), type="set_alignment", target="p2", alignment="good", tell=False).state
    assert act(safe, type="execute", target="p3").state.pending_end is None  # no twin: nothing


def test_twins_of_one_alignment_are_the_storytellers_to_pair_again_at_dawn():
    # the wiki: if both twins are the same alignment, the Storyteller chooses a new twin
    state = act(day1(), type="set_alignment", target="p3", alignment="evil", tell=False).state
    out = execute_by_vote(state, "p3")
    assert out.state.pending_end is None
    out = to_dawn(out.state)
    judged = [e for e in out.events if e.type == "judged_today"]
    assert judged and "are both evil: choose a new twin" in judged[0].text
    assert judged[0].audience.kind == "storyteller"


# ----- every good win blocked by the twins is said to the Storytellers, privately -----

def mixed(name, *characters):
    """A custom script holding the Evil Twin with ``characters`` (the Mayor, the Mastermind...)."""
    import json
    return {"script": json.dumps([{"id": "_meta", "name": name}, "eviltwin", *characters])}


def blocked_told(out):
    return [e for e in out.events if e.type == "twins_live"]


def test_the_demons_death_with_both_twins_alive_is_said_once_not_again_at_each_days_end():
    out = execute_by_vote(day1(), "p1")
    assert len(blocked_told(out)) == 1
    dawn = to_dawn(out.state)
    out = execute_by_vote(dawn.state, "p4")  # the next day's end: still blocked, already said (and said at dawn)
    assert out.state.pending_end is None and not blocked_told(out)


def test_the_mayors_win_while_both_twins_live_is_said_to_the_storytellers_not_the_town():
    table = ["imp", "eviltwin", "mayor", "chef", "empath"]
    state = new_game(mixed("Mayor and twins", "imp", "mayor", "chef", "empath"), table)
    state.reminders.append(Reminder(player="p3", token=TWIN, source="eviltwin"))
    state = act(state, type="begin").state
    while state.phase == "night":
        state = timeout(state).state
    for p in ("p4", "p5"):
        state = act(state, type="kill", target=p).state
    out = timeout(state)
    while out.state.phase == "day":
        out = timeout(out.state)
    assert out.state.pending_end is None and out.state.phase == "night"
    told = blocked_told(out)
    assert len(told) == 1 and told[0].audience.kind == "storyteller"
    assert "the Mayor, Name3 (seat 3)" in told[0].text and "both twins live" in told[0].text
    assert "twin" not in public_text(out).lower()


def test_the_mastermind_days_good_win_while_both_twins_live_is_said_to_the_storytellers():
    table = ["shabaloth", "mastermind", "eviltwin", "chambermaid", "tealady", "exorcist", "professor"]
    state = new_game(mixed("Mastermind and twins", "shabaloth", "mastermind", "chambermaid", "tealady",
                           "exorcist", "professor"), table)
    state.reminders.append(Reminder(player="p4", token=TWIN, source="eviltwin"))
    state = act(state, type="begin").state
    while state.phase == "night":
        state = timeout(state).state
    out = execute_by_vote(state, "p1")  # the Demon executed: the Mastermind's extra day
    assert out.state.mastermind_day == 2
    state = to_dawn(out.state).state
    while state.phase == "day":
        out = timeout(state)
        state = out.state
    assert state.pending_end is None
    told = blocked_told(out)
    assert len(told) == 1 and told[0].audience.kind == "storyteller"
    assert "the Mastermind's extra day ended with no execution" in told[0].text
    assert "twin" not in public_text(out).lower()


def test_an_evil_klutzs_good_win_while_both_twins_live_is_said_to_the_storytellers():
    table = ["fanggu", "eviltwin", "sage", "klutz", "dreamer", "clockmaker", "seamstress"]
    state = act(day1(table), type="set_alignment", target="p4", alignment="evil", tell=False).state
    state = act(state, type="kill", target="p4").state
    out = act(state, player="p4", type="klutz_choice", target="p1", place="announcements")
    assert out.state.pending_end is None and out.state.phase == "day"
    told = blocked_told(out)
    assert len(told) == 1 and told[0].audience.kind == "storyteller"
    assert "the Klutz, Name4 (seat 4), publicly chose Name1 (seat 1)" in told[0].text
    assert "both twins live" in told[0].text and "twin" not in public_text(out).lower()
