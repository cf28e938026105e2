"""Blood on the Clocktower end to end on simcord: sign-ups with seats, the deal the Storytellers
check, the characters in private threads, the Storyteller's commands, and no secret anywhere
a player could read it."""

import json

import discord
import pytest
from support.clocktower_helpers import CHARS, SEATS, character_names, dealt, game_row, sign_up, texts
from support.sim import new_bot

import games


async def test_sign_ups_take_seats_and_refuse_in_words(world):
    w = world
    members = await sign_up(w)
    row = await game_row(w)
    signups = await w.bot.store.signups(row.id)
    assert [s.seat for s in signups] == sorted(SEATS)
    res = await w.host.slash(w.channel, "in", seat=12)
    assert res.ephemeral and "Storytellers are not seated" in res.response.content
    res = await w.admin.slash(w.channel, "in", seat=3)
    assert res.ephemeral and "Seat 3 is" in res.response.content and "Free seats: 6, 8" in res.response.content
    res = await w.admin.slash(w.channel, "travel in", seat=16)
    assert not res.ephemeral and "signed up as a Traveller in seat 16" in res.response.content
    res = await members[0].slash(w.channel, "in", seat=8)  # moving seat
    assert "now signed up in seat 8" in res.response.content
    res = await members[1].slash(w.channel, "st deal")
    assert res.ephemeral and "Only this game's Storytellers" in res.response.content
    res = await members[1].slash(w.channel, "st cohost add", member=members[2])
    assert res.ephemeral and "Only this game's Storytellers" in res.response.content
    res = await w.host.slash(w.channel, "st cohost add", member=members[2])
    assert res.ephemeral and "plays in this game" in res.response.content
    res = await w.host.slash(w.channel, "spectate")
    assert res.ephemeral and "Storytellers are not seated" in res.response.content
    assert len(await w.bot.store.signups(row.id)) == 8  # nothing changed by any refusal


async def test_a_full_table_deal_begin_and_no_secret_where_players_read(world):
    w = world
    members = await sign_up(w)
    spectator = w.players(9)[8]
    await spectator.slash(w.channel, "spectate")
    res = await w.host.slash(w.channel, "st cohost add", member=w.admin)
    assert "now a Storyteller" in res.response.content
    res = await w.host.slash(w.channel, "st deal")
    assert res.ephemeral and "Dealt" in res.response.content
    await w.settle()
    row = await game_row(w)
    table = await w.bot.service.load(row.id)
    assert [p.seat for p in table.state.players] == sorted(SEATS)
    # the grimoire goes to the Storytellers only: to the co-Storyteller too, with its picture
    res = await w.admin.slash(w.channel, "st grimoire")
    assert res.ephemeral and "Grimoire" in res.response.content
    assert res.response.attachments and res.response.attachments[0].filename == "grimoire.png"
    st_thread = next(t for t in w.channel.threads if "Storytellers" in t.name)
    assert any("The deal is ready" in t for t in texts(st_thread))
    for member in members:
        with pytest.raises(Exception):  # noqa: B017 - simcord refuses a reader who is not in the thread
            st_thread.history(viewer=member)
    # nothing reaches a player before the begin
    assert all("🔒" not in t.name or "Storytellers" in t.name for t in w.channel.threads)
    redeal = await w.host.slash(w.channel, "st redeal")
    assert "deal 2" in redeal.response.content.lower()
    res = await w.host.slash(w.channel, "st begin")
    assert res.ephemeral and "Night 1 has begun" in res.response.content
    await w.settle()

    table = await w.bot.service.load(row.id)
    by_player = {s.player: s for s in table.state.seats}
    for member in members:
        own = [t for t in w.channel.threads if t.name.startswith(f"🔒 {member.name} ")]
        assert len(own) == 1
        said = " ".join(texts(own[0], viewer=member))
        seat = by_player[str(member.id)]
        assert CHARS[seat.shown].name in said
        # in the player's own thread: both Storytellers, nobody else seated
        readers = [m for m in [*members, w.host, w.admin, spectator] if _reads(own[0], m)]
        assert set(readers) == {member, w.host, w.admin}
    # the town square and the announcement thread name no character in play; no secret leaks
    in_play = {CHARS[s.character].name for s in table.state.seats} | {CHARS[s.shown].name for s in table.state.seats}
    square = " ".join(texts(w.channel))
    assert not character_names(square) & in_play, square
    announcements = next(t for t in w.channel.threads if t.name.startswith("📣"))
    said = texts(announcements, viewer=spectator)  # a spectator reads the public thread
    assert len(said) == 2 and "Djinn" in said[1]
    assert "📣" in announcements.name


def _reads(thread, member) -> bool:
    try:
        return bool(thread.history(viewer=member))
    except Exception:
        return False


async def test_storyteller_commands_change_the_grimoire_and_players_cannot_use_them(world):
    w = world
    members = await dealt(w)
    await w.host.slash(w.channel, "st begin")
    await w.settle()
    target = members[3]
    res = await target.slash(w.channel, "st kill", player=members[0])
    assert res.ephemeral and "Only this game's Storytellers" in res.response.content
    res = await w.host.slash(w.channel, "st kill", player=target)
    assert "learns it at dawn" in res.response.content
    res = await w.host.slash(w.channel, "st reminder add", player=members[1], token="Poisoned", source="pukka")
    assert "Reminder on" in res.response.content
    res = await w.host.slash(w.channel, "st reminder add", player=members[1], token="Nonsense", source="pukka")
    assert "has no 'Nonsense' token" in res.response.content
    res = await w.host.slash(w.channel, "st tell", player=members[2], text="You learn: 2")
    await w.settle()
    own = next(t for t in w.channel.threads if t.name.startswith(f"🔒 {members[2].name} "))
    assert any("You learn: 2" in t for t in texts(own, viewer=members[2]))
    res = await w.host.slash(w.channel, "st grimoire")
    assert "💀 dead" in res.response.content and "Poisoned (Pukka)" in res.response.content
    # the log holds the Storyteller's actions, as theirs
    row = await game_row(w)
    logged = await w.bot.store.actions(row.id)
    assert [a["type"] for a in logged] == ["begin", "kill", "add_reminder", "tell"]
    assert all(a["player"] == str(w.host.id) for a in logged)
    res = await w.host.slash(w.channel, "st win", team="good", reason="The Demon is dead.")
    await w.settle()
    assert any("Good wins" in t for t in texts(w.channel))


async def test_a_substitute_takes_over_the_seat_and_its_thread(world):
    w = world
    members = await dealt(w)
    await w.host.slash(w.channel, "st begin")
    await w.settle()
    leaving, sub = members[4], w.players(10)[9]
    thread = next(t for t in w.channel.threads if t.name.startswith(f"🔒 {leaving.name} "))
    before = texts(thread, viewer=leaving)
    res = await w.host.slash(w.channel, "st substitute", player=leaving, **{"with": sub})
    assert "now plays seat" in res.response.content
    await w.settle()
    # the same thread: the substitute reads its history, the one who left no longer can
    after = texts(thread, viewer=sub)
    assert after[:len(before)] == before and "You take over seat" in after[-1]
    assert not _reads(thread, leaving)
    row = await game_row(w)
    seat = (await w.bot.service.load(row.id)).state.seat_of(str(sub.id))
    assert seat.seat == 9  # members[4] signed up in seat 9
    assert any("takes over seat 9" in t for t in texts(w.channel))


async def test_a_restart_in_sign_ups_and_after_the_deal_loses_nothing(world, db_path, clock):
    w = world
    members = await sign_up(w, 6)
    await w.env.restart_bot(new_bot(db_path, clock))
    await members[0].slash(w.channel, "out")
    extra = w.players(9)[7:9]
    for member, seat in zip(extra, (11, 12), strict=True):
        await member.slash(w.channel, "in", seat=seat)
    res = await w.host.slash(w.channel, "st deal")
    assert "Dealt" in res.response.content
    await w.settle()
    row = await game_row(w)
    deal = [(s.player, s.character) for s in (await w.bot.service.load(row.id)).state.seats]
    await w.env.restart_bot(new_bot(db_path, clock))
    assert [(s.player, s.character) for s in (await w.bot.service.load(row.id)).state.seats] == deal
    res = await w.host.slash(w.channel, "st begin")
    assert "Night 1 has begun" in res.response.content
    await w.settle()
    assert len([t for t in w.channel.threads if t.name.startswith("🔒") and "Storytellers" not in t.name]) == 7


async def test_a_script_file_loads_and_a_bad_one_is_refused_in_words(world):
    w = world
    await sign_up(w)
    script = [{"id": "_meta", "name": "Small"}, "po", "spy", "baron", "washerwoman", "knight", "empath",
              "soldier", "virgin", "juggler", "recluse", "drunk", "thief"]
    res = await w.host.slash(w.channel, "st script", file=("small.json", json.dumps(script).encode()))
    assert res.ephemeral and "Script loaded: **Small**" in res.response.content
    res = await w.host.slash(w.channel, "st script", file=("bad.json", b'["gizmo", "po", "spy", "knight", "empath"]'))
    assert res.ephemeral and "not official and that it does not describe: gizmo." in res.response.content
    res = await w.host.slash(w.channel, "st script")
    assert res.ephemeral and "Give one of them" in res.response.content
    res = await w.host.slash(w.channel, "st pool", characters="-baron")
    assert "The pool (10)" in res.response.content
    res = await w.host.slash(w.channel, "st export")
    assert res.response.attachments[0].filename == "small.json"
    res = await w.host.slash(w.channel, "st deal")
    table = await w.bot.service.load((await game_row(w)).id)
    assert table.state.script.name == "Small" and "baron" not in {s.character for s in table.state.seats}


async def test_a_base_edition_is_chosen_by_name_and_dealt_at_five_players(world):
    w = world
    await sign_up(w, n=5)
    res = await w.host.slash(w.channel, "st script", edition="tb")
    assert res.ephemeral and "Script loaded: **Trouble Brewing** (13 townsfolk, 4 outsider, 4 minion, 1 demon, 5 traveller)" \
        in res.response.content
    row = await game_row(w)
    assert row.options["script"] == "Trouble Brewing"  # a name, read again at the deal
    res = await w.host.slash(w.channel, "st deal")
    state = (await w.bot.service.load(row.id)).state
    assert state.script.name == "Trouble Brewing" and state.script.rules == "official"
    assert len(state.seats) == 5 and sum(s.character == "imp" for s in state.seats) == 1


async def test_a_game_in_a_thread_needs_a_text_channel_for_private_threads(world):
    w = world
    town = await w.bot.get_channel(w.channel.id).create_thread(name="BotF town square",
                                                               type=discord.ChannelType.public_thread)
    await w.settle()
    post = next(t for t in w.channel.threads if t.id == town.id)
    res = await w.host.slash(post, "game new", kind="clocktower")
    assert not res.ephemeral
    for member, seat in zip(w.players(8)[1:], SEATS, strict=True):
        await member.slash(post, "in", seat=seat)
    res = await w.host.slash(post, "st deal")
    assert res.ephemeral and "/st threads" in res.response.content
    assert (await w.bot.service.game_here(post.id)).status == "lobby"
    res = await w.host.slash(post, "st threads", channel=w.channel)
    res = await w.host.slash(post, "st deal")
    assert "Dealt" in res.response.content
    await w.settle()
    assert any("Storytellers" in t.name for t in w.channel.threads)


def test_clocktower_is_registered():
    assert "clocktower" in games.available()


async def test_the_deal_names_the_permissions_the_bot_lacks(world):
    w = world
    locked = w.guild.create_text_channel("locked-square", overwrites={
        w.guild.me: discord.PermissionOverwrite(create_private_threads=False, attach_files=False)})
    res = await w.host.slash(locked, "game new", kind="clocktower")
    for member, seat in zip(w.players(8)[1:], SEATS, strict=True):
        await member.slash(locked, "in", seat=seat)
    res = await w.host.slash(locked, "st deal")
    said = res.response.content
    assert res.ephemeral and "Attach Files" in said and "Create Private Threads" in said, said
    assert "python -m bot invite" in said  # who can fix it, and how
    assert (await w.bot.service.game_here(locked.id)).status == "lobby"  # nothing was dealt


async def test_the_deal_takes_the_sign_up_buttons_away(world):
    w = world
    await dealt(w)
    sign_up = next(m for m in w.channel.history() if any("sign-ups" in (e.title or "") or "game has begun" in
                                                          (e.title or "") for e in m.embeds))
    assert sign_up.embeds[0].title == "The game has begun." and not sign_up.components
