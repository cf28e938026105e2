"""Ireland Cauldron's content: the six ingredients and the hero deck, loaded once from data/*.json."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from games.engine import DataError

DATA_DIR = Path(__file__).parent / "data"

#: The rulebook's six ingredients, in the order used whenever an order is needed (two
#: secondaries, tie lists, prompts).
INGREDIENT_ORDER: tuple[str, ...] = ("brigid", "gaze", "ceol", "thistle", "wolfbane", "yew")
MIN_PLAYERS = 5
MAX_PLAYERS = 10


def evil_count(n_players: int) -> int:
    """How many evil heroes are dealt: floor(n/3), at least one."""
    return max(1, n_players // 3)


class Ingredient(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    key: str = Field(pattern=r"^[a-z]+$")
    name: str = Field(min_length=1, max_length=40)
    emoji: str = Field(min_length=1, max_length=8)
    copies: int = Field(ge=1, le=20)
    primary: str = Field(min_length=1, max_length=300)
    secondary: str = Field(min_length=1, max_length=300)
    #: one line for the hand select (a Discord option description: at most 100 characters).
    short: str = Field(min_length=1, max_length=100)

    @property
    def label(self) -> str:
        return f"{self.emoji} {self.name}"


class Hero(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    key: str = Field(pattern=r"^[a-z]+$")
    name: str = Field(min_length=1, max_length=40)
    team: Literal["good", "evil"]
    legend: str = Field(min_length=1, max_length=200)


class CauldronData(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    ingredients: list[Ingredient]
    heroes: list[Hero]

    @model_validator(mode="after")
    def _check(self) -> CauldronData:
        keys = [i.key for i in self.ingredients]
        if tuple(keys) != INGREDIENT_ORDER:
            raise ValueError(f"the ingredients must be exactly {', '.join(INGREDIENT_ORDER)} in that order")
        if sum(i.copies for i in self.ingredients) != 60:
            raise ValueError("the ingredient deck must hold 60 cards")
        hero_keys = [h.key for h in self.heroes]
        if len(set(hero_keys)) != len(hero_keys):
            raise ValueError("hero keys must be unique")
        names = [h.name.lower() for h in self.heroes]
        if len(set(names)) != len(names):
            raise ValueError("hero names must be unique")
        good = sum(h.team == "good" for h in self.heroes)
        evil = len(self.heroes) - good
        for n in range(MIN_PLAYERS, MAX_PLAYERS + 1):
            if evil < evil_count(n) or good < n - evil_count(n):
                raise ValueError(f"not enough heroes of a team for {n} players")
            if len(self.heroes) - n < 1:
                raise ValueError(f"Ceol needs a spare hero at {n} players")
        return self

    def ingredient(self, key: str) -> Ingredient:
        for i in self.ingredients:
            if i.key == key:
                return i
        raise KeyError(key)

    def hero(self, key: str) -> Hero:
        for h in self.heroes:
            if h.key == key:
                return h
        raise KeyError(key)


def parse(raw: dict[str, Any]) -> CauldronData:
    """Validate raw content; a bad entry raises DataError naming it."""
    try:
        return CauldronData.model_validate(raw)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(x) for x in err.get("loc", ()))
        raise DataError(f"Ireland Cauldron data is not valid: {where} {err.get('msg')}", code="bad_data") from None


def load(directory: Path = DATA_DIR) -> CauldronData:
    try:
        raw = {
            "ingredients": json.loads((directory / "ingredients.json").read_text(encoding="utf-8")),
            "heroes": json.loads((directory / "heroes.json").read_text(encoding="utf-8")),
        }
    except (OSError, json.JSONDecodeError) as exc:
        raise DataError(f"Ireland Cauldron data could not be read: {exc}", code="bad_data") from None
    return parse(raw)


DATA = load()
INGREDIENTS: dict[str, Ingredient] = {i.key: i for i in DATA.ingredients}
HEROES: dict[str, Hero] = {h.key: h for h in DATA.heroes}
