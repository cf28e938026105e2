"""Sects & Violets' Travellers: the Butcher's second nomination, the Bone Collector's dead player who
regains their ability until dusk, the Harlot's visit and the Barista's cup (the Deviant is the
Storytellers' call at an exile, in ``talk.py``).

- The Butcher: "Each day, after the 1st execution, you may nominate again." Once today's execution
  has happened (at the day's end, or before it: the Virgin, the Judge, `/st execute`), a living
  Butcher may nominate once more (`/announce butcher`): the town votes on that nominee or for no
  execution as on any nomination, without having to beat the first execution's count, and the
  plurality is executed when that vote ends. An execution at the day's end opens a Butcher's stage
  (as long as the nominations stage) before night falls; a second execution allows no third.
  Exiles are not executions. A drunk or poisoned Butcher's nomination is spent and nothing happens.

The bottom of the Travellers' modules with ``tally`` (which it calls): it imports only the rules,
the tally and the state.
"""

from __future__ import annotations

from games.engine import STORYTELLER, Event, Handler, Outcome, Rng, public

from .actions import ButcherNominate
from .rules import hours, illegal, impaired, set_stage, target_seat
from .snv_day import witch_curse
from .state import ClocktowerState, Nomination, Seat
from .tally import tally_event

#: the day's stage after an execution at its end, while the Butcher may nominate again
BUTCHER_STAGE = "butcher"


# ----- the Butcher -----

def _butcher(state: ClocktowerState) -> Seat | None:
    return next((s for s in state.seats if s.has("butcher") and s.alive), None)


def butcher_window(state: ClocktowerState) -> list[Event]:
    """At the day's end, after its execution: a living Butcher may nominate again, in a stage of its
    own before night falls ([] when there is none, or it was offered today already)."""
    seat = _butcher(state)
    if seat is None or not state.executed or state.butcher_day == state.day:
        return []
    state.butcher_day = state.day
    state.voting_closed = True
    set_stage(state, "day", BUTCHER_STAGE)
    return [public("butcher", f"🔪 Today's execution has happened: {state.label(seat.player)}, the Butcher, may "
                              f"nominate again within {hours(state.settings.nomination_seconds)} "
                              "(`/announce butcher`). Night falls after that vote, or if they do not.",
                   title=f"☀️ Day {state.day}: the Butcher", opens_phase=True)]


def butcher_nominate(state: ClocktowerState, action: ButcherNominate, rng: Rng) -> Outcome:
    if state.phase != "day" or state.pending_end is not None:
        raise illegal("The Butcher nominates by day.", "not_day")
    seat = target_seat(state, action.player)
    if not seat.has("butcher") or not seat.alive:
        raise illegal("Only the living Butcher nominates again after an execution.", "not_butcher")
    if not state.executed:
        raise illegal("Nobody has been executed today: the Butcher nominates again only after today's first "
                      "execution (an exile is not one).", "no_execution")
    if not state.voting_closed or (state.butcher_day == state.day and state.stage != BUTCHER_STAGE):
        raise illegal("The Butcher has nominated again today: a second execution does not allow a third.", "spent")
    nominee = target_seat(state, action.target)
    if nominee.traveller:
        raise illegal(f"{state.label(nominee.player)} is a Traveller: Travellers are exiled, not executed.",
                      "traveller")
    state.butcher_day = state.day
    said = f"📢 {state.label(seat.player)}, the Butcher, nominates {state.label(nominee.player)}."
    why = impaired(state, seat.player)
    if why:
        if state.stage == BUTCHER_STAGE:
            set_stage(state, "day", BUTCHER_STAGE)  # the stage's vote is spent: night falls at its end
        state.note_abnormal(seat.player, f"the Butcher, {why}, nominated again: nothing happened")
        return Outcome(state=state, events=[public("nomination", said), Event(
            type="butcher", audience=STORYTELLER, title="🔪 The Butcher",
            text=f"The Butcher, {state.label(seat.player)}, is {why}: the nomination is spent and nothing happens "
                 "(the town heard it; no vote opens).")], reply="Your nomination is made.")
    state.nominations = [Nomination(nominee=nominee.player, nominator=seat.player)]
    state.votes, state.voting_closed, state.early_end_told = {}, False, False
    if state.stage == BUTCHER_STAGE:
        set_stage(state, "day", BUTCHER_STAGE)  # a fresh deadline for the vote
    events = [public("nomination", f"{said} Vote on it, or for no execution, until "
                                   + ("this stage ends." if state.stage == BUTCHER_STAGE else "the day ends.")),
              tally_event(state), *witch_curse(state, seat)]
    return Outcome(state=state, events=events, reply=f"You nominated {state.label(nominee.player)}.")


HANDLERS: dict[str, Handler] = {"butcher_nominate": butcher_nominate}
