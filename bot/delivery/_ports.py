"""What delivery uses of the bot, as a Protocol: delivery is typed by it, so it never imports the
bot class (which imports delivery)."""

from __future__ import annotations

from typing import Protocol

import discord
from discord.http import HTTPClient

from ..clock import Clock
from ..config import Settings
from ..service import GameService
from ..store import Store
from ..voice.mutes import VoiceTable


class Bot(Protocol):
    """The running bot, as delivery sees it: its settings, store, game service and clock, and the
    client's channel look-ups."""

    settings: Settings
    store: Store
    service: GameService
    clock: Clock
    voice: VoiceTable

    @property
    def http(self) -> HTTPClient: ...  # (an archived thread is edited by id, with no fetch)

    @property
    def user(self) -> discord.ClientUser | None: ...  # (None until logged in)

    def get_channel(self, id: int, /) -> discord.abc.GuildChannel | discord.Thread | discord.abc.PrivateChannel | None: ...

    async def fetch_channel(self, channel_id: int, /) -> discord.abc.GuildChannel | discord.abc.PrivateChannel | discord.Thread: ...

    def get_partial_messageable(self, id: int, *, guild_id: int | None = None,
                                type: discord.ChannelType | None = None) -> discord.PartialMessageable: ...

    async def create_dm(self, user: discord.abc.Snowflake) -> discord.DMChannel: ...
