"""Ireland Cauldron and Castle of Magic, each played whole on the simulated Discord by clicking."""

import asyncio
import json
import random
from pathlib import Path

import pytest
from support.sim import a_cauldron_day, play_by_clicking

import games

HEROES = [h["name"] for h in json.loads(
    (Path(games.__file__).parent / "cauldron" / "data" / "heroes.json").read_text())]


async def final_roles(w, game_id):
    """Each player's role as the engine's result tells it (from the finished game's state)."""
    row = await w.bot.store.game(game_id)
    game = games.get(row.kind)
    return game.result(game.load_state(row.state, row.fixed)).players


def before_the_end(texts, marker):
    over = next(i for i, t in enumerate(texts) if marker in t)
    return texts[:over], texts[over:]


# one game at full length, one that ends after a few cards (the suite's time is mostly these clicks)
@pytest.mark.parametrize("seed, options", [(0, ""), (1, "end_remaining=12")])
async def test_a_whole_cauldron_game(world, seed, options):
    w = world
    members = w.players(5)
    game_id, accepted = await play_by_clicking(w, members, "cauldron", options, random.Random(seed))
    row = await w.bot.store.game(game_id)
    assert row.status == "finished" and accepted >= 5
    # components are dispatched by custom_id, so discord.py keeps no View objects: no view stays in
    # memory, and no ephemeral prompt leaves a 15-minute timer behind
    assert w.bot.persistent_views == []
    assert [t for t in asyncio.all_tasks() if "timeout_task" in t.get_coro().__qualname__] == []
    # hands and heroes went privately to each player, and the end revealed every hero
    for m in members:
        assert w.dm_texts(m), f"{m.user.name} got no private message"
    texts = w.channel_texts()
    assert any(m.user.name in t for t in texts[-3:] for m in members)
    # no hero is named in the channel before the final reveal, which names every player's hero
    before, after = before_the_end(texts, "The cauldron is still")
    assert [t for t in before if any(h in t for h in HEROES)] == []
    reveal = " ".join(after)
    for player in await final_roles(w, game_id):
        assert player.role in reveal and player.name in reveal


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
    # no wizard's or cultist's character is named in the channel before the end, which names all
    texts = w.channel_texts()
    before, after = before_the_end(texts, "Game over")
    roles = await final_roles(w, game_id)
    secret = [p.role for p in roles if p.role != "Monster"]  # "Monster" is the spell's word too
    assert [t for t in before if any(r in t for r in secret)] == []
    for player in roles:
        assert player.role in " ".join(after)


async def test_the_castle_tableau_is_drawn_at_delivery_off_the_event_loop(world, monkeypatch):
    """The commit keeps the picture's public data; the drawing (tens of milliseconds) happens in a
    worker thread at delivery, so no other table waits for it."""
    import threading

    castle = games.get("castle")
    drawn_in: list[str] = []
    real_draw = type(castle).draw

    def spy(self, picture):
        drawn_in.append(threading.current_thread().name)
        return real_draw(self, picture)

    monkeypatch.setattr(type(castle), "draw", spy)
    w = world
    members = w.players(4)
    res = await w.host.slash(w.channel, "game new", kind="castle")
    for m in members[1:]:
        await m.click(res.response, label="Join")
    await w.host.click(res.response, label="Start")
    await w.settle()
    game_id = (await w.bot.service.game_in_channel(w.channel.id)).id
    rows = await w.bot.store.db.execute_fetchall(
        "SELECT image, picture FROM outbox WHERE game_id = ? AND picture IS NOT NULL", (game_id,))
    assert rows and all(image is None for image, _ in rows)  # no PNG was made inside the commit
    assert drawn_in and threading.main_thread().name not in drawn_in
    assert [a for m in w.channel.history() for a in m.attachments if a.filename == "picture.png"]


async def castle_table(w, members, options: str = "") -> int:
    """A started Castle game of ``members`` (the host first), the first seat playing first, with any
    other ``options``."""
    res = await w.host.slash(w.channel, "game new", kind="castle", options=f"first_player=listed {options}".strip())
    for m in members[1:]:
        await m.click(res.response, label="Join")
    await w.host.click(res.response, label="Start")
    await w.settle()
    return (await w.bot.service.game_in_channel(w.channel.id)).id


def last_turn_message(w):
    return next(m for m in reversed(w.channel.history()) if m.embeds and (m.embeds[0].title or "").startswith("Turn"))


async def test_a_castle_turn_mentions_the_player_whose_turn_it_is_and_nobody_else(world):
    w = world
    members = w.players(4)
    game_id = await castle_table(w, members)
    current = (await w.bot.service.load(game_id)).state.current
    turn = last_turn_message(w)
    stored = w.env.backend.get_message(w.channel.id, turn.id)
    assert stored.content.startswith(f"<@{current}>")
    assert stored.ping_user_ids == [int(current)] and not stored.mention_everyone


async def test_the_cauldrons_day_has_end_discussion_on_its_message_and_counts_who_is_ready(world):
    w = world
    members = w.players(5)
    _game_id, day = await a_cauldron_day(w, members)
    first, second = members[0], members[1]
    res = await first.click(day, label="End discussion")
    assert res.ephemeral and "You are ready for the night" in res.response.content
    await w.settle()
    assert any("1 of 5 ready for the night" in t for t in w.channel_texts())
    assert not any(first.user.name in t and "ready" in t for t in w.channel_texts())  # a count, no names
    res = await first.click(day, label="End discussion")
    assert "You already ended your discussion" in res.response.content
    await second.click(day, label="End discussion")
    await w.settle()
    assert any("2 of 5 ready for the night" in t for t in w.channel_texts())


async def test_a_two_pawn_castle_turn_takes_four_taps_in_one_private_message(world):
    w = world
    members = w.players(4)
    game_id = await castle_table(w, members)
    state = (await w.bot.service.load(game_id)).state
    player = next(m for m in members if str(m.id) == state.current)
    turn = last_turn_message(w)
    flow = (await player.click(turn, label="Make my choice")).response  # tap 1
    seq = state.phase_seq
    res = await player.select(flow, ["1", "2"], custom_id=f"g:{game_id}:s:{seq}:pick_up:pawns")  # tap 2
    assert res.response.id == flow.id and "choose the first shrine below" in res.response.content
    flow = res.response
    res = await player.select(flow, ["bell-1"], custom_id=f"g:{game_id}:s:{seq}:place:bell")  # tap 3
    assert res.response.id == flow.id and "1 more pawn to place" in res.response.content
    res = await player.select(res.response, ["book-1"], custom_id=f"g:{game_id}:s:{seq}:place:book")  # tap 4
    assert "Your turn is done" in res.response.content and not res.response.components
    state = (await w.bot.service.load(game_id)).state
    assert state.current != str(player.id) and state.turns == 1
    await w.settle()
    assert any("picks up 2 pawns from their supply" in t for t in w.channel_texts())


async def test_a_quiet_castle_turn_without_a_timer_calls_its_player_again_once(world, db_path, clock):
    """The rulebook's Castle has no turn timer; after nudge_seconds of quiet the player whose turn
    it is is mentioned again (once), with how a moderator passes the turn and how to set a timer.
    Any action restarts the quiet while; a pause holds it; a restart keeps it."""
    from tests.discord.test_restart import restart

    w = world
    members = w.players(4)
    game_id = await castle_table(w, members)

    def text(m):
        return m.content + " ".join(e.description or "" for e in m.embeds)

    def nudges():
        return [m for m in w.channel.history() if "the table is waiting for your turn" in text(m)]

    clock.advance(150)
    table = await w.bot.service.load(game_id)
    move = next(a for a in table.game.legal_actions(table.state) if a.player == table.state.current)
    await w.bot.service.act(game_id, int(move.player), move.model_dump())  # any action restarts the while
    current = (await w.bot.service.load(game_id)).state.current
    clock.advance(179)
    await w.bot.service.fire_due()
    await w.settle()
    assert nudges() == []
    clock.advance(2)
    await w.bot.service.fire_due()
    await w.settle()
    [nudge] = nudges()
    stored = w.env.backend.get_message(w.channel.id, nudge.id)
    assert stored.ping_user_ids == [int(current)] and not stored.mention_everyone
    assert "/mod skip" in text(nudge) and "turn_seconds" in text(nudge)
    clock.advance(3600)  # once per quiet stretch, not every sweep
    await w.bot.service.fire_due()
    await w.settle()
    assert len(nudges()) == 1

    # a pause holds the reminder; the resume starts a new quiet while, and a restart keeps it
    await w.host.slash(w.channel, "mod pause")
    clock.advance(3600)
    await w.bot.service.fire_due()
    await w.settle()
    assert len(nudges()) == 1
    await w.host.slash(w.channel, "mod resume")
    await restart(w, db_path, clock)
    clock.advance(181)
    await w.bot.service.fire_due()
    await w.settle()
    assert len(nudges()) == 2


async def test_a_castle_nudge_counts_its_quiet_from_the_last_move_of_the_turn(world, clock):
    """A move in the middle of a turn (pawns picked up, not yet placed) leaves the stored reminder
    as it was (issue 38: no indexed column rewritten per action); when it comes, the quiet since
    that move is not over, so it moves to the end of it and nobody is nudged until then."""
    w = world
    members = w.players(4)
    game_id = await castle_table(w, members)

    def nudges():
        return [m for m in w.channel.history() if "the table is waiting for your turn" in
                m.content + " ".join(e.description or "" for e in m.embeds)]

    set_at_start = (await w.bot.store.game(game_id)).remind_at
    clock.advance(150)
    table = await w.bot.service.load(game_id)
    current = table.state.current
    await w.bot.service.act(game_id, int(current), {"type": "pick_up", "player": current, "pawns": [1]})
    assert (await w.bot.store.game(game_id)).remind_at == set_at_start
    clock.advance(179)  # 329 s into the turn, 179 s after the move: its first time passed, not the quiet
    await w.bot.service.fire_due()
    await w.settle()
    assert nudges() == []
    assert (await w.bot.store.game(game_id)).remind_at == set_at_start + 150
    clock.advance(2)
    await w.bot.service.fire_due()
    await w.settle()
    assert len(nudges()) == 1 and w.env.backend.get_message(w.channel.id, nudges()[0].id).ping_user_ids == [int(current)]

    # the turn ends (a new phase): the reminder is the game's, and names whose turn it is when it comes
    await w.bot.service.act(game_id, int(current), {"type": "place", "player": current, "shrine": "bell-1"})
    after = (await w.bot.service.load(game_id)).state.current
    assert after != current
    clock.advance(181)
    await w.bot.service.fire_due()
    await w.settle()
    assert len(nudges()) == 2
    assert w.env.backend.get_message(w.channel.id, nudges()[-1].id).ping_user_ids == [int(after)]


async def test_a_reminder_left_set_where_the_game_calls_no_one_is_cleared_and_says_nothing(world, clock):
    """A reminder time on the row of a game whose phase calls no one again (nudges off) is cleared
    when it comes, with nothing said, so no sweep finds it due again."""
    w = world
    members = w.players(4)
    game_id = await castle_table(w, members, "nudge_seconds=0")
    await w.bot.store.db.execute("UPDATE games SET remind_at = ? WHERE id = ?", (clock.now() - 1, game_id))
    await w.bot.store.db.commit()
    before = len(w.channel.history())
    await w.bot.service.fire_due()
    await w.settle()
    assert (await w.bot.store.game(game_id)).remind_at is None
    assert await w.bot.store.due_reminders(clock.now() + 3600) == []
    assert len(w.channel.history()) == before


async def test_a_castle_turn_with_a_timer_or_nudges_off_is_never_nudged(world):
    w = world
    members = w.players(4)
    for options in ("first_player=listed turn_seconds=600", "first_player=listed nudge_seconds=0"):
        res = await w.host.slash(w.channel, "game new", kind="castle", options=options)
        for m in members[1:]:
            await m.click(res.response, label="Join")
        await w.host.click(res.response, label="Start")
        await w.settle()
        game_id = (await w.bot.service.game_in_channel(w.channel.id)).id
        assert (await w.bot.store.game(game_id)).remind_at is None
        await w.host.slash(w.channel, "game cancel")
        await w.settle()


async def test_the_opener_check_reads_no_outbox_in_the_process_that_committed_the_phase(world):
    """Counted work (issue 38): whether a phase's opening message is posted yet is known from the
    commit that opened it and from the delivery, so a Castle turn (a new phase each) read the
    game's pending outbox on every action before; now no action of a whole game does."""
    import sys

    w = world
    reads = []
    pending = w.bot.store.pending_messages

    async def counted(game_id):
        if sys._getframe(1).f_code.co_name == "opener_unposted":
            reads.append(game_id)
        return await pending(game_id)

    w.bot.store.pending_messages = counted
    game_id, accepted = await play_by_clicking(w, w.players(4), "castle", "", random.Random(3))
    assert (await w.bot.store.game(game_id)).status == "finished" and accepted >= 4
    assert reads == []
