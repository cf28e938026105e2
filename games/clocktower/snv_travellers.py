"""Sects & Violets' Travellers: the Butcher's second nomination and the Barista's cup. The Bone
Collector's dead player who regains their ability until dusk is read by the night (``snv_night``:
``regains_ability``, its reminders moved by its choice in ``night.py``); the Harlot's visit is the
Waitress's (``night.py``, its step in ``snv_night``); the Deviant is the Storytellers' call at an
exile (``talk.py``).

- The Butcher: "Each day, after the 1st execution, you may nominate again." Once today's execution
  has happened (at the day's end, or before it: the Virgin, the Judge, `/st execute`), a living
  Butcher may nominate once more (`/announce butcher`): the town votes on that nominee or for no
  execution as on any nomination, without having to beat the first execution's count, and the
  plurality is executed when that vote ends. An execution at the day's end opens a Butcher's stage
  (as long as the nominations stage) before night falls; a second execution allows no third.
  Exiles are not executions. A drunk or poisoned Butcher's nomination is spent and nothing happens.

- The Barista: "Each night, until dusk, 1) a player becomes sober, healthy & gets true info, or 2)
  their ability works twice. They learn which." The Storytellers choose the player and which (the
  wiki): asked at dusk, they give it with `/st traveller barista` before the night's actions lock
  (again to change it). The player is told which; the Barista nothing. Sober & healthy: no drunkenness
  or poisoning reaches them until dusk (``rules.impaired``), and the copilot's answers for them are the
  true ones, the Vortox's too. Twice: a spent once-per-game night ability is asked again; a second use
  of any other ability is the Storytellers' to run (they are told).

It imports the rules, the tally, the night's asks and the state; the day and the clock call it.
"""

from __future__ import annotations

from games.engine import STORYTELLER, Action, Event, Handler, Outcome, Rng, private, public, record

from .actions import BaristaCup, ButcherNominate
from .night import ask_event
from .rules import hours, illegal, impaired, set_stage, target_seat
from .snv_day import witch_curse
from .snv_night import SOBER, TWICE
from .state import ClocktowerState, Nomination, Reminder, Seat
from .tally import tally_event

#: the day's stage after an execution at its end, while the Butcher may nominate again
BUTCHER_STAGE = "butcher"


# ----- the Butcher -----

def _butcher(state: ClocktowerState) -> Seat | None:
    return next((s for s in state.seats if s.has("butcher") and s.alive), None)


def butcher_window(state: ClocktowerState) -> list[Event]:
    """At the day's end, after its execution: a living Butcher may nominate again, in a stage of its
    own before night falls ([] when there is none, or it was offered today already)."""
    seat = _butcher(state)
    if seat is None or not state.executed or state.butcher_day == state.day:
        return []
    state.butcher_day = state.day
    state.voting_closed = True
    set_stage(state, "day", BUTCHER_STAGE)
    return [public("butcher", f"🔪 Today's execution has happened: {state.label(seat.player)}, the Butcher, may "
                              f"nominate again within {hours(state.settings.nomination_seconds)} "
                              "(`/announce butcher`). Night falls after that vote, or if they do not.",
                   title=f"☀️ Day {state.day}: the Butcher", opens_phase=True)]


def butcher_nominate(state: ClocktowerState, action: ButcherNominate, rng: Rng) -> Outcome:
    if state.phase != "day" or state.pending_end is not None:
        raise illegal("The Butcher nominates by day.", "not_day")
    seat = target_seat(state, action.player)
    if not seat.has("butcher") or not seat.alive:
        raise illegal("Only the living Butcher nominates again after an execution.", "not_butcher")
    if not state.executed:
        raise illegal("Nobody has been executed today: the Butcher nominates again only after today's first "
                      "execution (an exile is not one).", "no_execution")
    if not state.voting_closed or (state.butcher_day == state.day and state.stage != BUTCHER_STAGE):
        raise illegal("The Butcher has nominated again today: a second execution does not allow a third.", "spent")
    nominee = target_seat(state, action.target)
    if nominee.traveller:
        raise illegal(f"{state.label(nominee.player)} is a Traveller: Travellers are exiled, not executed.",
                      "traveller")
    state.butcher_day = state.day
    said = f"📢 {state.label(seat.player)}, the Butcher, nominates {state.label(nominee.player)}."
    why = impaired(state, seat.player)
    if why:
        if state.stage == BUTCHER_STAGE:
            set_stage(state, "day", BUTCHER_STAGE)  # the stage's vote is spent: night falls at its end
        state.note_abnormal(seat.player, f"the Butcher, {why}, nominated again: nothing happened")
        return Outcome(state=state, events=[public("nomination", said), Event(
            type="butcher", audience=STORYTELLER, title="🔪 The Butcher",
            text=f"The Butcher, {state.label(seat.player)}, is {why}: the nomination is spent and nothing happens "
                 "(the town heard it; no vote opens).")], reply="Your nomination is made.")
    state.nominations = [Nomination(nominee=nominee.player, nominator=seat.player)]
    state.votes, state.voting_closed, state.early_end_told = {}, False, False
    if state.stage == BUTCHER_STAGE:
        set_stage(state, "day", BUTCHER_STAGE)  # a fresh deadline for the vote
    events = [public("nomination", f"{said} Vote on it, or for no execution, until "
                                   + ("this stage ends." if state.stage == BUTCHER_STAGE else "the day ends.")),
              tally_event(state), *witch_curse(state, seat)]
    return Outcome(state=state, events=events, reply=f"You nominated {state.label(nominee.player)}.")


# ----- the Barista -----

def _barista(state: ClocktowerState) -> Seat | None:
    return next((s for s in state.seats if s.has("barista") and s.alive), None)


def barista_due(state: ClocktowerState) -> list[Event]:
    """At dusk: the living Barista's cup tonight is the Storytellers' to serve."""
    seat = _barista(state)
    if seat is None:
        return []
    return [Event(type="barista_due", audience=STORYTELLER, title="☕ The Barista",
                  text=f"The Barista, {state.label(seat.player)}, is in play: choose tonight's player and whether "
                       "they become sober, healthy & get true information, or their ability works twice, until "
                       "dusk: `/st traveller barista player:@p effect:sober|twice` before the night's actions "
                       "lock. They learn which; the Barista learns nothing.")]


def barista_cup(state: ClocktowerState, action: BaristaCup, rng: Rng) -> Outcome:
    if state.phase != "night" or state.stage == "locked":
        raise illegal("The Barista's cup is served at night, before the night's actions lock.", "not_night")
    seat = _barista(state)
    if seat is None:
        raise illegal("No living Barista is in play.", "no_barista")
    target = target_seat(state, action.target)
    state.reminders = [r for r in state.reminders if r.source != "barista"]  # one player a night
    why = impaired(state, seat.player)
    if why:
        state.note_abnormal(seat.player, f"the Barista, {why}: nothing happened to {state.label(target.player)}")
        return Outcome(state=state, events=[Event(
            type="barista", audience=STORYTELLER, title="☕ The Barista",
            text=f"The Barista, {state.label(seat.player)}, is {why}: nothing happens to "
                 f"{state.label(target.player)} (`/st tell` them something if you wish).")],
            reply="The Barista is drunk or poisoned: nothing happens.")
    sober = action.effect == "sober"
    state.reminders.append(Reminder(player=target.player, token=SOBER if sober else TWICE, source="barista"))
    told = ("until dusk, you are sober and healthy, and your information is true." if sober else
            "until dusk, your ability works twice.")
    events: list[Event] = [private(target.player, "barista", f"☕ The Barista: {told}", title="The Barista"),
                           record("barista", {"night": state.night, "player": target.player,
                                              "effect": action.effect})]
    note = "they are sober & healthy and their information true until dusk (the copilot proposes the truth)."
    if not sober:
        note = ("their ability works twice until dusk: wake them a second time for a night ability and apply "
                "its second use with your commands (the bot asks them once; their night's information, if any, takes "
                "two answers: `/st inform` twice)")
        if target.player in state.used_once:  # "If they have already used a 'once per game' ability, they may
            state.used_once.remove(target.player)  # use that ability again"
            asked = ask_event(state, target)
            events += [asked] if asked is not None else []
            note += "; their spent once-per-game ability is theirs again tonight (they are asked)."
        else:
            note += "."
    events.append(Event(type="barista", audience=STORYTELLER, title="☕ The Barista",
                        text=f"The Barista's cup: {state.label(target.player)}: {note} They were told which."))
    return Outcome(state=state, events=events, reply=f"{state.label(target.player)}: {note}")


def snv_traveller_moves(state: ClocktowerState) -> list[Action]:
    """For random play-throughs: a Barista's cup by night, a Butcher's second nomination by day."""
    moves: list[Action] = []
    living = [s for s in state.seats if s.alive and not s.traveller]
    if not living:
        return moves
    barista = _barista(state)
    if state.phase == "night" and state.stage != "locked" and barista is not None:
        moves.append(BaristaCup(player="storyteller", target=living[state.night % len(living)].player,
                                effect="sober" if state.night % 2 else "twice"))
    butcher = _butcher(state)
    if state.phase == "day" and butcher is not None and state.executed and state.voting_closed \
            and (state.butcher_day != state.day or state.stage == BUTCHER_STAGE):
        moves.append(ButcherNominate(player=butcher.player, target=living[state.day % len(living)].player))
    return moves


HANDLERS: dict[str, Handler] = {"butcher_nominate": butcher_nominate, "barista": barista_cup}
