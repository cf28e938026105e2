"""The bot: wires the store, the game service, timers, delivery, cogs, persistent components and
the feature packages (``bot.features``)."""

from __future__ import annotations

import asyncio
import gc
import logging

import discord
from discord.ext import commands

from .clock import Clock, SystemClock
from .cogs.moderation import Moderation
from .cogs.seats import Seats
from .cogs.tables import Tables
from .config import Settings
from .delivery import Delivery
from .features import setup_features
from .health import HealthServer, serve_health
from .logs import set_shard_count
from .play import Play
from .service import GameService
from .stores import open_store
from .views import ChoiceButton, ChoiceSelect, RemoveButton, TableButton
from .voice.mutes import VoiceTable
from .voice.narrator import DiscordNarrator, Narrator
from .voice.speech import speech_available

log = logging.getLogger(__name__)


class StorytellerBot(commands.AutoShardedBot):
    """The bot: one process runs every shard, or those of SHARD_IDS (several processes on one
    PostgreSQL database, each owning its shards' games)."""

    #: start ``/healthz`` and ``/metrics`` at setup (the offline table starts them itself)
    serves_health = True

    def __init__(self, settings: Settings, *, clock: Clock | None = None, sync_commands: bool = True,
                 use_scheduler: bool = True, narrator: Narrator | None = None, **kwargs) -> None:
        intents = kwargs.pop("intents", None) or discord.Intents.default()
        super().__init__(command_prefix=commands.when_mentioned, intents=intents,
                         help_command=None, shard_count=settings.shard_count,
                         shard_ids=settings.shard_id_list, **kwargs)
        self.settings = settings
        self.clock = clock or SystemClock()
        self.sync_commands = sync_commands
        self.use_scheduler = use_scheduler
        self.play = Play(self)
        #: the voice table (mutes and narration); tests put a recording narrator in its place
        self.voice = VoiceTable(self, narrator if narrator is not None else self._narrator())
        self.delivery = Delivery(self)
        self._resumed = False
        #: set once start-up recovery (timers re-armed, pending messages sent) has succeeded
        self.recovered = asyncio.Event()
        #: ``/healthz`` and ``/metrics`` on HEALTH_PORT (None when it is not set)
        self.health: HealthServer | None = None

    def _narrator(self) -> Narrator | None:
        """The voice that says the phases aloud, where the operator allows it and this machine can
        speak (a local espeak-ng, ffmpeg, Opus); else narration is off and the log says why."""
        if not self.settings.voice_narration:
            return None
        problem = speech_available()
        if problem:
            log.warning("the phases will not be said aloud: %s", problem)
            return None
        return DiscordNarrator(self)

    async def setup_hook(self) -> None:
        if self.serves_health:  # first: it says "not ready" while the rest starts
            self.health = await serve_health(self)
        self.store = await retrying("opening the database", lambda: open_store(
            self.settings.database_url or self.settings.database_path, synchronous=self.settings.sqlite_synchronous))
        self.service = GameService(self.store, self.clock, on_messages=self.delivery.kick,
                                   clock_waits_for_opener=True, shards=self.settings.shards)
        self.service.on_game_over += [self.delivery.forget, self.play.forget, self.voice.forget]
        self.service.RETRY_SECONDS = self.settings.timeout_retry_seconds
        self.add_dynamic_items(TableButton, ChoiceSelect, ChoiceButton, RemoveButton)
        await self.add_cog(Tables(self))
        await self.add_cog(Moderation(self))
        await self.add_cog(Seats(self))
        await setup_features(self)  # each game's own commands and components
        if self.use_scheduler:
            self.service.timers.start()
            self.service.timers.every(self.settings.sweep_seconds, self.sweep, "sweep")
        if self.sync_commands:
            if self.settings.dev_guild_id:
                guild = discord.Object(id=self.settings.dev_guild_id)
                self.tree.copy_global_to(guild=guild)
                await self.tree.sync(guild=guild)
            else:
                await self.tree.sync()

    async def on_voice_state_update(self, member: discord.Member, before: discord.VoiceState,
                                    after: discord.VoiceState) -> None:
        try:
            await self.voice.on_voice_state_update(member, before, after)
        except Exception as exc:  # the next join, sync or sweep tries again
            log.warning("voice state of %s in %s not handled: %s", member.id, member.guild.id, exc)

    async def on_ready(self) -> None:
        set_shard_count(self.shard_count)  # the log's shard of a server, now that the count is known
        if self._resumed:
            return
        self._resumed = True
        await self.recover()

    async def recover(self) -> None:
        """Re-arm every timer (overdue phases close now) and send what is pending, retrying until
        it succeeds: a database locked at start-up delays the recovery, it does not cancel it."""
        first = self.settings.delivery_retry_seconds
        armed = await retrying("start-up recovery", self.service.rearm_all, first=first)
        log.info("ready as %s; %d game timer(s) re-armed", self.user, armed)
        await retrying("sending pending messages", self.delivery.drain_all, first=first)
        if self.settings.gc_freeze:
            tune_gc()
        self.recovered.set()

    async def sweep(self) -> None:
        """The safety net, every ``sweep_seconds``: close any phase whose deadline passed with no
        timer to close it, send what is pending, and prune old delivered messages."""
        await self.service.fire_due()
        await self.delivery.kick_pending()
        await self.service.prune(self.settings.outbox_retention_days * 86400)

    async def close(self) -> None:
        if self.health is not None:
            await self.health.stop()
        close_voice = getattr(self.voice.narrator, "close", None)
        if close_voice is not None:
            await close_voice()
        if hasattr(self, "service"):
            self.service.timers.shutdown()
        if hasattr(self, "store"):
            await self.store.close()
        await super().close()


#: the youngest generation's threshold: collections of it are rarer (every 10,000 allocations
#: instead of 700) and, with the start-up heap frozen, the full ones have less to walk
GC_THRESHOLD = (10_000, 20, 20)


def tune_gc() -> tuple[int, int, int]:
    """Freeze what start-up made (modules, the games' data, discord.py's caches) out of the
    collector's reach, and collect less often: a full collection walks every tracked object, and
    at a thousand tables it stalled the event loop for 100 ms and more. Returns the old threshold."""
    old = gc.get_threshold()
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLD)
    return old


async def retrying(what: str, work, *, first: float = 1.0, most: float = 60.0):
    """Await ``work()`` until it succeeds, waiting longer after each failure (logged)."""
    delay = first
    while True:
        try:
            return await work()
        except Exception as exc:
            log.warning("%s failed (%s); trying again in %.0f s", what, exc, delay)
            await asyncio.sleep(delay)
            delay = min(delay * 2, most)
