"""The day's shots: the Slayer's and the Gunslinger's.

The Slayer's: "Once per game, during the day, publicly choose a player: if they are the
Demon, they die." Anyone may claim a shot (a bluff as much as the real one), once per game each,
alive, by day, in the announcements; it kills only when made by a working Slayer at a living
Demon. A drunk or poisoned Slayer's shot is spent all the same. A Recluse "might register as" the
Demon: the Storytellers decide, so it is flagged to them and nothing happens unless they kill.
"""

from __future__ import annotations

from games.engine import STORYTELLER, Event, Outcome, Rng, public, record

from .actions import GunslingerShot, SlayerShot
from .clock import pending_end
from .rules import chars, illegal, impaired, target_seat
from .snv_night import holds_regained, regains_ability
from .state import Announcement, ClocktowerState, Seat
from .succession import demon_died
from .talk import announced, announcing


def slayer_shot(state: ClocktowerState, action: SlayerShot, rng: Rng) -> Outcome:
    if state.phase != "day":
        raise illegal("The Slayer chooses by day only, publicly.", "not_day")
    seat = announcing(state, action, action.place)
    if not seat.alive and not holds_regained(state, seat):  # (the Bone Collector's choice: until dusk)
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
    why = impaired(state, seat.player) or ("" if seat.alive or regains_ability(state, seat) else
                                           "dead, and the Bone Collector that gave the ability back is drunk or poisoned")
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


def gunslinger_shot(state: ClocktowerState, action: GunslingerShot, rng: Rng) -> Outcome:
    """The Gunslinger (a Traveller: its character is public) shoots, once a day, a player whose
    vote stands today, once any vote does ("after the 1st vote has been tallied"): they die."""
    if state.phase != "day" or state.pending_end is not None:
        raise illegal("The Gunslinger shoots by day only.", "not_day")
    seat = target_seat(state, action.player)
    if not seat.has("gunslinger") or not (seat.alive or holds_regained(state, seat)):
        raise illegal("Only the living Gunslinger shoots.", "not_gunslinger")
    if state.gunslinger_day == state.day:
        raise illegal("You have already shot today: the Gunslinger shoots once a day.", "spent")
    if not state.votes:
        raise illegal("Nobody has voted yet today: the Gunslinger shoots after the first vote.", "no_vote")
    target = target_seat(state, action.target)
    if target.player not in state.votes:
        raise illegal(f"{state.label(target.player)} did not vote (no vote of theirs stands today): the "
                      "Gunslinger shoots a player that voted.", "not_a_voter")
    state.gunslinger_day = state.day
    why = impaired(state, seat.player) or ("" if seat.alive or regains_ability(state, seat) else
                                           "dead, and the Bone Collector that gave the ability back is drunk or poisoned")
    events: list[Event] = []
    kills = not why and target.alive
    if not kills:
        if why:
            state.note_abnormal(seat.player, f"the Gunslinger, {why}, shot {state.label(target.player)}: nothing happened")
        result = "nothing happens."
    else:
        target.alive, target.vote_token = False, True
        result = f"{state.label(target.player)} dies."
        events += demon_died(state, target)
    events[:0] = [public("gunslinger", f"🔫 {state.label(seat.player)}, the Gunslinger, shoots "
                                       f"{state.label(target.player)}: {result}"),
                  record("gunslinger", {"day": state.day, "by": seat.player, "target": target.player,
                                        "killed": kills})]
    if kills:
        events += pending_end(state, resume="day")
    return Outcome(state=state, events=events, reply=f"You shot {state.label(target.player)}.")
