"""The script as a player reads it (``/game script``): each character with its ability, by type,
the Travellers and Fabled in play, the script's Loric, the jinxes, each character's reminder
tokens (from its record) and the night order, by character name.

Pure: it reads the script and the ids of the Travellers and Fabled in play, never a seat, so
nothing here can say who is which character. The bot only renders the sections.

Any script: the names, teams and ability texts come from the catalogue the caller hands in (any
object whose ``resolve(id)`` gives something with a ``name``, a ``team`` and an ``ability``: Her
Royal Highness Register's ``Characters``, the official records, a script's own homebrew objects),
so the sheet does not depend on where a character came from. An id the catalogue does not know is
listed by its id, "ability unknown", never refused: the sheet is for reading, and the script was
accepted elsewhere. Names and texts are shown as written: the Markdown Discord would read in them
(the "*" of "Each night*", twice in one embed, would turn the text between into italics and hide
both stars) is escaped.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Protocol

from pydantic import BaseModel, ConfigDict

from .script import Script
from .script_characters import characters_for
from .state import ClocktowerState

#: the sheet's groups, in the order a character sheet shows them
GROUPS: tuple[tuple[str, str], ...] = (
    ("townsfolk", "Townsfolk"), ("outsider", "Outsiders"), ("minion", "Minions"), ("demon", "Demons"),
)
MARKER_NAMES = {"dusk": "Dusk", "minioninfo": "Minion Info", "demoninfo": "Demon Info", "dawn": "Dawn"}
UNKNOWN_ABILITY = "(ability unknown)"


class Known(Protocol):
    """What the sheet reads of a character."""

    @property
    def name(self) -> str: ...

    @property
    def team(self) -> str: ...

    @property
    def ability(self) -> str: ...


class Catalogue(Protocol):
    """Where the sheet looks characters up by id (``Characters`` and the official catalogue both are)."""

    def resolve(self, cid: str, /) -> Known | None: ...


class Section(BaseModel):
    """One part of the sheet: a heading and its lines (each line stands alone)."""

    model_config = ConfigDict(frozen=True)
    title: str
    lines: tuple[str, ...]


class Sheet(BaseModel):
    model_config = ConfigDict(frozen=True)
    #: "Her Royal Highness Register, by May & Daeron"
    title: str
    sections: tuple[Section, ...]


_INLINE = re.compile(r"([\\*_~|`])")
_LEADING = re.compile(r"^(\s*)([#>+-])")


def plain(text: str) -> str:
    """``text`` as Discord shows it literally: its Markdown characters escaped (inline everywhere,
    a heading, quote or list mark at the start)."""
    return _LEADING.sub(r"\1\\\2", _INLINE.sub(r"\\\1", text))


def _name(data: Catalogue, cid: str) -> str:
    if cid in MARKER_NAMES:
        return MARKER_NAMES[cid]
    character = data.resolve(cid)
    return character.name if character is not None else cid


def _ability(data: Catalogue, cid: str) -> str:
    character = data.resolve(cid)
    if character is None:
        return f"**{plain(cid)}**: {UNKNOWN_ABILITY}"
    return f"**{plain(character.name)}**: {plain(character.ability)}"


def _team(data: Catalogue, script: Script, cid: str) -> str | None:
    """The character's team by the catalogue, else by where the script lists it."""
    character = data.resolve(cid)
    if character is not None:
        return character.team
    return next((team for team, ids in script.characters.items() if cid in ids), None)


def _in_script_order(script: Script, ids: Iterable[str], team: str, data: Catalogue) -> list[str]:
    """The ids in play of ``team``, each once, in the script's order (then any not on it): never in
    seat order, which would say where a Traveller sits."""
    wanted = {cid for cid in ids if _team(data, script, cid) == team}
    listed = [cid for cid in script.characters.get(team, ()) if cid in wanted]
    return listed + sorted(wanted - set(listed))


def _and(names: Iterable[str]) -> str:
    """"Spy, Magician & Marionette"."""
    listed = list(names)
    return " & ".join(listed) if len(listed) < 3 else f"{', '.join(listed[:-1])} & {listed[-1]}"


def _night(order: tuple[str, ...], hidden: set[str], data: Catalogue) -> tuple[str, ...]:
    names = [plain(_name(data, cid)) for cid in order if cid not in hidden]
    return tuple(f"{n}. {name}" for n, name in enumerate(names, start=1))


def script_sheet(script: Script, *, travellers: Iterable[str] = (), fabled: Iterable[str] = (),
                 data: Catalogue | None = None) -> Sheet:
    """The sheet of ``script`` with these Travellers and Fabled in play (character ids), its
    characters read from ``data`` (by default the script's own: ``characters_for``)."""
    data = data or characters_for(script)
    sections: list[Section] = []
    for team, heading in GROUPS:
        ids = script.characters.get(team, ())
        if ids:
            sections.append(Section(title=f"{heading} ({len(ids)})", lines=tuple(_ability(data, c) for c in ids)))
    in_play = _in_script_order(script, travellers, "traveller", data)
    sections.append(Section(title="Travellers in play",
                            lines=tuple(_ability(data, c) for c in in_play) or ("None.",)))
    fabled_ids = _in_script_order(script, fabled, "fabled", data)
    sections.append(Section(title="Fabled in play",
                            lines=tuple(_ability(data, c) for c in fabled_ids) or ("None.",)))
    loric = script.characters.get("loric", ())
    if loric:  # a Loric on the script is in effect all game
        sections.append(Section(title=f"Loric ({len(loric)})", lines=tuple(_ability(data, c) for c in loric)))
    if script.jinxes:
        sections.append(Section(title="Jinxes", lines=tuple(
            f"**{plain(_and(_name(data, c) for c in jinx.characters))}**: {plain(jinx.text)}"
            for jinx in script.jinxes)))
    tokens = _tokens(script, in_play, fabled_ids, data)
    if tokens:
        sections.append(Section(title="Reminder tokens", lines=tokens))
    # a Traveller not in play does not wake: the night order lists the characters that may
    hidden = {c for c in script.characters.get("traveller", ()) if c not in in_play}
    sections.append(Section(title="First night", lines=_night(script.first_night, hidden, data)))
    sections.append(Section(title="Other nights", lines=_night(script.other_night, hidden, data)))
    if script.bootlegger:
        sections.append(Section(title="House rules", lines=tuple(plain(rule) for rule in script.bootlegger)))
    title = f"{script.name}, by {script.author}" if script.author else script.name
    return Sheet(title=title, sections=tuple(sections))


def _tokens(script: Script, travellers: list[str], fabled: list[str], data: Catalogue) -> tuple[str, ...]:
    """Each character's reminder tokens as its record gives them ("**Grandmother**: Grandchild, Dead"),
    in the sheet's order; a character with none (or a homebrew record without the field) is left out.
    The tokens of the script, never the ones on the grimoire: nothing here says who has which."""
    ids = [c for team, _ in GROUPS for c in script.characters.get(team, ())] + travellers + fabled
    ids += list(script.characters.get("loric", ()))
    lines = []
    for cid in ids:
        character = data.resolve(cid)
        words = dict.fromkeys((*getattr(character, "reminders", ()), *getattr(character, "reminders_global", ())))
        if character is not None and words:
            lines.append(f"**{plain(character.name)}**: {plain(', '.join(words))}")
    return tuple(lines)


def sheet_of_state(state: ClocktowerState, data: Catalogue | None = None) -> Sheet:
    """The sheet of a dealt game: its script, its seated Travellers' characters (public, their
    seats are not) and its Fabled."""
    travellers = [seat.character for seat in state.seats if seat.traveller]
    return script_sheet(state.script, travellers=travellers, fabled=state.fabled, data=data)
