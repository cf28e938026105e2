"""Sects & Violets' characters the Storytellers judge by day: the Savant's two statements, the
Artist's question, and madness (the Mutant's, and the Cerenovus's target). The bot names each to the
Storytellers at dawn as theirs to judge (with the Vortox's and impairment's effect on it), and keeps
what they said to the Savant and the Artist as ``judged`` rows of the record, which the end reveal
reads day by day. Nothing of it is public, and nothing of it is state.
"""

from __future__ import annotations

from games.engine import STORYTELLER, Event, public, record

from .characters import Characters
from .rules import chars, impaired, who
from .snv_information import vortox_working
from .state import ClocktowerState, Seat

#: the cards the Storytellers answer by day with ``/st tell``, whose words are recorded
TOLD_BY_DAY = ("savant", "artist")


def _spent(state: ClocktowerState, seat: Seat) -> bool:
    """The Artist's once-per-game question is spent once its "No Ability" token is on it."""
    return any(r.player == seat.player and r.source == "artist" and r.token.lower() == "no ability"
               for r in state.reminders)


def _truth_note(state: ClocktowerState, seat: Seat, vortox: str) -> str:
    why = impaired(state, seat.player)
    if why:
        return f" Drunk or poisoned ({why}): any answer." + (
            f" Under the Vortox ({vortox}) it must be false all the same." if vortox else "")
    return f" Under the Vortox ({vortox}) it must be false." if vortox else ""


def judged_lines(state: ClocktowerState, known: Characters) -> list[str]:
    """Today's judgements for the Storytellers, one line each."""
    vortox = vortox_working(state)
    lines = []
    for seat in state.seats:
        if not seat.alive:
            continue
        if seat.acting == "savant":
            both = (f" Under the Vortox ({vortox}) both must be false." if vortox and not impaired(state, seat.player)
                    else "")
            note = _truth_note(state, seat, vortox) if impaired(state, seat.player) else both
            lines.append(f"• {who(state, seat)}, may visit you today: tell them 2 things, 1 true & 1 false, with "
                         f"`/st tell` (your judgement; the words are recorded).{note}")
        elif seat.acting == "artist" and not _spent(state, seat):
            lines.append(f"• {who(state, seat)}, may privately ask you one yes/no question, once per game: answer "
                         f"with `/st tell` and put the Artist's 'No Ability' token on them (`/st reminder`)."
                         f"{_truth_note(state, seat, vortox)}")
        if seat.character == "mutant" and not impaired(state, seat.player):
            lines.append(f"• {who(state, seat)}: if they are \"mad\" about being an Outsider today, you may execute "
                         "them (`/st execute`); your judgement.")
    for cerenovus in state.by_character("cerenovus"):
        chosen = state.night_choices.get(cerenovus.player) or []
        character = state.night_answers.get(cerenovus.player, "")
        if len(chosen) == 1 and state.seated(chosen[0]) and character in known:
            lines.append(f"• {state.label(chosen[0])} was made \"mad\" as the {known[character].name} by "
                         f"{who(state, cerenovus)} last night: if they break that madness today, you may execute "
                         "them (`/st execute`); your judgement.")
    return lines


def judged_today(state: ClocktowerState) -> list[Event]:
    """At dawn: the day's judgements for the Storytellers, when there are any."""
    lines = judged_lines(state, chars(state))
    if not lines:
        return []
    return [Event(type="judged_today", audience=STORYTELLER, title=f"⚖️ Day {state.day}: yours to judge",
                  text="\n".join(lines))]


def told_by_day(state: ClocktowerState, seat: Seat, text: str) -> list[Event]:
    """A ``/st tell`` to the Savant or the Artist is their judgement: a ``judged`` row of the record."""
    if seat.acting not in TOLD_BY_DAY:
        return []
    return [record("judged", {"day": state.day, "phase": state.phase, "player": seat.player, "card": seat.acting,
                              "text": text, "vortox": bool(vortox_working(state))})]


def mad_of(state: ClocktowerState, player: str) -> str:
    """The madness the Storytellers may execute ``player`` for today ("" when none): the Mutant's, or
    the character the Cerenovus chose them for last night."""
    seat = state.seat_of(player)
    if seat.character == "mutant":
        return "being an Outsider (the Mutant)"
    for cerenovus in state.by_character("cerenovus"):
        character = state.night_answers.get(cerenovus.player, "")
        if state.night_choices.get(cerenovus.player) == [player] and character in chars(state):
            return f"being the {chars(state)[character].name} (the Cerenovus)"
    return ""


def madness_judged(state: ClocktowerState, seat: Seat) -> list[Event]:
    """A Storyteller's execution (``/st execute``) of a player who may be executed for madness is their
    judgement of it: a ``judged`` row of the record."""
    mad = mad_of(state, seat.player)
    if not mad:
        return []
    return [record("judged", {"day": state.day, "phase": state.phase, "player": seat.player, "card": seat.character,
                              "text": f"executed by the Storytellers, judged mad about {mad}", "vortox": False})]


def judged_recap(state: ClocktowerState, records: list[Event]) -> list[Event]:
    """The end reveal: what the Storytellers told the Savant and the Artist, day by day."""
    known = chars(state)
    lines = []
    for rec in records:
        if rec.type != "judged":
            continue
        data = rec.data
        name = known[data["card"]].name if data["card"] in known else data["card"]
        when = f"day {data['day']}" if data.get("phase") == "day" else f"night {data['day'] + 1}"
        lines.append(f"• {when}, {state.name(data['player'])}, as the {name}: {data['text']}"
                     + (" (under the Vortox)" if data.get("vortox") else ""))
    if not lines:
        return []
    return [public("judged_recap", "\n".join(lines), title="⚖️ What the Storytellers judged")]
