"""The cards of Castle of Magic, loaded once from data/cards.json and validated."""

from __future__ import annotations

import json
from functools import cache
from itertools import product
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from games.engine import DataError

DATA = Path(__file__).parent / "data" / "cards.json"

ROWS = ("bell", "book", "candle")
FACTIONS = ("dragon", "eagle", "wolf")
REGALIA = ("amulet", "crown", "scepter")
N_COLUMNS = 9
N_SHRINES = 27
N_PAWNS = 12


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Faction(_Strict):
    id: Literal["dragon", "eagle", "wolf"]
    name: str
    short: str
    colour: str


class Country(_Strict):
    id: Literal["kida", "marus", "sorrell"]
    name: str
    columns: list[int]


class Regalia(_Strict):
    id: Literal["amulet", "crown", "scepter"]
    name: str
    colour: str


class Arcanum(_Strict):
    id: Literal["bell", "book", "candle"]
    name: str
    active: str
    inactive: str


class OutcomeCard(_Strict):
    id: str
    title: str
    kind: Literal["banished", "dominate", "devour", "released"]
    regalia: Literal["amulet", "crown", "scepter"] | None
    text: str

    @model_validator(mode="after")
    def _regalia_matches_kind(self) -> OutcomeCard:
        if (self.kind in ("dominate", "devour")) != (self.regalia is not None):
            raise ValueError(f"outcome {self.id}: regalia must be set exactly for dominate/devour")
        return self


class Character(_Strict):
    id: str
    kind: Literal["wizard", "cultist", "monster"]
    faction: Literal["dragon", "eagle", "wolf"] | None
    country: Literal["kida", "marus", "sorrell"] | None

    @model_validator(mode="after")
    def _shape(self) -> Character:
        need_faction = self.kind != "monster"
        need_country = self.kind == "wizard"
        if (self.faction is not None) != need_faction or (self.country is not None) != need_country:
            raise ValueError(f"character {self.id}: faction/country do not fit a {self.kind}")
        return self


class Cards(_Strict):
    factions: list[Faction]
    countries: list[Country]
    regalia: list[Regalia]
    arcana: list[Arcanum]
    outcomes: list[OutcomeCard]
    characters: list[Character]
    player_colours: list[str]
    player_colour_names: list[str]

    @model_validator(mode="after")
    def _components(self) -> Cards:
        if [f.id for f in self.factions] != list(FACTIONS):
            raise ValueError("factions must be dragon, eagle, wolf in that order")
        if [r.id for r in self.regalia] != list(REGALIA):
            raise ValueError("regalia must be amulet, crown, scepter in that order")
        if [a.id for a in self.arcana] != list(ROWS):
            raise ValueError("arcana must be bell, book, candle in that order")
        cols = [c for country in self.countries for c in country.columns]
        if cols != list(range(1, N_COLUMNS + 1)):
            raise ValueError("the countries must cover columns 1..9 in order, three each")
        if len(self.outcomes) != 8 or len({o.id for o in self.outcomes}) != 8:
            raise ValueError("there must be eight distinct outcome cards")
        kinds = sorted((o.kind, o.regalia or "") for o in self.outcomes)
        expected = sorted([("banished", ""), ("released", "")]
                          + [(k, r) for k in ("dominate", "devour") for r in REGALIA])
        if kinds != expected:
            raise ValueError("the outcome cards must be: banished, released, and dominate/devour per regalia")
        chars = self.characters
        if len({c.id for c in chars}) != 13 or len(chars) != 13:
            raise ValueError("there must be thirteen distinct character cards")
        wizards = sorted((c.faction, c.country) for c in chars if c.kind == "wizard")
        if wizards != sorted(product(FACTIONS, ("kida", "marus", "sorrell"))):
            raise ValueError("there must be one wizard per faction and country")
        if sorted(c.faction for c in chars if c.kind == "cultist") != list(FACTIONS):  # type: ignore[type-var]
            raise ValueError("there must be one cultist per faction")
        if [c.kind for c in chars].count("monster") != 1:
            raise ValueError("there must be one Monster")
        if len(self.player_colours) < 6 or len(self.player_colour_names) != len(self.player_colours):
            raise ValueError("six player colours (with names) are needed")
        return self


def load_cards(path: Path = DATA) -> Cards:
    try:
        return Cards.model_validate(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, ValidationError) as exc:
        raise DataError(f"Castle of Magic data {path.name} is not valid: {exc}") from None


@cache
def cards() -> Cards:
    return load_cards()


CARDS = cards()
FACTION: dict[str, Faction] = {f.id: f for f in CARDS.factions}
REGALIA_BY_ID: dict[str, Regalia] = {r.id: r for r in CARDS.regalia}
ARCANUM: dict[str, Arcanum] = {a.id: a for a in CARDS.arcana}
OUTCOME: dict[str, OutcomeCard] = {o.id: o for o in CARDS.outcomes}
CHARACTER: dict[str, Character] = {c.id: c for c in CARDS.characters}
COUNTRY: dict[str, Country] = {c.id: c for c in CARDS.countries}
COUNTRY_IDS: tuple[str, ...] = tuple(c.id for c in CARDS.countries)

#: the ritual cards in their fixed row order: (bell ringing, book open, candle lit).
RITUALS: tuple[tuple[bool, bool, bool], ...] = tuple(
    (a, b, c) for a in (True, False) for b in (True, False) for c in (True, False)
)
#: the shrine deck: 8 per faction and the three regalia.
SHRINE_DECK: tuple[str, ...] = tuple(f for f in FACTIONS for _ in range(8)) + REGALIA


def card_title(card: str) -> str:
    if card in FACTION:
        return FACTION[card].name
    return "the " + REGALIA_BY_ID[card].name


def character_title(char_id: str) -> str:
    c = CHARACTER[char_id]
    if c.kind == "wizard":
        return f"a Wizard of the {FACTION[c.faction].name} from {COUNTRY[c.country].name}"  # type: ignore[index]
    if c.kind == "cultist":
        return f"a Cultist of the {FACTION[c.faction].name}"  # type: ignore[index]
    return "the Monster"


def ritual_label(index: int) -> str:
    """'Ritual 3 (bell ringing, book closed, candle lit)' for ritual card index 0..7."""
    return _RITUAL_LABELS[index]


def _ritual_label(index: int) -> str:
    flags = RITUALS[index]
    parts = [
        f"{a.name.lower()} {a.active if on else a.inactive}" for a, on in zip(CARDS.arcana, flags, strict=True)
    ]
    return f"Ritual {index + 1} ({', '.join(parts)})"


def shrine_id(index: int) -> str:
    return f"{ROWS[index // N_COLUMNS]}-{index % N_COLUMNS + 1}"


def shrine_index(sid: str) -> int:
    try:
        row, col = sid.strip().lower().split("-")
        r = ROWS.index(row)
        c = int(col)
    except ValueError:
        raise KeyError(sid) from None
    if not 1 <= c <= N_COLUMNS:
        raise KeyError(sid)
    return r * N_COLUMNS + c - 1


def country_of_column(col: int) -> str:
    """Country id of a 1-based column."""
    return COUNTRY_IDS[(col - 1) // 3]


def shrine_name(index: int) -> str:
    """'Bell 5 (Marus)' for a shrine index 0..26: its row and its column as the picture numbers
    them (1-9), with the country the column belongs to."""
    return _SHRINE_NAMES[index]


def _shrine_name(index: int) -> str:
    row, col = divmod(index, N_COLUMNS)
    country = COUNTRY[country_of_column(col + 1)]
    return f"{ARCANUM[ROWS[row]].name} {col + 1} ({country.name})"


_RITUAL_LABELS = tuple(_ritual_label(k) for k in range(8))
_SHRINE_NAMES = tuple(_shrine_name(i) for i in range(N_SHRINES))
