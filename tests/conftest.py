"""The tiers every test belongs to, and fixtures every folder of tests may use: a real PostgreSQL
server, and a store on either engine.

Each test is in exactly one tier. Its folder says which, unless a mark on the test (or its file)
says otherwise, and a test that needs PostgreSQL is ``slow`` wherever it lives:

- ``pure``: rules alone, in memory (tests/games, tests/engine);
- ``adapter``: the bot's parts on a real SQLite file, with no child process and no server
  (tests/platform);
- ``discord``: the real bot on simcord's simulated Discord (tests/discord);
- ``slow``: a browser, a child process, a PostgreSQL server or a long simulation (tests/offline,
  and the tests marked so elsewhere).

``-m quick`` selects the pure and adapter tiers (``./test.sh -m quick``); CI runs every tier.
"""

import json

import pytest
from support.postgres import Server, binaries

TIERS = {
    "pure": "rules alone, in memory (tests/games, tests/engine)",
    "adapter": "the bot's parts on a real SQLite file, no child process and no server (tests/platform)",
    "discord": "the real bot on simcord's simulated Discord (tests/discord)",
    "slow": "a browser, a child process, a PostgreSQL server or a long simulation (tests/offline)",
}
#: the tier of a test that carries no tier mark, by its folder under tests/
FOLDER_TIERS = {"games": "pure", "engine": "pure", "platform": "adapter", "discord": "discord",
                "offline": "slow"}
#: the tiers ``-m quick`` runs
QUICK = ("pure", "adapter")


def pytest_addoption(parser):
    parser.addoption("--tier-report", metavar="PATH",
                     help="write each collected test's tier marks to PATH as JSON (tests/platform/test_tiers.py)")


def pytest_configure(config):
    for name, meaning in TIERS.items():
        config.addinivalue_line("markers", f"{name}: tier: {meaning}")
    config.addinivalue_line("markers", f"quick: the {' and '.join(QUICK)} tiers (set from the tier)")


def needs_postgresql(item) -> bool:
    params = getattr(getattr(item, "callspec", None), "params", {})
    return "postgres_server" in item.fixturenames or "postgresql" in params.values()


def tier_of(item) -> str | None:
    """The tier a test without a tier mark of its own gets: PostgreSQL's, else its folder's."""
    if needs_postgresql(item):
        return "slow"
    parts = item.path.relative_to(item.config.rootpath / "tests").parts
    return FOLDER_TIERS.get(parts[0]) if len(parts) > 1 else None


def tiers_marked(item) -> list[str]:
    return sorted({mark.name for mark in item.iter_markers() if mark.name in TIERS})


@pytest.hookimpl(tryfirst=True)  # (before ``-m`` selects by the marks)
def pytest_collection_modifyitems(config, items):
    for item in items:
        marked = tiers_marked(item)
        if not marked and (tier := tier_of(item)) is not None:
            item.add_marker(tier)
            marked = [tier]
        if len(marked) != 1:
            raise pytest.UsageError(f"{item.nodeid} is in {len(marked)} tiers ({', '.join(marked) or 'none'});"
                                    f" each test is in exactly one of {', '.join(TIERS)}")
        if marked[0] in QUICK:
            item.add_marker("quick")


def pytest_collection_finish(session):
    path = session.config.getoption("--tier-report")
    if path:
        report = {item.nodeid: {"tiers": tiers_marked(item),
                                "quick": item.get_closest_marker("quick") is not None}
                  for item in session.items}
        with open(path, "w") as out:
            json.dump(report, out)


@pytest.fixture(scope="session")
def postgres_server():
    bindir = binaries()
    if bindir is None:
        pytest.skip("needs PostgreSQL's server binaries (apt-get install -y postgresql); CI installs them")
    server = Server(bindir)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def postgres_url(postgres_server):
    """A fresh database of its own on the test session's PostgreSQL server."""
    url = postgres_server.new_database()
    yield url
    postgres_server.drop_database(url)


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request, tmp_path):
    """Where a store lives: a SQLite file, or a PostgreSQL database (each test runs on both)."""
    if request.param == "sqlite":
        return tmp_path / "bot.db"
    return request.getfixturevalue("postgres_url")
