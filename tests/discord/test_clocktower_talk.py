"""Clocktower talk on simcord: /whisper in the announcement thread opens a private thread that a
post in the town square breaks and closes; /neighbour with its word count; /announce in the
thread only, acknowledged alike; /exile by majority; the Storytellers' whisper ledger; and no
character named where the town reads."""

import re

from support.clocktower_helpers import CHARS, advance, begun, character_names, game_row, state_of, texts


def announcement_thread(w):
    return next(t for t in w.channel.threads if t.name.startswith("📣"))


def seated(members, state):
    """The members in circle order."""
    by_id = {str(m.id): m for m in members}
    return [by_id[s.player] for s in state.seats if s.player in by_id]


async def test_a_whisper_opens_a_private_thread_that_a_town_square_post_breaks(world, clock):
    w = world
    members = await begun(w)
    res = await members[0].slash(announcement_thread(w), "whisper", player=members[1])
    assert res.ephemeral and "talk is closed at night" in res.response.content
    await advance(w, clock, 24)
    a, b, c = members[0], members[1], members[2]
    res = await a.slash(w.channel, "whisper", player=b)
    assert res.ephemeral and "in the announcement thread" in res.response.content
    thread = announcement_thread(w)
    res = await a.slash(thread, "whisper", player=b, player2=c)
    assert res.ephemeral and "Your whisper with" in res.response.content, res.response.content
    await w.settle()
    assert any(f"{a.name} (seat" in t and "whispers with" in t and "used 2 of 3" in t for t in texts(thread))
    row = await game_row(w)
    whisper = next(t for t in w.channel.threads if t.name.startswith("🔒") and a.name in t.name and c.name in t.name)
    assert any("This whisper is open" in t for t in texts(whisper, viewer=b))
    outsider = members[3]
    try:
        whisper.history(viewer=outsider)
        read = True
    except Exception:
        read = False
    assert not read  # a player outside the whisper cannot read it
    assert texts(whisper, viewer=w.host)  # the Storyteller sits in every whisper
    # chatter by someone with no whisper changes nothing
    steps = len(await w.bot.store.actions(row.id))
    await outsider.send(w.channel, "good morning town")
    await w.settle()
    assert len(await w.bot.store.actions(row.id)) == steps
    # b speaks in the town square: the whisper breaks, everyone in it is told, the thread closes
    await b.send(w.channel, "I am the Chef, trust me")
    await w.settle()
    assert any(f"{b.name} spoke in the town square" in t and "broken" in t for t in texts(whisper, viewer=a))
    closed = w.bot.get_channel(whisper.id) or await w.bot.fetch_channel(whisper.id)
    assert closed.locked and closed.archived
    state = await state_of(w)
    assert state.whispers[0].broken_by == str(b.id)
    # the ledger for the Storytellers, with the time it broke
    res = await w.host.slash(w.channel, "st whispers")
    assert res.ephemeral and "#1" in res.response.content and f"broken by {b.name} <t:" in res.response.content
    res = await a.slash(w.channel, "st whispers")
    assert "Only this game's Storytellers" in res.response.content or "Storyteller" in res.response.content
    # no character in play named in the town square or the announcement thread by the bot
    in_play = {CHARS[s.character].name for s in state.seats} | {CHARS[s.shown].name for s in state.seats}
    bot_said = [t for m, t in zip(w.channel.history(), texts(w.channel), strict=True) if m.author.bot]
    rules = ("📣 Public announcements", "✨ A Fabled")  # the rulebook's own words: the jinxes, the thread's use
    said = [t for t in bot_said + texts(thread) if not t.strip().startswith(rules)]
    assert not character_names(" ".join(said)) & in_play


async def test_neighbour_whispers_and_announcements(world, clock):
    w = world
    members = await begun(w)
    await advance(w, clock, 24)
    state = await state_of(w)
    circle = seated(members, state)
    me, right = circle[0], circle[1]
    res = await me.slash(w.channel, "neighbour", to=right, text=" ".join(["word"] * 16))
    assert res.ephemeral and "That is 16 words; a neighbour whisper is at most 15" in res.response.content
    res = await me.slash(w.channel, "neighbour", to=circle[3], text="hello")
    assert "is not your neighbour" in res.response.content
    res = await me.slash(w.channel, "neighbour", to=right, text="vote with me today please")
    assert "Whispered to" in res.response.content and "(5 words)" in res.response.content
    await w.settle()
    theirs = next(t for t in w.channel.threads if t.name.startswith(f"🔒 {right.name} "))
    assert any("vote with me today please" in t and me.name in t for t in texts(theirs, viewer=right))
    assert not any("vote with me today please" in t for t in texts(w.channel))
    # announcements: only in the thread, acknowledged the same way whoever makes them
    res = await me.slash(w.channel, "announce goblin")
    assert res.ephemeral and "only in the announcement thread" in res.response.content
    thread = announcement_thread(w)
    for member in circle[:3]:
        res = await member.slash(thread, "announce goblin")
        assert "Your announcement is noted" in res.response.content
    await w.settle()
    acks = [t for t in texts(thread) if "claims to be the Goblin" in t]
    assert len(acks) == 3
    assert len({re.sub(r"\S+ \(seat \d+\)", "X", t) for t in acks}) == 1  # alike, whoever made them
    res = await me.slash(thread, "announce juggler", player=right, character="empath", player2=circle[2])
    assert "Guess 2 needs both a player and a character" in res.response.content
    res = await me.slash(thread, "announce slayer", player=right)  # a Slayer's shot, anyone's claim
    assert "Your announcement is noted" in res.response.content
    res = await me.slash(thread, "announce slayer", player=circle[2])
    assert res.ephemeral and "already made your Slayer's shot" in res.response.content
    await w.settle()
    assert any(f"{right.name} (seat" in t and "as the Slayer: nothing happens." in t for t in texts(thread))
    await advance(w, clock, 36)  # 36 hours into the day
    res = await me.slash(thread, "announce goblin")
    assert "only in the first 36 hours of a day" in res.response.content


async def test_a_traveller_is_exiled_by_half_of_all_players_dead_voters_included(world, clock):
    w = world
    members = await begun(w)
    await advance(w, clock, 24)
    traveller = w.guild.add_member(w.env.create_user("roamer"))
    res = await traveller.slash(w.channel, "travel in", seat=12)
    assert not res.ephemeral
    res = await w.host.slash(w.channel, "st traveller add", player=traveller, character="thief", alignment="evil")
    assert "is the Thief" in res.response.content, res.response.content
    await w.host.slash(w.channel, "st kill", player=members[0])
    res = await members[2].slash(w.channel, "exile", traveller=members[3])
    assert "is not a Traveller" in res.response.content
    voters = [members[0], *members[1:4]]  # 8 players: 4 yes votes exile; the dead one votes freely
    for voter in voters:
        res = await voter.slash(w.channel, "exile", traveller=traveller)
        assert res.ephemeral, res.response.content
    await w.settle()
    state = await state_of(w)
    assert not state.seat_of(str(traveller.id)).alive and state.seat_of(str(members[0].id)).vote_token
    said = texts(w.channel)
    assert any("calls for the exile" in t for t in said) and any("is exiled and dies" in t for t in said)
    tallies = [m for m in w.channel.history() if any((e.title or "").startswith("🧳 Exile of") for e in m.embeds)]
    assert len(tallies) == 1 and "Exiled" in tallies[0].embeds[0].description


async def _can_post(member, channel) -> bool:
    try:
        await member.send(channel, "hello")
        return True
    except Exception:
        return False


async def test_night_closes_the_town_square_and_the_whispers_and_dawn_opens_them(world, clock):
    w = world
    members = await begun(w)  # night 1 has fallen
    assert not await _can_post(members[0], w.channel)
    assert await _can_post(w.host, w.channel)  # the Storyteller still speaks
    await advance(w, clock, 24)
    assert await _can_post(members[0], w.channel)
    await members[0].slash(announcement_thread(w), "whisper", player=members[1])
    await w.settle()
    whisper = next(t for t in w.channel.threads if t.name.startswith("🔒") and members[1].name in t.name
                   and members[0].name in t.name)
    await advance(w, clock, 48)  # night 2
    assert not await _can_post(members[0], w.channel)
    assert (w.bot.get_channel(whisper.id) or await w.bot.fetch_channel(whisper.id)).locked
    await advance(w, clock, 24)  # dawn: the unbroken whisper goes on
    assert not (w.bot.get_channel(whisper.id) or await w.bot.fetch_channel(whisper.id)).locked
    assert await _can_post(members[2], w.channel)


async def test_without_the_permission_the_storytellers_are_told_which_one(world, clock):
    import discord

    w = world
    w.channel = w.guild.create_text_channel("town", overwrites={
        w.bot.user: discord.PermissionOverwrite(manage_roles=False, manage_channels=False)})
    members = await begun(w)
    assert await _can_post(members[0], w.channel)  # not closed: the bot may not
    st_thread = next(t for t in w.channel.threads if "Storytellers" in t.name)
    told = [t for t in texts(st_thread) if "could not close the town square" in t]
    assert len(told) == 1 and "Manage Permissions" in told[0]
    await advance(w, clock, 72)  # the next night: told once per game
    assert len([t for t in texts(st_thread) if "could not close the town square" in t]) == 1
