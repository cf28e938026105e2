"""Sects & Violets by day: the Vortox's "each day, if no-one is executed, evil wins" and the
Witch's cursed nominator."""

from __future__ import annotations

from games.engine import STORYTELLER, Event, public

from .rules import impaired
from .snv_night import CURSED, keeps_ability
from .state import ClocktowerState, PendingEnd, Seat
from .succession import demon_died


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


def witch_curse(state: ClocktowerState, nominator: Seat) -> list[Event]:
    """The Witch's cursed player just nominated: they die at once (the nomination stands), if a Witch
    still has its ability (alive, or dead and kept by the Vigormortis), is not drunk or poisoned, and
    more than 3 players live."""
    if not nominator.alive or not any(r.player == nominator.player and r.source == "witch" and r.token == CURSED
                                      for r in state.reminders):
        return []
    witches = [s for s in state.seats if s.character == "witch" and (s.alive or keeps_ability(state, s))]
    if not witches or sum(1 for s in state.seats if s.alive and not s.traveller) <= 3:
        return []
    why = impaired(state, witches[0].player)
    if why:
        state.note_abnormal(witches[0].player, f"the Witch, {why}: its cursed player nominated and lived")
        return []
    nominator.alive, nominator.vote_token = False, True
    return [public("death", f"💀 {state.label(nominator.player)} has died."),
            Event(type="witch", audience=STORYTELLER, title="🧹 The Witch's curse",
                  text=f"{state.label(nominator.player)}, cursed by the Witch, nominated: they died at once. The "
                       "nomination stands."),
            *demon_died(state, nominator)]
