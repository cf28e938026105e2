"""A game's deadlines as one value (``bot.deadlines``): every rule alone, with the clock an argument.
No store, no Discord, no scheduler."""

import ast
from pathlib import Path

import pytest

from bot import deadlines
from bot.deadlines import NONE, SLACK, Deadlines
from bot.store import GameRow
from games.engine import IllegalAction

NOW = 1_000.0


# ----- opening and closing a phase -----


def test_a_phase_opens_with_its_seconds_from_its_start():
    d = deadlines.open_phase(NONE, 90.0, start=NOW, waits_for_opener=False)
    assert d == Deadlines(close=NOW + 90)


def test_a_phase_with_no_seconds_has_no_timer():
    running = Deadlines(close=NOW + 5, waiting=None)
    assert deadlines.open_phase(running, None, start=NOW, waits_for_opener=False).close is None
    assert deadlines.open_phase(running, 0.0, start=NOW, waits_for_opener=True) == Deadlines()


def test_a_phase_that_waits_for_its_message_keeps_its_seconds_waiting():
    d = deadlines.open_phase(Deadlines(close=NOW), 45.0, start=NOW, waits_for_opener=True)
    assert (d.close, d.waiting) == (None, 45.0)


def test_a_fixed_schedule_starts_the_next_phase_from_the_deadline_that_closed_the_last():
    d = deadlines.open_phase(Deadlines(close=NOW - 30), 3600.0, start=NOW - 30, waits_for_opener=False)
    assert d.close == NOW - 30 + 3600


def test_a_phase_opened_while_paused_keeps_all_its_time_for_the_resume():
    paused = Deadlines(paused=True, remaining=12.0)
    assert deadlines.open_phase(paused, 60.0, start=NOW, waits_for_opener=True) == \
        Deadlines(paused=True, remaining=60.0)
    assert deadlines.open_phase(paused, None, start=NOW, waits_for_opener=False) == Deadlines(paused=True)


def test_the_end_stops_every_clock():
    assert deadlines.end() == NONE == Deadlines()
    assert not NONE.due(NOW) and not NONE.reminder_due(NOW) and not NONE.turn_due(NOW)


# ----- the opener's wait -----


def test_the_posted_message_starts_the_waiting_seconds_and_the_turn_from_its_posting():
    waiting = Deadlines(waiting=45.0, remind_at=NOW + 300)
    started = deadlines.start_clock(waiting, NOW + 7, turn=20.0)
    assert started == Deadlines(close=NOW + 52, remind_at=NOW + 300, turn_ends=NOW + 27)
    assert deadlines.start_clock(waiting, NOW + 7) == Deadlines(close=NOW + 52, remind_at=NOW + 300)


def test_a_waiting_phase_of_zero_seconds_closes_at_its_posting():
    assert deadlines.start_clock(Deadlines(waiting=0.0), NOW) == Deadlines(close=NOW)


def test_only_a_waiting_unpaused_phase_starts_its_clock():
    assert Deadlines(waiting=45.0).starts_at_posting and not Deadlines(close=NOW).starts_at_posting
    assert not Deadlines(paused=True, remaining=45.0).starts_at_posting
    assert deadlines.start_clock(Deadlines(close=NOW + 5), NOW) is None  # already running
    assert deadlines.start_clock(Deadlines(paused=True, remaining=45.0), NOW) is None


# ----- pause and resume -----


def test_pause_keeps_what_was_left_and_stops_the_reminder_and_the_turn():
    d = Deadlines(close=NOW + 40, remind_at=NOW + 10, turn_ends=NOW + 15)
    assert deadlines.pause(d, NOW) == Deadlines(paused=True, remaining=40.0)


def test_pause_after_the_deadline_leaves_nothing_and_never_less():
    assert deadlines.pause(Deadlines(close=NOW - 3), NOW).remaining == 0.0


def test_pause_while_waiting_for_the_message_keeps_the_waiting_seconds():
    assert deadlines.pause(Deadlines(waiting=45.0), NOW) == Deadlines(paused=True, remaining=45.0)


def test_pause_without_a_timer_is_paused_with_none_left():
    assert deadlines.pause(NONE, NOW) == Deadlines(paused=True, remaining=None)


def test_pausing_twice_is_refused_in_words():
    with pytest.raises(IllegalAction, match="already paused") as refused:
        deadlines.pause(Deadlines(paused=True, remaining=5.0), NOW)
    assert refused.value.code == "paused"


def test_resume_counts_what_was_left_from_now_and_restarts_the_reminder_and_turn():
    later = NOW + 3600  # paused for an hour
    paused = deadlines.pause(Deadlines(close=NOW + 40, turn_ends=NOW + 15), NOW)
    resumed = deadlines.resume(paused, later, remind=300.0, turn=20.0)
    assert resumed == Deadlines(close=later + 40, remind_at=later + 300, turn_ends=later + 20)


def test_resume_with_nothing_left_is_due_at_once_and_without_a_timer_has_none():
    resumed = deadlines.resume(Deadlines(paused=True, remaining=0.0), NOW)
    assert resumed.close == NOW and resumed.due(NOW)
    assert deadlines.resume(Deadlines(paused=True), NOW) == NONE


def test_resuming_a_game_not_paused_is_refused_in_words():
    with pytest.raises(IllegalAction, match="not paused") as refused:
        deadlines.resume(Deadlines(close=NOW), NOW)
    assert refused.value.code == "not_paused"


# ----- extend and shorten -----


def test_extend_moves_the_close_keeps_the_running_turn_and_restarts_the_reminder():
    d = Deadlines(close=NOW + 40, remind_at=NOW + 5, turn_ends=NOW + 15)
    assert deadlines.extend(d, 60.0, NOW, remind=300.0, turn=20.0) == \
        Deadlines(close=NOW + 100, remind_at=NOW + 300, turn_ends=NOW + 15)


def test_extend_starts_a_turn_that_had_no_clock_and_drops_one_that_no_longer_runs():
    assert deadlines.extend(Deadlines(close=NOW + 40), 10.0, NOW, turn=20.0).turn_ends == NOW + 20
    assert deadlines.extend(Deadlines(close=NOW + 40, turn_ends=NOW + 15), 10.0, NOW).turn_ends is None


def test_shorten_never_moves_the_close_before_now():
    d = Deadlines(close=NOW + 40)
    assert deadlines.shorten(d, 30.0, NOW).close == NOW + 10
    assert deadlines.shorten(d, 3600.0, NOW).close == NOW
    assert deadlines.shorten(d, 30.0, NOW) == deadlines.extend(d, -30.0, NOW)


def test_extend_while_paused_changes_what_is_left_at_the_resume():
    paused = Deadlines(paused=True, remaining=40.0)
    assert deadlines.extend(paused, 60.0, NOW, remind=300.0, turn=20.0) == Deadlines(paused=True, remaining=100.0)
    assert deadlines.shorten(paused, 100.0, NOW) == Deadlines(paused=True, remaining=0.0)
    resumed = deadlines.resume(deadlines.extend(paused, 60.0, NOW), NOW + 500)
    assert resumed.close == NOW + 600


def test_extend_while_the_phase_waits_for_its_message_changes_its_length():
    d = deadlines.extend(Deadlines(waiting=45.0, turn_ends=NOW + 1), 15.0, NOW, remind=300.0, turn=20.0)
    assert d == Deadlines(waiting=60.0, remind_at=NOW + 300)
    assert deadlines.shorten(Deadlines(waiting=45.0), 100.0, NOW).waiting == 0.0


@pytest.mark.parametrize("d", [NONE, Deadlines(paused=True)], ids=["running", "paused"])
def test_a_phase_without_a_timer_cannot_be_extended(d):
    with pytest.raises(IllegalAction, match="no timer") as refused:
        deadlines.extend(d, 60.0, NOW)
    assert refused.value.code == "no_timer"


# ----- the reminder -----


def test_a_reminder_is_set_from_now_when_none_is_and_none_runs_while_paused():
    assert deadlines.remind(Deadlines(close=NOW + 90), NOW, 300.0) == Deadlines(close=NOW + 90, remind_at=NOW + 300)
    assert deadlines.remind(Deadlines(remind_at=NOW + 1), NOW, None).remind_at is None
    assert deadlines.remind(Deadlines(paused=True, remaining=5.0), NOW, 300.0).remind_at is None


def test_a_step_keeps_the_reminder_set_and_its_quiet_counts_from_the_last_change():
    """A step keeps the reminder's time (an indexed column is not rewritten per action, issue 38);
    when that time comes, it is due only after ``seconds`` of quiet since the game's last change.
    A reminder gone, or one set later than now + seconds, is set from now."""
    set_before = Deadlines(close=NOW + 900, remind_at=NOW + 100)
    assert deadlines.remind(set_before, NOW + 60, 300.0) is set_before
    assert deadlines.remind(Deadlines(remind_at=NOW + 900), NOW, 300.0).remind_at == NOW + 300
    assert deadlines.remind(set_before, NOW, None).remind_at is None
    assert deadlines.reminder_after(set_before, NOW + 60, 300.0) == NOW + 360  # not quiet long enough
    assert deadlines.reminder_after(set_before, NOW - 500, 300.0) == NOW + 100  # quiet: as set
    assert deadlines.reminder_after(set_before, NOW + 60, None) is None
    assert deadlines.reminder_after(Deadlines(paused=True, remind_at=NOW), NOW, 300.0) is None


def test_a_reminder_before_the_close_is_due_before_the_phase():
    d = deadlines.remind(Deadlines(close=NOW + 600), NOW, 300.0)
    assert d.reminder_due(NOW + 300) and not d.due(NOW + 300)
    assert not d.reminder_due(NOW + 299) and d.due(NOW + 600)


def test_a_reminder_or_a_close_within_the_slack_is_due_and_none_is_while_paused():
    d = Deadlines(close=NOW + SLACK, remind_at=NOW + SLACK)
    assert d.due(NOW, SLACK) and not d.due(NOW) and d.reminder_due(NOW)
    assert not Deadlines(paused=True, remaining=0.0, remind_at=NOW).reminder_due(NOW)
    assert not Deadlines(paused=True, close=NOW).due(NOW)


# ----- the speaking turn -----


def test_a_new_turn_starts_now_and_the_same_turn_keeps_its_end():
    d = Deadlines(close=NOW + 90, turn_ends=NOW + 5)
    assert deadlines.next_turn(d, NOW, 20.0, same_turn=False).turn_ends == NOW + 20
    assert deadlines.next_turn(d, NOW, 20.0, same_turn=True) == d


def test_the_turn_after_one_that_ran_out_starts_when_that_one_was_due_to_end():
    d = Deadlines(close=NOW + 90, turn_ends=NOW - 12)
    assert deadlines.next_turn(d, NOW, 20.0, same_turn=False, since=NOW - 12).turn_ends == NOW + 8


def test_no_turn_runs_without_one_and_a_new_turn_waits_while_its_phase_does():
    assert deadlines.next_turn(Deadlines(turn_ends=NOW), NOW, None, same_turn=True).turn_ends is None
    assert deadlines.next_turn(Deadlines(waiting=45.0), NOW, 20.0, same_turn=False).turn_ends is None
    assert deadlines.next_turn(Deadlines(paused=True), NOW, 20.0, same_turn=False).turn_ends is None


def test_a_turn_is_due_within_the_slack_and_not_while_paused():
    assert Deadlines(turn_ends=NOW + SLACK).turn_due(NOW)
    assert not Deadlines(turn_ends=NOW + 1).turn_due(NOW)
    assert not Deadlines(paused=True, turn_ends=NOW).turn_due(NOW)
    assert not NONE.turn_due(NOW)


# ----- the value and the game's row -----


def test_a_rows_columns_are_the_value_and_back():
    row = GameRow(id=1, kind="ritual", guild_id=1, channel_id=2, host_id=3, status="running", seed=0,
                  options={}, min_players=3, max_players=9, state=None, phase_seq=4, deadline=None,
                  paused_remaining=30.0, paused=True, waiting_seconds=None, remind_at=None, turn_deadline=None)
    assert row.deadlines == Deadlines(paused=True, remaining=30.0)
    d = Deadlines(close=NOW, waiting=None, remind_at=NOW - 5, turn_ends=NOW - 1)
    timed = row.timed(d)
    assert timed.deadlines == d
    assert (timed.deadline, timed.paused, timed.paused_remaining, timed.remind_at, timed.turn_deadline) == \
        (NOW, False, None, NOW - 5, NOW - 1)


def test_the_rules_are_pure():
    tree = ast.parse(Path(deadlines.__file__).read_text())
    names = [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    names += [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    assert {n.split(".")[0] for n in names} <= {"__future__", "dataclasses", "games"}  # no store, clock, asyncio
