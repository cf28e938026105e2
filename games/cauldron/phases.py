"""The Cauldron's phase table: a round is the night, then the Gaze choice and the Yew vote when
the night's effects ask for them, then the day's talk; each closes at its deadline."""

from __future__ import annotations

from games.engine import Event, Outcome, Phase, PhaseTimeout, Rng, close_on_timeout, public

from .choices import close_gaze, close_yew
from .models import CauldronState
from .night import close_night, open_night
from .terms import PHASE_LABEL


def night_timeout(s: CauldronState, rng: Rng) -> list[Event]:
    return close_night(s, rng, timed_out=True)


def gaze_timeout(s: CauldronState, rng: Rng) -> list[Event]:
    events = [public("timeout", "The Cailleach grows tired of waiting: undecided cards go to the bottom.")]
    events += close_gaze(s, rng)
    return events


def yew_timeout(s: CauldronState, rng: Rng) -> list[Event]:
    events = [public("timeout", "The draught goes cold: the votes cast so far decide.")]
    events += close_yew(s, rng)
    return events


def day_timeout(s: CauldronState, rng: Rng) -> list[Event]:
    events = [public("timeout", "The sun sets on the talk.")]
    events += open_night(s, rng)
    return events


PHASES: dict[str, Phase] = {
    "night": Phase(PHASE_LABEL["night"], seconds="night_seconds", closes=("deadline", "all_acted"),
                   prompts=("play",), on_timeout=night_timeout),
    "gaze": Phase(PHASE_LABEL["gaze"], seconds="choice_seconds", closes=("deadline", "all_acted"),
                  prompts=("gaze",), on_timeout=gaze_timeout),
    "yew": Phase(PHASE_LABEL["yew"], seconds="choice_seconds", closes=("deadline", "all_acted"),
                 prompts=("yew_vote",), on_timeout=yew_timeout),
    "day": Phase(PHASE_LABEL["day"], seconds="day_seconds", closes=("deadline", "ready"),
                 prompts=("end_discussion",), on_timeout=day_timeout),
    "game_over": Phase(PHASE_LABEL["game_over"]),
}
#: the phases of a running game (each closes at its deadline)
TIMED = tuple(name for name, phase in PHASES.items() if phase.on_timeout is not None)


def timeout(s: CauldronState, a: PhaseTimeout, rng: Rng) -> Outcome:
    return Outcome(state=s, events=close_on_timeout(PHASES, s, rng))
