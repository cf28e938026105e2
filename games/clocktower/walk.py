"""The night walk's pieces, shared by ``resolve`` and the editions' night modules (``bmr_night``):
an effect, a step, and the walk's running picture of who is dying, poisoned, drunk or protected.

Kept apart from ``resolve`` so an edition's module can build steps without importing the walk
that calls it (no import circle).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from .characters import Characters
from .rules import impaired, lives
from .state import Abnormal, ClocktowerState, Seat

#: "safe": the Monk's protection, for the rest of the walk only (nothing for the grimoire to keep);
#: "protect": can't die tonight (the Innkeeper), for the walk only; "skip": does not wake tonight
#: (the Exorcist's Demon), for the walk only; "drunk": a Drunk token until dusk; "token" / "untoken":
#: a reminder token (``Effect.token``) put on or taken off; "spent": a once-per-game ability used;
#: "revive": resurrected (the Professor); "align": turns to the alignment ``Effect.token`` (the Goon);
#: "becomes": the player becomes the source's character, evil (the Fang Gu's jump); "keeps": a dead
#: Minion keeps its ability (the Vigormortis's); "cursed": the Witch's curse for tomorrow; "swap": the player
#: and the player ``Effect.token`` swap characters (the Snake Charmer's, the Barber's: ``snv_swaps``); "made":
#: the player becomes the character ``Effect.token`` (the Pit-Hag's); "gains": the player gains the ability of
#: the character ``Effect.token`` (the Philosopher's)
EffectKind = Literal["dies", "poison", "heal", "negative", "safe", "protect", "skip", "drunk", "token",
                     "untoken", "spent", "revive", "align", "becomes", "keeps", "cursed", "swap", "made", "gains"]


@dataclass(frozen=True)
class Effect:
    kind: EffectKind
    player: str
    #: the character whose ability does it
    source: str
    #: the reminder token's text ("token", "untoken"), or the alignment ("align")
    token: str = ""


@dataclass
class Step:
    player: str
    character: str
    chose: list[str] | None
    effects: list[Effect] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    #: why this player's ability worked abnormally tonight, for the Mathematician ("" if it did not)
    abnormal: str = ""
    #: other players' abilities that failed at this step (a poisoned Soldier the Demon kills)
    failed: list[Abnormal] = field(default_factory=list)


class Night:
    """The walk's running picture: who is dying tonight and who was poisoned or healed so far."""

    def __init__(self, state: ClocktowerState, chars: Characters) -> None:
        self.state, self.chars = state, chars
        self.dying = set(state.dawn_deaths)
        self.poisoned: set[str] = set()
        self.healed: set[str] = set()
        #: the Monk's choices tonight: player -> the Monk who protects them
        self.safe: dict[str, str] = {}
        #: can't die tonight: player -> the player whose ability protects them (the Innkeeper)
        self.protected: dict[str, str] = {}
        #: made drunk earlier tonight: player -> the character that did it
        self.drunk: dict[str, str] = {}
        #: does not wake tonight: player -> the player whose ability put them to sleep (the Exorcist)
        self.asleep: dict[str, str] = {}
        #: a new character earlier tonight: player -> the character they became (the Pit-Hag's)
        self.changed: dict[str, str] = {}

    def alive(self, player: str) -> bool:
        return lives(self.state, self.state.seat_of(player)) and player not in self.dying

    def impaired(self, player: str) -> str:
        if player in self.poisoned:
            return "poisoned earlier tonight"
        if player in self.drunk:
            return f"drunk by the {self.chars[self.drunk[player]].name} earlier tonight"
        return "" if player in self.healed else impaired(self.state, player)

    def safe_soldier(self, player: str) -> bool:
        return self.state.seat_of(player).has("soldier") and not self.impaired(player)

    def label(self, player: str) -> str:
        return self.state.label(player)

    def apply(self, step: Step, effect: Effect) -> None:
        """What an effect changes in the rest of tonight's walk."""
        if effect.kind == "dies":
            self.dying.add(effect.player)
        elif effect.kind == "poison":
            self.poisoned.add(effect.player)
        elif effect.kind == "heal":
            self.healed.add(effect.player)
            self.poisoned.discard(effect.player)
        elif effect.kind == "safe":
            self.safe[effect.player] = step.player
        elif effect.kind == "protect":
            self.protected[effect.player] = step.player
        elif effect.kind == "drunk" or (effect.kind == "token" and effect.token.lower().startswith("drunk")):
            self.drunk[effect.player] = effect.source
        elif effect.kind == "skip":
            self.asleep[effect.player] = step.player


def submitted(step: Step) -> list[str] | None:
    """What the player chose; None, with a note, when they submitted nothing (not the same as no-one)."""
    if step.chose is None:
        step.notes.append("nothing submitted: nothing happens (not the same as no-one).")
    return step.chose


def impaired_note(night: Night, seat: Seat, step: Step, what: str) -> bool:
    why = night.impaired(seat.player)
    if why:
        step.notes.append(f"impaired ({why}): {what}")
        step.abnormal = f"impaired ({why}): {what}"
    return bool(why)
