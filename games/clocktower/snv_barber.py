"""Sects & Violets' Barber: "If you died today or tonight, the Demon may choose 2 players (not
another Demon) to swap characters."

The night after a Barber died by day, each living Demon is asked a second question (``haircut_asks``,
``haircut_prompts``: a "haircut" night choice, kept in ``state.haircut`` until the lock); after the
walk (the Barber wakes after the Demons, and works dead) ``haircut_steps`` puts the swap in the plan,
which ``snv_swaps.apply_swap`` applies at the lock. A Barber who dies tonight is flagged: the Demon's
choices are closed by then, so the swap is the Storytellers' to ask for and make.
"""

from __future__ import annotations

from games.engine import STORYTELLER, Choice, Event, IllegalAction, Outcome, Prompt, PromptField, private

from .bmr_night import died_today
from .rules import NO_ONE_TONIGHT, choice_text, impaired, lives
from .script_characters import characters_for
from .snv_swaps import apply_swap
from .state import ClocktowerState, Seat
from .walk import Effect, Night, Step


def _team(state: ClocktowerState, seat: Seat) -> str:
    return "traveller" if seat.traveller else characters_for(state.script)[seat.character].team


def barber_due(state: ClocktowerState) -> Seat | None:
    """"If you died today or tonight, the Demon may choose 2 players (not another Demon) to swap
    characters": the Barber who died today (since dawn) or tonight, whose haircuts are tonight."""
    today = died_today(state) + (state.dawn_deaths if state.phase == "night" else [])
    return next((s for s in state.seats if s.character == "barber" and not s.traveller and s.player in today), None)


def _woken(state: ClocktowerState) -> bool:
    """The Barber died of the night's lock itself: the Demon is woken to choose now, once."""
    barber = barber_due(state)
    return (state.stage == "locked" and barber is not None and barber.player in state.killed_tonight
            and not state.haircut)


def _demon(state: ClocktowerState, seat: Seat) -> bool:
    return _team(state, seat) == "demon"


def haircut_demons(state: ClocktowerState) -> list[Seat]:
    """The Demons asked for the Barber's haircuts tonight (none unless a Barber died today)."""
    if state.phase != "night" or barber_due(state) is None:
        return []
    return [s for s in state.seats if _demon(state, s) and lives(state, s)]


HAIRCUT_ASK = ("✂️ The Barber died: you may choose 2 players (not another Demon; yourself allowed) to swap "
               "characters (not alignments). Choose them with **The Barber's haircuts**, or choose no-one, before "
               "the night's actions lock.")


WOKEN_ASK = ("✂️ The Barber died tonight: you are woken. You may choose 2 players (not another Demon; yourself "
             "allowed) to swap characters (not alignments), with **Make my choice**: it happens at once, before "
             "dawn. Or choose no-one.")


def haircut_asks(state: ClocktowerState) -> list[Event]:
    """At dusk, the Demon's second question of the night, in its thread; at the lock that killed the
    Barber, the Demon woken to choose now."""
    if state.stage == "locked" and not _woken(state):
        return []
    text, title = (WOKEN_ASK, "you are woken") if state.stage == "locked" else (HAIRCUT_ASK, "your choice")
    return [private(s.player, "night_ask", text, title=f"Night {state.night}: {title}")
            for s in haircut_demons(state)]


def haircut_prompts(state: ClocktowerState, player: str) -> list[Prompt]:
    """The Demon's select of 2 players for the haircuts, and a button for no-one."""
    if (state.stage == "locked" and not _woken(state)) or player not in [s.player for s in haircut_demons(state)]:
        return []
    title = f"Night {state.night}: the Barber's haircuts"
    now = f"\nYour choice: {choice_text(state, state.haircut)}." if state.haircut else "\nYou have not chosen yet."
    choices = [Choice(value=s.player, label=state.label(s.player)[:100]) for s in state.seats
               if not s.traveller and not (_demon(state, s) and s.player != player)][:25]
    return [Prompt(action="haircut", title=title, text=HAIRCUT_ASK + now,
                   fields=[PromptField(name="targets", placeholder="Choose 2…", choices=choices,
                                       min_values=2, max_values=2)]),
            Prompt(action="haircut", title=title, submit_label="No haircuts", extra={"targets": [NO_ONE_TONIGHT]})]


def _refuse(text: str, code: str) -> IllegalAction:
    return IllegalAction(text, code=code)


def haircut_choice(state: ClocktowerState, player: str, targets: list[str]) -> Outcome:
    """The Demon's haircuts: 2 players (not another Demon, not a Traveller) or no-one; editable until
    the lock, kept for the Storytellers."""
    if player not in [s.player for s in haircut_demons(state)]:
        raise _refuse("You have no haircuts to choose tonight.", "nothing_to_choose")
    if state.stage == "locked" and not _woken(state):
        raise _refuse("Night actions are locked: tell the Storytellers in your thread if something went wrong.",
                      "locked")
    targets = list(dict.fromkeys(targets))
    if targets != [NO_ONE_TONIGHT]:
        if len(targets) != 2:
            raise _refuse("Choose 2 different players, or no-one.", "count")
        for target in targets:
            if not state.seated(target):
                raise _refuse("That player is not seated in this game.", "not_seated")
            seat = state.seat_of(target)
            if seat.traveller:
                raise _refuse(f"{state.label(target)} is a Traveller: choose another player.", "traveller")
            if _demon(state, seat) and target != player:
                raise _refuse(f"{state.label(target)} is another Demon: choose another player.", "another_demon")
    said = "no-one" if targets == [NO_ONE_TONIGHT] else choice_text(state, targets)
    if state.stage == "locked":
        return _at_once(state, player, targets, said)
    state.haircut = targets
    demon = state.seat_of(player)
    return Outcome(state=state, events=[Event(
        type="night_choice", audience=STORYTELLER, title=f"🌙 Night {state.night}: the Barber's haircuts",
        text=f"The Demon, {state.label(player)} ({characters_for(state.script)[demon.character].name}), chose "
             f"{said} to swap characters.")],
        reply=f"Your haircuts tonight: {said}. You may change it until the night's actions lock.")


def _at_once(state: ClocktowerState, player: str, targets: list[str], said: str) -> Outcome:
    """The woken Demon's haircuts, after the lock: applied now (the Barber sober), told, kept."""
    state.haircut = targets
    barber = barber_due(state)
    why = impaired(state, barber.player) if barber is not None else ""
    events: list[Event] = []
    done = "no swap (no-one chosen)"
    if targets != [NO_ONE_TONIGHT] and why:
        state.note_abnormal(barber.player if barber else player, f"the Barber: impaired ({why}): no swap")
        done = f"no swap: the Barber is impaired ({why})"
    elif targets != [NO_ONE_TONIGHT]:
        told, lines = apply_swap(state, Effect("swap", targets[0], "barber", targets[1]))
        events += told
        done = "; ".join(lines) + " (each told)"
    events.append(Event(type="night_choice", audience=STORYTELLER, title=f"🌙 Night {state.night}: the Barber's haircuts",
                        text=f"The Demon, woken as the Barber died tonight, chose {said}: {done}. Overrule with "
                             "`/st character` before dawn."))
    return Outcome(state=state, events=events, reply=f"Your haircuts: {said}. Done.")


def haircut_line(state: ClocktowerState) -> list[str]:
    """The lock's summary line of the haircuts (none unless a Barber died today)."""
    if not haircut_demons(state):
        return []
    said = ("no-one" if state.haircut == [NO_ONE_TONIGHT] else choice_text(state, state.haircut)) if state.haircut \
        else "**nothing submitted** (no swap)"
    return [f"• The Barber's haircuts, chosen by the Demon: {said}"]


def haircut_steps(night: Night) -> list[Step]:
    """After the walk (the Barber wakes after the Demons, and works dead): today's dead Barber's swap, if
    the Demon chose 2 players and the Barber is sober; a Barber who died tonight is flagged, the swap
    then being the Storytellers' to ask for and make."""
    state = night.state
    steps = []
    barber = barber_due(state)
    if barber is not None:
        step = Step(player=barber.player, character="barber", chose=state.haircut or None)
        why = night.impaired(barber.player)
        if not state.haircut or state.haircut == [NO_ONE_TONIGHT]:
            step.notes.append("the Demon chose no haircuts: nothing happens.")
        elif why:
            step.notes.append(f"impaired ({why}): no swap.")
            step.abnormal = f"impaired ({why}): no swap"
        else:
            one, other = state.haircut
            step.effects.append(Effect("swap", one, "barber", other))
            step.notes.append(f"{night.label(one)} and {night.label(other)} swap characters, not alignments "
                              "(each told their new character).")
            twins = [p for p in (one, other) if state.seat_of(p).character == "eviltwin"
                     or any(r.player == p and r.source == "eviltwin" for r in state.reminders)]
            if twins:
                step.notes.append("an Evil Twin's pair is among them: whom the pair is now is your call "
                                  "(`/st reminder` the Twin token).")
        steps.append(step)
    for seat in state.seats:
        if seat.character == "barber" and not seat.traveller and seat.player in night.dying \
                and seat.player not in died_today(state) + state.dawn_deaths:
            step = Step(player=seat.player, character="barber", chose=None)
            step.notes.append("the Barber died tonight: the Demon is woken to choose 2 players (not another Demon) "
                              "to swap characters; its choice applies at once, before dawn (you are told).")
            steps.append(step)
    return steps
