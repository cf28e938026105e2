"""``python -m bot --offline`` as a user runs it: prints the URLs, serves, stops cleanly on a signal."""

import contextlib
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from support.offline_process import offline_table

ROOT = Path(__file__).resolve().parents[2]


@contextlib.contextmanager
def started(tmp_path, *args):
    """The table on ``tmp_path``'s database, its output so far and its two addresses; ended at the
    exit of the block whatever happens."""
    with offline_table(tmp_path / "cli.db", *args) as (child, lines):
        out = "".join(lines)
        urls = re.findall(r"http://127\.0\.0\.1:\d+/\S+", out)
        assert len(urls) == 2, f"no URLs printed:\n{out}"
        yield child, out, urls


def stop(child, sig):
    started_at = time.monotonic()
    rc = child.stop(sig, 20)
    return rc, time.monotonic() - started_at


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_starts_prints_urls_and_stops_cleanly(tmp_path, sig):
    with started(tmp_path, "--names", "Ann,Bo,Cy", "--players", "3") as (child, out, (table, hub)):
        assert "3 players: Ann, Bo, Cy" in out
        assert "#" in table
        with urllib.request.urlopen(hub, timeout=10) as r:
            page = r.read().decode()
        assert "Ann" in page and "Open the table" in page
        with urllib.request.urlopen(table.split("#")[0], timeout=10) as r:
            assert r.status == 200  # the preview's page
        rc, took = stop(child, sig)
        assert rc == 0, child.stderr()
        assert took < 10
    # the same secret next time: open tabs and bookmarks keep working after a restart
    with started(tmp_path, "--names", "Ann,Bo,Cy", "--players", "3") as (child, _, (table2, hub2)):
        assert table2.split("#")[1] == table.split("#")[1]
        assert hub2.rsplit("/", 2)[1] == hub.rsplit("/", 2)[1]
        stop(child, signal.SIGTERM)


def test_bad_names_are_refused_with_a_sentence(tmp_path):
    env = {**os.environ, "DATABASE_PATH": str(tmp_path / "cli.db")}
    done = subprocess.run([sys.executable, "-m", "bot", "--offline", "--names", "Ann,ann"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "same name" in done.stderr
