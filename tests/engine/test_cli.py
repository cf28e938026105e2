"""``python -m games``: actions, replay and simulate, for every game and from a real subprocess."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

import games
from games.__main__ import main

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def tally(monkeypatch):
    monkeypatch.setitem(games.GAMES, "tally", "support.tally:GAME")


def lines(capsys):
    return [json.loads(x) for x in capsys.readouterr().out.splitlines() if x.strip()]


def test_replay_prints_events_rejections_and_the_result(tally, tmp_path, capsys):
    script = {"game": "tally", "seed": 3, "players": ["Ann", "Bo"], "options": {"rounds": 1},
              "setup": {"secrets": {"Ann": "owl", "Bo": "cat"}},
              "actions": [{"type": "vote", "player": "Ann", "target": "red"},
                          {"type": "vote", "player": "Bo", "target": "purple"},
                          {"type": "phase_timeout"}]}
    path = tmp_path / "s.json"
    path.write_text(json.dumps(script))
    assert main(["replay", str(path)]) == 0
    out = lines(capsys)
    assert out[0] == {"event": "card", "audience": "player:Ann", "text": "Your secret animal is the owl."}
    rejected = [x for x in out if "rejected" in x]
    assert rejected == [{"rejected": 1, "action": script["actions"][1], "code": "bad_target",
                         "error": "Vote red or blue."}]
    result = out[-1]["result"]
    assert result["finished"] and result["outcome"] == "red"
    assert {p["name"]: p["role"] for p in result["players"]} == {"Ann": "owl", "Bo": "cat"}


def test_simulate_json_and_exit_code(tally, capsys):
    assert main(["simulate", "tally", "--players", "3", "--games", "20", "--seed", "2", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert set(report) == {"game", "players", "games", "finished", "winners", "median_rounds", "actions", "seconds"}
    assert report["finished"] == 20 and sum(report["winners"].values()) == 20


def test_bad_input_is_a_sentence_not_a_traceback(tmp_path, capsys):
    assert main(["simulate", "chess", "--players", "3"]) == 2
    assert "no game called" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text('{"game": "ritual"}')
    assert main(["replay", str(bad)]) == 2
    assert "not valid" in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.parametrize("name", games.available())
def test_every_game_prints_its_actions_from_a_subprocess(name):
    out = subprocess.run([sys.executable, "-m", "games", "actions", name], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    schema = json.loads(out.stdout)
    assert "phase_timeout" in json.dumps(schema)
