"""The first-player claim (``first_player="claim"``): whoever most recently performed a magic
trick presses **I go first**; the first press wins, and at the deadline the castle chooses."""

from __future__ import annotations

from games.engine import Event, IllegalAction, Outcome, Prompt, Rng

from .checks import active, check_present, check_seated
from .models import CastleState, ClaimFirst
from .turn import begin


def claim_first(state: CastleState, action: ClaimFirst, rng: Rng) -> Outcome:
    check_seated(state, action)
    if state.phase != "first":
        raise IllegalAction("The first player has already been chosen.", code="wrong_phase")
    check_present(state, action.player)
    events = begin(state, action.player, f"🎩 {state.name(action.player)} performed the most recent magic trick.")
    return Outcome(state=state, events=events, reply="You go first.")


def first_timeout(state: CastleState, rng: Rng) -> list[Event]:
    first = rng.choice(active(state))
    return begin(state, first, "🎩 Nobody claimed the first turn; the castle chooses.")


def claim_prompt() -> Prompt:
    return Prompt(action="claim_first", title="Who goes first?",
                  text="Press if you performed a magic trick more recently than anyone here.",
                  submit_label="I go first")
