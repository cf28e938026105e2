"""The Travellers' abilities beyond the night's choices: the Apprentice's gained ability and the
Scapegoat executed instead (the Thief and the Waitress choose at night, in ``night.py``; the
Deviant's exile is the Storytellers' call, in ``talk.py``; the Scapegoat's swap is an execution,
carried out in ``day.py``, and who may take it in ``tally.py``).

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

from games.engine import STORYTELLER, Event, Handler, Outcome, Rng, StorytellerAction, private

from .actions import GainAbility, ScapegoatInstead
from .asks import first_night_for
from .grimoire import unseat
from .night import ask_event
from .rules import after_deal, character_id, chars, illegal, target_seat
from .state import ClocktowerState, Reminder
from .tally import scapegoats

# ----- the Apprentice -----

def apprentices_due(state: ClocktowerState) -> list[Event]:
    """At dusk: an Apprentice's first night, and no ability chosen yet, is the Storytellers' to do."""
    events = []
    for seat in state.seats:
        if seat.character == "apprentice" and seat.alive and not seat.ability and first_night_for(state, seat):
            team = "Townsfolk" if seat.alignment == "good" else "Minion"
            events.append(Event(type="apprentice_due", audience=STORYTELLER, title="🎓 The Apprentice's first night",
                                text=f"Tonight is the first night of {state.label(seat.player)}, the Apprentice "
                                     f"({seat.alignment}): give them a {team} ability not in play with "
                                     "`/st traveller apprentice player:@p character:X`. It acts tonight by that card, "
                                     "with the first night's information."))
    return events


def gain_ability(state: ClocktowerState, action: GainAbility, rng: Rng) -> Outcome:
    after_deal(state, "give the Apprentice an ability")
    seat = target_seat(state, action.target)
    if seat.character != "apprentice":
        raise illegal(f"{state.label(seat.player)} is not the Apprentice.", "not_apprentice")
    if not seat.alive:
        raise illegal(f"{state.label(seat.player)} is dead: the Apprentice's ability is gone.", "dead")
    team = "townsfolk" if seat.alignment == "good" else "minion"
    character = character_id(state, action.character, (team,))
    name = chars(state)[character].name
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
                      f"{chars(state)[character].ability}", title="The Apprentice")]
    asked = ask_event(state, seat) if state.phase == "night" and state.stage != "locked" else None
    if asked is not None:  # it acts tonight: asked at once
        events.append(asked)
    idle = chars(state)[character].setup is not None  # the Baron, the Marionette
    note = f" The {name}'s ability works only at the deal: it does nothing now." if idle else ""
    instead = f" (instead of the {chars(state)[before].name})" if before else ""
    return Outcome(state=state, events=events,
                   reply=f"{state.label(seat.player)}, the Apprentice, gains the {name}'s ability{instead}; "
                         f"they were told.{note}")


# ----- their stay -----

def travellers_leave(state: ClocktowerState) -> list[Event]:
    """"Travellers ... may stay for a maximum of 3 cycles": one who joined on day D leaves when
    day D+2 ends (the cycle they joined in counts). A Scapegoat executed that day stays, dead,
    through the night, so the Undertaker can learn it; it leaves at the next dusk."""
    events: list[Event] = []
    for seat in [s for s in state.seats if s.traveller and state.day >= s.joined_day + 2
                 and s.player != state.executed]:
        label = state.label(seat.player)
        events += unseat(state, seat).events
        events.append(Event(type="traveller_done", audience=STORYTELLER, title="🧳 A Traveller's stay is over",
                            text=f"{label} has stayed 3 cycles, the most the rulebook allows: they left."))
    return events


def traveller_moves(state: ClocktowerState) -> list[StorytellerAction]:
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
    if state.executed and state.stage != "locked" and scapegoats(state, state.seat_of(state.executed)):
        moves.append(ScapegoatInstead(player=st))
    return moves


HANDLERS: dict[str, Handler] = {"apprentice": gain_ability}
