"""The Exorcist's effect on the Demon (Bad Moon Rising): "the Demon, if chosen, learns who you are
then doesn't wake tonight". The Demon is told privately when a working Exorcist's choice names it,
its night ask is withdrawn (``asks.ask_for``) and any choice it made is void; if the Exorcist changes
its choice before the lock, the Demon is told it wakes after all. The Demon's step at the lock is
the night's mechanics (``resolve``).
"""

from __future__ import annotations

from games.engine import STORYTELLER, Event, private

from .characters import Characters
from .rules import impaired
from .state import ClocktowerState


def exorcised(state: ClocktowerState, chars: Characters) -> dict[str, str]:
    """Tonight's Demons a working Exorcist chose: Demon -> Exorcist. The Exorcist's ability is read
    as the grimoire stands (a drunk or poisoned Exorcist, or the Drunk who believes they are one,
    stops nobody); "Each night*": never the first night."""
    if state.phase != "night" or state.night < 2:
        return {}
    found = {}
    for seat in state.seats:
        chose = state.night_choices.get(seat.player) or []
        if not seat.has("exorcist") or not seat.alive or len(chose) != 1 or impaired(state, seat.player) \
                or made_drunk_tonight(state, seat.player):
            continue
        if state.seated(chose[0]) and chars[state.seat_of(chose[0]).character].team == "demon":
            found[chose[0]] = seat.player
    return found


def made_drunk_tonight(state: ClocktowerState, player: str) -> bool:
    """Whether a working Sailor's or Innkeeper's choice tonight (both wake before the Exorcist)
    proposes this player drunk, as the night's plan reads it (its first chosen player)."""
    for seat in state.seats:
        chose = state.night_choices.get(seat.player) or []
        if chose[:1] == [player] and seat.alive and (seat.has("sailor") or seat.has("innkeeper")) \
                and not impaired(state, seat.player):
            return True
    return False


def exorcist_news(state: ClocktowerState, chars: Characters, before: dict[str, str]) -> list[Event]:
    """After an Exorcist's choice: a Demon newly chosen learns who chose them and that they do not wake
    tonight (their choice, if made, is void); a Demon no longer chosen wakes after all."""
    now = exorcised(state, chars)
    events: list[Event] = []
    for demon, exorcist in now.items():
        if before.get(demon) == exorcist:
            continue
        state.night_choices.pop(demon, None)
        state.night_answers.pop(demon, None)
        events.append(private(demon, "exorcist", f"🌙 The Exorcist, {state.label(exorcist)}, chose you tonight: "
                              "you do not wake tonight (no choice of yours counts).", title="The Exorcist"))
        events.append(Event(type="exorcist", audience=STORYTELLER, title=f"🌙 Night {state.night}: the Exorcist",
                            text=f"The Exorcist, {state.label(exorcist)}, chose the Demon, "
                                 f"{state.label(demon)}: told privately; the Demon does not wake tonight."))
    for demon in before:
        if demon not in now:
            events.append(private(demon, "exorcist", "🌙 The Exorcist's choice changed: you wake tonight after all. "
                                  "Choose with **Make my choice** before the night's actions lock.",
                                  title="The Exorcist"))
    return events
