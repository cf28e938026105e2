"""Reminder tokens the Storyteller places at set-up, after the deal: the Fortune Teller's red herring.

Pure: it reads and changes the state it is given, with the game's random numbers; the deal calls it.
"""

from __future__ import annotations

from games.engine import Rng

from .state import ClocktowerState, Reminder

#: the Fortune Teller's token, as the official records spell it
RED_HERRING = "Red Herring"


def red_herring(state: ClocktowerState) -> str | None:
    """The player the Fortune Teller's red herring is on, or None."""
    return next((r.player for r in state.reminders
                 if r.source == "fortuneteller" and r.token.lower() == RED_HERRING.lower()), None)


def place_red_herring(state: ClocktowerState, rng: Rng) -> str | None:
    """"There is a good player that registers as a Demon to you": with a Fortune Teller in play (or a
    Drunk who believes they are one), put the red herring on a random good player, the Fortune Teller
    themself included (the wiki: it can be anyone good), never a Traveller. Returns the player; a red
    herring already placed stays. None when there is no Fortune Teller or no good player."""
    placed = red_herring(state)
    if placed is not None:
        return placed
    if not any("fortuneteller" in (s.character, s.shown) for s in state.seats):
        return None
    good = [s.player for s in state.seats if s.alignment == "good" and not s.traveller]
    if not good:
        return None
    chosen = rng.choice(good)
    state.reminders.append(Reminder(player=chosen, token=RED_HERRING, source="fortuneteller"))
    return chosen
