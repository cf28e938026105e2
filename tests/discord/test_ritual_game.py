"""A whole game of The Ritual on the simulated Discord, from /game new to the final reveal."""

import random

import pytest
from support.sim import play_by_clicking

from bot.actor import Actor


async def three_witches(w, *, forced: bool = False) -> int:
    """A Ritual of the host, Ann and Bo, started; ``forced``: the host the Guardian, Ann the Seer,
    Bo the Hollow Servant. Returns the game's id."""
    res = await w.host.slash(w.channel, "game new", kind="ritual")
    for m in (w.ann, w.bo):
        await m.click(res.response, label="Join")
    game_id = (await w.bot.service.game_in_channel(w.channel.id)).id
    if forced:
        await w.bot.service.start(game_id, Actor(id=w.host.id, name="host"), forced={"roles": {
            str(w.host.id): "guardian", str(w.ann.id): "seer", str(w.bo.id): "hollow_servant"}})
    else:
        await w.host.click(res.response, label="Start")
    await w.settle()
    return game_id


ROLE_NAMES = ["Guardian", "Seer", "Chronicler", "Hollow Servant", "Harbinger", "Deceiver", "Revenant"]


@pytest.mark.parametrize("seed_pick", [0, 1])
async def test_a_whole_ritual_game_ends_in_a_public_reveal(world, seed_pick, monkeypatch):
    w = world
    members = [w.host, w.ann, w.bo]
    pinged: dict[int, list[int]] = {}  # message id -> who its sending pinged (an edit never pings)
    backend = w.env.backend
    real_commit = type(backend).commit_message

    def commit(self, message, **kw):
        pinged[message.id] = list(message.ping_user_ids)
        return real_commit(self, message, **kw)

    monkeypatch.setattr(type(backend), "commit_message", commit)
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
    # each round's Performer was called by a mention that pinged them alone
    chairs = [m for m in w.channel.history() if any("takes the 13th Chair" in (e.description or "") for e in m.embeds)]
    assert chairs
    for message in chairs:
        assert len(pinged[message.id]) == 1
        named = next(m for m in members if m.id == pinged[message.id][0])
        assert any(f"**{named.user.name}** takes the 13th Chair" in (e.description or "") for e in message.embeds)


async def test_vote_with_no_target_burns_no_one_where_the_vote_allows_it(world):
    w = world
    host, ann, bo = w.host, w.ann, w.bo
    game_id = await three_witches(w, forced=True)

    # The Choosing has no "no one": /vote without a target says who can be chosen
    res = await ann.slash(w.channel, "vote")
    assert res.ephemeral and "Name someone to vote for" in res.response.content
    for m in (host, ann, bo):
        res = await m.slash(w.channel, "vote", target=host)
        assert res.ephemeral
    offers = {host: "mandrake_root", ann: "crystal_salt", bo: "void_essence"}  # TAINTED: nobody dies
    for m, ingredient in offers.items():
        await w.bot.service.act(game_id, m.id, {"type": "offer", "player": str(m.id), "ingredient": ingredient})
    await w.settle()
    table = await w.bot.service.load(game_id)
    assert table.state.phase == "council"

    res = await ann.slash(w.channel, "vote")  # the Council offers "burn no one"
    assert res.ephemeral and "Name someone" not in res.response.content
    table = await w.bot.service.load(game_id)
    assert table.state.votes.get(str(ann.id)) == "none"


async def test_the_choosing_and_the_council_are_one_tap_selects_on_the_phase_message(world):
    w = world
    host, ann, bo = w.host, w.ann, w.bo
    game_id = await three_witches(w, forced=True)
    seq = (await w.bot.service.load(game_id)).state.phase_seq
    choosing = next(m for m in reversed(w.channel.history()) if m.components)
    res = await ann.select(choosing, [str(host.id)], custom_id=f"g:{game_id}:s:{seq}:vote_performer:target")
    assert res.ephemeral and "vote" in res.response.content.lower(), res.response.content
    assert (await w.bot.service.load(game_id)).state.votes[str(ann.id)] == str(host.id)
    assert not any(host.name in t and "vote" in t.lower() for t in w.channel_texts()[-1:])  # the vote stays secret
    for m in (host, bo):
        await m.select(choosing, [str(host.id)], custom_id=f"g:{game_id}:s:{seq}:vote_performer:target")
    offers = {host: "mandrake_root", ann: "crystal_salt", bo: "void_essence"}  # TAINTED: nobody dies
    for m, ingredient in offers.items():
        await w.bot.service.act(game_id, m.id, {"type": "offer", "player": str(m.id), "ingredient": ingredient})
    await w.settle()
    state = (await w.bot.service.load(game_id)).state
    assert state.phase == "council"
    council = next(m for m in reversed(w.channel.history()) if m.components)
    burn = f"g:{game_id}:s:{state.phase_seq}:vote_burn:target"
    res = await bo.select(council, [str(bo.id)], custom_id=burn)  # one's own name: not for them
    assert "You cannot vote to burn yourself." in res.response.content  # the rules answer, in their words
    assert str(bo.id) not in (await w.bot.service.load(game_id)).state.votes
    res = await bo.select(council, ["none"], custom_id=burn)
    assert res.ephemeral and (await w.bot.service.load(game_id)).state.votes[str(bo.id)] == "none"
    # the closed Choosing's message no longer offers its select
    closed = w.env.backend.get_message(w.channel.id, choosing.id)
    assert not any(c.get("type") == 3 for row in closed.components for c in row.get("components", []))


async def test_a_removal_that_would_end_the_game_asks_the_moderator_to_confirm_first(world):
    w = world
    host, bo = w.host, w.bo
    game_id = await three_witches(w)
    res = await host.slash(w.channel, "mod remove", player=bo)
    assert res.ephemeral and "Removing them ends the game" in res.response.content
    row = await w.bot.store.game(game_id)
    assert row.status == "running"
    assert str(bo.id) not in (await w.bot.service.load(game_id)).state.removed  # nothing changed yet
    res = await host.click(res.response, label="Remove and end the game")
    assert res.ephemeral
    await w.settle()
    assert (await w.bot.store.game(game_id)).status == "finished"


async def test_pause_says_what_happens_to_choices(world):
    w = world
    host, ann, bo = w.host, w.ann, w.bo
    await three_witches(w)
    res = await host.slash(w.channel, "mod pause")
    assert "choices and votes are refused until a moderator resumes it" in res.response.content
    res = await ann.slash(w.channel, "vote", target=bo)
    assert res.ephemeral and "paused" in res.response.content


async def test_extend_during_the_reveal_names_the_phase_coming_and_waits_for_the_reveal(world):
    w = world
    host, ann, bo = w.host, w.ann, w.bo
    game_id = await three_witches(w, forced=True)
    for m in (host, ann, bo):
        await m.slash(w.channel, "vote", target=host)
    await w.settle()
    offers = {host: "mandrake_root", ann: "crystal_salt", bo: "void_essence"}  # TAINTED: the Council follows
    for m, ingredient in offers.items():
        await w.bot.service.act(game_id, m.id, {"type": "offer", "player": str(m.id), "ingredient": ingredient})
    # the reveal is committed but still on its way when the moderator extends
    res = await host.slash(w.channel, "mod extend", seconds=60)
    assert res.ephemeral and res.response.content.startswith("Done. ⏳ The Council, coming next, will have")
    await w.settle()
    texts = w.channel_texts()
    verdict = max(i for i, t in enumerate(texts) if "The ritual is TAINTED" in t)
    notice = max(i for i, t in enumerate(texts) if "The Council, coming next" in t)
    assert notice > verdict  # after the reveal, never between its lines
