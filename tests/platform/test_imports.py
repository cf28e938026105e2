"""The bot's modules import each other in one direction: no import circle, whether the import is
at module level, inside a function or under ``if TYPE_CHECKING:``; and no core module names a game:
every module of ``bot/`` outside a game's feature package (``bot.clocktower``) and the list of those
packages (``bot.features``), computed, not listed by hand."""

from __future__ import annotations

import ast
import re
from pathlib import Path

BOT = Path(__file__).resolve().parents[2] / "bot"
#: the feature packages (a game's own Discord side) and the module that lists them
FEATURES = ("clocktower",)
REGISTRY = "features.py"


def core_modules() -> list[Path]:
    """Every module of ``bot/`` that every game goes through: all but the feature packages."""
    return [path for path in sorted(BOT.rglob("*.py"))
            if path.relative_to(BOT).parts[0] not in FEATURES and path.relative_to(BOT).as_posix() != REGISTRY]


def game_names() -> list[str]:
    """Every game's kind, and the words of its title that name it ("Clocktower", "Ritual")."""
    import games

    words = {"the", "of", "on", "by", "blood", "magic", "forum"}
    names = set()
    for kind in games.available():
        names.add(kind)
        names |= {w for w in re.findall(r"[a-z]+", games.get(kind).title.lower()) if w not in words}
    return sorted(names)


def code_lines(path: Path) -> list[tuple[int, str]]:
    """The lines of a module that are code: imports, names and strings, not comments or docstrings
    (a docstring may use a game as its example)."""
    tree = ast.parse(path.read_text(), str(path))
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                    and isinstance(first.value.value, str):
                docstrings |= set(range(first.lineno, (first.end_lineno or first.lineno) + 1))
    return [(n, line.split("#", 1)[0]) for n, line in enumerate(path.read_text().splitlines(), start=1)
            if n not in docstrings]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(BOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(BOT.rglob("*.py"))}


def imports_of(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The bot modules ``name`` imports anywhere in its body (``from .pkg import mod`` counts as
    the module ``pkg.mod`` when there is one, else as ``pkg``)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            for alias in node.names:
                sub = f"{source}.{alias.name}"
                found.add(sub if sub in known else source)
    return {m for m in found if m in known and m != name}


def import_graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports_of(name, path, known) for name, path in known.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected group of more than one module (Tarjan), each as a sorted list."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def shortest_circle(graph: dict[str, set[str]], start: str) -> list[str] | None:
    """The shortest chain of imports from ``start`` back to itself (breadth first), if any."""
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for nxt in sorted(graph[node]):
                if nxt == start:
                    return [*paths[node], start]
                if nxt not in paths:
                    paths[nxt] = [*paths[node], nxt]
                    following.append(nxt)
        frontier = following
    return None


def circles(graph: dict[str, set[str]]) -> list[str]:
    """Each import circle once, as ``a -> b -> a``: the shortest through each module of a group."""
    found: dict[frozenset[str], str] = {}
    for group in cycles(graph):
        for node in group:
            circle = shortest_circle(graph, node)
            if circle is not None and frozenset(circle) not in found:
                found[frozenset(circle)] = " -> ".join(circle)
    return sorted(found.values())


def test_the_import_graph_is_read_from_every_kind_of_import():
    graph = import_graph()
    assert "bot.service" in graph["bot.play"]
    assert "bot.clocktower" in graph["bot.features"]  # `from . import clocktower`


def test_the_bot_has_no_import_circle():
    found = circles(import_graph())
    assert not found, "import circles in bot/:\n" + "\n".join(found)


def test_the_core_is_computed_from_the_tree():
    core = {p.relative_to(BOT).as_posix() for p in core_modules()}
    assert {"service/_core.py", "delivery/_threads.py", "voice/mutes.py", "offline/table.py"} <= core
    assert not any(p.startswith("clocktower/") for p in core) and REGISTRY not in core
    assert {"clocktower", "ritual", "cauldron", "castle"} <= set(game_names())


def test_a_job_of_the_service_uses_only_its_core():
    """``bot.service`` is cut by job: a job module reaches the core and the two leaf modules (the
    outbox rows, the refusals), never another job, and nothing in it imports the package itself."""
    graph = import_graph()
    shared = {"bot.service._core", "bot.service._outbox", "bot.service._refusals"}
    jobs = {name for name in graph if name.startswith("bot.service.")} - shared
    assert {"bot.service._lobby", "bot.service._clocks", "bot.service._moderation"} <= jobs
    crossing = {name: sorted(m for m in graph[name] if m.startswith("bot.service") and m not in shared)
                for name in sorted(jobs | shared)}
    assert not any(crossing.values()), crossing
    assert not any(m.startswith("bot.service") for m in graph["bot.service._outbox"] | graph["bot.service._refusals"])


def test_no_core_module_names_a_game():
    pattern = re.compile(r"\b(" + "|".join(game_names()) + r")\b", re.IGNORECASE)
    imports = re.compile(r"\b(games|bot)\.(" + "|".join(games_kinds()) + r")\b")
    named = [f"{path.relative_to(BOT)}:{n}: {line.strip()}" for path in core_modules()
             for n, line in code_lines(path) if pattern.search(line) or imports.search(line)]
    assert not named, "core modules that name a game:\n" + "\n".join(named)


def games_kinds() -> list[str]:
    import games

    return list(games.available())
