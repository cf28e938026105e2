"""What the Castle tells people in more than one place: counts and lists in words, where a pawn
is, a character's guide to what scores for it, and a character told at the end."""

from __future__ import annotations

from .data import CHARACTER, COUNTRY, FACTION, character_title, shrine_name
from .models import CastleState

#: the longest text of an event (Discord's message is 2,000 characters)
MAX_TEXT = 1800


def count(n: int, noun: str) -> str:
    return f"{n} {noun}{'s' if n != 1 else ''}"


def from_where(from_supply: int, shrines: list[str]) -> str:
    """"from their supply", "from Bell 5 (Marus)", "from Bell 5 (Marus) and their supply"."""
    parts = list(shrines)
    if from_supply:
        parts.append("their supply")
    if len(parts) > 2:
        return "from " + ", ".join(parts[:-1]) + " and " + parts[-1]
    return "from " + " and ".join(parts)


def pawn_label(where: int | None) -> str:
    return "in your supply" if where is None else f"on {shrine_name(where)}"


def pawns_line(pawns: list[int | None], in_hand: set[int]) -> str:
    """'Your pawns: 1 on Bell 5 (Marus); 2 and 3 in your supply.' (numbered as in the bot's menus)"""
    placed = [f"{k + 1} on {shrine_name(w)}" for k, w in enumerate(pawns) if w is not None and k not in in_hand]
    supply = [str(k + 1) for k, w in enumerate(pawns) if w is None and k not in in_hand]
    parts = placed
    if supply:
        numbers = supply[0] if len(supply) == 1 else ", ".join(supply[:-1]) + " and " + supply[-1]
        parts = [*placed, f"{numbers} in your supply"]
    if in_hand:
        parts.append(f"{len(in_hand)} in your hand to place")
    return "Your pawns: " + ("; ".join(parts) or "none") + "."


def guide(char_id: str) -> str:
    """What scores for a character when the ritual spell is cast (its card and **My hand**)."""
    c = CHARACTER[char_id]
    if c.kind == "monster":
        return ("You score **7000** if the ritual spell makes the Monster devour at least one wizard or "
                "cultist (an outcome that releases the Monster, a domination with a rampage, or a "
                "regalia holder devoured). You may claim regalia, for no points. You play the shrines "
                "and the ritual exactly like a wizard; nobody knows what you are.")
    fname = FACTION[c.faction].name  # type: ignore[index]
    lines = [f"• **1000** for each country the {fname} control (most active shrines there; a tie: nobody)."]
    if c.kind == "wizard":
        home = COUNTRY[c.country].name  # type: ignore[index]
        lines.append(f"• **1000** more if the {fname} control your home, **{home}**.")
    lines.append("• **1000** for each piece of regalia you claim (your pawn on its shrine at the end, "
                 "face up or down), unless you are devoured.")
    if c.kind == "wizard":
        lines.append("• **1000** for dominating the Monster (claim the regalia that the outcome names).")
    else:
        lines.append("• **1000** for feeding the Monster: the outcome devours at least one character.")
    return "\n".join(lines)


def role(char_id: str) -> str:
    """A character's title without its article, for the result ("Wizard of the Dragon Masters from Kida", "Monster")."""
    title = character_title(char_id)
    return title[2:] if title.startswith("a ") else title[4:].capitalize()


def character_reveal(state: CastleState, pid: str) -> str:
    return f"{state.name(pid)} was {character_title(state.characters[pid])}"
