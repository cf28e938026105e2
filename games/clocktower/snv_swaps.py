"""Sects & Violets' character changers at night: the Snake Charmer's swap with the Demon, the
Pit-Hag's new characters, the Philosopher's gained ability (its lasting drunkenness is
``snv_philosopher``'s), and what the lock applies of them and of the Barber's haircuts (``snv_barber``).

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
from .snv_philosopher import IS_THE
from .state import ClocktowerState, Reminder, Seat
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


# ----- the Pit-Hag -----

def _pithag(night: _Night, seat: Seat, step: Step) -> None:
    """"Each night*, choose a player & a character they become (if not in play). If a Demon is made,
    deaths tonight are arbitrary": the change is applied at the lock (alignment kept, told); tonight's
    later steps see the new character (``Night.changed``); a Demon made, the night's deaths are the
    Storytellers', and the new character's first-night ability or set-up is theirs to judge."""
    state, known = night.state, characters_for(night.state.script)
    chose = night.chosen(step)
    character = state.night_answers.get(seat.player, "")
    if chose is None or not chose:
        return
    if not character:
        step.notes.append("chose no character: nothing happens.")
        return
    if night.stops(seat, step, "nobody changes."):
        return
    target, made = state.seat_of(chose[0]), known[character]
    if target.traveller or made.team not in ("townsfolk", "outsider", "minion", "demon"):
        step.notes.append(f"the {made.name} is not a character a player can become here: nothing happens.")
        return
    if any(s.character == character for s in state.seats) or character in night.changed.values():
        step.notes.append(f"the {made.name} is in play: nothing happens.")
        return
    step.effects.append(Effect("made", target.player, "pithag", character))
    night.changed[target.player] = character
    step.notes.append(f"{night.label(target.player)} becomes the {made.name}, {target.alignment} as before (told).")
    if character not in state.script.all_ids():
        step.notes.append(f"the {made.name} is not on the script: the official sheet's Pit-Hag points at its own "
                          "character sheet. Your call (undo with `/st character`).")
    if made.team == "demon":
        step.notes.append("a Demon is made: deaths tonight are arbitrary. Who dies tonight is yours to choose: the "
                          "kills below are only proposals (`/st kill`, `/st revive` before dawn).")
    elif _team(state, target) == "demon":
        step.notes.append(f"{night.label(target.player)} was the Demon: it does not kill tonight. If no Demon lives, "
                          "good wins at dawn unless you rule otherwise.")
    if made.first_night_reminder or made.setup or made.false_card or "[" in made.ability:
        step.notes.append(f"the {made.name}'s first-night ability or set-up (its reminder: "
                          f"\"{' '.join(made.first_night_reminder.split())[:160]}\") is yours to judge: a player made "
                          "it mid-game learns or changes nothing unless you give it (`/st tell`).")


# ----- the Philosopher -----

def _philosopher(night: _Night, seat: Seat, step: Step) -> None:
    """"Once per game, at night, choose a good character: gain that ability. If this character is in
    play, they are drunk": the gain is applied at the lock (the seat's ``ability``: woken as it from
    then on); the player holding it is drunk at once for the rest of tonight's walk."""
    state, known = night.state, characters_for(night.state.script)
    character = state.night_answers.get(seat.player, "")
    if not character:
        return  # "they either shake their head no or point": not choosing tonight is allowed
    gained = known[character]
    if gained.team not in ("townsfolk", "outsider") or character == "philosopher":
        step.notes.append(f"the {gained.name} is not a good character it can gain: nothing happens (asked again).")
        return
    why = night.impaired(seat.player)
    if why:
        step.effects.append(Effect("spent", seat.player, "philosopher"))
        step.notes.append(f"impaired ({why}): its once-per-game choice of the {gained.name} gains nothing and "
                          "makes nobody drunk (used). They believe they have it: what they learn as it is yours.")
        step.abnormal = f"impaired ({why}): gained nothing"
        return
    step.effects.append(Effect("gains", seat.player, "philosopher", character))
    holders = [s for s in state.seats if s.character == character and s.player != seat.player]
    for holder in holders:
        night.drunk[holder.player] = "philosopher"
    drunk = f"; {', '.join(night.label(h.player) for h in holders)}, the {gained.name}, is drunk while the " \
        "Philosopher lives and is sober" if holders else "; it is not in play (whoever becomes it is drunk)"
    step.notes.append(f"gains the {gained.name}'s ability{drunk}. From tomorrow night it is asked as the {gained.name}; "
                      "tonight's use of it (a choice it was not asked, a first-night-only ability) is yours.")
    if character not in state.script.all_ids():
        step.notes.append(f"the {gained.name} is not on the script: the official sheet's Philosopher points at its "
                          "own character sheet. Your call.")


SWAP_ACTS = {"snakecharmer": _snakecharmer, "pithag": _pithag, "philosopher": _philosopher}
#: the character types each one's night select offers (a message holds 5 rows: the Pit-Hag's player
#: and these four)
CHARACTER_TEAMS = {"pithag": ("townsfolk", "outsider", "minion", "demon"), "philosopher": ("townsfolk", "outsider")}


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
    """Two seats swap characters (and a Philosopher's gained ability and its reminder go with its character)."""
    one.character, other.character = other.character, one.character
    one.shown, other.shown = one.character, other.character
    one.ability, other.ability = other.ability, one.ability
    moved = {one.player: other.player, other.player: one.player}
    state.reminders = [r.model_copy(update={"player": moved[r.player]})
                       if r.source == "philosopher" and r.token.startswith(IS_THE) and r.player in moved else r
                       for r in state.reminders]
    if alignments:
        one.alignment, other.alignment = other.alignment, one.alignment


def apply_swap(state: ClocktowerState, effect: Effect) -> tuple[list[Event], list[str]]:
    """At the lock: a character change of this module's steps, applied to the grimoire and told to the
    players it changed. Returns the messages and what the night's plan says of it."""
    known = characters_for(state.script)
    if effect.kind == "swap" and effect.source == "snakecharmer":
        demon, charmer = state.seat_of(effect.player), state.seat_of(effect.token)
        if known[demon.character].team != "demon" or not charmer.has("snakecharmer"):
            return [], ["no swap (the grimoire changed since)"]
        _swap(state, demon, charmer, alignments=True)
        return ([_told(state, charmer, "🐍 You chose the Demon: you swap characters and alignments with them."),
                 _told(state, demon, "🐍 The Snake Charmer chose you: you swap characters and alignments with them.")],
                [f"{state.label(charmer.player)} becomes the {known[charmer.character].name}, "
                 f"{charmer.alignment}, and {state.label(demon.player)} the Snake Charmer, {demon.alignment}"])
    if effect.kind == "swap" and effect.source == "barber":
        one, other = state.seat_of(effect.player), state.seat_of(effect.token)
        _swap(state, one, other, alignments=False)
        odd = [s for s in (one, other) if s.character in ("drunk", "lunatic", "marionette")]
        flag = (f" ({', '.join(state.label(s.player) for s in odd)} now holds a character that is shown another: "
                "change their card with `/st character` if you wish)") if odd else ""
        return ([_told(state, s, "✂️ Your character has changed tonight.") for s in (one, other)],
                [f"{state.label(one.player)} becomes the {known[one.character].name} and {state.label(other.player)}"
                 f" the {known[other.character].name}, alignments kept{flag}"])
    if effect.kind == "gains":
        seat, gained = state.seat_of(effect.player), known[effect.token]
        seat.ability = effect.token
        state.reminders.append(Reminder(player=seat.player, token=f"{IS_THE}{gained.name}", source="philosopher"))
        return ([private(seat.player, "character", f"🍺 You gain the {gained.name}'s ability:\n> {gained.ability}",
                         title="🕯️ Your ability")],
                [f"{state.label(seat.player)} gains the {gained.name}'s ability"])
    if effect.kind == "made":
        seat = state.seat_of(effect.player)
        if any(s.character == effect.token for s in state.seats):
            return [], [f"{state.label(seat.player)} is not changed: the {known[effect.token].name} is in play now"]
        was = known[seat.character].name
        seat.character = seat.shown = effect.token
        return ([_told(state, seat, "🧪 Your character has changed tonight.")],
                [f"{state.label(seat.player)} ({was}) becomes the {known[effect.token].name}, {seat.alignment}"])
    return [], []
