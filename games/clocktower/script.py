"""Scripts in the official Script Tool format: import (validated), the built-in script, export.

The format (``script-schema.json`` of the official release repository) is a JSON array whose
entries are a character id, ``{"id": ...}``, a full (homebrew) character object, or the
``{"id": "_meta", ...}`` object. The checks that schema makes are done here by hand (no
``jsonschema`` dependency). A script naming a character that is neither official nor described on it is refused with
:class:`UnknownCharacters`; any other malformed file with :class:`ScriptError`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, PrivateAttr

from games.engine import GameError

from .catalogue import EDITIONS
from .catalogue import load as load_catalogue
from .characters import MARKERS, TEAMS, Character, Characters, Jinx, Setup, load, normalise_id

BUILTIN_NAME = "Her Royal Highness Register"
BUILTIN_AUTHOR = "May & Daeron"

#: the schema's limits
MIN_ITEMS, MAX_ITEMS = 5, 201
#: how deeply a script's lists and objects may nest (the official format needs 4: the list, a
#: character, its jinxes or special list, one of them); far more than any real file has
MAX_DEPTH = 20
SCHEMA_TEAMS = ("townsfolk", "outsider", "minion", "demon", "traveller", "fabled", "loric")
TEAM_SPELLINGS = {"traveler": "traveller"}
#: the official id of a character whose id differs here (the Script Tool knows the Waitress as the Harlot)
OFFICIAL_IDS = {"waitress": "harlot"}

_CHARACTER_KEYS = {
    "id": "string", "name": "string", "image": "image", "team": "string", "edition": "string",
    "ability": "string", "flavor": "string", "firstNight": "number", "firstNightReminder": "string",
    "otherNight": "number", "otherNightReminder": "string", "reminders": "strings",
    "remindersGlobal": "strings", "setup": "boolean", "jinxes": "objects", "special": "objects",
}
_CHARACTER_LIMITS = {"id": 50, "name": 30, "edition": 50, "ability": 250, "flavor": 500,
                     "firstNightReminder": 500, "otherNightReminder": 500}
_META_KEYS = {
    "id": "string", "name": "string", "author": "string", "logo": "string", "hideTitle": "boolean",
    "background": "string", "almanac": "string", "bootlegger": "strings", "firstNight": "strings",
    "otherNight": "strings",
}
_META_LIMITS = {"name": 50, "author": 50, "logo": 250, "background": 250, "almanac": 250}
_TEAM_WORDS = {"townsfolk": "a Townsfolk", "outsider": "an Outsider", "minion": "a Minion",
               "demon": "a Demon", "traveller": "a Traveller", "fabled": "a Fabled"}


class ScriptError(GameError):
    """The script file cannot be read as a Clocktower script."""

    code = "bad_script"


class UnknownCharacters(ScriptError):
    """The script names characters the engine does not know how to run."""

    code = "unknown_characters"


class Script(BaseModel):
    model_config = ConfigDict(frozen=True)
    name: str
    author: str = ""
    #: character ids by team, every team present (possibly empty), in the script's order
    characters: dict[str, tuple[str, ...]]
    first_night: tuple[str, ...]
    other_night: tuple[str, ...]
    #: True if the night orders came from the script's ``_meta`` rather than the rulebook
    custom_night_order: bool = False
    jinxes: tuple[Jinx, ...] = ()
    #: the ``_meta.bootlegger`` house rules
    bootlegger: tuple[str, ...] = ()
    #: whose data plays it: Her Royal Highness Register's rulebook ("hrh"), or the official records
    rules: Literal["hrh", "official"] = "hrh"
    #: the script's own (homebrew) character objects, played as the Storytellers judge them
    homebrew: tuple[Character, ...] = ()
    #: the characters a game of it plays with (``script_characters.characters_for``), once built
    _characters: Characters | None = PrivateAttr(default=None)

    def cached_characters(self) -> Characters | None:
        return self._characters

    def keep_characters(self, value: Characters) -> None:
        self._characters = value

    def all_ids(self) -> tuple[str, ...]:
        return tuple(cid for team in TEAMS for cid in self.characters.get(team, ()))


# ---------------------------------------------------------------------------- helpers

def _kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _is(value: object, kind: str) -> bool:
    if kind == "string":
        return isinstance(value, str)
    if kind == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "strings":
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    if kind == "objects":
        return isinstance(value, list) and all(isinstance(v, dict) for v in value)
    if kind == "image":
        return isinstance(value, str) or (
            isinstance(value, list) and 1 <= len(value) <= 3 and all(isinstance(v, str) for v in value))
    raise AssertionError(kind)


_KIND_WORDS = {"string": "text", "number": "a number", "boolean": "true or false",
               "strings": "a list of texts", "objects": "a list of objects",
               "image": "a link or a list of 1 to 3 links"}


def _check_fields(where: str, obj: dict[str, Any], keys: dict[str, str], limits: dict[str, int],
                  extra_allowed: bool) -> None:
    for key, value in obj.items():
        kind = keys.get(key)
        if kind is None:
            if extra_allowed:
                continue
            raise ScriptError(f"{where} has a field the script format does not allow: {key!r}.")
        if not _is(value, kind):
            raise ScriptError(f"{where} has a {key!r} that is {_kind(value)}; it must be {_KIND_WORDS[kind]}.")
        limit = limits.get(key)
        if limit is not None and len(value) > limit:
            raise ScriptError(f"{where} has a {key!r} longer than {limit} characters.")


def _check_jinx_list(where: str, jinxes: list[dict[str, Any]]) -> None:
    for jinx in jinxes:
        for key in ("id", "reason"):
            if not isinstance(jinx.get(key), str):
                raise ScriptError(f"{where} has a jinx without a text {key!r}.")


def _entry_name(index: int, item: object) -> str:
    label = f"Entry {index} of the script"
    if isinstance(item, dict) and isinstance(item.get("id"), str):
        label += f" ({item['id']})"
    return label


def _display(name: str | None, cid: str) -> str:
    return f"{name} ({cid})" if name else cid


# ---------------------------------------------------------------------------- import

def nesting(text: str, limit: int) -> int:
    """How deeply the lists and objects of JSON ``text`` nest (brackets inside strings skipped),
    counted up to ``limit`` + 1 without recursion: the JSON parser recurses once per level and
    fails on a file nested 100,000 deep (a "JSON bomb") with a RecursionError."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
            if deepest > limit:
                break
        elif char in "]}":
            depth -= 1
    return deepest


def parse_script(text: str | bytes, data: Characters | None = None) -> Script:
    """Read a script file's text; raise ScriptError (or UnknownCharacters) in words a Storyteller reads."""
    try:
        if isinstance(text, bytes | bytearray):
            text = text.decode(json.detect_encoding(text), "surrogatepass")  # as json.loads reads bytes
        if nesting(text, MAX_DEPTH) > MAX_DEPTH:
            raise ScriptError(f"This script nests lists or objects more than {MAX_DEPTH} deep: a script file is "
                              "the JSON list the official Script Tool exports.")
        document = json.loads(text)
    except ValueError as exc:
        where = f" (line {exc.lineno}, column {exc.colno})" if isinstance(exc, json.JSONDecodeError) else ""
        raise ScriptError(f"This script is not valid JSON{where}: a script file is the JSON "
                          "list the official Script Tool exports.") from None
    return load_script(document, data)


def load_script(document: object, data: Characters | None = None) -> Script:
    """Validate an already-decoded script document (the official format) into a ``Script``.

    A script whose characters are all Her Royal Highness Register's is played by that rulebook's
    data ("hrh"); any other is played by the official records ("official"), with the script's own
    homebrew character objects. An id that is neither official nor described on the script is
    refused with :class:`UnknownCharacters`.
    """
    data = data or load()
    if not isinstance(document, list):
        raise ScriptError(f"A script must be a JSON list of characters, but this file holds {_kind(document)}.")
    if not MIN_ITEMS <= len(document) <= MAX_ITEMS:
        raise ScriptError(f"A script lists between {MIN_ITEMS} and {MAX_ITEMS} entries; "
                          f"this one has {len(document)}.")

    meta: dict[str, Any] | None = None
    entries: list[_Entry] = []
    for index, item in enumerate(document, start=1):
        where = _entry_name(index, item)
        if isinstance(item, str):
            if len(item) > 20:
                raise ScriptError(f"{where} is an id longer than 20 characters: {item[:30]!r}…")
            entries.append(_Entry(item, None, where))
        elif isinstance(item, dict):
            if "id" not in item:
                raise ScriptError(f"{where} is an object without an 'id'.")
            if not isinstance(item["id"], str):
                raise ScriptError(f"{where} has an id that is {_kind(item['id'])}; ids are text.")
            if item["id"] == "_meta":
                if meta is not None:
                    raise ScriptError("The script has two '_meta' entries; it may have one.")
                meta = _read_meta(where, item)
                continue
            entries.append(_Entry(item["id"], _read_character_object(where, item), where))
        else:
            raise ScriptError(f"{where} is {_kind(item)}; each entry must be a character id (text) "
                              "or a character object.")
    if all(data.resolve(e.id) is not None for e in entries):
        return _hrh_script(entries, meta, data)
    return _official_script(entries, meta)


class _Entry:
    """One character entry of a script: its id, its object (None for a bare id), where it is."""

    def __init__(self, cid: str, obj: dict[str, Any] | None, where: str) -> None:
        self.id, self.obj, self.where = cid, obj, where

    @property
    def team(self) -> str | None:
        return None if self.obj is None else TEAM_SPELLINGS.get(self.obj["team"], self.obj["team"])


def _hrh_script(entries: list[_Entry], meta: dict[str, Any] | None, data: Characters) -> Script:
    picked: list[str] = []
    for entry in entries:
        character = data[entry.id]
        if entry.team is not None and entry.team != character.team:
            raise _team_refused(character.name, character.team, entry.team)
        if character.id not in picked:
            picked.append(character.id)
    by_team = {team: tuple(cid for cid in picked if data.characters[cid].team == team) for team in TEAMS}
    on_script = set(picked)
    custom = meta is not None and ("firstNight" in meta or "otherNight" in meta)
    first = _custom_order(meta, "firstNight", on_script, data.resolve)
    other = _custom_order(meta, "otherNight", on_script, data.resolve)
    if first is None:
        first = tuple(c for c in data.night_order.first_night if c in MARKERS or c in on_script)
    if other is None:
        other = tuple(c for c in data.night_order.other_night if c in MARKERS or c in on_script)
    meta = meta or {}
    return Script(
        name=meta.get("name") or "Custom script", author=meta.get("author", ""),
        characters=by_team, first_night=first, other_night=other, custom_night_order=custom,
        jinxes=data.jinxes_among(frozenset(on_script)), bootlegger=tuple(meta.get("bootlegger", ())),
    )


def _team_refused(name: str, team: str, made: str) -> UnknownCharacters:
    return UnknownCharacters(
        f"This script makes the {name} {_TEAM_WORDS.get(made, made)}, but the {name} is "
        f"{_TEAM_WORDS[team]}: give a homebrew character an id of its own.", characters=(normalise_id(name),))


def _official_script(entries: list[_Entry], meta: dict[str, Any] | None) -> Script:
    """A script played by the official records, with its homebrew character objects."""
    cat = load_catalogue()
    picked: list[str] = []
    homebrew: dict[str, Character] = {}
    objects: dict[str, dict[str, Any]] = {}
    unknown: list[str] = []
    for entry in entries:
        record = cat.resolve(entry.id)
        if record is not None:
            if entry.team is not None and entry.team != record.team:
                raise _team_refused(record.name, record.team, entry.team)
            cid = record.id
        elif entry.obj is not None:
            cid = normalise_id(entry.id)
            if not cid or cid in MARKERS:
                raise ScriptError(f"{entry.where} has an id that is no character's: {entry.id!r}.")
            homebrew[cid] = _homebrew(cid, entry.obj)
            objects[cid] = entry.obj
        else:
            shown = normalise_id(entry.id) or entry.id
            if shown not in unknown:
                unknown.append(shown)
            continue
        if cid not in picked:
            picked.append(cid)
    if unknown:
        raise UnknownCharacters(
            f"This script names characters that are not official and that it does not describe: "
            f"{', '.join(unknown)}. A homebrew character needs its object on the script (its id, name, "
            "team and ability), as the official Script Tool exports it.", characters=tuple(unknown))

    def team_of(cid: str) -> str:
        return homebrew[cid].team if cid in homebrew else cat.records[cid].team

    def resolve(cid: str) -> str | None:
        key = normalise_id(cid)
        if key in homebrew:
            return key
        record = cat.resolve(cid)
        return record.id if record is not None else None

    by_team = {team: tuple(cid for cid in picked if team_of(cid) == team) for team in TEAMS}
    on_script = set(picked)
    custom = meta is not None and ("firstNight" in meta or "otherNight" in meta)
    first = _custom_order(meta, "firstNight", on_script, resolve)
    other = _custom_order(meta, "otherNight", on_script, resolve)
    if first is None:
        first = _sheet_order(cat.first_night, on_script, objects, "firstNight")
    if other is None:
        other = _sheet_order(cat.other_night, on_script, objects, "otherNight")
    jinxes = [Jinx(characters=(j.first, j.second), text=j.reason) for j in cat.jinxes_among(c for c in picked if c not in homebrew)]
    for cid, obj in objects.items():
        for jinx in obj.get("jinxes", ()):
            other_id = resolve(jinx["id"])
            if other_id in on_script and other_id != cid:
                jinxes.append(Jinx(characters=(cid, other_id), text=jinx["reason"]))
    meta = meta or {}
    return Script(
        name=meta.get("name") or "Custom script", author=meta.get("author", ""),
        characters=by_team, first_night=first, other_night=other, custom_night_order=custom,
        jinxes=tuple(jinxes), bootlegger=tuple(meta.get("bootlegger", ())), rules="official",
        homebrew=tuple(homebrew.values()),
    )


def _homebrew(cid: str, obj: dict[str, Any]) -> Character:
    """A script's own character object as a character of the game."""
    return Character(
        id=cid, name=obj["name"], team=TEAM_SPELLINGS.get(obj["team"], obj["team"]), ability=obj["ability"],
        first_night=int(obj.get("firstNight") or 0), other_night=int(obj.get("otherNight") or 0),
        first_night_reminder=obj.get("firstNightReminder", ""),
        other_night_reminder=obj.get("otherNightReminder", ""),
        reminders=tuple(obj.get("reminders", ())), reminders_global=tuple(obj.get("remindersGlobal", ())),
        setup=Setup() if obj.get("setup") else None,
        special=tuple(entry["name"] for entry in obj.get("special", ())),
    )


def _sheet_order(sheet: tuple[str, ...], on_script: set[str], objects: dict[str, dict[str, Any]],
                 key: str) -> tuple[str, ...]:
    """The official night sheet's order for the script, with each homebrew character that wakes (a
    ``firstNight`` / ``otherNight`` number above 0) at that place of the sheet: the number counts the
    sheet's entries from dusk (dusk is 0), so 1 wakes first after dusk. The official sheet has grown
    since the numbers were written, so a number is a place, not an exact neighbour. One with a night
    reminder but no number wakes just before dawn."""
    order = list(sheet)
    placed = sorted(((obj.get(key) or 0, cid) for cid, obj in objects.items()), reverse=True)
    for number, cid in placed:
        reminder = objects[cid].get(key + "Reminder", "")
        if number > 0:
            order.insert(min(int(number), len(order)), cid)
        elif reminder:
            order.insert(order.index("dawn") if "dawn" in order else len(order), cid)
    return tuple(c for c in order if c in MARKERS or c in on_script)


def _read_meta(where: str, item: dict[str, Any]) -> dict[str, Any]:
    where = "The script's '_meta'"
    if "name" not in item:
        raise ScriptError(f"{where} has no 'name'.")
    _check_fields(where, item, _META_KEYS, _META_LIMITS, extra_allowed=True)
    if len(item.get("bootlegger", ())) > 10:
        raise ScriptError(f"{where} has more than 10 'bootlegger' rules.")
    for key in ("firstNight", "otherNight"):
        if len(item.get(key, ())) > 200:
            raise ScriptError(f"{where} has a '{key}' longer than 200 entries.")
    return item


def _read_character_object(where: str, item: dict[str, Any]) -> dict[str, Any] | None:
    """Check an object entry; return it, or None for a bare ``{"id": ...}`` (the deprecated form)."""
    if set(item) == {"id"}:
        if len(item["id"]) > 20:
            raise ScriptError(f"{where} has an id longer than 20 characters.")
        return None
    missing = [k for k in ("name", "team", "ability") if k not in item]
    if missing:
        raise ScriptError(f"{where} is a character object missing {', '.join(repr(k) for k in missing)}.")
    _check_fields(where, item, _CHARACTER_KEYS, _CHARACTER_LIMITS, extra_allowed=False)
    team = TEAM_SPELLINGS.get(item["team"], item["team"])
    if team not in SCHEMA_TEAMS:
        raise ScriptError(f"{where} has an unknown team {item['team']!r}.")
    if "jinxes" in item:
        _check_jinx_list(where, item["jinxes"])
    for entry in item.get("special", ()):
        if not isinstance(entry.get("name"), str) or not isinstance(entry.get("type"), str):
            raise ScriptError(f"{where} has a 'special' entry without a text 'name' and 'type'.")
    return item


def _custom_order(meta: dict[str, Any] | None, key: str, on_script: set[str],
                  resolve: Callable[[str], Any]) -> tuple[str, ...] | None:
    if meta is None or key not in meta:
        return None
    order: list[str] = []
    strays: list[str] = []
    for raw in meta[key]:
        cid = normalise_id(raw)
        if cid in MARKERS:
            order.append(cid)
            continue
        found = resolve(cid)
        found_id = getattr(found, "id", found)  # a character, or the id itself
        if found_id is None or found_id not in on_script:
            strays.append(raw)
            continue
        order.append(found_id)
    if strays:
        label = "first night" if key == "firstNight" else "other nights"
        raise ScriptError(f"The script's {label} order names characters that are not on it: "
                          f"{', '.join(strays)}.")
    if len(set(order)) != len(order):
        label = "first night" if key == "firstNight" else "other nights"
        raise ScriptError(f"The script's {label} order names someone twice.")
    return tuple(order)


# ---------------------------------------------------------------------------- built-in and export

def builtin_script(data: Characters | None = None) -> Script:
    """Her Royal Highness Register: its 24 characters, with the 5 Travellers and 3 Fabled available."""
    data = data or load()
    by_team = {team: tuple(c.id for c in data.by_team(team)) for team in TEAMS}
    return Script(name=BUILTIN_NAME, author=BUILTIN_AUTHOR, characters=by_team,
                  first_night=data.night_order.first_night, other_night=data.night_order.other_night,
                  jinxes=data.jinxes)


#: the base editions a Storyteller may name instead of loading a file, by the names they go by
EDITION_NAMES: dict[str, str] = {
    "tb": "tb", "troublebrewing": "tb", "bmr": "bmr", "badmoonrising": "bmr",
    "snv": "snv", "sv": "snv", "sectsandviolets": "snv", "sectsviolets": "snv",
}


def edition_of(name: str) -> str | None:
    """The edition a Storyteller's words name ("Trouble Brewing", "tb", "Sects & Violets"), or None."""
    return EDITION_NAMES.get(normalise_id(name.replace("&", "and")))


def edition_script(edition: str) -> Script:
    """A base edition (``tb``, ``bmr``, ``snv``) as a script: its 22 characters and its 5 Travellers,
    in the official records' order, played by the official records."""
    cat = load_catalogue()
    ids = [r.id for r in cat.records.values() if r.edition == edition]
    return load_script([{"id": "_meta", "name": EDITIONS[edition], "author": "The Pandemonium Institute"}, *ids])


def script_to_json(script: Script) -> list[Any]:
    """The script in the official Script Tool format (ids as the official tools know them)."""
    meta: dict[str, Any] = {"id": "_meta", "name": script.name}
    if script.author:
        meta["author"] = script.author
    if script.bootlegger:
        meta["bootlegger"] = list(script.bootlegger)
    if script.custom_night_order:
        meta["firstNight"] = [OFFICIAL_IDS.get(c, c) for c in script.first_night]
        meta["otherNight"] = [OFFICIAL_IDS.get(c, c) for c in script.other_night]
    homebrew = {c.id: c for c in script.homebrew}
    return [meta, *(_homebrew_object(homebrew[c]) if c in homebrew else OFFICIAL_IDS.get(c, c)
                    for c in script.all_ids())]


def _homebrew_object(character: Character) -> dict[str, Any]:
    """A homebrew character as the Script Tool writes its object (empty fields left out)."""
    obj: dict[str, Any] = {"id": character.id, "name": character.name, "team": character.team,
                           "ability": character.ability, "firstNight": character.first_night,
                           "firstNightReminder": character.first_night_reminder,
                           "otherNight": character.other_night,
                           "otherNightReminder": character.other_night_reminder,
                           "reminders": list(character.reminders), "remindersGlobal": list(character.reminders_global)}
    return {k: v for k, v in obj.items() if v or k in ("id", "name", "team", "ability")}
