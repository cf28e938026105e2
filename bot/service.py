"""The one place where a game moves: load, lock, apply, save (state + log + outbox), arm, deliver.

Nothing here knows Discord: cogs and views turn clicks into calls, and ``Delivery`` sends the outbox.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import games
from games.engine import (
    Event,
    Game,
    GameError,
    IllegalAction,
    Outcome,
    Player,
    Prompt,
    View,
    rng_for,
)

from .clock import Clock
from .store import ChannelBusy, GameRow, NewMessage, Store
from .timers import Timers

log = logging.getLogger(__name__)

# ----- errors a user can read -----


class NoGameHere(GameError):
    code = "no_game"


class NotAllowed(GameError):
    code = "not_allowed"


class LobbyError(GameError):
    code = "lobby"


@dataclass(frozen=True)
class Actor:
    """Who is asking: enough of a Discord member to check permissions."""

    id: int
    name: str
    manage_guild: bool = False
    role_ids: frozenset[int] = field(default_factory=frozenset)


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
            raise LobbyError(f"Options are written key=value, separated by spaces; {part!r} is not.")
        options[key.strip().lower()] = value.strip()
    return options


def new_seed() -> int:
    """The seed of a new game's randomness (tests replace it to replay a game exactly)."""
    return secrets.randbits(31)


def options_help(game: Game) -> str:
    lines = []
    for name, info in game.Options.model_fields.items():
        default = info.default
        lines.append(f"`{name}` (default {default!r}){': ' + info.description if info.description else ''}")
    return "\n".join(lines)


class GameService:
    def __init__(self, store: Store, clock: Clock, on_messages: Callable[[int], None] | None = None):
        self.store = store
        self.clock = clock
        self.timers = Timers(clock, self.on_deadline)
        self._locks: dict[int, asyncio.Lock] = {}
        #: the last committed state of each running game, written only after its commit, so a
        #: click need not read and parse it again; any other write to the row drops the entry
        self._cache: dict[int, Table] = {}
        self._notify = on_messages or (lambda game_id: None)

    def lock(self, game_id: int) -> asyncio.Lock:
        return self._locks.setdefault(game_id, asyncio.Lock())

    # ----- finding games -----
    async def game_in_channel(self, channel_id: int) -> GameRow:
        row = await self.store.active_game_in_channel(channel_id)
        if row is None:
            raise NoGameHere("There is no game in this channel. Start one with `/game new`.")
        return row

    async def load(self, game_id: int) -> Table:
        cached = self._cache.get(game_id)
        if cached is not None:
            return cached
        row = await self.store.game(game_id)
        if row is None:
            raise NoGameHere("That game no longer exists.")
        game = games.get(row.kind)
        if row.status != "running" or row.state is None:
            raise NoGameHere({
                "lobby": "That game has not started yet.",
                "finished": "That game is over.",
                "cancelled": "That game was cancelled.",
            }.get(row.status, "That game is not running."))
        table = self._cache[game_id] = Table(row, game, game.load_state(row.state))
        return table

    # ----- permissions -----
    async def is_moderator(self, row: GameRow, actor: Actor) -> bool:
        if actor.manage_guild or actor.id == row.host_id:
            return True
        role = await self.store.storyteller_role(row.guild_id)
        return role is not None and role in actor.role_ids

    async def require_moderator(self, row: GameRow, actor: Actor) -> None:
        if not await self.is_moderator(row, actor):
            raise NotAllowed("Only the host, a storyteller, or a member with Manage Server can do that.")

    # ----- lobby -----
    async def new_game(self, *, kind: str, guild_id: int, channel_id: int, host: Actor,
                       options_text: str | None = None, min_players: int | None = None,
                       max_players: int | None = None) -> GameRow:
        game = games.get(kind)
        options = parse_options(options_text)
        game.parse_options(options)  # a malformed option is refused now, not at start
        lo = game.min_players if min_players is None else min_players
        hi = game.max_players if max_players is None else max_players
        if not game.min_players <= lo <= hi <= game.max_players:
            raise LobbyError(
                f"{game.title} takes {game.min_players} to {game.max_players} players; "
                f"limits {lo}-{hi} don't fit.")
        try:
            game_id = await self.store.create_game(
                kind=game.name, guild_id=guild_id, channel_id=channel_id, host_id=host.id,
                seed=new_seed(), options=options, min_players=lo, max_players=hi,
                now=self.clock.now())
        except ChannelBusy:
            raise LobbyError("This channel already has a game. Use a thread or another channel, "
                             "or end that one first.") from None
        await self.store.add_player(game_id, host.id, host.name, self.clock.now())
        return await self.store.game(game_id)

    async def _lobby(self, game_id: int) -> GameRow:
        row = await self.store.game(game_id)
        if row is None or row.status != "lobby":
            raise LobbyError("That game is not taking players any more.")
        return row

    async def join(self, game_id: int, actor: Actor) -> GameRow:
        async with self.lock(game_id):
            row = await self._lobby(game_id)
            players = await self.store.lobby_players(game_id)
            if any(uid == actor.id for uid, _ in players):
                raise LobbyError("You are already in this game.")
            if len(players) >= row.max_players:
                raise LobbyError(f"The table is full ({row.max_players} players).")
            await self.store.add_player(game_id, actor.id, actor.name, self.clock.now())
            return row

    async def leave(self, game_id: int, actor: Actor) -> GameRow:
        async with self.lock(game_id):
            row = await self._lobby(game_id)
            if not await self.store.remove_player(game_id, actor.id):
                raise LobbyError("You are not in this game.")
            return row

    async def start(self, game_id: int, actor: Actor, forced: dict | None = None) -> Table:
        async with self.lock(game_id):
            row = await self._lobby(game_id)
            if actor.id != row.host_id and not actor.manage_guild:
                raise NotAllowed("Only the host can start the game.")
            lobby = await self.store.lobby_players(game_id)
            if not row.min_players <= len(lobby) <= row.max_players:
                raise LobbyError(f"This game needs {row.min_players} to {row.max_players} players; "
                                 f"{len(lobby)} joined.")
            game = games.get(row.kind)
            players = [Player(id=str(uid), name=name) for uid, name in lobby]
            outcome = game.setup(players, row.options, rng_for(row.seed, 0), forced)
            await self._commit(row, game, None, outcome, actor_id=actor.id, action=None,
                               status="running")
            return Table(await self.store.game(game_id), game, outcome.state)

    async def cancel(self, game_id: int, actor: Actor) -> GameRow:
        async with self.lock(game_id):
            row = await self.store.game(game_id)
            if row is None or row.status not in ("lobby", "running"):
                raise LobbyError("That game is already over.")
            if actor.id != row.host_id and not actor.manage_guild:
                raise NotAllowed("Only the host or a member with Manage Server can cancel the game.")
            self._cache.pop(game_id, None)
            await self.store.set_status(game_id, "cancelled", self.clock.now())
            self.timers.cancel(game_id)
            return row

    # ----- play -----
    async def act(self, game_id: int, actor_id: int | None, action: dict[str, Any],
                  *, moderator: bool = False) -> Outcome:
        """Apply one action durably. Raises a GameError (nothing changed) when refused."""
        async with self.lock(game_id):
            table = await self.load(game_id)
            if table.row.paused and not moderator:
                raise IllegalAction("The game is paused; wait for the host to resume it.", code="paused")
            return await self._apply(table, actor_id, action)

    async def _apply(self, table: Table, actor_id: int | None, action: dict[str, Any]) -> Outcome:
        parsed = table.game.parse_action(action)
        before_seq = table.state.phase_seq
        try:
            # in place: the state is this service's own copy; after an error it is re-read
            outcome = table.game.apply(table.state, parsed, rng_for(table.row.seed, table.state.step + 1),
                                       in_place=True)
        except BaseException:
            self._cache.pop(table.row.id, None)
            raise
        try:
            await self._commit(table.row, table.game, before_seq, outcome, actor_id=actor_id,
                               action=parsed.model_dump_json(exclude_defaults=False))
        except BaseException:
            self._cache.pop(table.row.id, None)
            raise
        return outcome

    async def _commit(self, row: GameRow, game: Game, before_seq: int | None, outcome: Outcome, *,
                      actor_id: int | None, action: str | None, status: str | None = None) -> None:
        state = outcome.state
        now = self.clock.now()
        deadline, paused = row.deadline, row.paused_remaining
        if before_seq is None or state.phase_seq != before_seq:
            seconds = game.phase_seconds(state)
            if row.paused:
                deadline, paused = None, seconds
            else:
                deadline = now + seconds if seconds else None
        if state.finished:
            deadline, paused, status = None, None, "finished"
        messages = self.messages(row, game, state, outcome.events)
        await self.store.commit_step(
            row.id, state=state.model_dump_json(), phase_seq=state.phase_seq, step=state.step,
            deadline=deadline, paused_remaining=paused, status=status or row.status,
            actor_id=actor_id, action=action, messages=messages, now=now)
        if status in (None, "running") and not state.finished:
            self._cache[row.id] = Table(
                replace(row, state=None, phase_seq=state.phase_seq, deadline=deadline,
                        paused_remaining=paused, status="running"), game, state)
        else:
            self._cache.pop(row.id, None)
        if deadline is not None:
            self.timers.arm(row.id, state.phase_seq, deadline)
        else:
            self.timers.cancel(row.id)
        if messages:
            self._notify(row.id)

    def messages(self, row: GameRow, game: Game, state: Any, events: list[Event]) -> list[NewMessage]:
        out: list[NewMessage] = []
        for event in events:
            payload = event.model_dump_json()
            image = game.render(state, event.image) if event.image else None
            kind = event.audience.kind
            if kind == "public":
                out.append(NewMessage("channel", None, payload, image))
            elif kind == "player":
                out.append(NewMessage("dm", int(event.audience.id), payload, image))
            elif kind == "team":
                for member in game.team_members(state, event.audience.id):
                    out.append(NewMessage("dm", int(member), payload, image))
            elif kind == "storyteller":
                out.append(NewMessage("dm", row.host_id, payload, image))
            elif kind == "group":
                out.append(NewMessage("group", None, payload, image))
        return out

    # ----- timers -----
    async def on_deadline(self, game_id: int, phase_seq: int) -> None:
        """A phase's deadline passed. Stale or paused timers do nothing."""
        async with self.lock(game_id):
            row = await self.store.game(game_id)
            if row is None or row.status != "running" or row.paused or row.deadline is None:
                return
            if row.phase_seq != phase_seq:
                return
            if row.deadline > self.clock.now() + 0.5:  # extended meanwhile: re-arm
                self.timers.arm(game_id, row.phase_seq, row.deadline)
                return
            table = await self.load(game_id)
            try:
                await self._apply(table, None, {"type": "phase_timeout", "phase_seq": phase_seq})
            except GameError as exc:
                log.warning("game %s: timeout of phase %s refused: %s", game_id, phase_seq, exc)

    async def fire_due(self) -> int:
        """Resolve every running game whose deadline has passed (start-up, and tests)."""
        fired = 0
        for row in await self.store.active_games():
            if row.status == "running" and not row.paused and row.deadline is not None \
                    and row.deadline <= self.clock.now():
                await self.on_deadline(row.id, row.phase_seq)
                fired += 1
        return fired

    async def rearm_all(self) -> int:
        """At start-up: re-arm each running game's timer from the database; overdue ones fire now."""
        armed = 0
        for row in await self.store.active_games():
            if row.status == "running" and not row.paused and row.deadline is not None:
                self.timers.arm(row.id, row.phase_seq, row.deadline)
                armed += 1
        await self.fire_due()
        return armed

    # ----- moderation -----
    async def _set_timer(self, game_id: int, deadline: float | None, paused: float | None,
                         now: float) -> None:
        self._cache.pop(game_id, None)
        await self.store.set_timer(game_id, deadline, paused, now)

    async def pause(self, game_id: int, actor: Actor) -> float | None:
        async with self.lock(game_id):
            table = await self.load(game_id)
            await self.require_moderator(table.row, actor)
            if table.row.paused:
                raise IllegalAction("The game is already paused.", code="paused")
            now = self.clock.now()
            remaining = max(0.0, table.row.deadline - now) if table.row.deadline else 0.0
            await self._set_timer(game_id, None, remaining, now)
            self.timers.cancel(game_id)
            return remaining

    async def resume(self, game_id: int, actor: Actor) -> float | None:
        async with self.lock(game_id):
            table = await self.load(game_id)
            await self.require_moderator(table.row, actor)
            if not table.row.paused:
                raise IllegalAction("The game is not paused.", code="not_paused")
            now = self.clock.now()
            deadline = now + table.row.paused_remaining if table.row.paused_remaining else None
            await self._set_timer(game_id, deadline, None, now)
            if deadline is not None:
                self.timers.arm(game_id, table.row.phase_seq, deadline)
            return deadline

    async def extend(self, game_id: int, actor: Actor, seconds: float) -> float:
        """Move the current phase's deadline by ``seconds`` (negative shortens)."""
        async with self.lock(game_id):
            table = await self.load(game_id)
            await self.require_moderator(table.row, actor)
            now = self.clock.now()
            if table.row.paused:
                remaining = max(0.0, table.row.paused_remaining + seconds)
                await self._set_timer(game_id, None, remaining, now)
                return now + remaining
            if table.row.deadline is None:
                raise IllegalAction("This phase has no timer to change.", code="no_timer")
            deadline = max(now, table.row.deadline + seconds)
            await self._set_timer(game_id, deadline, None, now)
            self.timers.arm(game_id, table.row.phase_seq, deadline)
            return deadline

    async def skip(self, game_id: int, actor: Actor) -> Outcome:
        async with self.lock(game_id):
            table = await self.load(game_id)
            await self.require_moderator(table.row, actor)
            return await self._apply(table, actor.id,
                                     {"type": "phase_timeout", "phase_seq": table.state.phase_seq})

    async def remove(self, game_id: int, actor: Actor, target_id: int) -> Outcome:
        async with self.lock(game_id):
            table = await self.load(game_id)
            await self.require_moderator(table.row, actor)
            return await self._apply(table, actor.id,
                                     {"type": "remove_player", "target": str(target_id)})

    async def end(self, game_id: int, actor: Actor, reason: str = "") -> Outcome:
        async with self.lock(game_id):
            table = await self.load(game_id)
            await self.require_moderator(table.row, actor)
            return await self._apply(table, actor.id, {"type": "end_game", "reason": reason})

    # ----- reading -----
    async def grimoire(self, game_id: int, actor: Actor) -> View:
        """The storyteller's view (every secret) for a moderator who is not playing in the game."""
        table = await self.load(game_id)
        await self.require_moderator(table.row, actor)
        if any(p.id == str(actor.id) for p in table.state.players):
            raise NotAllowed("You are playing in this game, so its secrets stay closed to you.")
        return table.game.view(table.state, "storyteller")

    async def private_view(self, game_id: int, user_id: int) -> tuple[Table, View, list[Prompt]]:
        table = await self.load(game_id)
        uid = str(user_id)
        if not any(p.id == uid for p in table.state.players):
            raise NotAllowed("You are not playing in this game.")
        return table, table.game.view(table.state, uid), table.game.prompts(table.state, uid)


