"""What a message being made reads of its game now, through the game service."""

from __future__ import annotations

import games
from games.engine import GameError, Prompt

from ..service import GameService
from ..store import OutboxRow
from ._rules import GiveUp, Schedule, schedule_of


async def game_of(service: GameService, row: OutboxRow):
    """The row's game row and game; GiveUp when the game is gone."""
    game_row = await service.row(row.game_id)
    if game_row is None:
        raise GiveUp("game gone")
    return game_row, games.get(game_row.kind)


async def schedule_now(service: GameService, game_row) -> Schedule | None:
    """The game's ``Schedule`` now; None when its state cannot be read (the row alone decides)."""
    if game_row is None or game_row.status != "running":
        return None
    try:
        table = await service.load(game_row.id)
    except GameError:
        return None
    if table.state.phase_seq != game_row.phase_seq:
        return None
    return schedule_of(table.game, table.state)


async def shared_now(service: GameService, game_row, phase_seq: int | None) -> list[Prompt]:
    """The open phase's shared choices (``Game.shared_prompts``), for its message; none once
    the phase has moved on."""
    if game_row is None or game_row.status != "running" or phase_seq is None or game_row.phase_seq != phase_seq:
        return []
    try:
        table = await service.load(game_row.id)
    except GameError:
        return []
    if table.state.phase_seq != phase_seq:
        return []
    return table.game.shared_prompts(table.state)
