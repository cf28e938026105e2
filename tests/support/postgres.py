"""A real PostgreSQL server for the tests, started from the machine's own binaries.

One server per test session, in a fresh data directory, listening on a free local port; each test
gets a database of its own (``new_database``), dropped afterwards. The server runs with fsync off:
the tests check what is committed, not what survives a power cut (that is SQLite's FULL mode, and
PostgreSQL's own business). CI installs Debian's ``postgresql`` (see ``.ci/run``).
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path


def binaries() -> Path | None:
    """The folder holding ``initdb`` and ``postgres``, or None when PostgreSQL is not installed."""
    found = []
    if shutil.which("pg_config"):
        bindir = subprocess.run(["pg_config", "--bindir"], capture_output=True, text=True, timeout=60).stdout.strip()
        found.append(bindir)
    found += sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(p.split("/")[-2]), reverse=True)
    for folder in found:
        if (Path(folder) / "initdb").exists() and (Path(folder) / "postgres").exists():
            return Path(folder)
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """``initdb`` and ``postgres`` in a temporary folder; as root, run as the ``postgres`` user
    (PostgreSQL refuses to run as root)."""

    def __init__(self, bindir: Path, *, durable: bool = False) -> None:
        """``durable``: PostgreSQL's own defaults (fsync on), for benchmarks; else fsync off."""
        self.bindir = bindir
        self.durable = durable
        self.folder = Path(tempfile.mkdtemp(prefix="storyteller-pg-"))
        self.port = _free_port()
        self.user: str | None = None
        if os.geteuid() == 0:
            self.user = "postgres"
            entry = pwd.getpwnam(self.user)
            os.chown(self.folder, entry.pw_uid, entry.pw_gid)
        self.process: subprocess.Popen | None = None
        self._names = itertools.count(1)

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _run_as(self) -> dict:
        return {"user": self.user, "group": self.user} if self.user else {}

    def start(self) -> None:
        data = self.folder / "data"
        subprocess.run([str(self.bindir / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust",
                        "-E", "UTF8", "--no-sync"], check=True, capture_output=True, timeout=120, **self._run_as())
        log = open(self.folder / "server.log", "wb")  # noqa: SIM115 - open for the server's life
        fast = [] if self.durable else ["-c", "fsync=off", "-c", "synchronous_commit=off",
                                        "-c", "full_page_writes=off"]
        self.process = subprocess.Popen(
            [str(self.bindir / "postgres"), "-D", str(data), "-p", str(self.port), "-k", str(self.folder),
             "-c", "listen_addresses=127.0.0.1", "-c", "max_connections=200", *fast],
            stdout=log, stderr=subprocess.STDOUT, **self._run_as())
        try:
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                if self.process.poll() is not None:
                    raise RuntimeError("PostgreSQL stopped at start-up:\n" + (self.folder / "server.log").read_text())
                if self._answers():
                    return
                time.sleep(0.05)
            raise RuntimeError("PostgreSQL did not start within 30 s")
        except BaseException:  # (no server left running behind a failed start)
            self.stop()
            raise

    def _answers(self) -> bool:
        """Whether the server takes a query: an open port is not enough, since PostgreSQL
        listens before it has finished starting ("the database system is starting up")."""
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", self.port)) != 0:
                return False
        try:
            self.sql("SELECT 1")
        except RuntimeError:
            return False
        return True

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.folder, ignore_errors=True)

    def sql(self, statement: str) -> str:
        """Run one statement with psql (outside any event loop); its output."""
        psql = self.bindir / "psql" if (self.bindir / "psql").exists() else "psql"
        done = subprocess.run([str(psql), "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "-d",
                               "postgres", "-v", "ON_ERROR_STOP=1", "-Atc", statement],
                              capture_output=True, text=True, timeout=120)
        if done.returncode:
            raise RuntimeError(f"psql: {done.stderr}")
        return done.stdout

    def new_database(self) -> str:
        """A new, empty database; its address."""
        name = f"test_{os.getpid()}_{next(self._names)}"
        self.sql(f'CREATE DATABASE "{name}"')
        return self.url.rsplit("/", 1)[0] + "/" + name

    def drop_database(self, url: str) -> None:
        self.sql(f'DROP DATABASE IF EXISTS "{url.rsplit("/", 1)[1]}" WITH (FORCE)')
