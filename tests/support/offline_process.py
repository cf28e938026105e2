"""The offline table as a real process (``python -m bot --offline``), for the tests that need one:
its command line, its signals, its health endpoint."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def start_offline(db_path: Path, *args: str, env: dict[str, str] | None = None,
                  until: str = "Stop with Ctrl+C") -> tuple[subprocess.Popen, list[str]]:
    """Start the table on ``db_path`` (its own free port, no token) and read what it prints until a
    line containing ``until``; returns the process and those lines. Fails the test (and kills the
    process) when the line never comes."""
    env = {**os.environ, "DATABASE_PATH": str(db_path), "DISCORD_TOKEN": "", "LOG_LEVEL": "WARNING",
           **(env or {})}
    proc = subprocess.Popen([sys.executable, "-m", "bot", "--offline", "--port", "0", *args], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines: list[str] = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line)
        if until in line:
            return proc, lines
    proc.kill()
    pytest.fail(f"the offline table did not print {until!r}:\n{''.join(lines)}{proc.stderr.read()}")
