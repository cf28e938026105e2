"""The Cauldron's declared tables: each ingredient's effects."""
def test_every_ingredient_has_a_declared_primary_and_secondary_effect():
    """The effects are one declared table each, not found by name: an ingredient of the data with
    no entry (or an entry for no ingredient) fails here, not in the middle of a game."""
    import games
    from games.cauldron.data import INGREDIENTS

    game = games.get("cauldron")
    assert set(game.primaries) == set(INGREDIENTS) == set(game.secondaries)
    assert all(callable(f) for f in [*game.primaries.values(), *game.secondaries.values()])
