"""Play: a player's action and a Storyteller's, refused while the game is paused or its phase's
opening message is not posted yet, and a player's own view and prompts."""

from __future__ import annotations

from typing import Any

from games.engine import IllegalAction, Outcome, Prompt, View

from ..actor import Actor
from ._core import ServiceCore, Table
from ._outbox import phase_slot
from ._refusals import NOT_OPEN_YET, NotAllowed


class Play(ServiceCore):
    """A player's or a Storyteller's action, and what a player may see of the game now."""

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

    async def phase_seq(self, game_id: int) -> int:
        return (await self.load(game_id)).state.phase_seq

    async def private_view(self, game_id: int, user_id: int) -> tuple[Table, View, list[Prompt]]:
        """The player's view and open prompts; no prompts while the phase's opening message is not
        posted (``opener_unposted``)."""
        table = await self.load(game_id)
        uid = str(user_id)
        if not any(p.id == uid for p in table.state.players):
            raise NotAllowed("You are not playing in this game.")
        prompts = [] if await self.opener_unposted(table) else table.game.prompts(table.state, uid)
        return table, table.game.view(table.state, uid), prompts
