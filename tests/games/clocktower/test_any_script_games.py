"""Any script plays to the end: every script of the 2025 world championship (tests/games/clocktower/
reference/wc25) and the three base editions import, and seeded random games on each play to the end at
7, 11 and 15 players with the game's invariants (no secret in a public event, the seats in order, the
copilot's proposals inside what the rules allow), the Storytellers' judgement of the characters the bot
has no rules for simulated as a Storyteller would (a free answer, a choice in the ability's form)."""

from pathlib import Path

import pytest

import games
from games.__main__ import main
from games.clocktower import parse_script
from games.clocktower.script import edition_script
from games.clocktower.script_text import UNKNOWN_ABILITY, script_sheet
from games.engine.run import simulate

WC25 = sorted((Path(__file__).parent / "reference" / "wc25").glob("*.json"))
GAME = games.get("clocktower")
EDITIONS = {"tb": "Trouble Brewing", "bmr": "Bad Moon Rising", "snv": "Sects & Violets"}


def test_every_championship_script_and_base_edition_imports():
    assert len(WC25) == 16
    for path in WC25:
        script = parse_script(path.read_text(encoding="utf-8"))
        assert script.rules == "official"
        assert all(script.characters[team] for team in ("townsfolk", "outsider", "minion", "demon")), path.name
        sheet = script_sheet(script)  # /game script: every character named with its ability
        assert not any(UNKNOWN_ABILITY in line for section in sheet.sections for line in section.lines), path.name
    for edition, name in EDITIONS.items():
        script = edition_script(edition)
        assert script.name == name
        assert [len(script.characters[t]) for t in ("townsfolk", "outsider", "minion", "traveller")] == [13, 4, 4, 5]


SCRIPTS = [(p.name, p.read_text(encoding="utf-8")) for p in WC25] + [(name, name) for name in EDITIONS.values()]


@pytest.mark.slow
@pytest.mark.parametrize(("name", "text"), SCRIPTS, ids=[name for name, _ in SCRIPTS])
def test_seeded_games_on_each_script_play_to_the_end(name, text):
    for players in (7, 11, 15):
        report = simulate(GAME, players, 1, seed=players, options={"script": text})
        assert report.failures == [], (name, players, report.failures[:3])
        assert report.finished == 1, (name, players)


def test_the_command_line_simulates_a_script_file_and_an_edition(capsys, tmp_path):
    assert main(["simulate", "clocktower", "--script", str(WC25[0]), "--players", "9", "--games", "2",
                 "--seed", "4", "--json"]) == 0
    assert '"finished":2' in capsys.readouterr().out
    assert main(["simulate", "clocktower", "--script", "Trouble Brewing", "--players", "5", "--games", "2",
                 "--seed", "4"]) == 0
    assert "2/2 games finished with 5 players" in capsys.readouterr().out
    bad = tmp_path / "bad.json"
    bad.write_text('["chef", "gizmo", "imp", "spy", "empath"]', encoding="utf-8")
    assert main(["simulate", "clocktower", "--script", str(bad), "--players", "7", "--games", "1"]) == 2
    assert "gizmo" in capsys.readouterr().err


def test_the_grimoire_picture_of_the_largest_script_draws_every_name_and_its_fabled():
    from games.clocktower.picture import draw_grimoire
    from games.engine import Player
    from games.engine.run import start

    path = max(WC25, key=lambda p: len(parse_script(p.read_text(encoding="utf-8")).all_ids()))
    text = path.read_text(encoding="utf-8")
    players = [Player(id=f"p{i}", name=f"Player{i}") for i in range(1, 16)]
    state = start(GAME, players, {"script": text}, seed=2).state
    script = state.script
    data = GAME.picture(state, "grimoire")
    known = GAME.chars_of(state)
    assert [s["character"] for s in data["seats"]] == [known[s.character].name for s in state.seats]
    assert data["fabled"] == [known[f].name for f in script.characters["fabled"]]  # in play from the start
    assert data["loric"] == [known[c].name for c in script.characters["loric"]]
    assert draw_grimoire(data)[:8] == b"\x89PNG\r\n\x1a\n"
