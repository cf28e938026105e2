"""Every phase a quick game reaches has an entry in its declared phase table (issue 39): its label,
its length and its timeout come from there, so a phase without one would have no timer or the
wrong words. Each prompt a phase offers is one its entry declares."""

import random

import pytest

import games
from games.engine import GameError, PhaseTimeout, Player
from games.engine.run import start, step

QUICK_GAMES = ("ritual", "cauldron", "castle")


def walk(game, n_players, seed):
    """Each phase of a seeded random playthrough -> the prompts its players were offered in it."""
    chooser = random.Random(f"phases:{seed}")
    players = [Player(id=f"p{i}", name=f"Player{i}") for i in range(1, n_players + 1)]
    state = start(game, players, None, seed).state
    seen: dict[str, set[str]] = {}
    for _ in range(5000):
        seen.setdefault(state.phase, set()).update(
            prompt.action for p in players for prompt in game.prompts(state, p.id))
        if state.finished:
            break
        legal = game.legal_actions(state)
        action = PhaseTimeout(phase_seq=state.phase_seq) if not legal or chooser.random() < 0.1 \
            else chooser.choice(legal)
        try:
            state = step(game, state, action, seed).state
        except GameError:  # (a phase without an entry has no timeout: the assertion below names it)
            break
    return seen


@pytest.mark.parametrize("name", QUICK_GAMES)
def test_every_reachable_phase_has_an_entry_and_offers_only_its_declared_prompts(name):
    game = games.get(name)
    low, high = game.player_range(None)
    reached = set()
    for n in (low, high):
        for seed in range(6):
            for phase, offered in walk(game, n, seed).items():
                assert phase in game.phases, f"{name}: phase {phase!r} has no entry in the phase table"
                assert offered <= set(game.phases[phase].prompts), f"{name}: {phase!r} offers {offered}"
                reached.add(phase)
    assert "game_over" in reached


@pytest.mark.parametrize("name", QUICK_GAMES)
def test_a_phase_with_a_timeout_closes_at_its_deadline_and_one_without_has_no_length(name):
    for phase, entry in games.get(name).phases.items():
        assert entry.label, phase
        if entry.on_timeout is None:
            assert entry.seconds is None and "deadline" not in entry.closes, phase
        else:
            assert "deadline" in entry.closes, phase
