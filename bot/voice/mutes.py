"""The voice table on Discord: the linked channel's server mutes made to match what the rules ask
(``Game.silenced``), the phases said aloud, and the permissions this needs, in words.

Who the game may have muted is a row (``voice_mutes``) written before Discord is asked and
deleted once Discord confirms the unmute, so nobody is left muted by a crash, a restart, or by
leaving voice: Discord refuses to unmute a member who is not in voice, so such a member is
unmuted when they next join any voice channel of the server (``on_voice_state_update``).

The rows are the truth, not discord.py's cache of voice states (a member edit is answered before
its voice-state event arrives): an unmute is sent for every row the rules no longer want, whatever
the cache says, and a member who has no row was not muted by the bot (a moderator's mute is left
alone). Whoever the bot muted, for any game, is unmuted when no running game silences them where
they sit. What Discord would refuse (a permission lost, a member above the bot) is not asked again
at every turn: it is told to the host, and caught up when a role or a channel's permissions change,
when the member joins voice again, and at start-up (``catch_up``).

Server mutes, not a Speak permission on the channel: a channel permission would silence every
passer-by too (the bot touches only the game's seated players), and a Speak permission changed on
a channel reaches members already connected only as Discord decides. A mute is one member edit;
the edits of one server share one window of the pacer (``VOICE_WINDOW``)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
from collections.abc import Awaitable, Callable, Hashable
from typing import Any, Protocol, TypeVar

import discord
from discord.http import HTTPClient

from games.engine import GameError

from ..clock import Clock
from ..pacer import KIND_WINDOWS, URGENT
from ..permissions import missing, named
from ..service import GameService
from ..store import GameRow, OutboxRow, Store
from .narrator import Narrator
from .table import voice_now

log = logging.getLogger(__name__)

#: Discord's code for editing the voice state of a member who is not in voice
NOT_IN_VOICE = 40032
#: what each part of the voice table needs, in Discord's words
MUTE_PERMISSIONS = named("mute_members")
SPEAK_PERMISSIONS = named("view_channel", "connect", "speak")
CONNECT = named("connect")
#: what became of asking to edit a member's mute: done; they are not in voice (Discord says so);
#: a permission is missing where they sit; Discord refuses this member (the owner, a higher role)
DONE, AWAY, STUCK, REFUSED = "done", "away", "stuck", "refused"
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


T = TypeVar("T")


class Caller(Protocol):
    """How the voice table calls Discord: through the delivery's one pacer."""

    async def call(self, level: int, where: Hashable, method: Callable[..., Awaitable[T]], *args: Any,
                   rank: int = 0, **kwargs: Any) -> T: ...

    async def dm(self, user_id: int, level: int = URGENT) -> discord.PartialMessageable: ...


def in_words(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def channel_of(state: discord.VoiceState | None) -> Any:
    return None if state is None else state.channel


def name_of(guild: discord.Guild, user_id: int) -> str:
    member = guild.get_member(user_id)
    return member.display_name if member is not None else f"<@{user_id}>"


def voice_lacking(channel: Any, me: discord.Member, needed: dict[str, str]) -> list[str]:
    """The permissions of ``needed`` the bot lacks in a voice channel, in Discord's words. Where
    the bot may not Connect, Discord withholds its other voice permissions there too (Mute
    Members, Speak): then Connect is named, with whatever would still lack once it is granted."""
    perms = channel.permissions_for(me)
    lacking = missing(perms, needed)
    if not lacking or perms.connect:
        return lacking
    before_connect = discord.abc.GuildChannel.permissions_for(channel, me)  # (without that rule)
    return missing(before_connect, CONNECT | needed)


def voice_states(guild: discord.Guild) -> dict[int, discord.VoiceState]:
    """Every member in a voice channel of the server, with their voice state."""
    found: dict[int, discord.VoiceState] = {}
    for channel in [*guild.voice_channels, *guild.stage_channels]:
        found.update(channel.voice_states)
    return found


class VoiceBot(Protocol):
    """What the voice table uses of the bot."""

    store: Store
    service: GameService
    clock: Clock

    @property
    def http(self) -> HTTPClient: ...  # (a member's mute by id, with no member fetched)

    def get_guild(self, id: int, /) -> discord.Guild | None: ...


class VoiceTable:
    """The voice channels of the games this process runs."""

    def __init__(self, bot: VoiceBot, narrator: Narrator | None = None) -> None:
        self.bot = bot
        self.narrator = narrator
        #: how calls reach Discord (the delivery's ``Calls``, set when the delivery is made)
        self.calls: Caller | None = None
        self._told: set[tuple[int, str]] = set()  # (game, what) the host was told, once each
        self._telling: set[asyncio.Task] = set()  # DMs to hosts under way (kept until done)
        #: (server, member) Discord refused to mute or unmute although the bot has Mute Members there
        #: (the owner, a higher role): not asked again until a role or a permission changes, a
        #: restart, or they join voice again
        self._refused: set[tuple[int, int]] = set()
        #: game -> the silent set of its last voice row (what the table has been shown)
        self._shown: dict[int, set[int]] = {}
        #: per server, the tables whose speaking turns are kept with mutes (game -> turn seconds)
        self._turns: dict[int, dict[int, float]] = {}
        self._busy: set[int] = set()  # the games whose turns are called by name only, this Choosing
        self._trailing: dict[int, asyncio.Task] = {}  # per game, the rest of a turn's edits
        self._sending: set[asyncio.Task | None] = set()  # tasks whose edit is on its way to Discord
        self._stopping: set[asyncio.Task | None] = set()  # trailing tasks to end before their next edit

    def forget(self, game_id: int) -> None:
        self._told = {k for k in self._told if k[0] != game_id}
        self._shown.pop(game_id, None)
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
        of the outbox): first unmute whoever the game muted and no longer silences at its table
        (from the record, whatever the voice-state cache says), then mute the silenced who sit in
        the linked channel. Discord's refusals are raised, for the delivery to retry, except those
        that will not change by retrying (told to the host once, caught up later).

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
        if game.status == "running":
            self._shown[game.id] = want
        else:
            self._shown.pop(game.id, None)
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
        mine = await store.muted_by_game(game.id)
        for uid in sorted(mine, key=lambda uid: ranks.get(uid, UNMUTE)):
            if only is not None and uid != only:
                continue
            where = channel_of(states.get(uid))
            if where is None:
                continue  # not in voice: Discord refuses; they are unmuted when they next join
            if linked is not None and uid in want and where.id == linked.id:
                continue
            await self._release(game, guild, uid, where, rank=ranks.get(uid, UNMUTE))
        if linked is not None and want and only is None:
            await self._silence(game, guild, linked, want, states, set(mine), ranks)

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
            self._tell_host_later(game, "busy", what_missing("busy", []))
            return False
        tables[game.id] = float(seconds)
        self._reserve(game.guild_id)
        return True

    def _reserve(self, guild_id: int) -> None:
        """Keep in the server's window of member edits room for the kept tables' speaker unmutes."""
        pacer = getattr(self.calls, "pacer", None)
        if pacer is not None:
            pacer.reserve(voice_key(guild_id), unmutes_per_window(self._turns.get(guild_id, {}).values()))

    async def _silence(self, game: GameRow, guild: discord.Guild, linked: Any, want: set[int],
                       states: dict[int, discord.VoiceState], mine: set[int], ranks: dict[Any, int]) -> None:
        """Mute the silenced who sit at the table. One already muted is left as Discord has them,
        and recorded for this game when an earlier game of the bot's muted them (so that this
        game unmutes them); with no row at all, the mute is a moderator's, not the bot's to undo."""
        store = self.bot.store
        for uid in sorted(want, key=lambda uid: (ranks.get(uid, MUTE), uid)):
            where = channel_of(states.get(uid))
            if where is None or where.id != linked.id:
                continue
            if states[uid].mute:
                if uid not in mine and await store.mutes_of_member(guild.id, uid):
                    await store.note_muted(guild.id, uid, game.id, self.bot.clock.now())
                continue
            if await self._mute(game, guild, uid, linked, rank=ranks.get(uid, MUTE)) == STUCK:
                return

    async def _wanting(self, guild: discord.Guild, user_id: int, where: Any, besides: int | None = None,
                       *, shown: bool = False) -> GameRow | None:
        """The running game (other than ``besides``) that silences this member where they sit: as
        its state is now, or (``shown``) as its last voice row showed the table."""
        for game in await self.bot.store.active_games(guild.id):
            if game.id == besides or game.status != "running" or game.voice_channel_id != where.id:
                continue
            if game.id in self._busy:  # (turns called by name: no new mute)
                continue
            silenced = self._shown.get(game.id, set()) if shown else await self._silenced(game)
            if user_id in silenced:
                return game
        return None

    async def _release(self, game: GameRow, guild: discord.Guild, user_id: int, where: Any,
                       rank: int = UNMUTE) -> str:
        """The game no longer silences a member it muted: unmute them, unless another running game
        silences them where they sit now (the mute is then that game's to undo)."""
        store = self.bot.store
        other = await self._wanting(guild, user_id, where, besides=game.id)
        if other is not None:
            await store.note_muted(guild.id, user_id, other.id, self.bot.clock.now())
            await store.forget_muted(guild.id, user_id, game.id)
            return DONE
        return await self._unmute(game, guild, user_id, where, rank=rank)

    async def _unmute(self, game: GameRow, guild: discord.Guild, user_id: int, where: Any,
                      rank: int = UNMUTE) -> str:
        """Ask Discord to unmute a member the bot muted; its rows (of any game) go once Discord
        confirms. Not asked when Discord would refuse (a permission lost, a member it refused)."""
        blocked = await self._blocked(game, guild, user_id, where)
        if blocked is not None:
            return blocked
        rows = await self.bot.store.mutes_of_member(guild.id, user_id)
        outcome = await self._edit(game, guild, user_id, mute=False, rank=rank)
        if outcome == DONE:
            await self.bot.store.forget_mutes(guild.id, user_id, rows)
        return outcome

    async def _mute(self, game: GameRow, guild: discord.Guild, user_id: int, where: Any,
                    rank: int = MUTE) -> str:
        """Mute a member for the game: the row first, then Discord (the row goes if Discord says no)."""
        blocked = await self._blocked(game, guild, user_id, where)
        if blocked is not None:
            return blocked
        await self.bot.store.note_muted(guild.id, user_id, game.id, self.bot.clock.now())
        outcome = await self._edit(game, guild, user_id, mute=True, rank=rank)
        if outcome != DONE:
            await self.bot.store.forget_muted(guild.id, user_id, game.id)
        return outcome

    async def _blocked(self, game: GameRow, guild: discord.Guild, user_id: int, where: Any) -> str | None:
        """Why Discord would refuse to edit this member's mute now (None: it would not): the bot
        lacks a permission in their channel (the host is told who stays muted), or Discord
        refused this member before (until the server's roles or permissions change)."""
        if voice_lacking(where, guild.me, MUTE_PERMISSIONS):
            await self._tell_stuck(game, guild, where)
            return STUCK
        if (guild.id, user_id) in self._refused:
            return REFUSED
        return None

    async def _tell_stuck(self, game: GameRow, guild: discord.Guild, where: Any) -> None:
        """Tell the host once that the bot may no longer mute in the game's channel, what to grant,
        and who stays muted by the bot meanwhile."""
        if (game.id, "mute") in self._told:
            return
        states = voice_states(guild)
        held = [uid for uid in await self.bot.store.muted_by_game(game.id)
                if (state := states.get(uid)) is not None and state.channel is not None and state.mute]
        lacking = voice_lacking(where, guild.me, MUTE_PERMISSIONS) or list(MUTE_PERMISSIONS.values())
        self._tell_host_later(game, "mute", what_missing("mute", lacking, [name_of(guild, uid) for uid in held]))

    async def _game_over(self, game: GameRow) -> None:
        """The narrator leaves: after the last words of a finished game, at once for a cancelled one."""
        if self.narrator is None:
            return
        if game.status == "finished":
            self.narrator.finish(game.guild_id, game.id)
        else:
            await self.narrator.stop(game.guild_id, game.id)

    async def _edit(self, game: GameRow, guild: discord.Guild, user_id: int, *, mute: bool,
                    rank: int | None = None) -> str:
        """Server-mute or unmute one member: DONE, AWAY (Discord says they are not in voice),
        STUCK (a permission is missing) or REFUSED (Discord will not let the bot edit this member:
        the server's owner, or someone whose highest role is not below the bot's; named to the host).
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
                return AWAY
            if isinstance(exc, discord.Forbidden):
                where = channel_of(voice_states(guild).get(user_id))
                if where is not None and voice_lacking(where, guild.me, MUTE_PERMISSIONS):
                    await self._tell_stuck(game, guild, where)
                    return STUCK
                self._refused.add((guild.id, user_id))
                member = await self._fresh_member(guild, user_id)
                self._tell_host_later(game, f"mute {user_id}", refused_text(guild, user_id, member, mute=mute))
                return REFUSED
            raise
        return DONE

    async def _fresh_member(self, guild: discord.Guild, user_id: int) -> discord.Member | None:
        """The member as Discord has them now (their roles may have changed unseen: the bot does
        not follow member updates); the cached one when Discord cannot say."""
        assert self.calls is not None
        try:
            return await self.calls.call(URGENT, ("member", guild.id), guild.fetch_member, user_id)
        except discord.HTTPException:
            return guild.get_member(user_id)

    async def on_voice_state_update(self, member: discord.Member, before: discord.VoiceState,
                                    after: discord.VoiceState) -> None:
        """A member joined, left or moved between voice channels, or their server mute changed.
        Who arrives is settled (``_settle``): muted if a running game silences them there,
        unmuted if the bot muted them and none does. A mute change where they sit is only looked
        at when it says they may speak (a report arriving late may show a mute the bot skipped)."""
        if member.bot or after.channel is None:
            return  # left voice: Discord lets nobody unmute them now
        arrived = before.channel is None or before.channel.id != after.channel.id
        if not arrived and (before.mute == after.mute or after.mute):
            return
        if arrived:
            self._refused.discard((member.guild.id, member.id))  # a fresh try for who comes back
        await self._settle(member.guild, member.id, after.channel, after.mute, arrived=arrived)

    async def _settle(self, guild: discord.Guild, user_id: int, where: Any, muted: bool, *, arrived: bool) -> None:
        store = self.bot.store
        rows = await store.mutes_of_member(guild.id, user_id)
        # (a late report is measured against what the table was shown, never a step not yet shown)
        game = await self._wanting(guild, user_id, where, shown=not arrived)
        if game is not None:
            if muted:  # already muted: by an earlier game of the bot's (now this one's), or by a moderator
                if rows and game.id not in rows:
                    await store.note_muted(guild.id, user_id, game.id, self.bot.clock.now())
            elif arrived or not rows:  # (a row, and no arrival: a mute of the bot's is on its way)
                await self._mute(game, guild, user_id, where)
        elif rows and arrived:
            owner = await store.game(rows[-1])
            if owner is not None:
                await self._unmute(owner, guild, user_id, where)

    # ----- catching up -----
    async def catch_up(self, guild: discord.Guild) -> None:
        """Settle every member the bot may have muted in this server, and everyone at the table of a
        running game, as if they had just arrived: after a permission came back, and at start-up
        (voice states changed while the bot was down). A table whose game is still being shown
        (messages pending) is left to that game's own voice row."""
        store = self.bot.store
        rows = await store.mutes_in_guild(guild.id)
        running = [g for g in await store.active_games(guild.id) if g.status == "running" and g.voice_channel_id]
        busy = {g.voice_channel_id for g in running if await store.pending_messages(g.id)}
        states = voice_states(guild)
        seated = {uid for uid, state in states.items() if state.channel is not None
                  and state.channel.id in {g.voice_channel_id for g in running} - busy}
        for uid in sorted(set(rows) | seated):
            where = channel_of(states.get(uid))
            member = guild.get_member(uid)
            if where is None or where.id in busy or (member is not None and member.bot):
                continue
            try:
                await self._settle(guild, uid, where, states[uid].mute, arrived=True)
            except Exception as exc:  # the next join, step or catch-up tries again
                log.warning("voice: member %s of server %s not caught up: %s", uid, guild.id, exc)

    async def catch_up_all(self) -> None:
        """At start-up: every server of this process where the bot may have muted someone or a
        game is played in voice (``catch_up``)."""
        store = self.bot.store
        try:
            ids = set(await store.muted_guilds()) | {g.guild_id for g in await store.active_games()
                                                     if g.status == "running" and g.voice_channel_id}
        except Exception as exc:  # (the database refused: each game's next step and each join still settle)
            log.warning("voice: no catch-up at start-up: %s", exc)
            return
        for guild_id in sorted(ids):
            guild = self.bot.get_guild(guild_id)  # (None: another process's shard, or a server left)
            if guild is None:
                continue
            try:
                await self.catch_up(guild)
            except Exception as exc:
                log.warning("voice: server %s not caught up: %s", guild.id, exc)

    async def permissions_changed(self, guild: discord.Guild) -> None:
        """A role or a channel's permissions changed in this server: members Discord refused may be
        editable now, a lost permission may be back (then a later loss is told again)."""
        self._refused = {key for key in self._refused if key[0] != guild.id}
        for game in await self.bot.store.active_games(guild.id):
            channel = guild.get_channel(game.voice_channel_id) if game.voice_channel_id else None
            if channel is None:
                continue
            if not voice_lacking(channel, guild.me, MUTE_PERMISSIONS):
                self._told = {k for k in self._told if k[0] != game.id or not k[1].startswith("mute")}
            elif await self.bot.store.muted_by_game(game.id):
                await self._tell_stuck(game, guild, channel)  # lost while the game holds some muted: say so now
        await self.catch_up(guild)

    async def _silenced(self, game: GameRow) -> tuple[int, ...]:
        try:
            table = await self.bot.service.load(game.id)
        except GameError:  # over meanwhile: it silences nobody
            return ()
        return voice_now(table.game, table.state).silenced

    # ----- the host told, once -----
    def _tell_host_later(self, game: GameRow, what: str, text: str) -> None:
        if (game.id, what) in self._told:
            return
        self._told.add((game.id, what))
        task = asyncio.get_running_loop().create_task(self.tell_host(game, text))
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
        table = await self.bot.service.load(game.id)
        told = lacking_in_words(self.bot, game, mutes=table.game.mutes_anyone(table.state),
                                speaks=table.game.narrated(table.state))
        self._told |= {(game.id, what) for what in told}
        return " ".join(told.values()) or None

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
        if guild is None or channel is None or voice_lacking(channel, guild.me, SPEAK_PERMISSIONS):
            return
        for text, slot in zip(texts, slots or [None] * len(texts), strict=True):
            self.narrator.say(game.guild_id, game.voice_channel_id, game_id, text, phase_seq=phase_seq, slot=slot)


def lacking_in_words(bot: VoiceBot, game: GameRow, *, mutes: bool, speaks: bool) -> dict[str, str]:
    """What the bot may not do in the game's linked channel, of what its table needs (``mutes``,
    ``speaks``), each in the sentence for the host: {"mute": ..., "speak": ...}; empty when all is
    granted or no channel is linked."""
    guild = bot.get_guild(game.guild_id)
    channel = guild.get_channel(game.voice_channel_id) if guild and game.voice_channel_id else None
    if guild is None or channel is None:
        return {}
    told = {}
    for what, needed, wanted in (("mute", MUTE_PERMISSIONS, mutes), ("speak", SPEAK_PERMISSIONS, speaks)):
        lacking = voice_lacking(channel, guild.me, needed) if wanted else []
        if lacking:
            told[what] = what_missing(what, lacking)
    return told


def what_missing(what: str, lacking: list[str], held: list[str] | None = None) -> str:
    """The sentence that tells the host which permission to grant, and what goes on meanwhile
    (with ``held``: the names of those the bot muted and cannot unmute until then)."""
    if what == "busy":
        return ("🎙️ This server's voice tables are more than Discord lets me keep up with: it allows only about "
                "ten mutes every ten seconds in a server. So that no speaker is kept muted through their turn, "
                "this game's speaking turns are called by name without muting anyone: please keep to them "
                "yourselves. Muting comes back at the game's next round of turns if the other tables allow it.")
    grant = f"please give me **{in_words(lacking)}** there"
    if "Connect" in lacking:
        grant += " (where I may not connect, Discord withholds my other voice permissions too)"
    if what != "mute":
        return f"🔈 I can't speak in the game's voice channel: {grant}. Until then the phases are only written, not said aloud."
    if not held:
        return f"🔇 I can't mute players in the game's voice channel: {grant}. Until then the game goes on without muting anyone."
    stay = "stays" if len(held) == 1 else "stay"
    return (f"🔇 I can no longer mute or unmute players in the game's voice channel: {grant}. "
            f"**{in_words(held)}** {stay} server-muted by me until then: I unmute them as soon as I may "
            "(a moderator can unmute them meanwhile). Nobody else is muted until then.")


def refused_text(guild: discord.Guild, user_id: int, member: discord.Member | None, *, mute: bool) -> str:
    """Why Discord refuses the bot one member's mute, and what the host can do."""
    name = member.display_name if member is not None else name_of(guild, user_id)
    if user_id == guild.owner_id:
        why = "they own the server, and nobody can mute its owner"
    elif member is not None and guild.me is not None and member.top_role >= guild.me.top_role:
        why = f"their highest role, **{member.top_role.name}**, is not below mine"
    else:
        why = "Discord refuses it"
    if mute:
        return (f"🔇 I can't mute **{name}** in the game's voice channel: {why}. They are left as they are "
                "(they may mute themselves while others speak); move my role above theirs in Server "
                "Settings → Roles and I try again.")
    return (f"🔇 **{name}** stays server-muted: I can't unmute them ({why}). A moderator can unmute them, "
            "or move my role above theirs in Server Settings → Roles and I unmute them at once.")
