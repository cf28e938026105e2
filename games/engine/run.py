"""Running a game without Discord: one step, a replay script, random simulations."""

from __future__ import annotations

import json
import statistics
from collections import Counter
from collections.abc import Iterable, Iterator
from typing import Any

from pydantic import BaseModel, Field

from .errors import GameError
from .events import Event
from .protocol import Action, BaseState, Game, Outcome, PhaseTimeout, Player
from .rng import rng_for


def step(game: Game, state: BaseState, action: dict[str, Any] | Action, seed: int) -> Outcome:
    """Apply one action with the game's replayable randomness (seed + step number)."""
    return game.apply(state, action, rng_for(seed, state.step + 1))


def start(game: Game, players: list[Player], options: dict | None, seed: int,
          forced: dict | None = None) -> Outcome:
    return game.setup(players, options, rng_for(seed, 0), forced)


# ----- replay -----


class Replay(BaseModel):
    """A replay script: ``{"game", "seed", "players", "options", "setup", "actions"}``."""

    game: str
    seed: int = 0
    players: list[str]
    options: dict[str, Any] = Field(default_factory=dict)
    setup: dict[str, Any] = Field(default_factory=dict)
    actions: list[dict[str, Any]] = Field(default_factory=list)


def event_line(event: Event) -> dict[str, Any]:
    line: dict[str, Any] = {"event": event.type, "audience": str(event.audience)}
    if event.title:
        line["title"] = event.title
    if event.text:
        line["text"] = event.text
    if event.data:
        line["data"] = event.data
    return line


def replay(game: Game, script: Replay) -> Iterator[dict[str, Any]]:
    """Yield one JSON-able line per event and per rejected action, then ``{"result": ...}``.

    A ``phase_timeout`` without ``phase_seq`` times out the current phase.
    """
    players = [Player(id=name, name=name) for name in script.players]
    try:
        out = start(game, players, script.options, script.seed, script.setup)
    except GameError as exc:
        yield {"rejected": "setup", "code": exc.code, "error": exc.message}
        return
    state = out.state
    records = [e for e in out.events if e.audience.kind == "record"]
    yield from (event_line(e) for e in out.events)
    for index, raw in enumerate(script.actions):
        action = dict(raw)
        if action.get("type") == "phase_timeout" and "phase_seq" not in action:
            action["phase_seq"] = state.phase_seq
        try:
            out = step(game, state, action, script.seed)
        except GameError as exc:
            yield {"rejected": index, "action": raw, "code": exc.code, "error": exc.message}
            continue
        state = out.state
        records += [e for e in out.events if e.audience.kind == "record"]
        yield from (event_line(e) for e in game.faces(state, out.events))  # a living message as shown
        if state.finished:
            yield from (event_line(e) for e in game.recap(state, records))
    yield {"result": json.loads(game.result(state).model_dump_json())}


# ----- simulation -----


class SimulationReport(BaseModel):
    game: str
    players: int
    games: int
    finished: int
    winners: dict[str, int]
    median_rounds: float
    actions: int
    seconds: float = 0.0
    failures: list[str] = Field(default_factory=list)


def leaks(events: Iterable[Event], secrets: Iterable[str]) -> list[str]:
    """Which ``secrets`` appear in the text, spoken words or data of public events (public threads
    included)."""
    found = []
    public_text = [
        (e.text + " " + e.title + " " + e.say + " " + json.dumps(e.data)).lower()
        for e in events if e.audience.kind in ("public", "thread")
    ]
    for secret in secrets:
        if any(secret.lower() in t for t in public_text):
            found.append(secret)
    return found


def play_random(game: Game, n_players: int, seed: int, timeout_chance: float = 0.08,
                max_steps: int = 20_000, options: dict | None = None) -> tuple[BaseState, int, list[str]]:
    """One seeded random playthrough: random legal actions and random timeouts, to the end."""
    import random

    chooser = random.Random(f"sim:{seed}")
    players = [Player(id=f"p{i}", name=f"Player{i}") for i in range(1, n_players + 1)]
    out = start(game, players, options, seed)
    state = out.state
    problems = [f"setup: {p}" for p in game.check_invariants(state, out.events)]
    steps = 0
    while not state.finished and steps < max_steps and not problems:
        legal = game.legal_actions(state)
        if not legal or chooser.random() < timeout_chance:
            action: Action = PhaseTimeout(phase_seq=state.phase_seq)
        else:
            action = chooser.choice(legal)
        try:
            out = step(game, state, action, seed)
        except GameError as exc:
            problems.append(f"step {steps}: legal action {action!r} refused: {exc.code}: {exc}")
            break
        state = out.state
        steps += 1
        problems += [f"step {steps}: {p}" for p in game.check_invariants(state, out.events)]
    if not state.finished and not problems:
        problems.append(f"did not finish in {max_steps} steps (phase {state.phase})")
    return state, steps, problems


def simulate(game: Game, n_players: int, n_games: int, seed: int,
             options: dict | None = None) -> SimulationReport:
    winners: Counter[str] = Counter()
    rounds: list[int] = []
    actions = 0
    finished = 0
    failures: list[str] = []
    for g in range(n_games):
        state, steps, problems = play_random(game, n_players, seed * 1_000_003 + g, options=options)
        actions += steps
        if problems:
            failures += [f"game {g}: {p}" for p in problems[:3]]
        if state.finished:
            finished += 1
            winners[state.outcome or "none"] += 1
            rounds.append(game.rounds(state))
    return SimulationReport(
        game=game.name, players=n_players, games=n_games, finished=finished,
        winners=dict(sorted(winners.items())),
        median_rounds=statistics.median(rounds) if rounds else 0.0,
        actions=actions, failures=failures,
    )
