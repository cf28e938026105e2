"""No phase shows privately before the table sees it (issue 29, item 9): while the channel still
plays The Ritual Unfolds, the last offerer is not shown the Council's select, and a burn vote is
refused in words; once the Council's message is posted, the choice works."""

import asyncio

import pytest
from support.sim import components_of

from bot.actor import Actor
from bot.service import NOT_OPEN_YET
from games.engine import GameError


async def offering_but_the_host(w) -> int:
    """A forced Ritual (the host the Guardian, Ann the Seer, Bo the Hollow Servant), the host in
    the 13th Chair, Ann and Bo's offerings in (TAINTED once the host adds Mandrake Root: the
    Council follows). Returns the game's id."""
    res = await w.host.slash(w.channel, "game new", kind="ritual")
    for m in (w.ann, w.bo):
        await m.click(res.response, label="Join")
    game_id = (await w.bot.service.game_in_channel(w.channel.id)).id
    await w.bot.service.start(game_id, Actor(id=w.host.id, name="host"), forced={"roles": {
        str(w.host.id): "guardian", str(w.ann.id): "seer", str(w.bo.id): "hollow_servant"}})
    await w.settle()
    for m in (w.host, w.ann, w.bo):
        await m.slash(w.channel, "vote", target=w.host)
    await w.settle()
    for m, ingredient in ((w.ann, "crystal_salt"), (w.bo, "void_essence")):
        await w.bot.service.act(game_id, m.id, {"type": "offer", "player": str(m.id), "ingredient": ingredient})
    await w.settle()
    return game_id


class Hold:
    """Once ``armed``, the channel's theatre stops at its next pause (after the reveal's first
    beat, before the beat that carries the Council's message) until ``release`` is set."""

    def __init__(self) -> None:
        self.armed = False
        self.held, self.release = asyncio.Event(), asyncio.Event()


@pytest.fixture
def hold(world):
    board = world.bot.delivery.board
    real_pause = board.pause
    hold = Hold()

    async def pause(event):
        if hold.armed:
            hold.held.set()
            await world.env.external_wait(hold.release.wait(), reason="the test holds the reveal")
        await real_pause(event)

    board.pause = pause
    yield hold
    hold.release.set()
    board.pause = real_pause


def selects(response) -> list[str]:
    return [custom_id for custom_id, _values in components_of(response)[0]]


async def test_the_last_offerer_sees_the_council_only_once_its_message_is_posted(world, hold):
    w = world
    held, release = hold.held, hold.release
    game_id = await offering_but_the_host(w)
    offering = [m for m in w.channel.history() if m.components][-1]
    prompt = (await w.host.click(offering, label="Make my choice")).response
    hold.armed = True
    res = await w.host.select(prompt, ["mandrake_root"])  # the last offering: the ritual unfolds
    await held.wait()
    state = (await w.bot.service.load(game_id)).state
    assert state.phase == "council"
    assert await w.bot.store.slot(game_id, f"phase:{state.phase_seq}") is None  # not posted yet
    # the answer says what was done and shows no Council: no select, no word of a burn
    answer = res.response
    assert answer.ephemeral and selects(answer) == []
    assert "Mandrake Root" in answer.content and "burn" not in answer.content.lower()
    assert "council" not in answer.content.lower()
    # nor do the buttons under the role card in their DMs (My hand would name the phase)
    card = next(m for m in w.host.user.dm_channel.history() if m.components)
    for label in ("Make my choice", "My hand"):
        shown = (await w.host.user.click(card, label=label)).response
        assert shown.ephemeral and selects(shown) == [] and "council" not in shown.content.lower(), label

    # nor does /game status (the table's view would name the Council and who lives)
    status = (await w.bo.slash(w.channel, "game status")).response.content
    assert "council" not in status.lower() and "Alive" not in status
    assert "start when its message is posted" in status

    hold.armed = False
    release.set()
    await w.settle()
    status = (await w.bo.slash(w.channel, "game status")).response.content
    assert "council" in status.lower()
    council = [m for m in w.channel.history() if m.components][-1]
    assert await w.bot.store.slot(game_id, f"phase:{state.phase_seq}") is not None
    shown = (await w.host.click(council, label="Make my choice")).response
    burn = f"g:{game_id}:s:{state.phase_seq}:vote_burn:target"
    assert burn in selects(shown)
    res = await w.host.select(shown, [str(w.bo.id)], custom_id=burn)
    assert res.response.ephemeral and "Your vote: **bo**" in res.response.content
    assert (await w.bot.service.load(game_id)).state.votes[str(w.host.id)] == str(w.bo.id)


async def test_a_burn_vote_before_the_council_is_posted_is_refused_and_not_counted(world, hold):
    w = world
    held, release = hold.held, hold.release
    game_id = await offering_but_the_host(w)
    offering = [m for m in w.channel.history() if m.components][-1]
    prompt = (await w.host.click(offering, label="Make my choice")).response
    hold.armed = True
    await w.host.select(prompt, ["mandrake_root"])  # the last offering: the ritual unfolds
    await held.wait()
    state = (await w.bot.service.load(game_id)).state
    assert state.phase == "council"
    res = await w.ann.slash(w.channel, "vote", target=w.bo)
    assert res.ephemeral and res.response.content == NOT_OPEN_YET
    with pytest.raises(GameError) as refused:  # however it comes, the service takes no vote yet
        await w.bot.service.act(game_id, w.bo.id, {"type": "vote_burn", "player": str(w.bo.id),
                                                   "target": str(w.ann.id), "phase_seq": state.phase_seq})
    assert str(refused.value) == NOT_OPEN_YET
    assert (await w.bot.service.load(game_id)).state.votes == {}

    hold.armed = False
    release.set()
    await w.settle()
    res = await w.ann.slash(w.channel, "vote", target=w.bo)
    assert res.ephemeral and res.response.content != NOT_OPEN_YET
    assert (await w.bot.service.load(game_id)).state.votes == {str(w.ann.id): str(w.bo.id)}
