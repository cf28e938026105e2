"""The Castle's phase table: the first-player claim (when the table plays it), then one turn after
another (a new ``phase_seq`` each), timed only when the table gave turns a timer (a moderator's
skip times a turn out otherwise). The engine reads each phase's label, length and timeout here."""

from __future__ import annotations

from games.engine import Outcome, Phase, PhaseTimeout, Rng, close_on_timeout

from .first import first_timeout
from .models import CastleState
from .turn import turn_timeout

PHASES: dict[str, Phase] = {
    "first": Phase("the first-player claim", seconds="claim_seconds", closes=("deadline", "move"),
                   prompts=("claim_first",), on_timeout=first_timeout),
    "turn": Phase(lambda state: f"{state.name(state.current)}'s turn", seconds="turn_seconds",
                  closes=("deadline", "move"), prompts=("advance", "pick_up", "place"),
                  on_timeout=turn_timeout),
    "game_over": Phase("the game over"),
}


def timeout(state: CastleState, action: PhaseTimeout, rng: Rng) -> Outcome:
    return Outcome(state=state, events=close_on_timeout(PHASES, state, rng))
