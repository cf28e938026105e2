"""The helpers every rule uses: refusing an action, finding a seat, reading a character, the
grimoire's impairments, words for hours and counts, moving the cycle to a stage, and the end.

The bottom of the game's modules: it imports only the engine, the data and the state.
"""

from __future__ import annotations

from typing import Any

from games.engine import IllegalAction, Outcome, public

from .actions import MAX_TRAVELLERS, MAX_TRAVELLERS_OFFICIAL
from .characters import Characters
from .characters import load as load_hrh
from .info import reveal_text
from .options import HOUR
from .reveal import grimoire_marks
from .script_characters import characters_for
from .snv_night import barista_sober, nodashii_poison, vigormortis_poison_holds
from .snv_philosopher import philosopher_drunk
from .state import ClocktowerState, Seat

#: the value of "no-one" in a night choice (the Po)
NO_ONE_TONIGHT = "no-one"
#: the group key of a whisper's private thread is this and the whisper's number
WHISPER_KEY = "whisper:"
#: the teams the deal gives out (Travellers and Fabled come in by the Storytellers' commands)
DEALT_TEAMS = ("townsfolk", "outsider", "minion", "demon")


#: the characters the bot rules on any script besides Her Royal Highness Register's own (whose ids it
#: rules everywhere), by official id; each has its entries in the concern tables (``ruled.py`` lists them)
RULED_OFFICIAL: frozenset[str] = frozenset({
    # Trouble Brewing: its information (the copilot) and its mechanics (the night, the day, the end)
    "librarian", "investigator", "chef", "fortuneteller", "imp", "poisoner", "monk", "scarletwoman", "saint",
    "mayor", "slayer", "butler", "bureaucrat", "gunslinger", "beggar",
    # Sects & Violets: its information (the copilot, snv_information.py)
    "clockmaker", "dreamer", "flowergirl", "towncrier", "oracle", "seamstress", "sage",
    # Bad Moon Rising's information (the copilot, the Gambler's guess)
    "grandmother", "chambermaid", "gambler", "gossip", "pacifist", "mastermind",
    "voudon", "bishop", "matron", "judge",
    # Bad Moon Rising: its mechanics (the night's kills and protections, bmr_night.py)
    "zombuul", "shabaloth", "innkeeper", "sailor", "tealady", "fool", "exorcist", "assassin", "godfather",
    "devilsadvocate", "professor", "tinker", "minstrel", "goon", "courtier", "moonchild",
    # Sects & Violets: its mechanics (snv_night.py, snv_day.py)
    "fanggu", "vigormortis", "nodashii", "vortox", "witch", "sweetheart",
    # Sects & Violets: madness, the twins, the Klutz (snv_twins.py, snv_madness.py, snv_judged.py)
    "eviltwin", "cerenovus", "mutant", "klutz", "savant", "artist",
    # Sects & Violets' Travellers (snv_travellers.py)
    "butcher", "bonecollector", "harlot", "barista",

    # Sects & Violets: the character changers (snv_swaps.py)
    "snakecharmer", "barber", "pithag", "philosopher"})


def ruled(state: ClocktowerState, character: str) -> bool:
    """Whether the bot has rules for this character in this game: every character of Her Royal
    Highness Register (its rulebook's, by its ids) and ``RULED_OFFICIAL``. The rest are the
    Storytellers' to judge (woken, asked, answered freely)."""
    return state.script.rules == "hrh" or character in load_hrh().characters or character in RULED_OFFICIAL


def most_travellers(state: ClocktowerState) -> int:
    """How many Travellers may be in play at once with this game's script."""
    return MAX_TRAVELLERS if state.script.rules == "hrh" else MAX_TRAVELLERS_OFFICIAL


def chars(state: ClocktowerState) -> Characters:
    """Every character this game knows: its script's (built once per script)."""
    return characters_for(state.script)


# ----- refusing -----

def illegal(text: str, code: str) -> IllegalAction:
    return IllegalAction(text, code=code)


def need_phase(state: ClocktowerState, *phases: str, doing: str) -> None:
    if state.phase not in phases:
        when = {"setup": "before the characters go out", "night": "at night", "day": "by day"}
        allowed = " or ".join(when[p] for p in phases)
        raise illegal(f"You can {doing} only {allowed}.", "wrong_phase")


def after_deal(state: ClocktowerState, doing: str) -> None:
    if state.phase == "setup":
        raise illegal(f"The characters have not gone out yet: `/st begin` first, then {doing}.",
                      "not_begun")


def target_seat(state: ClocktowerState, player: str) -> Seat:
    """The seat of ``player``, or refused by name (never by raw id)."""
    for seat in state.seats:
        if seat.player == player:
            return seat
    known = player and state.name(player) != player  # a name the table knows, else no raw id
    raise illegal(f"{state.name(player) if known else 'That player'} is not seated in this game.", "not_seated")


def character_id(state: ClocktowerState, raw: str, teams: tuple[str, ...]) -> str:
    """The id of the character a Storyteller named, refused unless it is of one of ``teams``."""
    character = chars(state).resolve(raw)
    if character is None or character.team not in teams:
        kinds = "/".join(teams)
        raise illegal(f"{raw!r} is not a {kinds} character this game knows.", "bad_character")
    return character.id


# ----- the grimoire -----

def impaired(state: ClocktowerState, player: str) -> str:
    """Why the grimoire says this player's ability does not work ("" when nothing does), and by
    whom: "poisoned by the Pukka" from a Poisoned or Drunk reminder token on them. The Beggar is
    "sober & healthy": no token impairs it, nor a player the Barista made sober & healthy."""
    if any(s.player == player and s.character == "beggar" for s in state.seats) or barista_sober(state, player):
        return ""
    for reminder in state.reminders:
        if reminder.player == player and any(w in reminder.token.lower() for w in ("poison", "drunk")):
            if reminder.source == "vigormortis" and not vigormortis_poison_holds(state, player):
                continue
            by = f" by the {reminder.source.capitalize()}" if reminder.source else ": your own token"
            return f"{reminder.token.lower()}{by}"
    return nodashii_poison(state, player) or philosopher_drunk(state, player)


#: the Zombuul's first death: it lives, but registers as dead (its seat shows dead to the town)
REGISTERS_DEAD = "Registers as dead"


def lives(state: ClocktowerState, seat: Seat) -> bool:
    """Whether a player truly lives: alive, or the Zombuul after its first death, dead to the town."""
    return seat.alive or any(r.player == seat.player and r.source == "zombuul" and r.token == REGISTERS_DEAD
                             for r in state.reminders)


def circle_neighbours(state: ClocktowerState, player: str, *, living: bool = True) -> list[str]:
    """The nearest player on each side of ``player`` in the circle: the nearest living ones
    (``living``, as the Empath counts them), or the seats beside, alive or dead."""
    seats = state.seats
    at = next(i for i, s in enumerate(seats) if s.player == player)
    found: list[str] = []
    for step in (-1, 1):
        for k in range(1, len(seats)):
            seat = seats[(at + step * k) % len(seats)]
            if not living or seat.alive:
                if seat.player != player:
                    found.append(seat.player)
                break
    return list(dict.fromkeys(found))


def who(state: ClocktowerState, seat: Seat) -> str:
    """"Ann (seat 3), the Pukka" for the Storytellers, with the truth where the card differs."""
    known = chars(state)
    shown = known[seat.shown].name
    truth = f" (truly the {known[seat.character].name})" if seat.character != seat.shown else ""
    return f"{state.label(seat.player)}, the {shown}{truth}"


def choice_text(state: ClocktowerState, targets: list[str]) -> str:
    return "no-one" if targets == [NO_ONE_TONIGHT] else ", ".join(state.label(t) for t in targets)


# ----- words -----

def plural(count: int, word: str, words: str = "") -> str:
    """``plural(1, "vote")`` -> "1 vote"; ``plural(2, "vote")`` -> "2 votes"."""
    return f"{count} {word if count == 1 else (words or word + 's')}"


def hours(seconds: float) -> str:
    """``7200`` -> "2 hours"; ``1800`` -> "30 minutes"."""
    if seconds >= HOUR:
        count = seconds / HOUR
        return f"{count:g} hour{'s' if count != 1 else ''}"
    minutes = round(seconds / 60)
    return f"{minutes} minute{'s' if minutes != 1 else ''}"


# ----- the cycle and the end -----

def set_stage(state: ClocktowerState, phase: str, stage: str) -> None:
    state.next_phase(phase)
    state.stage = stage


def talk_data(state: ClocktowerState, talk: str) -> dict[str, Any]:
    """What the bot closes at nightfall and opens at dawn, where it may: the town square and
    the threads of the open whispers ("Whispering and talking publicly is disabled")."""
    return {"talk": talk, "whispers": [f"{WHISPER_KEY}{w.id}" for w in state.whispers if not w.broken_by],
            "players": [s.player for s in state.seats]}


def finish(state: ClocktowerState, outcome: str, winners: list[str], text: str) -> Outcome:
    """The game is over: the winners, and the grimoire revealed to all."""
    state.finished = True
    state.outcome = outcome
    state.winners = winners
    state.pending_end = None
    state.stage = ""
    state.next_phase("over")
    return Outcome(state=state, events=[
        public("game_over", f"{text}\n\n{reveal_text(state, chars(state), grimoire_marks(state))}", title="The grimoire, revealed",
               image="grimoire", data=talk_data(state, "open"))])
