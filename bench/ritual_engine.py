"""Benchmark The Ritual's engine: median cost per action over seeded random playthroughs.

    .venv/bin/python bench/ritual_engine.py [--games 200] [--players 3-9]

An action's cost is one ``games.engine.run.step`` (parse, copy of the state, rules, events and
the replayable random source), the way the bot applies it. Timeouts are injected as in ``simulate``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games import get  # noqa: E402
from games.engine import PhaseTimeout, Player  # noqa: E402
from games.engine.run import start, step  # noqa: E402


def playthrough(game, n: int, seed: int, costs: list[float], cpu: list[float]) -> None:
    chooser = random.Random(f"bench:{seed}")
    state = start(game, [Player(id=f"p{i}", name=f"Witch{i}") for i in range(1, n + 1)], None, seed).state
    while not state.finished:
        legal = game.legal_actions(state)
        if not legal or chooser.random() < 0.08:
            action = PhaseTimeout(phase_seq=state.phase_seq)
        else:
            action = chooser.choice(legal)
        c0 = time.thread_time()
        t0 = time.perf_counter()
        state = step(game, state, action, seed).state
        costs.append(time.perf_counter() - t0)
        cpu.append(time.thread_time() - c0)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200, help="games per player count")
    parser.add_argument("--players", default="3-9", help="a count or a range, e.g. 5 or 3-9")
    args = parser.parse_args()
    lo, _, hi = args.players.partition("-")
    counts = range(int(lo), int(hi or lo) + 1)
    game = get("ritual")
    everything: list[float] = []
    all_cpu: list[float] = []
    print(f"{'players':>7} {'actions':>8} {'median µs':>10} {'p90 µs':>8} {'max µs':>8} {'cpu median µs':>14}")
    for n in counts:
        costs: list[float] = []
        cpu: list[float] = []
        for g in range(args.games):
            playthrough(game, n, g, costs, cpu)
        everything += costs
        all_cpu += cpu
        costs.sort()
        print(f"{n:>7} {len(costs):>8} {statistics.median(costs) * 1e6:>10.1f} "
              f"{costs[int(len(costs) * 0.9)] * 1e6:>8.1f} {costs[-1] * 1e6:>8.1f} "
              f"{statistics.median(cpu) * 1e6:>14.1f}")
    median = statistics.median(everything) * 1e6
    print(f"median cost per action over {len(everything)} actions: {median:.1f} µs wall clock "
          f"({'under' if median < 100 else 'OVER'} the 100 µs target); "
          f"{statistics.median(all_cpu) * 1e6:.1f} µs of CPU time (steadier on a busy machine)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
