"""One test across every game: seeded random playthroughs to the end with every invariant checked
(secrets in public events included), and the protocol's promises on each step."""

import pytest

import games
from games.engine import IllegalAction
from games.engine.protocol import Player
from games.engine.run import play_random, start, step


@pytest.mark.slow
@pytest.mark.parametrize("name", games.available())
def test_random_playthroughs_finish_without_breaking_an_invariant(name):
    game = games.get(name)
    low, high = game.player_range(None)
    for n in range(low, high + 1):
        for seed in range(15):
            state, steps, problems = play_random(game, n, seed)
            assert problems == [], f"{name} with {n} players, seed {seed}"
            assert state.finished
            result = game.result(state)
            # everyone seated at the end (a Clocktower Traveller may have joined or left)
            assert result.finished and len(result.players) == len(state.players)
            assert sum(1 for p in result.players if not p.id.startswith("traveller")) == n


@pytest.mark.parametrize("name", games.available())
def test_views_never_show_another_players_secret_role(name):
    game = games.get(name)
    n = game.player_range(None)[0] + 1
    players = [Player(id=f"p{i}", name=f"Player{i}") for i in range(n)]
    state = start(game, players, None, seed=4).state
    roles = {r.id: r.role for r in game.result(state).players}
    public_view = game.view(state, None).text
    for pid, role in roles.items():
        assert f"Player{pid[1:]} is the {role}" not in public_view
    # every prompt a player is offered is a legal action for them
    for p in players:
        for prompt in game.prompts(state, p.id):
            for field in prompt.fields:
                assert 0 < len(field.choices) <= 25
                assert all(len(c.label) <= 100 and len(c.value) <= 100 for c in field.choices)


@pytest.mark.parametrize("name", games.available())
def test_a_removed_or_ended_game_refuses_further_play(name):
    game = games.get(name)
    players = [Player(id=f"p{i}", name=f"Player{i}") for i in range(game.player_range(None)[0])]
    state = start(game, players, None, seed=8).state
    ended = step(game, state, {"type": "end_game", "reason": "test"}, seed=8).state
    assert ended.finished and ended.outcome == "ended" and ended.winners == []
    with pytest.raises(IllegalAction):
        step(game, ended, {"type": "phase_timeout", "phase_seq": ended.phase_seq}, seed=8)
