"""A refactor's byte-identical check (issue 28): one line per replay script in tests/ (a hash of its
output) and per game (a hash of every action, event, reply, view, prompt and final state of seeded
random playthroughs). Record it before a code move, compare after: any difference is a behaviour change.

    .venv/bin/python scripts/trace_games.py [CLOCKTOWER_GAMES] > before.txt   # default 200
    ... move code ...
    .venv/bin/python scripts/trace_games.py [CLOCKTOWER_GAMES] | diff before.txt -

Run it from the checkout whose code it should trace: it imports ``games`` from the current folder.
"""
import hashlib
import random
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path.cwd()))  # the checkout in the current folder, not an installed copy

import games  # noqa: E402
from games.engine import GameError, PhaseTimeout, Player  # noqa: E402
from games.engine.run import start, step  # noqa: E402

ct_games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
for f in sorted(Path("tests").rglob("replays/*.json")):
    out = subprocess.run([sys.executable, "-m", "games", "replay", str(f)], capture_output=True, text=True)
    print(f, hashlib.sha256((out.stdout + out.stderr).encode()).hexdigest())


def playthrough(game, n_players, seed, digest):
    chooser = random.Random(f"sim:{seed}")
    players = [Player(id=f"p{i}", name=f"Player{i}") for i in range(1, n_players + 1)]
    out = start(game, players, None, seed)
    state = out.state
    for e in out.events:
        digest.update(e.model_dump_json().encode())
    steps = 0
    while not state.finished and steps < 20_000:
        legal = game.legal_actions(state)
        action = PhaseTimeout(phase_seq=state.phase_seq) if not legal or chooser.random() < 0.08 else chooser.choice(legal)
        digest.update(action.model_dump_json().encode())
        try:
            out = step(game, state, action, seed)
        except GameError as exc:
            digest.update(f"refused {exc.code} {exc}".encode())
            break
        state = out.state
        steps += 1
        digest.update(out.reply.encode())
        for e in game.faces(state, out.events):  # (a living message as it is shown)
            digest.update(e.model_dump_json().encode())
        for p in state.players:  # what each player is shown
            digest.update(game.view(state, p.id).model_dump_json().encode())
            for prompt in game.prompts(state, p.id):
                digest.update(prompt.model_dump_json().encode())
        digest.update(game.view(state, None).model_dump_json().encode())
        if game.storytellers:
            digest.update(game.view(state, "storyteller").model_dump_json().encode())
    digest.update(state.model_dump_json().encode())


for kind, players, n in (("ritual", 7, 100), ("cauldron", 7, 100), ("castle", 5, 60), ("clocktower", 15, ct_games)):
    game = games.get(kind)
    digest = hashlib.sha256()
    for g in range(n):
        playthrough(game, players, 1_000_003 * 14 + g, digest)
    print(kind, players, n, digest.hexdigest())
