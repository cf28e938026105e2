"""Ireland Cauldron's options, forced setup, state and actions (pydantic, JSON-serialisable)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from games.engine import Action, BaseState

Kind = Literal["milk", "blood"]


class CauldronOptions(BaseModel):
    """Table options. Timers in seconds; variants documented in the README."""

    model_config = ConfigDict(extra="forbid")

    night_seconds: int = Field(30, ge=5, le=3600, description="Night: time to cast an ingredient.")
    day_seconds: int = Field(60, ge=5, le=7200, description="Day: discussion before the next night.")
    choice_seconds: int = Field(20, ge=5, le=600,
                                description="Cailleach's Gaze and Yew votes: time for the pending choice.")
    night_timeout: Literal["random", "nothing"] = Field(
        "random", description="What a player who lets the night timer run out casts.")
    blocker: Literal["wolfbane", "thistle", "both"] = Field(
        "wolfbane", description="Which secondary blocks the primary effect.")
    evil_know_each_other: bool = Field(True, description="Evil heroes learn each other at the start.")
    ceol_leftover: Literal["return", "discard"] = Field(
        "return", description="Where the hero left over after Ceol goes: back into the hero deck, or out.")
    end_remaining: int = Field(5, ge=1, le=15,
                               description="The game ends when deck + revealed falls to this many cards.")
    night_quiet: bool = Field(
        False, description="Everyone is server-muted in the linked voice channel during the night's card "
        "selection (and its secret choices), unmuted at day.")
    narrate: bool = Field(True, description="Say each phase aloud in the linked voice channel.")


class CauldronSetup(BaseModel):
    """Forced parts of setup (tests, replays, bug reports). Everything left out is random."""

    model_config = ConfigDict(extra="forbid")

    #: player id -> hero key.
    heroes: dict[str, str] = Field(default_factory=dict)
    #: the top of the spare hero deck (drawn first by Ceol), hero keys.
    hero_deck: list[str] = Field(default_factory=list)
    #: the top of the center deck, top card first ("milk"/"blood"); the rest is shuffled.
    center: list[Kind] = Field(default_factory=list)
    #: player id -> the three ingredient keys they start with.
    hands: dict[str, list[str]] = Field(default_factory=dict)
    #: the top of the ingredient draw pile after the deal, top card first.
    draw: list[str] = Field(default_factory=list)


class Knowledge(BaseModel):
    """One thing a player saw of the cauldron (shown to them only)."""

    round: int
    how: Literal["gaze", "peek"]
    card: str
    kind: Kind
    #: where the card went: "top" (a peek leaves it there), "bottom", "discarded".
    fate: str = "top"


class HeroChange(BaseModel):
    round: int
    before: str
    after: str


class Step(BaseModel):
    """One effect waiting to resolve this round."""

    ingredient: str
    role: Literal["primary", "secondary"]
    rep: int = 1


class CauldronState(BaseState):
    options: CauldronOptions = Field(default_factory=CauldronOptions)

    # heroes
    heroes: dict[str, str] = Field(default_factory=dict)  # player id -> hero key (current)
    starting_heroes: dict[str, str] = Field(default_factory=dict)
    hero_deck: list[str] = Field(default_factory=list)  # spare heroes, top first
    evil_allies: dict[str, list[str]] = Field(default_factory=dict)  # what evil learned at setup
    hero_changes: dict[str, list[HeroChange]] = Field(default_factory=dict)
    hero_discard: list[str] = Field(default_factory=list)  # Ceol leftovers put out (ceol_leftover="discard")

    # the cauldron (center deck): card ids; kinds are secret until shown
    kinds: dict[str, Kind] = Field(default_factory=dict)
    deck: list[str] = Field(default_factory=list)  # top first
    revealed: list[str] = Field(default_factory=list)
    out: list[str] = Field(default_factory=list)  # discarded center cards, out of the game
    out_known: list[str] = Field(default_factory=list)  # discarded cards whose kind everyone saw

    # ingredients
    draw: list[str] = Field(default_factory=list)  # top first
    discard: list[str] = Field(default_factory=list)
    hands: dict[str, list[str]] = Field(default_factory=dict)
    chosen: dict[str, str] = Field(default_factory=dict)  # night choices, still in hand
    table: list[str] = Field(default_factory=list)  # cast this round, shuffled, visible all day
    played_by: dict[str, str] = Field(default_factory=dict)  # secret: who cast what this round

    # players
    removed: list[str] = Field(default_factory=list)
    sit_out: dict[str, int] = Field(default_factory=dict)  # player id -> round they cannot cast in
    poison: list[str] = Field(default_factory=list)  # poisoned ingredients ...
    poison_round: int = 0  # ... for casts in this round

    # resolution
    primary: str | None = None
    secondaries: list[str] = Field(default_factory=list)
    tie_note: str = ""
    queue: list[Step] = Field(default_factory=list)
    gaze_pending: dict[str, str] = Field(default_factory=dict)  # player id -> card id
    gaze_choices: dict[str, str] = Field(default_factory=dict)
    yew_voters: list[str] = Field(default_factory=list)
    yew_options: list[str] = Field(default_factory=list)
    yew_votes: dict[str, str] = Field(default_factory=dict)
    ended_discussion: list[str] = Field(default_factory=list)

    knowledge: dict[str, list[Knowledge]] = Field(default_factory=dict)

    def active(self) -> list[str]:
        return [p.id for p in self.players if p.id not in self.removed]

    def remaining(self) -> int:
        return len(self.deck) + len(self.revealed)


# ----- actions -----


class PlayCard(Action):
    """Night: cast one ingredient from your hand (change it until the night closes)."""

    type: Literal["play"] = "play"
    card: str


class GazeChoice(Action):
    """Cailleach's Gaze: the card you saw goes to the bottom, or out of the game."""

    type: Literal["gaze"] = "gaze"
    choice: Literal["bottom", "discard"]


class YewVote(Action):
    """Yew's Quiet Draught: vote for the ingredient to poison."""

    type: Literal["yew_vote"] = "yew_vote"
    target: str


class EndDiscussion(Action):
    """Day: you are ready for the next night."""

    type: Literal["end_discussion"] = "end_discussion"
