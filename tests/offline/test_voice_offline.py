"""The offline table's voice channel: every player sits in it, /game new links it, and the hub's
voice panel shows who Discord has server-muted and what the bot said aloud (never a secret)."""

import html
import re

import aiohttp

from bot.offline.world import VOICE_NAME, stable_id
from games.ritual import data as ritual_data

OPTIONS = "speaking_turns=true turn_seconds=120"


async def start_ritual(table, options=OPTIONS):
    """The host opens a Ritual in #table, the others join, the host starts. Returns the game row."""
    w = table.world
    async with table.acting():
        lobby = (await w.host.slash(w.channel, "game new", kind="ritual", options=options)).response
        for member in w.players[1:]:
            await member.click(lobby, label="Join")
        await w.host.click(lobby, label="Start")
        await table.env.settle()
    return (await table.bot.store.active_games(w.guild.id))[0]


def muted(table, member):
    state = table.env.backend.get_guild(table.world.guild.id).voice_states.get(member.id)
    return None if state is None else state.mute


async def speaker(table, game_id):
    loaded = await table.bot.service.load(game_id)
    return int(loaded.game.speaking_turn(loaded.state).speaker)


async def voice_panel(table) -> str:
    """The hub's index page, cut down to its voice panel."""
    async with aiohttp.ClientSession() as http, http.get(table.hub_url) as r:
        assert r.status == 200
        page = await r.text()
    match = re.search(r"<h2>Voice channel.*?</div>", page, re.S)
    assert match, page
    return match.group(0)


def listed(panel: str) -> dict[str, bool]:
    """Who the panel lists in the channel, and whether it says they are server-muted."""
    people = re.search(r'<ul class="players in-voice">(.*?)</ul>', panel, re.S)
    rows = re.findall(r"<li>(.*?)</li>", people.group(1) if people else "", re.S)
    return {row.split(" <")[0]: "server-muted" in row for row in rows}


def heard(panel: str) -> list[str]:
    lines = re.search(r'<ol class="heard">(.*?)</ol>', panel, re.S)
    return [html.unescape(re.sub(r"<[^>]+>", "", li))
            for li in re.findall(r"<li>(.*?)</li>", lines.group(1) if lines else "", re.S)]


async def test_every_player_sits_in_the_voice_channel_and_a_new_game_links_it(open_table):
    async with open_table(open_preview=False) as table:
        w = table.world
        assert w.voice.name == VOICE_NAME and w.voice.id == stable_id("channel", VOICE_NAME)
        assert all(muted(table, m) is False for m in w.players)  # in voice, nobody muted
        panel = await voice_panel(table)
        assert listed(panel) == {"Ann": False, "Bo": False, "Cy": False}
        assert "Nothing said yet" in panel
        async with table.acting():
            await w.host.slash(w.channel, "game new", kind="ritual")
        row = (await table.bot.store.active_games(w.guild.id))[0]
        assert row.voice_channel_id == w.voice.id  # the host's channel, as on Discord


async def test_the_hub_shows_who_is_muted_and_what_was_said_never_a_secret(open_table):
    async with open_table(open_preview=False) as table:
        w = table.world
        row = await start_ritual(table)
        now = await speaker(table, row.id)
        # the bot muted everyone but the speaker, on simcord's Discord
        assert {m.id: muted(table, m) for m in w.players} == {m.id: m.id != now for m in w.players}
        panel = await voice_panel(table)
        names = {m.id: m.user.global_name for m in w.players}
        assert listed(panel) == {names[m.id]: m.id != now for m in w.players}
        lines = heard(panel)
        secrets = {role.name.lower() for role in ritual_data.load().roles.values()} | {"corrupted"}
        assert not [line for line in lines if any(s in line.lower() for s in secrets)], lines
        said = table.narrator.said(row.id)
        assert said and "Choosing" in said[0]
        assert all(f"game #{row.id}:" in line for line in lines)
        assert [line.split(f"game #{row.id}:", 1)[1].strip() for line in lines] == said  # in order
        # the next turn: the panel follows the mutes Discord has now
        async with table.acting():
            await w.host.slash(w.channel, "mod skip-turn")
            await table.env.settle()
        after = await speaker(table, row.id)
        assert after != now
        panel = await voice_panel(table)
        assert listed(panel) == {names[m.id]: m.id != after for m in w.players}
        assert heard(panel)[-1].endswith(f"{names[after]}, you have the floor.")  # newest last


async def test_after_a_restart_the_players_sit_down_again_and_the_silenced_are_muted(open_table):
    async with open_table(open_preview=False, announce=False) as table:
        row = await start_ritual(table)
        now = await speaker(table, row.id)
    async with open_table(open_preview=False, announce=False) as table:
        w = table.world
        assert await speaker(table, row.id) == now  # the same turn runs
        assert {m.id: muted(table, m) for m in w.players} == {m.id: m.id != now for m in w.players}
        names = {m.id: m.user.global_name for m in w.players}
        assert listed(await voice_panel(table)) == {names[m.id]: m.id != now for m in w.players}


def drawn(snapshot) -> tuple[list[str], list[str]]:
    """What the page draws: the text of every text token, and the label of every mention token."""
    texts, labels = [], []

    def walk(node):
        if isinstance(node, dict):
            if node.get("type") == "text" and isinstance(node.get("content"), str):
                texts.append(node["content"])
            if node.get("type") == "mention":
                labels.append(node["label"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(snapshot)
    return texts, labels


async def test_the_voice_line_and_the_speakers_line_show_names_not_ids(open_table):
    """The lobby's voice line (``<#id>``) and the speaker's line (``<@id>``) are embed fields: the
    page draws them as #table-voice and @name, as Discord does, never as raw ids."""
    async with open_table() as table:
        w = table.world
        async with table.acting():
            lobby = (await w.host.slash(w.channel, "game new", kind="ritual", options=OPTIONS)).response
            texts, labels = drawn(await table.preview.snapshot())
        assert f"#{VOICE_NAME}" in labels, labels  # the lobby's voice line
        async with table.acting():
            for member in w.players[1:]:
                await member.click(lobby, label="Join")
            await w.host.click(lobby, label="Start")
            await table.env.settle()
            more_texts, more_labels = drawn(await table.preview.snapshot())
        assert {"@Ann", "@Bo", "@Cy"} & set(more_labels), more_labels  # the speaker named
        raw = [t for t in texts + more_texts if re.search(r"<[#@]!?\d+>", t)]
        assert not raw, raw
