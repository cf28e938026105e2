"""The Slayer's shot: "Once per game, during the day, publicly choose a player: if they are the
Demon, they die." Anyone may claim a shot (a bluff as much as the real one), once per game each,
alive, by day, in the announcements; it kills only when made by a working Slayer at a living
Demon. A drunk or poisoned Slayer's shot is spent all the same. A Recluse "might register as" the
Demon: the Storytellers decide, so it is flagged to them and nothing happens unless they kill.
"""

from __future__ import annotations

from games.engine import STORYTELLER, Event, Outcome, Rng, public

from .actions import SlayerShot
from .clock import pending_end
from .rules import chars, illegal, impaired, target_seat
from .state import Announcement, ClocktowerState, Seat
from .succession import demon_died
from .talk import announced, announcing


def slayer_shot(state: ClocktowerState, action: SlayerShot, rng: Rng) -> Outcome:
    if state.phase != "day":
        raise illegal("The Slayer chooses by day only, publicly.", "not_day")
    seat = announcing(state, action, action.place)
    if not seat.alive:
        raise illegal("You are dead: the dead have no Slayer's shot.", "dead")
    if seat.player in state.slayer_shots:
        raise illegal("You have already made your Slayer's shot: it is once per game.", "spent")
    target = target_seat(state, action.target)
    state.slayer_shots.append(seat.player)
    kills, told = _works(state, seat, target)
    result = f"{state.label(target.player)} dies." if kills else "nothing happens."
    events: list[Event] = []
    if kills:
        target.alive, target.vote_token = False, True
        events.append(public("death", f"💀 {state.label(target.player)} has died."))
        events += demon_died(state, target)
    outcome = announced(state, Announcement(kind="slayer", by=seat.player, target=target.player),
                        f"chooses {state.label(target.player)}, as the Slayer: {result}", [*events, *told])
    if kills:
        outcome.events += pending_end(state, resume="day")
    return outcome


def _works(state: ClocktowerState, seat: Seat, target: Seat) -> tuple[bool, list[Event]]:
    """Whether the shot kills, and what the Storytellers are told."""
    if not seat.has("slayer") or seat.traveller:
        return False, []
    why = impaired(state, seat.player)
    if why:
        state.note_abnormal(seat.player, f"the Slayer, {why}, shot {state.label(target.player)}: nothing happened")
        return False, [_tell(f"{state.label(seat.player)}, the Slayer, is {why}: the shot at "
                             f"{state.label(target.player)} is spent and nothing happens.")]
    if not target.alive:
        return False, []
    if chars(state)[target.character].team == "demon" and not target.traveller:
        return True, []
    if target.has("recluse") and not impaired(state, target.player):
        return False, [_tell(f"{state.label(seat.player)}, the Slayer, shot the Recluse, {state.label(target.player)}, "
                             "who might register as the Demon: the town was told nothing happens. If you rule "
                             "that it registers, `/st kill` them (the town sees the death at once).")]
    return False, []


def _tell(text: str) -> Event:
    return Event(type="slayer", audience=STORYTELLER, title="🏹 The Slayer's shot", text=text)
