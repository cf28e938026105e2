"""The voice table's record of whom the bot muted is the truth (issue 36, items 1, 2, 6 and 7):
a player left muted by an earlier game is unmuted when no running game silences them; an unmute
never trusts a stale voice-state cache and a late voice-state event repairs; a lost Mute Members
(or Connect) is told with who stays muted, and caught up when it comes back; a member the bot
cannot edit is named, and not asked for again at every turn."""

import discord
import pytest
from simcord.backend.models import Overwrite
from support.voice_table import ROLES5, speaker, start_ritual

from bot.actor import Actor
from bot.pacer import KIND_WINDOWS
from bot.voice.narrator import RecordingNarrator


@pytest.fixture
def table(world, monkeypatch):
    """A voice channel 'Table'; the server's window of member edits wide open (these tests are
    about whom the bot mutes, not how fast: ``bench/`` measures the pace)."""
    monkeypatch.setitem(KIND_WINDOWS, "voice", (1000, 10.0))
    w = world
    w.vc = w.guild.create_voice_channel("Table")
    w.heard = RecordingNarrator()
    w.bot.voice.narrator = w.heard
    return w


def backend_guild(w):
    return w.env.backend.get_guild(w.guild.id)


def muted(w, member) -> bool | None:
    """Whether Discord has the member server-muted (None: not in voice)."""
    state = backend_guild(w).voice_states.get(member.id)
    return None if state is None else state.mute


async def rejoin(w, member, channel):
    """The member joins voice again. Discord keeps a server mute across a disconnect (simcord's
    join would not), so they arrive as muted as Discord last left them."""
    kept = w.env.backend.get_member(w.guild.id, member.id).mute
    w.env.backend.set_voice_state(w.guild.id, member.id, channel.id, mute=kept)
    await w.settle()




async def seated(w, options: str = "speaking_turns=true turn_seconds=10") -> int:
    for m in w.players(5):
        await m.join_voice(w.vc)
    return await start_ritual(w, options)




async def next_turn(w):
    await w.admin.slash(w.channel, "mod skip-turn")
    await w.settle()


async def turn_of(w, game_id: int, player_id: int) -> None:
    """The turns go round until it is ``player_id``'s (a bounded wait: a game whose turns end
    first fails the test instead of hanging it)."""
    for _ in range(12):
        if await speaker(w, game_id) == player_id:
            return
        await next_turn(w)
    raise AssertionError(f"{player_id} never had the floor")


async def cancel(w):
    await w.host.slash(w.channel, "game cancel")
    await w.settle()


def bot_role(w):
    return next(r for r in backend_guild(w).roles.values() if r.name == "TestBot")


def set_bot_permission(w, **flags):
    role = bot_role(w)
    perms = discord.Permissions(role.permissions)
    perms.update(**flags)
    w.env.backend.edit_role(w.guild.id, role.id, {"permissions": perms.value})


def edits_of(w, member=None) -> int:
    """The member edits the bot asked of Discord so far (of one member, or of anyone)."""
    path = f"/guilds/{w.guild.id}/members/"
    return sum(1 for e in w.env.http_requests if e.method == "PATCH" and e.path.startswith(path)
               and (member is None or e.path == path + str(member.id)))


def host_dms(w) -> str:
    return " ".join(w.dm_texts(w.host))


class HeldVoiceEvents:
    """The gateway's voice-state reports held back (Discord answers a member edit before its
    voice-state event arrives), then let through in order."""

    def __init__(self, w):
        self.w, self.held = w, []
        self.feed = w.env._gateway_feed
        subscribers = w.env.backend.subscribers
        subscribers[subscribers.index(self.feed)] = self.hold

    def hold(self, event, payload):
        if event == "VOICE_STATE_UPDATE":
            self.held.append(payload)
        else:
            self.feed(event, payload)

    async def release(self):
        subscribers = self.w.env.backend.subscribers
        subscribers[subscribers.index(self.hold)] = self.feed
        for payload in self.held:
            self.feed("VOICE_STATE_UPDATE", payload)
        self.held = []
        await self.w.settle()


# ----- item 1: a mute left by an earlier game -----

async def test_a_player_left_muted_by_an_earlier_game_speaks_in_her_turn_of_the_next(table):
    w = table
    first = await seated(w)
    assert muted(w, w.cy) is True  # the host speaks first
    await w.cy.leave_voice()
    await cancel(w)
    assert await w.bot.store.muted_by_game(first) == [w.cy.id]  # Discord cannot unmute her now
    second = await start_ritual(w, "speaking_turns=true turn_seconds=10")
    assert await speaker(w, second) == w.host.id
    await rejoin(w, w.cy, w.vc)  # still muted by game 1, and game 2 silences her now
    assert muted(w, w.cy) is True
    await turn_of(w, second, w.cy.id)
    assert muted(w, w.cy) is False  # her own turn
    await cancel(w)
    assert all(muted(w, m) is False for m in w.players(5))
    assert await w.bot.store.muted_by_game(first) == [] and await w.bot.store.muted_by_game(second) == []


async def test_a_player_arriving_muted_by_an_earlier_game_is_unmuted_when_the_next_ends(table):
    w = table
    first = await seated(w)
    await w.cy.leave_voice()
    await cancel(w)
    second = await start_ritual(w, "speaking_turns=true turn_seconds=10")
    await rejoin(w, w.cy, w.vc)
    await w.admin.slash(w.channel, "mod end")  # before her turn: the game's last step frees everyone
    await w.settle()
    assert muted(w, w.cy) is False
    assert await w.bot.store.muted_by_game(first) == [] and await w.bot.store.muted_by_game(second) == []


async def test_a_player_walking_to_a_table_that_silences_her_stays_muted_for_it(table):
    w = table
    first = await seated(w)  # table A: the host speaks, Cy is muted
    w.players(9)
    other_text = w.guild.create_text_channel("games-2")
    other_vc = w.guild.create_voice_channel("Table B")
    second_players = [w.ed, w.flo, w.gus, w.bo, w.cy]
    for m in second_players[:3]:
        await m.join_voice(other_vc)
    res = await w.ed.slash(other_text, "game new", kind="ritual", options="speaking_turns=true turn_seconds=10")
    for m in second_players[1:]:
        await m.click(res.response, label="Join")
    second = (await w.bot.service.game_in_channel(other_text.id)).id
    roles = {str(m.id): role for m, role in zip(second_players, ROLES5, strict=True)}
    await w.bot.service.start(second, Actor(id=w.ed.id, name="ed"), forced={"roles": roles})
    await w.settle()
    await w.cy.join_voice(other_vc)  # still muted by table A; table B silences her too
    assert await speaker(w, second) == w.bo.id  # (the first seat: Bo, who sits at table A)
    await next_turn(w)  # table A moves on: its mute of Cy is now table B's
    assert muted(w, w.cy) is True
    assert w.cy.id in await w.bot.store.muted_by_game(second)
    assert w.cy.id not in await w.bot.store.muted_by_game(first)


async def test_a_mute_a_moderator_set_is_left_alone(table):
    w = table
    await w.bo.join_voice(w.vc)
    w.env.backend.edit_member(w.guild.id, w.bo.id, {"mute": True})  # a moderator mutes Bo by hand
    await w.settle()
    game_id = await seated(w)
    await turn_of(w, game_id, w.bo.id)
    assert muted(w, w.bo) is True  # the bot never muted him: not its to undo
    await cancel(w)
    assert muted(w, w.bo) is True and muted(w, w.ann) is False


# ----- item 2: the record, not the cache -----

async def test_an_unmute_is_sent_though_the_cache_has_not_yet_seen_the_mute(table):
    w = table
    for m in w.players(5):
        await m.join_voice(w.vc)
    held = HeldVoiceEvents(w)  # the gateway reports the first mutes late
    game_id = await start_ritual(w, "speaking_turns=true turn_seconds=10")
    assert muted(w, w.ann) is True and not w.bot.get_guild(w.guild.id).get_member(w.ann.id).voice.mute
    await next_turn(w)  # Ann's turn, before the gateway has said she was muted
    assert await speaker(w, game_id) == w.ann.id
    assert muted(w, w.ann) is False
    await held.release()
    assert muted(w, w.ann) is False
    assert [m for m in w.players(5) if muted(w, m)] == [w.host, w.bo, w.cy, w.di]
    assert w.ann.id not in await w.bot.store.muted_by_game(game_id)


async def test_a_late_voice_state_event_repairs_a_mute_the_cache_hid(table):
    w = table
    game_id = await seated(w)
    held = HeldVoiceEvents(w)
    await next_turn(w)  # Ann is unmuted; the gateway has not said so yet
    await next_turn(w)  # Bo's turn: Ann is to be silent again, and the cache still says she is
    assert await speaker(w, game_id) == w.bo.id
    await held.release()
    assert muted(w, w.ann) is True  # the late report that she spoke set it right
    assert [m for m in w.players(5) if not muted(w, m)] == [w.bo]


async def test_a_player_not_in_voice_keeps_her_row_until_she_joins_again(table):
    w = table
    game_id = await seated(w)
    w.env.inject_error("PATCH", f"/guilds/{w.guild.id}/members/{w.di.id}", status=400, code=40032,
                       message="Target user is not connected to voice.", times=1)
    await w.host.slash(w.channel, "game cancel")  # the cache says Di is in voice; Discord says not
    await w.settle()
    assert await w.bot.store.muted_by_game(game_id) == [w.di.id]
    await w.di.leave_voice()
    await rejoin(w, w.di, w.vc)
    assert muted(w, w.di) is False and await w.bot.store.muted_by_game(game_id) == []


# ----- item 6: Mute Members lost mid-game -----

async def test_a_lost_mute_members_names_who_stays_muted_and_is_caught_up_when_it_comes_back(table):
    w = table
    game_id = await seated(w)
    set_bot_permission(w, mute_members=False)
    await w.settle()
    before = edits_of(w)
    for _ in range(3):
        await next_turn(w)
    assert edits_of(w) == before  # nothing asked of Discord that it must refuse, turn after turn
    told = host_dms(w)
    assert "**Mute Members**" in told and "without muting anyone" not in told
    assert "**ann, bo, cy and di** stay server-muted" in told, told
    await cancel(w)
    assert [m for m in w.players(5) if muted(w, m)] == [w.ann, w.bo, w.cy, w.di]
    set_bot_permission(w, mute_members=True)  # granted again: nobody waits for a next game
    await w.settle()
    assert all(muted(w, m) is False for m in w.players(5))
    assert await w.bot.store.muted_by_game(game_id) == []


async def test_a_member_above_the_bot_is_named_and_not_asked_for_at_every_turn(table):
    w = table
    w.players(5)
    elders = w.guild.create_role("Elders", position=bot_role(w).position + 5)
    w.env.backend.add_member_role(w.guild.id, w.di.id, elders.id)
    await w.settle()
    game_id = await seated(w)
    assert muted(w, w.di) is False and muted(w, w.cy) is True
    for _ in range(2):
        await next_turn(w)
    assert edits_of(w, w.di) == 1  # refused once, not asked again at each turn
    told = host_dms(w)
    assert "mute **di**" in told and "**Elders**" in told, told
    assert "Mute Members" not in told
    assert (await w.bot.store.game(game_id)).status == "running"


async def test_a_player_promoted_above_the_bot_is_named_and_unmuted_once_the_bot_is_moved_up(table):
    w = table
    game_id = await seated(w)
    assert muted(w, w.di) is True
    elders = w.guild.create_role("Elders", position=bot_role(w).position + 5)
    w.env.backend.add_member_role(w.guild.id, w.di.id, elders.id)  # (the bot does not follow member updates)
    await w.settle()
    await turn_of(w, game_id, w.di.id)
    assert muted(w, w.di) is True  # Discord refuses: her role is above the bot's
    told = host_dms(w)
    assert "**di** stays server-muted" in told and "**Elders**" in told, told
    w.env.backend.edit_role(w.guild.id, bot_role(w).id, {"position": 50})
    await w.settle()
    assert muted(w, w.di) is False  # her turn: unmuted as soon as the bot may
    assert w.di.id not in await w.bot.store.muted_by_game(game_id)


# ----- item 7: Connect -----

async def test_with_connect_denied_in_the_channel_the_host_is_told_connect(table):
    w = table
    me = w.bot.get_guild(w.guild.id).me
    w.env.backend.set_overwrite(w.vc.id, Overwrite(target_id=me.id, type=1, deny=discord.Permissions(connect=True).value))
    for m in w.players(5):
        await m.join_voice(w.vc)
    players = w.players(5)
    res = await w.host.slash(w.channel, "game new", kind="ritual", options="speaking_turns=true")
    for m in players[1:]:
        await m.click(res.response, label="Join")
    res = await w.host.click(res.response, label="Start")
    await w.settle()
    told = " ".join([res.response.content or ""] + [f.content or "" for f in res.followups] + w.dm_texts(w.host))
    assert "Connect" in told and "Mute Members" not in told and "Speak" not in told, told


async def test_connect_denied_mid_game_names_connect_and_its_return_catches_up(table):
    w = table
    await seated(w)
    me = w.bot.get_guild(w.guild.id).me
    w.env.backend.set_overwrite(w.vc.id, Overwrite(target_id=me.id, type=1, deny=discord.Permissions(connect=True).value))
    await w.settle()
    told = host_dms(w)  # told at once: four players are muted by the game
    assert "**Connect**" in told and "Mute Members" not in told, told
    assert "**ann, bo, cy and di** stay server-muted" in told, told
    await next_turn(w)
    assert muted(w, w.ann) is True  # her turn, but the bot may not unmute her
    w.env.backend.delete_overwrite(w.vc.id, me.id)
    await w.settle()
    assert muted(w, w.ann) is False and muted(w, w.host) is True


# ----- item 8: a restart -----

async def test_a_restarted_bot_unmutes_who_came_back_muted_while_it_was_down(table, db_path, clock):
    from support.sim import new_bot
    w = table
    game_id = await seated(w)
    await w.cy.leave_voice()
    await cancel(w)
    assert await w.bot.store.muted_by_game(game_id) == [w.cy.id]
    held = HeldVoiceEvents(w)  # the bot is down: it never hears that Cy came back
    await rejoin(w, w.cy, w.vc)
    subscribers = w.env.backend.subscribers
    subscribers[subscribers.index(held.hold)] = held.feed
    assert muted(w, w.cy) is True
    old = w.bot
    await w.env.restart_bot(new_bot(db_path, clock))
    await old.store.close()
    await w.settle()
    assert muted(w, w.cy) is False
    assert await w.bot.store.muted_by_game(game_id) == []
