"""What the offline table's voice channel "hears": simcord carries no audio, so the table's bot
gets a narrator that writes down each line it would have said, with the time, for the hub's
voice panel. The bot decides what is said exactly as on Discord; only the speaking is left out."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from bot.voice.narrator import RecordingNarrator

#: lines kept for the hub (the panel shows the newest of them)
KEPT = 200


@dataclass(frozen=True)
class HeardLine:
    at: float  # unix time the bot asked for the line
    game_id: int
    channel_id: int
    text: str


class TableNarrator(RecordingNarrator):
    """A ``RecordingNarrator`` that keeps the last ``KEPT`` lines, each with its time."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        super().__init__()
        self.clock = clock
        self.heard: deque[HeardLine] = deque(maxlen=KEPT)

    def say(self, guild_id: int, channel_id: int, game_id: int, text: str, *,
            phase_seq: int | None = None, slot: str | None = None) -> None:
        super().say(guild_id, channel_id, game_id, text, phase_seq=phase_seq, slot=slot)
        del self.lines[:-KEPT]  # the table may run for days: remember a bounded tail
        self.heard.append(HeardLine(self.clock(), game_id, channel_id, text))

    def last(self, channel_id: int, count: int = 20) -> list[HeardLine]:
        """The newest ``count`` lines said in ``channel_id``, oldest first."""
        return [line for line in self.heard if line.channel_id == channel_id][-count:]
