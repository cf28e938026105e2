"""The bot: wires the store, the game service, timers, delivery, cogs and persistent components."""

from __future__ import annotations

import logging

import discord
from discord.ext import commands

from .clock import Clock, SystemClock
from .cogs.moderation import Moderation
from .cogs.tables import Tables
from .config import Settings
from .delivery import Delivery
from .play import Play
from .service import GameService
from .store import Store
from .views import ChoiceButton, ChoiceSelect, TableButton

log = logging.getLogger(__name__)


class StorytellerBot(commands.Bot):
    def __init__(self, settings: Settings, *, clock: Clock | None = None, sync_commands: bool = True,
                 use_scheduler: bool = True, **kwargs) -> None:
        intents = kwargs.pop("intents", None) or discord.Intents.default()
        super().__init__(command_prefix=commands.when_mentioned, intents=intents,
                         help_command=None, **kwargs)
        self.settings = settings
        self.clock = clock or SystemClock()
        self.sync_commands = sync_commands
        self.use_scheduler = use_scheduler
        self.play = Play(self)
        self.delivery = Delivery(self)
        self._resumed = False

    async def setup_hook(self) -> None:
        self.store = await Store.open(self.settings.database_path)
        self.service = GameService(self.store, self.clock, on_messages=self.delivery.kick)
        self.add_dynamic_items(TableButton, ChoiceSelect, ChoiceButton)
        await self.add_cog(Tables(self))
        await self.add_cog(Moderation(self))
        if self.use_scheduler:
            self.service.timers.start()
        if self.sync_commands:
            if self.settings.dev_guild_id:
                guild = discord.Object(id=self.settings.dev_guild_id)
                self.tree.copy_global_to(guild=guild)
                await self.tree.sync(guild=guild)
            else:
                await self.tree.sync()

    async def on_ready(self) -> None:
        if self._resumed:
            return
        self._resumed = True
        armed = await self.service.rearm_all()
        log.info("ready as %s; %d game timer(s) re-armed", self.user, armed)
        await self.delivery.drain_all()

    async def close(self) -> None:
        if hasattr(self, "service"):
            self.service.timers.shutdown()
        if hasattr(self, "store"):
            await self.store.close()
        await super().close()
