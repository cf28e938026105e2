"""The voice table (issue 29): whose turn it is and the end, said aloud; the narrate option."""

from __future__ import annotations

import support.castle_helpers as H

from games.castle import GAME
from games.engine.run import play_random


def test_narrate_is_on_by_default_and_can_be_turned_off():
    state, _ = H.new_game()
    assert state.options.narrate is True and GAME.narrated(state)
    quiet, _ = H.new_game(options={"narrate": False})
    assert not GAME.narrated(quiet)
    assert GAME.silenced(state) == [] and GAME.speaking_turn(state) is None


def test_each_turn_message_says_whose_turn_it_is():
    state, events = H.new_game()
    assert events[-1].type == "turn" and events[-1].say == "Alice's turn."
    out = H.act(state, {"type": "advance", "player": "p1", "card": 1})
    turn = [e for e in out.events if e.type == "turn"][-1]
    assert turn.say == "Bob's turn." and turn.notify == ["p2"]


def test_the_end_says_who_won():
    state, events = H.ended_by_max_turns()
    final = [e for e in events if e.type == "game_over"][-1]
    names = " and ".join(state.name(w) for w in state.winners)
    assert final.say.startswith(names) and final.say.endswith("points.")
    assert str(state.spell.scores[state.winners[0]]) in final.say


def test_a_moderator_s_end_is_said():
    state, _ = H.new_game()
    out = H.act(state, {"type": "end_game", "reason": "bedtime"})
    assert out.events[-1].say == "The game is ended."


def test_spoken_words_only_with_public_events_in_random_play():
    for seed in range(6):
        state, _, problems = play_random(GAME, 4, seed)
        assert problems == [] and state.finished
    state, events = H.new_game()
    assert all(not e.say for e in events if e.audience.kind != "public")
