"""A town square never left closed (issue 36, item 10): a Clocktower game ended at night undoes the
night (the @everyone deny, the allows it set, the whispers it locked) through an outbox row written
with the game's end, so the undo survives a process that stops before it runs and a Discord that
first says no."""

import discord
from support.clocktower_helpers import advance, begun
from support.old_database import database_at
from support.sim import new_bot


def overwrites_of(w):
    """The town square's overwrites as Discord keeps them: target id -> (allow, deny)."""
    channel = w.env.backend.get_channel(w.channel.id)
    return {o.target_id: (o.allow, o.deny) for o in channel.overwrites if o.allow or o.deny}


async def can_post(member, channel) -> bool:
    try:
        await member.send(channel, "hello")
        return True
    except Exception:
        return False


async def at_night(w, n=7):
    """A game begun (night 1: the square closed), with ann's own overwrite on the square from before."""
    allow, deny = discord.PermissionOverwrite(add_reactions=False).pair()
    await w.bot.http.edit_channel_permissions(w.channel.id, w.ann.id, str(allow.value), str(deny.value), 1)
    await w.settle()
    found = overwrites_of(w)
    members = await begun(w, n)
    assert overwrites_of(w) != found and not await can_post(members[0], w.channel)
    game_id = (await w.bot.service.game_in_channel(w.channel.id)).id
    return game_id, members, found


async def cancel(w):
    res = await w.host.slash(w.channel, "game cancel")
    assert "cancel" in res.response.content.lower(), res.response.content


async def test_a_cancel_at_night_reopens_the_square_after_the_process_stopped_before_the_undo(world, db_path, clock):
    w = world
    game_id, members, found = await at_night(w)
    # the process stops right after the cancel's commit: no delivery, no game-over hook runs
    w.bot.service._notify = lambda game_id: None
    w.bot.service.on_game_over.clear()
    await cancel(w)
    await w.settle()
    assert (await w.bot.store.game(game_id)).status == "cancelled"
    assert not await can_post(members[0], w.channel)  # still closed: nothing ran

    old = w.bot
    await w.env.restart_bot(new_bot(db_path, clock))
    await old.store.close()  # (simcord detaches the old bot without closing it)
    await w.settle_retries()

    assert overwrites_of(w) == found  # the night's deny and the allows gone, ann's own overwrite kept
    assert await can_post(members[0], w.channel)
    assert await w.bot.store.pending_messages(game_id) == []


async def test_a_refused_reopening_is_retried_until_discord_takes_it(world, clock):
    w = world
    game_id, members, found = await at_night(w)
    everyone = f"/channels/{w.channel.id}/permissions/{w.guild.id}"
    w.env.inject_error("*", everyone, status=503, times=3)  # a passing fault, three times
    await cancel(w)
    await w.settle_retries()
    assert overwrites_of(w) == found and await can_post(members[0], w.channel)
    assert await w.bot.store.pending_messages(game_id) == []


async def test_a_missing_permission_is_told_once_and_the_square_opens_when_it_is_granted(world, clock):
    w = world
    game_id, members, found = await at_night(w)
    w.bot.settings.delivery_retry_seconds = 30  # a lasting fault: retries are minutes apart
    w.bot.settings.delivery_retry_max_seconds = 300
    w.env.inject_error("*", f"/channels/{w.channel.id}/permissions/*", status=403, code=50013,
                       message="Missing Permissions", times=None)
    await cancel(w)
    await w.settle()
    assert not await can_post(members[0], w.channel)
    assert [m.target for m in await w.bot.store.pending_messages(game_id)] == ["undo"]  # kept
    await w.bot.sweep()  # a second try, refused again: the Storytellers are not told twice
    await w.settle()
    storytellers = next(t for t in w.channel.threads if "Storytellers" in t.name)
    told = [m.content for m in storytellers.history() if "Manage Permissions" in m.content]
    assert len(told) == 1 and "town square" in told[0], told

    w.env.backend.faults.clear()  # the permission is granted ...
    await w.bot.sweep()  # ... and the next retry reopens the square
    await w.settle()
    assert overwrites_of(w) == found and await can_post(members[0], w.channel)
    assert await w.bot.store.pending_messages(game_id) == []


async def test_a_cancel_at_night_unlocks_the_whispers_the_night_locked(world, db_path, clock):
    w = world
    game_id, members, _ = await at_night(w)
    await advance(w, clock, 24)  # dawn 1
    announcement = next(t for t in w.channel.threads if t.name.startswith("📣"))
    res = await members[0].slash(announcement, "whisper", player=members[1])
    assert "Your whisper with" in res.response.content, res.response.content
    await w.settle()
    await advance(w, clock, 48)  # night 2: the whisper's thread locked
    thread = next(t for t in w.channel.threads if t.name.startswith("🔒") and "," in t.name)
    assert w.env.backend.get_channel(thread.id).thread_metadata.locked
    w.bot.service._notify = lambda game_id: None  # the process stops right after the commit
    w.bot.service.on_game_over.clear()
    await cancel(w)
    old = w.bot
    await w.env.restart_bot(new_bot(db_path, clock))
    await old.store.close()
    await w.settle_retries()
    assert not w.env.backend.get_channel(thread.id).thread_metadata.locked
    assert await can_post(members[0], w.channel)


async def test_an_undo_that_waited_leaves_a_later_games_night_closed(world, clock):
    """Game 1 cancelled at night, its undo left pending (the process stopped); game 2 begins in the
    same channel, and its night is closed when game 1's undo finally runs: the square is game 2's
    now, so it stays closed until game 2 opens it, and game 2's end leaves it as it was found."""
    w = world
    _, members, found = await at_night(w)
    notify = w.bot.service._notify
    w.bot.service._notify = lambda game_id: None  # the process stops right after the cancel
    w.bot.service.on_game_over.clear()
    await cancel(w)
    w.bot.service._notify = notify
    assert await begun(w, len(members)) == members  # game 2, the same players

    await w.bot.delivery.kick_pending()  # game 1's undo, at last
    await w.settle_retries()
    assert not await can_post(members[0], w.channel) and await can_post(w.host, w.channel)

    await cancel(w)  # game 2's end: the square as it was before either game
    await w.settle_retries()
    assert overwrites_of(w) == found and await can_post(members[0], w.channel)


async def test_an_upgrade_finds_the_games_that_ended_with_their_square_still_closed(tmp_path):
    """A database of the version before: a Clocktower game cancelled at night whose square was never
    left (its allows still recorded), one whose square was, and one still running. The upgrade
    gives the first, and only it, its undo row."""
    from bot.stores import open_store

    path = tmp_path / "old.db"
    conn = database_at(path, 16)
    for game_id, status, allowed in ((1, "cancelled", "[5, 7]"), (2, "cancelled", "[]"), (3, "running", "[5]")):
        conn.execute("INSERT INTO games (id, kind, guild_id, channel_id, host_id, status, seed, min_players, "
                     "max_players, created_at, updated_at) VALUES (?, 'clocktower', 1, ?, 7, ?, 3, 7, 15, 0, 0)",
                     (game_id, 10 + game_id, status))
        conn.execute("INSERT INTO group_threads (game_id, key, thread_id, members) VALUES (?, 'square:allowed', ?, ?)",
                     (game_id, 10 + game_id, allowed))
    conn.commit()
    conn.close()

    store = await open_store(path)
    try:
        assert await store.games_with_pending_messages() == [1]
        assert [(m.target, m.payload) for m in await store.pending_messages(1)] == [("undo", {"type": "undo"})]
    finally:
        await store.close()
