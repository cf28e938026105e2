"""The day: the table talks, then each player ends the discussion; when all have, night falls."""

from __future__ import annotations

from games.engine import (
    Action,
    IllegalAction,
    Outcome,
    Prompt,
    Rng,
    public,
)

from .checks import need_active, need_phase, need_player
from .models import CauldronState, EndDiscussion
from .night import open_night


def end_discussion(s: CauldronState, a: EndDiscussion, rng: Rng) -> Outcome:
    need_player(a)
    need_phase(s, "day", "Ending the discussion")
    need_active(s, a.player)
    if a.player in s.ended_discussion:
        raise IllegalAction("You already ended your discussion.", code="already_done")
    s.ended_discussion.append(a.player)
    active = s.active()  # a player removed after pressing no longer counts
    ready = sum(1 for pid in active if pid in s.ended_discussion)
    # a living line shown on the day's own message, under its End discussion button (data
    # "on_phase"), so the count does not scroll away from the button as the table talks
    line = public("ready", f"✋ {ready} of {len(active)} ready for the night"
                  + (": night falls." if ready == len(active) else "."), slot=f"ready:{s.round}",
                  data={"on_phase": s.phase_seq, "ready": ready, "of": len(active)})
    if ready == len(active):
        return Outcome(state=s, events=[line, *open_night(s, rng)], reply="Everyone is ready: night falls.")
    return Outcome(state=s, events=[line],
                   reply=f"You are ready for the night; waiting for {len(active) - ready} more.")


def prompt(s: CauldronState, player_id: str) -> Prompt | None:
    """The End discussion button, for each player who has not pressed it."""
    if player_id in s.ended_discussion:
        return None
    return Prompt(action="end_discussion", title=f"Day {s.round}",
                  text="Press when you are ready for the night.", submit_label="End discussion")


def shared_prompt(s: CauldronState) -> Prompt:
    """The End discussion button on the day's message."""
    return Prompt(action="end_discussion", title=f"Day {s.round}", submit_label="End discussion")


def legal_actions(s: CauldronState) -> list[Action]:
    return [EndDiscussion(player=pid) for pid in s.active() if pid not in s.ended_discussion]
