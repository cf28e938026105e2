"""Moderation: cancelling or ending a game, removing an absent player (a removal that ends the
game asks to be confirmed first), and the grimoire a moderator reads."""

from __future__ import annotations

from games.engine import MAX_REASON, IllegalAction, Outcome, View, rng_for

from ..actor import Actor
from ..store import GameRow, MovedOn
from ..voice.table import SILENT_NONE, voice_row
from ._core import ServiceCore
from ._outbox import phase_slot, refresh, still_marked, undo_row
from ._refusals import LobbyError, NeedsConfirmation, NotAllowed


class Moderation(ServiceCore):
    """A moderator's hand on a running game: cancel, end, remove a player, read the grimoire."""

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
                    messages=[*still_marked(row, row.phase_seq), refresh(phase_slot(row.phase_seq)),
                              voice_row(SILENT_NONE), undo_row()]))  # unmute, undo
            except MovedOn:
                raise LobbyError("That game is already over.") from None
            self._game_over(game_id)
            self._messages_ready(game_id)
            return row

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
