"""``python -m bot --offline`` as a user runs it: prints the URLs, serves, stops cleanly on a signal."""

import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from support.offline_process import start_offline

ROOT = Path(__file__).resolve().parents[2]


def start(tmp_path, *args):
    proc, lines = start_offline(tmp_path / "cli.db", *args)
    out = "".join(lines)
    urls = re.findall(r"http://127\.0\.0\.1:\d+/\S+", out)
    if len(urls) != 2:
        proc.kill()
        pytest.fail(f"no URLs printed:\n{out}\n{proc.stderr.read()}")
    return proc, out, urls


def stop(proc, sig):
    started = time.monotonic()
    proc.send_signal(sig)
    try:
        rc = proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        pytest.fail("the offline table did not stop within 20 s")
    return rc, time.monotonic() - started


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_starts_prints_urls_and_stops_cleanly(tmp_path, sig):
    proc, out, (table, hub) = start(tmp_path, "--names", "Ann,Bo,Cy", "--players", "3")
    assert "3 players: Ann, Bo, Cy" in out
    assert "#" in table
    with urllib.request.urlopen(hub, timeout=10) as r:
        page = r.read().decode()
    assert "Ann" in page and "Open the table" in page
    with urllib.request.urlopen(table.split("#")[0], timeout=10) as r:
        assert r.status == 200  # the preview's page
    rc, took = stop(proc, sig)
    assert rc == 0, proc.stderr.read()
    assert took < 10
    # the same secret next time: open tabs and bookmarks keep working after a restart
    proc, _, (table2, hub2) = start(tmp_path, "--names", "Ann,Bo,Cy", "--players", "3")
    try:
        assert table2.split("#")[1] == table.split("#")[1]
        assert hub2.rsplit("/", 2)[1] == hub.rsplit("/", 2)[1]
    finally:
        stop(proc, signal.SIGTERM)


def test_bad_names_are_refused_with_a_sentence(tmp_path):
    env = {**os.environ, "DATABASE_PATH": str(tmp_path / "cli.db")}
    done = subprocess.run([sys.executable, "-m", "bot", "--offline", "--names", "Ann,ann"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "same name" in done.stderr
