"""games/ is pure rules: it imports no Discord, database, scheduler, asyncio or clock."""

import ast
from pathlib import Path

GAMES = Path(__file__).resolve().parents[2] / "games"
FORBIDDEN = {"discord", "aiosqlite", "sqlite3", "apscheduler", "asyncio", "time", "datetime",
             "bot", "threading", "socket", "requests", "aiohttp"}
#: the command line may time a simulation run; no rule reads it
ALLOWED = {("__main__.py", "time")}


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    roots = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


def test_games_package_imports_no_io_or_clock():
    offenders = []
    files = sorted(GAMES.rglob("*.py"))
    assert files, "no game sources found"
    for path in files:
        for root in imported_roots(path) & FORBIDDEN:
            if (path.name, root) not in ALLOWED or path.parent != GAMES:
                offenders.append(f"{path.relative_to(GAMES.parent)} imports {root}")
    assert offenders == []


def test_the_checker_catches_a_forbidden_import(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import discord\nfrom datetime import datetime\nfrom . import x\n")
    assert imported_roots(bad) == {"discord", "datetime"}
