"""Who is asked what tonight (from ``data/night_asks.json``), by the night order.

Choosing is by the character a player *believes* they are (their card): the Lunatic chooses as
its Demon, the Drunk and the Marionette as their cards.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from .bmr_exorcist import exorcised
from .bmr_night import wakes
from .characters import DATA, Character, Characters, ClocktowerDataError, read_data
from .judged import judged_ask, question
from .rules import NO_ONE_TONIGHT, lives, ruled
from .snv_night import asked_dead
from .state import ClocktowerState, Seat


class Ask(BaseModel):
    """What one character is asked at night."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    #: what the answer is: players (the ruled asks), or, for a character the Storytellers judge, the
    #: form its ability takes (``judged.py``): a character, players then a character, yes or no, or a
    #: free reply in the player's thread
    kind: Literal["players", "character", "player_and_character", "yes_no", "free"] = "players"
    count: int = 1
    text: str
    #: the Lleech's first night
    first_text: str = ""
    may_choose_no_one: bool = False
    #: the Po after a night of no-one: how many, and what it is told
    charged_count: int = 0
    charged_text: str = ""
    not_self: bool = False
    #: not a Traveller (the Dreamer)
    not_traveller: bool = False
    living_only: bool = False
    #: asked only when killed tonight (the Ravenkeeper)
    when_killed: bool = False
    dead_only: bool = False
    #: a "once per game" ability: not asked again once the player has chosen at a lock
    once_per_game: bool = False
    #: the Storytellers judge this character (the bot has no rules for it)
    judged: bool = False
    #: "different to last night" (the Exorcist, the Devil's Advocate)
    not_last_night: bool = False
    #: the character must be good: a Townsfolk or an Outsider (the Cerenovus)
    good_character: bool = False


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
    if ask is None and not ruled(state, character) and character in chars:
        ask = judged_for(chars[character], first_night_for(state, seat))
    if ask is not None and ask.once_per_game and seat.player in state.used_once:
        return None
    if ask is None or character not in order_for(state, seat, chars) or not wakes(state, seat, character):
        return None
    if ask.when_killed and seat.player not in state.dawn_deaths:
        return None
    if seat.player in exorcised(state, chars):  # the Exorcist chose this Demon: it does not wake tonight
        return None
    if not ask.when_killed and not lives(state, seat) and not asked_dead(state, seat):
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


@lru_cache(maxsize=512)
def judged_for(character: Character, first_night: bool) -> Ask | None:
    """The night ask of a character the Storytellers judge, in the form its ability takes; None when
    it chooses nothing at night (it is still woken in its place on their night sheet)."""
    reminder = character.first_night_reminder if first_night else character.other_night_reminder
    found = judged_ask(character.ability, reminder, first_night=first_night)
    if found is None:
        return None
    return Ask(kind=found.kind, count=max(1, found.count), text=question(character.name, found).removeprefix("🌙 "),
               may_choose_no_one=found.may_choose_no_one, not_self=found.not_self, living_only=found.living_only,
               dead_only=found.dead_only, when_killed=found.when_killed, once_per_game=found.once_per_game,
               judged=True)
