"""Madness (Sects & Violets): the Cerenovus's "mad" mark, the Mutant's, and the Storytellers' ruling.

The Cerenovus: "Each night, choose a player & a good character: they are "mad" they are this character
tomorrow, or might be executed." The Mutant: "If you are "mad" about being an Outsider, you might be
executed." Whether a player broke their madness is always the Storytellers' judgement. The bot keeps who
is mad (a "Mad: <character>" reminder the Cerenovus's step puts on its choice at the lock, kept through
the next day and night until the next lock), tells the mad player at once, names the mad to the
Storytellers at dawn, on the night sheet and at each nomination, and records their ruling when they
execute a mad player (``/st execute``: by day it is the day's one execution; at night, for madness only,
the player dies at once, declared to the town, and the next day may still have its execution).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.engine import STORYTELLER, Event, Outcome, private, public, record

from .rules import illegal, impaired
from .state import ClocktowerState, Seat
from .succession import demon_died
from .walk import Effect, Step, impaired_note, submitted

if TYPE_CHECKING:  # the walk's type only: resolve imports this module
    from .resolve import _Night

#: the Cerenovus's reminder ("Mad: Savant")
MAD = "Mad"
GOOD_TEAMS = ("townsfolk", "outsider")


def mad_character_allowed(state: ClocktowerState, character: str, team: str) -> bool:
    """A character the Cerenovus may choose: a good one (a Townsfolk or an Outsider), or the Goblin where
    the script has their jinx ("The Cerenovus may choose to make a player mad that they are the Goblin")."""
    return team in GOOD_TEAMS or (character == "goblin" and goblin_jinx(state))


def goblin_jinx(state: ClocktowerState) -> bool:
    return any(set(j.characters) == {"cerenovus", "goblin"} for j in state.script.jinxes)


def _mad_tokens(state: ClocktowerState, player: str = "") -> list[str]:
    """The Cerenovus's "Mad" tokens (on ``player``, or on anyone)."""
    return [r.token for r in state.reminders if r.source == "cerenovus" and r.token.split(":")[0].strip() == MAD
            and (not player or r.player == player)]


# ----- the night -----

def _cerenovus(night: _Night, seat: Seat, step: Step) -> None:
    """The Cerenovus's step: its player is mad about its good character tomorrow (a "Mad" token)."""
    chose = submitted(step)
    if chose is None:
        return
    state, known = night.state, night.chars
    character = state.night_answers.get(seat.player, "")
    if character not in known or not mad_character_allowed(state, character, known[character].team):
        step.notes.append("no good character chosen: nobody is made mad (place a `Mad: <character>` token, "
                          "source cerenovus, with `/st reminder` if you rule otherwise).")
        return
    if impaired_note(night, seat, step, "nobody is made mad."):
        return
    name = known[character].name
    step.effects.append(Effect("token", chose[0], "cerenovus", token=f"{MAD}: {name}"))
    step.notes.append(f"{night.label(chose[0])} is told now that they are \"mad\" that they are the {name} tomorrow; "
                      "if they break it, you may execute them (`/st execute`, by day or night): your judgement.")


MADNESS_ACTS = {"cerenovus": _cerenovus}


def madness_ends(state: ClocktowerState) -> None:
    """At the lock, before the night's steps: yesterday's madness ends as tonight's is chosen."""
    state.reminders = [r for r in state.reminders if not (r.source == "cerenovus" and r.token in _mad_tokens(state))]


def madness_told(state: ClocktowerState) -> list[Event]:
    """After the lock's steps: each player the Cerenovus made mad learns it (the Cerenovus's token and
    the character), privately."""
    events = []
    for r in state.reminders:
        if r.source == "cerenovus" and r.token in _mad_tokens(state) and state.seated(r.player):
            name = r.token.partition(":")[2].strip()
            events.append(private(r.player, "madness", f"🌀 The Cerenovus selected you tonight: tomorrow you are "
                                  f"\"mad\" that you are the {name}, or you might be executed.", title="🌀 Madness"))
    return events


# ----- who is mad, and the Storytellers' ruling -----

def cerenovus_mad(state: ClocktowerState, player: str) -> str | None:
    """The character the Cerenovus's token says ``player`` is mad about ("" when it names none), or None."""
    for token in _mad_tokens(state, player):
        return token.partition(":")[2].strip()
    return None


def mad_of(state: ClocktowerState, player: str) -> str:
    """The madness the Storytellers may execute ``player`` for now ("" when none): the living, working
    Mutant's, or the Cerenovus's mark."""
    seat = state.seat_of(player)
    if seat.character == "mutant" and seat.alive and not seat.traveller and not impaired(state, player):
        return "being an Outsider (the Mutant)"
    name = cerenovus_mad(state, player)
    if name is None:
        return ""
    return f"being the {name} (the Cerenovus)" if name else "the Cerenovus's character"


def madness_judged(state: ClocktowerState, seat: Seat) -> list[Event]:
    """A Storyteller's execution (``/st execute``) of a player who may be executed for madness is their
    judgement of it: a ``judged`` row of the record."""
    mad = mad_of(state, seat.player)
    if not mad:
        return []
    return [record("judged", {"day": state.day, "phase": state.phase, "player": seat.player, "card": seat.character,
                              "text": f"executed by the Storytellers, judged mad about {mad}", "vortox": False})]


def mad_lines(state: ClocktowerState) -> list[str]:
    """Who is mad now, one line each (for the Storytellers)."""
    return [f"• {state.label(s.player)}: mad about {mad}" for s in state.seats if (mad := mad_of(state, s.player))]


def madness_at_nomination(state: ClocktowerState) -> list[Event]:
    """At each nomination: who is mad today, so the Storytellers may rule before the vote's execution
    (a madness execution is the day's one execution)."""
    lines = mad_lines(state)
    if not lines:
        return []
    return [Event(type="madness", audience=STORYTELLER, title=f"🌀 Day {state.day}: who is mad",
                  text="\n".join(lines) + "\nIf one broke their madness, `/st execute` them (your judgement, "
                       "recorded); it is today's execution and voting ends.")]


def execute_at_night(state: ClocktowerState, seat: Seat) -> Outcome:
    """``/st execute`` at night: only for madness (the wiki: "you may execute them that night, even if an
    execution happened today ... An execution may still happen the next day"). Declared to the town at
    once; the night goes on."""
    mad = mad_of(state, seat.player)
    if not mad:
        raise illegal(f"At night a player is executed only for breaking their madness, and "
                      f"{state.label(seat.player)} is not \"mad\" now. (`/st kill` kills anyone.)", "not_mad")
    judged = madness_judged(state, seat)
    events: list[Event] = []
    how = " and dies" if seat.alive else " (they were already dead)"
    if seat.alive:
        seat.alive, seat.vote_token = False, True
        events += demon_died(state, seat)
    news = public("execution", f"⚖️ **{state.label(seat.player)}** is executed by the Storytellers{how}. "
                               "The night goes on.", title=f"🌙 Night {state.night}: an execution")
    return Outcome(state=state, events=[news, *judged, *events],
                   reply=f"{state.label(seat.player)} is executed for madness ({mad}); the town was told. "
                         "Tomorrow may still have its execution.")
