"""A moderator removes an absent player: their hand is discarded and the phase goes on without them."""

from __future__ import annotations

from games.engine import (
    Event,
    Outcome,
    RemovePlayer,
    Rng,
    leaving,
    public,
)

from .checks import eligible_players
from .choices import close_gaze, close_yew
from .ending import finish
from .models import CauldronState
from .night import close_night, open_night


def remove(s: CauldronState, a: RemovePlayer, rng: Rng) -> Outcome:
    target = leaving(s, a, s.removed)
    s.removed.append(target)
    s.discard.extend(s.hands[target])
    s.hands[target] = []
    s.chosen.pop(target, None)
    left = public("player_removed", f"🚪 **{s.name(target)}** leaves the cauldron's side. Their hand "
                                    "is discarded; their hero stays secret until the end.",
                  data={"player": target})
    if not s.active():
        return Outcome(state=s, events=[left, *finish(s, "ended", reason="everyone left")],
                       reply=f"{s.name(target)} was removed; no one is left.")
    return Outcome(state=s, events=[left, *_phase_after_removal(s, target, rng)],
                   reply=f"{s.name(target)} was removed from the game.")


def _phase_after_removal(s: CauldronState, target: str, rng: Rng) -> list[Event]:
    """The phase goes on without the player who left: it closes if everyone left has acted (a
    gazer's undecided card goes to the bottom; a drinker's vote is withdrawn)."""
    if s.phase == "night" and all(pid in s.chosen for pid in eligible_players(s)):
        return close_night(s, rng, timed_out=False)
    if s.phase == "gaze" and target in s.gaze_pending:
        s.gaze_choices.pop(target, None)
        s.gaze_choices[target] = "bottom"
        return close_gaze(s, rng) if all(pid in s.gaze_choices for pid in s.gaze_pending) else []
    if s.phase == "yew" and target in s.yew_voters:
        s.yew_votes.pop(target, None)
        voters = [pid for pid in s.yew_voters if pid not in s.removed]
        return close_yew(s, rng) if all(pid in s.yew_votes for pid in voters) else []
    if s.phase == "day" and all(pid in s.ended_discussion for pid in s.active()):
        return open_night(s, rng)
    return []
