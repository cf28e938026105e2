"""Any script for the renderers' tests, built straight from the official files: the 181 official
records and their jinxes (the project's own copy, games/clocktower/data/official), the 16 scripts
of the 2025 world championship with their homebrew character objects (tests/games/clocktower/
reference/wc25; SOURCES.md there says from where) and the official night sheet's order.

Built here, not by the engine's loaders, so that the tests of the sheet and the picture hold
whichever catalogue the engine reads: the renderers take a ``Script`` and anything whose
``resolve(id)`` gives a name, a team and an ability.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from games.clocktower.characters import MARKERS, Jinx
from games.clocktower.characters import normalise_id as key
from games.clocktower.script import SCHEMA_TEAMS as TEAMS
from games.clocktower.script import Script

REFERENCE = Path(__file__).parents[1] / "games" / "clocktower" / "reference"
#: the official records and jinxes as the project keeps them (one copy, not a second one here)
OFFICIAL = Path(__file__).parents[2] / "games" / "clocktower" / "data" / "official"
_OFFICIAL_FILES = {"official-roles.json": "roles.json", "official-jinxes.json": "jinxes.json"}


@dataclass(frozen=True)
class Entry:
    id: str
    name: str
    team: str
    ability: str
    reminders: tuple[str, ...] = ()


class Catalogue:
    """Characters by id, looked up as the engine's catalogues are (``resolve``)."""

    def __init__(self, entries: list[Entry]) -> None:
        self.entries = {e.id: e for e in entries}

    def resolve(self, cid: str) -> Entry | None:
        return self.entries.get(key(cid))

    def extended(self, entries: list[Entry]) -> Catalogue:
        return Catalogue([*self.entries.values(), *entries])


def read(name: str):
    path = OFFICIAL / _OFFICIAL_FILES[name] if name in _OFFICIAL_FILES else REFERENCE / name
    return json.loads(path.read_text(encoding="utf-8"))


def _entry(record: dict) -> Entry:
    team = {"traveler": "traveller"}.get(record["team"], record["team"])
    return Entry(key(record["id"]), record["name"], team, record["ability"], tuple(record.get("reminders", ())))


@cache
def records() -> tuple[Entry, ...]:
    """The 181 official characters."""
    return tuple(_entry(r) for r in read("official-roles.json"))


@cache
def official() -> Catalogue:
    return Catalogue(list(records()))


@cache
def official_jinxes() -> tuple[tuple[str, str, str], ...]:
    return tuple((key(entry["id"]), key(other["id"]), other["reason"])
                 for entry in read("official-jinxes.json") for other in entry["jinx"])


def wc25_files() -> list[Path]:
    return sorted((REFERENCE / "wc25").glob("*.script.json"))


def build(document: list, base: Catalogue | None = None) -> tuple[Script, Catalogue]:
    """An official-format script document as a ``Script`` and the catalogue to read it with (the
    official records and the script's own character objects)."""
    base = base or official()
    meta: dict = {}
    own: list[Entry] = []
    night: dict[str, tuple[int | None, int | None]] = {}
    ids: list[str] = []
    for item in document:
        if isinstance(item, dict) and item.get("id") == "_meta":
            meta = item
            continue
        if isinstance(item, dict) and {"name", "team", "ability"} <= set(item):
            own.append(_entry(item))
            night[key(item["id"])] = (item.get("firstNight"), item.get("otherNight"))
        cid = key(item if isinstance(item, str) else item["id"])
        if cid not in ids:
            ids.append(cid)
    catalogue = base.extended(own)
    unknown = [cid for cid in ids if catalogue.resolve(cid) is None]
    assert not unknown, unknown
    by_team = {team: tuple(c for c in ids if catalogue.entries[c].team == team) for team in TEAMS}
    sheet = read("official-nightsheet.json")

    def order(which: str, slot: int) -> tuple[str, ...]:
        full = [key(c) for c in sheet[which]]
        for cid, numbers in night.items():  # a homebrew object's number: its place, between dusk and dawn
            if numbers[slot]:
                full.insert(min(max(int(numbers[slot]), 1), len(full) - 1), cid)
        return tuple(c for c in full if c in MARKERS or c in ids)

    jinxes = tuple(Jinx(characters=(a, b), text=reason) for a, b, reason in official_jinxes()
                   if a in ids and b in ids)
    script = Script(name=meta.get("name") or "Custom script", author=meta.get("author", ""),
                    characters=by_team, first_night=order("firstNight", 0), other_night=order("otherNight", 1),
                    jinxes=jinxes, bootlegger=tuple(meta.get("bootlegger", ())))
    return script, catalogue


def wc25(path: Path) -> tuple[Script, Catalogue]:
    return build(json.loads(path.read_text(encoding="utf-8")))


def every_official_character() -> tuple[Script, Catalogue]:
    """A script of all 181 official characters (the format allows 201 entries): far larger than any
    real script."""
    return build([{"id": "_meta", "name": "Everything", "author": "the tests"}, *(e.id for e in records())])


def largest_wc25() -> tuple[Script, Catalogue]:
    """The championship script with the most characters."""
    return max((wc25(p) for p in wc25_files()), key=lambda sc: len([c for ids in sc[0].characters.values()
                                                                    for c in ids]))
