"""The outbox's rules, tested with plain rows and events: no Discord, no database."""

import ast
from pathlib import Path

from bot.delivery import _rules
from bot.delivery._rules import CLOSED, Schedule, beat_ends, countdown, lane, paused_ends, units
from bot.store import GameRow, OutboxRow
from games.engine import Event


def row(id: int, target: str = "channel", step: int | None = 1, **kw) -> OutboxRow:
    recipient = kw.pop("recipient_id", None if target == "channel" else 7)
    payload = kw.pop("payload", {"type": "say", "text": f"event {id}"})
    return OutboxRow(id=id, game_id=1, target=target, recipient_id=recipient, phase_seq=1,
                     payload=payload, image=None, step=step, **kw)


def game_row(**kw) -> GameRow:
    fields = dict(id=1, kind="tally", guild_id=1, channel_id=2, host_id=3, status="running", seed=0,
                  options={}, min_players=1, max_players=9, state=None, phase_seq=4, deadline=1000.0,
                  paused_remaining=None)
    return GameRow(**(fields | kw))


def test_the_rules_module_imports_no_discord():
    tree = ast.parse(Path(_rules.__file__).read_text())
    names = [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    names += [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    assert not [n for n in names if n.split(".")[0] in ("discord", "aiohttp")]


def test_a_commits_channel_events_are_one_unit_and_its_private_rows_follow():
    rows = [row(1), row(2, "dm"), row(3), row(4, step=2)]
    found, superseded = units(rows)
    assert [[r.id for r in unit] for unit in found] == [[1, 3], [2], [4]]
    assert superseded == []


def test_the_last_refresh_of_a_slot_wins():
    rows = [row(1, op="refresh", slot="phase:1"), row(2), row(3, op="refresh", slot="phase:1")]
    found, superseded = units(rows)
    assert [[r.id for r in unit] for unit in found] == [[2], [3]]
    assert [r.id for r in superseded] == [1]


def test_a_private_row_keeps_its_own_order_apart_from_the_channel():
    assert lane(row(1)) == ("channel", None)
    assert lane(row(2, "dm", recipient_id=8)) == ("dm", 8)
    assert lane(row(3, "group", payload={"audience": {"id": "whisper:1"}})) == ("group", "whisper:1")


def test_beats_end_after_the_longest_pauses():
    events = [Event(type="say", pause=p) for p in (1.0, 3.0, 0.0, 3.0, 2.0)]
    assert beat_ends(events, beats=3) == [2, 4, 5]
    assert beat_ends(events, beats=3, cut_seconds=5.0) == [5]  # no pause is long enough


def test_an_earlier_phase_whose_choices_stand_stays_open_and_names_the_deadlines():
    plan = Schedule(since=3, ends=[["Night actions lock", 0.0], ["Dawn comes", 60.0]])
    line, still_open = countdown(game_row(), 3, now=0.0, schedule=plan)
    assert still_open and line == "⏳ Night actions lock <t:1000:R> · Dawn comes <t:1060:R>"
    assert countdown(game_row(), 3, now=0.0) == (CLOSED, False)  # no schedule: only the current phase
    assert countdown(game_row(status="finished"), 4, now=0.0) == (CLOSED, False)


def test_a_paused_phase_tells_how_far_each_deadline_will_be():
    assert paused_ends(90.0, [["Night actions lock", 0.0], ["Dawn comes", 3600.0]]) == (
        "⏸️ Paused. When the game resumes: night actions lock in 1 min 30 s · dawn comes in 1 h 1 min 30 s.")
