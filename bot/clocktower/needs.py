"""What the Clocktower's commands and panel need of the bot (a Protocol: the feature package does
not import the bot's class)."""

from __future__ import annotations

from typing import Any, Protocol

from discord import app_commands

from ..delivery import Delivery
from ..play import Play
from ..service import GameService
from ..store import Store


class ClocktowerBot(Protocol):
    service: GameService
    store: Store
    play: Play  # start_game, seated_table
    delivery: Delivery  # sync_storytellers

    @property
    def tree(self) -> app_commands.CommandTree[Any]: ...  # the members' menus (the "Whisper" entry)
