"""The night's choices: who is asked what tonight (from ``data/night_asks.json``), their answers
kept until the lock, and what the Storytellers see of them.

Choosing is by the character a player *believes* they are (their card): the Lunatic chooses as
its Demon, the Drunk and the Marionette as their cards. What the choices do (deaths, poison,
information) is resolved with the Storytellers by the copilot; here they are asked, kept,
editable until the lock, and shown, with every missing one named (a Po that chose nothing did
not choose no-one).
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, ValidationError

from games.engine import STORYTELLER, Choice, Event, Outcome, Prompt, PromptField, private

from .actions import (
    NightChoice,
    WaitressAnswer,
)
from .characters import DATA, Characters, ClocktowerDataError, read_data
from .rules import (
    NO_ONE_TONIGHT,
    choice_text,
    hours,
    illegal,
    target_seat,
    who,
)
from .state import ClocktowerState, Seat

#: the value of "no-one" in a choice (the Po)


class Ask(BaseModel):
    """What one character is asked at night."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    count: int = 1
    text: str
    #: the Lleech's first night
    first_text: str = ""
    may_choose_no_one: bool = False
    #: the Po after a night of no-one: how many, and what it is told
    charged_count: int = 0
    charged_text: str = ""
    not_self: bool = False
    living_only: bool = False
    #: asked only when killed tonight (the Ravenkeeper)
    when_killed: bool = False


class _AskFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    notes: str = ""
    asks: dict[str, Ask]


@lru_cache(maxsize=1)
def asks() -> dict[str, Ask]:
    try:
        return _AskFile.model_validate(read_data(DATA, "night_asks.json")).asks
    except ValidationError as exc:
        raise ClocktowerDataError(f"Clocktower: data/night_asks.json: {exc.errors()[0]['msg']}",
                                  code="bad_clocktower_data") from None


def first_night_for(state: ClocktowerState, seat: Seat) -> bool:
    """Whether tonight is this player's first night: night 1, or an Apprentice's first night after it
    joined ("First-night-only abilities function on the Apprentice's first night instead")."""
    return state.night == 1 or (seat.character == "apprentice" and state.night == seat.joined_day + 1)


def order_for(state: ClocktowerState, seat: Seat, chars: Characters) -> list[str]:
    """Tonight's night order, as it applies to this player."""
    order = chars.night_order
    return order.first_night if first_night_for(state, seat) else order.other_night


def ask_for(state: ClocktowerState, seat: Seat, chars: Characters) -> tuple[Ask, str, int] | None:
    """What this player is asked tonight: (the ask, its text, how many to choose), or None."""
    character = seat.acting  # the card: the Lunatic's is a Demon, the Drunk's a Townsfolk
    ask = asks().get(character)
    if ask is None or character not in order_for(state, seat, chars):
        return None
    if ask.when_killed and seat.player not in state.dawn_deaths:
        return None
    if not ask.when_killed and not seat.alive:
        return None
    if ask.charged_count and charged(state, seat.player):
        return ask, ask.charged_text, ask.charged_count
    if state.night == 1 and ask.first_text:
        return ask, ask.first_text, ask.count
    return ask, ask.text, ask.count


def charged(state: ClocktowerState, player: str) -> bool:
    """The Po's charge: its last choice was no-one (and, with ``po_silent_charges``, a night it
    submitted nothing counts as no-one)."""
    last = state.last_choices.get(player)
    if last is None:
        return state.settings.po_silent_charges and state.night > 2
    return last == [NO_ONE_TONIGHT]


# ----- the players' actions -----


class NightRules:
    """The night's choices, as the game's action handlers and prompts (mixed into the game)."""

    chars: Characters

    def _do_night_choice(self, state: ClocktowerState, action: NightChoice, rng: random.Random) -> Outcome:
        if state.phase != "night":
            raise illegal("Night choices are made at night.", "not_night")
        seat = target_seat(state, action.player)
        got = ask_for(state, seat, self.chars)
        if got is None:
            raise illegal("Your character chooses nothing tonight.", "nothing_to_choose")
        ask, _text, count = got
        if state.stage == "locked" and not ask.when_killed:
            raise illegal(f"Night actions locked {hours(state.settings.lock_seconds)} before dawn: tell the "
                          "Storytellers in your thread if something went wrong.", "locked")
        targets = list(dict.fromkeys(action.targets))
        if targets == [NO_ONE_TONIGHT]:
            if not ask.may_choose_no_one or count != 1:
                raise illegal(f"Choose {count} player{'s' if count != 1 else ''}.", "no_one_refused")
        else:
            if len(targets) != count:
                raise illegal(f"Choose {count} different player{'s' if count != 1 else ''}.", "count")
            for target in targets:
                chosen = target_seat(state, target)
                if ask.not_self and chosen.player == seat.player:
                    raise illegal("You cannot choose yourself.", "self")
                if ask.living_only and not chosen.alive:
                    raise illegal(f"{state.label(chosen.player)} is dead: choose a living player.", "dead")
        before = state.night_choices.get(seat.player)
        state.night_choices[seat.player] = targets
        said = choice_text(state, targets)
        events = [Event(type="night_choice", audience=STORYTELLER, title=f"🌙 Night {state.night}: a choice",
                        text=f"{who(state, seat)}, chose {said}"
                             + (f" (instead of {choice_text(state, before)})." if before else "."))]
        if seat.character == "lunatic":  # the real Demon learns the Lunatic's choice at once
            for demon in state.seats:
                if self.chars[demon.character].team == "demon":
                    events.append(private(demon.player, "lunatic_choice", f"🌙 The Lunatic, {state.label(seat.player)}, "
                                          f"chose {said} tonight.", title="The Lunatic"))
        if seat.shown == "waitress" and targets != before:
            if before:
                state.waitress_answers.pop(before[0], None)
            events.append(private(targets[0], "waitress_visit", "🌙 The Waitress would visit you tonight: if you "
                                  "agree, they learn your character, but you both might die. Answer with **Make my "
                                  "choice** before the night's actions lock.", title="A visit"))
        if ask.when_killed and state.stage == "locked":  # woken while the night is resolved: its answer now
            events += self.woken_information(state, seat)
        lock = "" if ask.when_killed else " You may change it until the night's actions lock."
        return Outcome(state=state, events=events, reply=f"Your choice tonight: {said}.{lock}")

    if TYPE_CHECKING:
        def woken_information(self, state: ClocktowerState, seat: Seat) -> list[Event]: ...

    def _waitress_of(self, state: ClocktowerState, player: str) -> Seat | None:
        """The Waitress who chose ``player`` tonight, if any."""
        for seat in state.seats:
            if seat.shown == "waitress" and state.night_choices.get(seat.player) == [player]:
                return seat
        return None

    def _do_waitress_answer(self, state: ClocktowerState, action: WaitressAnswer, rng: random.Random) -> Outcome:
        waitress = self._waitress_of(state, action.player) if state.phase == "night" else None
        if waitress is None:
            raise illegal("Nobody asked to visit you tonight.", "no_visit")
        if state.stage == "locked":
            raise illegal("Night actions are locked.", "locked")
        state.waitress_answers[action.player] = action.agree
        answer = "agrees" if action.agree else "refuses"
        return Outcome(state=state, events=[
            Event(type="waitress_answer", audience=STORYTELLER, title=f"🌙 Night {state.night}: the Waitress",
                  text=f"{state.label(action.player)} {answer} the visit of {who(state, waitress)}.")],
            reply="You agree to the visit." if action.agree else "You refuse the visit.")

    def night_prompts(self, state: ClocktowerState, player: str) -> list[Prompt]:
        if state.phase != "night":
            return []
        seat = state.seat_of(player)
        prompts: list[Prompt] = []
        got = ask_for(state, seat, self.chars)
        if got is not None and (state.stage != "locked" or got[0].when_killed):
            ask, text, count = got
            mine = state.night_choices.get(player)
            choices = [Choice(value=s.player, label=state.label(s.player)[:100])
                       for s in state.seats if not (ask.not_self and s.player == player)
                       and not (ask.living_only and not s.alive)]
            if ask.may_choose_no_one and count == 1:
                choices.append(Choice(value=NO_ONE_TONIGHT, label="No-one"))
            now = f"\nYour choice: {choice_text(state, mine)}." if mine else "\nYou have not chosen yet."
            prompts.append(Prompt(action="night_choice", title=f"Night {state.night}: your choice",
                                  text=text + now, fields=[PromptField(
                                      name="targets", placeholder=f"Choose {count}…", choices=choices[:25],
                                      min_values=count, max_values=count)]))
        waitress = self._waitress_of(state, player)
        if waitress is not None and state.stage != "locked":
            for agree, label in ((True, "Agree to the visit"), (False, "Refuse the visit")):
                prompts.append(Prompt(action="waitress_answer", title="The Waitress's visit", submit_label=label,
                                      extra={"agree": agree}))
        return prompts

    def night_asks(self, state: ClocktowerState) -> list[Event]:
        """At dusk, each player asked to choose tonight is told what, in their thread."""
        return [e for e in (self.ask_event(state, seat) for seat in state.seats) if e is not None]

    def ask_event(self, state: ClocktowerState, seat: Seat, *, woken: bool = False) -> Event | None:
        """The private message asking ``seat`` for tonight's choice: at dusk (or when an ability is
        gained), or ``woken`` when it dies and chooses when killed (the Ravenkeeper); None when it
        is not asked that way."""
        got = ask_for(state, seat, self.chars)
        if got is None or got[0].when_killed is not woken:
            return None
        if woken:
            return private(seat.player, "night_ask", f"🌙 {got[1]} Choose with **Make my choice**.",
                           title=f"Night {state.night}: you are woken")
        return private(seat.player, "night_ask", f"🌙 {got[1]} Choose with **Make my choice** before the night's "
                       "actions lock.", title=f"Night {state.night}: your choice")

    def choices_summary(self, state: ClocktowerState) -> Event:
        """At the lock: every asked player's choice, and every missing one, for the Storytellers."""
        lines = []
        for seat in state.seats:
            got = ask_for(state, seat, self.chars)
            if got is None:
                continue
            chosen = state.night_choices.get(seat.player)
            said = choice_text(state, chosen) if chosen else "**nothing submitted** (not the same as no-one)"
            line = f"• {who(state, seat)}: {said}"
            if seat.shown == "waitress" and chosen:
                answer = state.waitress_answers.get(chosen[0])
                line += " · " + ("agreed" if answer else "refused" if answer is False else "no answer")
            lines.append(line)
        return Event(type="night_choices", audience=STORYTELLER, title=f"🌙 Night {state.night}: the choices",
                     text="\n".join(lines) or "Nobody chooses anything tonight.")

    def _roll_choices(self, state: ClocktowerState) -> None:
        """Dusk: last night's choices become the previous ones (the Po's charge)."""
        state.last_choices, state.night_choices, state.waitress_answers = state.night_choices, {}, {}
        state.killed_tonight, state.accepted = {}, {}
