"""The night's choices: who is asked tonight (``asks``), their answers kept until the lock, what
the Storytellers see of them, and at the lock what the choices do (``resolve``), applied to the
grimoire for the Storytellers to overrule.

What the choices do (deaths, poison, information) is resolved with the Storytellers by the copilot;
here they are asked, kept, editable until the lock, and shown, with every missing one named (a Po
that chose nothing did not choose no-one).
"""

from __future__ import annotations

from games.engine import STORYTELLER, Choice, Event, Handler, Outcome, Prompt, PromptField, Rng, private

from .actions import Haircut, NightCharacter, NightChoice, WaitressAnswer
from .asks import Ask, ask_for
from .bmr_day import mastermind_notes
from .bmr_exorcist import exorcised, exorcist_news
from .bmr_gossip import gossip_notes
from .bmr_night import DRUNK
from .characters import TEAM_WORDS
from .copilot import proposals
from .inform import information_event, woken_information
from .resolve import Effect, plan_night
from .reveal import night_causes, sheet_tokens
from .rules import NO_ONE_TONIGHT, chars, choice_text, hours, illegal, ruled, target_seat, who
from .snv_barber import haircut_asks, haircut_choice, haircut_line, haircut_prompts
from .snv_madness import goblin_jinx, mad_character_allowed
from .snv_night import CURSED, becomes, bone_collector_chose, keeps
from .snv_swaps import CHARACTER_TEAMS, apply_swap
from .state import ClocktowerState, Reminder, Seat

# ----- the players' choices -----

def night_choice(state: ClocktowerState, action: NightChoice, rng: Rng) -> Outcome:
    if state.phase != "night":
        raise illegal("Night choices are made at night.", "not_night")
    seat = target_seat(state, action.player)
    got = ask_for(state, seat, chars(state))
    if got is None:
        raise illegal("Your character chooses nothing tonight.", "nothing_to_choose")
    ask, _text, count = got
    if state.stage == "locked" and not ask.when_killed:
        raise illegal(f"Night actions locked {hours(state.settings.lock_seconds)} before dawn: tell the "
                      "Storytellers in your thread if something went wrong.", "locked")
    if ask.kind == "free":
        raise illegal("Tell the Storytellers in your thread, in your own words: they judge it.", "free_reply")
    if ask.kind in ("character", "yes_no") or (ask.kind == "player_and_character" and action.character):
        return judged_answer(state, seat, ask, action)
    targets = list(dict.fromkeys(action.targets))
    if targets == [NO_ONE_TONIGHT]:
        if not ask.may_choose_no_one or (ask.charged_count and count == ask.charged_count):  # the charged Po: 3
            raise illegal(f"Choose {count} player{'s' if count != 1 else ''}.", "no_one_refused")
    else:
        if len(targets) != count:
            raise illegal(f"Choose {count} different player{'s' if count != 1 else ''}.", "count")
        for target in targets:
            chosen = target_seat(state, target)
            if ask.not_self and chosen.player == seat.player:
                raise illegal("You cannot choose yourself.", "self")
            if ask.not_traveller and chosen.traveller:
                raise illegal(f"{state.label(chosen.player)} is a Traveller: choose another player.", "traveller")
            if ask.living_only and not chosen.alive:
                raise illegal(f"{state.label(chosen.player)} is dead: choose a living player.", "dead")
            if ask.dead_only and chosen.alive:
                raise illegal(f"{state.label(chosen.player)} is alive: choose a dead player.", "alive")
            if ask.not_last_night and [chosen.player] == state.last_choices.get(seat.player):
                raise illegal(f"You chose {state.label(chosen.player)} last night: choose a different player.",
                              "same_as_last_night")
    before = state.night_choices.get(seat.player)
    was_exorcised = exorcised(state, chars(state))
    state.night_choices[seat.player] = targets
    said = choice_text(state, targets)
    events = [Event(type="night_choice", audience=STORYTELLER, title=f"🌙 Night {state.night}: a choice",
                    text=f"{who(state, seat)}, chose {said}"
                         + (f" (instead of {choice_text(state, before)})." if before else "."))]
    if seat.character == "lunatic":  # the real Demon learns the Lunatic's choice at once
        for demon in state.seats:
            if chars(state)[demon.character].team == "demon":
                events.append(private(demon.player, "lunatic_choice", f"🌙 The Lunatic, {state.label(seat.player)}, "
                                      f"chose {said} tonight.", title="The Lunatic"))
    if seat.shown in VISITORS and targets != before:
        if before:
            state.waitress_answers.pop(before[0], None)
        events.append(private(targets[0], "waitress_visit", f"🌙 The {chars(state)[seat.shown].name} would visit you "
                              "tonight: if you agree, they learn your character, but you both might die. Answer "
                              "with **Make my choice** before the night's actions lock.", title="A visit"))
    if seat.has("bonecollector") and targets != before:  # the dead player it chose is asked at once
        events += bone_collector_chose(state, seat, targets)
        woken = ask_event(state, state.seat_of(targets[0])) if targets != [NO_ONE_TONIGHT] else None
        events += [woken] if woken is not None else []
    events += exorcist_news(state, chars(state), was_exorcised)
    if ask.when_killed and state.stage == "locked":  # woken while the night is resolved: its answer now
        events += woken_information(state, seat)
    lock = "" if ask.when_killed else " You may change it until the night's actions lock."
    return Outcome(state=state, events=events, reply=f"Your choice tonight: {said}.{lock}")


#: the cards whose chosen player agrees to the visit, or not: Her Royal Highness Register's Waitress, the
#: official Harlot
VISITORS = ("waitress", "harlot")


def waitress_of(state: ClocktowerState, player: str) -> Seat | None:
    """The Waitress (or Harlot) who chose ``player`` tonight, if any."""
    for seat in state.seats:
        if seat.shown in VISITORS and state.night_choices.get(seat.player) == [player]:
            return seat
    return None


def waitress_answer(state: ClocktowerState, action: WaitressAnswer, rng: Rng) -> Outcome:
    waitress = waitress_of(state, action.player) if state.phase == "night" else None
    if waitress is None:
        raise illegal("Nobody asked to visit you tonight.", "no_visit")
    if state.stage == "locked":
        raise illegal("Night actions are locked.", "locked")
    state.waitress_answers[action.player] = action.agree
    answer = "agrees" if action.agree else "refuses"
    return Outcome(state=state, events=[
        Event(type="waitress_answer", audience=STORYTELLER,
              title=f"🌙 Night {state.night}: the {chars(state)[waitress.shown].name}",
              text=f"{state.label(action.player)} {answer} the visit of {who(state, waitress)}.")],
        reply="You agree to the visit." if action.agree else "You refuse the visit.")


def night_prompts(state: ClocktowerState, player: str) -> list[Prompt]:
    if state.phase != "night":
        return []
    seat = state.seat_of(player)
    prompts: list[Prompt] = []
    got = ask_for(state, seat, chars(state))
    if got is not None and (state.stage != "locked" or got[0].when_killed):
        prompts += _ask_prompts(state, seat, *got)
    prompts += haircut_prompts(state, player)
    waitress = waitress_of(state, player)
    if waitress is not None and state.stage != "locked":
        for agree, label in ((True, "Agree to the visit"), (False, "Refuse the visit")):
            prompts.append(Prompt(action="waitress_answer", title=f"The {chars(state)[waitress.shown].name}'s visit",
                                  submit_label=label,
                                  extra={"agree": agree}))
    return prompts


def _ask_prompts(state: ClocktowerState, seat: Seat, ask: Ask, text: str, count: int) -> list[Prompt]:
    """The night ask as selects and buttons, in the form its answer takes (a free reply has none:
    the player writes in their thread)."""
    title = f"Night {state.night}: your choice"
    mine = state.night_choices.get(seat.player)
    answered = state.night_answers.get(seat.player)
    now = (f"\nYour choice: {choice_text(state, mine)}." if mine else "") + \
          (f"\nYour answer: {_answer_words(state, answered)}." if answered else "")
    text += now or "\nYou have not chosen yet."
    if ask.kind == "free":
        return []
    if ask.kind == "yes_no":
        return [Prompt(action="night_choice", title=title, text=text, submit_label=label, extra={"answer": value})
                for value, label in (("yes", "Yes"), ("no", "No"))]
    prompts = []
    if ask.kind in ("players", "player_and_character"):
        choices = [Choice(value=s.player, label=state.label(s.player)[:100])
                   for s in state.seats if not (ask.not_self and s.player == seat.player)
                   and not (ask.not_traveller and s.traveller) and not (ask.living_only and not s.alive)
                   and not (ask.dead_only and s.alive)
                   and not (ask.not_last_night and [s.player] == state.last_choices.get(seat.player))]
        if ask.may_choose_no_one and count == 1:
            choices.append(Choice(value=NO_ONE_TONIGHT, label="No-one"))
        if len(choices) >= count:
            prompts.append(Prompt(action="night_choice", title=title, text=text, fields=[PromptField(
                name="targets", placeholder=f"Choose {count}…", choices=choices[:25],
                min_values=count, max_values=count)]))
        if ask.may_choose_no_one and count > 1:
            prompts.append(Prompt(action="night_choice", title=title, submit_label="No-one tonight",
                                  extra={"targets": [NO_ONE_TONIGHT]}))
    if ask.kind in ("character", "player_and_character"):
        action = "night_character" if ask.kind == "player_and_character" else "night_choice"  # apart from the players'
        teams = CHARACTER_TEAMS.get(seat.acting) or (GOOD_TEAMS if ask.good_character else None)
        prompts.append(Prompt(action=action, title=f"Night {state.night}: the character", text=text,
                              any_field=True, fields=_character_fields(state, teams, goblin=ask.good_character)))
    return prompts


#: the teams of a "good character" (the Cerenovus's choice)
GOOD_TEAMS = ("townsfolk", "outsider")


def _character_fields(state: ClocktowerState, teams: tuple[str, ...] | None = None, *,
                      goblin: bool = False) -> list[PromptField]:
    """The script's characters as selects, one a team (a select holds 25), each filling ``character``;
    ``teams``: only those a ruled ability may choose (the Pit-Hag's four leave room for the players');
    ``goblin``: the Goblin too, where the Cerenovus's jinx with it is on the script."""
    known = chars(state)
    fields = []
    for team in teams or ("townsfolk", "outsider", "minion", "demon", "traveller"):
        ids = state.script.characters.get(team, ())
        if ids:
            fields.append(PromptField(name=f"character_{team}", into="character",
                                      placeholder=f"A {TEAM_WORDS[team][0]}…",
                                      choices=[Choice(value=c, label=known[c].name[:100]) for c in ids][:25]))
    if goblin and goblin_jinx(state):  # the Cerenovus's jinx with the Goblin
        fields.append(PromptField(name="character_minion", into="character", placeholder="The Goblin (a jinx)…",
                                  choices=[Choice(value="goblin", label=known["goblin"].name)]))
    return fields[:5]


def judged_answer(state: ClocktowerState, seat: Seat, ask: Ask, action: NightChoice) -> Outcome:
    """A judged character's answer that is not players: a character, or yes or no. Kept for the
    Storytellers, who judge what it does; editable until the lock."""
    answer: str
    said: str
    if ask.kind == "yes_no":
        if not action.answer:
            raise illegal("Answer yes or no.", "yes_or_no")
        answer = said = str(action.answer)
    else:
        found = chars(state).resolve(action.character) if action.character else None
        if found is None:
            raise illegal("Choose a character (from the script, or any character the ability allows).",
                          "bad_character")
        if ask.good_character and not mad_character_allowed(state, found.id, found.team):
            raise illegal(f"Choose a good character (a Townsfolk or an Outsider): the {found.name} is not.",
                          "not_good_character")
        answer, said = found.id, f"the {found.name}"
    before = state.night_answers.get(seat.player)
    state.night_answers[seat.player] = answer
    was = f" (instead of {_answer_words(state, before)})" if before and before != answer else ""
    events = [Event(type="night_choice", audience=STORYTELLER, title=f"🌙 Night {state.night}: a choice",
                    text=f"{who(state, seat)}, answered {said}{was}.")]
    return Outcome(state=state, events=events,
                   reply=f"Your answer tonight: {said}. You may change it until the night's actions lock.")


def _answer_words(state: ClocktowerState, answer: str) -> str:
    return answer if answer in ("yes", "no") else f"the {chars(state)[answer].name}"


# ----- the Storytellers' night sheet -----

#: how much of a reminder the sheet shows (an embed holds 4,096 characters; 20 seats must fit)
SHEET_REMINDER = 170


def night_sheet(state: ClocktowerState) -> Event:
    """At dusk, tonight's order for the Storytellers: each character in play that wakes, in its slot
    of the script's night order, with who holds it and its official reminder; the ones the bot has no
    rules for marked as theirs to judge."""
    known = chars(state)
    lines = []
    for step in tonight_order(state):
        if step in ("dusk", "dawn"):
            continue
        if step in ("minioninfo", "demoninfo"):
            if len([s for s in state.seats if not s.traveller]) >= 7:
                lines.append(f"• {'Minion' if step == 'minioninfo' else 'Demon'} info")
            continue
        holders = [s for s in state.seats if s.acting == step]
        if not holders:
            continue
        character = known[step]
        reminder = character.first_night_reminder if state.night == 1 else character.other_night_reminder
        reminder = " ".join(reminder.replace(":reminder:", "🔖").split())  # the official app's token mark
        if len(reminder) > SHEET_REMINDER:
            reminder = reminder[:SHEET_REMINDER - 1].rstrip() + "…"
        who_holds = ", ".join(state.label(s.player) + ("" if s.alive else " (dead)") for s in holders)
        judged = "" if ruled(state, step) else " · *judged by you*"
        lines.append(f"• **{character.name}**: {who_holds}{judged}" + (f"\n  {reminder}" if reminder else ""))
    lines += gossip_notes(state) + mastermind_notes(state)
    text = "\n".join(lines + sheet_tokens(state, known)) or "Nobody in play wakes tonight."
    return Event(type="night_sheet", audience=STORYTELLER, title=f"🌙 Night {state.night}: the night sheet",
                 text=text)


def tonight_order(state: ClocktowerState) -> tuple[str, ...]:
    order = chars(state).night_order
    return order.first_night if state.night == 1 else order.other_night


# ----- what is asked and when -----

def night_asks(state: ClocktowerState) -> list[Event]:
    """At dusk, each player asked to choose tonight is told what, in their thread."""
    return [e for e in (ask_event(state, seat) for seat in state.seats) if e is not None] + haircut_asks(state)


def ask_event(state: ClocktowerState, seat: Seat, *, woken: bool = False) -> Event | None:
    """The private message asking ``seat`` for tonight's choice: at dusk (or when an ability is
    gained), or ``woken`` when it dies and chooses when killed (the Ravenkeeper); None when it
    is not asked that way."""
    got = ask_for(state, seat, chars(state))
    if got is None or got[0].when_killed is not woken:
        return None
    if woken:
        return private(seat.player, "night_ask", f"🌙 {got[1]} Choose with **Make my choice**.",
                       title=f"Night {state.night}: you are woken")
    return private(seat.player, "night_ask", f"🌙 {got[1]} Choose with **Make my choice** before the night's "
                   "actions lock.", title=f"Night {state.night}: your choice")


def wake_to_choose(state: ClocktowerState, seat: Seat) -> list[Event]:
    """A player who dies at night and chooses when killed (the Ravenkeeper) is woken to choose."""
    asked = ask_event(state, seat, woken=True)
    return [asked] if asked is not None else []


def lock_reminders(state: ClocktowerState) -> list[Event]:
    """Before the lock, each player with a choice to make tonight is reminded: those the night
    prompts ask (by their card; the Ravenkeeper only once woken), and the Waitress's host."""
    lock = hours(state.settings.lock_seconds)
    events = []
    for seat in state.seats:
        got = ask_for(state, seat, chars(state))
        visitor = waitress_of(state, seat.player)
        visited = visitor is not None and seat.player not in state.waitress_answers
        if got is None and not visited:
            continue
        what = "Make your choice" if got is not None or visitor is None else \
            f"Answer the {chars(state)[visitor.shown].name}'s visit"
        events.append(private(seat.player, "reminder", f"⏰ Night actions lock in "
                              f"{hours(state.settings.reminder_seconds)} ({lock} before dawn). {what} "
                              "with **Make my choice** before then; until the lock you can still change it.",
                              title="Night actions lock soon"))
    return events


def roll_choices(state: ClocktowerState) -> None:
    """Dusk: last night's choices become the previous ones (the Po's charge)."""
    state.last_choices, state.night_choices, state.waitress_answers = state.night_choices, {}, {}
    state.killed_tonight, state.accepted, state.night_answers = {}, {}, {}
    state.haircut = []
    state.accepted_first = {}


# ----- the lock -----

def choices_summary(state: ClocktowerState) -> Event:
    """At the lock: every asked player's choice, and every missing one, for the Storytellers."""
    lines = []
    for seat in state.seats:
        got = ask_for(state, seat, chars(state))
        if got is None:
            continue
        ask = got[0]
        chosen = state.night_choices.get(seat.player)
        answered = state.night_answers.get(seat.player)
        parts = ([choice_text(state, chosen)] if chosen else []) + \
                ([_answer_words(state, answered)] if answered else [])
        if ask.kind == "free":
            said = "answers in their thread, in their own words"
        else:
            said = " and ".join(parts) if parts else "**nothing submitted** (not the same as no-one)"
        line = f"• {who(state, seat)}: {said}"
        if ask.judged:
            line += " · judged by you: apply what it does with your commands"
        if ask.once_per_game and chosen and chosen != [NO_ONE_TONIGHT] and seat.player not in state.used_once:
            state.used_once.append(seat.player)  # once per game: spent by a choice that stood at the lock
            line += " (its once-per-game ability is now used)"
        if seat.shown in VISITORS and chosen:
            answer = state.waitress_answers.get(chosen[0])
            line += " · " + ("agreed" if answer else "refused" if answer is False else "no answer")
        lines.append(line)
    lines += haircut_line(state)
    for demon, exorcist in exorcised(state, chars(state)).items():
        lines.append(f"• {who(state, state.seat_of(demon))}: does not wake tonight: the Exorcist, "
                     f"{state.label(exorcist)}, chose them (they were told).")
    return Event(type="night_choices", audience=STORYTELLER, title=f"🌙 Night {state.night}: the choices",
                 text="\n".join(lines) or "Nobody chooses anything tonight.")


def resolve_night(state: ClocktowerState) -> list[Event]:
    """At the lock: what the choices do, applied to the grimoire, and told to the Storytellers,
    who may overrule any of it before dawn."""
    steps = plan_night(state, chars(state))
    events: list[Event] = []
    lines = []
    for step in steps:
        seat = state.seat_of(step.player)
        said = []
        for effect in step.effects:
            target = state.seat_of(effect.player)
            label = state.label(effect.player)
            if effect.kind == "dies":
                target.alive, target.vote_token = False, True
                state.dawn_deaths.append(effect.player)
                events += wake_to_choose(state, target)
                said.append(f"{label} dies")
            elif effect.kind == "poison":
                state.reminders.append(Reminder(player=effect.player, token="Poisoned", source=effect.source))
                said.append(f"{label} is poisoned")
            elif effect.kind == "heal":
                state.reminders = [r for r in state.reminders if not (
                    r.player == effect.player and r.source == effect.source and "poison" in r.token.lower())]
                said.append(f"{label} becomes healthy")
            elif effect.kind == "becomes":
                events.append(becomes(state, target, effect.source))
                said.append(f"{label} becomes the {chars(state)[effect.source].name}, evil")
            elif effect.kind == "cursed":
                state.reminders.append(Reminder(player=effect.player, token=CURSED, source="witch"))
                said.append(f"{label} is cursed: if they nominate tomorrow, they die")
            elif effect.kind in ("swap", "made", "gains"):
                told, done = apply_swap(state, effect)
                events += told
                said += done
            elif effect.kind == "keeps":
                keeps(state, effect.player)
                said.append(f"{label} keeps their ability")
            elif effect.kind == "negative" and effect.player not in state.negative_tomorrow:
                state.negative_tomorrow.append(effect.player)
                said.append(f"{label}'s vote counts negatively tomorrow")
            else:
                said += bmr_effect(state, effect)
        chose = f" chose {choice_text(state, step.chose)}" if step.chose else ""
        line = f"• {who(state, seat)}{chose}" + (": " + "; ".join(said) + "." if said else ".")
        lines += [line, *(f"  ↳ {note}" for note in step.notes)]
    state.killed_tonight |= {e.player: e.source for step in steps for e in step.effects if e.kind == "dies"}
    events += haircut_asks(state)  # the Barber died of the lock: the Demon is woken to choose now
    for step in steps:
        if step.abnormal:
            state.note_abnormal(step.player, f"the {chars(state)[step.character].name}: {step.abnormal}")
        for failed in step.failed:
            state.note_abnormal(failed.player, failed.why)
    found = proposals(state, chars(state))
    if lines:
        events.append(Event(type="night_plan", audience=STORYTELLER, title=f"🌙 Night {state.night}: what the night does",
                            text="\n".join(lines) + "\n\nApplied to the grimoire. Overrule any of it before dawn "
                            "with `/st kill`, `/st revive` and `/st reminder`.", image="grimoire",
                            data={"causes": night_causes(steps)}))
    if found:
        events.append(information_event(state, found))
    return events


def bmr_effect(state: ClocktowerState, effect: Effect) -> list[str]:
    """Bad Moon Rising's effects on the grimoire at the lock (``bmr_night``): what the plan says of it."""
    label = state.label(effect.player)
    if effect.kind == "drunk":
        state.reminders.append(Reminder(player=effect.player, token=DRUNK, source=effect.source))
        return [f"{label} is drunk until dusk"]
    if effect.kind == "token":
        state.reminders.append(Reminder(player=effect.player, token=effect.token, source=effect.source))
        return [f"{label}: {effect.token}"]
    if effect.kind == "untoken":
        state.reminders = [r for r in state.reminders if not (
            r.player == effect.player and r.source == effect.source and r.token == effect.token)]
    elif effect.kind == "spent" and effect.player not in state.used_once:
        state.used_once.append(effect.player)
        return ["its once-per-game ability is used"]
    elif effect.kind == "revive" and not state.seat_of(effect.player).alive:
        state.seat_of(effect.player).alive = True
        if effect.player in state.dawn_deaths:
            state.dawn_deaths.remove(effect.player)
        else:
            state.dawn_revivals.append(effect.player)
        return [f"{label} is resurrected"]
    elif effect.kind == "align":
        state.seat_of(effect.player).alignment = "evil" if effect.token == "evil" else "good"
        return [f"{label} becomes {effect.token}"]
    return []


def night_character(state: ClocktowerState, action: NightCharacter, rng: Rng) -> Outcome:
    """The character part of a player-and-character night choice: a night choice of that character."""
    return night_choice(state, NightChoice(player=action.player, character=action.character), rng)


def haircut(state: ClocktowerState, action: Haircut, rng: Rng) -> Outcome:
    if state.phase != "night":
        raise illegal("Night choices are made at night.", "not_night")
    return haircut_choice(state, action.player, action.targets)


HANDLERS: dict[str, Handler] = {"night_choice": night_choice, "waitress_answer": waitress_answer,
                                "night_character": night_character, "haircut": haircut}
