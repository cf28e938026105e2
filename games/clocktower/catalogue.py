"""Every official character, as the project's own data: records, jinxes, the night sheet, set-up changes.

``data/official/`` holds copies of the official release repository's toolmaker files
(``roles.json``, ``jinxes.json``, ``nightsheet.json``; see ``data/official/SOURCES.md``) and two
files of our own written from the rules: ``setup.json`` (each character's set-up change, its
[square brackets], as data) and ``counts.json`` (the player-count table). They are validated
once, when first loaded; a broken file raises :class:`ClocktowerDataError` with a sentence.

This module sits beside ``characters.py`` (Her Royal Highness Register, written from its
rulebook, which is authoritative for that script): the two are kept side by side, and Her Royal
Highness Register's ids are read here as the official ones (the Waitress is the Harlot).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import product
from pathlib import Path
from typing import Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from games.engine import GameError, SetupError

from .characters import MARKERS, ClocktowerDataError, normalise_id
from .characters import load as load_hrh

OFFICIAL = Path(__file__).parent / "data" / "official"

Team = Literal["townsfolk", "outsider", "minion", "demon", "traveller", "fabled", "loric"]
Edition = Literal["tb", "bmr", "snv", "carousel", "fabled", "loric"]
#: editions and teams in the order a listing shows them
EDITIONS: dict[str, str] = {
    "tb": "Trouble Brewing", "bmr": "Bad Moon Rising", "snv": "Sects & Violets",
    "carousel": "The Carousel", "fabled": "Fabled", "loric": "Loric",
}
TEAMS: tuple[str, ...] = ("townsfolk", "outsider", "minion", "demon", "traveller", "fabled", "loric")
#: the teams dealt to seated players (and counted by the player-count table)
DEALT_TEAMS: tuple[str, ...] = ("townsfolk", "outsider", "minion", "demon")
#: teams whose set-up change holds when they are on the script, dealt or not
SCRIPT_WIDE_TEAMS: tuple[str, ...] = ("fabled", "loric")
#: the night sheet's markers, with what the Storyteller does (our words)
MARKER_TEXT: dict[str, tuple[str, str]] = {
    "dusk": ("Dusk", "Night falls: every player's eyes are closed."),
    "minioninfo": ("Minion Info", "With 7 or more players: wake the Minions; show them the Demon and "
                                  "each other."),
    "demoninfo": ("Demon Info", "With 7 or more players: wake the Demon; show them their Minions and "
                                "3 good characters not in play (their bluffs)."),
    "dawn": ("Dawn", "Wake everyone: the day begins."),
}
T = TypeVar("T")
ID_PATTERN = re.compile(r"^[a-z0-9]+$")
BRACKETS = re.compile(r"\[[^\]]+\]")


class UnknownCharacter(GameError):
    """An id that is no official character (nor an older spelling of one)."""

    code = "unknown_character"


class SetupConflict(SetupError):
    """The chosen characters cannot be set up together at this player count."""

    code = "setup_conflict"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, populate_by_name=True)


# -- the official records (roles.json, jinxes.json, nightsheet.json) --------------------------

class Special(_Strict):
    """An official app hint (``special``): kept as the record has it; the rules here do not read it."""

    type: str
    name: str
    time: str | None = None
    value: int | None = None
    global_: str | None = Field(default=None, alias="global")


class Record(_Strict):
    """One official character, as the official release repository's ``roles.json`` has it."""

    id: str
    name: str = Field(min_length=1)
    team: Team
    edition: Edition
    ability: str = Field(min_length=1)
    setup: bool
    reminders: tuple[str, ...]
    reminders_global: tuple[str, ...] = Field(default=(), alias="remindersGlobal")
    first_night_reminder: str = Field(default="", alias="firstNightReminder")
    other_night_reminder: str = Field(default="", alias="otherNightReminder")
    special: tuple[Special, ...] = ()

    @property
    def good(self) -> bool:
        return self.team in ("townsfolk", "outsider")

    @property
    def evil(self) -> bool:
        return self.team in ("minion", "demon")


class _JinxEntry(_Strict):
    id: str
    reason: str = Field(min_length=1)


class _JinxList(_Strict):
    id: str
    jinx: tuple[_JinxEntry, ...] = Field(min_length=1)


class OfficialJinx(_Strict):
    """A jinx between two characters (the official file lists it under the first)."""

    first: str
    second: str
    reason: str

    @property
    def pair(self) -> frozenset[str]:
        return frozenset((self.first, self.second))


class _NightSheet(_Strict):
    first_night: tuple[str, ...] = Field(alias="firstNight")
    other_night: tuple[str, ...] = Field(alias="otherNight")


# -- our own files (setup.json, counts.json) --------------------------------------------------

class SetupChange(_Strict):
    """What a character changes when the game is set up, as data a deal applies."""

    #: the change in plain words (shown to Storytellers)
    text: str = Field(min_length=1)
    #: allowed changes to the Outsider count (Townsfolk change by the opposite), or any count
    outsiders: tuple[int, ...] | Literal["any"] = (0,)
    #: Minions added in place of Townsfolk (Lord of Typhon, Lil' Monsta)
    minions: int = 0
    #: Demons added (negative: removed) in place of Townsfolk (Summoner -1, Lil' Monsta -1)
    demons: int = 0
    #: no evil characters at all: every seat is Townsfolk or Outsider (the Atheist)
    no_evil: bool = False
    #: no Minion is dealt; the Demon makes them during the first night (the Kazali)
    minions_made_in_play: bool = False
    #: most players are this Demon, no Minions (Legion)
    majority: bool = False
    #: this character's token is never dealt to a player (Lil' Monsta)
    no_token: bool = False
    #: extra copies of this character allowed, each in place of another of its team (Village Idiot)
    copies: tuple[int, ...] = (0,)
    #: of the extra copies, how many are drunk
    drunk_copies: int = 0
    #: characters that must be in play too (the Huntsman's Damsel, the Choirboy's King)
    requires: tuple[str, ...] = ()
    #: never shown its own token: shown a character of this kind not in play instead
    false_card: Literal["townsfolk", "demon", "good"] | None = None
    #: seated next to a player of this team
    neighbours: Literal["demon"] | None = None
    #: the evil players sit in a line with this Demon in the middle (Lord of Typhon)
    evil_line: bool = False
    #: Townsfolk that are evil (the Bounty Hunter)
    evil_townsfolk: int = 0
    #: the Storyteller assigns every character (the Gardener)
    storyteller_assigns: bool = False
    #: characters of this alignment may be dealt more than once (the Pope)
    duplicates: Literal["good"] | None = None
    #: players are not told their character or alignment (Tor)
    hidden: bool = False


class _SetupFile(_Strict):
    notes: str = ""
    changes: dict[str, SetupChange]


class TeamCounts(_Strict):
    """How many seated players of each team; the shape of a row of the player-count table."""

    townsfolk: int = Field(ge=0)
    outsiders: int = Field(ge=0)
    minions: int = Field(ge=0)
    demons: int = Field(ge=0)

    @property
    def players(self) -> int:
        return self.townsfolk + self.outsiders + self.minions + self.demons

    def counts(self) -> dict[str, int]:
        """Keyed by team, as ``deal.Composition.counts`` is."""
        return {"townsfolk": self.townsfolk, "outsider": self.outsiders,
                "minion": self.minions, "demon": self.demons}


class _CountRow(_Strict):
    players: int = Field(ge=1)
    townsfolk: int = Field(ge=0)
    outsiders: int = Field(ge=0)
    minions: int = Field(ge=0)
    demons: int = Field(ge=0)

    def team_counts(self) -> TeamCounts:
        return TeamCounts(townsfolk=self.townsfolk, outsiders=self.outsiders,
                          minions=self.minions, demons=self.demons)


class _CountsFile(_Strict):
    notes: str = ""
    counts: tuple[_CountRow, ...]


# -- the catalogue ----------------------------------------------------------------------------

class Catalogue(BaseModel):
    """Every official character, its jinxes, the official night sheet and every set-up change."""

    model_config = ConfigDict(frozen=True)
    records: dict[str, Record]
    jinxes: tuple[OfficialJinx, ...]
    first_night: tuple[str, ...]
    other_night: tuple[str, ...]
    setup: dict[str, SetupChange]
    counts: dict[int, TeamCounts]
    #: ids of other scripts' data that mean an official character (Her Royal Highness Register's waitress)
    aliases: dict[str, str]

    def __contains__(self, cid: object) -> bool:
        return isinstance(cid, str) and self.resolve(cid) is not None

    def __getitem__(self, cid: str) -> Record:
        found = self.resolve(cid)
        if found is None:
            raise UnknownCharacter(f"{cid!r} is not an official character.", character=cid)
        return found

    def resolve(self, cid: str) -> Record | None:
        """The record an id means, however an older tool spells it ("Scarlet Woman", "pit-hag",
        "lil_monsta"), or None."""
        key = normalise_id(cid)
        return self.records.get(self.aliases.get(key, key))

    def official_id(self, cid: str) -> str:
        return self[cid].id

    def change(self, cid: str) -> SetupChange | None:
        """The character's set-up change, if it has one."""
        return self.setup.get(self[cid].id)

    def jinxes_among(self, ids: Iterable[str]) -> tuple[OfficialJinx, ...]:
        """The jinxes both of whose characters are in ``ids``."""
        on = {self.official_id(cid) for cid in ids}
        return tuple(j for j in self.jinxes if j.first in on and j.second in on)

    def by_edition(self) -> dict[str, dict[str, tuple[Record, ...]]]:
        """Edition -> team -> records, in the listing's order, names sorted within a team."""
        out: dict[str, dict[str, tuple[Record, ...]]] = {}
        for edition in EDITIONS:
            teams = {team: tuple(sorted((r for r in self.records.values()
                                         if r.edition == edition and r.team == team), key=lambda r: r.name))
                     for team in TEAMS}
            out[edition] = {team: rs for team, rs in teams.items() if rs}
        return out


def _fail(message: str) -> ClocktowerDataError:
    return ClocktowerDataError(f"Clocktower: data/official/{message}", code="bad_clocktower_data")


def _parse(folder: Path, name: str, shape: type[T]) -> T:
    """A file validated as ``shape`` (strictly, from its JSON text); a ClocktowerDataError in words."""
    try:
        text = (folder / name).read_text(encoding="utf-8")
    except OSError as exc:
        raise _fail(f"{name} cannot be read: {exc.strerror or exc}.") from None
    try:
        return TypeAdapter(shape).validate_json(text, strict=True)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"])
        raise _fail(f"{name}: {where + ': ' if where else ''}{err['msg']}.") from None


def _check_records(records: Sequence[Record]) -> dict[str, Record]:
    by_id: dict[str, Record] = {}
    names: dict[str, str] = {}
    for r in records:
        if not ID_PATTERN.match(r.id):
            raise _fail(f"roles.json: the id {r.id!r} must be lowercase letters and digits only.")
        if r.id in MARKERS:
            raise _fail(f"roles.json: the id {r.id!r} is a night-order marker, not a character.")
        if r.id in by_id:
            raise _fail(f"roles.json: two records share the id {r.id!r}.")
        if r.name.lower() in names:
            raise _fail(f"roles.json: two records share the name {r.name!r}.")
        if r.edition in ("fabled", "loric") and r.team != r.edition:
            raise _fail(f"roles.json: {r.id} is in the {r.edition} edition but on the {r.team} team.")
        if BRACKETS.search(r.ability) and not r.setup:
            raise _fail(f"roles.json: {r.id}'s ability has [square brackets] but it is not marked setup: true.")
        by_id[r.id] = r
        names[r.name.lower()] = r.id
    return by_id


def _check_jinxes(lists: Sequence[_JinxList], records: dict[str, Record]) -> tuple[OfficialJinx, ...]:
    out: list[OfficialJinx] = []
    seen: set[frozenset[str]] = set()
    for entry in lists:
        for jinx in entry.jinx:
            for cid in (entry.id, jinx.id):
                if cid not in records:
                    raise _fail(f"jinxes.json: a jinx names unknown character {cid!r}.")
            pair = frozenset((entry.id, jinx.id))
            if len(pair) != 2:
                raise _fail(f"jinxes.json: {entry.id} is jinxed with itself.")
            if pair in seen:
                raise _fail(f"jinxes.json: the jinx between {entry.id} and {jinx.id} is listed twice.")
            seen.add(pair)
            out.append(OfficialJinx(first=entry.id, second=jinx.id, reason=jinx.reason))
    return tuple(out)


def _check_sheet(sheet: _NightSheet, records: dict[str, Record]) -> None:
    for label, ids, markers, field in (
            ("firstNight", sheet.first_night, MARKERS, "first_night_reminder"),
            ("otherNight", sheet.other_night, ("dusk", "dawn"), "other_night_reminder")):
        if len(set(ids)) != len(ids):
            raise _fail(f"nightsheet.json: {label} names someone twice.")
        for cid in ids:
            if cid not in records and cid not in MARKERS:
                raise _fail(f"nightsheet.json: {label} names unknown character {cid!r}.")
            if cid in MARKERS and cid not in markers:
                raise _fail(f"nightsheet.json: {label} cannot have the marker {cid!r}.")
            if cid in records and not getattr(records[cid], field):
                raise _fail(f"nightsheet.json: {label} wakes {cid}, whose record has no reminder for that night.")
        for marker in markers:
            if marker not in ids:
                raise _fail(f"nightsheet.json: {label} has no {marker!r} marker.")
        if ids[0] != "dusk":
            raise _fail(f"nightsheet.json: {label} must start at dusk.")
        missing = [r.id for r in records.values() if getattr(r, field) and r.id not in ids]
        if missing:
            raise _fail(f"nightsheet.json: {label} leaves out {', '.join(missing)}, "
                        "whose records have a reminder for that night.")


def _check_setup(changes: dict[str, SetupChange], records: dict[str, Record]) -> None:
    for cid, change in changes.items():
        if cid not in records:
            raise _fail(f"setup.json: a set-up change names unknown character {cid!r}.")
        for other in change.requires:
            if other not in records:
                raise _fail(f"setup.json: {cid} requires unknown character {other!r}.")
        if change.outsiders != "any" and (not change.outsiders
                                          or len(set(change.outsiders)) != len(change.outsiders)):
            raise _fail(f"setup.json: {cid}'s outsiders must list each allowed change once.")
        if 0 not in change.copies or min(change.copies) < 0:
            raise _fail(f"setup.json: {cid}'s copies must include 0 and never be negative.")
        if change.drunk_copies > max(change.copies):
            raise _fail(f"setup.json: {cid} has more drunk copies than copies.")
    missing = [r.id for r in records.values() if r.setup and r.id not in changes]
    if missing:
        raise _fail(f"setup.json: {', '.join(missing)} change the set-up (setup: true) but have no entry.")


def _check_counts(rows: Sequence[_CountRow]) -> dict[int, TeamCounts]:
    table: dict[int, TeamCounts] = {}
    for row in rows:
        counts = row.team_counts()
        if counts.players != row.players:
            raise _fail(f"counts.json: the row for {row.players} players adds up to {counts.players}.")
        if row.players in table:
            raise _fail(f"counts.json: two rows for {row.players} players.")
        table[row.players] = counts
    if sorted(table) != list(range(min(table, default=0), max(table, default=0) + 1)) or not table:
        raise _fail("counts.json: the rows must cover every player count from the smallest to the largest.")
    return table


def _aliases(records: dict[str, Record]) -> dict[str, str]:
    """Her Royal Highness Register's ids that are another official id (waitress -> harlot)."""
    out: dict[str, str] = {}
    for c in load_hrh().characters.values():
        if c.id in records:
            continue
        for alias in c.aliases:
            if alias in records:
                out[c.id] = alias
    return out


def load_from(folder: Path, aliases: dict[str, str] | None = None) -> Catalogue:
    """Load and validate the official data in ``folder`` (the shipped one, or a test's copy)."""
    records = _check_records(_parse(folder, "roles.json", tuple[Record, ...]))
    jinxes = _check_jinxes(_parse(folder, "jinxes.json", tuple[_JinxList, ...]), records)
    sheet = _parse(folder, "nightsheet.json", _NightSheet)
    _check_sheet(sheet, records)
    setup_file = _parse(folder, "setup.json", _SetupFile)
    _check_setup(setup_file.changes, records)
    table = _check_counts(_parse(folder, "counts.json", _CountsFile).counts)
    return Catalogue(records=records, jinxes=jinxes, first_night=sheet.first_night,
                     other_night=sheet.other_night, setup=setup_file.changes, counts=table,
                     aliases=_aliases(records) if aliases is None else aliases)


@lru_cache(maxsize=1)
def load() -> Catalogue:
    return load_from(OFFICIAL)
