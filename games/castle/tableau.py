"""The public picture of the tableau: what everyone at the table can see, and its text fallback.

Both the renderer and the text fallback read only ``public_tableau`` (never the raw layout), so a
face-down shrine's faction or an unrevealed outcome cannot reach the channel by mistake.
"""

from __future__ import annotations

from typing import Any

from .data import (
    ARCANUM,
    CARDS,
    COUNTRY,
    FACTION,
    N_COLUMNS,
    N_SHRINES,
    OUTCOME,
    REGALIA_BY_ID,
    RITUALS,
    ROWS,
    country_of_column,
    ritual_label,
    shrine_id,
    shrine_name,
)
from .rules import is_on, pawn_owners, ritual_index, row_active


def short_card(card: str) -> str:
    if card in FACTION:
        return FACTION[card].short
    return REGALIA_BY_ID[card].name


_STATIC = tuple(
    (shrine_id(i), shrine_name(i), ROWS[i // N_COLUMNS], i % N_COLUMNS + 1, country_of_column(i % N_COLUMNS + 1))
    for i in range(N_SHRINES)
)


def public_tableau(state: Any, reveal: bool | None = None) -> dict[str, Any]:
    """The table as everyone sees it. ``reveal`` (default: once the game is over) shows every card."""
    if reveal is None:
        reveal = state.finished
    opts = state.options
    active = [p.id for p in state.players if p.id not in state.removed]
    owners = pawn_owners(state.pawns, active)
    colour_of = {p.id: CARDS.player_colours[i] for i, p in enumerate(state.players)}
    shrines = []
    for i, (sid, name, row, col, country) in enumerate(_STATIC):
        up = state.face_up[i]
        known = up or reveal or opts.open_shrines
        card = state.layout[i] if known else None
        was = state.layout[i] if (not known and opts.memory and state.seen[i]) else None
        shrines.append({
            "id": sid, "name": name, "row": row, "column": col,
            "country": country, "face_up": up, "card": card, "was": was,
            "pawn": owners.get(i),
        })
    rituals = []
    for k, flags in enumerate(RITUALS):
        shown = state.revealed[k] or reveal
        rituals.append({
            "card": k + 1, "label": ritual_label(k), "flags": list(flags),
            "face_up": state.revealed[k], "outcome": state.rituals[k] if shown else None,
        })
    arcana = _arcana(state.face_up)
    players = [
        {"id": p.id, "name": p.name, "colour": colour_of[p.id],
         "colour_name": CARDS.player_colour_names[i], "removed": p.id in state.removed,
         "current": p.id == state.current and state.phase == "turn"}
        for i, p in enumerate(state.players)
    ]
    return {"shrines": shrines, "rituals": rituals, "arcana": arcana, "players": players,
            "revealed": reveal}


def _arcana(face_up: list[bool]) -> dict[str, dict[str, Any]]:
    """Each row's arcanum: how many of its shrines are face up, and whether it is on."""
    arcana = {}
    for r, arc in enumerate(ROWS):
        n = row_active(face_up, r)
        a = ARCANUM[arc]
        arcana[arc] = {"active": n, "state": a.active if is_on(n) else a.inactive}
    return arcana


def board_marks(state: Any) -> dict[str, Any]:
    """What a step's picture keeps of the public tableau, by the same rules of what is shown, in
    well under half the bytes of the compact form kept before (``expand_tableau``; issue 38). Each
    shrine is a short string: ``+card`` face up, ``=card`` face down and shown (the end's reveal,
    open shrines), ``~card`` face down and remembered, empty when unknown, then ``@seat`` for a pawn
    on it. Each ritual: ``+outcome`` face up, ``=outcome`` face down and revealed, or empty. The
    players by seat, without their ids. ``tableau_of_marks`` gives the public tableau back, with
    seat numbers for ids."""
    reveal = state.finished
    opts = state.options
    removed = state.removed
    shown, memory = reveal or opts.open_shrines, opts.memory
    shrines = ["+" + card if up else ("=" + card if shown else ("~" + card if memory and seen else ""))
               for card, up, seen in zip(state.layout, state.face_up, state.seen, strict=True)]
    seat = {p.id: k for k, p in enumerate(state.players)}
    for where, owner in pawn_owners(state.pawns, [p.id for p in state.players if p.id not in removed]).items():
        shrines[where] += f"@{seat[owner]}"
    rituals = ["+" + outcome if up else ("=" + outcome if reveal else "")
               for up, outcome in zip(state.revealed, state.rituals, strict=True)]
    now = state.phase == "turn"
    players = [[p.name, p.id in removed, now and p.id == state.current] for p in state.players]
    return {"shrines": shrines, "rituals": rituals, "players": players, "revealed": reveal}


def tableau_of_marks(marks: dict[str, Any]) -> dict[str, Any]:
    """The public tableau ``board_marks`` kept, each player's id their seat number (what the
    picture draws is the same: an id only keys a player's colour and initial)."""
    shrines = []
    for (sid, name, row, col, country), each in zip(_STATIC, marks["shrines"], strict=True):
        mark, _, pawn = each.partition("@")
        kind, card = mark[:1], mark[1:]
        shrines.append({"id": sid, "name": name, "row": row, "column": col, "country": country,
                        "face_up": kind == "+", "card": card if kind in ("+", "=") else None,
                        "was": card if kind == "~" else None, "pawn": pawn or None})
    rituals = [{"card": k + 1, "label": ritual_label(k), "flags": list(flags), "face_up": each[:1] == "+",
                "outcome": each[1:] or None}
               for k, (flags, each) in enumerate(zip(RITUALS, marks["rituals"], strict=True))]
    players = [{"id": str(k), "name": name, "colour": CARDS.player_colours[k],
                "colour_name": CARDS.player_colour_names[k], "removed": removed, "current": current}
               for k, (name, removed, current) in enumerate(marks["players"])]
    return {"shrines": shrines, "rituals": rituals, "arcana": _arcana([s["face_up"] for s in shrines]),
            "players": players, "revealed": marks["revealed"]}


def expand_tableau(compact: dict[str, Any]) -> dict[str, Any]:
    """The public tableau from the compact form a picture's data kept before ``board_marks``: the
    shrines as [face up, card, card remembered, pawn's owner], the rituals as [face up, outcome],
    the players as [id, name, removed, current]. A row still waiting in the outbox from that
    version is drawn from it."""
    shrines = [{"id": sid, "name": name, "row": row, "column": col, "country": country, "face_up": up,
                "card": card, "was": was, "pawn": pawn}
               for (sid, name, row, col, country), (up, card, was, pawn) in zip(_STATIC, compact["shrines"],
                                                                                 strict=True)]
    rituals = [{"card": k + 1, "label": ritual_label(k), "flags": list(flags), "face_up": up, "outcome": outcome}
               for k, (flags, (up, outcome)) in enumerate(zip(RITUALS, compact["rituals"], strict=True))]
    arcana = _arcana([s["face_up"] for s in shrines])
    players = [{"id": pid, "name": name, "colour": CARDS.player_colours[i],
                "colour_name": CARDS.player_colour_names[i], "removed": removed, "current": current}
               for i, (pid, name, removed, current) in enumerate(compact["players"])]
    return {"shrines": shrines, "rituals": rituals, "arcana": arcana, "players": players,
            "revealed": compact["revealed"]}


def ritual_now(pub: dict[str, Any]) -> int:
    """The index (0-7) of the ritual card the rows of ``pub`` point to: the spell as they stand."""
    return ritual_index({arc: is_on(pub["arcana"][arc]["active"]) for arc in ROWS})


def _short_name(name: str) -> str:
    return name if len(name) <= 14 else name[:13] + "…"


def tableau_text(pub: dict[str, Any]) -> str:
    """The tableau in words, for a screen reader and My hand (about 1,400 characters at most)."""
    names = {p["id"]: _short_name(p["name"]) for p in pub["players"]}
    clash = {n for n in names.values() if list(names.values()).count(n) > 1}
    for p in pub["players"]:
        if names[p["id"]] in clash:  # shortened names that collide: say the pawn's colour too
            names[p["id"]] = f"{p['name'][:8]}… ({p['colour_name']})"
    lines = []
    for arc in ROWS:
        a = pub["arcana"][arc]
        parts = []
        for country in COUNTRY.values():
            cells = []
            for s in pub["shrines"]:
                if s["row"] != arc or s["country"] != country.id:
                    continue
                if s["face_up"]:
                    txt = short_card(s["card"])
                elif s["card"] is not None:
                    txt = f"down ({short_card(s['card'])})"
                elif s["was"] is not None:
                    txt = f"down (was {short_card(s['was'])})"
                else:
                    txt = "down"
                if s["pawn"]:
                    txt += f" [{names[s['pawn']]}]"
                cells.append(txt)
            parts.append(f"{country.name}: " + ", ".join(cells))
        lines.append(f"**{ARCANUM[arc].name}** {a['state']} ({a['active']}/9 up). " + "; ".join(parts))
    now = ritual_now(pub)
    lines.append("**Rituals** (bell, book, candle; ← now: the one the rows point to):")
    for k, r in enumerate(pub["rituals"]):
        if r["outcome"] is None:
            under = "face down"
        elif r["face_up"]:
            under = OUTCOME[r["outcome"]].title
        else:  # known only because the game is over
            under = f"face down ({OUTCOME[r['outcome']].title})"
        states = ", ".join(ARCANUM[arc].active if on else ARCANUM[arc].inactive
                           for arc, on in zip(ROWS, r["flags"], strict=True))
        lines.append(f"**{r['card']}** {states}: {under}" + (" ← now" if k == now else ""))
    return "\n".join(lines)


def ritual_reveal_line(index: int, outcome: str) -> str:
    return f"{ritual_label(index)}: {OUTCOME[outcome].title}"
