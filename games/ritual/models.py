"""Options, forced setup, state and actions of The Ritual."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from games.engine import Action, BaseState

#: Corrupted witches dealt by default for each table size.
CORRUPTED_BY_COUNT = {3: 1, 4: 1, 5: 1, 6: 2, 7: 2, 8: 2, 9: 3}


class RitualOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    choosing_seconds: int = Field(90, ge=10, le=900, description="The Choosing: discussion and Performer vote.")
    offering_seconds: int = Field(45, ge=10, le=600, description="The Offering: each witch picks an ingredient.")
    council_seconds: int = Field(120, ge=10, le=900, description="The Council: discussion and burn vote.")
    revenant: bool = Field(False, description="Deal the neutral Revenant (only at 7+ players).")
    revenant_ends_game: bool = Field(
        True, description="The Revenant's win ends the game (else they win alongside, and play goes on).")
    corrupted_count: int = Field(0, ge=0, le=3, description="Corrupted witches; 0 = by table size.")
    corrupted_know_each_other: bool = Field(
        True, description="Corrupted learn their teammates' names at the start (else only anonymous whispers).")
    idle_offering: Literal["random", "none"] = Field(
        "random", description="What a witch who lets the Offering timer run out contributes.")
    amplify_tainted: Literal["backfire", "split"] = Field(
        "backfire", description="Amplification turns TAINTED into BACKFIRED, or splits it to either extreme.")
    amp_and_sup: Literal["net", "in_order"] = Field(
        "net", description="Amplification and Suppression together: they cancel one for one (net), "
        "or Amplification acts and then any Suppression dampens (in_order).")
    misdirection: Literal["random", "invert"] = Field(
        "random", description="How a Misdirection ingredient scrambles a PURE vision.")
    infection_per_backfire: int = Field(2, ge=1, le=2, description="Infection added by a BACKFIRED ritual.")
    reveal_on_death: bool = Field(False, description="Announce a dead witch's role when they die.")
    wards_shield_council: bool = Field(
        True, description="A PURE Protection ritual shields the Performer from that round's burn.")
    allow_spare: bool = Field(True, description="The burn vote has a 'burn no one' choice.")
    performer_tie: Literal["fewest_then_random", "random"] = Field(
        "fewest_then_random", description="Performer vote tie: who has performed least, then at random.")
    max_rounds: int = Field(12, ge=5, le=30, description="Safety limit: after this round the game is a draw.")
    speaking_turns: bool = Field(
        False, description="Silence rules: in The Choosing each living witch has the floor in turn (the others "
        "are server-muted in the linked voice channel), then everyone may speak and the vote closes.")
    turn_seconds: int = Field(
        0, ge=0, le=120, description="Seconds of each speaking turn; 0 = fitted to The Choosing (its time less "
        "20 s for the vote, shared among the living, 8 to 20 s each).")
    turn_order: Literal["seat", "random"] = Field(
        "seat", description="Speaking order: seat order, opening one seat later each round; or random each round.")
    mute_dead: bool = Field(
        False, description="The dead are server-muted in the linked voice channel until the game ends.")
    narrate: bool = Field(True, description="Say each phase aloud in the linked voice channel.")


class RitualSetup(BaseModel):
    """Forced parts of setup, for tests and replay scripts."""

    model_config = ConfigDict(extra="forbid")
    #: role id by player id; when given it must name every player.
    roles: dict[str, str] = Field(default_factory=dict)


class RitualState(BaseState):
    options: RitualOptions = Field(default_factory=RitualOptions)
    roles: dict[str, str] = Field(default_factory=dict)
    dead: list[str] = Field(default_factory=list)
    removed: list[str] = Field(default_factory=list)
    performer: str = ""
    performed: dict[str, int] = Field(default_factory=dict)
    #: the current phase's secret votes (Performer or burn), voter -> target ("none" = spare).
    votes: dict[str, str] = Field(default_factory=dict)
    #: this round's offerings, player -> ingredient id.
    offerings: dict[str, str] = Field(default_factory=dict)
    infection: int = 0
    pure: int = 0
    backfired: int = 0
    deaths: int = 0
    moon: bool = False  # the Purging Moon shines on the next ritual
    moon_risen: bool = False
    hunger: bool = False  # spite deaths on any backfire (round 4+, Infection >= 5) announced
    warded: str = ""  # the Performer shielded from this round's burn
    revenant_won: bool = False
    #: the hidden record of each ritual (who offered what, numbers), one compact string per
    #: ritual (records.py); revealed at the end.
    history: list[str] = Field(default_factory=list)
    #: the Choosing's speaking order (speaking_turns) and the index of the turn running now; the
    #: turns are over once ``turn`` reaches the end of the order.
    speakers: list[str] = Field(default_factory=list)
    turn: int = 0

    def is_alive(self, pid: str) -> bool:
        return pid not in self.dead and pid not in self.removed


class VotePerformer(Action):
    """The Choosing: vote for this round's Performer (the 13th Chair)."""

    type: Literal["vote_performer"] = "vote_performer"
    target: str


class Offer(Action):
    """The Offering: put one ingredient of your pool into the cauldron."""

    type: Literal["offer"] = "offer"
    ingredient: str


class VoteBurn(Action):
    """The Council: vote to burn a witch, or "none" to burn no one."""

    type: Literal["vote_burn"] = "vote_burn"
    target: str
