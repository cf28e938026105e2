"""What the host learns when a game is linked to a voice channel (``/game voice``, ``/game new``):
the voice options in effect, and at once, not only at the start, any permission the bot lacks in
that channel for them, in the words of the start's check (``VoiceTable.check_at_start``)."""

from __future__ import annotations

from typing import Any

import games

from ..store import GameRow
from .mutes import lacking_in_words
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
    game = games.get(row.kind)
    options = game.parse_options(row.options)
    told = lacking_in_words(bot, row, mutes=game.mutes_by_options(options),
                            speaks=bool(getattr(options, "narrate", False)))  # (as Game.narrated reads it)
    return " ".join(told.values()) or None
