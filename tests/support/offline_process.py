"""Child processes for the tests that need one (the offline table as ``python -m bot --offline``: its
command line, its signals, its health endpoint), ended whatever happens: each is a context manager
that kills the process at its exit if it is still running, and reads its output as it comes (so a
full pipe never stalls it, and a wait for a line has a deadline even when the process prints
nothing)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def python_env(**values: str) -> dict[str, str]:
    """The environment of a child Python process that runs a module of ``support``
    (``python -m support.sweeper``): tests/ on its path, as pyproject.toml's ``pythonpath`` puts it on
    the tests' (the project itself is installed in the venv); ``values`` added."""
    paths = [str(ROOT / "tests"), *filter(None, [os.environ.get("PYTHONPATH")])]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(paths), **values}


class Child:
    """A running child process with its standard output and error collected line by line.

    ``with Child(argv) as child:`` kills it at the exit of the block if it has not ended."""

    def __init__(self, argv: list[str], *, cwd: Path | str = ROOT, env: dict[str, str] | None = None) -> None:
        self.proc = subprocess.Popen(argv, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True)
        self.out: list[str] = []
        self.err: list[str] = []
        self._changed = threading.Condition()
        self._readers = [threading.Thread(target=self._read, args=(pipe, lines), daemon=True)
                         for pipe, lines in ((self.proc.stdout, self.out), (self.proc.stderr, self.err))]
        for reader in self._readers:
            reader.start()

    def _read(self, pipe, lines: list[str]) -> None:
        for line in pipe:
            with self._changed:
                lines.append(line)
                self._changed.notify_all()
        with self._changed:
            lines.append("")  # the end of the stream
            self._changed.notify_all()

    def __enter__(self) -> Child:
        return self

    def __exit__(self, *exc: object) -> None:
        self.end()

    @property
    def returncode(self) -> int | None:
        return self.proc.poll()

    def stdout(self) -> str:
        with self._changed:
            return "".join(self.out)

    def stderr(self) -> str:
        with self._changed:
            return "".join(self.err)

    def wait_for_line(self, text: str, seconds: float = 60, *, stderr: bool = False) -> list[str]:
        """Every line of standard output (or error) up to the first containing ``text``. Fails the
        test (the process is killed at the exit of its block) when that output ends or ``seconds``
        pass first."""
        lines = self.err if stderr else self.out
        deadline = time.monotonic() + seconds
        with self._changed:
            while True:
                for i, line in enumerate(lines):
                    if text in line:
                        return lines[:i + 1]
                ended = bool(lines) and lines[-1] == ""
                left = deadline - time.monotonic()
                if ended or left <= 0:
                    break
                self._changed.wait(left)
        pytest.fail(f"the process did not print {text!r} ({'it ended' if ended else f'{seconds:g} s'}):\n"
                    f"{self.stdout()}{self.stderr()}")

    def send(self, sig: int) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)

    def wait(self, seconds: float) -> int:
        """Its exit code, once it has ended and its output is read; fails the test after ``seconds``."""
        try:
            rc = self.proc.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            self.end()
            pytest.fail(f"the process did not end within {seconds:g} s:\n{self.stderr()}")
        for reader in self._readers:
            reader.join(10)
        return rc

    def stop(self, sig: int = signal.SIGTERM, seconds: float = 30) -> int:
        self.send(sig)
        return self.wait(seconds)

    def end(self) -> None:
        """Kill it if it is still running, and reap it."""
        if self.proc.poll() is None:
            self.proc.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=30)
        for reader in self._readers:
            reader.join(10)
        for pipe in (self.proc.stdout, self.proc.stderr):
            with contextlib.suppress(OSError):
                pipe.close()


@contextlib.contextmanager
def children(*argvs: list[str], **kwargs) -> Iterator[list[Child]]:
    """Several children at once, each killed at the exit of the block if still running."""
    with contextlib.ExitStack() as stack:
        yield [stack.enter_context(Child(argv, **kwargs)) for argv in argvs]


@contextlib.contextmanager
def offline_table(db_path: Path, *args: str, env: dict[str, str] | None = None,
                  until: str = "Stop with Ctrl+C") -> Iterator[tuple[Child, list[str]]]:
    """``python -m bot --offline`` on ``db_path`` (its own free port, no token), once it has printed a
    line containing ``until``: the process and what it printed so far. Killed at the exit of the
    block if it is still running (a failed test leaves no table behind)."""
    env = {**os.environ, "DATABASE_PATH": str(db_path), "DISCORD_TOKEN": "", "LOG_LEVEL": "WARNING",
           **(env or {})}
    with Child([sys.executable, "-m", "bot", "--offline", "--port", "0", *args], env=env) as child:
        lines = child.wait_for_line(until)
        yield child, lines
