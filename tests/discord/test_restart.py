"""A restart in the middle of a game, on each engine (a SQLite file, a PostgreSQL database): buttons
still work, votes are kept, the outbox is delivered, an overdue phase resolves."""

import pytest
from support.sim import new_bot, open_and_start


@pytest.fixture
def db_path(store_url):
    """The bot's database: these tests run on SQLite and on PostgreSQL."""
    return store_url


async def restart(w, db_path, clock):
    old = w.bot
    await w.env.restart_bot(new_bot(db_path, clock))
    await old.store.close()  # simcord detaches the old bot without closing it


async def test_buttons_and_votes_survive_a_restart(world, db_path, clock):
    w = world
    await open_and_start(w)
    phase_msg = w.channel.last_message
    prompt = (await w.ann.click(phase_msg, label="Make my choice")).response
    await w.ann.select(prompt, ["blue"])

    await restart(w, db_path, clock)

    res = await w.bo.click(phase_msg, label="Make my choice")  # a button from before the restart
    assert res.ephemeral
    await w.bo.select(res.response, ["red"])
    table = await w.bot.service.load((await w.bot.service.game_in_channel(w.channel.id)).id)
    assert table.state.votes == {str(w.ann.id): "blue", str(w.bo.id): "red"}


async def test_messages_committed_before_a_crash_are_delivered_after_restart(world, db_path, clock):
    w = world
    res = await w.host.slash(w.channel, "game new", kind="tally", options="rounds=1")
    for member in (w.ann, w.bo):
        await member.click(res.response, label="Join")
    w.bot.service._notify = lambda game_id: None  # the process "dies" right after the commit
    await w.host.click(res.response, label="Start")
    await w.settle()
    assert not any("Round 1" in t for t in w.channel_texts())
    assert w.dm_texts(w.ann) == []

    await restart(w, db_path, clock)
    await w.settle()
    assert any("Round 1" in t for t in w.channel_texts())
    assert any("secret animal" in t for t in w.dm_texts(w.ann))


async def test_an_overdue_phase_resolves_when_the_bot_comes_back(world, db_path, clock):
    w = world
    await open_and_start(w)
    clock.advance(3600)  # the bot was down through the deadline
    await restart(w, db_path, clock)
    await w.settle()
    assert any("Round 1: " in t and "wins" in t for t in w.channel_texts())
