"""A member's menu ("Apps" when you right-click a member) on simcord: "Vote for", "Whisper" and
"Remove from game" answer exactly as /vote, /whisper and /mod remove do, in the same situation
(the same words, as privately), act as they do, and refuse in words what they refuse; a user who
is not a member of the server is refused by each menu."""

import discord
from simcord.backend import serializers
from simcord.enums import AppCommandType, InteractionType
from support.clocktower_helpers import CHARS, advance, begun, state_of, texts

from bot.cogs.menus import NotHere

MENUS = ("Vote for", "Whisper", "Remove from game")


def announcement_thread(w):
    return next(t for t in w.channel.threads if t.name.startswith("📣"))


async def same_answer(menu_user, slash_user, channel, menu, clicked, command, **options):
    """The menu's answer and the slash command's, for one situation the refusal leaves unchanged."""
    by_menu = await menu_user.context_menu(channel, menu, clicked)
    by_slash = await slash_user.slash(channel, command, **options)
    assert by_menu.ephemeral == by_slash.ephemeral
    assert by_menu.response.content == by_slash.response.content, (by_menu.response.content,
                                                                   by_slash.response.content)
    return by_menu.response.content


async def menu_on_a_stranger(member, channel, menu, stranger):
    """The menu on a user who is not a member of this server (one who left: Discord sends the user
    alone, with no member). simcord's ``context_menu`` only targets members, as Discord's client
    mostly does, so the interaction is dispatched as Discord would send it."""
    root = member._resolve_root(menu, AppCommandType.USER, channel.id)
    backend = member._env.backend
    data = {"id": root["id"], "name": root["name"], "type": AppCommandType.USER, "target_id": str(stranger.id),
            "resolved": {"users": {str(stranger.id): dict(serializers.user_payload(backend.get_user(stranger.id)))}}}
    return await member._dispatch_interaction(InteractionType.APPLICATION_COMMAND, channel, data)


async def a_ritual_begun(w) -> int:
    """A Ritual of the host, Ann and Bo, started by its button (as ``three_witches`` in
    test_ritual_game.py); the game's id."""
    res = await w.host.slash(w.channel, "game new", kind="ritual")
    for m in (w.ann, w.bo):
        await m.click(res.response, label="Join")
    await w.host.click(res.response, label="Start")
    await w.settle()
    return (await w.bot.service.game_in_channel(w.channel.id)).id


async def test_the_three_menus_are_members_menus_on_servers_only(world):
    menus = {m.name: m for m in world.bot.tree.get_commands(type=discord.AppCommandType.user)}
    assert set(menus) == set(MENUS)
    assert all(m.guild_only for m in menus.values())


async def test_vote_for_is_slash_vote_in_a_clocktower_day(world, clock):
    w = world
    members = await begun(w)
    a, b = members[0], members[1]
    # at night: the same refusal as /vote
    said = await same_answer(a, a, w.channel, "Vote for", b, "vote", target=b)
    assert "voting opens at dawn" in said
    await advance(w, clock, 24)
    state = await state_of(w)
    # nobody meets the Virgin here: the voters and their nominee are other characters
    plain = [m for m in members if state.seat_of(str(m.id)).character != "virgin"]
    voter, nominee, other = plain[0], plain[1], plain[2]
    # someone not playing: the same refusal, and nothing changes
    outsider = w.guild.add_member(w.env.create_user("passer"))
    said = await same_answer(outsider, outsider, w.channel, "Vote for", nominee, "vote", target=nominee)
    assert said == "You are not playing in this game."
    res = await voter.context_menu(w.channel, "Vote for", nominee)
    assert res.ephemeral and "You nominated them" in res.response.content, res.response.content
    res = await other.slash(w.channel, "vote", target=nominee)  # the command, for comparison
    assert res.ephemeral
    state = await state_of(w)
    assert state.votes[str(voter.id)] == state.votes[str(other.id)] == str(nominee.id)
    # a Storyteller is on no ballot: the command's words
    said = await same_answer(voter, voter, w.channel, "Vote for", w.host, "vote", target=w.host)
    assert said == "That player is not seated in this game."


async def test_vote_for_in_another_game_and_where_there_is_no_game(world):
    w = world
    host, ann, bo = w.host, w.ann, w.bo
    # no game in this channel
    said = await same_answer(ann, ann, w.channel, "Vote for", bo, "vote", target=bo)
    assert "There is no game in this channel" in said
    # The Ritual's Choosing: a vote on players, by menu as by command
    game_id = await a_ritual_begun(w)
    res = await ann.context_menu(w.channel, "Vote for", host)
    assert res.ephemeral
    assert (await w.bot.service.load(game_id)).state.votes[str(ann.id)] == str(host.id)
    # the Whisper menu is the Clocktower's: the same refusal as /whisper
    said = await same_answer(ann, ann, w.channel, "Whisper", bo, "whisper", player=bo)
    assert "belongs to Blood on the Clocktower" in said


async def test_whisper_is_slash_whisper(world, clock):
    w = world
    members = await begun(w)
    a, b = members[0], members[1]
    await advance(w, clock, 24)
    thread = announcement_thread(w)
    # outside the announcement thread: the same refusal
    said = await same_answer(a, a, w.channel, "Whisper", b, "whisper", player=b)
    assert "in the announcement thread" in said
    said = await same_answer(a, a, thread, "Whisper", a, "whisper", player=a)  # with oneself
    assert said and "Your whisper with" not in said
    res = await a.context_menu(thread, "Whisper", b)
    assert res.ephemeral and "Your whisper with" in res.response.content, res.response.content
    await w.settle()
    assert any(f"{a.name} (seat" in t and "whispers with" in t for t in texts(thread))
    assert any(t.name.startswith("🔒") and a.name in t.name and b.name in t.name for t in w.channel.threads)
    state = await state_of(w)
    assert [set(x.members) for x in state.whispers] == [{str(a.id), str(b.id)}]
    # the same group again while it is open: the same refusal as /whisper
    said = await same_answer(a, a, thread, "Whisper", b, "whisper", player=b)
    assert "Your whisper with" not in said
    assert len((await state_of(w)).whispers) == 1


async def test_remove_from_game_is_mod_remove(world):
    w = world
    host, ann, bo = w.host, w.ann, w.bo
    # no game here
    said = await same_answer(w.admin, w.admin, w.channel, "Remove from game", bo, "mod remove", player=bo)
    assert "There is no game in this channel" in said
    game_id = await a_ritual_begun(w)
    # not a moderator: the same refusal, nothing changes
    said = await same_answer(ann, ann, w.channel, "Remove from game", bo, "mod remove", player=bo)
    assert "Only the host, a storyteller, or a member with Manage Server" in said
    # a removal that ends the game asks first, with the same button
    said = await same_answer(host, host, w.channel, "Remove from game", bo, "mod remove", player=bo)
    assert "Removing them ends the game" in said
    assert str(bo.id) not in (await w.bot.service.load(game_id)).state.removed
    res = await w.admin.context_menu(w.channel, "Remove from game", bo)
    assert res.ephemeral and "Removing them ends the game" in res.response.content
    res = await w.admin.click(res.response, label="Remove and end the game")
    assert res.ephemeral
    await w.settle()
    assert (await w.bot.store.game(game_id)).status == "finished"


async def test_every_menu_refuses_a_user_who_is_not_a_member_here(world, clock):
    w = world
    members = await begun(w)
    await advance(w, clock, 24)
    stranger = w.env.create_user("stranger")  # left the server, or never joined it
    other_guild = w.env.create_guild("Elsewhere")
    elsewhere = other_guild.add_member(w.env.create_user("elsewhere"))
    row = await w.bot.service.game_here(w.channel.id)
    steps = len(await w.bot.store.actions(row.id))
    for menu, channel, user in (("Vote for", w.channel, members[0]), ("Whisper", announcement_thread(w), members[0]),
                                ("Remove from game", w.channel, w.host)):
        for target in (stranger, elsewhere.user):
            res = await menu_on_a_stranger(user, channel, menu, target)
            assert res.ephemeral
            assert res.response.content == f"{target.name} is not a member of this server, so they are in no game here."
    assert len(await w.bot.store.actions(row.id)) == steps  # nothing changed
    assert NotHere.code == "not_here"


async def test_no_character_is_named_by_a_menus_answer(world, clock):
    """The menus say what the commands say: a vote's answer names no character."""
    w = world
    members = await begun(w)
    await advance(w, clock, 24)
    state = await state_of(w)
    plain = [m for m in members if state.seat_of(str(m.id)).character != "virgin"]
    res = await plain[0].context_menu(w.channel, "Vote for", plain[1])
    names = {c.name for c in CHARS.characters.values()}
    assert not any(n in res.response.content for n in names)
