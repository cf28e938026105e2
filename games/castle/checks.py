"""Who is still at the castle's table, whose pawns stand where, and the checks every player's
action shares: a seated player, still present, on their own turn."""

from __future__ import annotations

from games.engine import Action, IllegalAction

from .models import CastleState
from .rules import pawn_owners


def active(state: CastleState) -> list[str]:
    """The players still at the table (a removed player's pawns have left the tableau)."""
    return [p.id for p in state.players if p.id not in state.removed]


def occupied(state: CastleState) -> dict[int, str]:
    """Each shrine with a pawn on it -> the pawn's owner."""
    return pawn_owners(state.pawns, active(state))


def check_seated(state: CastleState, action: Action) -> None:
    if action.player not in state.characters:
        raise IllegalAction("Only a player at this table can do that.", code="not_a_player")


def check_present(state: CastleState, pid: str) -> None:
    if pid in state.removed:
        raise IllegalAction("You have left this game.", code="removed")


def check_turn(state: CastleState, action: Action) -> None:
    """A turn's action: by the player whose turn it is, during the turns."""
    check_seated(state, action)
    if state.phase != "turn":
        raise IllegalAction("It is not time to take turns.", code="wrong_phase")
    check_present(state, action.player)
    if action.player != state.current:
        raise IllegalAction(f"It is {state.name(state.current)}'s turn, not yours.", code="not_your_turn")
