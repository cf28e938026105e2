"""How a ritual resolves: dominant domain, hidden corruption, quality and intensity. Pure maths."""

from __future__ import annotations

from dataclasses import dataclass, field

from .data import DOMAIN_ORDER, Data

PURE, TAINTED, BACKFIRED = "PURE", "TAINTED", "BACKFIRED"

#: "PURE (<20% corruption)", "TAINTED (20-50% corruption)", "BACKFIRED (>50% corruption)".
PURE_BELOW = 20
BACKFIRE_ABOVE = 50
#: with amplify_tainted="split", a TAINTED ritual at or above this goes BACKFIRED, below it PURE.
SPLIT_AT = 35


@dataclass
class Reading:
    """The hidden reading of one ritual."""

    counts: dict[str, int] = field(default_factory=dict)
    corruption: int = 0
    dominant: str = ""
    base_quality: str = TAINTED
    quality: str = TAINTED
    #: "normal", "vivid" (more Amplification than Suppression), "muted" (the reverse),
    #: "balanced" (both present in equal numbers).
    intensity: str = "normal"
    #: Protection dominated and turned a BACKFIRED ritual into a TAINTED one.
    warded: bool = False
    moon: bool = False
    misdirected: bool = False  # a Misdirection ingredient is present (scrambles visions)


def quality_of(corruption: int) -> str:
    if corruption < PURE_BELOW:
        return PURE
    if corruption > BACKFIRE_ABOVE:
        return BACKFIRED
    return TAINTED


def read(data: Data, ingredients: list[str], moon: bool = False, amplify_tainted: str = "backfire",
         amp_and_sup: str = "net") -> Reading:
    """Read a ritual from the offered ingredient ids (order does not matter).

    Under the Purging Moon every Protection ingredient counts twice: twice in the domain count,
    twice its (negative) corruption weight. With both Amplification and Suppression offered,
    ``amp_and_sup="net"`` counts them against each other one for one; ``"in_order"`` follows the
    rulebook's steps 6 and 7 literally: Amplification acts, then Suppression dampens.
    """
    r = Reading(moon=moon)
    if not ingredients:
        return r  # the cauldron stays cold: TAINTED, no dominant domain
    counts = dict.fromkeys(DOMAIN_ORDER, 0)
    total = 0
    table = data.ingredients
    for iid in ingredients:
        ing = table[iid]
        times = 2 if moon and ing.domain == "protection" else 1
        counts[ing.domain] += times
        total += ing.weight * times
    r.counts = counts
    r.corruption = total
    best = DOMAIN_ORDER[0]
    for d in DOMAIN_ORDER:  # ties go to the earlier domain of the rulebook's order
        if counts[d] > counts[best]:
            best = d
    r.dominant = best
    r.misdirected = counts["misdirection"] > 0
    q = r.base_quality = quality_of(total)
    if best == "corruption" and q == PURE:
        q = TAINTED  # "Pure Outcome: (Impossible with Corruption dominant)"
    amp, sup = counts["amplification"], counts["suppression"]
    if q == TAINTED and amp and (amp > sup or amp_and_sup == "in_order"):
        # "TAINTED becomes BACKFIRED" (or, split, "no middle ground"); Corruption is never PURE
        q = PURE if amplify_tainted == "split" and total < SPLIT_AT and best != "corruption" else BACKFIRED
    if amp and sup and amp_and_sup == "in_order":
        r.intensity = "balanced"  # surged, then hushed: clues as plain
        if q == BACKFIRED:
            q = TAINTED
    elif amp > sup:
        r.intensity = "vivid"
    elif sup > amp:
        r.intensity = "muted"
        if q == BACKFIRED:
            q = TAINTED
    elif amp:
        r.intensity = "balanced"
    if best == "protection" and q == BACKFIRED:
        q = TAINTED
        r.warded = True
    r.quality = q
    return r
