"""Threads that stay for a week (issue 31, item 4): every thread the Clocktower makes, and a
whisper thread it reopens, auto-archives after a week of quiet (Discord's longest), not the
default day; a game in a forum post tags the post with its day and "Ended" at the end, making the
forum's tags if it has none, and goes on untagged (one log line) where it may not make them."""

import logging

import discord
from support.clocktower_helpers import SEATS, advance, dealt, texts

WEEK = 10080


def archive_minutes(w, thread):
    return w.env.backend.get_channel(thread.id).thread_metadata.auto_archive_duration


def tag_names(w, post):
    channel = w.env.backend.get_channel(post.id)
    forum = w.env.backend.get_channel(channel.parent_id)
    names = {int(t["id"]): t["name"] for t in forum.available_tags}
    return sorted(names[t] for t in channel.applied_tags)


async def test_every_thread_of_the_game_stays_a_week(world, clock):
    w = world
    members = await dealt(w)
    res = await w.host.slash(w.channel, "st begin")
    await w.settle()
    await advance(w, clock, 24)  # day 1: the announcement thread is there
    announcements = next(t for t in w.channel.threads if t.name.startswith("📣"))
    a, b = members[0], members[1]
    res = await a.slash(announcements, "whisper", player=b)
    assert "Your whisper with" in res.response.content, res.response.content
    await w.settle()
    threads = list(w.channel.threads)
    kinds = {t.name[:1] for t in threads}
    assert {"🔒", "📣"} <= kinds and len(threads) >= len(members) + 3  # own threads, Storytellers, whisper
    assert {t.name: archive_minutes(w, t) for t in threads} == {t.name: WEEK for t in threads}
    # a whisper broken, then declared again by the same two: its thread is reopened for a week too
    whisper = next(t for t in threads if t.name.startswith("🔒") and "," in t.name)
    w.env.backend.get_channel(whisper.id).thread_metadata.auto_archive_duration = 60  # as an older game left it
    await b.send(w.channel, "I am the Chef")
    await w.settle()
    res = await b.slash(announcements, "whisper", player=a)
    assert "Your whisper with" in res.response.content, res.response.content
    await w.settle()
    assert not w.env.backend.get_channel(whisper.id).thread_metadata.archived
    assert archive_minutes(w, whisper) == WEEK


async def forum_game(w, *, may_manage: bool = True):
    """A Clocktower game in a forum post (its private threads under the text channel), begun;
    the post carries a tag of its own ("Trouble Brewing") that the game must keep."""
    forum = w.guild.create_forum_channel("clocktower")
    bot_forum = await w.bot.fetch_channel(forum.id)
    own = await bot_forum.create_tag(name="Trouble Brewing")  # (as the server's admins would)
    made = await bot_forum.create_thread(name="Game 12: BotF", content="Sign up below.", applied_tags=[own])
    if not may_manage:
        deny = discord.PermissionOverwrite(manage_channels=False).pair()[1]
        await w.bot.http.edit_channel_permissions(forum.id, w.bot.user.id, "0", str(deny.value), 1)
    await w.settle()
    post = next(t for t in forum.threads if t.id == made.thread.id)
    res = await w.host.slash(post, "game new", kind="clocktower")
    assert not res.ephemeral, res.response.content
    members = w.players(8)[1:]
    for member, seat in zip(members, SEATS, strict=True):
        await member.slash(post, "in", seat=seat)
    await w.host.slash(post, "st threads", channel=w.channel)
    res = await w.host.slash(post, "st deal")
    assert "Dealt" in res.response.content, res.response.content
    await w.settle()
    res = await w.host.slash(post, "st begin")
    assert "Night 1 has begun" in res.response.content, res.response.content
    await w.settle()
    return post, members


async def test_a_forum_post_is_tagged_with_the_day_and_ended(world, clock):
    w = world
    post, members = await forum_game(w)
    assert tag_names(w, post) == ["Trouble Brewing"]
    await advance(w, clock, 24)  # dawn 1
    assert tag_names(w, post) == ["Day 1", "Trouble Brewing"]
    assert archive_minutes(w, post) == WEEK  # the town square itself stays a week too
    await advance(w, clock, 48)  # dusk: the day's tag stays through the night
    assert tag_names(w, post) == ["Day 1", "Trouble Brewing"]
    await advance(w, clock, 24)  # dawn 2: Day 1 gives way
    assert tag_names(w, post) == ["Day 2", "Trouble Brewing"]
    forum = w.env.backend.get_channel(w.env.backend.get_channel(post.id).parent_id)
    assert sorted(t["name"] for t in forum.available_tags) == ["Day 1", "Day 2", "Trouble Brewing"]
    await w.host.slash(post, "st win", team="good", reason="The Demon is dead.")
    await w.settle()
    assert any("Good wins" in t for t in texts(post))
    assert tag_names(w, post) == ["Ended", "Trouble Brewing"]
    assert not w.env.backend.get_channel(post.id).thread_metadata.locked


async def test_a_forum_without_manage_channels_goes_on_untagged_with_one_log_line(world, clock, caplog):
    w = world
    post, members = await forum_game(w, may_manage=False)
    with caplog.at_level(logging.INFO, logger="bot.delivery._threads"):
        await advance(w, clock, 24)  # dawn 1: "Day 1" cannot be made
        await advance(w, clock, 72)  # dawn 2: nor "Day 2"
    assert tag_names(w, post) == ["Trouble Brewing"]
    assert any("Day 2 dawns" in t for t in texts(post))  # the game went on
    said = [r.getMessage() for r in caplog.records if "not tagged" in r.getMessage()]
    assert len(said) == 1, said
