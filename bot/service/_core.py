"""The service's core: the one path of every action (lock, load, apply, commit), the row cache,
the hand-off of committed rows to the delivery, and who may act on a game."""

from __future__ import annotations

import asyncio
import contextvars
import logging
import weakref
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from pydantic_core import to_json

import games
from games.engine import LIVE, RECORD, SUBSTITUTE, Event, Game, GameError, Outcome, StorytellerAction
from games.engine.rng import SeededWhenDrawn

from .. import deadlines, logs, metrics
from ..actor import Actor
from ..clock import Clock
from ..deadlines import SLACK
from ..shards import Shards
from ..store import GameRow, MovedOn, NewMessage, Store, StoreRefused
from ..timers import Timers
from ..voice.table import SILENT_NONE, VoiceNow, voice_now, voice_row
from ._outbox import messages_of, opens_in_channel, phase_slot, refresh, still_marked, undo_row
from ._refusals import GameMovedOn, NoGameHere, NotAllowed, not_saved

#: one logger for the whole service, named as before the cut (operators filter on it)
log = logging.getLogger(__package__)


@dataclass
class Table:
    """A running game, loaded."""

    row: GameRow
    game: Game
    state: Any
    #: the objects of the state's fixed fields (``Game.fixed_fields``), when what is stored of them
    #: (``GameRow.fixed``) is what they dump to: a step that leaves each the same object writes no
    #: fixed part. None: it is not (a new game; a state stored whole by an older version; a fixed
    #: part stored before a game declared another field fixed), so the next step writes it
    fixed: tuple[Any, ...] | None = None


def fixed_objects(game: Game, state: Any) -> tuple[Any, ...]:
    """The objects of the state's fixed fields, to tell after a step whether one was replaced."""
    fields = game.fixed_fields
    return tuple(getattr(state, name) for name in fields) if fields else ()


def fixed_to_write(game: Game, state: Any, as_loaded: tuple[Any, ...] | None) -> str | None:
    """The fixed part to store with a step: None (what is stored left as it is) when every fixed
    field is the object loaded with it (``Table.fixed``). A fixed field is a value the rules replace,
    never change in place (the script a frozen model, the pool a tuple, the players a new list each
    time), so a change is a new object (a guard test in ``tests/engine/test_stored_state.py`` plays
    the games to hold the rules to it)."""
    fields = game.fixed_fields
    if not fields:  # (most games: nothing to compare, on every step)
        return None
    if as_loaded is not None and all(getattr(state, name) is obj for name, obj in zip(fields, as_loaded, strict=True)):
        return None
    return game.dump_fixed(state)


async def _nobody(game_id: int, shard: int) -> None:
    """No one to tell: the owner's sweep finds the game's work (SQLite: one process)."""


@dataclass
class Held:
    """The games whose delivery a batch holds back (in the order they committed), until released."""
    games: dict[int, None] = field(default_factory=dict)
    released: bool = False


class ServiceCore:
    """The one path of every action: the per-game lock, the row cache, load, apply and commit
    (state, log and outbox in one transaction), the hand-off to the delivery, and who may act.
    Every job of the package derives from this class alone (see the package's docstring)."""

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
        #: one lock per voice channel being linked: two games never both take one (``Lobby._link_lock``)
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
        state = game.load_state(row.state, row.fixed)
        stored = game.dump_fixed(state) == row.fixed  # (a few µs, when the cache has no copy)
        table = Table(row, game, state, fixed_objects(game, state) if stored else None)
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

    async def _moderated(self, game_id: int, actor: Actor) -> Table:
        table = await self.load(game_id)
        await self.require_moderator(table.row, actor)
        return table

    # ----- what the timers call: written by the clocks (``_clocks.Clocks``) -----
    async def on_deadline(self, game_id: int, phase_seq: int) -> bool:
        raise NotImplementedError

    async def on_deadlines(self, due: list[tuple[int, int]]) -> int:
        raise NotImplementedError

    async def on_reminder(self, game_id: int, phase_seq: int) -> bool:
        raise NotImplementedError

    async def on_turn(self, game_id: int, phase_seq: int) -> bool:
        raise NotImplementedError

    # ----- apply and commit -----
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
        outcome = table.game.apply(table.state, parsed, SeededWhenDrawn(table.row.seed, table.state.step + 1),
                                   in_place=True)
        await self._commit(table.row, table.game, before_seq, outcome, actor_id=actor_id,
                           action=parsed.model_dump_json(exclude_defaults=False), anchor=anchor,
                           follows=before_step, before_voice=before_voice, turn_since=turn_since,
                           fixed_as_loaded=table.fixed)
        return outcome

    async def _commit(self, row: GameRow, game: Game, before_seq: int | None, outcome: Outcome, *,
                      actor_id: int | None, action: str | None, status: str | None = None,
                      anchor: float | None = None, follows: int | None = None,
                      before_voice: VoiceNow = SILENT_NONE, turn_since: float | None = None,
                      fixed_as_loaded: tuple[Any, ...] | None = None) -> None:
        """Commit a step's state (and its fixed part when it changed, or when ``fixed_as_loaded``
        is None: a new game's first commit, a row that stored none), clocks, log and messages."""
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
        # a living message changed (a vote's tally): the game's row is marked, and the delivery
        # draws its face from the committed state (no outbox row for it: ``messages_of``)
        live = any(e.type == LIVE for e in outcome.events)
        closes = None
        if before_seq is not None and (new_phase or state.finished):
            if state.finished or status not in (None, "running"):  # the last phase's message says closed
                messages += [*still_marked(row, before_seq), refresh(phase_slot(before_seq))]
            else:  # the old phase's message says closed: the game's row is marked (no outbox row)
                closes = before_seq
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
                row.id, state=game.dump_state(state), phase_seq=state.phase_seq, step=state.step,
                deadlines=clocks, status=status or row.status, actor_id=actor_id, action=action,
                messages=messages, now=now, substitutes=substitutes,
                records=[(e.type, to_json(e.data).decode()) for e in records], follows=follows, as_read=row,
                fixed=fixed_to_write(game, state, fixed_as_loaded), live=live, closes=closes))
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
            marked: dict[str, Any] = {"live_step": state.step} if live else {}
            if closes is not None:
                marked["closed_from"] = closes if row.closed_from is None else min(row.closed_from, closes)
            self._cache[row.id] = Table(row.timed(clocks, state=None, fixed=None, phase_seq=state.phase_seq,
                                                  status="running", **marked), game, state, fixed_objects(game, state))
            # (a timeout that opened a phase already overdue arms none: ``on_deadline`` closes it next)
            self.timers.follow(row.id, state.phase_seq, clocks,
                               arm_close=anchor is None or not clocks.due(now, SLACK))
        else:
            self._game_over(row.id)
        if messages or live or closes is not None:
            self._messages_ready(row.id)

    async def living_drawn(self, game_id: int, step: int) -> None:
        """The delivery drew the game's living messages from its state at ``step``: the mark on
        its row is cleared (unless a later step marked it again), here and in the cache."""
        await self.store.living_drawn(game_id, step)
        cached = self._cache.get(game_id)
        if cached is not None and cached.row.live_step is not None and cached.row.live_step <= step:
            self._cache[game_id] = Table(cached.row.timed(cached.row.deadlines, live_step=None), cached.game,
                                         cached.state, cached.fixed)

    async def phases_closed(self, game_id: int, phase_seq: int) -> None:
        """The delivery closed the messages of the game's phases before ``phase_seq``: the mark on
        its row is cleared (unless a later phase has begun meanwhile), here and in the cache."""
        await self.store.phases_closed(game_id, phase_seq)
        cached = self._cache.get(game_id)
        if cached is not None and cached.row.closed_from is not None and cached.row.phase_seq == phase_seq:
            self._cache[game_id] = Table(cached.row.timed(cached.row.deadlines, closed_from=None), cached.game,
                                         cached.state, cached.fixed)

    # ----- the hand-off to the delivery -----
    def messages(self, row: GameRow, game: Game, state: Any, events: list[Event]) -> list[NewMessage]:
        return messages_of(row, game, state, events)

    async def prune(self, retention_seconds: float) -> int:
        """Drop outbox rows delivered longer ago than ``retention_seconds``."""
        return await self.store.prune_delivered(self.clock.now() - retention_seconds)
