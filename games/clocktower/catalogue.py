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

import json
import re
from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import product
from pathlib import Path
from typing import Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from games.engine import GameError, SetupError

from .characters import (
    FIRST_NIGHT_MARKERS,
    ID_PATTERN,
    MARKERS,
    OTHER_NIGHT_MARKERS,
    SCRIPT_TEAMS,
    TEAM_WORDS,
    TEAMS,
    ClocktowerDataError,
    Team,
    normalise_id,
)
from .characters import load as load_hrh

OFFICIAL = Path(__file__).parent / "data" / "official"

Edition = Literal["tb", "bmr", "snv", "carousel", "fabled", "loric"]
#: editions and teams in the order a listing shows them
EDITIONS: dict[str, str] = {
    "tb": "Trouble Brewing", "bmr": "Bad Moon Rising", "snv": "Sects & Violets",
    "carousel": "The Carousel", "fabled": "Fabled", "loric": "Loric",
}
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
        """How many characters of each team, keyed by team."""
        return {"townsfolk": self.townsfolk, "outsider": self.outsiders,
                "minion": self.minions, "demon": self.demons}


class CountRow(_Strict):
    """One row of a player-count table (the official one here, Her Royal Highness Register's in
    ``deal.composition``): how many seated players of each team at ``players``."""

    players: int = Field(ge=1)
    townsfolk: int = Field(ge=0)
    outsiders: int = Field(ge=0)
    minions: int = Field(ge=0)
    demons: int = Field(ge=0)

    def team_counts(self) -> TeamCounts:
        return TeamCounts(townsfolk=self.townsfolk, outsiders=self.outsiders,
                          minions=self.minions, demons=self.demons)

    def counts(self) -> dict[str, int]:
        """How many characters of each team, keyed by team."""
        return self.team_counts().counts()


class _CountsFile(_Strict):
    notes: str = ""
    counts: tuple[CountRow, ...]


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
        raise _fail(f"{name}: {_where(text, err['loc'])}{err['msg']}.") from None


def _where(text: str, loc: tuple[int | str, ...]) -> str:
    """ "imp (entry 124), flavour: " for a record of a list; the path otherwise."""
    if not loc:
        return ""
    path = ".".join(str(p) for p in loc)
    if isinstance(loc[0], int):
        try:
            entry = json.loads(text)[loc[0]]
        except (ValueError, LookupError, TypeError):
            return f"{path}: "
        cid = entry.get("id") if isinstance(entry, dict) else None
        rest = ".".join(str(p) for p in loc[1:])
        named = f"{cid} (entry {loc[0] + 1})" if isinstance(cid, str) else f"entry {loc[0] + 1}"
        return f"{named}{', ' + rest if rest else ''}: "
    return f"{path}: "


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
            ("firstNight", sheet.first_night, FIRST_NIGHT_MARKERS, "first_night_reminder"),
            ("otherNight", sheet.other_night, OTHER_NIGHT_MARKERS, "other_night_reminder")):
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


def _check_counts(rows: Sequence[CountRow]) -> dict[int, TeamCounts]:
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


# -- the night order of any script ------------------------------------------------------------

class NightOrderError(GameError):
    """A script's own night order (its ``_meta``) cannot be read."""

    code = "bad_night_order"


class NightStep(_Strict):
    """One entry of a night's order: a character (with its official reminder) or a marker."""

    id: str
    name: str
    reminder: str
    marker: bool = False


class ScriptNights(_Strict):
    """A script's first-night and other-night order, each from dusk to dawn."""

    first_night: tuple[NightStep, ...]
    other_night: tuple[NightStep, ...]
    #: True when the order came from the script's ``_meta`` rather than the official night sheet
    custom: bool = False


def night_order(ids: Iterable[str], *, first_night: Sequence[str] | None = None,
                other_night: Sequence[str] | None = None,
                catalogue: Catalogue | None = None) -> ScriptNights:
    """The night order of a script whose characters are ``ids``, with each step's official reminder.

    The official night sheet decides the order; a script's ``_meta.firstNight`` / ``otherNight``
    (``first_night`` / ``other_night`` here), when given, is honoured as it stands: only what it
    lists wakes, in its order. Entries after the ``dawn`` marker (the Leviathan, the Vizier, Riot)
    are kept where the sheet has them: they are the Storyteller's dawn announcements.
    """
    cat = catalogue or load()
    on_script = _official_ids(cat, ids)
    return ScriptNights(
        first_night=_night(cat, on_script, first_night, cat.first_night, "first_night_reminder", "first night"),
        other_night=_night(cat, on_script, other_night, cat.other_night, "other_night_reminder", "other nights"),
        custom=first_night is not None or other_night is not None,
    )


def _official_ids(cat: Catalogue, ids: Iterable[str]) -> list[str]:
    """The official ids of ``ids``, in order, each once; UnknownCharacter naming every stranger."""
    found: list[str] = []
    unknown: list[str] = []
    for cid in ids:
        record = cat.resolve(cid)
        if record is None:
            unknown.append(str(cid))
        elif record.id not in found:
            found.append(record.id)
    if unknown:
        raise UnknownCharacter(f"Not official characters: {', '.join(unknown)}.", characters=tuple(unknown))
    return found


def _night(cat: Catalogue, on_script: list[str], custom: Sequence[str] | None, sheet: tuple[str, ...],
           field: str, label: str) -> tuple[NightStep, ...]:
    if custom is None:
        order = [cid for cid in sheet if cid in MARKERS or cid in on_script]
    else:
        order = []
        for raw in custom:
            key = normalise_id(raw)
            record = None if key in MARKERS else cat.resolve(raw)
            cid = key if key in MARKERS else (record.id if record else None)
            if cid is None or (cid not in MARKERS and cid not in on_script):
                raise NightOrderError(f"The script's {label} order names {raw!r}, which is not on the script.")
            if cid in order:
                raise NightOrderError(f"The script's {label} order names {raw!r} twice.")
            order.append(cid)
    return tuple(_step(cat, cid, field) for cid in order)


def _step(cat: Catalogue, cid: str, field: str) -> NightStep:
    if cid in MARKERS:
        name, text = MARKER_TEXT[cid]
        return NightStep(id=cid, name=name, reminder=text, marker=True)
    record = cat.records[cid]
    return NightStep(id=cid, name=record.name, reminder=getattr(record, field))


# -- the set-up: which counts are legal --------------------------------------------------------



def active_changes(script: Iterable[str], chosen: Iterable[str] = (), *,
                   catalogue: Catalogue | None = None) -> tuple[tuple[str, SetupChange], ...]:
    """The set-up changes in force: every chosen character's, and every Fabled's and Loric's on the
    script (they are the script's rules, dealt to nobody). In the script's order, then the chosen."""
    cat = catalogue or load()
    on_script = _official_ids(cat, script)
    picked = _official_ids(cat, chosen)
    wide = [cid for cid in on_script if cat.records[cid].team in SCRIPT_WIDE_TEAMS]
    active = [*wide, *(cid for cid in picked if cid not in wide)]
    return tuple((cid, cat.setup[cid]) for cid in active if cid in cat.setup)


def legal_counts(script: Iterable[str], players: int, chosen: Iterable[str] = (), *,
                 catalogue: Catalogue | None = None) -> tuple[TeamCounts, ...]:
    """Every team count the rules allow for ``players`` seated players of ``script``, once the set-up
    changes of the chosen characters (and of the script's Fabled and Loric) apply, and with room for
    every chosen character and every character they require. Smallest Outsider count first.

    ``chosen``: the characters already picked to be in play (a deal picks the evil ones first).
    Raise SetupConflict, in a sentence for the Storytellers, when no count is legal.
    """
    cat = catalogue or load()
    script = list(script)
    on_script = set(_official_ids(cat, script))
    picked = _official_ids(cat, chosen)
    strays = [cat.records[c].name for c in picked if c not in on_script]
    if strays:
        raise SetupConflict(f"Not on the script: {', '.join(strays)}.")
    if players not in cat.counts:
        raise SetupConflict(f"The official counts are for {min(cat.counts)} to {max(cat.counts)} players, "
                            f"not {players}.")
    changes = active_changes(script, picked, catalogue=cat)
    _refuse_conflicts(cat, picked, changes)
    base = cat.counts[players]
    options: set[TeamCounts] = set()
    for minions, demons, spare in _evil_options(base, players, changes):
        good = players - minions - demons
        for outsiders in _outsider_options(base, changes, good, spare):
            options.add(TeamCounts(townsfolk=good - outsiders, outsiders=outsiders,
                                   minions=minions, demons=demons))
    needs = _needs(cat, picked, changes)
    legal = sorted((c for c in options if all(n <= c.counts()[t] for t, n in needs.items())),
                   key=lambda c: (c.demons, c.minions, c.outsiders))
    if not legal:
        raise SetupConflict(_why_none(cat, players, picked, changes, options, needs))
    return tuple(legal)


def _refuse_conflicts(cat: Catalogue, picked: list[str], changes: tuple[tuple[str, SetupChange], ...]) -> None:
    def names(team: str | tuple[str, ...]) -> list[str]:
        teams = (team,) if isinstance(team, str) else team
        return [cat.records[c].name for c in picked if cat.records[c].team in teams]

    for cid, change in changes:
        who = cat.records[cid].name
        if change.no_evil and names(("minion", "demon")):
            raise SetupConflict(f"The {who} means no evil characters, so these cannot be in play: "
                                f"{', '.join(names(('minion', 'demon')))}.")
        if change.majority and names("minion"):
            raise SetupConflict(f"With {who}, most players are {who} and there are no Minions, so these "
                                f"cannot be in play: {', '.join(names('minion'))}.")
        if change.minions_made_in_play and names("minion"):
            raise SetupConflict(f"The {who} chooses its Minions during the first night, so no Minion is "
                                f"dealt: take out {', '.join(names('minion'))}.")


def _evil_options(base: TeamCounts, players: int,
                  changes: tuple[tuple[str, SetupChange], ...]) -> list[tuple[int, int, int]]:
    """(Minions, Demons, evil seats that become Townsfolk or Outsiders) for each legal evil team."""
    if any(c.no_evil for _, c in changes):
        return [(0, 0, base.minions + base.demons)]
    if any(c.majority for _, c in changes):
        return [(0, legion, 0) for legion in range(players // 2 + 1, players - 1)]
    minions = base.minions + sum(c.minions for _, c in changes)
    demons = base.demons + sum(c.demons for _, c in changes)
    if minions < 0 or demons < 0:
        return []
    if any(c.minions_made_in_play for _, c in changes):
        return [(0, demons, minions)]
    return [(minions, demons, 0)]


def _outsider_options(base: TeamCounts, changes: tuple[tuple[str, SetupChange], ...], good: int,
                      spare: int) -> list[int]:
    """The Outsider counts allowed among ``good`` good seats (``spare`` of them freed evil seats)."""
    if good < 0:
        return []
    if any(c.outsiders == "any" for _, c in changes):
        return list(range(good + 1))
    deltas = {0}
    for _, change in changes:
        assert change.outsiders != "any"
        deltas = {d + e for d, e in product(deltas, change.outsiders)}
    found = {base.outsiders + d + s for d in deltas for s in range(spare + 1)}
    if max(found) < 0:
        found = {0}  # an Outsider fewer with none to remove changes nothing (the Vigormortis at 7)
    return sorted(o for o in found if 0 <= o <= good)


def _needs(cat: Catalogue, picked: list[str], changes: tuple[tuple[str, SetupChange], ...]) -> dict[str, int]:
    """How many seats of each team the chosen characters and the ones they require take."""
    dealt = [c for c in picked if cat.records[c].team in SCRIPT_TEAMS
             and not (cat.setup.get(c) and cat.setup[c].no_token)]
    required = [r for _, change in changes for r in change.requires if r not in picked]
    needs = dict.fromkeys(SCRIPT_TEAMS, 0)
    for cid in dict.fromkeys([*dealt, *required]):
        team = cat.records[cid].team
        if team in needs:
            needs[team] += 1
    return needs


def _why_none(cat: Catalogue, players: int, picked: list[str], changes: tuple[tuple[str, SetupChange], ...],
              options: set[TeamCounts], needs: dict[str, int]) -> str:
    with_ = f" with {', '.join(cat.records[c].name for c, _ in changes)}" if changes else ""
    if not options:
        return f"No team count is legal at {players} players{with_}."
    for team, need in needs.items():
        most = max(c.counts()[team] for c in options)
        if need > most:
            who = [cat.records[c].name for c in picked if cat.records[c].team == team]
            who += [f"{cat.records[r].name} (required)" for _, ch in changes for r in ch.requires
                    if r not in picked and cat.records[r].team == team]
            return (f"At {players} players{with_} there can be at most {most} "
                    f"{TEAM_WORDS[team][0 if most == 1 else 1]}, but {need} {'is' if need == 1 else 'are'} "
                    f"needed: {', '.join(who)}.")
    return f"No team count at {players} players{with_} has room for every chosen character together."
