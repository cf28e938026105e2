"""The Cauldron's terms: its labels, how a night's casts rank, and how the end is counted."""

from __future__ import annotations

from collections import Counter

from games.engine import Rng

from .data import INGREDIENT_ORDER, INGREDIENTS

MILK = "🥛 Milk"
BLOOD = "🩸 Blood"
KIND_LABEL = {"milk": MILK, "blood": BLOOD}
TEAM_LABEL = {"good": "the Good", "evil": "the Evil", "draw": "no one: a draw", "ended": "no one"}
#: public events that may name heroes and owners: the final reveal.
REVEAL_EVENTS = {"game_over"}


def thistle_threshold(n_players: int) -> int:
    """The rulebook's ``max(2, floor((playerCount - 1) / 2))``."""
    return max(2, (n_players - 1) // 2)


def rank(counts: Counter[str], rng: Rng) -> tuple[str | None, list[str], str]:
    """Primary, secondaries and a tie note ("" / "primary_tie" / "secondary_random" / "no_effects").

    - one ingredient with the most cards: primary; the next highest count is the secondary,
      drawn at random among those tied for it;
    - exactly two tied for the most: no primary, both are secondaries;
    - three or more tied for the most: no primary, and the secondary effects are ignored.
    """
    if not counts:
        return None, [], ""
    order = sorted(counts, key=lambda k: (-counts[k], INGREDIENT_ORDER.index(k)))
    top = counts[order[0]]
    tied_top = [k for k in order if counts[k] == top]
    if len(tied_top) == 1:
        primary = tied_top[0]
        rest = [k for k in order if k != primary]
        if not rest:
            return primary, [], ""
        second = counts[rest[0]]
        tied = [k for k in rest if counts[k] == second]
        if len(tied) == 1:
            return primary, tied, ""
        return primary, [rng.choice(tied)], "secondary_random"
    if len(tied_top) == 2:
        return None, tied_top, "primary_tie"
    return None, [], "no_effects"


def outcome_for(milk: int, blood: int) -> str:
    if milk > blood:
        return "good"
    if blood > milk:
        return "evil"
    return "draw"


def ing(key: str) -> str:
    return INGREDIENTS[key].label


def ing_list(keys: list[str]) -> str:
    return ", ".join(ing(k) for k in keys) if keys else "nothing"


#: each phase in words (the phase table's labels, and a refusal's "it is the night")
PHASE_LABEL = {"night": "the night", "gaze": "the Cailleach's Gaze choice", "yew": "the Yew vote",
               "day": "the day", "game_over": "the end of the game"}
