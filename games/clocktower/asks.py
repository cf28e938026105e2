"""Who is asked what tonight (from ``data/night_asks.json``), by the night order.

Choosing is by the character a player *believes* they are (their card): the Lunatic chooses as
its Demon, the Drunk and the Marionette as their cards.
"""

from __future__ import annotations

from functools import lru_cache

from pydantic import BaseModel, ConfigDict, ValidationError

from .characters import DATA, Characters, ClocktowerDataError, read_data
from .rules import NO_ONE_TONIGHT
from .state import ClocktowerState, Seat


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


def order_for(state: ClocktowerState, seat: Seat, chars: Characters) -> tuple[str, ...]:
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
