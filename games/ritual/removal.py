"""A moderator removes an absent witch: the phase they leave goes on without them."""

from __future__ import annotations

from games.engine import Event, IllegalAction, Outcome, RemovePlayer, Rng, public

from . import choosing
from .circle import all_acted, team
from .council import close_council
from .ending import check_win
from .models import RitualState
from .offering import close_offering, whispers_after_removal


def remove(state: RitualState, action: RemovePlayer, rng: Rng) -> Outcome:
    pid = None
    for p in state.players:
        if action.target in (p.id, p.name):
            pid = p.id
    if pid is None:
        raise IllegalAction(f"There is no player {action.target!r} in this game.", code="unknown_target")
    if not state.is_alive(pid):
        raise IllegalAction(f"{state.name(pid)} is already out of the game.", code="target_dead")
    state.removed.append(pid)
    state.votes.pop(pid, None)
    state.offerings.pop(pid, None)
    for voter in [v for v, t in state.votes.items() if t == pid]:
        del state.votes[voter]  # they vote again
    if state.warded == pid:
        state.warded = ""
    events = [public("player_removed", f"🚪 **{state.name(pid)}** has left the circle.", data={"player": pid})]
    events += check_win(state)
    if not state.finished:
        events += _phase_after_removal(state, pid, rng)
    return Outcome(state=state, events=events, reply=f"{state.name(pid)} is removed from the game.")


def _phase_after_removal(state: RitualState, pid: str, rng: Rng) -> list[Event]:
    if state.phase == "offering":
        if all_acted(state, state.offerings):
            return close_offering(state, rng)
        if team(state, pid) == "corrupted":
            return whispers_after_removal(state)
    elif state.phase == "choosing":
        return choosing.after_removal(state, pid, rng)
    elif state.phase == "council" and state.votes and all_acted(state, state.votes):
        return close_council(state, rng)
    return []
