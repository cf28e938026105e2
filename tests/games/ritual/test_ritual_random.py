"""Secrets, random play, replays and simulations of The Ritual."""

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
import support.ritual_helpers as H
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.__main__ import main as cli
from games.engine import GameError, PhaseTimeout, Player, rng_for
from games.engine.run import play_random, simulate, start, step
from games.ritual.circle import team
from games.ritual.ending import all_records

GAME = H.GAME
ROLE_NAMES = ["Guardian", "Seer", "Chronicler", "Hollow Servant", "Harbinger", "Deceiver", "Revenant"]


def random_games(n_players, seeds, options=None):
    """Yield (state_before, events, state_after) for every step of seeded random games."""
    for seed in seeds:
        chooser = random.Random(seed)
        players = [Player(id=f"p{i}", name=f"Witch{chr(64 + i)}") for i in range(1, n_players + 1)]
        out = start(GAME, players, options, seed)
        state = out.state
        yield None, out.events, state
        while not state.finished:
            legal = GAME.legal_actions(state)
            action = PhaseTimeout(phase_seq=state.phase_seq) if not legal or chooser.random() < 0.1 \
                else chooser.choice(legal)
            out = step(GAME, state, action, seed)
            yield state, out.events, out.state
            state = out.state


@pytest.mark.parametrize("n", [5, 7, 9])
def test_no_secret_reaches_the_table_before_the_end(n):
    options = {"revenant": True} if n >= 7 else None
    for _, events, state in random_games(n, range(12), options):
        over = any(e.type == "game_over" for e in events)
        for e in events:
            if e.type == "game_over":
                break
            if e.audience.kind != "public":
                continue
            blob = e.text + json.dumps(e.data)
            assert "%" not in blob
            for role in ROLE_NAMES:
                assert role not in blob, (e.type, e.text)
            if e.type == "ingredient_revealed":
                assert not any(p.name in blob or f'"{p.id}"' in blob for p in state.players)
        if over:
            final = [e for e in events if e.type in ("game_over", "recap")]
            assert final and all(e.audience.kind == "public" for e in final)
            if all_records(state):
                recap = "".join(e.text for e in final if e.type == "recap")
                rec = all_records(state)[0]
                pid, iid = next(iter(rec["offerings"].items()))
                assert f"{state.name(pid)} offered" in recap and GAME.data.ingredients[iid].name in recap
                assert f"corruption {rec['corruption']}%" in recap


def test_views_hold_no_other_secret():
    for _, _, state in random_games(7, range(4), {"revenant": True}):
        if state.finished:
            continue
        for viewer in state.roles:
            data = GAME.view(state, viewer).data
            blob = json.dumps(data)
            assert "roles" not in data and "history" not in data and "infection" not in data
            mine = team(state, viewer)
            mates = set(data["me"].get("teammates", []))
            if mine != "corrupted":
                assert not mates
            for other in state.roles:
                if other == viewer:
                    continue
                if state.roles[other] != state.roles[viewer]:
                    assert f'"{state.roles[other]}"' not in blob, (viewer, other)
                if state.phase == "offering" and other in state.offerings and other not in mates:
                    iid = state.offerings[other]
                    if iid not in GAME.data.roles[state.roles[viewer]].pool:
                        assert iid not in blob
            text = GAME.view(state, viewer).text
            assert "Infection" not in text
        public_view = json.dumps(GAME.view(state, None).data)
        for rid in state.roles.values():
            assert f'"{rid}"' not in public_view
        assert set(GAME.view(state, "storyteller").data["roles"]) == set(state.roles)


def test_finished_views_show_everything():
    for _, _, state in random_games(5, range(3)):
        if state.finished:
            assert GAME.view(state, None).data["roles"] == state.roles
            assert GAME.result(state).finished


def test_prompts_fit_discord():
    for _, _, state in random_games(9, range(4), {"revenant": True}):
        for p in state.roles:
            for prompt in GAME.prompts(state, p):
                assert len(prompt.fields) <= 4
                for field in prompt.fields:
                    assert 1 <= len(field.choices) <= 25
                    for c in field.choices:
                        assert len(c.label) <= 100 and len(c.value) <= 100 and len(c.description) <= 100
                if prompt.action in ("vote_performer", "vote_burn"):
                    assert prompt.vote and prompt.fields[0].name == "target"


ACTIONS = st.one_of(
    st.builds(lambda p, t: {"type": "vote_performer", "player": p, "target": t},
              st.sampled_from(["a", "b", "c", "d", "e", "zz", ""]), st.sampled_from(["a", "b", "c", "d", "e", "?"])),
    st.builds(lambda p, i: {"type": "offer", "player": p, "ingredient": i},
              st.sampled_from(["a", "b", "c", "d", "e"]), st.sampled_from(sorted(H.GAME.data.ingredients))),
    st.builds(lambda p, t: {"type": "vote_burn", "player": p, "target": t},
              st.sampled_from(["a", "b", "c", "d", "e"]), st.sampled_from(["a", "b", "c", "d", "e", "none"])),
    st.builds(lambda s: {"type": "phase_timeout", "phase_seq": s}, st.integers(0, 30)),
    st.builds(lambda t: {"type": "remove_player", "target": t}, st.sampled_from(["a", "b", "c", "d", "e", "q"])),
    st.just({"type": "end_game"}),
    st.just({"type": "offer", "player": "a"}),
    st.just({"type": "nonsense"}),
)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), actions=st.lists(ACTIONS, max_size=60))
def test_random_legal_and_illegal_actions(seed, actions):
    state = GAME.setup(H.players(5), {}, rng_for(seed, 0)).state
    for raw in actions:
        before = state.model_dump_json()
        try:
            out = GAME.apply(state, raw, rng_for(seed, state.step + 1))
        except GameError as exc:
            assert exc.message and exc.code
            assert state.model_dump_json() == before
            continue
        assert GAME.check_invariants(out.state, out.events) == []
        state = out.state


REPLAY = {
    "game": "ritual", "seed": 7, "players": ["Ava", "Bram", "Cora"],
    "setup": {"roles": {"Ava": "guardian", "Bram": "seer", "Cora": "hollow_servant"}},
    "actions": [
        {"type": "vote_performer", "player": "Ava", "target": "Bram"},
        {"type": "vote_performer", "player": "Bram", "target": "Bram"},
        {"type": "vote_performer", "player": "Cora", "target": "Ava"},
        {"type": "offer", "player": "Ava", "ingredient": "mandrake_root"},
        {"type": "offer", "player": "Cora", "ingredient": "blood_of_the_innocent"},
        {"type": "offer", "player": "Cora", "ingredient": "shadow_ash"},
        {"type": "offer", "player": "Ava", "ingredient": "void_essence"},
        {"type": "phase_timeout"},
        {"type": "vote_burn", "player": "Ava", "target": "Cora"},
        {"type": "vote_burn", "player": "Bram", "target": "Cora"},
        {"type": "vote_burn", "player": "Cora", "target": "Ava"},
    ],
}


def test_replay_script_through_the_command_line(tmp_path, capsys):
    path = tmp_path / "ritual.json"
    path.write_text(json.dumps(REPLAY))
    assert cli(["replay", str(path)]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    rejected = [line for line in lines if "rejected" in line]
    assert [(r["rejected"], r["code"]) for r in rejected] == [(6, "not_your_ingredient")]
    assert lines[-1]["result"]["outcome"] == "Coven" and lines[-1]["result"]["winners"] == ["Ava", "Bram"]
    events = [line["event"] for line in lines if "event" in line]
    assert events.count("ingredient_revealed") == 3 and "game_over" in events
    # the same script replays to the same lines
    assert cli(["replay", str(path)]) == 0
    assert [json.loads(line) for line in capsys.readouterr().out.splitlines()] == lines


@pytest.mark.slow
def test_replay_files_in_a_subprocess():
    here = Path(__file__).parent / "replays"
    scripts = sorted(here.glob("*.json"))
    assert scripts
    for script in scripts:
        done = subprocess.run([sys.executable, "-m", "games", "replay", str(script)], capture_output=True,
                              text=True, cwd=here.parents[3], check=True, timeout=120)
        lines = [json.loads(line) for line in done.stdout.splitlines()]
        expected = json.loads(script.read_text())["expect"]
        assert lines[-1]["result"]["outcome"] == expected["outcome"], script.name
        assert sorted(lines[-1]["result"]["winners"]) == sorted(expected["winners"]), script.name
        rejected = [[line["rejected"], line["code"]] for line in lines if "rejected" in line]
        assert rejected == expected.get("rejected", []), script.name


@pytest.mark.slow
@pytest.mark.parametrize("n", range(3, 10))
def test_simulation_finishes_every_game(n):
    report = simulate(GAME, n, 100 if n <= 5 else 50, seed=n)
    assert report.failures == []
    assert report.finished == report.games
    assert sum(report.winners.values()) == report.games


@pytest.mark.slow
def test_simulation_with_every_variant():
    options = {"revenant": True, "revenant_ends_game": False, "corrupted_know_each_other": False,
               "idle_offering": "none", "amplify_tainted": "split", "amp_and_sup": "in_order", "misdirection": "invert",
               "infection_per_backfire": 1, "reveal_on_death": True, "wards_shield_council": False,
               "allow_spare": False, "performer_tie": "random", "max_rounds": 5}
    for seed in range(24):
        state, _, problems = play_random(GAME, 7 + seed % 3, seed, options=options)
        assert problems == [] and state.finished
    winners = simulate(GAME, 8, 30, seed=3, options={"revenant": True}).winners
    assert set(winners) <= {"Coven", "Corrupted", "Neutral", "draw"}
