"""The one place where a game moves: load, lock, apply, save (state + log + outbox), arm, deliver.

Nothing here knows Discord: cogs and views turn clicks into calls, and ``Delivery`` sends the outbox.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import json
import logging
import secrets
import weakref
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any

import games
from games.engine import (
    MAX_REASON,
    RECORD,
    SUBSTITUTE,
    Event,
    Game,
    GameError,
    IllegalAction,
    Outcome,
    Player,
    Prompt,
    StorytellerAction,
    View,
    public,
    rng_for,
    to_group,
)

from . import deadlines, logs, metrics
from .actor import Actor
from .clock import Clock
from .deadlines import SLACK, Deadlines
from .shards import Shards
from .store import (
    BUSY,
    FAILED,
    FULL,
    READ_ONLY,
    ChannelBusy,
    GameRow,
    MovedOn,
    NewMessage,
    Signup,
    Store,
    StoreRefused,
)
from .timers import Timers
from .voice.table import SILENT_NONE, VoiceNow, voice_now, voice_row

log = logging.getLogger(__name__)

# ----- errors a user can read -----


class NoGameHere(GameError):
    code = "no_game"


class NotAllowed(GameError):
    code = "not_allowed"


class LobbyError(GameError):
    code = "lobby"


class VoiceTaken(LobbyError):
    """The voice channel is already another game's table (``holder``, in a lobby or running): two
    games there would mute and unmute the same players against each other."""

    code = "voice_taken"

    def __init__(self, holder: GameRow) -> None:
        self.holder = holder
        super().__init__(f"🔊 That voice channel is already the table of {held_by(holder)}: two games in "
                         "one voice channel would mute and unmute the same players against each other. "
                         "Pick another voice channel, or end that game first.")

    def unlinked(self) -> str:
        """``/game new``'s note when the host's own voice channel is taken: the game has none yet."""
        return (f"🔇 No voice channel is linked yet: the one you are in is the table of {held_by(self.holder)}. "
                "Link another with `/game voice`.")


def held_by(row: GameRow) -> str:
    """A game in words, with its text channel: "game #3 (The Ritual, running in <#…>)"."""
    title = games.get(row.kind).title if row.kind in games.available() else row.kind
    status = "running" if row.status == "running" else "gathering players"
    return f"game #{row.id} ({title}, {status} in <#{row.channel_id}>)"


class NeedsConfirmation(GameError):
    """A moderator's action with a consequence they should agree to first (the game would end)."""

    code = "needs_confirmation"


class NotSaved(GameError):
    """The database refused a write: nothing changed, and the player is told so plainly."""

    code = "not_saved"


class GameMovedOn(GameError):
    """Another bot process committed to this game first (it should own the game's server; this
    happens only while shards change hands). Nothing was recorded; the player tries again."""

    code = "moved_on"


#: the longest options text /game new accepts (Discord allows 6,000 characters in a command)
MAX_OPTIONS_TEXT = 1000


def quoted(text: str, limit: int = 40) -> str:
    """A short quotation of what a user typed, for a refusal that says what it refused."""
    return repr(text if len(text) <= limit else text[:limit] + "…")


#: what a player is told when the database refused their action, by ``StoreRefused.cause``
REFUSED_BECAUSE = {
    BUSY: "the game's database is busy. Try again in a moment.",
    FULL: "the bot's disk is full. Tell the bot's operator; trying again will not help until they act.",
    READ_ONLY: "the bot's database is read-only. Tell the bot's operator; trying again will not help until they act.",
    FAILED: "the bot could not save it. Tell the bot's operator if this keeps happening.",
}


def not_saved(exc: StoreRefused) -> NotSaved:
    """The plain sentence for a database that refused a write (nothing was recorded)."""
    return NotSaved(f"That was NOT recorded: {REFUSED_BECAUSE[exc.cause]}")


def is_store_error(exc: BaseException) -> bool:
    """A refusal of the database (locked, read-only, full, closed, unreachable), as opposed to a
    bug: a log shows the traceback of a bug only."""
    return isinstance(exc, StoreRefused)


@dataclass(frozen=True)
class TimerChange:
    """Where a phase's timer stands after pause, resume, extend or shorten."""

    deadline: float | None  # the closing time while running; None while paused or without a timer
    paused: bool
    remaining: float | None  # seconds left while paused (None: the phase has no timer)
    #: the phase's seconds while its clock waits for its message to be posted
    waiting: float | None = None
    #: which phase, in words ("the Council")
    phase: str = "the phase"

    @classmethod
    def of(cls, d: Deadlines, phase: str) -> TimerChange:
        return cls(d.close, d.paused, d.remaining, d.waiting, phase)


@dataclass
class Table:
    """A running game, loaded."""

    row: GameRow
    game: Game
    state: Any


def parse_options(text: str | None) -> dict[str, Any]:
    """``"choosing_seconds=60 revenant=yes"`` -> ``{"choosing_seconds": "60", "revenant": "yes"}``.

    Values stay strings; the game's pydantic Options model converts and bounds them.
    """
    options: dict[str, Any] = {}
    for part in (text or "").replace(",", " ").split():
        key, sep, value = part.partition("=")
        if not sep or not key or not value:
            raise LobbyError(f"Options are written key=value, separated by spaces; {quoted(part)} is not.")
        options[key.strip().lower()] = value.strip()
    return options


def _check_options_length(text: str | None) -> None:
    if text and len(text) > MAX_OPTIONS_TEXT:
        raise LobbyError(f"Options can be at most {MAX_OPTIONS_TEXT} characters long; these are {len(text)}.")


PHASE_SLOT = "phase:"
#: the answer to a player's choice made while the phase's opening message is not posted yet; it
#: names no phase, since which phase comes next is what the channel is still revealing
NOT_OPEN_YET = "The next phase has not opened yet: wait for its message in the channel. Nothing was counted."
#: the group key of the private thread of a game's Storytellers
STORYTELLERS_KEY = "storytellers"


def phase_slot(phase_seq: int) -> str:
    """The living message of a phase: the channel message that opened it."""
    return f"{PHASE_SLOT}{phase_seq}"


def phase_of_slot(slot: str) -> int | None:
    """``"phase:7"`` -> 7; None for a slot that is not a phase's."""
    return int(slot[len(PHASE_SLOT):]) if slot.startswith(PHASE_SLOT) else None


def refresh(slot: str) -> NewMessage:
    """An edit of a living message to what the game row says when it is delivered."""
    return NewMessage("channel", None, '{"type": "refresh"}', op="refresh", slot=slot)


#: the outbox target of a game's end: undo what its nights changed on Discord (``undo_row``)
UNDO = "undo"


def undo_row() -> NewMessage:
    """The row, written with a game's end or cancel, that undoes on Discord what the game changed
    and must not outlive it (the town square's night): durable, retried, idempotent."""
    return NewMessage(UNDO, None, '{"type": "undo"}')


def opens_in_channel(events: list[Event]) -> bool:
    return any(e.opens_phase and e.audience.kind == "public" for e in events)


def new_seed() -> int:
    """The seed of a new game's randomness (tests replace it to replay a game exactly)."""
    return secrets.randbits(31)


async def _nobody(game_id: int, shard: int) -> None:
    """No one to tell: the owner's sweep finds the game's work (SQLite: one process)."""


#: a moderator's notice to the table about the timer, worded from where the timer stands
Notice = Callable[[TimerChange], str]


@dataclass
class Held:
    """The games whose delivery a batch holds back (in the order they committed), until released."""
    games: dict[int, None] = field(default_factory=dict)
    released: bool = False


class GameService:
    #: how long after a failed timeout (a locked, read-only or full database) it is tried again
    RETRY_SECONDS = 5.0
    #: how long a sweep's claim on an overdue phase keeps other processes off it
    CLAIM_SECONDS = 60.0
    #: the most overdue phases one timeout closes in a row (the sweep goes on from there)
    CHAIN_LIMIT = 50

    def __init__(self, store: Store, clock: Clock, on_messages: Callable[[int], None] | None = None,
                 *, clock_waits_for_opener: bool = False, shards: Shards | None = None):
        self.store = store
        self.clock = clock
        #: the shards this process runs: it sweeps, re-arms and delivers only their servers' games
        #: (None: every game, one process)
        self.shards = shards
        #: a phase opened by a channel message starts its clock, and takes players' choices, when
        #: that message is posted (``start_clock``, called by the delivery); without a delivery,
        #: at the commit
        self.clock_waits_for_opener = clock_waits_for_opener
        self.timers = Timers(clock, self.on_deadline, self.on_reminder, self.on_turn,
                             fire_many=self.on_deadlines)
        #: one lock per game, alive only while someone holds or waits on it (no growth per game ever run)
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        #: one lock per voice channel being linked: two games never both take one (``_link_lock``)
        self._linking: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        #: the last committed state of each running game, written only after its commit, so a
        #: click need not read and parse it again. A writer takes the entry out while it applies
        #: in place, so a reader meanwhile reads the committed row, never a state not yet committed.
        self._cache: dict[int, Table] = {}
        #: bumped by every write to a game: a reader only caches what it read if none came between
        self._generation: dict[int, int] = {}
        self._notify = on_messages or (lambda game_id: None)
        #: the games whose delivery waits for the end of ``held_notifications`` (None: not held);
        #: a context variable, so only the batch's own commits wait, never another game's click
        self._held: contextvars.ContextVar[Held | None] = contextvars.ContextVar(
            f"held-{id(self)}", default=None)
        #: game -> the latest phase whose opening message is known to be posted (``opener_unposted``)
        self._posted: dict[int, int] = {}
        #: game -> the phase whose opening message this process committed and has not yet posted
        #: (its delivery tells ``start_clock`` when it is): no outbox read per action meanwhile
        self._unposted: dict[int, int] = {}
        #: called with a game's id when it finishes or is cancelled (to free what is kept per game)
        self.on_game_over: list[Callable[[int], None]] = []
        #: awaited with the id of a game this process committed to but does not own (a DM click
        #: reaches shard 0's process only): tells the owner at once (PostgreSQL's NOTIFY); by
        #: default nothing, and the owner's sweep finds the work. Never raises.
        self.hand_over: Callable[[int, int], Awaitable[None]] = _nobody
        #: a clean stop has begun: no sweep claims an overdue phase any more (``stop_claiming``)
        self.stopping = False
        self._claiming = asyncio.Lock()

    def owns(self, row: GameRow) -> bool:
        """Whether this process owns the game: it runs the shard of the game's server."""
        return self.shards is None or (row.guild_id >> 22) % self.shards.count in self.shards.ids

    def lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    def _link_lock(self, channel_id: int | None) -> asyncio.Lock | contextlib.nullcontext:
        """Held while a game takes a voice channel, so two games linking it at once see each other."""
        if channel_id is None:
            return contextlib.nullcontext()
        lock = self._linking.get(channel_id)
        if lock is None:
            lock = self._linking[channel_id] = asyncio.Lock()
        return lock

    async def _refuse_taken_voice(self, guild_id: int, channel_id: int | None, game_id: int | None) -> None:
        """Refuse (``VoiceTaken``) a voice channel that is the table of another game in a lobby or
        running: one voice channel is one game's table at a time."""
        if channel_id is None:
            return
        for row in await self.store.active_games(guild_id):
            if row.voice_channel_id == channel_id and row.id != game_id:
                raise VoiceTaken(row)

    def _messages_ready(self, game_id: int) -> None:
        """The game has new outbox rows: delivery starts now, or at the end of the hold."""
        held = self._held.get()
        if held is None or held.released:  # (a task started within a hold may outlive it)
            self._notify(game_id)
        else:
            held.games[game_id] = None

    @contextmanager
    def held_notifications(self) -> Iterator[None]:
        """Within it, the commits of this task wait to be delivered until it ends, then all go at
        once: many stages due together are closed first, none held back by Discord on the way."""
        outer = self._held.get()
        if outer is not None and not outer.released:  # already held by an outer batch
            yield
            return
        held = Held()
        token = self._held.set(held)
        try:
            yield
        finally:
            self._held.reset(token)
            held.released = True
            for game_id in held.games:
                self._notify(game_id)

    def _bump(self, game_id: int) -> None:
        self._generation[game_id] = self._generation.get(game_id, 0) + 1

    def _game_over(self, game_id: int) -> None:
        self._cache.pop(game_id, None)
        self._generation.pop(game_id, None)
        self._posted.pop(game_id, None)
        self._unposted.pop(game_id, None)
        self.timers.cancel(game_id)
        for listener in self.on_game_over:
            listener(game_id)

    async def _saving(self, write: Awaitable[Any]) -> Any:
        """Await a database write; a refused write becomes a sentence saying nothing was recorded.

        The write is awaited inside the store's boundary too (``Store.refusals``), the one place a
        driver's error is sorted out here: a store method replaced at run time (as the fault tests
        replace them, raising the driver's own errors) is converted as the store's own are."""
        try:
            with self.store.refusals():
                return await write
        except StoreRefused as exc:
            log.warning("database write refused: %s", exc)
            raise not_saved(exc) from exc

    # ----- finding games -----
    async def game_here(self, channel_id: int | None, parent_id: int | None = None) -> GameRow:
        """The active game of a channel, of one of a game's threads (a player's private thread,
        the Storytellers' thread, the announcement thread), or of the channel a thread is in
        (None, an interaction with no channel: no game)."""
        row = None if channel_id is None else (
            await self.store.active_game_in_channel(channel_id) or await self.store.game_of_thread(channel_id)
            or (await self.store.active_game_in_channel(parent_id) if parent_id else None))
        if row is None:
            raise NoGameHere("There is no game in this channel. Start one with `/game new`.")
        return row

    async def traveller_seat(self, row: GameRow, user_id: int) -> int:
        """The seat a Traveller signed up for, else the first seat free in the circle."""
        table = await self.load(row.id)
        taken = {p.seat for p in table.state.players}
        mine = next((s for s in await self.store.signups(row.id) if s.user_id == user_id), None)
        if mine is not None and mine.seat is not None and mine.seat not in taken:
            return mine.seat
        return next(n for n in range(1, 100) if n not in taken)

    async def game_in_channel(self, channel_id: int | None) -> GameRow:
        row = None if channel_id is None else await self.store.active_game_in_channel(channel_id)
        if row is None:
            raise NoGameHere("There is no game in this channel. Start one with `/game new`.")
        return row

    async def load(self, game_id: int) -> Table:
        """The committed state of a running game (cached after the first read)."""
        cached = self._cache.get(game_id)
        if cached is not None:
            return cached
        generation = self._generation.get(game_id, 0)
        row = await self.store.game(game_id)
        if row is None:
            raise NoGameHere("That game no longer exists.")
        game = games.get(row.kind)
        if row.status == "finished" and await self.store.pending_messages(game_id):
            # its ending is still being shown in beats: saying "over" would run ahead of the reveal
            raise NoGameHere("That phase has closed. What happened is being shown in the channel now.")
        if row.status != "running" or row.state is None:
            raise NoGameHere({
                "lobby": "That game has not started yet.",
                "finished": "That game is over.",
                "cancelled": "That game was cancelled.",
            }.get(row.status, "That game is not running."))
        table = Table(row, game, game.load_state(row.state))
        if self._generation.get(game_id, 0) == generation and not self.lock(game_id).locked() \
                and self.owns(row):  # (another process's game moves on there: read it each time)
            self._cache[game_id] = table  # nothing was written since the read
        return table

    async def _load_for_write(self, game_id: int) -> Table:
        """The game's state for a writer (who holds the lock), taken out of the cache, so that
        the in-place apply never shows readers a state that was not committed. (Under the lock,
        ``load`` never caches what it reads, so the copy is the writer's alone.)"""
        table = await self.load(game_id)
        self._cache.pop(game_id, None)
        self._bump(game_id)
        return table

    async def row(self, game_id: int) -> GameRow | None:
        """A game's row: the cached one of a running game, else read (any status)."""
        cached = self._cache.get(game_id)
        return cached.row if cached is not None else await self.store.game(game_id)

    # ----- permissions -----
    async def is_moderator(self, row: GameRow, actor: Actor) -> bool:
        if actor.manage_guild or actor.id == row.host_id:
            return True
        if games.get(row.kind).storytellers and actor.id in await self.storyteller_ids(row):
            return True  # a co-Storyteller pauses, extends and shortens the game's clock
        role = await self.store.storyteller_role(row.guild_id)
        return role is not None and role in actor.role_ids

    async def require_moderator(self, row: GameRow, actor: Actor) -> None:
        if not await self.is_moderator(row, actor):
            raise NotAllowed("Only the host, a storyteller, or a member with Manage Server can do that.")

    async def storyteller_ids(self, row: GameRow) -> list[int]:
        """The game's Storytellers: its host first, then the co-Storytellers."""
        return [row.host_id, *(uid for uid, _ in await self.store.storytellers(row.id) if uid != row.host_id)]

    async def require_storyteller(self, row: GameRow, actor: Actor) -> None:
        """Only the game's own Storytellers act as its Storyteller (not any moderator: the grimoire
        is theirs). A server admin adds themselves with ``/st cohost`` first."""
        if actor.id not in await self.storyteller_ids(row):
            raise NotAllowed("Only this game's Storytellers can do that.")

    async def add_storyteller(self, game_id: int, actor: Actor, member: Actor) -> GameRow:
        """A co-Storyteller: never someone signed up to play."""
        async with self.lock(game_id):
            row = await self._game_or_refuse(game_id)
            if actor.id not in await self.storyteller_ids(row) and not actor.manage_guild:
                raise NotAllowed("Only this game's Storytellers (or a member with Manage Server) can add one.")
            if member.id in await self.storyteller_ids(row):
                raise LobbyError(f"{member.name} is already a Storyteller of this game.")
            if await self._plays(row, member.id):
                raise LobbyError(f"{member.name} plays in this game, so they cannot be its Storyteller.")
            await self._saving(self.store.add_storyteller(game_id, member.id, member.name, self.clock.now()))
            return row

    async def remove_storyteller(self, game_id: int, actor: Actor, member_id: int) -> GameRow:
        async with self.lock(game_id):
            row = await self._game_or_refuse(game_id)
            await self.require_storyteller(row, actor)
            if member_id == row.host_id:
                raise LobbyError("The game's host stays its Storyteller.")
            if not await self._saving(self.store.remove_storyteller(game_id, member_id)):
                raise LobbyError("They are not a co-Storyteller of this game.")
            return row

    async def _game_or_refuse(self, game_id: int) -> GameRow:
        row = await self.store.game(game_id)
        if row is None or row.status not in ("lobby", "running"):
            raise LobbyError("That game is over.")
        return row

    async def _plays(self, row: GameRow, user_id: int) -> bool:
        """Signed up (as a player or Traveller) or seated in the game."""
        if any(s.user_id == user_id and s.kind != "spectator" for s in await self.store.signups(row.id)):
            return True
        if row.status == "running":
            table = await self.load(row.id)
            return any(p.id == str(user_id) for p in table.state.players)
        return False

    # ----- lobby -----
    async def new_game(self, *, kind: str, guild_id: int, channel_id: int, host: Actor,
                       options_text: str | None = None, min_players: int | None = None,
                       max_players: int | None = None, voice_channel_id: int | None = None) -> GameRow:
        game = games.get(kind)
        _check_options_length(options_text)
        options = parse_options(options_text)
        parsed = game.parse_options(options)  # a malformed option is refused now, not at start
        low, high = game.player_range(parsed)
        lo = low if min_players is None else min_players
        hi = high if max_players is None else max_players
        if not game.min_players <= lo <= hi <= game.max_players:
            raise LobbyError(
                f"{game.title} takes {game.min_players} to {game.max_players} players; "
                f"limits {lo}-{hi} don't fit.")
        try:
            async with self._link_lock(voice_channel_id):
                await self._refuse_taken_voice(guild_id, voice_channel_id, None)
                game_id = await self._saving(self.store.create_game(
                    kind=game.name, guild_id=guild_id, channel_id=channel_id, host_id=host.id,
                    seed=new_seed(), options=options, min_players=lo, max_players=hi,
                    now=self.clock.now(), host_name=host.name, seat_host=not game.storytellers,
                    voice_channel_id=voice_channel_id))
        except ChannelBusy:
            raise LobbyError("This channel already has a game. Use a thread or another channel, "
                             "or end that one first.") from None
        return await self._written(game_id)

    async def _written(self, game_id: int) -> GameRow:
        """The row of a game this process has just written (gone only if deleted meanwhile)."""
        row = await self.store.game(game_id)
        if row is None:
            raise NoGameHere("That game no longer exists.")
        return row

    async def _lobby(self, game_id: int) -> GameRow:
        row = await self.store.game(game_id)
        if row is None or row.status != "lobby":
            raise LobbyError("That game is not taking players any more.")
        return row

    async def join(self, game_id: int, actor: Actor, *, seat: int | None = None, kind: str = "player") -> str:
        """Sign up (``kind``: player, traveller or spectator), in a seat where the game has seats.
        Someone already signed up moves to the new seat or kind. Returns what happened, in words."""
        async with self.lock(game_id):
            row = await self.store.game(game_id)
            if row is None or row.status not in ("lobby", "running") or (
                    row.status == "running" and kind == "player"):
                raise LobbyError("That game is not taking players any more."
                                 + (" Ask a Storyteller about travelling in (`/travel in`)."
                                    if row is not None and row.status == "running"
                                    and games.get(row.kind).storytellers else ""))
            game = games.get(row.kind)
            if kind != "player" and not game.storytellers:
                raise LobbyError(f"{game.title} has no Travellers or spectators; use `/game join`.")
            if game.storytellers and actor.id in await self.storyteller_ids(row):
                raise LobbyError("You are a Storyteller of this game: Storytellers are not seated.")
            signups = await self.store.signups(game_id)
            mine = next((s for s in signups if s.user_id == actor.id), None)
            if row.status == "running" and await self._plays(row, actor.id) and mine is None:
                raise LobbyError("You are already seated in this game.")
            others = [s for s in signups if s.user_id != actor.id]
            seat = self._choose_seat(row, game, others, seat, kind)
            self._check_room(row, game, others, kind)
            if mine is None:
                await self._saving(self.store.add_player(game_id, actor.id, actor.name, self.clock.now(),
                                                         seat=seat, kind=kind))
            elif (mine.seat, mine.kind) == (seat, kind):
                raise LobbyError("You are already in this game." + (f" (seat {seat})" if seat else ""))
            else:
                await self._saving(self.store.change_signup(game_id, actor.id, seat=seat, kind=kind))
            where = f" in seat {seat}" if seat else ""
            what = {"player": "signed up", "traveller": "signed up as a Traveller", "spectator": "spectating"}[kind]
            return f"{actor.name} is {what}{where}." if mine is None else f"{actor.name} is now {what}{where}."

    @staticmethod
    def _choose_seat(row: GameRow, game: Game, others: list[Signup], seat: int | None, kind: str) -> int | None:
        if not game.seats or kind == "spectator":
            if seat is not None and game.seats:
                raise LobbyError("Spectators do not take a seat.")
            if seat is not None:
                raise LobbyError(f"{game.title} has no numbered seats; use `/game join`.")
            return None
        highest = row.max_players + game.max_travellers
        taken = {s.seat: s for s in others if s.seat is not None}
        if seat is None:
            return next(n for n in range(1, highest + 2) if n not in taken)
        if not 1 <= seat <= highest:
            raise LobbyError(f"Seats are numbered 1 to {highest}.")
        if seat in taken:
            raise LobbyError(f"Seat {seat} is {taken[seat].name}'s. Free seats: "
                             f"{', '.join(str(n) for n in range(1, highest + 1) if n not in taken) or 'none'}.")
        return seat

    @staticmethod
    def _check_room(row: GameRow, game: Game, others: list[Signup], kind: str) -> None:
        if kind == "player" and sum(s.kind == "player" for s in others) >= row.max_players:
            raise LobbyError(f"The table is full ({row.max_players} players)."
                             + (" You can still `/travel in` or `/spectate`." if game.storytellers else ""))
        if kind == "traveller" and sum(s.kind == "traveller" for s in others) >= game.max_travellers:
            raise LobbyError(f"There are already {game.max_travellers} Travellers signed up.")

    async def leave(self, game_id: int, actor: Actor) -> GameRow:
        async with self.lock(game_id):
            row = await self.store.game(game_id)
            if row is None or row.status not in ("lobby", "running"):
                raise LobbyError("That game is not taking players any more.")
            if row.status == "running":
                mine = next((s for s in await self.store.signups(game_id) if s.user_id == actor.id), None)
                seated = await self._plays(row, actor.id) and (mine is None or mine.kind == "player")
                if mine is None or seated:
                    raise LobbyError("The game has begun: a seated player stays in it. Ask a Storyteller to "
                                     "find a substitute." if seated else "You are not in this game.")
            if not await self._saving(self.store.remove_player(game_id, actor.id)):
                raise LobbyError("You are not in this game.")
            return row

    async def set_option(self, game_id: int, actor: Actor, key: str, value: Any) -> dict[str, Any]:
        """Change one option of a game still gathering players (the Storyteller's script or pool)."""
        async with self.lock(game_id):
            row = await self._lobby(game_id)
            await self.require_storyteller(row, actor)
            game = games.get(row.kind)
            options = {**row.options, key: value}
            if value in (None, ""):
                options.pop(key)
            parsed = game.parse_options(options)  # refused in words, and nothing changes
            limits = None  # a table left at its options' player counts follows them (a new script's)
            if (row.min_players, row.max_players) == game.player_range(game.parse_options(row.options)):
                limits = game.player_range(parsed)
            await self._saving(self.store.set_options(game_id, options, self.clock.now(), limits))
            return options

    async def set_voice_channel(self, game_id: int, actor: Actor, channel_id: int | None) -> GameRow:
        """Link the game to a voice channel (None: unlink); the host's or a moderator's to change.
        In a running game the mutes follow at once: nobody stays muted in a channel left behind.
        A channel that is another live game's table is refused (``VoiceTaken``). Returns the
        game's row as linked now."""
        async with self.lock(game_id), self._link_lock(channel_id):
            row = await self._game_or_refuse(game_id)
            if actor.id != row.host_id and not await self.is_moderator(row, actor):
                raise NotAllowed("Only the host or a moderator can change the game's voice channel.")
            if games.get(row.kind).storytellers:
                raise LobbyError(f"{games.get(row.kind).title} is played in text, with no voice table: "
                                 "there is nothing to link.")
            await self._refuse_taken_voice(row.guild_id, channel_id, game_id)
            messages = []
            if row.status == "running":
                table = await self.load(game_id)
                messages.append(voice_row(voice_now(table.game, table.state) if channel_id else SILENT_NONE))
            self._cache.pop(game_id, None)
            self._bump(game_id)
            await self._saving(self.store.set_voice_channel(game_id, channel_id, self.clock.now(), messages))
            if messages:
                self._messages_ready(game_id)
            return replace(row, voice_channel_id=channel_id)

    async def set_thread_channel(self, game_id: int, actor: Actor, channel_id: int) -> GameRow:
        async with self.lock(game_id):
            row = await self._lobby(game_id)
            await self.require_storyteller(row, actor)
            await self._saving(self.store.set_thread_channel(game_id, channel_id))
            return row

    async def start(self, game_id: int, actor: Actor, forced: dict | None = None) -> Table:
        async with self.lock(game_id):
            row = await self._lobby(game_id)
            game = games.get(row.kind)
            if game.storytellers:
                await self.require_storyteller(row, actor)
            elif actor.id != row.host_id and not actor.manage_guild:
                raise NotAllowed("Only the host can start the game.")
            lobby = [s for s in await self.store.signups(game_id) if s.kind == "player"]
            if not row.min_players <= len(lobby) <= row.max_players:
                raise LobbyError(f"This game needs {row.min_players} to {row.max_players} players; "
                                 f"{len(lobby)} joined.")
            players = [Player(id=str(s.user_id), name=s.name, seat=s.seat if game.seats else None)
                       for s in lobby]
            outcome = game.setup(players, row.options, rng_for(row.seed, 0), forced)
            await self._commit(row, game, None, outcome, actor_id=actor.id, action=None,
                               status="running", before_voice=SILENT_NONE)
            return Table(await self._written(game_id), game, outcome.state)

    async def cancel(self, game_id: int, actor: Actor) -> GameRow:
        async with self.lock(game_id):
            row = await self.store.game(game_id)
            if row is None or row.status not in ("lobby", "running"):
                raise LobbyError("That game is already over.")
            if actor.id != row.host_id and not actor.manage_guild:
                raise NotAllowed("Only the host or a member with Manage Server can cancel the game.")
            self._cache.pop(game_id, None)
            self._bump(game_id)
            try:
                await self._saving(self.store.set_status(
                    game_id, "cancelled", self.clock.now(),
                    messages=[refresh(phase_slot(row.phase_seq)), voice_row(SILENT_NONE), undo_row()]))  # unmute, undo
            except MovedOn:
                raise LobbyError("That game is already over.") from None
            self._game_over(game_id)
            self._messages_ready(game_id)
            return row

    # ----- play -----
    async def act(self, game_id: int, actor_id: int | None, action: dict[str, Any],
                  *, moderator: bool = False) -> Outcome:
        """Apply one action durably. Raises a GameError (nothing changed) when refused."""
        async with self.lock(game_id):
            table = await self.load(game_id)
            if table.row.paused and not moderator:
                raise IllegalAction("The game is paused; wait for the host to resume it.", code="paused")
            if not moderator and await self.opener_unposted(table):
                raise IllegalAction(NOT_OPEN_YET, code="not_open_yet")
            return await self._apply(game_id, actor_id, action)

    async def opener_unposted(self, table: Table) -> bool:
        """Whether the current phase's opening message is still on its way to the channel (behind
        a reveal shown in beats). Until it is posted the phase shows to no one privately and takes
        no player's choice: a player never learns what comes next before the table does.

        Known from the commit that opened the phase and the delivery (``start_clock`` is told of
        every opener posted or given up), in the process that owns the game; else read once per
        phase from the outbox. A phase with no opening message counts as posted."""
        if not self.clock_waits_for_opener:
            return False  # no delivery reports the posting: a phase opens at its commit
        game_id, seq = table.row.id, table.state.phase_seq
        if self._posted.get(game_id, -1) >= seq:
            return False
        if table.row.deadlines.waiting is not None or (self._unposted.get(game_id) == seq and self.owns(table.row)):
            return True
        if not any(m.op == "send" and m.slot == phase_slot(seq) for m in await self.store.pending_messages(game_id)):
            self._posted[game_id] = max(self._posted.get(game_id, -1), seq)
            return False
        return True

    async def storyteller_act(self, game_id: int, actor: Actor, action: dict[str, Any]) -> Outcome:
        """An action by one of the game's Storytellers (checked here), in the log as theirs."""
        async with self.lock(game_id):
            table = await self.load(game_id)
            await self.require_storyteller(table.row, actor)
            return await self._apply(game_id, actor.id, {**action, "player": str(actor.id)}, storyteller=True)

    @logs.game_scope  # its log lines carry the game and the action
    async def _apply(self, game_id: int, actor_id: int | None, action: dict[str, Any], *,
                     storyteller: bool = False, anchor: float | None = None,
                     turn_since: float | None = None) -> Outcome:
        """Apply and commit one action; the caller holds the game's lock. ``anchor``: the deadline
        that closed the phase (a game with a fixed schedule starts the next phase from it);
        ``turn_since``: the end of the speaking turn that ran out (the next turn starts from it)."""
        table = await self._load_for_write(game_id)
        logs.bind(guild_id=table.row.guild_id)
        try:
            parsed = table.game.parse_action(action)
            if isinstance(parsed, StorytellerAction) and not storyteller:
                raise NotAllowed("Only this game's Storytellers can do that.")
        except GameError:
            if self.owns(table.row):  # (another process's game moves on there: never cached here)
                self._cache.setdefault(game_id, table)  # refused before anything was touched
            raise
        before_seq, before_step = table.state.phase_seq, table.state.step
        before_voice = voice_now(table.game, table.state)
        # in place: the state is this writer's own copy, out of the cache; after an error it is
        # simply dropped, and the next reader reads the committed row again
        outcome = table.game.apply(table.state, parsed, rng_for(table.row.seed, table.state.step + 1),
                                   in_place=True)
        await self._commit(table.row, table.game, before_seq, outcome, actor_id=actor_id,
                           action=parsed.model_dump_json(exclude_defaults=False), anchor=anchor,
                           follows=before_step, before_voice=before_voice, turn_since=turn_since)
        return outcome

    async def _commit(self, row: GameRow, game: Game, before_seq: int | None, outcome: Outcome, *,
                      actor_id: int | None, action: str | None, status: str | None = None,
                      anchor: float | None = None, follows: int | None = None,
                      before_voice: VoiceNow = SILENT_NONE, turn_since: float | None = None) -> None:
        state = outcome.state
        now = self.clock.now()
        clocks = row.deadlines
        new_phase = before_seq is None or state.phase_seq != before_seq
        if new_phase:
            # the clock starts when the phase's message is posted (``start_clock``), so the
            # narration queued before it never eats the players' time
            waits = self.clock_waits_for_opener and not game.fixed_schedule and opens_in_channel(outcome.events)
            start = anchor if anchor is not None and game.fixed_schedule else now
            clocks = deadlines.open_phase(clocks, game.phase_seconds(state), start=start, waits_for_opener=waits)
        records = [e for e in outcome.events if e.audience.kind == "record"]
        if state.finished:
            earlier = [Event(type=kind, audience=RECORD, data=data) for kind, data in await self.store.records(row.id)]
            outcome.events.extend(game.recap(state, earlier + records))
        if state.finished:
            clocks, status = deadlines.end(), "finished"
        messages = self.messages(row, game, state, outcome.events)
        if before_seq is not None and (new_phase or state.finished):
            messages.append(refresh(phase_slot(before_seq)))  # the old phase's message says closed
        voice = voice_now(game, state) if status in (None, "running") else SILENT_NONE
        # at the end always, linked or not: the narrator leaves even a channel unlinked mid-game
        if voice.silenced != before_voice.silenced or state.finished:
            messages.append(voice_row(voice, before_voice))  # after the step's messages
        if state.finished:
            messages.append(undo_row())  # what its nights changed, undone (after its last word)
        if not state.finished:
            clocks = deadlines.remind(clocks, now, game.reminder_seconds(state))
            clocks = deadlines.next_turn(clocks, now, voice.turn.seconds if voice.turn is not None else None,
                                         same_turn=before_voice.turn_key == voice.turn_key, since=turn_since)
        substitutes = [(int(e.data["old"]), int(e.data["new"]), state.name(e.data["new"]))
                       for e in outcome.events if e.type == SUBSTITUTE and e.audience.kind == "public"
                       and str(e.data.get("old", "")).isdigit() and str(e.data.get("new", "")).isdigit()]
        started = metrics.now()
        try:
            await self._saving(self.store.commit_step(
                row.id, state=state.model_dump_json(), phase_seq=state.phase_seq, step=state.step,
                deadlines=clocks, status=status or row.status, actor_id=actor_id, action=action,
                messages=messages, now=now, substitutes=substitutes,
                records=[(e.type, json.dumps(e.data)) for e in records], follows=follows, as_read=row))
        except MovedOn:
            self._cache.pop(row.id, None)
            self._bump(row.id)
            raise GameMovedOn("That was NOT recorded: the game moved on at that moment. Look again and "
                              "try once more.") from None
        metrics.observe_commit(row.kind, started)
        self._bump(row.id)
        if not self.owns(row):  # committed here, armed and delivered by its owner
            assert self.shards is not None  # (owns() is True without shards)
            if state.finished or status not in (None, "running"):
                self._game_over(row.id)
            await self.hand_over(row.id, self.shards.of(row.guild_id))
            return
        if status in (None, "running") and not state.finished:
            if new_phase:  # whether its opener is on its way is known now: no outbox read per action
                if opens_in_channel(outcome.events):
                    self._unposted[row.id] = state.phase_seq
                else:
                    self._posted[row.id] = max(self._posted.get(row.id, -1), state.phase_seq)
            self._cache[row.id] = Table(
                replace(row.timed(clocks), state=None, phase_seq=state.phase_seq, status="running"), game, state)
            # (a timeout that opened a phase already overdue arms none: ``on_deadline`` closes it next)
            self.timers.follow(row.id, state.phase_seq, clocks,
                               arm_close=anchor is None or not clocks.due(now, SLACK))
        else:
            self._game_over(row.id)
        if messages:
            self._messages_ready(row.id)

    def messages(self, row: GameRow, game: Game, state: Any, events: list[Event]) -> list[NewMessage]:
        out: list[NewMessage] = []
        narrated = game.narrated(state)
        pictures: dict[str, str | None] = {}  # one step's picture of a kind is made once
        for event in events:
            if event.say and not narrated:
                event = event.model_copy(update={"say": ""})
            payload = event.model_dump_json()
            # a picture is kept as its data and drawn at delivery, off the event loop
            picture = None
            if event.image:
                if event.image not in pictures:
                    data = game.picture(state, event.image)
                    pictures[event.image] = json.dumps(data) if data is not None else None
                picture = pictures[event.image]
            kind = event.audience.kind
            if kind == "public" and event.slot:
                out.append(NewMessage("channel", None, payload, picture=picture, op="slot",
                                      slot=f"game:{event.slot}"))
            elif kind == "public":
                slot = phase_slot(state.phase_seq) if event.opens_phase else None
                out.append(NewMessage("channel", None, payload, picture=picture, slot=slot))
            elif kind == "player":
                out.append(NewMessage("dm", int(event.audience.id), payload, picture=picture))
            elif kind == "team":
                for member in game.team_members(state, event.audience.id):
                    out.append(NewMessage("dm", int(member), payload, picture=picture))
            elif kind == "storyteller" and game.private_threads:
                # the Storytellers' own thread: every Storyteller is in each of the game's threads
                told = event.model_copy(update={"audience": to_group(STORYTELLERS_KEY, ())})
                out.append(NewMessage("group", None, told.model_dump_json(), picture=picture))
            elif kind == "storyteller":
                if not any(p.id == str(row.host_id) for p in state.players):  # never a seated player
                    out.append(NewMessage("dm", row.host_id, payload, picture=picture))
            elif kind in ("group", "thread"):
                out.append(NewMessage("group", None, payload, picture=picture))
        return out

    # ----- timers -----
    async def on_deadline(self, game_id: int, phase_seq: int) -> bool:
        """A phase's deadline passed: close it, and each next phase already overdue too (a fixed
        schedule after downtime), in order, each in its own transaction with its messages. Stale
        or paused timers do nothing.

        The chain is closed here, not by a timer: a job armed under this job's name while it runs
        is skipped by the scheduler, which left the rest of the chain to the sweep.
        Never raises: a timeout the database refuses (locked, read-only, full) is logged and tried
        again in ``RETRY_SECONDS``; the minute sweep (``sweep``) is the net under any lost job.
        Returns whether a phase was closed.
        """
        closed = 0
        try:
            async with self.lock(game_id):
                while closed < self.CHAIN_LIMIT:
                    row = await self.store.game(game_id)
                    if row is None or row.status != "running" or row.phase_seq != phase_seq:
                        break
                    clocks = row.deadlines
                    if clocks.paused or clocks.close is None:
                        break
                    if not clocks.due(self.clock.now(), SLACK):  # extended meanwhile, or not due yet: re-arm
                        self.timers.arm(game_id, row.phase_seq, clocks.close)
                        break
                    if self.shards is not None:  # another process may have committed to it (a DM click)
                        self._cache.pop(game_id, None)
                    outcome = await self._apply(game_id, None, {"type": "phase_timeout", "phase_seq": phase_seq},
                                                anchor=clocks.close)
                    closed += 1
                    if outcome.state.phase_seq == phase_seq:
                        break
                    phase_seq = outcome.state.phase_seq
                return closed > 0
        except GameError as exc:
            if not isinstance(exc, NotSaved):
                log.warning("game %s: timeout of phase %s refused: %s", game_id, phase_seq, exc)
                return closed > 0
            cause: BaseException = exc.__cause__ or exc
        except Exception as exc:
            cause = exc
        # the database refused (or a bug): the traceback only for what is not the database
        log.warning("game %s: timeout of phase %s failed (%s); retrying in %.0f s", game_id, phase_seq,
                    cause, self.RETRY_SECONDS, exc_info=not is_store_error(cause))
        self.timers.retry(game_id, phase_seq, self.RETRY_SECONDS)
        return closed > 0

    async def on_reminder(self, game_id: int, phase_seq: int) -> bool:
        """The game has been quiet for its ``reminder_seconds``: tell the table what the game
        says (a mention of the player it waits for). Once per quiet stretch; never raises (a
        reminder the database refuses stays due, and the minute sweep tries it again)."""
        try:
            async with self.lock(game_id):
                row = await self.store.game(game_id)
                if row is None or row.status != "running" or row.phase_seq != phase_seq:
                    return False
                clocks = row.deadlines
                if clocks.paused or clocks.remind_at is None:
                    return False
                if not clocks.reminder_due(self.clock.now()):  # something happened meanwhile
                    self.timers.arm_reminder(game_id, phase_seq, clocks.remind_at)
                    return False
                table = await self.load(game_id)
                messages = self.messages(row, table.game, table.state, table.game.remind(table.state))
                self._cache.pop(game_id, None)
                self._bump(game_id)
                sent = await self.store.remind(game_id, phase_seq, messages, self.clock.now())
        except Exception as exc:
            log.warning("game %s: reminder of phase %s failed (%s)", game_id, phase_seq, exc,
                        exc_info=not is_store_error(exc))
            return False
        if sent and messages:
            self._messages_ready(game_id)
        return sent

    async def on_turn(self, game_id: int, phase_seq: int) -> bool:
        """The speaking turn's seconds passed: the floor goes to the next speaker (``TurnOver``),
        whose turn starts when this one was due to end. Turns that ran out meanwhile (the bot was
        down) are over too, each in its own step, delivered together: the turn due now runs, with
        what is left of it (``Deadlines.turn_due``). Never raises: a refused write leaves the turn
        due, and the minute sweep tries again."""
        moved = False
        try:
            with self.held_notifications():  # the turns long past are never shown or said
                async with self.lock(game_id):
                    while True:
                        row = await self.store.game(game_id)
                        if row is None or row.status != "running" or row.phase_seq != phase_seq:
                            return moved
                        clocks = row.deadlines
                        if clocks.paused or clocks.turn_ends is None:
                            return moved
                        if not clocks.turn_due(self.clock.now()):  # the turn moved meanwhile
                            self.timers.arm_turn(game_id, phase_seq, clocks.turn_ends)
                            return moved
                        if not await self._turn_over(game_id, None, since=clocks.turn_ends):
                            return moved
                        moved = True
        except Exception as exc:
            log.warning("game %s: the speaking turn of phase %s did not move on (%s)", game_id, phase_seq, exc,
                        exc_info=not is_store_error(exc) and not isinstance(exc, GameError))
            return moved

    async def _turn_over(self, game_id: int, actor_id: int | None, since: float | None = None) -> bool:
        """Give the floor to the next speaker; the caller holds the game's lock. ``since``: when
        the turn was due to end (its clock ran out), else the next turn starts now."""
        table = await self.load(game_id)
        turn = table.game.speaking_turn(table.state)
        if turn is None:
            return False
        await self._apply(game_id, actor_id, {"type": "turn_over", "phase_seq": table.state.phase_seq,
                                              "turn": turn.index}, turn_since=since)
        return True

    async def skip_turn(self, game_id: int, actor: Actor) -> str:
        """A moderator ends the current speaking turn now; returns the name of the one who had the floor."""
        async with self.lock(game_id):
            table = await self._moderated(game_id, actor)
            turn = table.game.speaking_turn(table.state)
            if turn is None:
                raise IllegalAction("No one has a speaking turn right now.", code="no_turn")
            await self._turn_over(game_id, actor.id)
            return table.state.name(turn.speaker)

    async def start_clock(self, game_id: int, phase_seq: int, started_at: float,
                          delivered: list[int]) -> float | None:
        """The phase's opening message was posted at ``started_at``: its clock runs from then.
        The delivered rows are marked in the same transaction, so a crash cannot post the message
        twice or leave the phase without a clock. Returns the deadline, or None when the phase
        was not waiting (moved on, paused, or already running)."""
        async with self.lock(game_id):
            row = await self.row(game_id)
            started = None
            if row is not None and row.status == "running" and row.phase_seq == phase_seq \
                    and row.deadlines.starts_at_posting:
                table = await self.load(game_id)
                turn = table.game.speaking_turn(table.state) if table.state.phase_seq == phase_seq else None
                started = deadlines.start_clock(row.deadlines, started_at,
                                                turn=turn.seconds if turn is not None else None)
                self._cache.pop(game_id, None)
                self._bump(game_id)
            written = await self.store.opener_delivered(
                game_id, phase_seq, None if started is None else started.close, delivered, self.clock.now(),
                turn_deadline=None if started is None else started.turn_ends)
            self._posted[game_id] = max(self._posted.get(game_id, -1), phase_seq)
            if written and started is not None and started.close is not None:
                self.timers.arm(game_id, phase_seq, started.close)
                self.timers.arm_turn(game_id, phase_seq, started.turn_ends)
                return started.close
            return None

    async def close_if_due(self, game_id: int) -> bool:
        """Close the game's phase now if its deadline has passed (after a shorten or a resume)."""
        row = await self.store.game(game_id)
        if row is None or row.status != "running" or not row.deadlines.due(self.clock.now()):
            return False
        return await self.on_deadline(game_id, row.phase_seq)

    async def on_deadlines(self, due: list[tuple[int, int]]) -> int:
        """Several phases fell due together (timer jobs of the same moment): close them all, in
        the order given (their deadlines), before any of their messages is delivered."""
        closed = 0
        with self.held_notifications():
            for game_id, phase_seq in due:
                closed += await self.on_deadline(game_id, phase_seq)
        return closed

    async def fire_due(self, rounds: int = 50) -> int:
        """Resolve every running game whose deadline has passed (start-up, the sweep, tests), in
        deadline order (a game on a fixed schedule with several boundaries due closes them in a
        row, in order). Every phase is closed, each in its own transaction, before any of their
        messages is delivered."""
        if self.stopping:
            return 0
        async with self._claiming:
            return await self._fire_due(rounds)

    async def stop_claiming(self) -> None:
        """A clean stop: no sweep claims an overdue phase from now on, and the one under way (if
        any) has finished, so the claims released after this are all this process will hold."""
        self.stopping = True
        async with self._claiming:
            pass

    async def _fire_due(self, rounds: int) -> int:
        fired = 0
        with self.held_notifications():
            try:
                for _ in range(rounds):
                    now = self.clock.now()
                    closed = 0
                    # claimed, so another process sweeping the same shards (a takeover) skips them
                    for game_id, phase_seq in await self.store.claim_due(now, now + self.CLAIM_SECONDS,
                                                                         shards=self.shards):
                        closed += await self.on_deadline(game_id, phase_seq)
                    fired += closed
                    if not closed:
                        break
                for game_id, phase_seq in await self.store.due_reminders(self.clock.now(), shards=self.shards):
                    await self.on_reminder(game_id, phase_seq)
                for game_id, phase_seq in await self.store.due_turns(self.clock.now(), shards=self.shards):
                    await self.on_turn(game_id, phase_seq)
            except StoreRefused as exc:
                log.warning("the sweep of overdue phases was refused (%s); the next sweep tries again", exc)
        return fired

    async def rearm_all(self) -> int:
        """At start-up: close every overdue phase now (one batch: all closed before any is
        delivered, no timer job racing it), then re-arm each running game's timer from the database."""
        await self.fire_due()
        armed = 0
        for row in await self.store.active_games(shards=self.shards):
            armed += self._arm_from(row)
        return armed

    def _arm_from(self, row: GameRow) -> bool:
        """Arm the game's timers as its row says (none while paused); returns whether a phase
        deadline was armed."""
        clocks = row.deadlines if row.status == "running" else deadlines.NONE
        self.timers.follow(row.id, row.phase_seq, clocks)
        return not clocks.paused and clocks.close is not None

    async def adopt(self, game_id: int) -> bool:
        """Another process committed to a game of ours (``hand_over``): read it again, arm its
        timers from the database and deliver its messages. Returns whether it is ours."""
        async with self.lock(game_id):
            self._cache.pop(game_id, None)
            self._bump(game_id)
            row = await self.store.game(game_id)
            if row is None or not self.owns(row):
                return False
            if row.status in ("lobby", "running"):
                self._arm_from(row)
            else:
                self._game_over(game_id)
        self._messages_ready(game_id)
        return True

    async def prune(self, retention_seconds: float) -> int:
        """Drop outbox rows delivered longer ago than ``retention_seconds``."""
        return await self.store.prune_delivered(self.clock.now() - retention_seconds)

    # ----- moderation -----
    async def _moderated(self, game_id: int, actor: Actor) -> Table:
        table = await self.load(game_id)
        await self.require_moderator(table.row, actor)
        return table

    async def _set_timer(self, table: Table, clocks: Deadlines, notice: Notice | None = None) -> TimerChange:
        """Save the game's clocks, with a refresh of the phase's message so its countdown says the
        same, and the moderator's notice to the table (``notice``) in the same transaction. The notice
        goes through the outbox, so it reaches the channel after what the table is still being
        shown (a reveal in beats), never between its lines."""
        game_id, seq = table.row.id, table.row.phase_seq
        change = TimerChange.of(clocks, table.game.phase_label(table.state))
        messages = [refresh(phase_slot(seq))]
        if notice is not None:
            event = public("moderator", notice(change))
            messages.append(NewMessage("channel", None, event.model_dump_json()))
        self._cache.pop(game_id, None)
        self._bump(game_id)
        try:
            await self._saving(self.store.set_timer(game_id, clocks, self.clock.now(), phase_seq=seq,
                                                    messages=messages))
        except MovedOn:
            raise GameMovedOn("That was NOT done: the game moved on at that moment. Look again and "
                              "try once more.") from None
        self.timers.follow(game_id, seq, clocks)
        self._messages_ready(game_id)
        return change

    @staticmethod
    def _paces(table: Table) -> dict[str, float | None]:
        """The seconds of the game's reminder and of its speaking turn running now (None: none),
        as the moderator's clock changes restart them."""
        turn = table.game.speaking_turn(table.state)
        return {"remind": table.game.reminder_seconds(table.state),
                "turn": turn.seconds if turn is not None else None}

    async def pause(self, game_id: int, actor: Actor, notice: Notice | None = None) -> TimerChange:
        async with self.lock(game_id):
            table = await self._moderated(game_id, actor)
            return await self._set_timer(table, deadlines.pause(table.row.deadlines, self.clock.now()), notice)

    async def resume(self, game_id: int, actor: Actor, notice: Notice | None = None) -> TimerChange:
        """Unfreeze the timer. What was left counts from now; 0 left means the phase is due now."""
        async with self.lock(game_id):
            table = await self._moderated(game_id, actor)
            clocks = deadlines.resume(table.row.deadlines, self.clock.now(), **self._paces(table))
            return await self._set_timer(table, clocks, notice)

    async def extend(self, game_id: int, actor: Actor, seconds: float, notice: Notice | None = None) -> TimerChange:
        """Move the current phase's deadline by ``seconds`` (negative shortens). While paused, it
        changes the time that will be left at the resume."""
        async with self.lock(game_id):
            table = await self._moderated(game_id, actor)
            clocks = deadlines.extend(table.row.deadlines, seconds, self.clock.now(), **self._paces(table))
            return await self._set_timer(table, clocks, notice)

    async def phase_seq(self, game_id: int) -> int:
        return (await self.load(game_id)).state.phase_seq

    async def skip(self, game_id: int, actor: Actor, meant: int | None = None) -> str:
        """Close the current phase now; returns its label ("the Council"). ``meant`` is the phase
        the moderator saw when the command arrived: if its timer closed it while the command waited,
        nothing is skipped (the next phase is not closed by mistake)."""
        async with self.lock(game_id):
            table = await self._moderated(game_id, actor)
            label = table.game.phase_label(table.state)
            if meant is not None and table.state.phase_seq != meant:
                raise IllegalAction(f"That phase had just closed on its own (its timer ran out), so nothing was "
                                    f"skipped. The table is now in {label}: use /mod skip again to close it too.",
                                    code="phase_moved")
            await self._apply(game_id, actor.id, {"type": "phase_timeout", "phase_seq": table.state.phase_seq})
            return label

    async def remove(self, game_id: int, actor: Actor, target_id: int, *, confirmed: bool = False) -> Outcome:
        """Remove an absent player. A removal that would end the game is tried on a copy first and
        refused with ``NeedsConfirmation`` until the moderator confirms it."""
        action = {"type": "remove_player", "target": str(target_id)}
        async with self.lock(game_id):
            table = await self._moderated(game_id, actor)
            if not confirmed:
                trial = table.game.apply(table.state, table.game.parse_action(action),
                                         rng_for(table.row.seed, table.state.step + 1))  # a copy: nothing changes
                if trial.state.finished:
                    raise NeedsConfirmation("Removing them ends the game: too few players would be left to go on. "
                                            "Press **Remove and end the game** to do it.")
            return await self._apply(game_id, actor.id, action)

    async def end(self, game_id: int, actor: Actor, reason: str = "") -> Outcome:
        async with self.lock(game_id):
            await self._moderated(game_id, actor)
            if len(reason) > MAX_REASON:
                raise IllegalAction(f"A reason can be at most {MAX_REASON} characters long; this one is "
                                    f"{len(reason)}.", code="too_long")
            return await self._apply(game_id, actor.id, {"type": "end_game", "reason": reason})

    # ----- reading -----
    async def grimoire(self, game_id: int, actor: Actor) -> View:
        """The storyteller's view (every secret) for a moderator who is not playing in the game
        (for a game with Storytellers, for its Storytellers only)."""
        table = await self.load(game_id)
        if table.game.storytellers:
            await self.require_storyteller(table.row, actor)
        else:
            await self.require_moderator(table.row, actor)
        if any(p.id == str(actor.id) for p in table.state.players):
            raise NotAllowed("You are playing in this game, so its secrets stay closed to you.")
        return table.game.view(table.state, "storyteller")

    async def private_view(self, game_id: int, user_id: int) -> tuple[Table, View, list[Prompt]]:
        """The player's view and open prompts; no prompts while the phase's opening message is not
        posted (``opener_unposted``)."""
        table = await self.load(game_id)
        uid = str(user_id)
        if not any(p.id == uid for p in table.state.players):
            raise NotAllowed("You are not playing in this game.")
        prompts = [] if await self.opener_unposted(table) else table.game.prompts(table.state, uid)
        return table, table.game.view(table.state, uid), prompts


