"""The end reveal's account of every character change, and what the grimoire shows of each seat.

A character change is whatever an action did to a seat's character, alignment or gained ability
once the characters went out: the Fang Gu's jump, the Barber's, the Snake Charmer's and the Pit-Hag's
swaps, the Philosopher's (or the Apprentice's) gained ability, the Storytellers' `/st character`.
``Clocktower._apply`` compares the seats before and after each action (``seats_now`` and
``change_records``), so a rule that changes a character is recorded without a line of its own: each
change is a ``character_change`` row of the record, never the state, and the reveal tells them in
order with the Matron's seat swaps (``changes_recap``).

Pure: it reads states and record rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from games.engine import Event, public, record

from .characters import Characters
from .info import name_of, seat_tokens
from .script_characters import characters_for
from .snv_night import nodashii_poison
from .state import ClocktowerState

if TYPE_CHECKING:  # the walk's types only: the walk imports rules, which imports this module's reader
    from .walk import Step

#: a seat as the record compares it: (character, alignment, gained ability)
Held = tuple[str, str, str]

#: the actions by which the Storytellers change a character or an alignment themselves
BY_STORYTELLERS = ("set_character", "set_alignment")


def seats_now(state: ClocktowerState) -> dict[str, Held]:
    """Each seated player's character, alignment and gained ability (none before the deal is sent:
    a re-deal is no change)."""
    return {h[0]: h[1:] for h in held_now(state)}


#: a seat's player, character, alignment and gained ability, read in one call
_HELD = attrgetter("player", "character", "alignment", "ability")


def held_now(state: ClocktowerState) -> list[tuple[str, str, str, str]]:
    """``seats_now`` as a list in seat order: taken before every action, and compared whole after
    it, so an action that changed no seat (a vote, most actions) is not compared seat by seat."""
    if state.phase == "setup":
        return []
    return list(map(_HELD, state.seats))


#: the night's effects that change no character nor alignment (every other kind may: the Fang Gu's
#: "becomes", the Goon's "align", and the kinds an edition adds for its swaps)
CHANGES_NOTHING = frozenset({"dies", "poison", "heal", "negative", "safe", "protect", "skip", "drunk", "token",
                             "untoken", "spent", "revive", "keeps", "cursed"})


def night_causes(steps: list[Step]) -> dict[str, list[str]]:
    """At the lock: for each player, the characters whose abilities (each effect's source) may have
    changed their character or alignment tonight (the night plan's data, read by ``change_records``)."""
    causes: dict[str, list[str]] = {}
    for step in steps:
        for effect in step.effects:
            if effect.kind not in CHANGES_NOTHING:
                causes.setdefault(effect.player, []).append(effect.source)
    return causes


def tokens_now(state: ClocktowerState) -> set[tuple[str, str, str]]:
    return {(r.player, r.token, r.source) for r in state.reminders}


def change_records(before: dict[str, Held], tokens_before: set[tuple[str, str, str]], when: tuple[str, int, int],
                   action: str, state: ClocktowerState, events: Sequence[Event] = ()) -> list[Event]:
    """A ``character_change`` row for each seat whose character, alignment or gained ability the
    action changed. ``when``: the phase, night and day the action happened in. Its cause: the
    Storytellers' own command, else the characters whose tokens the action placed on the seat (the
    grimoire had not ``tokens_before``) or whose steps at a lock acted on it (``events``' night plan)."""
    rows = []
    for seat in state.seats:
        old = before.get(seat.player)
        new = (seat.character, seat.alignment, seat.ability)
        if old is None or old == new:
            continue
        placed = [r.source for r in state.reminders if r.player == seat.player and r.source
                  and (r.player, r.token, r.source) not in tokens_before]
        at_lock = [c for e in events if e.type == "night_plan" for c in e.data.get("causes", {}).get(seat.player, [])]
        by = ["storyteller"] if action in BY_STORYTELLERS else list(dict.fromkeys(at_lock + placed))
        phase, night, day = when
        rows.append(record("character_change", {
            "phase": phase, "night": night, "day": day, "player": seat.player,
            "from": old[0], "to": new[0], "from_alignment": old[1], "to_alignment": new[1],
            "from_ability": old[2], "to_ability": new[2], "by": by}))
    return rows


def change_line(state: ClocktowerState, data: dict[str, Any]) -> str:
    """"• night 2, Name5: the Mutant became the Fang Gu; good to evil (the Fang Gu)"."""
    known = characters_for(state.script)
    when = f"night {data['night']}" if data["phase"] == "night" else f"day {data['day']}"
    parts = []
    if data["from"] != data["to"]:
        parts.append(f"the {name_of(known, data['from'])} became the {name_of(known, data['to'])}")
    if data["from_alignment"] != data["to_alignment"]:
        parts.append(f"{data['from_alignment']} to {data['to_alignment']}")
    if data["from_ability"] != data["to_ability"]:
        parts.append(f"gained the {name_of(known, data['to_ability'])}'s ability" if data["to_ability"]
                     else f"lost the {name_of(known, data['from_ability'])}'s ability")
    by = ", ".join("the Storytellers" if b == "storyteller" else f"the {name_of(known, b)}" for b in data.get("by", []))
    return f"• {when}, {state.name(data['player'])}: {'; '.join(parts)}" + (f" ({by})" if by else "")


def changes_recap(state: ClocktowerState, records: list[Event]) -> list[Event]:
    """The end reveal: every character change and seat swap of the game, in the order they happened."""
    lines = []
    for rec in records:
        if rec.type == "character_change":
            lines.append(change_line(state, rec.data))
        elif rec.type == "seat_swap":
            first, second = (state.name(p) for p in rec.data["players"])
            lines.append(f"• day {rec.data['day']}, {first} and {second} swapped seats (the Matron)")
    if not lines:
        return []
    return [public("changes_recap", "\n".join(lines), title="🔄 Every character change")]


def grimoire_marks(state: ClocktowerState) -> dict[str, list[str]]:
    """What the grimoire shows that the rules read from the seats rather than from a token, by player:
    the No Dashii's poisoned Townsfolk neighbours ("Poisoned (No Dashii)", ``snv_night``), kept up to
    date as deaths and changes move them. A rule that derives a mark this way adds it here."""
    marks: dict[str, list[str]] = {}
    for seat in state.seats:
        if nodashii_poison(state, seat.player):
            marks.setdefault(seat.player, []).append("Poisoned (No Dashii)")
    return marks


def sheet_tokens(state: ClocktowerState, known: Characters) -> list[str]:
    """The night sheet's line of everything on the grimoire now, seat by seat ("Name3 (seat 3): Cursed
    (Witch); Name5 (seat 5): Mad (Cerenovus)"), so the Storytellers see it in the night's order
    without the picture."""
    marks = grimoire_marks(state)
    found = [f"{state.label(s.player)}: {token}" for s in state.seats
             for token in seat_tokens(state, known, s.player, marks)]
    return [f"🔖 On the grimoire: {'; '.join(found)}"] if found else []
