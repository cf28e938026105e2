"""The Philosopher's lasting effect: "If this character is in play, they are drunk".

Read from the grimoire at every check (``rules.impaired``), not a token, so it follows the character
wherever it goes (a Pit-Hag or a Barber puts it in play later: that player is drunk) and ends while
the Philosopher is dead, drunk or poisoned (the wiki: "the player they are making drunk becomes sober
again"). The gained ability is the Philosopher seat's ``ability`` (so the bot wakes it as that
character), set at the lock by ``snv_swaps``; an "Is the X" reminder marks it on the grimoire.

The bottom of the game's modules with ``snv_night``: it imports only the state and ``snv_night``.
"""

from __future__ import annotations

from .snv_night import nodashii_poison
from .state import ClocktowerState, Seat

#: the Philosopher's reminder (the official "Is the Philosopher", the other way round: it sits on the
#: Philosopher and names the character whose ability it gained)
IS_THE = "Is the "


def _sober(state: ClocktowerState, seat: Seat) -> bool:
    """A living Philosopher with no Drunk or Poisoned token and no No Dashii beside it."""
    if not seat.alive:
        return False
    return not any(r.player == seat.player and ("poison" in r.token.lower() or "drunk" in r.token.lower())
                   for r in state.reminders) and not nodashii_poison(state, seat.player)


def philosopher_drunk(state: ClocktowerState, player: str) -> str:
    """Why ``player`` is drunk by a Philosopher's gained ability ("" if not): they hold, truly, the
    character whose ability a living, sober Philosopher gained."""
    seat = next((s for s in state.seats if s.player == player), None)
    if seat is None:
        return ""
    for philosopher in state.seats:
        if philosopher.character == "philosopher" and philosopher.ability == seat.character \
                and philosopher.player != player and _sober(state, philosopher):
            return "drunk by the Philosopher"
    return ""
