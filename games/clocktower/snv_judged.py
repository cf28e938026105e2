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
from .snv_madness import cerenovus_mad
from .snv_twins import twin_notes
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
    lines += twin_notes(state) + klutz_lines(state)
    for seat in state.seats:
        character = cerenovus_mad(state, seat.player)
        if character is None:
            continue
        by = next((who(state, c) for c in state.by_character("cerenovus")
                   if state.night_choices.get(c.player) == [seat.player]), "the Cerenovus")
        lines.append(f"• {state.label(seat.player)} was made \"mad\" as the {character or '(unnamed)'} by {by} last night: if they "
                     "break that madness today (or tonight, until the actions lock), you may execute them "
                     "(`/st execute`); your judgement.")
    return lines


def klutz_lines(state: ClocktowerState) -> list[str]:
    """At dawn, for the Storytellers: each dead Klutz that has not chosen yet."""
    return [f"• {state.label(s.player)}, the Klutz, is dead and has not chosen: they must publicly choose 1 alive "
            "player (`/announce klutz`, in the announcement thread); remind them privately if they have not "
            "realised (the wiki)." for s in state.seats
            if s.has("klutz") and not s.alive and not s.traveller and s.player not in state.klutz_chosen]


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
