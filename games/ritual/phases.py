"""The Ritual's phase table: a round is the Choosing, the Offering (which runs the ritual when it
closes) and, when the ritual killed no one, the Council. The engine reads each phase's label,
length and timeout from here (``Game.phases``)."""

from __future__ import annotations

from games.engine import Outcome, Phase, PhaseTimeout, Rng, close_on_timeout

from . import voice
from .choosing import close_choosing
from .council import close_council
from .models import RitualState
from .offering import close_offering

PHASES: dict[str, Phase] = {
    "choosing": Phase("the Choosing", seconds=voice.choosing_seconds, closes=("deadline", "all_acted"),
                      prompts=("vote_performer",), on_timeout=close_choosing),
    "offering": Phase("the Offering", seconds="offering_seconds", closes=("deadline", "all_acted"),
                      prompts=("offer",), on_timeout=close_offering),
    "council": Phase("the Council", seconds="council_seconds", closes=("deadline", "all_acted"),
                     prompts=("vote_burn",), on_timeout=close_council),
    "game_over": Phase("the end of the game"),
}
#: the phases of a running game (each closes at its deadline)
TIMED = tuple(name for name, phase in PHASES.items() if phase.on_timeout is not None)


def timeout(state: RitualState, action: PhaseTimeout, rng: Rng) -> Outcome:
    events = close_on_timeout(PHASES, state, rng)
    return Outcome(state=state, events=events, reply="The phase is closed.")
