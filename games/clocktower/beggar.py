"""The Beggar: "You must use a vote token to vote. If a dead player gives you theirs, you learn
their alignment." It joins without a token; a dead player whose token has paid for nothing gives it
(publicly: a token changing hands is seen), and the Beggar learns the giver's alignment privately.
The Beggar holds one token at a time and spends it as the dead do.
"""

from __future__ import annotations

from games.engine import STORYTELLER, Event, Outcome, Rng, private, public, record

from .actions import GiveToken
from .rules import illegal, target_seat
from .state import ClocktowerState, Seat


def begs(seat: Seat) -> bool:
    """Whether this living player votes only with a token (the Beggar)."""
    return seat.alive and seat.character == "beggar"


def give_token(state: ClocktowerState, action: GiveToken, rng: Rng) -> Outcome:
    if state.phase != "day" or state.pending_end is not None:
        raise illegal("Vote tokens are given by day.", "not_day")
    giver = target_seat(state, action.player)
    if giver.alive:
        raise illegal("Only the dead give their vote token.", "alive")
    if not giver.vote_token or giver.player in state.votes:
        raise illegal("Your vote token is spent (or pays for your vote today): you have none to give.", "no_token")
    beggar = target_seat(state, action.target)
    if not begs(beggar):
        raise illegal(f"{state.label(beggar.player)} is not the living Beggar: a vote token is given only to the "
                      "Beggar.", "not_beggar")
    if beggar.vote_token:
        raise illegal(f"{state.label(beggar.player)} already holds a vote token.", "has_token")
    giver.vote_token, beggar.vote_token = False, True
    return Outcome(state=state, events=[
        public("token_given", f"🪙 {state.label(giver.player)} gives their vote token to the Beggar, "
                              f"{state.label(beggar.player)}."),
        private(beggar.player, "beggar", f"{state.label(giver.player)} gave you their vote token: they are "
                                         f"**{giver.alignment}**.", title="🪙 A vote token"),
        Event(type="beggar", audience=STORYTELLER, title="🪙 The Beggar",
              text=f"{state.label(giver.player)} gave their token to the Beggar, {state.label(beggar.player)}, "
                   f"who was told they are {giver.alignment}. A Spy or Recluse might register otherwise: "
                   "`/st tell` the Beggar if you so rule."),
        record("token_given", {"day": state.day, "by": giver.player, "to": beggar.player}),
    ], reply=f"You gave your vote token to {state.label(beggar.player)}.")
