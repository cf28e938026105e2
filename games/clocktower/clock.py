"""The week's clock: nightfall, the night's stages to the lock and dawn, the day's stages to its
end and execution, and the wait while the Storytellers confirm a mechanical end. Each stage's
deadline is a ``phase_timeout``; the stages and their lengths are in ``stages``.
"""

from __future__ import annotations

from games.engine import STORYTELLER, Event, Handler, Outcome, PhaseTimeout, Rng, public, to_thread

from .actions import Continue
from .bmr_day import mastermind_day_end
from .bmr_night import at_dusk
from .bmr_travellers import bishop_due
from .fabled import fiddle_closes
from .info import names
from .inform import information_at_dawn
from .night import choices_summary, lock_reminders, night_asks, night_sheet, resolve_night, roll_choices
from .rules import chars, hours, illegal, impaired, set_stage, talk_data
from .snv_day import vortox_end
from .snv_judged import judged_today
from .snv_madness import madness_ends, madness_told
from .snv_night import CURSED, bone_collector_dusk
from .snv_travellers import barista_due, butcher_window
from .snv_twins import good_blocked, good_win_held, twin_end
from .stages import next_stage, stages
from .state import ClocktowerState, PendingEnd
from .succession import after_the_night
from .talk import exiles_at_close, goblin_claimed, whispers_at_dawn
from .tally import execution, lleech_follows, mayor_end, mechanical_end, tally_event
from .travellers import apprentices_due, travellers_leave

# ----- night and day -----

def nightfall(state: ClocktowerState, opening: str = "") -> list[Event]:
    events = travellers_leave(state)
    poison_wears_off(state)
    at_dusk(state)
    roll_choices(state)
    state.silence = False
    state.night += 1
    state.round = state.night
    set_stage(state, "night", stages(state.settings, "night")[0][0])
    lock = state.settings.lock_seconds
    text = (f"{opening + ' ' if opening else ''}Public talk and whispers are closed until dawn. "
            "Send your night action to the Storytellers in your private thread"
            + (f"; night actions lock {hours(lock)} before dawn." if lock else "."))
    return [*events, public("night", text, title=f"🌙 Night {state.night} falls", opens_phase=True,
                            data=talk_data(state, "closed")), night_sheet(state), *night_asks(state),
            *apprentices_due(state), *barista_due(state)]


def poison_wears_off(state: ClocktowerState) -> None:
    """Dusk: the Poisoner's poison ("tonight and tomorrow day"), the Witch's curse and the Bone
    Collector's regained ability end."""
    state.reminders = [r for r in state.reminders if not (r.source == "poisoner" and "poison" in r.token.lower())
                       and not (r.source == "witch" and r.token == CURSED)]
    bone_collector_dusk(state)


def phase_timeout(state: ClocktowerState, action: PhaseTimeout, rng: Rng) -> Outcome:
    """A stage's deadline: the next stage, dawn, or the day's end and its execution."""
    if state.phase == "fiddle" and state.stage == "voting":
        return fiddle_closes(state, "its time is up")
    if state.phase not in ("night", "day"):
        return Outcome(state=state)  # setup, a pending end and the Demon's fiddle choice wait
    following = next_stage(state)
    if following is None:
        return dawn(state) if state.phase == "night" else end_of_day(state)
    set_stage(state, state.phase, following)
    events: list[Event] = []
    if following == "closing":
        events += lock_reminders(state)
    elif following == "locked":
        events.append(public("actions_locked", f"Night actions are locked; dawn comes in "
                             f"{hours(state.settings.lock_seconds)}.",
                             title=f"🌙 Night {state.night}: actions locked", opens_phase=True))
        events.append(Event(type="locked", audience=STORYTELLER, title="🔒 Night actions are locked",
                            text=f"Night {state.night}'s actions are locked; dawn comes in "
                                 f"{hours(state.settings.lock_seconds)}."))
        events.append(choices_summary(state))
        madness_ends(state)
        events += resolve_night(state)
        events += after_the_night(state) + madness_told(state)
    elif following == "voting" and not state.voting_closed:
        events.append(public("nominations_closed", "Nominations are closed: vote on today's nominations"
                             + (" or for no execution." if state.settings.no_execution_after_nominations
                                else "."), title=f"☀️ Day {state.day}: voting only", opens_phase=True))
        events.append(tally_event(state))
    elif following == "final":
        events.append(Event(type="announcements_closed", audience=to_thread("announcements"),
                            text=f"Public announcements for day {state.day} are closed."))
        if not state.voting_closed:
            events.append(public("announcements_closed", "Public announcements are closed for today; "
                                 "voting goes on.", title=f"☀️ Day {state.day}: last hours", opens_phase=True))
            events.append(tally_event(state))
    return Outcome(state=state, events=events)


def dawn(state: ClocktowerState) -> Outcome:
    information = information_at_dawn(state)
    state.abnormal, state.silence = [], False
    state.day = state.night
    set_stage(state, "day", stages(state.settings, "day")[0][0])
    state.nominations, state.votes = [], {}
    state.negative, state.negative_tomorrow = state.negative_tomorrow, []
    state.executed, state.executed_impaired, state.execution_killed, state.voting_closed = "", "", False, False
    state.first_executed, state.first_executed_impaired = "", ""
    state.early_end_told = False
    state.exiles, state.exiled, state.announcements, state.judge_failed = {}, [], [], ""
    state.dead_at_dawn = [s.player for s in state.seats if not s.alive]
    whispers_at_dawn(state)
    died = [s.player for s in state.seats if s.player in state.dawn_deaths]
    revived = [s.player for s in state.seats if s.player in state.dawn_revivals]
    state.dawn_deaths, state.dawn_revivals = [], []
    lines = [f"💀 {names(state, died)} died in the night." if died else "Nobody died in the night."]
    if revived:
        lines.append(f"✨ {names(state, revived)} {'lives' if len(revived) == 1 else 'live'} again.")
    ending = pending_end(state, resume="day")  # (or the Storytellers' note that the twins hold good's win)
    if state.pending_end is not None:  # the deaths only: the day opens when the Storytellers go on (``/st continue``)
        return Outcome(state=state, events=[public("dawn", "\n".join(lines), title=f"☀️ Day {state.day} dawns",
                                                   data=talk_data(state, "open")),
                                            *information, *judged_today(state), *ending])
    lines.append(f"Nominations are open for {hours(state.settings.nomination_seconds)}: the first vote "
                 "today on a player (`/vote`) nominates them. Votes move until the day ends; no "
                 "execution is a vote too.")
    return Outcome(state=state, events=[
        public("dawn", "\n".join(lines), title=f"☀️ Day {state.day} dawns", opens_phase=True,
               data=talk_data(state, "open")),
        tally_event(state), *information, *judged_today(state), *bishop_due(state), *ending])


def end_of_day(state: ClocktowerState, early: bool = False) -> Outcome:
    """The day ends: open exile calls are settled, the plurality is executed unless today's
    execution already happened, and night falls (or the Storytellers confirm an end)."""
    events = exiles_at_close(state)
    if not state.voting_closed:
        events += execution(state, early)
    events += lleech_follows(state)
    ending = pending_end(state, resume="night")
    if state.pending_end is None:
        events += butcher_window(state) or nightfall(state)
    return Outcome(state=state, events=events + ending)


# ----- a mechanical end, confirmed or not -----

def pending_end(state: ClocktowerState, *, resume: str, found: PendingEnd | None = None) -> list[Event]:
    """When the rules end the game, wait for the Storytellers to confirm (the town hears
    nothing of it until they do). ``found``: an end the caller found (the Klutz's choice).
    Callers test ``state.pending_end``, not the events: good's win held back by the twins is said
    to the Storytellers and the game goes on."""
    found = found or goblin_end(state) or twin_end(state) or mechanical_end(state, chars(state))
    if found is None and resume == "night":
        found = vortox_end(state) or mayor_end(state) or mastermind_day_end(state)
    if found is None:
        return []
    blocked = good_blocked(state) if found.team == "good" else ""
    if blocked:  # the Evil Twin: "good can't win if you both live"
        return good_win_held(state, found, blocked)
    state.pending_end = found.model_copy(update={"resume": resume})
    set_stage(state, "ending", "")
    politicians = [s for s in state.seats if s.character == "politician" and s.alignment != found.team]
    offer = (f"\nThe Politician ({names(state, [s.player for s in politicians])}) is on the losing side: "
             f"if they were the player most responsible for it, add `politician:True` and they change "
             "alignment and win." if politicians else "")
    return [Event(type="pending_end", audience=STORYTELLER, title="🏁 The game may be over",
                  text=f"By the rules, **{found.team}** wins: {found.reason}.{offer}\n"
                       f"`/st win team:{found.team}` announces it; `/st continue` goes on to the "
                       f"{resume} instead. The town has been told nothing yet.")]


def goblin_end(state: ClocktowerState) -> PendingEnd | None:
    """"If you publicly claim to be the Goblin when nominated & are executed that day, your
    team wins": today's executed player made a claim that counts and is the working Goblin."""
    if not state.executed:
        return None
    seat = state.seat_of(state.executed)
    if not seat.has("goblin") or not goblin_claimed(state, seat.player):
        return None
    why = impaired(state, seat.player)
    if why:
        state.note_abnormal(seat.player, f"the Goblin's claim failed ({why})")
        return None
    return PendingEnd(team=seat.alignment, reason=f"the Goblin, {state.label(seat.player)}, was executed "
                                                  "after claiming when nominated")


def go_on(state: ClocktowerState, action: Continue, rng: Rng) -> Outcome:
    pending = state.pending_end
    if state.phase != "ending" or pending is None:
        raise illegal("There is no end of the game waiting for you to confirm.", "nothing_pending")
    state.pending_end = None
    if pending.resume == "night":
        return Outcome(state=state, events=nightfall(state), reply="Night falls.")
    set_stage(state, "day", stages(state.settings, "day")[0][0])
    return Outcome(state=state, events=[
        public("day_resumed", "The day goes on: nominations are open.", title=f"☀️ Day {state.day}",
               opens_phase=True), tally_event(state)], reply="The day goes on.")


HANDLERS: dict[str, Handler] = {"phase_timeout": phase_timeout, "continue": go_on}
