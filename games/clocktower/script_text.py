"""The script as a player reads it (``/game script``): each character with its ability, by type,
the Travellers and Fabled in play, the jinxes and the night order, by character name.

Pure: it reads the script and the ids of the Travellers and Fabled in play, never a seat, so
nothing here can say who is which character. The bot only renders the sections.
"""

from __future__ import annotations

from collections.abc import Iterable

from pydantic import BaseModel, ConfigDict

from .characters import Characters, load
from .script import Script
from .state import ClocktowerState

#: the sheet's groups, in the order a character sheet shows them
GROUPS: tuple[tuple[str, str], ...] = (
    ("townsfolk", "Townsfolk"), ("outsider", "Outsiders"), ("minion", "Minions"), ("demon", "Demons"),
)
MARKER_NAMES = {"dusk": "Dusk", "minioninfo": "Minion Info", "demoninfo": "Demon Info", "dawn": "Dawn"}


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


def _ability(data: Characters, cid: str) -> str:
    character = data.characters[cid]
    return f"**{character.name}**: {character.ability}"


def _in_script_order(script: Script, ids: Iterable[str], team: str, data: Characters) -> list[str]:
    """The ids in play of ``team``, each once, in the script's order (then any not on it): never in
    seat order, which would say where a Traveller sits."""
    wanted = {cid for cid in ids if cid in data.characters and data.characters[cid].team == team}
    listed = [cid for cid in script.characters.get(team, ()) if cid in wanted]
    return listed + sorted(wanted - set(listed))


def _and(names: Iterable[str]) -> str:
    """"Spy, Magician & Marionette"."""
    listed = list(names)
    return " & ".join(listed) if len(listed) < 3 else f"{', '.join(listed[:-1])} & {listed[-1]}"


def _night(order: tuple[str, ...], hidden: set[str], data: Characters) -> tuple[str, ...]:
    names = [MARKER_NAMES.get(cid) or data.characters[cid].name for cid in order if cid not in hidden]
    return tuple(f"{n}. {name}" for n, name in enumerate(names, start=1))


def script_sheet(script: Script, *, travellers: Iterable[str] = (), fabled: Iterable[str] = (),
                 data: Characters | None = None) -> Sheet:
    """The sheet of ``script`` with these Travellers and Fabled in play (character ids)."""
    data = data or load()
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
    if script.jinxes:
        sections.append(Section(title="Jinxes", lines=tuple(
            f"**{_and(data.characters[c].name for c in jinx.characters)}**: {jinx.text}"
            for jinx in script.jinxes)))
    # a Traveller not in play does not wake: the night order lists the characters that may
    hidden = {c for c in script.characters.get("traveller", ()) if c not in in_play}
    sections.append(Section(title="First night", lines=_night(script.first_night, hidden, data)))
    sections.append(Section(title="Other nights", lines=_night(script.other_night, hidden, data)))
    if script.bootlegger:
        sections.append(Section(title="House rules", lines=tuple(script.bootlegger)))
    title = f"{script.name}, by {script.author}" if script.author else script.name
    return Sheet(title=title, sections=tuple(sections))


def sheet_of_state(state: ClocktowerState, data: Characters | None = None) -> Sheet:
    """The sheet of a dealt game: its script, its seated Travellers' characters (public, their
    seats are not) and its Fabled."""
    travellers = [seat.character for seat in state.seats if seat.traveller]
    return script_sheet(state.script, travellers=travellers, fabled=state.fabled, data=data)
