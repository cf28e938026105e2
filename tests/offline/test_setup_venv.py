"""``./run.sh --offline`` starts without reinstalling (issue 36): scripts/setup-venv.sh installs once
per pyproject.toml, takes an install with the 'test' extra as holding the 'offline' one, and keeps
pip's pages of warnings to itself unless the install fails. Run on a copy of the project whose
.venv/bin/python is this test's Python, except that ``-m pip`` is recorded (and prints a warning)
instead of installing anything."""

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

FAKE_PYTHON = """#!/bin/sh
if [ "$1" = "-m" ] && [ "$2" = "pip" ]; then
  echo "$*" >> "{calls}"
  echo "WARNING: a page of pip's warnings" >&2
  exit "${{PIP_EXIT:-0}}"
fi
exec "{python}" "$@"
"""


def project(tmp_path: Path) -> tuple[Path, Path]:
    """A copy of the script and pyproject.toml, with the fake .venv; its folder and pip's call log."""
    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "scripts/setup-venv.sh", tmp_path / "scripts")
    shutil.copy(ROOT / "scripts/constraints.txt", tmp_path / "scripts")
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    calls = tmp_path / "pip-calls"
    python = tmp_path / ".venv/bin/python"
    python.parent.mkdir(parents=True)
    python.write_text(FAKE_PYTHON.format(calls=calls, python=sys.executable))
    python.chmod(python.stat().st_mode | stat.S_IEXEC)
    return tmp_path, calls


def setup(folder: Path, extras: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", str(folder / "scripts/setup-venv.sh"), extras], cwd=folder,
                          env={**os.environ, **env}, capture_output=True, text=True, timeout=120)


def pip_calls(calls: Path) -> list[str]:
    return calls.read_text().splitlines() if calls.exists() else []


def test_the_first_start_installs_once_quietly_and_the_next_starts_do_not(tmp_path):
    folder, calls = project(tmp_path)
    done = setup(folder, "offline")
    assert done.returncode == 0, done.stderr
    assert pip_calls(calls) == ["-m pip install --quiet --upgrade pip",
                                "-m pip install --quiet -c scripts/constraints.txt -e .[offline]"]
    assert "WARNING" not in done.stdout + done.stderr  # pip's pages stay in .venv/pip.log
    assert done.stdout + done.stderr == ("Installing the project and its 'offline' extra into .venv (once per "
                                         "change of pyproject.toml)...\n")
    for _ in range(2):
        again = setup(folder, "offline")
        assert (again.returncode, again.stdout, again.stderr) == (0, "", "")
    assert len(pip_calls(calls)) == 2


def test_an_install_for_the_tests_serves_the_offline_table(tmp_path):
    folder, calls = project(tmp_path)
    assert setup(folder, "test").returncode == 0
    assert len(pip_calls(calls)) == 2
    done = setup(folder, "offline")  # ./test.sh, then ./run.sh --offline
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    assert len(pip_calls(calls)) == 2


def test_a_changed_pyproject_installs_again(tmp_path):
    folder, calls = project(tmp_path)
    assert setup(folder, "offline").returncode == 0
    with open(folder / "pyproject.toml", "a") as f:
        f.write("\n# changed\n")
    assert setup(folder, "offline").returncode == 0
    assert len(pip_calls(calls)) == 4


def test_a_failed_install_shows_pip_and_fails(tmp_path):
    folder, calls = project(tmp_path)
    done = setup(folder, "offline", PIP_EXIT="1")
    assert done.returncode == 1
    assert "a page of pip's warnings" in done.stderr and "The install failed" in done.stderr
    done = setup(folder, "offline")  # nothing was stamped: the next start tries again
    assert done.returncode == 0 and len(pip_calls(calls)) == 3


def test_every_dependency_is_pinned_and_the_image_installs_from_the_same_pins():
    """Installs that repeat (issue 39): every package pyproject.toml names, of every extra, is pinned
    in scripts/constraints.txt (what setup-venv.sh installs from), and the image copies that file."""
    import re
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    named = [*project["dependencies"], *(d for deps in project["optional-dependencies"].values() for d in deps)]

    def key(name: str) -> str:
        return re.sub(r"[-_.]+", "-", name).lower()

    pins = {}
    for line in (ROOT / "scripts/constraints.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            name, _, version = line.partition("==")
            assert version, f"not pinned: {line}"
            pins[key(name)] = version
    for requirement in named:
        name = re.match(r"[A-Za-z0-9_.-]+", requirement).group(0)
        assert key(name) in pins, f"{name} is not pinned in scripts/constraints.txt"
    assert "scripts/constraints.txt" in (ROOT / "deploy/Dockerfile").read_text()
