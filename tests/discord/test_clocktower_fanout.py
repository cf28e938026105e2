"""Clocktower's per-player fan-out cut (issue 30): a whisper declared again by the same people
reopens their thread instead of making a new one, and the night's closing of the town square
costs the same few calls at 7 seats (the fewest a game takes) and at 15, with no member fetched."""

import re

import discord
import pytest
from support.clocktower_helpers import SEATS, advance, state_of, texts


def calls(w, since=0):
    return [(r.method, r.path) for r in w.env.http_requests[since:]
            if not r.path.startswith(("/interactions/", "/applications/", "/webhooks/"))]


def announcement_thread(w):
    return next(t for t in w.channel.threads if t.name.startswith("📣"))


def whisper_threads(w):
    return [t for t in w.channel.threads if t.name.startswith("🔒") and "," in t.name]


async def begun_with(w, n):
    """A game of ``n`` seats, each a member made for it (the World's names stop at ten)."""
    res = await w.host.slash(w.channel, "game new", kind="clocktower")
    assert not res.ephemeral
    members = [w.guild.add_member(w.env.create_user(f"p{i}")) for i in range(n)]
    for member, seat in zip(members, SEATS + list(range(10, 30)), strict=False):
        res = await member.slash(w.channel, "in", seat=seat)
        assert not res.ephemeral, res.response.content
    res = await w.host.slash(w.channel, "st deal")
    assert "Dealt" in res.response.content, res.response.content
    await w.settle()
    res = await w.host.slash(w.channel, "st begin")
    assert "Night 1 has begun" in res.response.content
    await w.settle()
    return members


async def can_post(member, channel) -> bool:
    try:
        await member.send(channel, "hello")
        return True
    except Exception:
        return False


def readable(thread, member) -> bool:
    try:
        thread.history(viewer=member)
        return True
    except Exception:
        return False


async def whisper(w, by, *others):
    extra = {f"player{i + 2}": m for i, m in enumerate(others[1:])}
    res = await by.slash(announcement_thread(w), "whisper", player=others[0], **extra)
    assert "Your whisper with" in res.response.content, res.response.content
    await w.settle()


async def test_the_same_people_whispering_again_reopen_their_thread(world, clock):
    w = world
    a, b, c, d, *_ = await begun_with(w, 7)
    await advance(w, clock, 24)  # day 1
    await whisper(w, a, b)
    [first] = whisper_threads(w)
    await b.send(w.channel, "I am the Chef")  # the whisper breaks: its thread is locked and archived
    await w.settle()
    closed = w.bot.get_channel(first.id) or await w.bot.fetch_channel(first.id)
    assert closed.locked and closed.archived
    since = len(w.env.http_requests)
    await whisper(w, b, a)  # the same two again
    assert [t.id for t in whisper_threads(w)] == [first.id]  # no new thread
    made = calls(w, since)
    assert not [c for c in made if c[0] == "POST" and c[1].endswith("/threads")]
    assert not [c for c in made if "thread-members" in c[1]]  # nobody added again
    reopened = w.bot.get_channel(first.id) or await w.bot.fetch_channel(first.id)
    assert not reopened.locked and not reopened.archived
    assert len([t for t in texts(first, viewer=a) if "This whisper is open" in t]) == 2
    assert await can_post(a, first) and await can_post(b, first)
    assert not readable(first, c)
    state = await state_of(w)
    assert [x.id for x in state.whispers if not x.broken_by] == [2]
    # the night locks the reopened thread (its new key), dawn opens it again
    await advance(w, clock, 48)
    assert (w.bot.get_channel(first.id) or await w.bot.fetch_channel(first.id)).locked
    await advance(w, clock, 24)
    assert not (w.bot.get_channel(first.id) or await w.bot.fetch_channel(first.id)).locked


async def test_other_people_get_a_thread_of_their_own_and_nothing_leaks(world, clock):
    w = world
    a, b, c, d, *_ = await begun_with(w, 7)
    await advance(w, clock, 24)
    await whisper(w, a, b, c)
    [trio] = whisper_threads(w)
    await a.send(w.channel, "morning")  # breaks the trio's whisper
    await w.settle()
    await whisper(w, a, b)  # two of the three: not the trio's thread, which c reads
    pair = next(t for t in whisper_threads(w) if t.id != trio.id)
    assert readable(pair, a) and readable(pair, b) and not readable(pair, c) and not readable(pair, d)
    assert not any("This whisper is open" in t for t in texts(trio, viewer=c)[1:])
    # the Storyteller sits in both
    assert texts(pair, viewer=w.host) and texts(trio, viewer=w.host)


def permission_calls(made):
    return [c for c in made if "/permissions/" in c[1]]


def member_fetches(made):
    return [c for c in made if re.search(r"/guilds/\d+/members/\d+$", c[1]) and c[0] == "GET"]


async def night_calls(w, clock, n):
    members = await begun_with(w, n)
    first_dusk = permission_calls(calls(w))
    await advance(w, clock, 24)  # dawn 1
    since = len(w.env.http_requests)
    await advance(w, clock, 48)  # dusk 2
    dusk = calls(w, since)
    since = len(w.env.http_requests)
    await advance(w, clock, 24)  # dawn 2
    dawn = calls(w, since)
    return members, first_dusk, dusk, dawn


@pytest.mark.parametrize("seats", [7, 15])
async def test_the_nights_closing_costs_the_same_at_7_and_at_15_seats(world, clock, seats):
    w = world
    members, first, dusk, dawn = await night_calls(w, clock, seats)
    counted = {"first": len(first), "dusk": len(permission_calls(dusk)), "dawn": len(permission_calls(dawn))}
    # the first dusk: the bot's and the Storyteller's allows, and the @everyone deny; then one each
    assert counted == {"first": 3, "dusk": 1, "dawn": 1}, counted
    assert not member_fetches(dusk + dawn)


async def test_players_are_closed_out_at_night_and_storytellers_never(world, clock):
    w = world
    members = await begun_with(w, 7)
    cohost = w.guild.add_member(w.env.create_user("co"))
    res = await w.host.slash(w.channel, "st cohost add", member=cohost)
    assert "now a Storyteller" in res.response.content
    await w.settle()
    spectator = w.guild.add_member(w.env.create_user("watcher"))
    assert not await can_post(members[0], w.channel)
    assert not await can_post(members[-1], w.channel)
    assert not await can_post(spectator, w.channel)  # the trade-off: spectators are closed out too
    assert await can_post(w.host, w.channel)
    await advance(w, clock, 24)  # dawn
    assert all([await can_post(m, w.channel) for m in members[:3]])
    assert await can_post(spectator, w.channel)
    await advance(w, clock, 48)  # night 2: the co-Storyteller (added by day) keeps their voice
    assert await can_post(cohost, w.channel) and await can_post(w.host, w.channel)
    assert not await can_post(members[1], w.channel)
    # the bot still speaks at night (its own allow): the night's messages reached the town square
    assert any("night" in t.lower() for t in texts(w.channel)[-5:])


def overwrites_of(w, channel_id=None):
    """The town square's overwrites as Discord keeps them: target id -> (allow, deny)."""
    channel = w.env.backend.get_channel(channel_id or w.channel.id)
    return {o.target_id: (o.allow, o.deny) for o in channel.overwrites if o.allow or o.deny}


async def test_a_removed_co_storyteller_loses_the_nights_voice_and_a_new_one_gets_it_at_once(world, clock):
    w = world
    members = await begun_with(w, 7)
    cohost = w.guild.add_member(w.env.create_user("co"))
    res = await w.host.slash(w.channel, "st cohost add", member=cohost)  # at night: their voice at once
    assert "now a Storyteller" in res.response.content
    await w.settle()
    assert await can_post(cohost, w.channel) and not await can_post(members[0], w.channel)
    res = await w.host.slash(w.channel, "st cohost remove", member=cohost)
    await w.settle()
    assert cohost.id not in overwrites_of(w)  # the allow the game set is taken back
    assert not await can_post(cohost, w.channel)  # a spectator again: closed out at night
    assert await can_post(w.host, w.channel)
    await advance(w, clock, 24)  # dawn: everyone speaks, the removed one too
    assert await can_post(cohost, w.channel) and await can_post(members[0], w.channel)
    await advance(w, clock, 48)  # night 2: they are not given a voice again
    assert not await can_post(cohost, w.channel) and await can_post(w.host, w.channel)


async def ended_at_night(w, clock, how):
    """A game whose town square had an overwrite of its own before (ann may not add reactions, the
    host could already post): begun, a day gone by, then ended at night 2 by ``how``."""
    for who, overwrite in ((w.ann, discord.PermissionOverwrite(add_reactions=False)),
                           (w.host, discord.PermissionOverwrite(send_messages=True))):
        allow, deny = overwrite.pair()
        await w.bot.http.edit_channel_permissions(w.channel.id, who.id, str(allow.value), str(deny.value), 1)
    await w.settle()
    found = overwrites_of(w)
    members = await begun_with(w, 7)
    game_id = (await w.bot.service.game_in_channel(w.channel.id)).id
    await advance(w, clock, 24 + 48)  # night 2: the square closed again
    assert overwrites_of(w) != found
    if how == "win":
        res = await w.host.slash(w.channel, "st win", team="good", reason="The Demon is dead.")
    else:
        res = await w.host.slash(w.channel, "game cancel")
    assert "Done" in res.response.content or "cancel" in res.response.content.lower(), res.response.content
    await w.settle()
    return game_id, members, found


@pytest.mark.parametrize("how", ["win", "cancel"])
async def test_the_games_end_leaves_the_town_square_as_it_was_found(world, clock, how):
    w = world
    game_id, members, found = await ended_at_night(w, clock, how)
    assert (await w.bot.store.game(game_id)).status == ("finished" if how == "win" else "cancelled")
    assert overwrites_of(w) == found  # the night's deny and the bot's allow gone, the host's own kept
    assert await can_post(members[0], w.channel) and await can_post(w.host, w.channel)


async def test_a_process_that_does_not_own_the_game_leaves_its_town_square_to_the_owner(world, clock):
    """A game ended by a commit in another shard's process (a DM click reaches shard 0 only): the
    town square is the owner's to leave, so this process touches none of its overwrites."""
    from bot.shards import Shards

    w = world
    members = await begun_with(w, 7)
    await advance(w, clock, 24 + 48)  # night 2: the square closed
    at_night = overwrites_of(w)
    game_row = await w.bot.service.game_in_channel(w.channel.id)
    theirs = 1 - (game_row.guild_id >> 22) % 2
    w.bot.service.shards = Shards(2, frozenset({theirs}))  # this process runs the other shard only
    made = len(w.env.http_requests)
    await w.bot.delivery.threads.leave_square(game_row.id)
    assert permission_calls(calls(w, made)) == []
    assert overwrites_of(w) == at_night and not await can_post(members[0], w.channel)
