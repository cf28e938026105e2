"""What the host learns when a game is linked to a voice channel (``/game voice``, ``/game new``):
the voice options in effect, and at once, not only at the start, any permission the bot lacks in
that channel for them, in the words of the start's check (``VoiceTable.check_at_start``)."""

from __future__ import annotations

from typing import Any

import games

from ..store import GameRow
from .mutes import MUTE_PERMISSIONS, SPEAK_PERMISSIONS, voice_lacking, what_missing
from .table import options_line, voice_options


def options_words(row: GameRow) -> str:
    """The line under the link answer: the game's voice options as in effect ("" when it has none)."""
    values = voice_options(games.get(row.kind), row.options)
    return f"Voice options: {options_line(values)}." if values else ""


async def link_problem(bot: Any, row: GameRow) -> str | None:
    """What the voice table cannot do in the game's linked channel, in words for the host (None:
    all it needs is granted, or no channel is linked). A running game asks the start's check; a
    game still gathering players has no state yet, and its options say what it will need."""
    if row.status == "running":
        return await bot.voice.check_at_start(row)
    guild = bot.get_guild(row.guild_id)
    channel = guild.get_channel(row.voice_channel_id) if guild and row.voice_channel_id else None
    if channel is None:
        return None
    game = games.get(row.kind)
    values = voice_options(game, row.options)
    parts = []
    if game.mutes_by_options(game.parse_options(row.options)) and (lacking := voice_lacking(channel, guild.me, MUTE_PERMISSIONS)):
        parts.append(what_missing("mute", lacking))
    if values.get("narrate") and (lacking := voice_lacking(channel, guild.me, SPEAK_PERMISSIONS)):
        parts.append(what_missing("speak", lacking))
    return " ".join(parts) or None
