"""Advancing the ritual (the rulebook's second move of a turn): an outcome card turned face up, by
a player or by the castle (a turn's timer, the turn limit), how the table is told, and the prompt
that chooses the card. The turn's handler (``turn.py``) calls these."""

from __future__ import annotations

from games.engine import Choice, Event, Prompt, PromptField, public

from .data import OUTCOME, ritual_label
from .models import CastleState
from .rules import arcana_of, ritual_index
from .tableau import ritual_reveal_line


def face_down(state: CastleState) -> list[int]:
    """The ritual cards (0-7) whose outcome card is still face down."""
    return [k for k in range(8) if not state.revealed[k]]


def reveal(state: CastleState, k: int, pid: str | None) -> Event:
    """Turn the outcome card on ritual card ``k`` face up (``pid`` None: the castle does); the line
    that tells it (the table hears it only when the game ends here: see ``turn.end_turn``)."""
    state.revealed[k] = True
    left = state.revealed.count(False)
    who = f"**{state.name(pid)}** turns" if pid else "The castle turns"
    tail = f"{left} outcome card{'s' if left != 1 else ''} still face down." if left else \
        "That was the last one: **the ritual spell is cast!**"
    outcome = OUTCOME[state.rituals[k]]
    return public("advance", f"📜 {who} over an outcome card. {ritual_reveal_line(k, state.rituals[k])}: "
                             f"*{outcome.text}* {tail}",
                  data={"card": k + 1, "outcome": state.rituals[k]}, pause=2.0)


def reveal_summary(state: CastleState, k: int, pid: str) -> str:
    """The ``advance`` line's facts, for the turn message that carries them instead."""
    outcome = OUTCOME[state.rituals[k]]
    left = state.revealed.count(False)
    label = ritual_label(k).replace("Ritual", "ritual", 1)
    return (f"**{state.name(pid)}** turned {label} face up: **{outcome.title}**. *{outcome.text}* "
            f"{left} outcome card{'s' if left != 1 else ''} still face down.")


def advance_prompt(state: CastleState) -> Prompt:
    """The select of the face-down outcome cards, the one the rows point to now marked."""
    now = ritual_index(arcana_of(state.face_up))  # the one the rows point to
    return Prompt(
        action="advance", title="Advance the ritual",
        text="Turn one face-down outcome card face up. When the last one is face up, the spell is cast.",
        fields=[PromptField(name="card", placeholder="Ritual card to turn face up",
                            choices=[Choice(value=str(k + 1),
                                            label=(ritual_label(k) + (" ← now" if k == now else ""))[:100])
                                     for k in face_down(state)])],
        submit_label="Turn it face up",
    )
