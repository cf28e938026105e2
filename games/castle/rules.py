"""The ritual spell: arcana, outcome, domination, devouring, country control, regalia and scores.

Pure functions of the tableau, the pawns, the characters and the outcome mapping, so tests can
build any end position directly.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from .data import (
    CHARACTER,
    COUNTRY,
    COUNTRY_IDS,
    FACTION,
    FACTIONS,
    N_COLUMNS,
    OUTCOME,
    REGALIA,
    REGALIA_BY_ID,
    RITUALS,
    ROWS,
    Character,
    OutcomeCard,
    country_of_column,
)

POINTS = 1000
MONSTER_POINTS = 7000


class Objective(BaseModel):
    """One scoring line of a character: what it asks for, whether it was met, the points earned."""

    label: str
    met: bool
    points: int = 0


class Spell(BaseModel):
    """Everything the ritual spell decided."""

    arcana: dict[str, bool]  # bell ringing? book open? candle lit?
    active_counts: dict[str, int]
    ritual: int  # 0..7, index of the ritual card that matches
    outcome: str
    monster: Literal["banished", "dominated", "released"]
    dominator: str | None = None
    devoured: list[str] = Field(default_factory=list)
    #: country -> faction id that controls it (None: a tie, nobody)
    control: dict[str, str | None]
    #: country -> faction -> active shrines
    country_counts: dict[str, dict[str, int]]
    #: regalia -> the player whose pawn is on its shrine (before devouring)
    pawn_on: dict[str, str | None]
    #: regalia -> the player who claims it (a devoured character claims nothing)
    claims: dict[str, str | None]
    objectives: dict[str, list[Objective]]
    scores: dict[str, int]


def row_active(face_up: list[bool], row: int) -> int:
    return sum(face_up[row * N_COLUMNS:(row + 1) * N_COLUMNS])


def is_on(active: int) -> bool:
    """An arcanum is 'on' when the majority (5 or more of 9) of its row is active."""
    return active * 2 > N_COLUMNS


def arcana_of(face_up: list[bool]) -> dict[str, bool]:
    return {arc: is_on(row_active(face_up, r)) for r, arc in enumerate(ROWS)}


def ritual_index(arcana: dict[str, bool]) -> int:
    return RITUALS.index((arcana["bell"], arcana["book"], arcana["candle"]))


def country_counts(layout: list[str], face_up: list[bool]) -> dict[str, dict[str, int]]:
    counts = {c: dict.fromkeys(FACTIONS, 0) for c in COUNTRY_IDS}
    for i, card in enumerate(layout):
        if face_up[i] and card in FACTION:
            counts[country_of_column(i % N_COLUMNS + 1)][card] += 1
    return counts


def control_of(counts: dict[str, dict[str, int]]) -> dict[str, str | None]:
    """The faction with the most active shrines in each country; a tie for the most: nobody."""
    control: dict[str, str | None] = {}
    for country, by_faction in counts.items():
        best = max(by_faction.values())
        leaders = [f for f, n in by_faction.items() if n == best]
        control[country] = leaders[0] if len(leaders) == 1 else None
    return control


def pawn_owners(pawns: dict[str, list[int | None]], players: list[str]) -> dict[int, str]:
    owners: dict[int, str] = {}
    for pid in players:
        for where in pawns.get(pid, []):
            if where is not None:
                owners[where] = pid
    return owners


def cast(
    layout: list[str],
    face_up: list[bool],
    pawns: dict[str, list[int | None]],
    characters: dict[str, str],
    players: list[str],
    rituals: list[str],
    domination: str = "master_spared",
    devoured_score: str = "countries",
) -> Spell:
    """Cast the ritual spell. ``players``: the characters still in the castle (removed players are not)."""
    arcana = arcana_of(face_up)
    ritual = ritual_index(arcana)
    outcome = OUTCOME[rituals[ritual]]
    owners = pawn_owners(pawns, players)
    pawn_on = {r: owners.get(layout.index(r)) for r in REGALIA}
    monster_ids = [p for p in players if CHARACTER[characters[p]].kind == "monster"]
    monster, dominator, devoured = monster_fate(outcome, pawn_on, players, monster_ids, domination)

    claims = {r: (None if who in devoured else who) for r, who in pawn_on.items()}
    counts = country_counts(layout, face_up)
    control = control_of(counts)
    fed = bool(devoured)
    monster_fed = any(CHARACTER[characters[p]].kind in ("wizard", "cultist") for p in devoured)

    objectives: dict[str, list[Objective]] = {}
    scores: dict[str, int] = {}
    for pid in players:
        lines = objectives_of(pid, CHARACTER[characters[pid]], control, claims, pawn_on, dominator, fed,
                              monster_fed)
        if pid in devoured and devoured_score == "nothing":
            lines = [o.model_copy(update={"points": 0}) for o in lines]
            lines.append(Objective(label="Devoured: scores nothing (table option)", met=False, points=0))
        objectives[pid] = lines
        scores[pid] = sum(o.points for o in lines)

    return Spell(
        arcana=arcana,
        active_counts={arc: row_active(face_up, r) for r, arc in enumerate(ROWS)},
        ritual=ritual,
        outcome=outcome.id,
        monster=monster,
        dominator=dominator,
        devoured=devoured,
        control=control,
        country_counts=counts,
        pawn_on=pawn_on,
        claims=claims,
        objectives=objectives,
        scores=scores,
    )


def monster_fate(outcome: OutcomeCard, pawn_on: dict[str, str | None], players: list[str],
                 monster_ids: list[str], domination: str) -> tuple[str, str | None, list[str]]:
    """What the outcome card does to the Monster: its fate, its master (a domination) and whom it devours."""
    everyone_but_monster = [p for p in players if p not in monster_ids]
    dominator: str | None = None
    devoured: list[str] = []
    if outcome.kind == "banished":
        monster = "banished"
    elif outcome.kind == "released":
        monster = "released"
        devoured = everyone_but_monster
    elif outcome.kind == "dominate":
        claimant = pawn_on[outcome.regalia]  # type: ignore[index]
        if claimant is None:
            monster = "released"
            devoured = everyone_but_monster
        else:
            monster = "dominated"
            dominator = claimant
            if domination == "master_spared":
                devoured = [p for p in everyone_but_monster if p != claimant]
    else:  # devour
        monster = "banished"
        claimant = pawn_on[outcome.regalia]  # type: ignore[index]
        if claimant is not None and claimant not in monster_ids:
            devoured = [claimant]
    return monster, dominator, devoured


def objectives_of(pid: str, char: Character, control: dict[str, str | None], claims: dict[str, str | None],
                  pawn_on: dict[str, str | None], dominator: str | None, fed: bool,
                  monster_fed: bool) -> list[Objective]:
    """One character's scoring lines (before the devoured_score option)."""
    lines: list[Objective] = []
    if char.kind == "monster":
        lines.append(Objective(label="Devour at least one wizard or cultist", met=monster_fed,
                               points=MONSTER_POINTS if monster_fed else 0))
        held = [REGALIA_BY_ID[r].name for r, who in claims.items() if who == pid]
        if held:
            lines.append(Objective(label=f"Claims the {', '.join(held)} (no points for the Monster)",
                                   met=True, points=0))
    else:
        faction = char.faction
        fname = FACTION[faction].name  # type: ignore[index]
        for country in COUNTRY_IDS:
            met = control[country] == faction
            lines.append(Objective(label=f"{fname} control {COUNTRY[country].name}",
                                   met=met,
                                   points=POINTS if met else 0))
        if char.kind == "wizard":
            home = char.country
            met = control[home] == faction  # type: ignore[index]
            lines.append(Objective(label=f"Home country {COUNTRY[home].name} controlled by the {fname}",  # type: ignore[index]
                                   met=met, points=POINTS if met else 0))
        for r in REGALIA:
            if claims[r] == pid:
                lines.append(Objective(label=f"Claims the {REGALIA_BY_ID[r].name}",
                                       met=True, points=POINTS))
            elif pawn_on[r] == pid:
                lines.append(Objective(label=f"Claims the {REGALIA_BY_ID[r].name} (lost: devoured)",
                                       met=False, points=0))
        if not any(pawn_on[r] == pid for r in REGALIA):
            lines.append(Objective(label="Claim a piece of regalia", met=False, points=0))
        if char.kind == "wizard":
            met = dominator == pid
            lines.append(Objective(label="Dominate the Monster", met=met,
                                   points=POINTS if met else 0))
        else:
            lines.append(Objective(label="Feed the Monster (it devours someone)", met=fed,
                                   points=POINTS if fed else 0))
    return lines


def winners(scores: dict[str, int]) -> list[str]:
    if not scores:
        return []
    best = max(scores.values())
    return [p for p, s in scores.items() if s == best]
