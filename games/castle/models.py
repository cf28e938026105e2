"""Castle of Magic: the table's options, the forced parts of setup, the state and the actions."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from games.engine import Action, BaseState, IllegalAction

from .data import N_COLUMNS, ROWS, shrine_index
from .rules import Spell

# ----------------------------------------------------------------------------- options / setup


class CastleOptions(BaseModel):
    """Table options. Every choice the rulebook leaves open is one of these (see README)."""

    model_config = ConfigDict(extra="forbid")
    turn_seconds: int | None = Field(
        default=None, ge=0, le=7 * 24 * 3600, json_schema_extra={"default_words": "no timer (the rulebook's)"},
        description="Seconds a player has for a turn; 0 or none means no timer")
    nudge_seconds: int | None = Field(
        default=180, ge=0, le=7 * 24 * 3600,
        description="Without a turn timer: seconds of quiet before the player whose turn it is is called "
                    "again (a mention); 0 or none never")
    on_timeout: Literal["pass", "random"] = Field(
        "pass", description="A turn whose timer runs out: pass (nothing more happens) or random (the bot moves "
                            "for the player)")
    first_player: Literal["random", "claim", "listed"] = Field(
        "random", description="Who goes first: random; claim (whoever most recently did a magic trick presses "
                              "the button); or listed (the first seat)")
    claim_seconds: int = Field(default=120, ge=10, le=24 * 3600,
                               description="With first_player=claim, seconds to claim the first turn")
    deal: Literal["random", "with_monster"] = Field(
        "random", description="Deal from all 13 character cards (random), or always deal the Monster (with_monster)")
    pawns: int | None = Field(
        default=None, ge=1, le=3, json_schema_extra={"default_words": "12 ÷ players (3 at four players, 2 at five or six)"},
        description="Pawns per player")
    pawns_start: Literal["supply", "tableau"] = Field(
        "supply", description="Where pawns start: in each player's supply, or on random shrines (no flip)")
    start_face_up: int = Field(default=13, ge=0, le=27, description="How many shrine cards (chosen at random) "
                                                                     "start face up")
    open_shrines: bool = Field(False, description="Face-down shrines show their faction to everyone (an "
                                                  "open-information variant)")
    memory: bool = Field(True, description="A face-down shrine that has been face up before shows what it was "
                                           "(the table's memory)")
    same_shrine: bool = Field(True, description="A pawn picked up this turn may be put back on (and flip) the "
                                                "shrine it came from")
    domination: Literal["master_spared", "no_rampage"] = Field(
        "master_spared", description="After a domination, the Monster devours everyone but its master "
                                     "(master_spared), or nobody (no_rampage)")
    devoured_score: Literal["countries", "nothing"] = Field(
        "countries", description="A devoured character still scores countries and feeding (countries), or "
                                 "scores nothing")
    max_turns: int | None = Field(
        default=None, ge=1, le=10_000, json_schema_extra={"default_words": "no limit"},
        description="After this many turns the remaining outcome cards turn over by themselves")
    narrate: bool = Field(True, description="Say whose turn it is, and the end, aloud in the linked voice channel")


class CastleSetup(BaseModel):
    """Forced parts of setup (tests, replays, bug reports). Anything left out is dealt at random."""

    model_config = ConfigDict(extra="forbid")
    #: player id -> character id (e.g. "dragon_kida", "wolf_cultist", "monster").
    characters: dict[str, str] | None = None
    #: three rows (bell, book, candle) of nine cards: "dragon", "eagle", "wolf", "amulet", "crown", "scepter".
    layout: list[list[str]] | None = None
    #: shrine ids ("bell-1" .. "candle-9") that start face up; every other shrine starts face down.
    face_up: list[str] | None = None
    #: player id -> shrine ids their pawns start on (the rest of their pawns are in their supply).
    pawns: dict[str, list[str]] | None = None
    #: the outcome on each ritual card, in ritual-card order (1 = ringing/open/lit ... 8 = silent/closed/unlit).
    rituals: list[str] | None = None
    first_player: str | None = None


# ----------------------------------------------------------------------------- state / actions


class HandPawn(BaseModel):
    pawn: int  # 0-based pawn number of the current player
    origin: int | None  # shrine it was picked up from (None: the supply)


class CastleState(BaseState):
    options: CastleOptions
    layout: list[str]
    face_up: list[bool]
    seen: list[bool]
    characters: dict[str, str]
    pawns: dict[str, list[int | None]]
    removed: list[str] = Field(default_factory=list)
    current: str = ""
    first: str = ""
    hand: list[HandPawn] = Field(default_factory=list)
    flips: list[int] = Field(default_factory=list)  # shrines flipped this turn
    vacated: list[int] = Field(default_factory=list)  # shrines pawns were picked up from this turn
    rituals: list[str]
    revealed: list[bool]
    turns: int = 0
    spell: Spell | None = None


class ClaimFirst(Action):
    """'I performed a magic trick most recently': go first (first_player = "claim")."""

    type: Literal["claim_first"] = "claim_first"


class PickUp(Action):
    """Manipulate the shrines, step 1: pick up one or more of your pawns (numbers 1..n)."""

    type: Literal["pick_up"] = "pick_up"
    pawns: list[int] = Field(min_length=1, max_length=3)


class Place(Action):
    """Manipulate the shrines, step 2 (once per pawn picked up): flip this shrine and put a pawn on
    it: ``row`` and ``column``, or ``shrine`` ("book-3")."""

    type: Literal["place"] = "place"
    row: Literal["bell", "book", "candle"] | None = None
    column: int | None = Field(default=None, ge=1, le=N_COLUMNS)
    shrine: str = Field("", max_length=20)

    def index(self) -> int:
        """The shrine's index, from ``shrine`` or ``row`` and ``column``; refused in words otherwise."""
        if self.shrine:
            try:
                return shrine_index(self.shrine)
            except KeyError:
                raise IllegalAction(f"There is no shrine {self.shrine!r}: name one like book-3.",
                                    code="no_such_shrine") from None
        if self.row is None or self.column is None:
            raise IllegalAction("Name the shrine: a row (bell, book, candle) and a column (1-9).",
                                code="no_such_shrine")
        return ROWS.index(self.row) * N_COLUMNS + self.column - 1


class Advance(Action):
    """Advance the ritual: turn the outcome card on ritual card ``card`` (1..8) face up."""

    type: Literal["advance"] = "advance"
    card: int = Field(ge=1, le=8)
