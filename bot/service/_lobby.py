"""The lobby: a new game, joining and leaving, its options, its voice channel and Storytellers,
and its start."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from dataclasses import replace
from typing import Any

import games
from games.engine import Game, Player, rng_for

from ..actor import Actor
from ..store import ChannelBusy, GameRow, Signup
from ..voice.table import SILENT_NONE, voice_now, voice_row
from ._core import ServiceCore, Table
from ._refusals import LobbyError, NoGameHere, NotAllowed, VoiceTaken, quoted

#: the longest options text /game new accepts (Discord allows 6,000 characters in a command)
MAX_OPTIONS_TEXT = 1000


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



def new_seed() -> int:
    """The seed of a new game's randomness (tests replace it to replay a game exactly)."""
    return secrets.randbits(31)


class Lobby(ServiceCore):
    """A game before and around its start: a new game, signing up (seats, Travellers,
    spectators), leaving, options, the voice channel, the Storytellers, the start."""

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
                    seed=self._new_seed(), options=options, min_players=lo, max_players=hi,
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

    def _new_seed(self) -> int:
        """The seed of a new game (``GameService`` reads ``bot.service.new_seed``, which tests replace)."""
        return new_seed()

    # ----- who sits where: the Storytellers, the seated, a Traveller's seat -----
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

    async def traveller_seat(self, row: GameRow, user_id: int) -> int:
        """The seat a Traveller signed up for, else the first seat free in the circle."""
        table = await self.load(row.id)
        taken = {p.seat for p in table.state.players}
        mine = next((s for s in await self.store.signups(row.id) if s.user_id == user_id), None)
        if mine is not None and mine.seat is not None and mine.seat not in taken:
            return mine.seat
        return next(n for n in range(1, 100) if n not in taken)
