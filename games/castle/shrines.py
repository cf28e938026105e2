"""Manipulating the shrines (the rulebook's first move of a turn): pawns picked up into the hand,
which shrine a pawn may go on, a flip, the move told in one line, and the prompts that choose the
pawns and the shrines. The turn's handlers (``turn.py``) call these."""

from __future__ import annotations

from itertools import combinations
from typing import Any

from games.engine import Choice, Prompt, PromptField

from .checks import occupied
from .data import ARCANUM, COUNTRY, N_COLUMNS, N_SHRINES, ROWS, country_of_column, shrine_id, shrine_name
from .models import CastleState, HandPawn, PickUp, Place
from .tableau import public_tableau, short_card
from .words import pawn_label


def lift(state: CastleState, pid: str, k: int) -> int | None:
    """Pick up ``pid``'s pawn ``k`` (0-based) into the hand; the shrine it left (None: the supply)."""
    origin = state.pawns[pid][k]
    state.hand.append(HandPawn(pawn=k, origin=origin))
    state.pawns[pid][k] = None
    if origin is not None:
        state.vacated.append(origin)
    return origin


def free(state: CastleState, idx: int, taken: dict[int, str] | None = None) -> str | None:
    """Why a pawn cannot go on shrine ``idx`` now (None: it can). ``taken``: the shrines with a
    pawn on them, when the caller has them already."""
    if taken is None:
        taken = occupied(state)
    if idx in taken:
        return (f"{shrine_name(idx)} has {state.name(taken[idx])}'s pawn on it: "
                "you may only flip a shrine without a pawn.")
    if not state.options.same_shrine and idx in state.vacated:
        return f"At this table no pawn may go back on {shrine_name(idx)}: a pawn left it this turn."
    return None


def flip(state: CastleState, pid: str, idx: int) -> None:
    """Flip shrine ``idx`` and put the next pawn in hand on it (told in the turn's summary)."""
    held = state.hand.pop(0)
    state.face_up[idx] = not state.face_up[idx]
    if state.face_up[idx]:
        state.seen[idx] = True
    state.pawns[pid][held.pawn] = idx
    state.flips.append(idx)


def summary(state: CastleState) -> str:
    """The manipulation in one line: every flip (a card turned face up is named) and every pawn."""
    pid = state.current
    if not state.flips:
        return f"**{state.name(pid)}** did nothing this turn."
    parts = [f"{shrine_name(i)} {'up (' + short_card(state.layout[i]) + ')' if state.face_up[i] else 'down'}"
             for i in state.flips]
    pawns = " and put a pawn on it" if len(parts) == 1 else ", a pawn on each"
    moved = [shrine_name(i) for i in state.vacated]
    tail = f" (pawn{'s' if len(moved) > 1 else ''} moved from {', '.join(moved)})" if moved else ""
    return f"**{state.name(pid)}** flipped " + "; ".join(parts) + pawns + tail + "."


def flips_data(state: CastleState) -> dict[str, Any]:
    """The manipulation as data, for the turn message (``move``)."""
    return {"player": state.current,
            "flips": [{"shrine": i, "face_up": state.face_up[i]} for i in state.flips]}


def pick_up_prompt(state: CastleState, pid: str) -> Prompt:
    """The multi-select of the player's pawns, each labelled with where it is."""
    pawn_choices = [Choice(value=str(k + 1), label=f"Pawn {k + 1} {pawn_label(w)}"[:100])
                    for k, w in enumerate(state.pawns[pid])]
    return Prompt(
        action="pick_up", title="Manipulate the shrines",
        text="Pick up one or more of your pawns. Then, for each, you flip a shrine that has no pawn "
             "and put the pawn on it.",
        fields=[PromptField(name="pawns", placeholder="Pawns to pick up…",
                            choices=pawn_choices, min_values=1, max_values=len(pawn_choices))],
    )


def place_prompt(state: CastleState) -> Prompt:
    """One select per row (arcanum) of its free shrines: one pick flips a shrine and places a pawn."""
    pub = public_tableau(state)
    taken = occupied(state)
    fields = []
    for r, arc in enumerate(ROWS):
        a = pub["arcana"][arc]
        choices = []
        for c in range(N_COLUMNS):
            idx = r * N_COLUMNS + c
            if free(state, idx, taken) is not None:
                continue
            s = pub["shrines"][idx]
            if s["card"]:
                now = f"face up: {short_card(s['card'])}" if s["face_up"] else f"face down (shows {short_card(s['card'])})"
            else:
                now = f"face down (was {short_card(s['was'])})" if s["was"] else "face down"
            country = COUNTRY[country_of_column(c + 1)].name
            # one line an option, so a phone shows the whole row's choices: "4 (Marus) · face down → up"
            to = "down" if s["face_up"] else "up"
            choices.append(Choice(value=shrine_id(idx), label=f"{c + 1} ({country}) · {now} → {to}"[:100]))
        if choices:
            fields.append(PromptField(name=arc, into="shrine", choices=choices,
                                      placeholder=f"{ARCANUM[arc].name} row ({a['state']}, {a['active']}/9 up)…"[:150]))
    left = len(state.hand)
    return Prompt(
        action="place", title=f"Flip a shrine and place a pawn ({left} to place)",
        text="Pick a shrine in any row: it flips over and your pawn goes on it. Shrines with a pawn "
             "on them are not listed.",
        fields=fields, any_field=True,
    )


def pick_ups(state: CastleState, pid: str) -> list[PickUp]:
    """Every legal pick-up of the player's pawns (for the simulator)."""
    n = len(state.pawns[pid])
    return [PickUp(player=pid, pawns=list(c)) for size in range(1, n + 1) for c in combinations(range(1, n + 1), size)]


def places(state: CastleState, pid: str) -> list[Place]:
    """Every shrine the next pawn in hand may go on (for the simulator)."""
    taken = occupied(state)
    return [Place(player=pid, shrine=shrine_id(i)) for i in range(N_SHRINES) if free(state, i, taken) is None]
