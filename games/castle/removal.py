"""A moderator removes an absent player: their pawns leave the tableau, their character stays
secret until the end, and a turn of theirs ends (the game ends with fewer than two left)."""

from __future__ import annotations

from games.engine import Outcome, RemovePlayer, Rng, leaving, public

from . import shrines
from .checks import active
from .ending import end_without_spell
from .models import CastleState
from .turn import end_turn


def remove(state: CastleState, action: RemovePlayer, rng: Rng) -> Outcome:
    target = leaving(state, action, state.removed)
    was_current = state.phase == "turn" and state.current == target
    state.removed.append(target)
    state.pawns[target] = [None] * len(state.pawns[target])
    if was_current:
        state.hand = []
    events = [public("player_removed",
                     f"🚪 **{state.name(target)}** leaves the castle; their pawns leave the tableau. "
                     "Their character stays secret until the end.", data={"player": target})]
    if len(active(state)) < 2:
        events += end_without_spell(state, "too few players remain")
        return Outcome(state=state, events=events, reply="Player removed; the game is over.")
    if was_current:
        summary = f"**{state.name(target)}** left the game."
        if state.flips:  # flips made before leaving stand, and are told once here
            summary = shrines.summary(state)[:-1] + ", then left the game."
        events += end_turn(state, summary, move=shrines.flips_data(state) if state.flips else None)
    else:
        events[0].image = "tableau"
    return Outcome(state=state, events=events, reply=f"{state.name(target)} was removed.")
