"""Sects & Violets' Demons at night: the Fang Gu, the Vigormortis, the No Dashii and the Vortox.

Their steps in the night's walk (``resolve.plan_night`` dispatches to ``SNV_ACTS``), and the
lasting effects the grimoire reads: the No Dashii's poisoned neighbours (``nodashii_poison``,
read by ``rules.impaired``), the Vigormortis's Minions that keep their ability (``keeps_ability``)
and the poison they spread, which ends when the Vigormortis dies (``demon_gone``).
The day's rules (the Vortox's loss by no execution) are ``snv_day``'s.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from games.engine import STORYTELLER, Event, private

from .info import card
from .script_characters import characters_for
from .state import ClocktowerState, Reminder, Seat

if TYPE_CHECKING:  # the walk's types only: resolve imports this module
    from .resolve import Step, _Night

#: the Fang Gu's reminder once it has jumped ("the 1st Outsider this kills")
JUMPED = "Once"
#: the Witch's reminder on the player it chose, until dusk
CURSED = "Cursed"
#: the Vigormortis's reminder on a Minion it killed
KEEPS = "Has ability"


def _team(state: ClocktowerState, seat: Seat) -> str:
    return "traveller" if seat.traveller else characters_for(state.script)[seat.character].team


# ----- the night's steps -----

def _fanggu(night: _Night, seat: Seat, step: Step) -> None:
    """"Each night*, choose a player: they die. The 1st Outsider this kills becomes an evil Fang Gu
    & you die instead": the Outsider lives on as the Fang Gu (``becomes``, applied at the lock)."""
    chose = night.chosen(step)
    if chose is None or night.stops(seat, step, "nobody dies."):
        return
    target = chose[0]
    state = night.state
    jumped = any(r.source == "fanggu" and r.token == JUMPED for r in state.reminders)
    now = night.changed.get(target, state.seat_of(target).character) if state.seated(target) else ""
    outsider = bool(now) and not state.seat_of(target).traveller and characters_for(state.script)[now].team == "outsider"
    if not outsider or jumped or target == seat.player:
        night.kill(step, target, "fanggu")
        return
    if not night.kill(step, target, "fanggu"):
        return  # the Outsider did not die of it (safe, already dead): no jump
    step.effects.pop()
    night.add(step, "becomes", target, "fanggu")
    night.add(step, "dies", seat.player, "fanggu")
    step.notes.append(f"{night.label(target)} is the first Outsider the Fang Gu kills: they become an evil Fang "
                      f"Gu (told at once) and the Fang Gu, {night.label(seat.player)}, dies instead.")


def _kills(name: str) -> Callable[[_Night, Seat, Step], None]:
    def act(night: _Night, seat: Seat, step: Step) -> None:
        chose = night.chosen(step)
        if chose is None or night.stops(seat, step, "nobody dies."):
            return
        night.kill(step, chose[0], name)
    act.__doc__ = f"The {name}'s kill: \"each night*, choose a player: they die\"."
    return act


def _vigormortis(night: _Night, seat: Seat, step: Step) -> None:
    """"Minions you kill keep their ability & poison 1 Townsfolk neighbor": the nearest Townsfolk
    on either side (alive or dead, others skipped); which one is the Storytellers' call, so the bot
    proposes the clockwise one and names the other."""
    chose = night.chosen(step)
    if chose is None or night.stops(seat, step, "nobody dies."):
        return
    target = chose[0]
    state = night.state
    if not night.kill(step, target, "vigormortis") or _team(state, state.seat_of(target)) != "minion":
        return
    night.add(step, "keeps", target, "vigormortis")
    sides = townsfolk_neighbours(state, target)
    if not sides:
        step.notes.append(f"{night.label(target)}, a Minion, keeps its ability; no Townsfolk to poison.")
        return
    night.add(step, "poison", sides[0], "vigormortis")
    other = (f" The Storytellers' choice: the other Townsfolk neighbour is {night.label(sides[1])} (move the "
             "token with `/st reminder`)." if len(sides) > 1 else "")
    step.notes.append(f"{night.label(target)}, a Minion, keeps its ability while the Vigormortis lives, and "
                      f"poisons a Townsfolk neighbour: proposed {night.label(sides[0])}.{other}")


def _witch(night: _Night, seat: Seat, step: Step) -> None:
    """"Each night, choose a player: if they nominate tomorrow, they die. If just 3 players live,
    you lose this ability" (counted at its step; the day's nomination counts again, ``snv_day``)."""
    chose = night.chosen(step)
    if chose is None or night.stops(seat, step, "nobody is cursed."):
        return
    if sum(1 for s in night.state.seats if night.alive(s.player) and not s.traveller) <= 3:
        step.notes.append("just 3 players live: the Witch has lost its ability, nobody is cursed.")
        return
    night.add(step, "cursed", chose[0], "witch")


def _harlot(night: _Night, seat: Seat, step: Step) -> None:
    """"If they agree, you learn their character, but you both might die": the deaths are the
    Storytellers' call, flagged; a Demon who agreed should not be killed to end the game (the wiki)."""
    chose = night.chosen(step)
    if chose is None:
        return
    state = night.state
    target = chose[0]
    answer = state.waitress_answers.get(target)
    if not answer:
        step.notes.append(f"{night.label(target)} {'refused' if answer is False else 'did not answer'}: nothing "
                          "happens.")
        return
    character = state.seat_of(target).character
    note = (f"{night.label(target)} agreed: the Harlot learns their character ({night.chars[character].name}); "
            "you may kill either or both (`/st kill`).")
    if night.chars[character].team == "demon":
        note += " They are the Demon: you should not end the game by killing them (the wiki)."
    if night.stops(seat, step, "its visit kills nobody (its information is yours to choose)."):
        return
    step.notes.append(note)


SNV_ACTS = {"harlot": _harlot, "witch": _witch, "fanggu": _fanggu, "vigormortis": _vigormortis, "nodashii": _kills("No Dashii"),
            "vortox": _kills("Vortox")}


# ----- what the lock applies -----

def becomes(state: ClocktowerState, seat: Seat, character: str) -> Event:
    """The Fang Gu's jump: ``seat`` becomes an evil ``character`` (its card too) and is told."""
    seat.character = seat.shown = character
    seat.alignment = "evil"
    state.reminders.append(Reminder(player=seat.player, token=JUMPED, source=character))
    return private(seat.player, "character", "You have become an evil Demon.\n\n"
                   + card(characters_for(state.script), seat), title="🕯️ Your character")


def keeps(state: ClocktowerState, player: str) -> None:
    state.reminders.append(Reminder(player=player, token=KEEPS, source="vigormortis"))


# ----- lasting effects -----

def townsfolk_neighbours(state: ClocktowerState, player: str) -> list[str]:
    """The nearest Townsfolk on each side of ``player`` (alive or dead; Outsiders, Minions, Demons
    and Travellers between are skipped): clockwise first, then counter-clockwise."""
    seats = state.seats
    at = next(i for i, s in enumerate(seats) if s.player == player)
    found: list[str] = []
    for way in (1, -1):
        for k in range(1, len(seats)):
            other = seats[(at + way * k) % len(seats)]
            if other.player != player and _team(state, other) == "townsfolk":
                found.append(other.player)
                break
    return list(dict.fromkeys(found))


def _working(state: ClocktowerState, seat: Seat) -> bool:
    """A living Demon with no Poisoned or Drunk reminder on it."""
    if not seat.alive or seat.traveller:
        return False
    return not any(r.player == seat.player and ("poison" in r.token.lower() or "drunk" in r.token.lower())
                   for r in state.reminders)


def nodashii_poison(state: ClocktowerState, player: str) -> str:
    """"Your 2 Townsfolk neighbors are poisoned": why ``player`` is poisoned by a living, working
    No Dashii ("" if not)."""
    for seat in state.seats:
        if seat.character == "nodashii" and _working(state, seat) \
                and player in townsfolk_neighbours(state, seat.player):
            return "poisoned by the No Dashii"
    return ""


def keeps_ability(state: ClocktowerState, seat: Seat) -> bool:
    """A dead player with an ability: a Minion the Vigormortis killed, while a Vigormortis lives, or the
    dead player the Bone Collector chose, until dusk (``regains_ability``)."""
    return (seat in kept_minions(state) and vigormortis_working(state)) or regains_ability(state, seat)


def asked_dead(state: ClocktowerState, seat: Seat) -> bool:
    """A dead player asked at night: one with an ability (``keeps_ability``), and a kept Minion while its
    Vigormortis lives but is drunk or poisoned (asked as any impaired player, its choice does nothing: asking
    only the working ones would tell them)."""
    return keeps_ability(state, seat) or (seat in kept_minions(state)
                                          and any(s.character == "vigormortis" and s.alive for s in state.seats))


def vigormortis_working(state: ClocktowerState) -> bool:
    """A Vigormortis lives and is not drunk or poisoned: "If the Vigormortis dies or otherwise loses their
    ability, then those players become healthy again" (the wiki), and its Minions lose their ability."""
    return any(s.character == "vigormortis" and s.alive and _sober(state, s) for s in state.seats)


def kept_minions(state: ClocktowerState) -> list[Seat]:
    """The Minions the Vigormortis killed that are still Minions ("If a dead Minion becomes a non-Minion
    character, they no longer poison a Townsfolk and have no ability", the wiki)."""
    kept = {r.player for r in state.reminders if r.source == "vigormortis" and r.token == KEEPS}
    return [s for s in state.seats if s.player in kept and _team(state, s) == "minion"]


def vigormortis_poison_holds(state: ClocktowerState, player: str) -> bool:
    """A Poisoned token of the Vigormortis's on ``player`` works: a working Vigormortis, and a kept Minion
    whose Townsfolk neighbour they are (the Storytellers may move the token to its other one)."""
    return vigormortis_working(state) and any(player in townsfolk_neighbours(state, m.player)
                                              for m in kept_minions(state))


# ----- the Bone Collector (a Traveller; its day and other Travellers are ``snv_travellers``') -----

#: the Bone Collector's reminders: on the dead player it chose (until dusk), and on itself once used
REGAINED = "Has Ability"
SPENT = "No Ability"


def _sober(state: ClocktowerState, seat: Seat) -> bool:
    return not any(r.player == seat.player and ("poison" in r.token.lower() or "drunk" in r.token.lower())
                   for r in state.reminders)


def regains_ability(state: ClocktowerState, seat: Seat) -> bool:
    """"Choose a dead player: they regain their ability until dusk": the Has Ability reminder is on
    them, and the Bone Collector lives and is not drunk or poisoned ("If the Bone Collector dies, that
    player no longer has the ability")."""
    if not any(r.player == seat.player and r.source == "bonecollector" and r.token == REGAINED
               for r in state.reminders):
        return False
    return any(s.has("bonecollector") and s.alive and _sober(state, s) for s in state.seats)


def holds_regained(state: ClocktowerState, seat: Seat) -> bool:
    """A dead player with the Has Ability reminder (the Bone Collector chose them): their day ability
    (the Slayer's shot, the Gossip's statement) is accepted until dusk whether or not it works
    (``regains_ability``), so that a refusal tells them nothing of the Bone Collector's state."""
    return not seat.alive and any(r.player == seat.player and r.source == "bonecollector" and r.token == REGAINED
                                  for r in state.reminders)


def bone_collector_chose(state: ClocktowerState, seat: Seat, targets: list[str]) -> list[Event]:
    """The Bone Collector's choice tonight (it may change it until the lock): the Has Ability reminder
    goes on the dead player it chose and No Ability on it (none for no-one), and the Storytellers are
    told; the chosen player is woken to act by the night's asks, never told by whom."""
    state.reminders = [r for r in state.reminders if not (
        r.source == "bonecollector" and (r.token == REGAINED or (r.token == SPENT and r.player == seat.player)))]
    if not targets or targets == ["no-one"]:
        return []
    chosen = state.seat_of(targets[0])
    state.reminders += [Reminder(player=chosen.player, token=REGAINED, source="bonecollector"),
                        Reminder(player=seat.player, token=SPENT, source="bonecollector")]
    name = characters_for(state.script)[chosen.character].name
    return [Event(type="bone_collector", audience=STORYTELLER, title="🦴 The Bone Collector",
                  text=f"The Bone Collector, {state.label(seat.player)}, chose {state.label(chosen.player)} (dead, the "
                       f"{name}): they regain their ability until dusk (Has Ability), and are asked tonight if their "
                       "ability chooses at night. A \"you start knowing\" or once-per-game ability works again, even "
                       "if used: wake them for it, and apply by your commands what the bot does not. Until dusk they may "
                       "use a day ability too (the Slayer's shot, the Gossip's statement, the Gunslinger's shot and "
                       "the Judge's ruling are taken from them as from the living). They are not told who gave it back.")]


# ----- the Barista's cup (its choice is the Storytellers': ``snv_travellers``) -----

#: the Barista's reminders on the player the Storytellers chose tonight, until dusk
SOBER = "Sober & Healthy"
TWICE = "Acts Twice"


def barista_sober(state: ClocktowerState, player: str) -> bool:
    """"A player becomes sober, healthy & gets true info" until dusk: the Sober & Healthy reminder is on
    them and a Barista lives, not drunk or poisoned itself."""
    if not any(r.player == player and r.source == "barista" and r.token == SOBER for r in state.reminders):
        return False
    return any(s.has("barista") and s.alive and _sober(state, s) for s in state.seats)


def barista_twice(state: ClocktowerState, player: str) -> bool:
    """"Their ability works twice" until dusk: the Acts Twice reminder is on them and a Barista lives,
    not drunk or poisoned itself (tonight's information: two answers)."""
    if not any(r.player == player and r.source == "barista" and r.token == TWICE for r in state.reminders):
        return False
    return any(s.has("barista") and s.alive and _sober(state, s) for s in state.seats)


def bone_collector_dusk(state: ClocktowerState) -> None:
    """Dusk: the Bone Collector's regained ability ends (the Has Ability reminder goes; No Ability stays),
    and the Barista's cup."""
    state.reminders = [r for r in state.reminders if not (r.source == "bonecollector" and r.token == REGAINED)
                       and r.source != "barista"]


def demon_gone(state: ClocktowerState, seat: Seat) -> None:
    """A Vigormortis died: the poison of the Minions it killed ends (their ability too, by
    ``keeps_ability``) unless another Vigormortis lives."""
    if seat.character != "vigormortis" or any(s.character == "vigormortis" and s.alive for s in state.seats):
        return
    state.reminders = [r for r in state.reminders if not (r.source == "vigormortis" and "poison" in r.token.lower())]


def sweetheart_died(state: ClocktowerState, seat: Seat) -> list[Event]:
    """"When you die, 1 player is drunk from now on": which player is the Storytellers' pick, so the
    bot proposes the nearest Townsfolk clockwise (a Drunk token placed) and tells them to move it.
    A drunk or poisoned Sweetheart makes nobody drunk (its own tokens only: poison of Townsfolk
    neighbours never reaches an Outsider)."""
    if seat.character != "sweetheart" or seat.traveller or seat.alive \
            or any(r.source == "sweetheart" for r in state.reminders):
        return []
    if any(r.player == seat.player and ("poison" in r.token.lower() or "drunk" in r.token.lower())
           for r in state.reminders):
        state.note_abnormal(seat.player, "the Sweetheart, drunk or poisoned, died: nobody became drunk")
        return []
    living = [p for p in townsfolk_neighbours(state, seat.player) if state.seat_of(p).alive]
    if not living:
        return []
    state.reminders.append(Reminder(player=living[0], token="Drunk", source="sweetheart"))
    return [Event(type="sweetheart", audience=STORYTELLER, title="💘 The Sweetheart died",
                  text=f"The Sweetheart, {state.label(seat.player)}, died: 1 player is drunk from now on. Proposed: "
                       f"{state.label(living[0])} (a Drunk token is placed). Your pick: move it with `/st reminder`.")]
