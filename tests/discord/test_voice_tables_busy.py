"""Several voice tables in one server (issue 36): Discord lets a bot make about ten member edits
(server mutes) every ten seconds in a server, so the voice table sends a speaker's unmute first,
the previous speaker's mute next and every other mute after, across all the server's games; and a
server that cannot keep another table's turns calls that table's turns by name without muting
anyone, and tells its host once. Played on the game clock (``support.game_time``): the pacer's
waits move a simulated clock, nothing sleeps, and the tests count and order edits, never time them."""

from support.game_time import GameTime

from bot.actor import Actor

PLAYERS = 9  # a Choosing of nine opens with eight mutes; its turns last 8 s


async def tables_opening_together(w, clock, count: int):
    """``count`` Rituals of nine with speaking turns, each in its own text and voice channel of the
    one server, started at the same moment; returns the game clock, the member edits logged
    (time, member, mute) in the order sent, and per game its players (the host first)."""
    time = GameTime(w.env, clock)
    w.bot.delivery.pacer = time.pacer(per_second=50, per_channel=5, channel_seconds=5.0)
    edits: list[tuple[float, int, bool]] = []
    real_edit = w.bot.http.edit_member

    async def edit_member(guild_id, user_id, *args, **kwargs):
        edits.append((clock.now(), int(user_id), bool(kwargs["mute"])))
        return await real_edit(guild_id, user_id, *args, **kwargs)

    w.bot.http.edit_member = edit_member
    tables = {}
    w.table_vc = {}  # game -> its voice channel
    for k in range(count):
        channel = w.guild.create_text_channel(f"table-{k}")
        vc = w.guild.create_voice_channel(f"Table {k}")
        members = [w.guild.add_member(w.env.create_user(f"t{k}p{i}")) for i in range(PLAYERS)]
        for m in members:
            await m.join_voice(vc)
        res = await members[0].slash(channel, "game new", kind="ritual", options="speaking_turns=true")
        for m in members[1:]:
            await m.click(res.response, label="Join")
        game_id = (await w.bot.service.game_in_channel(channel.id)).id
        tables[game_id] = members
        w.table_vc[game_id] = vc
    await time.settle(w.bot)
    for game_id, members in tables.items():
        await w.bot.service.start(game_id, Actor(id=members[0].id, name=members[0].user.name))
    return time, edits, tables


async def speakers(w, tables) -> dict[int, int]:
    """Each game's speaker now (Discord ids)."""
    out = {}
    for game_id in tables:
        table = await w.bot.service.load(game_id)
        turn = table.game.speaking_turn(table.state)
        out[game_id] = int(turn.speaker) if turn is not None else None
    return out


async def test_with_two_tables_each_speaker_is_unmuted_before_any_other_tables_first_mutes(world, clock):
    """Two tables' Choosings open together: sixteen first mutes for a window of ten. When the next
    turns begin, each speaker's unmute is sent before any first mute still waiting (of either
    table), and each previous speaker's mute before them too. Today the first mutes, queued
    first, go first, and the speakers wait behind them."""
    w = world
    time, edits, tables = await tables_opening_together(w, clock, 2)
    turns: list[tuple[float, dict[int, int]]] = []  # (start, each game's speaker)

    async def note():
        now = await speakers(w, tables)
        if not turns or turns[-1][1] != now:
            turns.append((clock.now(), now))

    await time.run(w.bot, clock.now() + 4 * 8 - 1, lambda: next_turn(w, tables, clock), note)
    assert len(turns) == 4  # the first four turns of both tables, in step
    for index in range(1, len(turns)):
        start, now = turns[index]
        previous = turns[index - 1][1]
        sent = [(uid, mute) for t, uid, mute in edits if t >= start]
        urgent = {(s, False) for s in now.values()} | {(p, True) for p in previous.values()}
        for game_id, speaker in now.items():
            # the speaker was muted by the Choosing's first mutes, and is unmuted in their turn:
            # before that, nothing but the other speakers' unmutes and the previous speakers' mutes
            assert (speaker, True) in [(uid, mute) for _t, uid, mute in edits if _t < start]
            unmuted = sent.index((speaker, False))
            assert set(sent[:unmuted]) <= urgent, (index, game_id, sent[:unmuted])
            # and the previous speaker's mute comes before every first mute still to be made
            muted = sent.index((previous[game_id], True))
            assert set(sent[:muted]) <= urgent, (index, game_id, sent[:muted])


async def next_turn(w, tables, clock):
    rows = [await w.bot.store.game(g) for g in tables]
    return min((r.turn_deadline for r in rows if r.turn_deadline and r.turn_deadline > clock.now()), default=None)


async def test_a_third_table_of_eight_second_turns_is_called_by_name_and_its_host_told_once(world, clock):
    w = world
    time, edits, tables = await tables_opening_together(w, clock, 3)
    opened = clock.now()
    await time.run(w.bot, opened + 20, lambda: next_turn(w, tables, clock))
    # a player of the last table steps out of voice and back in mid-turn: still not muted there
    late = tables[max(tables)][-1]
    await late.leave_voice()
    await late.join_voice(w.table_vc[max(tables)])
    await time.settle(w.bot)
    await time.run(w.bot, opened + 89, lambda: next_turn(w, tables, clock))  # the first Choosing
    muted_games = [g for g, members in tables.items() if any(mute and uid in {m.id for m in members}
                                                            for _t, uid, mute in edits)]
    assert len(muted_games) == 2  # two tables' turns kept with mutes
    (called,) = [g for g in tables if g not in muted_games]
    assert called == max(tables)  # the last table to begin its turns
    host = tables[called][0]
    told = [t for t in w.dm_texts(host) if "called by name" in t]
    assert len(told) == 1 and "ten mutes every ten seconds" in told[0]
    for game_id in muted_games:  # the kept tables' hosts hear nothing of it
        assert not [t for t in w.dm_texts(tables[game_id][0]) if "called by name" in t]
    # the called table still goes round: its turns were run, each speaker named on its board
    table = await w.bot.service.load(called)
    assert table.game.speaking_turn(table.state) is None and table.state.phase == "choosing"
    # and nobody is left muted once the turns are over (the unmutes paced: ten per ten seconds)
    for members in tables.values():
        assert all(not w.env.backend.get_guild(w.guild.id).voice_states[m.id].mute for m in members)
