"""The Ritual's data (domains, ingredients, roles, narration), loaded once and validated."""

from __future__ import annotations

import json
from collections.abc import Sized
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from games.engine import DataError

DATA = Path(__file__).parent / "data"

DomainId = Literal["corruption", "misdirection", "divination", "protection", "amplification", "suppression"]
TeamId = Literal["coven", "corrupted", "neutral"]
Quality = Literal["PURE", "TAINTED", "BACKFIRED"]
QUALITIES: tuple[str, ...] = ("PURE", "TAINTED", "BACKFIRED")

#: The rulebook's tie order: "Corruption > Misdirection > Divination > Protection > Amplification > Suppression".
DOMAIN_ORDER: tuple[str, ...] = (
    "corruption", "misdirection", "divination", "protection", "amplification", "suppression",
)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Domain(_Strict):
    id: DomainId
    name: str
    icon: str


class Ingredient(_Strict):
    id: str
    name: str
    domain: DomainId
    #: hidden corruption weight, in percentage points; never shown to players before the end.
    weight: int
    icon: str
    flavour: str

    @model_validator(mode="after")
    def _limits(self) -> Ingredient:
        if not -100 <= self.weight <= 100:
            raise ValueError(f"{self.id}: weight out of range")
        if len(self.name) > 80 or len(self.flavour) > 100:
            raise ValueError(f"{self.id}: name or flavour too long for a Discord select")
        return self


class Team(_Strict):
    id: TeamId
    name: str
    icon: str
    goal: str


class Role(_Strict):
    id: str
    name: str
    team: TeamId
    icon: str
    description: str
    pool: tuple[str, ...]


class Catalogue(_Strict):
    domains: tuple[Domain, ...]
    ingredients: tuple[Ingredient, ...]


class RoleBook(_Strict):
    teams: tuple[Team, ...]
    roles: tuple[Role, ...]


class OutcomeTemplates(_Strict):
    PURE: tuple[str, ...]
    TAINTED: tuple[str, ...]
    BACKFIRED: tuple[str, ...]


class Narration(_Strict):
    reveal: tuple[str, ...]
    reaction: OutcomeTemplates
    intensity: dict[Literal["vivid", "muted", "balanced"], str]
    moon: str
    empty: str
    outcome: dict[DomainId, OutcomeTemplates]
    vision: dict[Literal["light", "shadow", "uncertain", "pair_shadow", "pair_light", "closed"], str]
    death: dict[Literal["performer", "astray", "spite", "nobody"], str]
    council: dict[Literal["burn", "tie", "spare", "empty"], str]
    infection: dict[Literal["spread", "clean", "moon", "hunger"], str]

    @model_validator(mode="after")
    def _complete(self) -> Narration:
        if set(self.outcome) != set(DOMAIN_ORDER):
            raise ValueError("narration.outcome needs one entry per domain")
        for key in ("vivid", "muted", "balanced"):
            if key not in self.intensity:
                raise ValueError(f"narration.intensity.{key} is missing")
        wanted: dict[str, tuple[Sized, int]] = {
            "vision": (self.vision, 6), "death": (self.death, 4),
            "council": (self.council, 4), "infection": (self.infection, 4),
        }
        for name, (group, size) in wanted.items():
            if len(group) != size:
                raise ValueError(f"narration.{name} needs {size} lines")
        for t in self.outcome.values():
            for q in QUALITIES:
                if not getattr(t, q):
                    raise ValueError("every domain needs at least one line for every quality")
        return self


class Data(BaseModel):
    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)
    domains: dict[str, Domain]
    ingredients: dict[str, Ingredient]
    teams: dict[str, Team]
    roles: dict[str, Role]
    narration: Narration


def _read(name: str) -> object:
    try:
        return json.loads((DATA / name).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise DataError(f"The Ritual: cannot read data/{name}: {exc}", code="bad_data") from None


def build(catalogue: object, rolebook: object, narration: object) -> Data:
    """Validate raw data (as loaded from the JSON files) into a ``Data``; raise DataError."""
    try:
        cat = Catalogue.model_validate(catalogue)
        book = RoleBook.model_validate(rolebook)
        nar = Narration.model_validate(narration)
    except ValidationError as exc:
        raise DataError(f"The Ritual: bad data: {exc.errors()[0]}", code="bad_data") from None
    domains = {d.id: d for d in cat.domains}
    if set(domains) != set(DOMAIN_ORDER):
        raise DataError("The Ritual: the domains must be exactly the rulebook's six.", code="bad_data")
    ingredients = {i.id: i for i in cat.ingredients}
    if len(ingredients) != len(cat.ingredients):
        raise DataError("The Ritual: two ingredients share an id.", code="bad_data")
    teams = {t.id: t for t in book.teams}
    roles = {r.id: r for r in book.roles}
    if len(roles) != len(book.roles):
        raise DataError("The Ritual: two roles share an id.", code="bad_data")
    for role in roles.values():
        if len(role.pool) != 3 or len(set(role.pool)) != 3:
            raise DataError(f"The Ritual: {role.id} needs three different ingredients.", code="bad_data")
        for ing in role.pool:
            if ing not in ingredients:
                raise DataError(f"The Ritual: {role.id} uses unknown ingredient {ing}.", code="bad_data")
        if role.team not in teams:
            raise DataError(f"The Ritual: {role.id} has unknown team {role.team}.", code="bad_data")
    for team in ("coven", "corrupted"):
        if sum(1 for r in roles.values() if r.team == team) < 1:
            raise DataError(f"The Ritual: no role for team {team}.", code="bad_data")
    if sum(1 for r in roles.values() if r.team == "corrupted") < 3:
        raise DataError("The Ritual: three Corrupted roles are needed (up to three are dealt).", code="bad_data")
    return Data(domains=domains, ingredients=ingredients, teams=teams, roles=roles, narration=nar)


@lru_cache(maxsize=1)
def load() -> Data:
    return build(_read("ingredients.json"), _read("roles.json"), _read("narration.json"))
