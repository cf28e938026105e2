"""Every game declares a handler for every action type it parses (issue 28: a declared action table)."""

import pytest

import games


@pytest.mark.parametrize("name", games.available())
def test_every_action_type_has_a_handler_and_nothing_else_does(name):
    game = games.get(name)
    assert set(game.handlers) == game.action_types()
    assert all(callable(handler) for handler in game.handlers.values())
