"""Sects & Violets' set-up information: the Evil Twin's pair ("You & an opposing player know each
other"), a "Twin" reminder token placed after the deal on a random good player, and the first-night
words each twin reads with their character.

Pure: it reads and changes the state it is given, with the game's random numbers; the deal calls it.
"""

from __future__ import annotations

from games.engine import Rng

from .characters import Characters
from .state import ClocktowerState, Reminder

#: the Evil Twin's token, as the official records spell it
TWIN = "Twin"


def twins(state: ClocktowerState) -> list[tuple[str, str]]:
    """Each Evil Twin and the good twin its "Twin" token is on: (evil twin, good twin)."""
    marked = [r.player for r in state.reminders if r.source == "eviltwin" and r.token.lower() == TWIN.lower()
              and state.seated(r.player)]
    evil = [s.player for s in state.by_character("eviltwin")]
    return list(zip(evil, marked, strict=False))


def place_twin(state: ClocktowerState, rng: Rng) -> str | None:
    """With an Evil Twin in play, put its "Twin" token on a random player of the opposing alignment
    (never a Traveller). A twin already placed stays. Returns the good twin, or None."""
    placed = twins(state)
    if placed:
        return placed[0][1]
    evil = state.by_character("eviltwin")
    if not evil:
        return None
    opposing = [s.player for s in state.seats if s.alignment != evil[0].alignment and not s.traveller]
    if not opposing:
        return None
    chosen = rng.choice(opposing)
    state.reminders.append(Reminder(player=chosen, token=TWIN, source="eviltwin"))
    return chosen


def twin_lines(state: ClocktowerState, chars: Characters, player: str) -> list[str]:
    """What a twin learns on the first night: the other twin and their character (the official
    reminder: each is shown the other's character token). Nothing for anyone else."""
    for evil, good in twins(state):
        other = good if player == evil else evil if player == good else ""
        if other:
            character = chars[state.seat_of(other).character].name
            return [f"Your twin: {state.label(other)}, the {character}. You know each other. If the good twin is "
                    "executed, evil wins; good cannot win while you both live."]
    return []
