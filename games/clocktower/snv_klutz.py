"""The Klutz (Sects & Violets): "When you learn that you died, publicly choose 1 alive player: if they
are evil, your team loses."

A public choice, made as the Slayer's shot and the Gossip's statement are: `/announce klutz player:@p` in
the announcement thread, in its hours. Anyone dead may make one (a bluff too), once per game each, and
each is acknowledged in the same words; only a Klutz with its ability counts. If the chosen player is
evil the Klutz's team loses: the end waits for the Storytellers as every end does. A Klutz killed at
night learns it at dawn and chooses that day; one executed at the day's end chooses the next day (the
town square is closed at night). The Storytellers are reminded at dawn of a dead Klutz yet to choose.
"""

from __future__ import annotations

from games.engine import STORYTELLER, Event, Outcome, Rng

from .actions import KlutzChoice
from .clock import pending_end
from .registration import alignments
from .rules import illegal, impaired, target_seat
from .state import Announcement, ClocktowerState, PendingEnd, Seat
from .talk import announced, announcing


def klutz_choice(state: ClocktowerState, action: KlutzChoice, rng: Rng) -> Outcome:
    seat = announcing(state, action, action.place)
    if seat.alive:
        raise illegal("You are alive: the Klutz chooses when it learns that it died.", "alive")
    if seat.player in state.klutz_chosen:
        raise illegal("You have made the Klutz's choice: it is made once.", "spent")
    target = target_seat(state, action.target)
    if not target.alive:
        raise illegal(f"{state.label(target.player)} is dead: choose 1 alive player.", "dead_target")
    state.klutz_chosen.append(seat.player)
    end, told = _works(state, seat, target)
    outcome = announced(state, Announcement(kind="klutz", by=seat.player, target=target.player),
                        f"publicly chooses {state.label(target.player)}, as the Klutz.", told)
    if end is not None:
        outcome.events += pending_end(state, resume="day", found=end)
    return outcome


def _works(state: ClocktowerState, seat: Seat, target: Seat) -> tuple[PendingEnd | None, list[Event]]:
    """The end the choice makes (None for none), and what the Storytellers are told."""
    if not seat.has("klutz") or seat.traveller:
        return None, []
    klutz, chosen = state.label(seat.player), state.label(target.player)
    why = impaired(state, seat.player)
    if why:
        state.note_abnormal(seat.player, f"the Klutz, {why}, chose {chosen}: nothing happened")
        return None, [_tell(f"The Klutz, {klutz}, is {why}: their choice of {chosen} does nothing.")]
    registers = alignments(state, target)
    loser = seat.alignment
    winner = "good" if loser == "evil" else "evil"
    if target.alignment == "good":
        flag = (f" {chosen} might register as evil: if you rule they do, `/st win team:{winner}`."
                if "evil" in registers else "")
        return None, [_tell(f"The Klutz, {klutz}, chose {chosen}, who is good: nothing happens.{flag}")]
    flag = (f" {chosen} might register as good: if you rule they do, `/st continue`." if "good" in registers else "")
    return (PendingEnd(team=winner, reason=f"the Klutz, {klutz}, publicly chose {chosen}, who is evil: the Klutz's "
                                           f"team ({loser}) loses.{flag}".rstrip(".")),
            [])  # (good's win while both twins live is held back, and said, by ``pending_end``)


def _tell(text: str) -> Event:
    return Event(type="klutz", audience=STORYTELLER, title="🤡 The Klutz's choice", text=text)


HANDLERS = {"klutz_choice": klutz_choice}
