"""Ireland Cauldron and Castle of Magic, each played whole on the simulated Discord by clicking."""

import random

import pytest
from support.sim import play_by_clicking


@pytest.mark.parametrize("seed", [0, 1])
async def test_a_whole_cauldron_game(world, seed):
    w = world
    members = w.players(5)
    game_id, accepted = await play_by_clicking(w, members, "cauldron", "", random.Random(seed))
    row = await w.bot.store.game(game_id)
    assert row.status == "finished" and accepted >= 5
    # hands and heroes went privately to each player, and the end revealed every hero
    for m in members:
        assert w.dm_texts(m), f"{m.user.name} got no private message"
    texts = w.channel_texts()
    assert any(m.user.name in t for t in texts[-3:] for m in members)


@pytest.mark.parametrize("seed", [0, 1])
async def test_a_whole_castle_game_with_a_drawn_tableau(world, seed):
    w = world
    members = w.players(4)
    game_id, accepted = await play_by_clicking(w, members, "castle", "", random.Random(seed))
    row = await w.bot.store.game(game_id)
    assert row.status == "finished" and accepted >= 4
    pictures = [a for m in w.channel.history() for a in m.attachments if a.filename.endswith(".png")]
    assert pictures, "the tableau is posted as a picture"
    for m in members:
        assert w.dm_texts(m), f"{m.user.name} got no character card"
