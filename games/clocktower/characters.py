"""The characters of Her Royal Highness Register, its night order and its Djinn jinxes.

The data lives in ``data/*.json`` (written from the rulebook) and is validated once, when first
loaded. A broken file raises :class:`ClocktowerDataError` with a sentence saying what is wrong.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from games.engine import DataError

DATA = Path(__file__).parent / "data"

Team = Literal["townsfolk", "outsider", "minion", "demon", "traveller", "fabled", "loric"]
#: teams in the order a character sheet shows them (Her Royal Highness Register has no Loric)
TEAMS: tuple[str, ...] = ("townsfolk", "outsider", "minion", "demon", "traveller", "fabled", "loric")
#: the script's own characters (dealt to players); Travellers and Fabled are extra
SCRIPT_TEAMS: tuple[str, ...] = ("townsfolk", "outsider", "minion", "demon")
#: (singular, plural) of each team, as a sentence says it
TEAM_WORDS: dict[str, tuple[str, str]] = {
    "townsfolk": ("Townsfolk", "Townsfolk"),
    "outsider": ("Outsider", "Outsiders"),
    "minion": ("Minion", "Minions"),
    "demon": ("Demon", "Demons"),
    "traveller": ("Traveller", "Travellers"),
    "fabled": ("Fabled", "Fabled"),
    "loric": ("Loric", "Loric"),
}
#: how many of each team Her Royal Highness Register has
TEAM_COUNTS: dict[str, int] = {
    "townsfolk": 13, "outsider": 4, "minion": 4, "demon": 3, "traveller": 5, "fabled": 3,
}
#: the night-order markers: when Minions and the Demon learn each other, dusk and dawn
MARKERS: tuple[str, ...] = ("dusk", "minioninfo", "demoninfo", "dawn")
FIRST_NIGHT_MARKERS: tuple[str, ...] = ("dusk", "minioninfo", "demoninfo", "dawn")
OTHER_NIGHT_MARKERS: tuple[str, ...] = ("dusk", "dawn")

ID_PATTERN = re.compile(r"^[a-z0-9]+$")


class ClocktowerDataError(DataError):
    """A Clocktower data file (characters, night order, jinxes) failed validation."""

    code = "bad_clocktower_data"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Setup(_Strict):
    """What a character changes when the game is set up (its [square brackets])."""

    #: Outsiders added (or, if negative, removed), Townsfolk changing by the opposite amount
    outsiders: int = 0
    #: the character is seated next to a player of this team
    neighbours: Literal["demon"] | None = None
    #: characters it may neighbour instead (the Marionette may neighbour the Recluse)
    or_neighbours: tuple[str, ...] = ()


class Character(_Strict):
    id: str
    name: str
    team: Team
    #: the rulebook's ability text, verbatim
    ability: str
    #: other ids that mean this character (the Waitress is the official Harlot)
    aliases: tuple[str, ...] = ()
    #: a homebrew character's place in the official night sheet, as its script's object gives it
    #: (0: it does not wake, or it wakes where the night order of its data says)
    first_night: int = 0
    other_night: int = 0
    first_night_reminder: str = ""
    other_night_reminder: str = ""
    reminders: tuple[str, ...] = ()
    reminders_global: tuple[str, ...] = ()
    setup: Setup | None = None
    #: never dealt its own token: the player is shown a Townsfolk, the Demon, or a good character
    false_card: Literal["townsfolk", "demon", "good"] | None = None
    #: a homebrew object's app hints by name ("bag-duplicate": it may be dealt more than once)
    special: tuple[str, ...] = ()

    @property
    def good(self) -> bool:
        return self.team in ("townsfolk", "outsider")

    @property
    def evil(self) -> bool:
        return self.team in ("minion", "demon")


class NightOrder(_Strict):
    first_night: tuple[str, ...]
    other_night: tuple[str, ...]
    notes: dict[str, str] = Field(default_factory=dict)


class Jinx(_Strict):
    #: the 2 or 3 characters the jinx is between
    characters: tuple[str, ...] = Field(min_length=2, max_length=3)
    text: str

    @model_validator(mode="after")
    def _distinct(self) -> Jinx:
        if len(set(self.characters)) != len(self.characters):
            raise ValueError("a jinx names the same character twice")
        return self


class _CharacterFile(_Strict):
    characters: tuple[Character, ...]


class _JinxFile(_Strict):
    jinxes: tuple[Jinx, ...]


class Characters(BaseModel):
    """Every character the engine knows, the rulebook's night order and the Djinn's jinxes."""

    model_config = ConfigDict(frozen=True)
    characters: dict[str, Character]
    night_order: NightOrder
    jinxes: tuple[Jinx, ...]

    def __contains__(self, cid: object) -> bool:
        return isinstance(cid, str) and self.resolve(cid) is not None

    def __getitem__(self, cid: str) -> Character:
        found = self.resolve(cid)
        if found is None:
            raise KeyError(cid)
        return found

    def resolve(self, cid: str) -> Character | None:
        """The character an id means (aliases and spelling normalised), or None."""
        key = normalise_id(cid)
        if key in self.characters:
            return self.characters[key]
        for character in self.characters.values():  # an older id, or the name (a homebrew id is not its name)
            if key in character.aliases or key == normalise_id(character.name):
                return character
        return None

    def by_team(self, team: str) -> tuple[Character, ...]:
        return tuple(c for c in self.characters.values() if c.team == team)

    def jinxes_among(self, ids: set[str] | frozenset[str]) -> tuple[Jinx, ...]:
        """The jinxes whose characters are all in ``ids``."""
        return tuple(j for j in self.jinxes if set(j.characters) <= ids)


def normalise_id(cid: str) -> str:
    """Lowercase, keeping only a-z and 0-9 (the official tools' rule: "High Priestess" → highpriestess)."""
    return re.sub(r"[^a-z0-9]", "", cid.lower())


def _fail(message: str) -> ClocktowerDataError:
    return ClocktowerDataError(f"Clocktower: {message}", code="bad_clocktower_data")


def read_data(folder: Path, name: str) -> object:
    """A data file's JSON; an unreadable one is a ClocktowerDataError naming it."""
    try:
        return json.loads((folder / name).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise _fail(f"cannot read data/{name}: {exc}") from None


def _where(exc: ValidationError) -> str:
    err = exc.errors()[0]
    path = ".".join(str(p) for p in err["loc"])
    return f"{path}: {err['msg']}" if path else err["msg"]


def build(characters: object, night_order: object, jinxes: object) -> Characters:
    """Validate raw data (as loaded from the JSON files) into ``Characters``; raise ClocktowerDataError."""
    try:
        chars = _CharacterFile.model_validate(characters).characters
        order = NightOrder.model_validate(night_order)
        jinx_list = _JinxFile.model_validate(jinxes).jinxes
    except ValidationError as exc:
        raise _fail(f"bad data: {_where(exc)}") from None

    by_id: dict[str, Character] = {}
    names: set[str] = set()
    for c in chars:
        for cid in (c.id, *c.aliases):
            if not ID_PATTERN.match(cid):
                raise _fail(f"the id {cid!r} must be lowercase letters and digits only.")
            if cid in MARKERS:
                raise _fail(f"the id {cid!r} is a night-order marker, not a character.")
            if cid in by_id or cid in names:
                raise _fail(f"two characters share the id {cid!r}.")
            names.add(cid)
        by_id[c.id] = c
    for team, wanted in TEAM_COUNTS.items():
        found = sum(1 for c in chars if c.team == team)
        if found != wanted:
            raise _fail(f"the script needs {wanted} {team} characters, the data has {found}.")
    for c in chars:
        if c.setup:
            for other in c.setup.or_neighbours:
                if other not in by_id:
                    raise _fail(f"{c.id} may neighbour unknown character {other!r}.")

    for label, ids, markers in (("first night", order.first_night, FIRST_NIGHT_MARKERS),
                                ("other nights", order.other_night, OTHER_NIGHT_MARKERS)):
        for cid in ids:
            if cid not in by_id and cid not in MARKERS:
                raise _fail(f"the {label} order names unknown character {cid!r}.")
        if len(set(ids)) != len(ids):
            raise _fail(f"the {label} order names someone twice.")
        for marker in MARKERS:
            count = ids.count(marker)
            if marker in markers and count != 1:
                raise _fail(f"the {label} order must have {marker!r} exactly once.")
            if marker not in markers and count:
                raise _fail(f"the {label} order cannot have {marker!r}.")
        if ids[0] != "dusk" or ids[-1] != "dawn":
            raise _fail(f"the {label} order must start at dusk and end at dawn.")

    for jinx in jinx_list:
        for cid in jinx.characters:
            if cid not in by_id:
                raise _fail(f"a jinx names unknown character {cid!r}.")
    return Characters(characters=by_id, night_order=order, jinxes=jinx_list)


def load_from(folder: Path) -> Characters:
    """Load and validate the three data files of ``folder`` (the shipped ones, or a test's copy)."""
    return build(read_data(folder, "characters.json"), read_data(folder, "night_order.json"),
                 read_data(folder, "jinxes.json"))


@lru_cache(maxsize=1)
def load() -> Characters:
    return load_from(DATA)
