"""Shared helpers for the Ireland Cauldron tests (loaded by path, see ``load_helpers`` in each file)."""

from __future__ import annotations

import random
from typing import Any

from games.cauldron import GAME
from games.engine import Event, Outcome, Player, Rng

NAMES = ["Aoife", "Brian", "Ciara", "Declan", "Eimear", "Fergal", "Grainne", "Hugh", "Isolde", "Jarlath"]


def players(n: int) -> list[Player]:
    return [Player(id=f"p{i + 1}", name=NAMES[i]) for i in range(n)]


def pids(n: int) -> list[str]:
    return [f"p{i + 1}" for i in range(n)]


def default_heroes(n: int) -> dict[str, str]:
    """p1 evil (Balor), the others good, unless more evil are needed (then p2, p3 too)."""
    evil = ["balor", "bres", "cethlenn"][: max(1, n // 3)]
    good = ["cuchulainn", "fionn", "lugh", "dagda", "boann", "oisin", "niamh", "scathach"]
    out = {}
    for i, pid in enumerate(pids(n)):
        out[pid] = evil[i] if i < len(evil) else good[i - len(evil)]
    return out


def new_game(n: int = 5, *, hands: dict[str, list[str]] | None = None, center: list[str] | None = None,
             draw: list[str] | None = None, options: dict[str, Any] | None = None,
             heroes: dict[str, str] | None = None, hero_deck: list[str] | None = None,
             seed: int = 0) -> Outcome:
    forced: dict[str, Any] = {"heroes": heroes if heroes is not None else default_heroes(n)}
    if hands is not None:
        forced["hands"] = hands
    if center is not None:
        forced["center"] = center
    if draw is not None:
        forced["draw"] = draw
    if hero_deck is not None:
        forced["hero_deck"] = hero_deck
    return GAME.setup(players(n), options or {}, random.Random(seed), forced)


def act(state, action: dict[str, Any], rng: Rng | None = None) -> Outcome:
    return GAME.apply(state, action, rng if rng is not None else random.Random(7))


def timeout(state, rng: Rng | None = None) -> Outcome:
    return act(state, {"type": "phase_timeout", "phase_seq": state.phase_seq}, rng)


def play_all(state, plays: dict[str, str], rng: Rng | None = None) -> tuple[Any, list[Event]]:
    """Each player in ``plays`` casts their card; returns the final state and all events."""
    events: list[Event] = []
    for pid, card in plays.items():
        out = act(state, {"type": "play", "player": pid, "card": card}, rng)
        state = out.state
        events += out.events
    return state, events


def end_day(state) -> tuple[Any, list[Event]]:
    events: list[Event] = []
    for pid in state.active():
        if state.phase != "day":
            break
        out = act(state, {"type": "end_discussion", "player": pid})
        state = out.state
        events += out.events
    return state, events


def effects(events: list[Event]) -> list[dict[str, Any]]:
    return [e.data for e in events if e.type == "effect"]


def of_type(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e.type == kind]


def kinds(state, ids: list[str]) -> list[str]:
    return [state.kinds[c] for c in ids]


ORDER = ["brigid", "gaze", "ceol", "thistle", "wolfbane", "yew"]


def hands_for(plays: list[str], n: int | None = None) -> dict[str, list[str]]:
    """Forced hands: player i holds plays[i] plus two filler cards rotating through the ingredients."""
    n = n or len(plays)
    hands = {}
    for i, pid in enumerate(pids(n)):
        first = plays[i] if i < len(plays) else ORDER[i % 6]
        hands[pid] = [first, ORDER[(i + 2) % 6], ORDER[(i + 3) % 6]]
    return hands


def round_with(plays: list[str], *, n: int | None = None, rng: Rng | None = None, **kw: Any):
    """A new game whose first night is cast as ``plays`` (player i casts plays[i]); the rest of the
    players (if ``n`` is larger) let the night time out (use options night_timeout="nothing")."""
    n = n or len(plays)
    out = new_game(n, hands=hands_for(plays, n), **kw)
    state, events = out.state, list(out.events)
    cast = {pid: card for pid, card in zip(pids(n), plays, strict=False)}
    if len(plays) == n:
        state, more = play_all(state, cast, rng)
    else:
        state, more = play_all(state, cast)
        o = timeout(state, rng)
        state, more = o.state, more + o.events
    return state, events + more


def pick(state, pid: str, avoid: tuple[str, ...] = ()) -> str:
    for card in state.hands[pid]:
        if card not in avoid:
            return card
    raise AssertionError(f"{pid} holds only {state.hands[pid]}")
