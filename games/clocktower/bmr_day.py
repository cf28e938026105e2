"""Bad Moon Rising by day: the Pacifist's spared executions (the Storytellers' call, flagged at the
execution) and the Mastermind's extra day.

The bottom of the day's modules with ``tally``: it imports only the rules, the state and
``registration`` (``tally`` calls it).
"""

from __future__ import annotations

from games.engine import STORYTELLER, Event

from .characters import Characters
from .registration import alignments
from .rules import impaired
from .state import ClocktowerState, PendingEnd, Seat

# ----- the Pacifist -----

def pacifist_note(state: ClocktowerState, executed: Seat) -> list[Event]:
    """"Executed good players might not die": at an execution that killed a player who is (or may
    register as) good while a living, working Pacifist is in play, the Storytellers are asked. The
    bot proposes the death; sparing them is theirs to do (``/st revive``)."""
    if not state.execution_killed or "good" not in alignments(state, executed, not state.executed_impaired):
        return []
    pacifists = [s for s in state.seats if s.has("pacifist") and s.alive and not impaired(state, s.player)]
    if not pacifists:
        return []
    return [Event(type="pacifist", audience=STORYTELLER, title="🕊️ The Pacifist",
                  text=f"{state.label(executed.player)} was executed and died; the Pacifist, "
                       f"{state.label(pacifists[0].player)}, is in play, so this good player might not die: "
                       "your call. To spare them, `/st revive` them (the town sees them alive).")]


# ----- the Mastermind -----

def _working_mastermind(state: ClocktowerState) -> Seat | None:
    return next((s for s in state.seats if s.has("mastermind") and s.alive and not s.traveller
                 and not impaired(state, s.player)), None)


def mastermind_end(state: ClocktowerState, chars: Characters) -> PendingEnd | None | bool:
    """Where the Mastermind changes the end, with every Demon dead: False when it does not (the game
    ends as usual); None while the extra day is played (no end yet); the end, when a player is executed
    on the extra day ("their team loses"). "If the Demon dies by execution (ending the game), play for 1
    more day": a living, working Mastermind when today's execution killed the last Demon starts it."""
    if state.mastermind_day and state.day <= state.mastermind_day:  # after the extra day, the usual end
        if state.day == state.mastermind_day and state.executed:  # executed, whether or not it killed
            seat = state.seat_of(state.executed)
            return PendingEnd(team="evil" if seat.alignment == "good" else "good",
                              reason=f"{state.label(seat.player)} was executed on the Mastermind's extra day: "
                                     f"their team ({seat.alignment}) loses")
        return None
    if state.phase != "day" or not state.executed or not state.execution_killed:
        return False
    if chars[state.seat_of(state.executed).character].team != "demon":
        return False
    if _working_mastermind(state) is None:
        return False
    state.mastermind_day = state.day + 1
    return None


def mastermind_day_end(state: ClocktowerState) -> PendingEnd | None:
    """The extra day ends with no execution: the Demon is dead, so good wins."""
    if not state.mastermind_day or state.day != state.mastermind_day or state.executed:
        return None
    return PendingEnd(team="good", reason="the Mastermind's extra day ended with no execution")


def mastermind_notes(state: ClocktowerState) -> list[str]:
    """The night sheet's line while the Mastermind's extra day is coming."""
    if not state.mastermind_day or state.day >= state.mastermind_day:
        return []
    return [f"• **The Mastermind**: the Demon died by execution, so day {state.mastermind_day} is played: if "
            "a player is executed then, their team loses; if nobody is, good wins."]
