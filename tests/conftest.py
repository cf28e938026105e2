"""Fixtures every folder of tests may use: a real PostgreSQL server, and a store on either engine."""

import pytest
from support.postgres import Server, binaries


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
