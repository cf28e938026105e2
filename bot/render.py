"""Turning events into Discord messages within Discord's limits."""

from __future__ import annotations

import discord

from games.engine import Event

CONTENT_LIMIT = 2000
EMBED_DESCRIPTION_LIMIT = 4096
EMBED_TITLE_LIMIT = 256
EMBED_TOTAL_LIMIT = 6000
#: the text of one message's embed: under 4,096, and with a title (256) and a footer under 6,000
PART_LIMIT = 4000

COLOURS = {
    "public": discord.Colour.dark_purple(),
    "player": discord.Colour.dark_teal(),
    "team": discord.Colour.dark_red(),
    "storyteller": discord.Colour.gold(),
}


def chunks(text: str, limit: int) -> list[str]:
    """Split ``text`` into pieces of at most ``limit`` characters, at line breaks where possible."""
    pieces: list[str] = []
    rest = text
    while len(rest) > limit:
        cut = rest.rfind("\n", 0, limit)
        if cut <= 0:
            cut = rest.rfind(" ", 0, limit)
        if cut <= 0:
            cut = limit
        pieces.append(rest[:cut])
        rest = rest[cut:].lstrip("\n")
    if rest or not pieces:
        pieces.append(rest)
    return pieces


def message_parts(event: Event, game_title: str, game_id: int) -> list[discord.Embed]:
    """The event as one embed per Discord message (usually one). A long text is cut at line breaks
    into parts of at most ``PART_LIMIT`` characters, so each message stays within every limit
    (4,096 per description, 6,000 for all of a message's embeds) and nothing is dropped."""
    parts = chunks(event.text or "\u200b", PART_LIMIT)
    out = []
    for index, part in enumerate(parts):
        embed = discord.Embed(description=part, colour=COLOURS.get(event.audience.kind))
        if index == 0 and event.title:
            embed.title = event.title[:EMBED_TITLE_LIMIT]
        footer = f"{game_title[:100]} · game #{game_id}"
        if len(parts) > 1:
            footer += f" · {index + 1}/{len(parts)}"
        embed.set_footer(text=footer)
        out.append(embed)
    return out


def relative_time(unix: float) -> str:
    """A Discord timestamp that counts down on every client with no edits."""
    return f"<t:{int(unix)}:R>"


def duration(seconds: float) -> str:
    """``4500`` -> ``"1 h 15 min"``."""
    seconds = int(round(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    parts = [f"{hours} h"] * bool(hours) + [f"{minutes} min"] * bool(minutes) + [f"{secs} s"] * bool(secs)
    return " ".join(parts) or "no time"


def group_embeds(events: list[Event], game_title: str, game_id: int) -> list[discord.Embed]:
    """Several short events as one message: a titled event opens an embed, an untitled one is
    added to the embed before it. The footer goes on the last."""
    embeds: list[discord.Embed] = []
    for event in events:
        text = event.text or "\u200b"
        if event.title or not embeds:
            embeds.append(discord.Embed(title=event.title[:EMBED_TITLE_LIMIT] or None, description=text,
                                        colour=COLOURS.get(event.audience.kind)))
        else:
            embeds[-1].description = f"{embeds[-1].description}\n\n{text}"
    embeds[-1].set_footer(text=f"{game_title[:100]} · game #{game_id}")
    return embeds
