"""A whole game of The Ritual on the simulated Discord, from /game new to the final reveal."""

import pytest

ROLE_NAMES = ["Guardian", "Seer", "Chronicler", "Hollow Servant", "Harbinger", "Deceiver", "Revenant"]


def first_select(response):
    for row in response.components:
        for comp in row.get("components", []):
            if comp.get("type") == 3 and comp.get("options"):
                return comp["custom_id"], comp["options"]
    return None, []


async def play_whole_game(w, members, pick):
    res = await w.host.slash(w.channel, "game new", kind="ritual",
                             options="choosing_seconds=30 offering_seconds=30 council_seconds=30")
    lobby = res.response
    for m in members[1:]:
        await m.click(lobby, label="Join")
    await w.host.click(lobby, label="Start")
    await w.settle()
    game_id = (await w.bot.service.game_in_channel(w.channel.id)).id
    prompts_seen = 0
    for _ in range(200):
        row = await w.bot.store.game(game_id)
        if row.status != "running":
            break
        phase_msg = [m for m in w.channel.history() if m.components][-1]
        acted = False
        for m in members:
            res = await m.click(phase_msg, label="Make my choice")
            assert res.ephemeral
            custom_id, options = first_select(res.response)
            if not custom_id:
                continue
            prompts_seen += 1
            value = pick(m, [o["value"] for o in options])
            res = await m.select(res.response, [value], custom_id=custom_id)
            assert res.ephemeral
            acted = True
            if (await w.bot.store.game(game_id)).phase_seq != row.phase_seq:
                break  # the phase closed early: everyone had acted
        await w.settle()
        if not acted:
            await w.host.slash(w.channel, "mod skip")
            await w.settle()
    return game_id, prompts_seen


@pytest.mark.parametrize("seed_pick", [0, 1])
async def test_a_whole_ritual_game_ends_in_a_public_reveal(world, seed_pick):
    w = world
    members = [w.host, w.ann, w.bo]
    game_id, prompts_seen = await play_whole_game(
        w, members, lambda m, values: values[(seed_pick + m.id) % len(values)])
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
