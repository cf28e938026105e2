"""The Clocktower table's state: small on purpose.

It holds what every action reads: the seats in circle order, the script, the pool, the bluffs,
the Fabled, the reminder tokens and where the cycle stands. What grows all week (every vote,
whisper, night record and message a player was told) is not here: it is in the game's events
and, from issue 12 on, in append-only rows.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from games.engine import BaseState, IllegalAction, Player

from .script import Script

Alignment = Literal["good", "evil"]


class Seat(BaseModel):
    """One player's place in the circle and everything true about them."""

    model_config = ConfigDict(extra="forbid")
    player: str
    #: the number chosen at sign-up; the circle is in seat-number order
    seat: int
    #: the true character
    character: str
    #: the character on the player's card (the Drunk, the Lunatic, the Marionette see another)
    shown: str
    alignment: Alignment
    alive: bool = True
    #: a dead player's one vote (the living always vote)
    vote_token: bool = True
    traveller: bool = False
    #: the day a Traveller joined (0 for the players seated at the deal)
    joined_day: int = 0


class Reminder(BaseModel):
    """A reminder token on the grimoire: its text and which character (or the Storyteller) put it."""

    model_config = ConfigDict(extra="forbid")
    player: str
    token: str
    #: a character id, or "" for the Storyteller's own note
    source: str = ""


class LunaticInfo(BaseModel):
    """What the Lunatic, who believes they are the Demon, is shown at the deal: chosen with the
    deal (the Storyteller sees it in the grimoire and may re-deal), never real Demon information."""

    model_config = ConfigDict(extra="forbid")
    minions: tuple[str, ...]
    bluffs: tuple[str, ...]


class Settings(BaseModel):
    """The game's options that the rules read after the setup."""

    model_config = ConfigDict(extra="forbid")
    marionette_neighbours: Literal["demon", "demon_or_recluse"] = "demon"
    minions_learn_marionette: bool = False


class ClocktowerState(BaseState):
    script: Script
    #: the characters the Storyteller allowed the deal to use
    pool: tuple[str, ...]
    settings: Settings = Field(default_factory=Settings)
    #: in circle order; ``players`` (the engine's list) follows the same order
    seats: list[Seat]
    bluffs: tuple[str, ...] = ()
    lunatic: LunaticInfo | None = None
    fabled: list[str] = Field(default_factory=list)
    reminders: list[Reminder] = Field(default_factory=list)
    #: how many deals were made (re-deals included) before the characters went out
    deals: int = 1
    night: int = 0
    day: int = 0
    #: deaths and revivals the Storyteller recorded at night, told to the town at dawn
    dawn_deaths: list[str] = Field(default_factory=list)
    dawn_revivals: list[str] = Field(default_factory=list)

    # ----- reading seats -----
    def seat_of(self, player: str) -> Seat:
        for seat in self.seats:
            if seat.player == player:
                return seat
        raise IllegalAction("That player is not seated in this game.", code="not_seated")

    def by_character(self, character: str) -> list[Seat]:
        return [s for s in self.seats if s.character == character]

    def label(self, player: str) -> str:
        """"Alice (seat 3)": how the bot names a player to the table."""
        for seat in self.seats:
            if seat.player == player:
                return f"{self.name(player)} (seat {seat.seat})"
        return self.name(player)

    def sync_players(self, names: dict[str, str] | None = None) -> None:
        """Keep the engine's ``players`` in circle order after seats change (``names``: new players')."""
        known = {p.id: p.name for p in self.players} | (names or {})
        self.players = [Player(id=s.player, name=known.get(s.player, s.player), seat=s.seat) for s in self.seats]
