"""The engine's contract, shown on the platform's test game: parse, refuse, copy, count, replay."""

import json

import pytest
from support.tally import GAME as TALLY

from games.engine import IllegalAction, Player, ScriptedRng, SetupError, leaks, public, rng_for
from games.engine.run import play_random, start, step

PLAYERS = [Player(id="a", name="Ann"), Player(id="b", name="Bo"), Player(id="c", name="Cy")]


def new_state(**options):
    return start(TALLY, PLAYERS, options, seed=5).state


def test_setup_checks_players_options_and_forced_parts():
    with pytest.raises(SetupError, match="2 to 6 players"):
        TALLY.setup(PLAYERS[:1], {}, rng_for(1, 0))
    with pytest.raises(SetupError, match="only once"):
        TALLY.setup([PLAYERS[0], PLAYERS[0]], {}, rng_for(1, 0))
    with pytest.raises(SetupError) as err:
        TALLY.setup(PLAYERS, {"vote_seconds": "soon"}, rng_for(1, 0))
    assert err.value.code == "bad_option" and "vote_seconds" in str(err.value)
    out = TALLY.setup(PLAYERS, {}, rng_for(1, 0), {"secrets": {"a": "cat", "b": "cat", "c": "cat"}})
    assert out.state.secret == {"a": "cat", "b": "cat", "c": "cat"}


def test_refusals_change_nothing_and_say_why():
    state = new_state()
    snapshot = state.model_dump_json()
    cases = [
        ({"type": "vote", "player": "a", "target": "green"}, "bad_target"),
        ({"type": "vote", "player": "zed", "target": "red"}, "not_a_player"),
        ({"type": "vote", "player": "a"}, "malformed_action"),
        ({"type": "vote", "player": "a", "target": "red", "phase_seq": 0}, "stale_phase"),
        ({"type": "phase_timeout", "phase_seq": 0}, "stale_phase"),
        ({"type": "nonsense"}, "malformed_action"),
    ]
    for action, code in cases:
        with pytest.raises(IllegalAction) as err:
            step(TALLY, state, action, seed=5)
        assert err.value.code == code and str(err.value)
    assert state.model_dump_json() == snapshot


def test_apply_works_on_a_copy_and_counts_steps():
    state = new_state()
    out = step(TALLY, state, {"type": "vote", "player": "a", "target": "red"}, seed=5)
    assert state.votes == {} and out.state.votes == {"a": "red"}
    assert (state.step, out.state.step) == (0, 1)
    assert "change it" in out.reply


def test_in_place_apply_skips_the_copy():
    state = new_state()
    out = TALLY.apply(state, {"type": "vote", "player": "a", "target": "red"}, rng_for(5, 1), in_place=True)
    assert out.state is state and state.votes == {"a": "red"}


def test_a_finished_game_refuses_everything():
    state = step(TALLY, new_state(), {"type": "end_game"}, seed=5).state
    assert state.finished and state.outcome == "ended"
    with pytest.raises(IllegalAction) as err:
        step(TALLY, state, {"type": "vote", "player": "a", "target": "red"}, seed=5)
    assert err.value.code == "game_over"


def test_randomness_is_replayable_and_scriptable():
    assert rng_for(9, 3).random() == rng_for(9, 3).random()
    assert rng_for(9, 3).random() != rng_for(9, 4).random()
    scripted = ScriptedRng(floats=[0.1, 0.9], choices=[1])
    assert (scripted.random(), scripted.random(), scripted.choice("xyz")) == (0.1, 0.9, "y")
    a, _, _ = play_random(TALLY, 4, seed=11)
    b, _, _ = play_random(TALLY, 4, seed=11)
    assert a.model_dump_json() == b.model_dump_json()


def test_leaks_finds_secrets_in_public_events_only():
    events = [public("x", "Ann is the Seer", data={"n": 1}),
              public("y", "plain", data={"weight": "+30%"})]
    assert leaks(events, ["ann is the seer", "+30%", "Bo is the Seer"]) == ["ann is the seer", "+30%"]


def test_action_vocabulary_is_json_schema():
    schema = TALLY.action_adapter.json_schema()
    names = json.dumps(schema)
    for action in ("vote", "phase_timeout", "remove_player", "end_game"):
        assert f'"{action}"' in names
