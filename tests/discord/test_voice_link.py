"""Linking a game to a voice channel (issue 36, items 4 and 7): one voice channel is one live
game's table (a second game is refused in words, naming the first and its channel; `/game new`'s
automatic link opens the game unlinked and says why); the link answer shows the voice options and
tells at once of a permission the bot lacks there; a line whose phase has passed is not said."""

import asyncio

import discord
import pytest
from support.audio import tone
from support.waiting import until

from bot.actor import Actor
from bot.voice.narrator import DiscordNarrator, RecordingNarrator


@pytest.fixture
def table(world):
    """Two text channels, a voice channel 'Table' and a 'Lounge', and the narrator faked."""
    w = world
    w.vc = w.guild.create_voice_channel("Table")
    w.other_vc = w.guild.create_voice_channel("Lounge")
    w.second = w.guild.create_text_channel("games-2")
    w.heard = RecordingNarrator()
    w.bot.voice.narrator = w.heard
    return w


def answers(res) -> list[str]:
    return [res.response.content or ""] + [f.content or "" for f in res.followups]


async def open_game(w, channel, options: str = "", **kw):
    res = await w.host.slash(channel, "game new", kind="ritual", options=options, **kw)
    return res


async def started(w, channel, options: str = "", n: int = 3) -> int:
    """A Ritual of ``n`` in ``channel``, linked to the Table, started."""
    players = w.players(n)
    res = await open_game(w, channel, options, voice=w.vc)
    for m in players[1:]:
        await m.click(res.response, label="Join")
    game_id = (await w.bot.service.game_in_channel(channel.id)).id
    await w.bot.service.start(game_id, Actor(id=w.host.id, name="host"))
    await w.settle()
    return game_id


# ----- one voice channel, one game -----
async def test_a_voice_channel_of_a_running_game_is_refused_to_another_naming_it(table):
    w = table
    first = await started(w, w.channel)
    await open_game(w, w.second)
    res = await w.host.slash(w.second, "game voice", channel=w.vc)
    said = res.response.content
    assert res.ephemeral and f"game #{first}" in said and f"<#{w.channel.id}>" in said and "running" in said
    second = await w.bot.service.game_in_channel(w.second.id)
    assert second.voice_channel_id is None
    await w.host.slash(w.second, "game voice", channel=w.other_vc)  # another channel is free
    assert (await w.bot.store.game(second.id)).voice_channel_id == w.other_vc.id


async def test_a_voice_channel_of_a_game_in_its_lobby_is_refused_too_and_free_once_it_ends(table):
    w = table
    await open_game(w, w.channel, voice=w.vc)
    first = await w.bot.service.game_in_channel(w.channel.id)
    res = await open_game(w, w.second, voice=w.vc)  # named: refused, and no game opens
    assert res.ephemeral and f"game #{first.id}" in res.response.content
    assert "gathering players" in res.response.content and f"<#{w.channel.id}>" in res.response.content
    assert [g.id for g in await w.bot.store.active_games(w.guild.id)] == [first.id]
    await w.host.slash(w.channel, "game cancel")
    await w.settle()
    await open_game(w, w.second, voice=w.vc)
    assert (await w.bot.service.game_in_channel(w.second.id)).voice_channel_id == w.vc.id


async def test_the_automatic_link_to_a_taken_channel_opens_the_game_unlinked_and_says_why(table):
    w = table
    first = await started(w, w.channel)
    await w.host.join_voice(w.vc)  # the host sits at the first game's table
    res = await open_game(w, w.second)
    assert not res.ephemeral
    second = await w.bot.service.game_in_channel(w.second.id)
    assert second.voice_channel_id is None
    said = res.response.content
    assert f"game #{first}" in said and f"<#{w.channel.id}>" in said and "/game voice" in said


async def test_a_game_may_link_again_the_channel_it_already_has(table):
    w = table
    game_id = await started(w, w.channel)
    res = await w.host.slash(w.channel, "game voice", channel=w.vc)
    assert not res.ephemeral and "is played in" in res.response.content
    assert (await w.bot.store.game(game_id)).voice_channel_id == w.vc.id


async def test_two_games_linking_one_channel_at_once_get_it_once(table):
    w = table
    await open_game(w, w.channel)
    await open_game(w, w.second)
    a = await w.bot.service.game_in_channel(w.channel.id)
    b = await w.bot.service.game_in_channel(w.second.id)
    host = Actor(id=w.host.id, name="host")
    results = await asyncio.gather(w.bot.service.set_voice_channel(a.id, host, w.vc.id),
                                   w.bot.service.set_voice_channel(b.id, host, w.vc.id), return_exceptions=True)
    assert sum(isinstance(r, Exception) for r in results) == 1
    linked = [g for g in await w.bot.store.active_games(w.guild.id) if g.voice_channel_id == w.vc.id]
    assert len(linked) == 1


# ----- the link answer: the voice options and the permissions at once -----
def take_from_the_bot(w, *flags):
    """The server takes these permissions from the bot's role and from @everyone."""
    for role in list(w.env.backend.get_guild(w.guild.id).roles.values()):
        if role.name in ("@everyone", "TestBot"):
            perms = discord.Permissions(role.permissions)
            for flag in flags:
                setattr(perms, flag, False)
            w.env.backend.edit_role(w.guild.id, role.id, {"permissions": perms.value})


async def test_linking_in_the_lobby_shows_the_voice_options_and_names_a_missing_permission_at_once(table):
    w = table
    take_from_the_bot(w, "mute_members")
    await open_game(w, w.channel, "speaking_turns=true")
    res = await w.host.slash(w.channel, "game voice", channel=w.vc)
    told = answers(res)
    assert any("`speaking_turns=true`" in t and "`narrate=true`" in t for t in told), told
    warned = [f for f in res.followups if "Mute Members" in (f.content or "")]
    assert warned and all(f.flags.ephemeral for f in warned), told  # privately, to the one who linked
    assert (await w.bot.service.game_in_channel(w.channel.id)).status == "lobby"  # before any Start


async def test_linking_a_running_game_checks_the_permissions_at_once(table):
    w = table
    game_id = await started(w, w.channel, "mute_dead=true")
    await w.host.slash(w.channel, "game voice")  # unlinked
    take_from_the_bot(w, "mute_members")
    res = await w.host.slash(w.channel, "game voice", channel=w.vc)
    told = answers(res)
    assert any("`mute_dead=true`" in t for t in told) and any("Mute Members" in t for t in told), told
    assert (await w.bot.store.game(game_id)).voice_channel_id == w.vc.id


async def test_the_automatic_link_of_game_new_shows_the_options_and_the_missing_permission(table):
    w = table
    await w.host.join_voice(w.vc)
    take_from_the_bot(w, "speak")
    res = await open_game(w, w.channel, "mute_dead=true")
    told = answers(res)
    assert "`mute_dead=true`" in res.response.content and "`narrate=true`" in res.response.content
    assert any("please give me **Speak**" in t for t in told), told
    assert not any("Mute Members" in t for t in told)  # granted: not asked for


async def test_nothing_is_asked_for_when_all_is_granted(table):
    w = table
    await w.host.join_voice(w.vc)
    res = await open_game(w, w.channel, "speaking_turns=true")
    assert not any("please give me" in t for t in answers(res))


# ----- a line whose phase has passed is not said -----
def short_tone(text: str) -> bytes:
    return tone(0.05, rate=8000)


class HeldVoice:
    """A voice client that plays the first line until the test lets it end; the rest at once."""

    def __init__(self, channel_id: int):
        self.channel = discord.Object(id=channel_id)
        self.started = 0
        self.held: list = []
        self.hold = True

    def play(self, source, *, after):
        self.started += 1
        source.cleanup()
        if self.hold:
            self.held.append(after)
        else:
            after(None)

    def is_playing(self):
        return bool(self.held)

    def release(self):
        self.hold = False
        while self.held:
            self.held.pop()(None)

    def stop(self):
        self.release()

    async def disconnect(self, *, force=False):
        pass

    async def move_to(self, channel):
        self.channel = discord.Object(id=channel.id)


async def test_a_line_whose_phase_has_passed_is_dropped_not_said_late(table, clock):
    w = table
    spoken: list[str] = []
    voice: list[HeldVoice] = []

    def synthesize(text: str) -> bytes:
        spoken.append(text)
        return short_tone(text)

    async def connect(guild_id, channel_id):
        voice.append(HeldVoice(channel_id))
        return voice[-1]

    narrator = DiscordNarrator(w.bot, connect=connect, synthesize=synthesize)
    w.bot.voice.narrator = narrator
    players = w.players(3)
    for m in players:
        await m.join_voice(w.vc)
    game_id = await started(w, w.channel, "speaking_turns=true turn_seconds=10")
    # the Choosing's line is being said (held), the first turn's is queued
    await until(lambda: voice and voice[0].held, "the Choosing's line held in the voice channel")
    assert voice and voice[0].held and "Choosing" in spoken[0]
    for m in players:  # everyone votes: once the turns are over, the Choosing closes
        await w.bot.service.act(game_id, m.id, {"type": "vote_performer", "player": str(m.id),
                                                "target": str(w.host.id)})
    for _ in range(3):  # the turns run out; the Offering opens
        clock.advance(10)
        await w.bot.service.fire_due()
        await w.settle()
    assert (await w.bot.service.load(game_id)).state.phase == "offering"
    voice[0].release()
    await narrator.wait_quiet()
    later = spoken[1:]
    assert later and "Offering" in later[-1], spoken
    assert not [s for s in later if "floor" in s or "turns are over" in s], spoken  # the Choosing's: passed
    await narrator.close()


async def test_a_living_line_replaced_before_it_is_said_is_dropped_and_other_games_keep_theirs(table):
    spoken: list[str] = []
    voice: list[HeldVoice] = []

    def synthesize(text: str) -> bytes:
        spoken.append(text)
        return short_tone(text)

    async def connect(guild_id, channel_id):
        voice.append(HeldVoice(channel_id))
        return voice[-1]

    n = DiscordNarrator(None, connect=connect, synthesize=synthesize)
    n.say(1, 10, 7, "Round one.", phase_seq=2)
    await until(lambda: voice and voice[0].held, "the first line held in the voice channel")
    n.say(1, 10, 7, "Ann, you have the floor.", phase_seq=2, slot="game:turn:1")
    n.say(1, 10, 8, "Night falls.", phase_seq=5)  # another game at the same server
    n.say(1, 10, 7, "Bo, you have the floor.", phase_seq=2, slot="game:turn:1")
    n.say(1, 10, 7, "A line of an earlier phase.", phase_seq=1)
    voice[0].release()
    await n.wait_quiet()
    assert spoken == ["Round one.", "Night falls.", "Bo, you have the floor."]
    await n.close()


async def test_a_moderator_who_links_is_told_and_the_host_too(table):
    w = table
    take_from_the_bot(w, "mute_members")
    await open_game(w, w.channel, "mute_dead=true")
    res = await w.admin.slash(w.channel, "game voice", channel=w.vc)
    await w.settle()
    assert any("Mute Members" in t for t in answers(res))
    assert any("Mute Members" in t for t in w.dm_texts(w.host))
