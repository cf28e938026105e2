"""The end of the game: checked after every discard from the centre, and the final reveal."""

from __future__ import annotations

from games.engine import EndGame, Event, Outcome, Rng, public

from . import voice
from .data import HEROES
from .models import CauldronState
from .terms import BLOOD, MILK, TEAM_LABEL, outcome_for


def check_end(s: CauldronState, announce: bool = True) -> list[Event]:
    """Checked after every center discard. The game ends at exactly ``end_remaining`` cards, or when
    the deck is empty (face-up cards alone exceed ``end_remaining``, so the count can fall no more)."""
    if s.finished or (s.remaining() != s.options.end_remaining and s.deck):
        return []
    milk = sum(s.kinds[c] == "milk" for c in s.deck + s.revealed)
    blood = s.remaining() - milk
    return finish(s, outcome_for(milk, blood), announce=announce)


def finish(s: CauldronState, outcome: str, reason: str = "", announce: bool = True) -> list[Event]:
    """The game ends with ``outcome``; the final reveal unless ``announce`` is off (a card discarded
    mid-effect, by the Gaze's close or the Thistle, ends it: the effect announces the end after its
    own line)."""
    s.finished = True
    s.outcome = outcome
    s.queue = []
    s.next_phase("game_over")
    if outcome in ("good", "evil"):
        s.winners = [p.id for p in s.players if HEROES[s.heroes[p.id]].team == outcome]
    else:
        s.winners = []
    return [game_over_event(s, reason)] if announce else []


def game_over_event(s: CauldronState, reason: str = "") -> Event:
    milk = sum(s.kinds[c] == "milk" for c in s.deck + s.revealed)
    blood = s.remaining() - milk
    if s.outcome == "ended":
        head = "The game was ended by a moderator" + (f": {reason}." if reason else ".")
    elif s.outcome == "draw":
        head = f"The cauldron settles at {milk} Milk and {blood} Blood: a draw."
    else:
        head = (f"The cauldron settles at {milk} {MILK} and {blood} {BLOOD}: "
                f"**{TEAM_LABEL[s.outcome]} win!**")
    if s.outcome != "ended" and not s.deck and s.remaining() != s.options.end_remaining:
        head += f"\nThe deck is empty: only the {s.remaining()} face-up cards are left to count."
    deck = " ".join("🥛" if s.kinds[c] == "milk" else "🩸" for c in s.deck) or "empty"
    face = " ".join("🥛" if s.kinds[c] == "milk" else "🩸" for c in s.revealed) or "none"
    lines = [head, f"Deck (top first): {deck}", f"Face up: {face}", "", "**The heroes:**"]
    for p in s.players:
        hero = HEROES[s.heroes[p.id]]
        mark = "🏆 " if p.id in s.winners else ""
        start = "" if s.starting_heroes[p.id] == s.heroes[p.id] else \
            f" (began as {HEROES[s.starting_heroes[p.id]].name})"
        gone = " (left)" if p.id in s.removed else ""
        lines.append(f"{mark}**{p.name}**{gone}: {hero.name}, {hero.team}{start}")
    return public("game_over", "\n".join(lines), title="The cauldron is still", pause=2.0,
                  data={"outcome": s.outcome, "winners": list(s.winners), "milk": milk, "blood": blood,
                        "deck": [s.kinds[c] for c in s.deck], "revealed": [s.kinds[c] for c in s.revealed],
                        "heroes": {pid: s.heroes[pid] for pid in s.heroes}},
                  say=voice.SAY_END.get(s.outcome, "The game is over."))


def revealed_counts(s: CauldronState) -> dict[str, int]:
    milk = sum(s.kinds[c] == "milk" for c in s.revealed)
    return {"milk": milk, "blood": len(s.revealed) - milk}


def end_game(s: CauldronState, a: EndGame, rng: Rng) -> Outcome:
    return Outcome(state=s, events=finish(s, "ended", reason=a.reason))
