"""Random simulations, hypothesis sequences, replays and data files."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.__main__ import main
from games.castle import GAME
from games.castle.data import DATA, load_cards
from games.engine import DataError, GameError, PhaseTimeout, Player, Replay, replay, simulate
from games.engine.run import play_random, start, step

REPLAYS = Path(__file__).with_name("replays")


@pytest.mark.slow
@pytest.mark.parametrize("n", [4, 5, 6])
def test_random_games_all_finish_with_no_broken_invariant(n):
    report = simulate(GAME, n, 300, seed=n)
    assert report.finished == 300, report.failures[:3]
    assert report.failures == []
    assert sum(report.winners.values()) == 300
    assert len(report.winners) == 8  # every outcome turns up


@pytest.mark.parametrize("options", [
    {"on_timeout": "random", "first_player": "claim"},
    {"pawns_start": "tableau", "same_shrine": False, "memory": False, "start_face_up": 0},
    {"open_shrines": True, "domination": "no_rampage", "devoured_score": "nothing", "max_turns": 12},
    {"deal": "with_monster", "pawns": 1, "start_face_up": 27},
])
def test_random_games_under_every_option(options):
    for n in (4, 5, 6):
        for seed in range(25):
            state, _, problems = play_random(GAME, n, seed, options=options)
            assert problems == [] and state.finished


def test_long_names_keep_every_event_short():
    long = [Player(id=f"p{i}", name=f"Sir Reginald the {i}th of Longnames Hall") for i in range(6)]
    for seed in range(15):
        state = start(GAME, long, {"pawns_start": "tableau", "on_timeout": "random"}, seed).state
        chooser = random.Random(seed)
        while not state.finished:
            action = chooser.choice(GAME.legal_actions(state)) if chooser.random() > 0.1 \
                else PhaseTimeout(phase_seq=state.phase_seq)
            out = step(GAME, state, action, seed)
            assert GAME.check_invariants(out.state, out.events) == []
            assert all(len(e.text) <= 1800 for e in out.events)
            state = out.state
        assert all(len(GAME.view(state, v).text) < 2000 for v in ("p1", None, "storyteller"))


def test_scores_are_consistent_at_the_end():
    for seed in range(60):
        state, _, _ = play_random(GAME, 5, seed)
        if state.outcome == "ended":
            continue
        res = GAME.result(state)
        scores = {p.id: p.score for p in res.players}
        best = max(s for s in scores.values() if s is not None)
        assert sorted(res.winners) == sorted(p for p, s in scores.items() if s == best)
        assert all(s % 1000 == 0 for s in scores.values() if s is not None)


ACTION_TYPES = ["pick_up", "place", "advance", "claim_first", "phase_timeout", "remove_player", "end_game"]


@st.composite
def action_dicts(draw):
    kind = draw(st.sampled_from(ACTION_TYPES + ["bogus"]))
    player = draw(st.sampled_from(["p1", "p2", "p3", "p4", "p5", "zz", ""]))
    a = {"type": kind, "player": player}
    if kind == "pick_up":
        a["pawns"] = draw(st.lists(st.integers(-1, 5), max_size=4))
    elif kind == "place":
        a["row"] = draw(st.sampled_from(["bell", "book", "candle", "lamp"]))
        a["column"] = draw(st.integers(0, 10))
    elif kind == "advance":
        a["card"] = draw(st.integers(0, 9))
    elif kind == "remove_player":
        a["target"] = draw(st.sampled_from(["p1", "p2", "p3", "p4", "p5", "zz"]))
    elif kind == "phase_timeout":
        a["phase_seq"] = draw(st.integers(0, 40))
    return a


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), script=st.lists(st.tuples(st.booleans(), action_dicts()), max_size=60),
       options=st.sampled_from([{}, {"first_player": "claim", "on_timeout": "random"},
                                {"same_shrine": False, "pawns_start": "tableau"}]))
def test_random_legal_and_illegal_sequences(seed, script, options):
    players = [Player(id=f"p{i}", name=f"P{i}") for i in range(1, 6)]
    state = start(GAME, players, options, seed).state
    chooser = random.Random(seed)
    for use_legal, raw in script:
        if state.finished:
            break
        legal = GAME.legal_actions(state)
        action = chooser.choice(legal) if use_legal and legal else raw
        before = state.model_dump_json()
        try:
            out = step(GAME, state, action, seed)
        except GameError as exc:
            assert exc.message and exc.code
            assert state.model_dump_json() == before
            assert not (use_legal and legal), f"a legal action was refused: {exc.code}"
            continue
        assert GAME.check_invariants(out.state, out.events) == []
        state = out.state
        # the JSON round trip the bot does after every action
        state = GAME.load_state(state.model_dump_json())


def test_state_survives_json_between_every_step():
    state = start(GAME, [Player(id=f"p{i}", name=f"P{i}") for i in range(4)], {}, 11).state
    chooser = random.Random(3)
    while not state.finished:
        action = chooser.choice(GAME.legal_actions(state)) if chooser.random() > 0.1 \
            else PhaseTimeout(phase_seq=state.phase_seq)
        state = GAME.load_state(step(GAME, state, action, 11).state.model_dump_json())
    assert GAME.result(state).finished


# ----- replays -----


def lines_of(path: Path) -> list[dict]:
    script = Replay.model_validate_json(path.read_text())
    return list(replay(GAME, script))


def test_replay_forced_tableau_and_mapping():
    lines = lines_of(REPLAYS / "domination.json")
    assert not [ln for ln in lines if "rejected" in ln and ln["rejected"] != 3]
    rejected = [ln for ln in lines if "rejected" in ln]
    assert [r["code"] for r in rejected] == ["shrine_taken"]
    result = lines[-1]["result"]
    assert result["finished"] and result["outcome"] == "crown_dominates"
    scores = {p["id"]: p["score"] for p in result["players"]}
    assert scores == {"ann": 4000, "ben": 1000, "cat": 2000, "dov": 7000}
    assert result["winners"] == ["dov"]
    spell = next(ln for ln in lines if ln.get("event") == "spell")
    assert spell["data"]["dominator"] == "ann" and sorted(spell["data"]["devoured"]) == ["ben", "cat"]


def test_replay_through_the_command_line(capsys):
    assert main(["replay", str(REPLAYS / "banished.json")]) == 0
    out = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    result = out[-1]["result"]
    assert result["outcome"] == "banished"
    assert {p["id"]: p["score"] for p in result["players"]} == {"ann": 3000, "ben": 2000, "cat": 1000, "dov": 0}
    assert sorted(result["winners"]) == ["ann"]


def test_replay_is_deterministic():
    assert lines_of(REPLAYS / "domination.json") == lines_of(REPLAYS / "domination.json")


def test_command_line_simulate_and_actions(capsys):
    assert main(["simulate", "castle", "--players", "4", "--games", "20", "--seed", "2", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["finished"] == 20
    assert main(["actions", "castle"]) == 0
    schema = capsys.readouterr().out
    assert "pick_up" in schema and "place" in schema and "advance" in schema


# ----- data -----


def test_every_data_entry_loads():
    cards = load_cards()
    assert len(cards.characters) == 13 and len(cards.outcomes) == 8
    assert {c.id for c in cards.characters} >= {"dragon_kida", "wolf_cultist", "monster"}
    assert [o.id for o in cards.outcomes][0] == "banished"


def test_bad_data_raises_data_error(tmp_path):
    data = json.loads(DATA.read_text())
    data["characters"] = data["characters"][:-1]  # no Monster
    bad = tmp_path / "cards.json"
    bad.write_text(json.dumps(data))
    with pytest.raises(DataError):
        load_cards(bad)
    data = json.loads(DATA.read_text())
    data["outcomes"][1]["regalia"] = None
    bad.write_text(json.dumps(data))
    with pytest.raises(DataError):
        load_cards(bad)
    bad.write_text("{not json")
    with pytest.raises(DataError):
        load_cards(bad)
