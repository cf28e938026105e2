"""The voice table (issue 29): the quiet night (who is server-muted) and the words said aloud."""

from __future__ import annotations

import random

import pytest
import support.cauldron_helpers as h

from games.cauldron import GAME
from games.engine import GameError, PhaseTimeout, Player
from games.engine.run import start, step


def to_day(state):
    """Time out the night and any pending choice until the day breaks."""
    events = []
    while state.phase != "day" and not state.finished:
        out = GAME.apply(state, {"type": "phase_timeout", "phase_seq": state.phase_seq}, random.Random(3))
        state = out.state
        events += out.events
    return state, events


def test_night_quiet_mutes_every_seated_player_from_nightfall_to_day():
    state = h.new_game(5, options={"night_quiet": True}).state
    assert state.phase == "night"
    assert GAME.silenced(state) == h.pids(5)
    state, _ = to_day(state)
    assert state.phase == "day" and GAME.silenced(state) == []
    out = GAME.apply(state, {"type": "phase_timeout", "phase_seq": state.phase_seq}, random.Random(3))
    assert out.state.phase == "night" and GAME.silenced(out.state) == h.pids(5)


def test_night_quiet_keeps_the_night_s_secret_choices_quiet():
    state = h.new_game(5, options={"night_quiet": True}).state
    for phase in ("gaze", "yew"):
        state.phase = phase
        assert GAME.silenced(state) == h.pids(5)


def test_night_quiet_never_mutes_a_removed_player_nor_after_the_end():
    state = h.new_game(5, options={"night_quiet": True}).state
    state = h.act(state, {"type": "remove_player", "target": "p3"}).state
    assert GAME.silenced(state) == ["p1", "p2", "p4", "p5"]
    state = h.act(state, {"type": "end_game"}).state
    assert state.finished and GAME.silenced(state) == []


def test_no_one_is_muted_by_default():
    state = h.new_game(5).state
    assert state.phase == "night" and GAME.silenced(state) == []
    assert state.options.night_quiet is False and state.options.narrate is True and GAME.narrated(state)


def test_the_night_the_day_and_the_end_are_said_aloud():
    out = h.new_game(5, options={"night_seconds": 30, "day_seconds": 60})
    night = [e for e in out.events if e.type == "night"][-1]
    assert night.say == "Night one. Thirty seconds to cast an ingredient."
    assert "quiet night" not in night.text
    state, events = to_day(out.state)
    day = [e for e in events if e.type == "day"][-1]
    assert day.say == "Day breaks. One minute."
    end = h.act(state, {"type": "end_game"}).events[-1]
    assert end.type == "game_over" and end.say == "The game is ended."


def test_a_quiet_night_says_so():
    out = h.new_game(5, options={"night_quiet": True, "night_seconds": 45, "day_seconds": 120})
    night = [e for e in out.events if e.type == "night"][-1]
    assert night.say == "Night one. Silence. Forty-five seconds to cast an ingredient."
    assert "quiet night" in night.text
    _, events = to_day(out.state)
    assert [e for e in events if e.type == "day"][-1].say == "Day breaks. Two minutes."


@pytest.mark.slow
def test_random_play_with_night_quiet_keeps_every_invariant():
    ends = set()
    for seed in range(12):
        chooser = random.Random(seed)
        ps = [Player(id=f"p{i}", name=h.NAMES[i - 1]) for i in range(1, 8)]
        out = start(GAME, ps, {"night_quiet": True}, seed)
        state = out.state
        assert GAME.check_invariants(state, out.events) == []
        while not state.finished:
            legal = GAME.legal_actions(state)
            action = PhaseTimeout(phase_seq=state.phase_seq) if not legal or chooser.random() < 0.1 \
                else chooser.choice(legal)
            try:
                out = step(GAME, state, action, seed)
            except GameError as exc:  # pragma: no cover - a failure message
                raise AssertionError(f"{action!r} refused: {exc}") from exc
            state = out.state
            assert GAME.check_invariants(state, out.events) == []
            quiet = GAME.silenced(state)
            assert quiet == ([] if state.finished or state.phase == "day" else state.active())
            for e in out.events:
                assert not e.say or e.audience.kind == "public"
                if e.type in ("night", "day", "game_over") and e.audience.kind == "public":
                    assert e.say
                    if e.type == "game_over":
                        ends.add(e.say)
    assert ends


def test_only_a_quiet_night_mutes_anyone():
    assert GAME.mutes_anyone(h.new_game(5, options={"night_quiet": True}).state)
    assert not GAME.mutes_anyone(h.new_game(5).state)
