"""When the Demon dies: the Scarlet Woman becomes the Demon, or the Imp's star-pass makes a
living Minion the Imp, and the new Demon is told.

"If there are 5 or more players alive & the Demon dies, you become the Demon. (Travellers don't
count.)": five counted just before the Demon died. "If you kill yourself this way, a Minion becomes
the Imp": the Scarlet Woman first, else the Storytellers' pick, which the bot proposes (the first
living Minion in seat order) and they may change with ``/st character``.
"""

from __future__ import annotations

from games.engine import STORYTELLER, Event, private

from .info import card, names
from .rules import chars, impaired, lives
from .snv_night import demon_gone, sweetheart_died
from .snv_twins import demons_dead_twins_live
from .state import ClocktowerState, Seat


def living(state: ClocktowerState) -> int:
    """How many players live, Travellers not counted."""
    return sum(1 for s in state.seats if s.alive and not s.traveller)


def _demon(state: ClocktowerState, seat: Seat) -> bool:
    return not seat.traveller and chars(state)[seat.character].team == "demon"


def _becomes(state: ClocktowerState, seat: Seat, character: str) -> Event:
    seat.character = seat.shown = character
    return private(seat.player, "character", "You have become the Demon.\n\n" + card(chars(state), seat),
                   title="🕯️ Your character")


def scarlet_woman(state: ClocktowerState, dead: Seat, alive_before: int) -> list[Event]:
    """The Demon ``dead`` just died with ``alive_before`` players alive: a working Scarlet Woman
    becomes that Demon (the game goes on)."""
    if alive_before < 5 or any(_demon(state, s) and s.alive for s in state.seats):
        return []
    for seat in state.seats:
        if seat.alive and seat.has("scarletwoman") and not seat.traveller:
            why = impaired(state, seat.player)
            if why:
                state.note_abnormal(seat.player, f"the Scarlet Woman, {why}, did not become the Demon")
                continue
            name = chars(state)[dead.character].name
            return [_becomes(state, seat, dead.character),
                    Event(type="scarlet_woman", audience=STORYTELLER, title="💋 The Scarlet Woman",
                          text=f"The Demon, {state.label(dead.player)}, died with {alive_before} players alive: "
                               f"the Scarlet Woman, {state.label(seat.player)}, is now the {name} and was "
                               "told. The game goes on.")]
    return []


def star_pass(state: ClocktowerState, imp: Seat) -> list[Event]:
    """The Imp killed itself and no Scarlet Woman took over: the first living Minion becomes the
    Imp, proposed to the Storytellers, who may give it to another."""
    if any(_demon(state, s) and s.alive for s in state.seats):
        return []
    minions = [s for s in state.seats if s.alive and not s.traveller and chars(state)[s.character].team == "minion"]
    if not minions:
        return [Event(type="star_pass", audience=STORYTELLER, title="⭐ The Imp killed itself",
                      text=f"The Imp, {state.label(imp.player)}, killed itself, and no Minion lives to become "
                           "the Imp.")]
    chosen = next((s for s in minions if s.character == "scarletwoman"), minions[0])
    was = chars(state)[chosen.character].name
    others = [s.player for s in minions if s is not chosen]
    change = (f" You may give it to another living Minion ({names(state, others)}) instead: "
              f"`/st character` them to the Imp (tell:True) and {state.name(chosen.player)} back to the {was}."
              if others else "")
    return [_becomes(state, chosen, imp.character),
            Event(type="star_pass", audience=STORYTELLER, title="⭐ The Imp killed itself",
                  text=f"The Imp, {state.label(imp.player)}, killed itself: {state.label(chosen.player)} (the "
                       f"{was}) is now the Imp and was told.{change}")]


def after_the_night(state: ClocktowerState) -> list[Event]:
    """At the lock, after the night's deaths: a Demon who died tonight passes on."""
    dead = [state.seat_of(p) for p in state.killed_tonight if state.seated(p) and not lives(state, state.seat_of(p))]
    if any(s.has("poisoner") for s in dead):  # the dead have no ability: its poison ends at its death
        state.reminders = [r for r in state.reminders if not (r.source == "poisoner" and "poison" in r.token.lower())]
    sweet: list[Event] = []
    for seat in dead:
        demon_gone(state, seat)
        sweet += sweetheart_died(state, seat)
    demons = [s for s in dead if _demon(state, s)]
    if not demons:
        return sweet
    alive_before = living(state) + sum(1 for s in dead if not s.traveller)
    events = scarlet_woman(state, demons[0], alive_before)
    imp = next((s for s in demons if s.character == "imp" and state.killed_tonight[s.player] == "imp"), None)
    if not events and imp is not None:
        events = star_pass(state, imp)
    return sweet + events + demons_dead_twins_live(state, demons[0])


def demon_died(state: ClocktowerState, seat: Seat) -> list[Event]:
    """By day, a death that just happened (an execution, the Slayer's shot, ``/st kill``): a
    Demon's passes to a working Scarlet Woman if 5 or more lived just before; a Poisoner's poison
    ends (the dead have no ability)."""
    if seat.has("poisoner"):
        state.reminders = [r for r in state.reminders if not (r.source == "poisoner" and "poison" in r.token.lower())]
    demon_gone(state, seat)
    sweet = sweetheart_died(state, seat)
    if not _demon(state, seat):
        return sweet
    return sweet + scarlet_woman(state, seat, living(state) + 1) + demons_dead_twins_live(state, seat)
