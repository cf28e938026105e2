"""Castle of Magic: median cost per action of random playthroughs (and of drawing the tableau).

    .venv/bin/python bench/castle_engine.py [--games 200] [--seed 1]

Times ``GAME.apply`` (the base class's copy + the rules) for every action of seeded random games
at 4, 5 and 6 players; separately the prompts for the player to act, and the PNG of the tableau
(sampled at every turn event).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.castle import GAME  # noqa: E402
from games.engine import PhaseTimeout, Player  # noqa: E402
from games.engine.run import start, step  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--render-every", type=int, default=10, help="draw every Nth turn image")
    args = parser.parse_args()

    for n in (4, 5, 6):
        apply_ns: list[int] = []
        prompt_ns: list[int] = []
        render_ns: list[int] = []
        turns = 0
        for g in range(args.games):
            seed = args.seed * 100_003 + g
            chooser = random.Random(seed)
            players = [Player(id=f"p{i}", name=f"Player {i}") for i in range(n)]
            state = start(GAME, players, {}, seed).state
            while not state.finished:
                legal = GAME.legal_actions(state)
                action = PhaseTimeout(phase_seq=state.phase_seq) if chooser.random() < 0.05 else chooser.choice(legal)
                t0 = time.perf_counter_ns()
                out = step(GAME, state, action, seed)
                apply_ns.append(time.perf_counter_ns() - t0)
                state = out.state
                if state.current:
                    t0 = time.perf_counter_ns()
                    GAME.prompts(state, state.current)
                    prompt_ns.append(time.perf_counter_ns() - t0)
                if any(e.image for e in out.events):
                    turns += 1
                    if turns % args.render_every == 0:
                        t0 = time.perf_counter_ns()
                        GAME.render(state, "tableau")
                        render_ns.append(time.perf_counter_ns() - t0)
        print(f"castle {n} players: {len(apply_ns)} actions in {args.games} games; "
              f"median apply {statistics.median(apply_ns) / 1000:.1f} us "
              f"(p95 {statistics.quantiles(apply_ns, n=20)[-1] / 1000:.1f} us); "
              f"median prompts {statistics.median(prompt_ns) / 1000:.1f} us; "
              f"median render {statistics.median(render_ns) / 1e6:.1f} ms ({len(render_ns)} images)")


if __name__ == "__main__":
    main()
