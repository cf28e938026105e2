"""Bad Moon Rising's night: its Demons' kills (the Zombuul, the Shabaloth), its protections (the
Innkeeper, the Sailor, the Tea Lady, the Fool, the Devil's Advocate by day), its Minions' kills (the
Assassin, the Godfather), the Exorcist's sleep, the Professor's resurrection, the Goon, the
Grandmother's death, the Minstrel's drunkenness, and what wears off at dusk.

``resolve.plan_night`` calls it: its acts (``acts``, given the walk's Demon kill), ``spared`` on every
kill, ``before_step`` and ``after_step`` around every step. ``tally.executes`` asks
``spared_execution``. What is the Storytellers' choice (which player the Innkeeper or the Sailor
makes drunk, the Shabaloth's regurgitation, the Tinker's death) is proposed and flagged in the night's
plan, never decided silently.
"""

from __future__ import annotations

from collections.abc import Callable

from .registration import characters_as
from .rules import NO_ONE_TONIGHT, REGISTERS_DEAD, chars, circle_neighbours, impaired
from .state import ClocktowerState, Reminder, Seat
from .walk import Effect, Night, Step, impaired_note, submitted

#: the walk's Demon kill (``resolve._kill``: the Monk, the Soldier, then ``spared``)
Kill = Callable[[Night, Step, str, str], None]
Act = Callable[[Night, Seat, Step], None]

DRUNK = "Drunk"
#: the Minstrel's: drunk until dusk tomorrow (at the next dusk it becomes a plain Drunk until dusk)
DRUNK_TOMORROW = "Drunk until dusk tomorrow"
#: the Fool's first death, the Assassin's once per game: spent
NO_ABILITY = "No ability"
#: the Devil's Advocate's choice: if executed tomorrow, they don't die
SURVIVES = "Survives execution"
#: the Goon's: turned to the alignment of the first player to choose it tonight
GOON_CHOSEN = "Chosen tonight"
#: the Courtier's: drunk for 3 nights & 3 days, counted at each dusk
COURTIER_DRUNK = "Drunk ({} of 3)"
#: the tokens that end at dusk, by the character that put them
_UNTIL_DUSK = {"innkeeper": DRUNK, "sailor": DRUNK, "goon": DRUNK, "minstrel": DRUNK, "devilsadvocate": SURVIVES}


# ----- who died today, and who wakes -----

def died_today(state: ClocktowerState) -> list[str]:
    """The players who died since dawn (the Zombuul's first death too: the town saw it), not tonight."""
    return [s.player for s in state.seats if not s.alive and s.player not in state.dead_at_dawn
            and s.player not in state.dawn_deaths]


def wakes(state: ClocktowerState, seat: Seat, character: str) -> bool:
    """Whether a character with a condition on waking wakes tonight: the Zombuul "if no-one died
    today", the Godfather (after the first night) "if [an Outsider] died today"."""
    if character == "zombuul":
        return not died_today(state)
    if character == "godfather":
        return state.night > 1 and any(chars(state)[state.seat_of(p).character].team == "outsider"
                                       for p in died_today(state))
    return True


# ----- protections -----

def cannot_die(state: ClocktowerState, player: str, why_impaired: Callable[[str], str],
               protected: dict[str, str] | None = None) -> str:
    """Why ``player`` can't die now ("" when they can): the Innkeeper's choice tonight, a sober
    Sailor, a working Tea Lady's good living neighbours."""
    if protected and player in protected:
        return f"the Innkeeper, {state.label(protected[player])}, chose them"
    seat = state.seat_of(player)
    if seat.has("sailor") and not why_impaired(player):
        return "the Sailor can't die while sober"
    for tea in state.seats:
        if not tea.has("tealady") or not tea.alive or why_impaired(tea.player):
            continue
        neighbours = circle_neighbours(state, tea.player)
        if player in neighbours and len(neighbours) == 2 and \
                all(state.seat_of(n).alignment == "good" for n in neighbours):
            return f"both alive neighbours of the Tea Lady, {state.label(tea.player)}, are good"
    return ""


def _token(state: ClocktowerState, player: str, source: str, token: str) -> bool:
    return any(r.player == player and r.source == source and r.token == token for r in state.reminders)


def first_death(state: ClocktowerState, seat: Seat, why_impaired: Callable[[str], str]) -> str:
    """"fool" or "zombuul" when this death is the working Fool's or Zombuul's first ("" otherwise)."""
    for character in ("fool", "zombuul"):
        spent = NO_ABILITY if character == "fool" else REGISTERS_DEAD
        if seat.has(character) and not _token(state, seat.player, character, spent) and not why_impaired(seat.player):
            return character
    return ""


def spared(night: Night, step: Step, target: str, source: str) -> bool:
    """A kill tonight on ``target``, by ``source``: True when it does not kill as usual (a protection,
    the Fool's first death, the Zombuul's first death or its true one), with its effects and notes."""
    label = night.label(target)
    why = cannot_die(night.state, target, night.impaired, night.protected)
    if why:
        step.notes.append(f"{label} can't die ({why}): nobody dies of it.")
        step.abnormal = step.abnormal or f"its kill failed on {label}: {why}"
        return True
    return _first_or_true_death(night, step, target, source)


def _first_or_true_death(night: Night, step: Step, target: str, source: str) -> bool:
    seat = night.state.seat_of(target)
    first = first_death(night.state, seat, night.impaired)
    if first == "fool":
        step.effects.append(Effect("token", target, "fool", NO_ABILITY))
        step.notes.append(f"{night.label(target)} is the Fool: the first time it dies, it doesn't (its ability is "
                          "now spent). Nobody dies of it.")
        return True
    if first == "zombuul":
        step.effects += [Effect("dies", target, source), Effect("token", target, "zombuul", REGISTERS_DEAD)]
        step.notes.append(f"{night.label(target)} is the Zombuul, dying for the first time: the town sees it die, "
                          "but it lives, registering as dead (its token is on it in the grimoire).")
        return True
    if _token(night.state, target, "zombuul", REGISTERS_DEAD):
        step.effects += [Effect("untoken", target, "zombuul", REGISTERS_DEAD), Effect("dies", target, source)]
        step.notes.append(f"{night.label(target)} is the Zombuul, already dead to the town: now it truly dies.")
        return True
    return False


def _death(night: Night, step: Step, target: str, source: str) -> None:
    """A kill that is not the Demon's (the Godfather, the Grandmother): not the Monk's or Soldier's to stop."""
    if not night.alive(target):
        step.notes.append(f"{night.label(target)} is already dead.")
    elif not spared(night, step, target, source):
        step.effects.append(Effect("dies", target, source))


def spared_execution(state: ClocktowerState, seat: Seat) -> tuple[str, str] | None:
    """An execution of a living ``seat``: None when they die as usual; else what the town hears
    after "is executed" and what the Storytellers are told (the Devil's Advocate's, the Tea Lady's,
    the Sailor's protection, the Fool's first death, the Zombuul's first death). The seat and its
    tokens are changed here."""
    label = state.label(seat.player)
    why = cannot_die(state, seat.player, lambda p: impaired(state, p))
    if _token(state, seat.player, "devilsadvocate", SURVIVES) and \
            not any(s.has("devilsadvocate") and s.alive and impaired(state, s.player) for s in state.seats):
        why = "the Devil's Advocate chose them last night"
    if why:
        return "", f"{label} was executed but does not die: {why}."
    first = first_death(state, seat, lambda p: impaired(state, p))
    if first == "fool":
        state.reminders.append(Reminder(player=seat.player, token=NO_ABILITY, source="fool"))
        return "", f"{label}, the Fool, was executed but does not die: its first death (its ability is now spent)."
    if first == "zombuul":
        seat.alive, seat.vote_token, state.execution_killed = False, True, True
        state.reminders.append(Reminder(player=seat.player, token=REGISTERS_DEAD, source="zombuul"))
        return " and dies", (f"{label}, the Zombuul, was executed: the town saw it die, but it lives, registering "
                             "as dead. It still wakes to kill.")
    return None


def truly_dies(state: ClocktowerState, seat: Seat) -> bool:
    """An already dead-looking seat executed or killed: the Zombuul that registers as dead truly dies."""
    if _token(state, seat.player, "zombuul", REGISTERS_DEAD):
        state.reminders = [r for r in state.reminders if not (
            r.player == seat.player and r.source == "zombuul" and r.token == REGISTERS_DEAD)]
        return True
    return False


def executed_dies(state: ClocktowerState, executed: Seat) -> str:
    """A player died by execution: the Minstrel's drunkenness, the Moonchild's choice. Returns the
    Storytellers' note ("" when nothing happens)."""
    return " ".join(n for n in (moonchild_note(state, executed), _minstrel(state, executed)) if n)


def moonchild_note(state: ClocktowerState, seat: Seat) -> str:
    """"When you learn that you died, publicly choose 1 alive player. Tonight, if it was a good
    player, they die": the choice is made in the town square; the Storytellers apply it."""
    if not seat.has("moonchild") or impaired(state, seat.player):
        return ""
    return (f"{state.label(seat.player)} is the Moonchild: when they learn they died, they publicly choose 1 alive "
            "player; if it was a good player, `/st kill` them tonight.")


def _minstrel(state: ClocktowerState, executed: Seat) -> str:
    """A Minion died by execution: with a working Minstrel alive, every other player (Travellers
    aside) is drunk until dusk tomorrow."""
    if chars(state)[executed.character].team != "minion":
        return ""
    for minstrel in state.seats:
        if minstrel.has("minstrel") and minstrel.alive and not impaired(state, minstrel.player):
            for seat in state.seats:
                if seat.player != minstrel.player and not seat.traveller:
                    state.reminders.append(Reminder(player=seat.player, token=DRUNK_TOMORROW, source="minstrel"))
            return (f"A Minion died by execution: the Minstrel, {state.label(minstrel.player)}, makes every other "
                    "player (Travellers aside) drunk until dusk tomorrow.")
    return ""


def at_dusk(state: ClocktowerState) -> None:
    """Dusk: the Innkeeper's, the Sailor's, the Goon's and the Minstrel's drunkenness and the Devil's
    Advocate's protection end; the Minstrel's "until dusk tomorrow" has one more day to run."""
    kept = [r for r in state.reminders if _UNTIL_DUSK.get(r.source) != r.token
            and not (r.source == "courtier" and r.token == COURTIER_DRUNK.format(3))]
    state.reminders = [_next_dusk(r) for r in kept]


def _next_dusk(reminder: Reminder) -> Reminder:
    if reminder.source == "minstrel" and reminder.token == DRUNK_TOMORROW:
        return Reminder(player=reminder.player, token=DRUNK, source="minstrel")
    for k in (1, 2):
        if reminder.source == "courtier" and reminder.token == COURTIER_DRUNK.format(k):
            return Reminder(player=reminder.player, token=COURTIER_DRUNK.format(k + 1), source="courtier")
    return reminder


# ----- the steps -----

def _first(step: Step) -> str:
    chose = step.chose or []
    return chose[0] if chose and chose != [NO_ONE_TONIGHT] else ""


def acts(kill: Kill) -> dict[str, Act]:
    """The Bad Moon Rising characters' steps, given the walk's Demon kill."""

    def zombuul(night: Night, seat: Seat, step: Step) -> None:
        """"Each night*, if no-one died today, choose a player: they die.\""""
        dead = died_today(night.state)
        if dead:
            step.notes.append(f"someone died today ({', '.join(night.label(p) for p in dead)}): the Zombuul does not "
                              "kill tonight.")
            return
        chose = submitted(step)
        if chose is None or impaired_note(night, seat, step, "nobody dies."):
            return
        kill(night, step, chose[0], "zombuul")

    def shabaloth(night: Night, seat: Seat, step: Step) -> None:
        """"Each night*, choose 2 players: they die. A dead player you chose last night might be
        regurgitated": the regurgitation is the Storytellers' choice, proposed as none."""
        last = [p for p in night.state.last_choices.get(seat.player, []) if night.state.seated(p)
                and not night.state.seat_of(p).alive]
        if last:
            step.notes.append(f"it chose {', '.join(night.label(p) for p in last)} last night, now dead: your choice "
                              "to regurgitate (proposed: nobody). To do it, `/st revive` them.")
        chose = submitted(step)
        if chose is None or impaired_note(night, seat, step, "nobody dies."):
            return
        for target in chose:
            kill(night, step, target, "shabaloth")

    return {"zombuul": zombuul, "shabaloth": shabaloth, "innkeeper": _innkeeper, "sailor": _sailor,
            "exorcist": _exorcist, "assassin": _assassin, "godfather": _godfather,
            "devilsadvocate": _devils_advocate, "professor": _professor, "tinker": _tinker, "courtier": _courtier,
            "gambler": _gambler}


def _gambler(night: Night, seat: Seat, step: Step) -> None:
    """"Each night*, choose a player & guess their character: if you guess wrong, you die": the
    guess is read against the true character; a guess the target may register as (the Recluse, the
    Spy) is the Storytellers' call, proposed wrong. A drunk or poisoned Gambler does not die of it."""
    guess = night.state.night_answers.get(seat.player, "")
    if step.chose is None:
        return
    if not guess:
        step.notes.append("no character guessed: nothing happens.")
        return
    target = night.state.seat_of(step.chose[0])
    name = night.chars[guess].name if guess in night.chars else guess
    step.notes.append(f"guessed {night.label(target.player)} is the {name}.")
    if target.character == guess:
        step.notes.append("right: nothing happens.")
        return
    if impaired_note(night, seat, step, "a wrong guess does not kill them."):
        return
    _death(night, step, seat.player, "gambler")
    if guess in characters_as(night.state, night.chars, target):
        step.notes.append(f"wrong on the grimoire, but {night.label(target.player)} may register as the {name}: "
                          "your call. Proposed: the Gambler dies; to count the guess right, `/st revive` them.")
    else:
        step.notes.append(f"wrong ({night.label(target.player)} is the "
                          f"{night.chars[target.character].name}): the Gambler dies.")


def _courtier(night: Night, seat: Seat, step: Step) -> None:
    """"Once per game, at night, choose a character: they are drunk for 3 nights & 3 days" (from
    tonight): every player who is that character."""
    character = night.state.night_answers.get(seat.player, "")
    if not character:
        return
    step.effects.append(Effect("spent", seat.player, "courtier"))
    name = night.chars[character].name if character in night.chars else character
    step.notes.append(f"chose the {name}.")
    if impaired_note(night, seat, step, "nobody is made drunk (its ability is used)."):
        return
    holders = [s.player for s in night.state.seats if s.has(character)]
    step.effects += [Effect("token", p, "courtier", COURTIER_DRUNK.format(1)) for p in holders]
    if not holders:
        step.notes.append(f"the {name} is not in play: nobody is made drunk (its ability is used).")


def _innkeeper(night: Night, seat: Seat, step: Step) -> None:
    """"Each night*, choose 2 players: they can't die tonight, but 1 is drunk until dusk": which one
    is the Storytellers' choice, proposed as the first chosen."""
    chose = submitted(step)
    if chose is None or impaired_note(night, seat, step, "nobody is protected or made drunk."):
        return
    step.effects += [Effect("protect", p, "innkeeper") for p in chose]
    step.effects.append(Effect("drunk", chose[0], "innkeeper"))
    other = f" or {night.label(chose[1])}" if len(chose) > 1 else ""
    step.notes.append(f"{' and '.join(night.label(p) for p in chose)} can't die tonight. Proposed drunk until dusk: "
                      f"{night.label(chose[0])} (your choice{other}: move the Drunk token with `/st reminder`).")


def _sailor(night: Night, seat: Seat, step: Step) -> None:
    """"Each night, choose an alive player: either you or they are drunk until dusk": the
    Storytellers' choice, proposed as the chosen player."""
    chose = submitted(step)
    if chose is None or impaired_note(night, seat, step, "nobody is made drunk."):
        return
    step.effects.append(Effect("drunk", chose[0], "sailor"))
    if chose[0] != seat.player:
        step.notes.append(f"proposed drunk until dusk: {night.label(chose[0])} (your choice: to make the Sailor "
                          "drunk instead, move the Drunk token with `/st reminder`).")


def _exorcist(night: Night, seat: Seat, step: Step) -> None:
    """"Each night*, choose a player (different to last night): the Demon, if chosen, learns who you
    are then doesn't wake tonight.\""""
    chose = submitted(step)
    if chose is None or impaired_note(night, seat, step, "the Demon wakes as usual."):
        return
    target = night.state.seat_of(chose[0])
    if night.chars[target.character].team == "demon":
        step.effects.append(Effect("skip", target.player, "exorcist"))
        step.notes.append(f"{night.label(target.player)} is the Demon: it learns who the Exorcist is and does not "
                          "wake tonight.")


def _assassin(night: Night, seat: Seat, step: Step) -> None:
    """"Once per game, at night*, choose a player: they die, even if for some reason they could not":
    no protection stops it (the Zombuul's first death still leaves it registering as dead)."""
    target = _first(step)
    if not target:
        return
    step.effects.append(Effect("spent", seat.player, "assassin"))
    if impaired_note(night, seat, step, "nobody dies (its ability is used)."):
        return
    victim = night.state.seat_of(target)
    first = first_death(night.state, victim, night.impaired)
    if not night.alive(target):
        step.notes.append(f"{night.label(target)} is already dead.")
    elif first == "zombuul" or _token(night.state, target, "zombuul", REGISTERS_DEAD):
        _first_or_true_death(night, step, target, "assassin")
    else:
        step.effects.append(Effect("dies", target, "assassin"))
        why = cannot_die(night.state, target, night.impaired, night.protected) or \
            ("the Fool's first death" if first == "fool" else "")
        if why:
            step.notes.append(f"{night.label(target)} dies even though they could not ({why}).")


def _godfather(night: Night, seat: Seat, step: Step) -> None:
    """"If [an Outsider] died today, choose a player tonight: they die.\""""
    if not wakes(night.state, seat, "godfather"):
        step.notes.append("no Outsider died today: the Godfather does not kill tonight.")
        return
    chose = submitted(step)
    if chose is None or impaired_note(night, seat, step, "nobody dies."):
        return
    _death(night, step, chose[0], "godfather")


def _devils_advocate(night: Night, seat: Seat, step: Step) -> None:
    """"Each night, choose a living player (different to last night): if executed tomorrow, they
    don't die.\""""
    chose = submitted(step)
    if chose is None or impaired_note(night, seat, step, "nobody is protected from execution."):
        return
    step.effects.append(Effect("token", chose[0], "devilsadvocate", SURVIVES))
    step.notes.append(f"{night.label(chose[0])}: if executed tomorrow, they don't die.")


def _professor(night: Night, seat: Seat, step: Step) -> None:
    """"Once per game, at night*, choose a dead player: if they are a Townsfolk, they are resurrected.\""""
    target = _first(step)
    if not target:
        return
    step.effects.append(Effect("spent", seat.player, "professor"))
    if impaired_note(night, seat, step, "nobody is resurrected (its ability is used)."):
        return
    chosen = night.state.seat_of(target)
    if night.chars[chosen.character].team == "townsfolk":
        step.effects.append(Effect("revive", target, "professor"))
    else:
        step.notes.append(f"{night.label(target)} is not a Townsfolk: nothing happens (its ability is used).")


def _tinker(night: Night, seat: Seat, step: Step) -> None:
    step.notes.append("the Tinker might die at any time: your choice (`/st kill` them, by night or day).")


def before_step(night: Night, seat: Seat, step: Step) -> list[Effect]:
    """The Goon: "Each night, the 1st player to choose you with their ability is drunk until dusk. You
    become their alignment": drunk before their ability acts (a Demon choosing it kills nobody)."""
    if not step.chose or seat.has("goon"):
        return []
    if "goon" in night.drunk.values():  # only the first to choose it tonight
        return []
    for goon in night.state.seats:
        if goon.player in step.chose and goon.has("goon") and not night.impaired(goon.player):
            alignment = night.state.seat_of(seat.player).alignment
            step.notes.append(f"chose the Goon, {night.label(goon.player)}, first tonight: drunk until dusk, and the "
                              f"Goon becomes {alignment} (tell them with `/st tell`).")
            return [Effect("drunk", seat.player, "goon"), Effect("align", goon.player, "goon", alignment)]
    return []


def after_step(night: Night, step: Step) -> list[Step]:
    """The Grandmother: "If the Demon kills [your grandchild], you die too\""""
    demon_killed = [e.player for e in step.effects if e.kind == "dies"
                    and e.source in night.chars and night.chars[e.source].team == "demon"]
    for effect in step.effects:
        if effect.kind == "dies":
            note = moonchild_note(night.state, night.state.seat_of(effect.player))
            if note and note not in step.notes:
                step.notes.append(note)
    steps = []
    for seat in night.state.seats:
        if not seat.has("grandmother") or not night.alive(seat.player) or night.impaired(seat.player):
            continue
        grandchild = next((r.player for r in night.state.reminders if r.source == "grandmother"
                           and "grandchild" in r.token.lower()), "")
        if grandchild and grandchild in demon_killed:
            died = Step(player=seat.player, character="grandmother", chose=None)
            died.notes.append(f"the Demon killed the grandchild, {night.label(grandchild)}: the Grandmother dies too.")
            _death(night, died, seat.player, "grandmother")
            for effect in died.effects:
                night.apply(died, effect)
            steps.append(died)
    return steps
