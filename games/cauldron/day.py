"""The day: the table talks, then each player ends the discussion; when all have, night falls."""

from __future__ import annotations

from games.engine import (
    Event,
    IllegalAction,
    Outcome,
    Rng,
    public,
)

from .checks import need_active, need_phase, need_player
from .models import CauldronState, EndDiscussion
from .night import open_night


def end_discussion(s: CauldronState, a: EndDiscussion, rng: Rng) -> Outcome:
    need_player(a)
    events: list[Event] = []
    need_phase(s, "day", "Ending the discussion")
    need_active(s, a.player)
    if a.player in s.ended_discussion:
        raise IllegalAction("You already ended your discussion.", code="already_done")
    s.ended_discussion.append(a.player)
    active = s.active()  # a player removed after pressing no longer counts
    ready = sum(1 for pid in active if pid in s.ended_discussion)
    # a living line shown on the day's own message, under its End discussion button (data
    # "on_phase"), so the count does not scroll away from the button as the table talks
    events.append(public("ready", f"✋ {ready} of {len(active)} ready for the night"
                         + (": night falls." if ready == len(active) else "."), slot=f"ready:{s.round}",
                         data={"on_phase": s.phase_seq, "ready": ready, "of": len(active)}))
    if ready == len(active):
        events += open_night(s, rng)
        return Outcome(state=s, events=events, reply="Everyone is ready: night falls.")
    return Outcome(state=s, events=events,
                   reply=f"You are ready for the night; waiting for {len(active) - ready} more.")
