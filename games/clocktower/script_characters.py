"""The characters a game plays with, read from its script: one ``Characters`` for every rule to look in.

A script of Her Royal Highness Register's characters ("hrh" rules) plays by that rulebook's data, as
it always has (with the script's own night order when it gives one). Any other script plays by the
official records: all 181 official characters (a Storyteller may bring in any Traveller or Fabled,
and a Pit-Hag may make any character), the script's homebrew characters over them, the script's
night order (from the official night sheet, or its ``_meta``), and the official jinxes among its
characters. Each official character's set-up change (``catalogue.SetupChange``) gives the fields the
rules read of a ``Character``: its false card and whom it neighbours.

The result is built once per distinct script and kept on the script object, so a rule that looks a
character up pays a dictionary lookup, not a build.
"""

from __future__ import annotations

from functools import lru_cache

from .catalogue import Catalogue, Record, SetupChange
from .catalogue import load as load_catalogue
from .characters import Character, Characters, Jinx, NightOrder, Setup, load
from .deal_any import Homebrew
from .script import Script


def characters_for(script: Script) -> Characters:
    """Every character a game of ``script`` may meet, with its night order and jinxes."""
    found = script.cached_characters()
    if found is None:
        found = _build(script.rules, script.homebrew, script.first_night, script.other_night, script.jinxes,
                       script.custom_night_order)
        script.keep_characters(found)
    return found


@lru_cache(maxsize=64)
def _build(rules: str, homebrew: tuple[Character, ...], first_night: tuple[str, ...],
           other_night: tuple[str, ...], jinxes: tuple[Jinx, ...], custom: bool) -> Characters:
    if rules == "hrh":
        data = load()
        if not custom:
            return data
        order = NightOrder(first_night=first_night, other_night=other_night, notes=data.night_order.notes)
        return data.model_copy(update={"night_order": order})
    characters = dict(_official())
    characters.update((c.id, c) for c in homebrew)
    return Characters(characters=characters,
                      night_order=NightOrder(first_night=first_night, other_night=other_night),
                      jinxes=jinxes)


def homebrew_for_deal(script: Script) -> tuple[Homebrew, ...]:
    """The script's homebrew characters as the deal needs them: dealt like any of their team, copied
    where the app's "bag-duplicate" hint allows, a set-up change left to the Storytellers."""
    return tuple(Homebrew(id=c.id, name=c.name, team=c.team, setup=c.setup is not None,
                          duplicates="bag-duplicate" in c.special) for c in script.homebrew)


@lru_cache(maxsize=1)
def _official() -> dict[str, Character]:
    cat = load_catalogue()
    return {cid: _character(record, cat.setup.get(cid), cat) for cid, record in cat.records.items()}


def _character(record: Record, change: SetupChange | None, cat: Catalogue) -> Character:
    setup = None
    if change is not None and (record.setup or change.neighbours):
        single = change.outsiders if change.outsiders != "any" and len(change.outsiders) == 1 else (0,)
        setup = Setup(outsiders=single[0], neighbours=change.neighbours)
    return Character(id=record.id, name=record.name, team=record.team, ability=record.ability,
                     first_night_reminder=record.first_night_reminder,
                     other_night_reminder=record.other_night_reminder,
                     reminders=record.reminders, reminders_global=record.reminders_global,
                     setup=setup, false_card=change.false_card if change is not None else None)
