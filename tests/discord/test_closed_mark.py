"""A closed phase's message says so, and loses its buttons, from a mark on the game's row (issue 38):
the step that opens the next phase writes no outbox row to refresh the old one. On simcord: the
message closes, an edit Discord refuses at first closes after its retries, and a process that
stopped before closing it closes it after a restart, found by the mark."""

from support.sim import new_bot, open_and_start


def with_buttons(w):
    return [m for m in w.channel.history() if m.components]


async def refresh_rows(w, game_id):
    rows = await w.bot.store.db.execute_fetchall("SELECT id FROM outbox WHERE game_id = ? AND op = 'refresh'",
                                                 (game_id,))
    return len(rows)


async def round_one_closed(w, *, told: bool = True):
    """A Ritual whose round 1 is closed by its votes after someone talked (so round 2 is a new
    message): its first message and the game's id. ``told`` False: the delivery is never told of
    the commits (a process that stops before showing them)."""
    await open_and_start(w, options="vote_seconds=60 rounds=2")
    game_id = (await w.bot.service.game_in_channel(w.channel.id)).id
    first = with_buttons(w)[-1]
    await w.ann.send(w.channel, "I think red.")
    if not told:
        w.bot.service._notify = lambda game_id: None
    for m in (w.host, w.ann, w.bo):
        await w.bot.service.act(game_id, m.id, {"type": "vote", "player": str(m.id), "target": "red"})
    return first, game_id


def closed(w, message) -> bool:
    old = next(m for m in w.channel.history() if m.id == message.id)
    return old.content == "🔒 This phase is closed." and not old.components


async def test_a_closed_phase_says_so_with_no_refresh_row_and_its_mark_is_cleared(world):
    w = world
    first, game_id = await round_one_closed(w)
    await w.settle()
    assert closed(w, first)
    assert len(with_buttons(w)) == 1  # round 2's, on a new message
    assert await refresh_rows(w, game_id) == 0
    assert (await w.bot.store.game(game_id)).closed_from is None


async def test_a_close_discord_refuses_at_first_goes_after_its_retries(world):
    w = world
    await open_and_start(w, options="vote_seconds=60 rounds=2")
    game_id = (await w.bot.service.game_in_channel(w.channel.id)).id
    first = with_buttons(w)[-1]
    await w.ann.send(w.channel, "I think red.")
    w.env.inject_error("PATCH", f"/channels/{w.channel.id}/messages/{first.id}", status=503, times=3)
    for m in (w.host, w.ann, w.bo):
        await w.bot.service.act(game_id, m.id, {"type": "vote", "player": str(m.id), "target": "red"})
    await w.settle_retries()
    assert closed(w, first)
    assert (await w.bot.store.game(game_id)).closed_from is None


async def test_a_phase_closed_before_the_process_stopped_is_closed_after_the_restart(world, db_path, clock):
    w = world
    first, game_id = await round_one_closed(w, told=False)
    row = await w.bot.store.game(game_id)
    assert row.closed_from == row.phase_seq - 1  # round 1, marked; its message still open
    assert not closed(w, first)
    await w.env.restart_bot(new_bot(db_path, clock))
    await w.settle_retries()
    assert closed(w, first)
    assert (await w.bot.store.game(game_id)).closed_from is None


async def test_a_game_cancelled_with_a_phase_still_marked_closes_its_message_by_a_row(world):
    """An ended game is no longer looked for by its mark: the cancel writes the marked phases'
    refreshes beside its own, and the old round's message closes with the rest."""
    from bot.actor import Actor

    w = world
    first, game_id = await round_one_closed(w, told=False)
    row = await w.bot.store.game(game_id)
    await w.bot.service.cancel(game_id, Actor(id=w.host.id, name="host", manage_guild=True))
    slots = [m.slot for m in await w.bot.store.pending_messages(game_id) if m.op == "refresh"]
    assert slots == [f"phase:{row.closed_from}", f"phase:{row.phase_seq}"]
    w.bot.service._notify = w.bot.delivery.kick
    w.bot.delivery.kick(game_id)
    await w.settle()
    assert closed(w, first)
