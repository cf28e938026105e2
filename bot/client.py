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
from .postgres import GameListener, PostgresStore, game_channel
from .service import GameService
from .stores import open_store, where
from .token_budget import TokenBudget
from .views import ChoiceButton, ChoiceSelect, RemoveButton, TableButton
from .voice.mutes import VoiceTable
from .voice.narrator import DiscordNarrator, Narrator
from .voice.speech import speech_available

log = logging.getLogger(__name__)

#: how long a clean stop waits for the gateway's connections to close before the sends' grace
GATEWAY_CLOSE_SECONDS = 2.0


class StorytellerBot(commands.AutoShardedBot):
    """The bot: one process runs every shard, or those of SHARD_IDS (several processes on one
    PostgreSQL database, each owning its shards' games)."""

    #: start ``/healthz`` and ``/metrics`` at setup (the offline table starts them itself)
    serves_health = True

    def __init__(self, settings: Settings, *, clock: Clock | None = None, sync_commands: bool | None = None,
                 use_scheduler: bool = True, narrator: Narrator | None = None, **kwargs) -> None:
        intents = kwargs.pop("intents", None) or discord.Intents.default()
        if settings.shard_id_list is not None:  # (none given: every shard)
            kwargs["shard_ids"] = settings.shard_id_list
        super().__init__(command_prefix=commands.when_mentioned, intents=intents,
                         help_command=None, shard_count=settings.shard_count, **kwargs)
        self.settings = settings
        self.clock = clock or SystemClock()
        #: sync the command tree at start (None: as SYNC_COMMANDS says, see ``syncs_at_start``)
        self.sync_commands = syncs_at_start(settings) if sync_commands is None else sync_commands
        self.use_scheduler = use_scheduler
        self.play = Play(self)
        #: the voice table (mutes and narration); tests put a recording narrator in its place
        self.voice = VoiceTable(self, narrator if narrator is not None else self._narrator())
        self.delivery = Delivery(self)
        self._hear_discord()
        self._resumed = False
        #: hears of the games other processes hand to this one (PostgreSQL, several processes)
        self.listener: GameListener | None = None
        #: set once start-up recovery (timers re-armed, pending messages sent) has succeeded
        self.recovered = asyncio.Event()
        #: ``/healthz`` and ``/metrics`` on HEALTH_PORT (None when it is not set)
        self.health: HealthServer | None = None

    def _hear_discord(self) -> None:
        """Every answer from Discord heard where discord.py's session receives it, the 429s it
        retries by itself included (``bot.discord_health``); a global 429 closes the pacer's budget."""
        calls = self.delivery.calls
        calls.health.on_global.append(lambda wait: calls.pacer.learn("global", retry_after=wait, is_global=True))
        if self.http.http_trace is None:
            self.http.http_trace = calls.trace()

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
        self.share_token_budget()
        self.service.on_game_over += [self.delivery.forget, self.play.forget, self.voice.forget]
        self.service.RETRY_SECONDS = self.settings.timeout_retry_seconds
        self.listener = await self._hand_over_games()
        await self.add_commands()
        if self.use_scheduler:
            self.service.timers.start()
            self.service.timers.every(self.settings.sweep_seconds, self.sweep, "sweep")
        if self.sync_commands:
            await self.sync_tree(self.settings.dev_guild_id)

    async def add_commands(self) -> None:
        """The cogs, each game's own commands and the persistent components (``python -m bot sync``
        adds only these, with no database)."""
        self.add_dynamic_items(TableButton, ChoiceSelect, ChoiceButton, RemoveButton)
        await self.add_cog(Tables(self))
        await self.add_cog(Moderation(self))
        await self.add_cog(Seats(self))
        await setup_features(self)  # each game's own commands and components

    async def sync_tree(self, guild_id: int | None = None) -> list[discord.app_commands.AppCommand]:
        """Send the command tree to Discord: to one server (shown at once), or globally."""
        if guild_id:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            return await self.tree.sync(guild=guild)
        return await self.tree.sync()

    async def _hand_over_games(self) -> GameListener | None:
        """Several processes on PostgreSQL: a game this one commits to but does not own (a DM
        click reaches shard 0 only) is handed to its owner by NOTIFY, and this one listens for
        its own. Listening before the recovery reads the database, nothing committed after that
        read goes unheard (and what was committed before it, the recovery finds)."""
        if self.settings.shards is None or not isinstance(self.store, PostgresStore) or self.store.url is None:
            return None  # (a store opened by URL has one)
        self.service.hand_over = self.store.notify_game
        listener = GameListener(self.store.url, self.service.adopt, on_again=self.sweep,
                                channels=tuple(game_channel(shard) for shard in sorted(self.settings.shards.ids)))
        await listener.start()  # (if it cannot yet, it keeps trying; the sweep covers meanwhile)
        return listener

    def share_token_budget(self) -> None:
        """Processes that split the shards share the token's calls through the database; one that
        runs every shard paces in memory alone (``bot.token_budget``)."""
        shards = self.settings.shards
        if shards is None:
            return
        share = len(shards.ids) / shards.count
        self.delivery.pacer.budget = TokenBudget(self.store, share=share, block=self.settings.discord_calls_block)
        log.info("the token's %g calls a second are shared with the other processes through the database",
                 self.settings.discord_calls_per_second)

    async def on_voice_state_update(self, member: discord.Member, before: discord.VoiceState,
                                    after: discord.VoiceState) -> None:
        try:
            await self.voice.on_voice_state_update(member, before, after)
        except Exception as exc:  # the next join, sync or sweep tries again
            log.warning("voice state of %s in %s not handled: %s", member.id, member.guild.id, exc)

    async def on_guild_channel_update(self, before: discord.abc.GuildChannel, after: discord.abc.GuildChannel) -> None:
        if before.overwrites != after.overwrites:
            await self._voice_permissions(after.guild)

    async def on_guild_role_update(self, before: discord.Role, after: discord.Role) -> None:
        if before.permissions != after.permissions or before.position != after.position:
            await self._voice_permissions(after.guild)

    async def _voice_permissions(self, guild: discord.Guild) -> None:
        """The voice table catches up when a permission may have come back (``permissions_changed``)."""
        try:
            await self.voice.permissions_changed(guild)
        except Exception as exc:  # the next step, join or start-up tries again
            log.warning("voice mutes of %s not caught up: %s", guild.id, exc)

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
        log.info("%s; %d game timer(s) re-armed", self.ready_line(), armed)
        if not self.sync_commands and runs_shard_zero(self.settings):  # one process: the one that would sync
            self._commands_checked = asyncio.create_task(self.check_commands())
        await retrying("sending pending messages", self.delivery.drain_all, first=first)
        await self.voice.catch_up_all()  # voice states that changed while the bot was down
        if self.settings.gc_freeze:
            tune_gc()
        self.recovered.set()

    def ready_line(self) -> str:
        """The operator's first line: who, where, which shards, which database."""
        shards = self.shard_ids if self.shard_ids is not None else list(range(self.shard_count or 1))
        url = self.settings.database_url
        database = f"PostgreSQL at {where(url)}" if url else f"the SQLite file {self.settings.database_path}"
        return (f"ready as {self.user} in {len(self.guilds)} server(s), shard(s) {','.join(map(str, shards))} of "
                f"{self.shard_count or 1}; database: {database}")

    async def check_commands(self) -> list[str]:
        """Warn when Discord's global slash commands differ from this bot's (by name and kind): the
        commands were never synced, or not since an upgrade. One cheap GET; the differences."""
        try:
            remote = {(c.name, c.type.value) for c in await self.tree.fetch_commands()}
        except Exception as exc:
            log.info("could not compare the slash commands with Discord's (%s)", exc)
            return []
        slash = discord.AppCommandType.chat_input  # (a slash command or group has no ``type``)
        local = {(c.name, getattr(c, "type", slash).value) for c in self.tree.get_commands()}
        missing = sorted(name for name, _ in local - remote)
        extra = sorted(name for name, _ in remote - local)
        if not remote and local:
            log.warning("Discord has none of the bot's slash commands: run `python -m bot sync` once (or "
                        "`--guild ID` for one server), then reload Discord (Ctrl+R) to see them.")
        elif missing or extra:
            log.warning("Discord's slash commands differ from this bot's (missing: %s; not the bot's any more: "
                        "%s). Run `python -m bot sync` once (or `--guild ID` for one server).",
                        ", ".join(missing) or "none", ", ".join(extra) or "none")
        return missing + extra

    async def sweep(self) -> None:
        """The safety net, every ``sweep_seconds``: close any phase whose deadline passed with no
        timer to close it, send what is pending, and prune old delivered messages."""
        if self.listener is not None:
            await self.listener.check()
        if self.settings.shards is not None:  # another process may have committed to them (DM clicks)
            for game_id in await self.store.games_with_pending_messages(shards=self.settings.shards):
                await self.service.adopt(game_id)
        await self.service.fire_due()
        await self.delivery.kick_pending()
        await self.service.prune(self.settings.outbox_retention_days * 86400)

    async def shut_down(self) -> bool:
        """A clean stop (SIGTERM, SIGINT): the gateway closed (no new click comes in), then
        ``finish_sends``, then ``close``. True when every send under way finished in time."""
        shards = list(self.shards.values())
        closing = [asyncio.ensure_future(shard.disconnect()) for shard in shards]
        if closing:  # at once, and not for long: a dead network must not eat the sends' grace
            await asyncio.wait(closing, timeout=GATEWAY_CLOSE_SECONDS)
        for shard, task in zip(shards, closing, strict=True):
            if not task.done():  # (its events stopped as the close began; the rest is the socket's)
                task.cancel()
                log.warning("shard %s did not close within %g s; stopping anyway", shard.id, GATEWAY_CLOSE_SECONDS)
            elif not task.cancelled() and task.exception() is not None:  # closing anyway
                log.warning("shard %s did not close cleanly: %s", shard.id, task.exception())
        finished = await self.finish_sends(self.settings.stop_grace_seconds)
        await self.close()
        log_stopped(finished)
        return finished

    async def finish_sends(self, grace: float) -> bool:
        """No new phase closes (the timers stop); the sends under way get ``grace`` seconds to
        finish, and those still going are cancelled: their rows stay in the outbox, sent at the
        next start. True when every send finished in time."""
        finishing = [self.delivery.wait_idle()]
        if hasattr(self, "service"):
            self.service.timers.shutdown()
            finishing.append(self.service.stop_claiming())  # (a sweep under way claims no more)
        try:
            await asyncio.wait_for(asyncio.gather(*finishing), grace)
        except TimeoutError:
            log.warning("stopping: sends still under way after %g s were cut short; they stay in the "
                        "outbox for the next start", grace)
            return False
        return True

    async def close(self) -> None:
        if self.health is not None:
            await self.health.stop()
        close_voice = getattr(self.voice.narrator, "close", None)
        if close_voice is not None:
            await close_voice()
        if self.listener is not None:
            await self.listener.stop()
        if hasattr(self, "service"):
            self.service.timers.shutdown()  # (first: a sweep still running could claim again)
        if hasattr(self, "store"):
            try:  # at once, not when their lease runs out: another process may take them over now
                released = await self.store.release_claims()
                if released:
                    log.info("stopping: released the claims on %d game(s)", released)
            except Exception as exc:
                log.warning("stopping: claims not released (%s); they lapse with their lease", exc)
            await self.store.close()
        await super().close()


def log_stopped(finished: bool) -> None:
    """The last line of a clean stop, for the operator (and the test that stops a real process)."""
    log.info("stopped cleanly: %s; claims released", "every send under way finished" if finished else
             "the sends cut short stay in the outbox for the next start")


def runs_shard_zero(settings: Settings) -> bool:
    """Whether this process runs shard 0 (or every shard): the one process that syncs the commands
    or checks them, so that several processes do not race each other into Discord's rate limit."""
    ids = settings.shard_id_list
    return ids is None or 0 in ids


def syncs_at_start(settings: Settings) -> bool:
    """SYNC_COMMANDS, in the one process that runs shard 0 (``runs_shard_zero``)."""
    return settings.sync_commands and runs_shard_zero(settings)


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
