"""A whole game of The Ritual on the simulated Discord, from /game new to the final reveal."""

import random

import pytest
from support.sim import play_by_clicking

ROLE_NAMES = ["Guardian", "Seer", "Chronicler", "Hollow Servant", "Harbinger", "Deceiver", "Revenant"]


@pytest.mark.parametrize("seed_pick", [0, 1])
async def test_a_whole_ritual_game_ends_in_a_public_reveal(world, seed_pick):
    w = world
    members = [w.host, w.ann, w.bo]
    game_id, prompts_seen = await play_by_clicking(
        w, members, "ritual", "choosing_seconds=30 offering_seconds=30 council_seconds=30",
        random.Random(seed_pick))
    row = await w.bot.store.game(game_id)
    assert row.status == "finished" and prompts_seen >= 3
    texts = w.channel_texts()
    over = next(i for i, t in enumerate(texts) if "The Ritual is over" in t)
    # no role is named in any public message before the final reveal (reveal_on_death is off) ...
    leaked = [t for t in texts[:over] if any(r in t for r in ROLE_NAMES)]
    assert leaked == []
    # ... and the reveal names every player's role, as their role card said
    reveal = " ".join(texts[over:])
    for m in members:
        card = " ".join(w.dm_texts(m))
        role = next(r for r in ROLE_NAMES if f"You are the {r}" in card)
        assert role in reveal and m.user.name in reveal
