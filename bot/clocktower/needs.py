"""What the Clocktower's commands and panel need of the bot (a Protocol: the feature package does
not import the bot's class)."""

from __future__ import annotations

from typing import Any, Protocol

from ..service import GameService
from ..store import Store


class ClocktowerBot(Protocol):
    service: GameService
    store: Store
    play: Any  # start_game, seated_table
    delivery: Any  # sync_storytellers
    tree: Any  # the members' menus (the "Whisper" entry)
