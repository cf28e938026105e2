"""The type checker covers bot/ as it does games/ (issue 39, item 3): test.sh runs it over both,
no module is excused in the config, and each remaining ``# type: ignore`` names its error code and
says why in a few words."""

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
IGNORE = re.compile(r"#\s*type:\s*ignore(?P<code>\[[a-z-]+(?:,\s*[a-z-]+)*\])?(?P<rest>.*)$")


def test_test_sh_checks_games_and_bot():
    commands = [line.split() for line in (ROOT / "test.sh").read_text().splitlines()]
    assert [".venv/bin/mypy", "games", "bot"] in commands


def test_no_module_is_excused_from_checking():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    assert not config.get("ignore_errors")
    for override in config.get("overrides", []):
        assert not override.get("ignore_errors"), override["module"]
        assert set(override) <= {"module", "ignore_missing_imports"}, override  # only untyped libraries
        modules = [override["module"]] if isinstance(override["module"], str) else override["module"]
        assert not [m for m in modules if m.split(".")[0] in ("bot", "games")], modules


def test_each_ignore_in_bot_names_its_code_and_why():
    bare = []
    for path in sorted((ROOT / "bot").rglob("*.py")):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            found = IGNORE.search(line)
            if found is None:
                continue
            reason = found["rest"].strip().removeprefix("#").strip()
            if not found["code"] or len(reason) < 10:
                bare.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not bare, "\n".join(bare)
