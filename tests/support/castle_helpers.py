"""Shared helpers for the Castle of Magic tests (loaded by path, see each test file)."""

from __future__ import annotations

from typing import Any

from games.castle import GAME
from games.engine import Player
from games.engine.run import start, step

NAMES = ["Alice", "Bob", "Cara", "Dan", "Eve", "Finn"]

# Bell:   D D E | W E A | D W E     (amulet at bell-6)
# Book:   E W D | C D W | E D W     (crown at book-4)
# Candle: W E D | W S E | D W E     (scepter at candle-5)
LAYOUT = [
    ["dragon", "dragon", "eagle", "wolf", "eagle", "amulet", "dragon", "wolf", "eagle"],
    ["eagle", "wolf", "dragon", "crown", "dragon", "wolf", "eagle", "dragon", "wolf"],
    ["wolf", "eagle", "dragon", "wolf", "scepter", "eagle", "dragon", "wolf", "eagle"],
]
OUTCOMES = ["banished", "amulet_dominates", "crown_dominates", "scepter_dominates",
            "amulet_devoured", "crown_devoured", "scepter_devoured", "released"]
CHARS4 = {"p1": "dragon_kida", "p2": "eagle_marus", "p3": "wolf_cultist", "p4": "monster"}


def players(n: int) -> list[Player]:
    return [Player(id=f"p{i + 1}", name=NAMES[i]) for i in range(n)]


def new_game(n: int = 4, options: dict | None = None, seed: int = 7, **forced: Any):
    """A started game with a forced tableau; returns (state, events)."""
    base: dict[str, Any] = {
        "layout": LAYOUT, "face_up": [], "rituals": OUTCOMES, "first_player": "p1",
        "characters": CHARS4 if n == 4 else None,
    }
    base.update(forced)
    base = {k: v for k, v in base.items() if v is not None}
    out = start(GAME, players(n), options, seed, base)
    return out.state, out.events


def act(state, action: dict, seed: int = 7):
    out = step(GAME, state, action, seed)
    problems = GAME.check_invariants(out.state, out.events)
    assert not problems, problems
    return out


def play(state, actions: list[dict], seed: int = 7):
    events = []
    for a in actions:
        out = act(state, a, seed)
        state = out.state
        events += out.events
    return state, events


def ended_by_max_turns():
    """A game with ``max_turns = 3`` played through its three turns and a fourth move: the limit
    turns the rest over and ends it. Returns (state, events)."""
    state, _ = new_game(options={"max_turns": 3})
    return play(state, [
        {"type": "advance", "player": "p1", "card": 1},
        {"type": "pick_up", "player": "p2", "pawns": [1]},
        {"type": "place", "player": "p2", "row": "bell", "column": 1},
        {"type": "advance", "player": "p3", "card": 2},
    ])
