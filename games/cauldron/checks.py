"""The checks every player's action shares: a player, in the right phase, still at the table."""

from __future__ import annotations

from games.engine import (
    Action,
    IllegalAction,
)

from .models import CauldronState
from .terms import PHASE_LABEL


def need_player(a: Action) -> None:
    if not a.player:
        raise IllegalAction("Only a player can do that.", code="not_a_player")


def need_phase(s: CauldronState, phase: str, what: str) -> None:
    if s.phase != phase:
        now = PHASE_LABEL.get(s.phase, f"the {s.phase}")
        raise IllegalAction(f"{what} is not possible now: it is {now}.", code="wrong_phase")


def need_active(s: CauldronState, pid: str) -> None:
    if pid in s.removed:
        raise IllegalAction("You have left this game.", code="not_in_game")


def eligible_players(s: CauldronState) -> list[str]:
    """Who may cast tonight: players still in the game who are not poisoned this round."""
    return [pid for pid in s.active() if s.sit_out.get(pid) != s.round]
