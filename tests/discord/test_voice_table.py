"""The voice table on the real bot and simcord's Discord (issue 29): the linked voice channel,
speaking turns, the dead muted, every path that unmutes (the end, a cancel, a removal, a restart,
a player who left voice and came back), a missing permission, and nobody else touched."""

import contextlib

import discord
import pytest
from support.voice_table import ROLES5, speaker, start_ritual

from bot.voice.narrator import RecordingNarrator
from games.engine import GameError


@pytest.fixture
def table(world):
    """A voice channel 'Table' with the five players in it, a passer-by, and the narrator faked."""
    w = world
    w.vc = w.guild.create_voice_channel("Table")
    w.other_vc = w.guild.create_voice_channel("Lounge")
    w.passer = w.guild.add_member(w.env.create_user("passer"))
    w.heard = RecordingNarrator()
    w.bot.voice.narrator = w.heard
    return w


def muted(w, member) -> bool | None:
    """Whether Discord has the member server-muted (None: not in voice)."""
    state = w.env.backend.get_guild(w.guild.id).voice_states.get(member.id)
    return None if state is None else state.mute


async def seated(w, options: str, n: int = 5, *, all_in_voice: bool = True) -> int:
    """A Ritual of ``n`` in the host's voice channel, roles forced; everyone in voice; started."""
    if all_in_voice:
        for m in [*w.players(n), w.passer]:
            await m.join_voice(w.vc)
    return await start_ritual(w, options, n)




async def test_a_new_game_links_the_hosts_voice_channel_and_the_lobby_shows_who_is_in_it(table):
    w = table
    await w.host.join_voice(w.vc)
    res = await w.host.slash(w.channel, "game new", kind="ritual")
    await w.ann.click(res.response, label="Join")
    row = await w.bot.service.game_in_channel(w.channel.id)
    assert row.voice_channel_id == w.vc.id
    lobby = [m for m in w.channel.history() if m.embeds and "gathering" in (m.embeds[0].title or "")][-1]
    voice = next(f.value for f in lobby.embeds[0].fields if f.name == "Voice")
    assert f"<#{w.vc.id}>" in voice and "in it: host" in voice and "not in it yet: ann" in voice
    # a player may not move it; the host may, and unlink it
    res = await w.ann.slash(w.channel, "game voice", channel=w.other_vc)
    assert res.ephemeral and "Only the host" in res.response.content
    await w.host.slash(w.channel, "game voice", channel=w.other_vc)
    assert (await w.bot.store.game(row.id)).voice_channel_id == w.other_vc.id
    await w.host.slash(w.channel, "game voice")
    assert (await w.bot.store.game(row.id)).voice_channel_id is None


async def test_a_forum_game_links_no_voice_channel_by_itself(table):
    w = table
    await w.host.join_voice(w.vc)
    await w.host.slash(w.channel, "game new", kind="clocktower")
    assert (await w.bot.service.game_in_channel(w.channel.id)).voice_channel_id is None


async def test_speaking_turns_let_only_the_speaker_talk_then_everyone_for_the_vote(table, clock):
    w = table
    players = w.players(5)
    game_id = await seated(w, "speaking_turns=true turn_seconds=10")
    order = []
    for _ in range(5):
        now = await speaker(w, game_id)
        assert now is not None and now not in order
        order.append(now)
        for m in players:
            assert muted(w, m) is (m.id != now), (m, now)
        assert muted(w, w.passer) is False  # a passer-by is never touched
        board = [m for m in w.channel.history() if m.components][-1]
        text = " ".join(e.description or "" for e in board.embeds)
        assert f"<@{now}>" in text and "The turn ends <t:" in text
        clock.advance(10)
        await w.bot.service.fire_due()
        await w.settle()
    assert order == [m.id for m in players]  # seat order, starting with the first seat in round 1
    assert await speaker(w, game_id) is None
    assert all(muted(w, m) is False for m in players)  # everyone speaks for the vote
    assert await w.bot.store.muted_by_game(game_id) == []
    said = [text for _g, _c, text in w.heard.lines]
    assert any("floor" in s for s in said)


async def test_a_moderator_skips_a_turn_and_a_player_cannot(table):
    w = table
    game_id = await seated(w, "speaking_turns=true turn_seconds=30")
    first = await speaker(w, game_id)
    res = await w.ann.slash(w.channel, "mod skip-turn")
    assert res.ephemeral and await speaker(w, game_id) == first
    res = await w.admin.slash(w.channel, "mod skip-turn")
    await w.settle()
    assert "speaking turn" in res.response.content
    now = await speaker(w, game_id)
    assert now != first and muted(w, w.host) is True and muted(w, w.ann) is False


async def burn(w, game_id, victim):
    """The host performs; a TAINTED ritual (the Performer lives); the Council burns ``victim``."""
    players = w.players(5)
    for m in players:
        await w.bot.service.act(game_id, m.id, {"type": "vote_performer", "player": str(m.id), "target": str(w.host.id)})
    await w.settle()
    offers = {"guardian": "mandrake_root", "seer": "crystal_salt", "hollow_servant": "shadow_ash",
              "chronicler": "raven_feather", "harbinger": "iron_thorn"}
    for m, role in zip(players, ROLES5, strict=True):
        await w.bot.service.act(game_id, m.id, {"type": "offer", "player": str(m.id), "ingredient": offers[role]})
    await w.settle()
    state = (await w.bot.service.load(game_id)).state
    assert state.phase == "council", state.phase
    for m in players:
        target = victim if m != victim else w.ann
        await w.bot.service.act(game_id, m.id, {"type": "vote_burn", "player": str(m.id), "target": str(target.id)})
    await w.settle()


async def test_the_dead_fall_silent_and_speak_again_at_the_end(table):
    w = table
    game_id = await seated(w, "mute_dead=true")
    assert all(muted(w, m) is False for m in w.players(5))
    await burn(w, game_id, w.bo)
    state = (await w.bot.service.load(game_id)).state
    assert str(w.bo.id) in state.dead
    assert muted(w, w.bo) is True and muted(w, w.ann) is False and muted(w, w.passer) is False
    await w.admin.slash(w.channel, "mod end")
    await w.settle()
    assert muted(w, w.bo) is False
    assert await w.bot.store.muted_by_game(game_id) == []


async def cancel_and_see_everyone_unmuted(w, game_id):
    """The host cancels: every seated player speaks again and no mute row is left."""
    await w.host.slash(w.channel, "game cancel")
    await w.settle()
    assert all(muted(w, m) is False for m in w.players(5))
    assert await w.bot.store.muted_by_game(game_id) == []


async def test_a_cancel_unmutes_everyone(table):
    w = table
    game_id = await seated(w, "speaking_turns=true")
    assert sum(bool(muted(w, m)) for m in w.players(5)) == 4
    await cancel_and_see_everyone_unmuted(w, game_id)


async def test_a_removed_player_is_unmuted(table):
    w = table
    game_id = await seated(w, "speaking_turns=true")
    assert muted(w, w.di) is True
    await w.admin.slash(w.channel, "mod remove", player=w.di)  # the Harbinger: the game goes on
    await w.settle()
    assert (await w.bot.store.game(game_id)).status == "running"
    assert muted(w, w.di) is False and muted(w, w.cy) is True
    assert w.di.id not in await w.bot.store.muted_by_game(game_id)


async def test_a_restart_between_the_mute_and_the_end_still_unmutes(table, db_path, clock):
    from support.sim import new_bot
    w = table
    game_id = await seated(w, "speaking_turns=true")
    assert muted(w, w.di) is True
    old = w.bot
    await w.env.restart_bot(new_bot(db_path, clock))
    await old.store.close()
    w.bot.voice.narrator = w.heard
    await w.settle()
    await cancel_and_see_everyone_unmuted(w, game_id)


async def test_a_player_who_left_voice_is_unmuted_when_they_come_back(table):
    w = table
    game_id = await seated(w, "speaking_turns=true")
    assert muted(w, w.di) is True
    await w.di.leave_voice()
    await w.host.slash(w.channel, "game cancel")
    await w.settle()
    assert await w.bot.store.muted_by_game(game_id) == [w.di.id]  # Discord cannot unmute them now
    await w.di.join_voice(w.other_vc)  # any voice channel of the server, later
    await w.settle()
    assert muted(w, w.di) is False
    assert await w.bot.store.muted_by_game(game_id) == []


async def test_a_silenced_player_who_joins_late_is_muted_and_unmuted_when_they_walk_away(table):
    w = table
    game_id = await seated(w, "speaking_turns=true", all_in_voice=False)
    await w.host.join_voice(w.vc)
    await w.host.slash(w.channel, "game voice", channel=w.vc)  # linked once the game runs
    await w.settle()
    first = await speaker(w, game_id)
    for m in w.players(5)[1:]:
        await m.join_voice(w.vc)
        await w.settle()
        assert muted(w, m) is (m.id != first)
    await w.cy.join_voice(w.other_vc)  # away from the table: not the game's to silence there
    await w.settle()
    assert muted(w, w.cy) is False


async def test_without_mute_members_the_game_goes_on_and_the_host_is_told(table):
    w = table
    bot_role = next(r for r in w.env.backend.get_guild(w.guild.id).roles.values() if r.name == "TestBot")
    perms = discord.Permissions(bot_role.permissions)
    perms.mute_members = False
    w.env.backend.edit_role(w.guild.id, bot_role.id, {"permissions": perms.value})
    players = w.players(5)
    for m in players:
        await m.join_voice(w.vc)
    res = await w.host.slash(w.channel, "game new", kind="ritual", options="speaking_turns=true")
    for m in players[1:]:
        await m.click(res.response, label="Join")
    res = await w.host.click(res.response, label="Start")
    await w.settle()
    told = [res.response.content or ""] + [f.content or "" for f in res.followups]
    row = await w.bot.service.game_in_channel(w.channel.id)
    assert row.status == "running"
    assert all(not muted(w, m) for m in players)
    assert any("Mute Members" in t for t in told + w.dm_texts(w.host)), told


SECRET_WORDS = ("guardian", "seer", "chronicler", "hollow", "harbinger", "deceiver", "revenant", "corrupt")


async def test_the_phases_are_said_aloud_after_their_message_never_a_secret_and_never_holding_the_clock(table, clock):
    w = table
    game_id = await seated(w, "")
    row = await w.bot.store.game(game_id)
    assert row.deadline == clock.now() + 90  # the Choosing's whole time: narration takes none of it
    heard = [text for g, channel, text in w.heard.lines if g == game_id and channel == w.vc.id]
    assert heard and "Choosing" in heard[0]
    await burn(w, game_id, w.bo)
    heard = [text for g, _c, text in w.heard.lines if g == game_id]
    assert any("Council" in line for line in heard)
    assert not [line for line in heard if any(word in line.lower() for word in SECRET_WORDS)]
    await w.admin.slash(w.channel, "mod end")
    await w.settle()
    assert w.heard.finished == [(w.guild.id, game_id)]  # the narrator leaves once the last words are said


async def test_narrate_false_says_nothing(table):
    w = table
    await seated(w, "narrate=false")
    assert w.heard.lines == []


async def test_a_cancelled_game_stops_the_narrator_at_once(table):
    w = table
    game_id = await seated(w, "")
    await w.host.slash(w.channel, "game cancel")
    await w.settle()
    assert w.heard.stopped == [(w.guild.id, game_id)]


async def test_a_channel_unlinked_mid_game_is_still_left_at_the_end(table):
    w = table
    game_id = await seated(w, "")
    assert w.heard.said(game_id)  # the narrator has joined the table's channel
    await w.host.slash(w.channel, "game voice")  # unlinked: nothing more is said
    await w.settle()
    await w.admin.slash(w.channel, "mod end")
    await w.settle()
    assert w.heard.finished == [(w.guild.id, game_id)]  # it leaves, not kept in the channel forever


async def test_the_council_is_not_said_before_the_table_sees_it(table):
    import asyncio
    w = table
    game_id = await seated(w, "")
    players = w.players(5)
    for m in players:
        await w.bot.service.act(game_id, m.id, {"type": "vote_performer", "player": str(m.id), "target": str(w.host.id)})
    await w.settle()
    board = w.bot.delivery.board
    real_pause, held, release = board.pause, asyncio.Event(), asyncio.Event()

    async def pause(event):  # the reveal stops at its first pause, before the Council's message
        held.set()
        await w.env.external_wait(release.wait(), reason="the test holds the reveal")
        await real_pause(event)

    offers = ["crystal_salt", "shadow_ash", "raven_feather", "iron_thorn"]
    for m, ingredient in zip(players[1:], offers, strict=True):
        await w.bot.service.act(game_id, m.id, {"type": "offer", "player": str(m.id), "ingredient": ingredient})
    await w.settle()
    offering = [m for m in w.channel.history() if m.components][-1]
    prompt = (await w.host.click(offering, label="Make my choice")).response
    board.pause = pause
    await w.host.select(prompt, ["mandrake_root"])  # the last offering: the ritual unfolds
    await held.wait()
    assert (await w.bot.service.load(game_id)).state.phase == "council"
    assert not any("Council" in text for _g, _c, text in w.heard.lines)  # not yet: the table has not seen it
    release.set()
    board.pause = real_pause
    await w.settle()
    assert any("Council" in text for _g, _c, text in w.heard.lines)


async def act_at_random(w, game_id, rng) -> None:
    """Every player who may act makes one random legal choice (a speaking turn aside)."""
    table = await w.bot.service.load(game_id)
    mine: dict[str, list] = {}
    for action in table.game.legal_actions(table.state):
        if action.type != "turn_over":
            mine.setdefault(action.player, []).append(action)
    for player, actions in mine.items():
        with contextlib.suppress(GameError):  # the phase moved on meanwhile
            await w.bot.service.act(game_id, int(player), rng.choice(actions).model_dump(exclude_none=True))
    await w.settle()


async def test_a_quiet_night_in_the_cauldron_mutes_the_table_until_day(table):
    import random
    w = table
    players = w.players(5)
    for m in [*players, w.passer]:
        await m.join_voice(w.vc)
    res = await w.host.slash(w.channel, "game new", kind="cauldron", options="night_quiet=true")
    for m in players[1:]:
        await m.click(res.response, label="Join")
    await w.host.click(res.response, label="Start")
    await w.settle()
    game_id = (await w.bot.service.game_in_channel(w.channel.id)).id
    assert (await w.bot.service.load(game_id)).state.phase == "night"
    assert all(muted(w, m) is True for m in players) and muted(w, w.passer) is False
    rng = random.Random(5)
    for _ in range(20):
        if (await w.bot.service.load(game_id)).state.phase == "day":
            break
        await act_at_random(w, game_id, rng)
    assert (await w.bot.service.load(game_id)).state.phase == "day"
    assert all(muted(w, m) is False for m in players)
    said = [text for _g, _c, text in w.heard.lines]
    assert any("Night" in s for s in said) and any("Day breaks" in s for s in said)


async def test_without_connect_and_speak_nothing_is_said_and_the_host_is_told(table):
    w = table
    players = w.players(3)
    for m in players:
        await m.join_voice(w.vc)
    guild = w.env.backend.get_guild(w.guild.id)
    for role in guild.roles.values():  # the server takes Connect and Speak away from everyone, the bot too
        if role.name in ("@everyone", "TestBot"):
            perms = discord.Permissions(role.permissions)
            perms.connect = perms.speak = False
            w.env.backend.edit_role(w.guild.id, role.id, {"permissions": perms.value})
    res = await w.host.slash(w.channel, "game new", kind="ritual", voice=w.vc)
    for m in players[1:]:
        await m.click(res.response, label="Join")
    res = await w.host.click(res.response, label="Start")
    await w.settle()
    told = [res.response.content or ""] + [f.content or "" for f in res.followups]
    assert any("Connect and Speak" in t for t in told), told
    assert not any("Mute Members" in t for t in told)  # no option mutes anyone here: not asked for
    assert w.heard.lines == []
    assert (await w.bot.service.game_in_channel(w.channel.id)).status == "running"


async def test_a_pause_holds_the_speaking_turn_and_the_resume_gives_a_whole_turn(table, clock):
    w = table
    game_id = await seated(w, "speaking_turns=true turn_seconds=10")
    first = await speaker(w, game_id)
    clock.advance(4)
    await w.admin.slash(w.channel, "mod pause")
    assert (await w.bot.store.game(game_id)).turn_deadline is None
    clock.advance(60)
    await w.bot.service.fire_due()
    await w.settle()
    assert await speaker(w, game_id) == first  # the floor did not move while paused
    await w.admin.slash(w.channel, "mod resume")
    assert (await w.bot.store.game(game_id)).turn_deadline == clock.now() + 10
    clock.advance(10)
    await w.bot.service.fire_due()
    await w.settle()
    assert await speaker(w, game_id) != first


async def test_a_forum_game_refuses_a_voice_channel_in_words(table):
    w = table
    await w.host.slash(w.channel, "game new", kind="clocktower")
    res = await w.host.slash(w.channel, "game voice", channel=w.vc)
    assert res.ephemeral and "played in text" in res.response.content
    assert (await w.bot.service.game_in_channel(w.channel.id)).voice_channel_id is None


async def test_linking_in_the_lobby_answers_once_with_the_sheet_up_to_date(table):
    w = table
    await w.host.slash(w.channel, "game new", kind="ritual")
    before = len(w.channel.history())
    await w.host.slash(w.channel, "game voice", channel=w.vc)
    said = [m for m in w.channel.history()[before:] if "is played in" in (m.content or "")]
    assert len(said) == 1
    lobby = [m for m in w.channel.history() if m.embeds and "gathering" in (m.embeds[0].title or "")][-1]
    assert f"<#{w.vc.id}>" in next(f.value for f in lobby.embeds[0].fields if f.name == "Voice")
