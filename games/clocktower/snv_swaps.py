"""Sects & Violets' character changers at night: the Snake Charmer's swap with the Demon.

Each is a step of the night's walk (``resolve.plan_night`` dispatches to ``SWAP_ACTS``) that puts a
"swap" effect in the plan; the lock applies it (``apply_swap``, called by ``night.resolve_night``)
and tells each changed player their new character and alignment in their thread, the way the Fang
Gu's jump is told. Whatever the rules leave to the Storytellers (a Recluse that might register as
the Demon, the new Demon's kill tonight) is a note of the plan, never decided silently.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.engine import Event, private

from .info import card
from .registration import working
from .script_characters import characters_for
from .state import ClocktowerState, Seat
from .walk import Effect

if TYPE_CHECKING:  # the walk's types only: resolve imports this module
    from .resolve import Step, _Night


def _team(state: ClocktowerState, seat: Seat) -> str:
    return "traveller" if seat.traveller else characters_for(state.script)[seat.character].team


# ----- the Snake Charmer -----

def _snakecharmer(night: _Night, seat: Seat, step: Step) -> None:
    """"Each night, choose an alive player: a chosen Demon swaps characters & alignments with you &
    is then poisoned": the swap is applied at the lock; the old Demon is poisoned from now on (a
    Poisoned token of the Snake Charmer's), so its kill later tonight does nothing."""
    chose = night.chosen(step)
    if chose is None or not chose or night.stops(seat, step, "no swap."):
        return
    target = night.state.seat_of(chose[0])
    if target.player == seat.player:
        step.notes.append("chose themselves: nothing happens.")
        return
    if _team(night.state, target) != "demon":
        if any("demon" in m.teams for m in working(night.state, target, not night.impaired(target.player))):
            step.notes.append(f"{night.label(target.player)} might register as the Demon (misregistration): your "
                              "call. Proposed: no swap. To swap, `/st character` each to the other's character "
                              "and `/st alignment` each, and put a Poisoned token (Snake Charmer) on the new "
                              "Snake Charmer.")
        return
    step.effects.append(Effect("swap", target.player, "snakecharmer", seat.player))
    night.add(step, "poison", target.player, "snakecharmer")
    step.notes.append(f"{night.label(target.player)} is the Demon: they swap characters and alignments with the "
                      f"Snake Charmer, {night.label(seat.player)} (both told), and the new Snake Charmer is "
                      "poisoned from now on. The old Demon's choice tonight does nothing (poisoned). The new Demon "
                      "wakes after the Snake Charmer: whether they kill tonight is yours to judge (they chose no "
                      "kill, being the Snake Charmer when the night's choices were made): ask them in their "
                      "thread and `/st kill` if so.")


SWAP_ACTS = {"snakecharmer": _snakecharmer}


# ----- what the lock applies -----

def _told(state: ClocktowerState, seat: Seat, why: str) -> Event:
    """A changed player's message: why, their new card, and their alignment (which the card's team
    does not always say: a good Demon made by the Barber or the Pit-Hag)."""
    known = characters_for(state.script)
    lines = card(known, seat).splitlines()
    lines = [line for line in lines if not line.startswith("You are **good**") and not line.startswith("You are **evil**")]
    return private(seat.player, "character", f"{why}\n\n" + "\n".join(lines) + f"\nYou are **{seat.alignment}**.",
                   title="🕯️ Your character")


def _swap(state: ClocktowerState, one: Seat, other: Seat, *, alignments: bool) -> None:
    one.character, other.character = other.character, one.character
    one.shown, other.shown = one.character, other.character
    if alignments:
        one.alignment, other.alignment = other.alignment, one.alignment


def apply_swap(state: ClocktowerState, effect: Effect) -> tuple[list[Event], list[str]]:
    """At the lock: a character change of this module's steps, applied to the grimoire and told to the
    players it changed. Returns the messages and what the night's plan says of it."""
    known = characters_for(state.script)
    if effect.kind == "swap" and effect.source == "snakecharmer":
        demon, charmer = state.seat_of(effect.player), state.seat_of(effect.token)
        if known[demon.character].team != "demon" or charmer.character != "snakecharmer":
            return [], ["no swap (the grimoire changed since)"]
        _swap(state, demon, charmer, alignments=True)
        return ([_told(state, charmer, "🐍 You chose the Demon: you swap characters and alignments with them."),
                 _told(state, demon, "🐍 The Snake Charmer chose you: you swap characters and alignments with them.")],
                [f"{state.label(charmer.player)} becomes the {known[charmer.character].name}, "
                 f"{charmer.alignment}, and {state.label(demon.player)} the Snake Charmer, {demon.alignment}"])
    return [], []
