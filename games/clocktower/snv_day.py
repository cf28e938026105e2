"""Sects & Violets by day: the Vortox's "each day, if no-one is executed, evil wins"."""

from __future__ import annotations

from .rules import impaired
from .state import ClocktowerState, PendingEnd


def vortox_end(state: ClocktowerState) -> PendingEnd | None:
    """At the day's end, with no execution today (an execution of a dead player is one): a living,
    working Vortox wins for evil. A drunk or poisoned one does not (the ledger notes it)."""
    if state.executed:
        return None
    for seat in state.seats:
        if seat.character == "vortox" and seat.alive and not seat.traveller:
            why = impaired(state, seat.player)
            if why:
                state.note_abnormal(seat.player, f"the Vortox, {why}: no-one was executed and evil did not win")
                continue
            return PendingEnd(team="evil", reason=f"no-one was executed today and the Vortox, "
                                                  f"{state.label(seat.player)}, lives")
    return None
