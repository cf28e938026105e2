"""The Travellers' abilities beyond the night's choices: the Apprentice's gained ability and the
Scapegoat executed instead (the Thief and the Waitress choose at night, in ``night.py``; the
Deviant's exile is the Storytellers' call, in ``talk.py``).

- The Apprentice: "On your 1st night, you gain a Townsfolk ability (if good) or a Minion ability
  (if evil)." Its first night is the first night after it joins. The Storytellers choose the
  ability (`/st traveller apprentice`), one not in play and on the script; the player keeps the Apprentice's
  character (other abilities detect the Apprentice) and acts at night by the gained card, with the
  first night's order on its first night.
- The Scapegoat: "If a player of your alignment is executed, you might be executed instead." The
  Storytellers are told when an execution allows it, and `/st traveller scapegoat` carries it out until the
  night's lock: the executed player lives again and the Scapegoat dies in their place. "Of your
  alignment" includes misregistration: the Spy might register as good, the Recluse as evil.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from games.engine import STORYTELLER, Event, Outcome, StorytellerAction, private, public, record

from .actions import (
    GainAbility,
    ScapegoatInstead,
)
from .characters import Characters
from .day import Tally
from .rules import (
    after_deal,
    character_id,
    illegal,
    impaired,
    target_seat,
)
from .state import ClocktowerState, Reminder, Seat


class TravellerRules:
    """The Apprentice and the Scapegoat (mixed into the game)."""

    chars: Characters
    if TYPE_CHECKING:
        def _lleech_follows(self, state: ClocktowerState) -> list[Event]: ...
        def _pending(self, state: ClocktowerState, *, resume: str) -> list[Event]: ...
        def _tally_event(self, state: ClocktowerState, t: Tally | None = None, *, closed: bool = False) -> Event: ...
        def _nightfall(self, state: ClocktowerState, opening: str = "") -> list[Event]: ...
        def ask_event(self, state: ClocktowerState, seat: Seat, *, woken: bool = False) -> Event | None: ...

    # ----- the Apprentice -----
    def apprentices_due(self, state: ClocktowerState) -> list[Event]:
        """At dusk: an Apprentice's first night, and no ability chosen yet, is the Storytellers' to do."""
        events = []
        for seat in state.seats:
            if seat.character == "apprentice" and seat.alive and not seat.ability \
                    and state.night == seat.joined_day + 1:
                team = "Townsfolk" if seat.alignment == "good" else "Minion"
                events.append(Event(type="apprentice_due", audience=STORYTELLER, title="🎓 The Apprentice's first night",
                                    text=f"Tonight is the first night of {state.label(seat.player)}, the Apprentice "
                                         f"({seat.alignment}): give them a {team} ability not in play with "
                                         "`/st traveller apprentice player:@p character:X`. It acts tonight by that card, "
                                         "with the first night's information."))
        return events

    def _do_apprentice(self, state: ClocktowerState, action: GainAbility, rng: random.Random) -> Outcome:
        after_deal(state, "give the Apprentice an ability")
        seat = target_seat(state, action.target)
        if seat.character != "apprentice":
            raise illegal(f"{state.label(seat.player)} is not the Apprentice.", "not_apprentice")
        if not seat.alive:
            raise illegal(f"{state.label(seat.player)} is dead: the Apprentice's ability is gone.", "dead")
        team = "townsfolk" if seat.alignment == "good" else "minion"
        character = character_id(action.character, (team,))
        name = self.chars[character].name
        if character not in state.script.all_ids():
            raise illegal(f"The {name} is not on this script: the Apprentice gains an ability on the script.",
                          "bad_character")
        holder = next((s for s in state.seats if s is not seat and (s.character == character or s.ability == character)),
                      None)
        if holder is not None:
            raise illegal(f"The {name} is in play ({state.label(holder.player)}): the Apprentice gains an "
                          "ability that is not in play.", "in_play")
        before = seat.ability
        seat.ability = character
        if not any(r.player == seat.player and r.source == "apprentice" for r in state.reminders):
            state.reminders.append(Reminder(player=seat.player, token="Is The Apprentice", source="apprentice"))
        events = [private(seat.player, "apprentice", f"🎓 You gain the {name}'s ability:\n> "
                          f"{self.chars[character].ability}", title="The Apprentice")]
        asked = self.ask_event(state, seat) if state.phase == "night" and state.stage != "locked" else None
        if asked is not None:  # it acts tonight: asked at once
            events.append(asked)
        idle = self.chars[character].setup is not None  # the Baron, the Marionette
        note = f" The {name}'s ability works only at the deal: it does nothing now." if idle else ""
        instead = f" (instead of the {self.chars[before].name})" if before else ""
        return Outcome(state=state, events=events,
                       reply=f"{state.label(seat.player)}, the Apprentice, gains the {name}'s ability{instead}; "
                             f"they were told.{note}")

    def _traveller_moves(self, state: ClocktowerState) -> list[StorytellerAction]:
        """For random play-throughs: an Apprentice's ability, a Scapegoat's swap."""
        st = "storyteller"
        moves: list[StorytellerAction] = []
        in_play = {s.character for s in state.seats} | {s.ability for s in state.seats}
        for seat in state.seats:
            if seat.character == "apprentice" and seat.alive and not seat.ability:
                team = "townsfolk" if seat.alignment == "good" else "minion"
                free = [c for c in state.script.characters.get(team, ()) if c not in in_play]
                if free:
                    moves.append(GainAbility(player=st, target=seat.player, character=free[0]))
        if state.executed and state.stage != "locked" and self._scapegoats(state, state.seat_of(state.executed)):
            moves.append(ScapegoatInstead(player=st))
        return moves

    # ----- the Scapegoat -----
    def _scapegoats(self, state: ClocktowerState, executed: Seat) -> list[Seat]:
        return [s for s in state.seats if s.has("scapegoat") and s.alive and s is not executed
                and s.alignment in _registers_as(executed) and not impaired(state, s.player)]

    def scapegoat_note(self, state: ClocktowerState, executed: Seat) -> list[Event]:
        """At an execution: a working Scapegoat of the executed player's alignment might take their place."""
        goats = self._scapegoats(state, executed)
        if not goats:
            return []
        alignment = goats[0].alignment
        why = (f"is of their alignment ({alignment})" if alignment == executed.alignment else
               f"is {alignment}, and the {self.chars[executed.character].name}, who might register as {alignment}, "
               "may count as of its alignment")
        return [Event(type="scapegoat_due", audience=STORYTELLER, title="🐐 The Scapegoat",
                      text=f"{state.label(executed.player)} was executed; {state.label(goats[0].player)}, the "
                           f"Scapegoat, {why} and might be executed "
                           "instead. `/st traveller scapegoat` does it, until tonight's actions lock: "
                           f"{state.name(executed.player)} lives again and the Scapegoat dies, told to the town "
                           "at once.")]

    def _do_scapegoat(self, state: ClocktowerState, action: ScapegoatInstead, rng: random.Random) -> Outcome:
        if not state.executed:
            raise illegal("Nobody has been executed today.", "no_execution")
        executed = state.seat_of(state.executed)
        ending = state.phase == "ending" and state.pending_end is not None and state.pending_end.resume == "night"
        if not (ending or (state.phase == "day" and state.voting_closed)
                or (state.phase == "night" and state.stage != "locked")):
            raise illegal("The Scapegoat takes an execution's place from the execution until the night's "
                          "actions lock.", "too_late")
        goats = self._scapegoats(state, executed)
        if not goats:
            raise illegal(f"No living, working Scapegoat is of {state.label(executed.player)}'s alignment.",
                          "no_scapegoat")
        goat = goats[0]
        revived = state.execution_killed  # one who was already dead stays dead
        executed.alive = executed.alive or revived
        goat.alive, state.execution_killed = False, True
        state.executed = goat.player
        events = [public("scapegoat", f"🐐 {state.label(goat.player)}, the Scapegoat, is executed instead of "
                         f"{state.label(executed.player)}" + (", who lives." if revived else "."),
                         title="The Scapegoat")]
        events += self._lleech_follows(state)
        # the day's closed tally and its record now name the Scapegoat (the record corrects the day's)
        events += [self._tally_event(state, closed=True),
                   record("day", {"day": state.day, "executed": goat.player, "instead_of": executed.player})]
        if ending:
            state.pending_end = None
            found = self._pending(state, resume="night")
            events += found or self._nightfall(state)
        return Outcome(state=state, events=events,
                       reply=f"{state.label(goat.player)} is executed instead of {state.label(executed.player)}. "
                             "Anyone who died because of the first execution (the Lleech with its host) is "
                             "yours to revive with `/st revive`.")


def _registers_as(seat: Seat) -> set[str]:
    """The alignments a player may count as for the Scapegoat: theirs, and by misregistration the
    Spy's good ("might register as good") and the Recluse's evil ("might register as evil")."""
    return {seat.alignment} | ({"good"} if seat.has("spy") else set()) | ({"evil"} if seat.has("recluse") else set())
