"""The copilot's cost beside a vote, pure (no database), in one run, on 15-player games.

- the lock of night 2: the choices summary, the night's mechanics applied and every proposal;
- the proposals alone: what each click on the Storytellers' panel computes;
- a day vote, applied the same way, as the yardstick.

    .venv/bin/python bench/clocktower_copilot.py [--games 20] [--repeat 20]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import games  # noqa: E402
from games.clocktower.copilot import proposals  # noqa: E402
from games.engine import Player  # noqa: E402
from games.engine.run import start, step  # noqa: E402

GAME = games.get("clocktower")
ST = "st"


def act(state, **action):
    action.setdefault("player", ST)
    return step(GAME, state, action, seed=1).state


def timeout(state):
    return act(state, type="phase_timeout", phase_seq=state.phase_seq, player="")


def before_the_lock(seed: int):
    """A 15-player game at night 2, every asked player's choice made, one stage before the lock;
    and the same game on day 1 for the vote."""
    players = [Player(id=f"p{i}", name=f"P{i}", seat=i) for i in range(1, 16)]
    state = act(start(GAME, players, None, seed).state, type="begin")
    while state.phase == "night":
        state = timeout(state)
    day = state
    while state.phase != "night":
        state = timeout(state)
    for seat in state.seats:
        for prompt in GAME.prompts(state, seat.player):
            if prompt.action == "night_choice":
                field = prompt.fields[0]
                picks = [c.value for c in field.choices][:field.max_values]
                state = act(state, player=seat.player, type="night_choice", targets=picks)
    while state.stage != "closing":
        state = timeout(state)
    return state, day


def a_vote(day):
    return act(day, player=day.seats[2].player, type="vote", target=day.seats[5].player)


def median_ms(fn, arg, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn(arg)
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    lock, alone, vote = [], [], []
    for seed in range(args.games):
        night, day = before_the_lock(seed)
        lock.append(median_ms(timeout, night, args.repeat))
        alone.append(median_ms(lambda state: proposals(state, GAME.chars), night, args.repeat))
        vote.append(median_ms(a_vote, day, args.repeat))
    lock_ms, alone_ms, vote_ms = (statistics.median(x) for x in (lock, alone, vote))
    print(f"15 players, {args.games} games x {args.repeat} repeats (medians):")
    print(f"  the lock of night 2 (plan + proposals): {lock_ms:.2f} ms")
    print(f"  the proposals alone (one panel click):  {alone_ms:.2f} ms")
    print(f"  a day vote (the yardstick):             {vote_ms:.2f} ms")
    print(f"  ratios: lock / vote = {lock_ms / vote_ms:.2f}, proposals / vote = {alone_ms / vote_ms:.2f}")


if __name__ == "__main__":
    main()
