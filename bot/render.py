"""Turning events into Discord messages within Discord's limits."""

from __future__ import annotations

import discord

from games.engine import Event

CONTENT_LIMIT = 2000
EMBED_DESCRIPTION_LIMIT = 4096
EMBED_TITLE_LIMIT = 256

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


def embeds_for(event: Event, game_title: str, game_id: int) -> list[discord.Embed]:
    """One embed per 4096 characters of the event's text (usually one)."""
    parts = chunks(event.text or "\u200b", EMBED_DESCRIPTION_LIMIT)
    out = []
    for index, part in enumerate(parts):
        embed = discord.Embed(description=part, colour=COLOURS.get(event.audience.kind))
        if index == 0 and event.title:
            embed.title = event.title[:EMBED_TITLE_LIMIT]
        out.append(embed)
    out[-1].set_footer(text=f"{game_title} · game #{game_id}")
    return out[:10]


def relative_time(unix: float) -> str:
    """A Discord timestamp that counts down on every client with no edits."""
    return f"<t:{int(unix)}:R>"
