"""Bad Moon Rising's Travellers: the Voudon's vote, the Bishop's nominations and the Matron's seats
(the Judge stays the Storytellers' to judge; the Apprentice is in ``travellers.py``).

- The Voudon: "Only you and the dead can vote. They don't need a vote token to do so. A 50% majority
  is not required." While a living, working Voudon is seated, the living others cast no vote (their
  `/vote` on a player not yet nominated still nominates them) and the dead vote without spending a
  token. The count is a plurality already, so no majority is ever required.
- The Bishop: "Only the Storyteller can nominate. At least 1 opposing player must be nominated each
  day." While a living, working Bishop is seated, players' nominations are refused and the
  Storytellers nominate (`/st traveller bishop`); at dawn they are reminded of the opposing nomination.
- The Matron: "Each day, you may choose up to 3 sets of 2 players to swap seats." The Storytellers
  carry out the swaps the Matron chose (`/st traveller matron`), up to 3 a day; the town is told.

The bottom of the day's modules with ``tally`` (which calls it): it imports only the rules and the state.
"""

from __future__ import annotations

from games.engine import STORYTELLER, Event, Outcome, Rng, public, record

from .actions import StorytellerNominate, SwapSeats
from .rules import illegal, impaired, target_seat
from .state import ClocktowerState, Nomination, Seat

#: the nominator recorded for a Storytellers' nomination
STORYTELLERS = "the Storytellers"


def _working(state: ClocktowerState, character: str) -> Seat | None:
    # (Seat.has, cheaply: the tally asks several times a vote, and the character is rarely seated)
    for s in state.seats:
        if (s.character == character or s.ability == character) and s.alive and not impaired(state, s.player):
            return s
    return None


# ----- the Voudon -----

def voudon(state: ClocktowerState) -> Seat | None:
    """The living, working Voudon whose rule holds today, if any."""
    return _working(state, "voudon")


def voudon_vote(state: ClocktowerState, seat: Seat, ruling: Seat | None | bool = False) -> bool | None:
    """Under the Voudon, whether this player may vote (the Voudon and the dead); None without one
    (``ruling``: the Voudon already looked up for this vote, None for none; False: look it up)."""
    if ruling is False:
        ruling = voudon(state)
    if ruling is None:
        return None
    return seat is ruling or not seat.alive


# ----- the Bishop -----

def bishop(state: ClocktowerState) -> Seat | None:
    return _working(state, "bishop")


def bishop_refusal(state: ClocktowerState) -> str:
    """Why a player may not nominate now ("" when they may)."""
    if bishop(state) is None:
        return ""
    return ("Only the Storytellers nominate while the Bishop is in play: vote on a nomination (or for no "
            "execution), or ask them.")


def st_nominate(state: ClocktowerState, action: StorytellerNominate, rng: Rng) -> Outcome:
    if state.phase != "day" or state.pending_end is not None or state.voting_closed:
        raise illegal("The Storytellers nominate by day, while voting is open.", "not_day")
    if state.stage != "nominations":
        raise illegal("Nominations are closed for today.", "nominations_closed")
    nominee = target_seat(state, action.target)
    if nominee.traveller:
        raise illegal(f"{state.label(nominee.player)} is a Traveller: Travellers are exiled, not executed.",
                      "traveller")
    if any(n.nominee == nominee.player for n in state.nominations):
        raise illegal(f"{state.label(nominee.player)} is already nominated today.", "nominated")
    state.nominations.append(Nomination(nominee=nominee.player, nominator=STORYTELLERS))
    return Outcome(state=state, events=[
        public("nomination", f"📢 The Storytellers nominate {state.label(nominee.player)}.")],
        reply=f"You nominated {state.label(nominee.player)}.")


def bishop_due(state: ClocktowerState) -> list[Event]:
    """At dawn, the Storytellers' duty under a living, working Bishop."""
    seat = bishop(state)
    if seat is None:
        return []
    opposing = "evil" if seat.alignment == "good" else "good"
    return [Event(type="bishop", audience=STORYTELLER, title="⛪ The Bishop",
                  text=f"The Bishop, {state.label(seat.player)}, is in play: only you nominate today "
                       f"(`/st traveller bishop`), and at least 1 {opposing} player must be nominated.")]


# ----- the Matron -----

def swap_seats(state: ClocktowerState, action: SwapSeats, rng: Rng) -> Outcome:
    if state.phase != "day":
        raise illegal("The Matron's swaps are made by day.", "not_day")
    if _working(state, "matron") is None:
        raise illegal("No living, working Matron is in play.", "no_matron")
    first, second = target_seat(state, action.first), target_seat(state, action.second)
    if first is second:
        raise illegal("Choose 2 different players to swap seats.", "same")
    if sum(1 for s in state.matron_swaps if s == state.day) >= 3:
        raise illegal("The Matron's 3 swaps for today are made.", "spent")
    state.matron_swaps.append(state.day)
    first.seat, second.seat = second.seat, first.seat
    state.seats.sort(key=lambda s: s.seat)
    state.sync_players()
    text = (f"🪑 The Matron's swap: {state.name(first.player)} now sits in seat {first.seat}, "
            f"{state.name(second.player)} in seat {second.seat}.")
    return Outcome(state=state, events=[
        public("seat_swap", text),
        record("seat_swap", {"day": state.day, "players": [first.player, second.player]})],
        reply=text.removeprefix("🪑 "))

