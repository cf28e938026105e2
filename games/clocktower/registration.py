"""How a player registers to other characters' abilities: as what they are, or, by misregistration,
as something else.

Misregistration is an ability: the Recluse's "You might register as evil & as a Minion or Demon,
even if dead" and the Spy's "You might register as good & as a Townsfolk or Outsider, even if dead"
(an Apprentice that gained the Spy's ability has it too). Like every ability it does not work while
its player is drunk or poisoned: then they register as what they are. "Even if dead" keeps it
working after death. Every place that widens an answer by misregistration asks ``working`` here,
at the moment the rules read the registration (the caller says when: ``sober``).

The bottom of the game's modules with ``rules``: it imports only the data, the state and ``rules``.
"""

from __future__ import annotations

from dataclasses import dataclass

from .characters import Characters
from .rules import impaired
from .state import ClocktowerState, Seat


@dataclass(frozen=True)
class Misregistration:
    """What an ability lets its player register as, besides the truth."""

    alignment: str
    teams: tuple[str, ...]


#: the abilities that misregister, by character id
MISREGISTERS: dict[str, Misregistration] = {
    "recluse": Misregistration("evil", ("minion", "demon")),
    "spy": Misregistration("good", ("townsfolk", "outsider")),
}


def misregistering(seat: Seat) -> list[str]:
    """The misregistering abilities this player has (their character's, or an Apprentice's gained one),
    whether or not they work now."""
    return [c for c in MISREGISTERS if seat.has(c)]


def working(state: ClocktowerState, seat: Seat, sober: bool | None = None) -> list[Misregistration]:
    """The misregistrations that work for this player: none while they are drunk or poisoned.
    ``sober`` is whether they were sober when the rules read them (the executed player at the
    execution, a Juggler's guess when made); None reads the grimoire as it stands."""
    found = misregistering(seat)
    if not found:
        return []
    if sober is None:
        sober = not impaired(state, seat.player)
    return [MISREGISTERS[c] for c in found] if sober else []


def alignments(state: ClocktowerState, seat: Seat, sober: bool | None = None) -> set[str]:
    """The alignments a player may register as (theirs, and a working misregistration's)."""
    return {seat.alignment} | {m.alignment for m in working(state, seat, sober)}


@dataclass(frozen=True)
class EvilCount:
    """How many of some players are evil: truly, and the least and most with misregistration."""
    truth: int
    low: int
    high: int
    #: a flag for the Storytellers naming who may misregister ("" when nobody may)
    flag: str


def evil_count(state: ClocktowerState, seats: list[Seat]) -> EvilCount:
    """The evil among ``seats`` (the Empath's neighbours, the Oracle's dead)."""
    low = sum(1 for s in seats if alignments(state, s) == {"evil"})
    high = sum(1 for s in seats if "evil" in alignments(state, s))
    odd = [state.label(s.player) for s in seats if len(alignments(state, s)) > 1]
    flag = f"{', '.join(odd)} may misregister: {low} to {high}" if low != high else ""
    return EvilCount(sum(1 for s in seats if s.alignment == "evil"), low, high, flag)


def teams(state: ClocktowerState, chars: Characters, seat: Seat, sober: bool | None = None) -> set[str]:
    """The character types a player may register as (their character's, and a working misregistration's)."""
    found: set[str] = {chars[seat.character].team}
    for m in working(state, seat, sober):
        found |= set(m.teams)
    return found


def characters_as(state: ClocktowerState, chars: Characters, seat: Seat, sober: bool | None = None) -> list[str]:
    """The characters a player may register as (the true one first, then the script's characters of a
    working misregistration's types, in script order)."""
    found = [seat.character]
    kinds = {t for m in working(state, seat, sober) for t in m.teams}
    found += [c for c in state.script.all_ids() if c not in found and chars[c].team in kinds]
    return found
