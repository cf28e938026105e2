"""Speaking turns across a restart (issue 36, item 5): the bot comes back on the turns' schedule,
as the phase clock does: the turn due now, with what is left of it, never a whole turn from the
restart; down into the vote window, the floor is open for the vote that is left."""

import pytest
from support.sim import new_bot
from support.voice_table import speaker, start_ritual

from bot.voice.narrator import RecordingNarrator


@pytest.fixture
def table(world):
    """A voice channel 'Table' with the five players in it, and the narrator faked."""
    w = world
    w.vc = w.guild.create_voice_channel("Table")
    w.heard = RecordingNarrator()
    w.bot.voice.narrator = w.heard
    return w


def muted(w, member) -> bool | None:
    state = w.env.backend.get_guild(w.guild.id).voice_states.get(member.id)
    return None if state is None else state.mute


async def seated(w, options: str) -> int:
    """A 5-player Ritual with speaking turns, everyone in the linked channel; started."""
    for m in w.players(5):
        await m.join_voice(w.vc)
    return await start_ritual(w, options)




async def down_until(w, db_path, clock, seconds: float) -> None:
    """The bot is down (no timer fires) for ``seconds``, then a new process starts on the same database."""
    clock.advance(seconds)
    old, bot = w.bot, new_bot(db_path, clock)
    bot.voice.narrator = w.heard  # (it listens from the start: the restart's lines are said then)
    await w.env.restart_bot(bot)
    await old.store.close()
    await w.settle()


async def test_down_through_a_turn_the_turn_due_now_gets_only_what_is_left_of_it(table, db_path, clock):
    w = table
    players = w.players(5)
    game_id = await seated(w, "speaking_turns=true")
    t0 = clock.now()
    row = await w.bot.store.game(game_id)
    # five living: (90 - 20) // 5 = 14 s a turn, the Choosing 90 s (turns end at 70, the vote till 90)
    assert (row.deadline, row.turn_deadline) == (t0 + 90, t0 + 14)
    clock.advance(3)
    await down_until(w, db_path, clock, 17)  # down from second 3 to 20: the first turn ended at 14
    row = await w.bot.store.game(game_id)
    assert await speaker(w, game_id) == players[1].id  # the second turn runs from 14 to 28
    assert row.turn_deadline == t0 + 28, row.turn_deadline - t0
    assert row.deadline == t0 + 90
    for m in players:
        assert muted(w, m) is (m != players[1]), m
    clock.advance(8)  # at 28 the third turn, on time
    await w.bot.service.fire_due()
    await w.settle()
    assert await speaker(w, game_id) == players[2].id
    assert (await w.bot.store.game(game_id)).turn_deadline == t0 + 42


async def test_down_into_the_vote_window_the_floor_is_open_for_the_vote_left(table, db_path, clock):
    w = table
    players = w.players(5)
    game_id = await seated(w, "speaking_turns=true")
    t0 = clock.now()
    clock.advance(3)
    before = len(w.heard.said(game_id))
    await down_until(w, db_path, clock, 72)  # down from second 3 to 75: every turn ended by 70
    row = await w.bot.store.game(game_id)
    table_now = await w.bot.service.load(game_id)
    assert table_now.state.phase == "choosing"  # the vote's window is still open
    assert await speaker(w, game_id) is None
    assert row.turn_deadline is None and row.deadline == t0 + 90
    assert all(muted(w, m) is False for m in players)
    assert await w.bot.store.muted_by_game(game_id) == []
    said = w.heard.said(game_id)[before:]
    assert not [s for s in said if "you have the floor" in s]  # no turn long past is called aloud
    assert any("The turns are over" in s for s in said)


async def test_after_a_skipped_turn_the_schedule_runs_from_the_skip(table, db_path, clock):
    w = table
    players = w.players(5)
    game_id = await seated(w, "speaking_turns=true")
    t0 = clock.now()
    clock.advance(5)
    await w.admin.slash(w.channel, "mod skip-turn")  # the second turn runs 5 to 19, the third 19 to 33
    await w.settle()
    assert (await w.bot.store.game(game_id)).turn_deadline == t0 + 19
    await down_until(w, db_path, clock, 25)  # back at 30
    assert await speaker(w, game_id) == players[2].id
    assert (await w.bot.store.game(game_id)).turn_deadline == t0 + 33
