"""The voice table on Discord: the linked channel's server mutes made to match what the rules ask
(``Game.silenced``), the phases said aloud, and the permissions this needs, in words.

Who the game may have muted is a row (``voice_mutes``) written before Discord is asked and
deleted once Discord confirms the unmute, so nobody is left muted by a crash, a restart, or by
leaving voice: Discord refuses to unmute a member who is not in voice, so such a member is
unmuted when they next join any voice channel of the server (``on_voice_state_update``).

Server mutes, not a Speak permission on the channel: a channel permission would silence every
passer-by too (the bot touches only the game's seated players), and a Speak permission changed on
a channel reaches members already connected only as Discord decides. A mute is one member edit;
the edits of one server share one window of the pacer (``VOICE_WINDOW``)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import discord

from ..pacer import KIND_WINDOWS, URGENT
from ..permissions import missing, named
from ..store import GameRow, OutboxRow
from .narrator import Narrator
from .table import voice_now

log = logging.getLogger(__name__)

#: Discord's code for editing the voice state of a member who is not in voice
NOT_IN_VOICE = 40032
#: what each part of the voice table needs, in Discord's words
MUTE_PERMISSIONS = named("mute_members")
SPEAK_PERMISSIONS = named("view_channel", "connect", "speak")
#: the order of the waiting member edits of a server (the pacer's rank, across its games): the
#: speaker's unmute (what the turn promises), the previous speaker's mute, other unmutes, other mutes
SPEAKER, PREVIOUS, UNMUTE, MUTE = 0, 1, 2, 3


def voice_key(guild_id: int) -> tuple:
    """The pacer's key of a server's member edits (as ``Calls.call`` makes it)."""
    return (("voice", guild_id), "edit_member")


def unmutes_per_window(turn_seconds) -> int:
    """The speaker unmutes that tables with turns of these seconds may need in one window."""
    _limit, seconds = KIND_WINDOWS["voice"]
    return sum(math.ceil(seconds / t) for t in turn_seconds)


def keeps(turn_seconds: list[float]) -> bool:
    """Whether a server's window of member edits keeps every turn of tables with turns of these
    seconds: each turn's two edits (the speaker's unmute, the previous speaker's mute), for every
    turn that may start within one window, fit in the window."""
    limit, _seconds = KIND_WINDOWS["voice"]
    return 2 * unmutes_per_window(turn_seconds) <= limit


class Caller(Protocol):
    """How the voice table calls Discord: through the delivery's one pacer."""

    async def call(self, level: int, where: Any, method: Callable[..., Awaitable[Any]], *args, **kwargs) -> Any: ...

    async def dm(self, user_id: int, level: int = URGENT) -> Any: ...


def in_words(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def voice_states(guild: discord.Guild) -> dict[int, discord.VoiceState]:
    """Every member in a voice channel of the server, with their voice state."""
    found: dict[int, discord.VoiceState] = {}
    for channel in [*guild.voice_channels, *guild.stage_channels]:
        found.update(channel.voice_states)
    return found


class VoiceTable:
    """The voice channels of the games this process runs."""

    def __init__(self, bot: Any, narrator: Narrator | None = None) -> None:
        self.bot = bot
        self.narrator = narrator
        #: how calls reach Discord (the delivery's ``Calls``, set when the delivery is made)
        self.calls: Caller | None = None
        self._told: set[tuple[int, str]] = set()  # (game, what) the host was told, once each
        self._telling: set[asyncio.Task] = set()  # DMs to hosts under way (kept until done)
        #: per server, the tables whose speaking turns are kept with mutes (game -> turn seconds)
        self._turns: dict[int, dict[int, float]] = {}
        self._busy: set[int] = set()  # the games whose turns are called by name only, this Choosing
        self._trailing: dict[int, asyncio.Task] = {}  # per game, the rest of a turn's edits
        self._sending: set[asyncio.Task | None] = set()  # tasks whose edit is on its way to Discord
        self._stopping: set[asyncio.Task | None] = set()  # trailing tasks to end before their next edit

    def forget(self, game_id: int) -> None:
        self._told = {k for k in self._told if k[0] != game_id}
        self._busy.discard(game_id)
        for guild_id, tables in self._turns.items():
            if tables.pop(game_id, None) is not None:
                self._reserve(guild_id)
        task = self._trailing.get(game_id)
        if task is not None:  # (the game's last voice row waits for it to end: ``_stop_trailing``)
            task.cancel()

    # ----- the mutes -----
    async def sync(self, row: OutboxRow) -> None:
        """Make the mutes of a game's linked channel match the silent set of one step (a voice row
        of the outbox): first unmute whoever the game muted and no longer silences at its table,
        then mute the silenced who sit in the linked channel. Discord's refusals are raised, for
        the delivery to retry, except those that will not change (told to the host once).

        During speaking turns the speaker's unmute is made here and the rest follows in the
        background (``_trailing``), so the game's next step never waits behind this one's mutes,
        and a newer voice row of the game drops what is left of this one's."""
        await self._stop_trailing(row.game_id)
        store = self.bot.store
        game = await store.game(row.game_id)
        guild = self.bot.get_guild(game.guild_id) if game is not None else None
        if game is None or guild is None:
            return
        if game.status not in ("lobby", "running"):
            await self._game_over(game)
        want = {int(uid) for uid in row.payload.get("silenced", [])}
        linked = guild.get_channel(game.voice_channel_id) if game.voice_channel_id and game.status == "running" else None
        speaker = row.payload.get("speaker") if linked is not None else None
        if not self._keeps_turns(game, speaker, row.payload.get("seconds")):
            want &= set(await store.muted_by_game(game.id))  # turns called by name: no new mute
        ranks = {speaker: SPEAKER, row.payload.get("previous"): PREVIOUS}
        if speaker is None:
            await self._converge(game, guild, linked, want, ranks)
            return
        await self._converge(game, guild, linked, want, ranks, only=speaker)
        task = asyncio.get_running_loop().create_task(self._trail(game, guild, linked, want, ranks))
        self._trailing[game.id] = task

    async def _converge(self, game: GameRow, guild: discord.Guild, linked: Any, want: set[int],
                        ranks: dict[Any, int], only: int | None = None) -> None:
        """The edits of one voice row, most urgent first (``ranks``: the speaker's unmute, then the
        previous speaker's mute, then the other unmutes, then the other mutes); ``only``: the
        edits of that member alone."""
        store = self.bot.store
        states = voice_states(guild)
        muted = await store.muted_by_game(game.id)
        for uid in sorted(muted, key=lambda uid: ranks.get(uid, UNMUTE)):
            state = states.get(uid)
            if only is not None and uid != only:
                continue
            if uid in want and linked is not None and state is not None and state.channel is not None \
                    and state.channel.id == linked.id:
                continue
            if state is None:
                continue  # not in voice: Discord refuses; they are unmuted when they next join
            if state.mute and not await self._edit(game, uid, mute=False, rank=ranks.get(uid, UNMUTE)):
                continue
            await store.forget_muted(game.guild_id, uid, game.id)
        if linked is None or not want or only is not None:
            return
        if not self._may_mute(game, linked):
            return
        for uid in sorted(want, key=lambda uid: (ranks.get(uid, MUTE), uid)):
            state = states.get(uid)
            if state is None or state.channel is None or state.channel.id != linked.id or state.mute:
                continue
            await store.note_muted(game.guild_id, uid, game.id, self.bot.clock.now())
            if not await self._edit(game, uid, mute=True, rank=ranks.get(uid, MUTE)):
                await store.forget_muted(game.guild_id, uid, game.id)

    async def _trail(self, game: GameRow, guild: discord.Guild, linked: Any, want: set[int],
                     ranks: dict[Any, int]) -> None:
        """The rest of a turn's edits, beside the delivery (a refusal waits for the next voice row
        of the game, at the next turn at the latest)."""
        try:
            await self._converge(game, guild, linked, want, ranks)
        except Exception as exc:
            log.warning("game %s: the turn's mutes are not all made (%s); the next turn tries again", game.id, exc)
        finally:
            if self._trailing.get(game.id) is asyncio.current_task():
                del self._trailing[game.id]

    def under_way(self) -> list[asyncio.Task]:
        """The turns' edits still being made in the background (``Delivery.wait_idle`` waits for them)."""
        return list(self._trailing.values())

    async def _stop_trailing(self, game_id: int) -> None:
        """Drop what is left of a turn's edits: an edit still waiting for the pacer is cancelled;
        one already on its way to Discord is let finish (its answer is what the record needs)."""
        task = self._trailing.pop(game_id, None)
        if task is None or task.done():
            return
        self._stopping.add(task)
        if task not in self._sending:
            task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        self._stopping.discard(task)

    # ----- a busy server: which tables' turns are kept -----
    def _keeps_turns(self, game: GameRow, speaker: int | None, seconds: float | None) -> bool:
        """Whether the game's speaking turns are kept with mutes (``keeps``); the host of a table
        that is not kept is told once."""
        tables = self._turns.setdefault(game.guild_id, {})
        if speaker is None or not seconds:
            tables.pop(game.id, None)
            self._busy.discard(game.id)
            self._reserve(game.guild_id)
            return True
        if game.id in tables:
            return True
        if game.id in self._busy:
            return False
        if not keeps([*tables.values(), float(seconds)]):
            self._busy.add(game.id)
            self._tell_host_later(game, "busy", [])
            return False
        tables[game.id] = float(seconds)
        self._reserve(game.guild_id)
        return True

    def _reserve(self, guild_id: int) -> None:
        """Keep in the server's window of member edits room for the kept tables' speaker unmutes."""
        pacer = getattr(self.calls, "pacer", None)
        if pacer is not None:
            pacer.reserve(voice_key(guild_id), unmutes_per_window(self._turns.get(guild_id, {}).values()))

    async def _game_over(self, game: GameRow) -> None:
        """The narrator leaves: after the last words of a finished game, at once for a cancelled one."""
        if self.narrator is None:
            return
        if game.status == "finished":
            self.narrator.finish(game.guild_id, game.id)
        else:
            await self.narrator.stop(game.guild_id, game.id)

    def _may_mute(self, game: GameRow, channel: Any) -> bool:
        lacking = missing(channel.permissions_for(channel.guild.me), MUTE_PERMISSIONS)
        if lacking:
            self._tell_host_later(game, "mute", lacking)
        return not lacking

    async def _edit(self, game: GameRow, user_id: int, *, mute: bool, rank: int | None = None) -> bool:
        """Server-mute or unmute one member; False when Discord says they are not in voice.
        ``rank``: its place among the server's waiting edits (``SPEAKER`` first)."""
        assert self.calls is not None
        reason = f"game #{game.id}: " + ("the rules silence this player now" if mute else "may speak again")
        if asyncio.current_task() in self._stopping:
            raise asyncio.CancelledError  # a newer voice row of the game: no further edit of this one

        async def edit_member(*args: Any, **kwargs: Any) -> Any:  # (the pacer's key is the method's name)
            task = asyncio.current_task()
            self._sending.add(task)
            try:
                return await self.bot.http.edit_member(*args, **kwargs)
            finally:
                self._sending.discard(task)

        try:
            await self.calls.call(URGENT, ("voice", game.guild_id), edit_member,
                                  game.guild_id, user_id, mute=mute, reason=reason,
                                  rank=(MUTE if mute else UNMUTE) if rank is None else rank)
        except discord.HTTPException as exc:
            if exc.code == NOT_IN_VOICE:
                return False
            if isinstance(exc, discord.Forbidden):
                self._tell_host_later(game, "mute", list(MUTE_PERMISSIONS.values()))
                return False
            raise
        return True

    async def on_voice_state_update(self, member: discord.Member, before: discord.VoiceState,
                                    after: discord.VoiceState) -> None:
        """A member joined, left or moved between voice channels: a seated player the rules
        silence who sits down at the game's linked channel is muted; one the bot muted who is
        anywhere else (or whose game no longer silences them) is unmuted, now that Discord can."""
        if member.bot or after.channel is None or (before.channel is not None and before.channel.id == after.channel.id):
            return
        store, guild = self.bot.store, member.guild
        muted_by = await store.mutes_of_member(guild.id, member.id)
        wanting = [game for game in await store.active_games(guild.id)
                   if game.status == "running" and game.voice_channel_id == after.channel.id
                   and game.id not in self._busy  # (turns called by name: no new mute)
                   and member.id in await self._silenced(game)]
        if wanting and not after.mute:
            game = wanting[0]
            if self._may_mute(game, after.channel):
                await store.note_muted(guild.id, member.id, game.id, self.bot.clock.now())
                if not await self._edit(game, member.id, mute=True):
                    await store.forget_muted(guild.id, member.id, game.id)
        elif not wanting and muted_by:
            game = await store.game(muted_by[0])
            if game is not None and after.mute and not await self._edit(game, member.id, mute=False):
                return
            await store.forget_muted(guild.id, member.id)

    async def _silenced(self, game: GameRow) -> tuple[int, ...]:
        table = await self.bot.service.load(game.id)
        return voice_now(table.game, table.state).silenced

    # ----- the host told, once -----
    def _tell_host_later(self, game: GameRow, what: str, lacking: list[str]) -> None:
        if (game.id, what) in self._told:
            return
        self._told.add((game.id, what))
        task = asyncio.get_running_loop().create_task(self.tell_host(game, what_missing(what, lacking)))
        self._telling.add(task)
        task.add_done_callback(self._telling.discard)

    async def tell_host(self, game: GameRow, text: str) -> None:
        """A DM to the host (best effort: logged when it cannot go)."""
        try:
            assert self.calls is not None
            dm = await self.calls.dm(game.host_id)
            await self.calls.call(URGENT, ("dm", game.host_id), dm.send, text)
        except Exception as exc:
            log.warning("game %s: the host could not be told about voice (%s): %s", game.id, exc, text)

    async def check_at_start(self, game: GameRow) -> str | None:
        """What the voice table cannot do in the game's linked channel, in words for the host, once
        (None: all it needs is granted, or no channel is linked). The game goes on without it."""
        guild = self.bot.get_guild(game.guild_id)
        channel = guild.get_channel(game.voice_channel_id) if guild and game.voice_channel_id else None
        if channel is None:
            return None
        table = await self.bot.service.load(game.id)
        perms = channel.permissions_for(guild.me)
        parts = []
        if table.game.mutes_anyone(table.state):
            lacking = missing(perms, MUTE_PERMISSIONS)
            if lacking:
                self._told.add((game.id, "mute"))
                parts.append(what_missing("mute", lacking))
        if table.game.narrated(table.state):
            lacking = missing(perms, SPEAK_PERMISSIONS)
            if lacking:
                self._told.add((game.id, "speak"))
                parts.append(what_missing("speak", lacking))
        return " ".join(parts) or None

    # ----- the phases said aloud -----
    async def narrate(self, game_id: int, texts: list[str], *, phase_seq: int | None = None,
                      slots: list[str | None] | None = None) -> None:
        """Say the words of public messages just posted, in the game's linked channel (never waited
        on by a clock: the narrator queues them). ``phase_seq``: the phase they belong to, and
        ``slots`` each one's living line: the narrator drops a line once it is stale."""
        if self.narrator is None or not texts:
            return
        game = await self.bot.store.game(game_id)
        if game is None or game.voice_channel_id is None:
            return
        guild = self.bot.get_guild(game.guild_id)
        channel = guild.get_channel(game.voice_channel_id) if guild else None
        if channel is None or missing(channel.permissions_for(guild.me), SPEAK_PERMISSIONS):
            return
        for text, slot in zip(texts, slots or [None] * len(texts), strict=True):
            self.narrator.say(game.guild_id, game.voice_channel_id, game_id, text, phase_seq=phase_seq, slot=slot)


def what_missing(what: str, lacking: list[str]) -> str:
    """The sentence that tells the host which permission to grant, and what goes on meanwhile."""
    if what == "busy":
        return ("🎙️ This server's voice tables are more than Discord lets me keep up with: it allows only about "
                "ten mutes every ten seconds in a server. So that no speaker is kept muted through their turn, "
                "this game's speaking turns are called by name without muting anyone: please keep to them "
                "yourselves. Muting comes back at the game's next round of turns if the other tables allow it.")
    if what == "mute":
        return (f"🔇 I can't mute players in the game's voice channel: please give me **{in_words(lacking)}** "
                "there. Until then the game goes on without muting anyone.")
    return (f"🔈 I can't speak in the game's voice channel: please give me **{in_words(lacking)}** there. "
            "Until then the phases are only written, not said aloud.")
