"""Median cost of one Ireland Cauldron action in random seeded playthroughs (pure engine).

Each sample times ``apply`` (parse, JSON copy, rules, events) of one random legal action or
timeout; ``check_invariants`` is timed separately. Prints medians and p95 per player count.

    .venv/bin/python bench/cauldron_engine.py [--games 40] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.cauldron import GAME  # noqa: E402
from games.engine import PhaseTimeout, Player  # noqa: E402
from games.engine.run import start, step  # noqa: E402


def run(n_players: int, n_games: int, seed: int) -> tuple[list[float], list[float]]:
    apply_times: list[float] = []
    check_times: list[float] = []
    for g in range(n_games):
        chooser = random.Random(f"bench:{seed}:{g}")
        players = [Player(id=f"p{i}", name=f"Player{i}") for i in range(1, n_players + 1)]
        state = start(GAME, players, None, seed * 7919 + g).state
        while not state.finished:
            legal = GAME.legal_actions(state)
            action = (chooser.choice(legal) if legal and chooser.random() > 0.08
                      else PhaseTimeout(phase_seq=state.phase_seq))
            t0 = time.perf_counter()
            out = step(GAME, state, action, seed * 7919 + g)
            t1 = time.perf_counter()
            problems = GAME.check_invariants(out.state, out.events)
            t2 = time.perf_counter()
            assert not problems, problems
            apply_times.append(t1 - t0)
            check_times.append(t2 - t1)
            state = out.state
    return apply_times, check_times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    all_apply: list[float] = []
    for n in range(5, 11):
        a, c = run(n, args.games, args.seed)
        all_apply += a
        q = statistics.quantiles(a, n=20)
        print(f"{n:2d} players: {len(a):6d} actions, apply median {statistics.median(a) * 1e6:6.0f} us, "
              f"p95 {q[-1] * 1e6:6.0f} us; check_invariants median {statistics.median(c) * 1e6:5.0f} us")
    print(f"all: median cost per action {statistics.median(all_apply) * 1e6:.0f} us "
          f"over {len(all_apply)} actions")


if __name__ == "__main__":
    main()
