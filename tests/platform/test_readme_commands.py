"""Every command the README and its docs pages show exists and does what they say: each is read from
the pages themselves (fenced shell blocks, the indented blocks and the inline commands of the README's
Quickstart and of docs/discord.md, and every inline ``python -m bot ...``), so a page that names a
command the project lacks fails here. A command
that needs Discord, a server or a long run is on a short allow-list, with the reason, and only its
``--help`` is run."""

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()
#: the pages the README sends a reader on to
DOCS = {path.name: path.read_text() for path in sorted((ROOT / "docs").glob("*.md"))}
PAGES = "\n".join([README, *DOCS.values()])
#: a token of the right shape (the invite reads the application id from it; Discord never sees it)
FAKE_TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.Gabcde.abcdefghijklmnopqrstuvwxyz0123456789ab"

#: commands run as their --help only: (why not run here, the probe run instead)
ALLOWED = {
    "./test.sh": ("it runs the whole suite, this test included", None),
    "source .venv/bin/activate": ("a shell builtin on the .venv that scripts/setup-venv.sh makes", None),
    "docker compose": ("needs a Docker engine; tests/platform/test_deploy.py checks deploy/", None),
    "python -m bot sync": ("logs in to Discord with a real token", "python -m bot sync --help"),
    "python -m bot --offline": ("serves the table until stopped; tests/offline/test_sigterm.py runs it",
                                "python -m bot --help"),
    "python -m bot migrate-db": ("needs a PostgreSQL server at the README's example address; "
                                 "tests/platform/test_migrate.py copies for real", "python -m bot migrate-db --help"),
    "python -m games replay script.json": ("needs a replay script of your own", "python -m games replay --help"),
}
#: what a command says and how it exits, where that is not "exit 0 with no traceback"
EXPECTED = {
    # README: "With no token, ./run.sh tells you how to get one, and how to play offline instead"
    "python -m bot": (2, ["DISCORD_TOKEN", "python -m bot invite", "python -m bot sync", "--offline",
                          "source .venv/bin/activate"]),
}
#: numbers the README leaves to the reader, and a long run cut short
PLACEHOLDERS = {" ID": " 123456789012345678", "--games 1000": "--games 20"}


def section(title: str, text: str = README) -> str:
    start = text.index(title)
    following = re.search(r"^#{2,3} ", text[start + len(title):], re.M)
    return text[start:start + len(title) + following.start()] if following else text[start:]


def commands_in_readme() -> list[str]:
    """Shell commands from the fenced blocks, and those of the setting-up sections."""
    found = []
    for block in re.findall(r"^ *```(?:bash|sh|shell|console)\n(.*?)^ *```", PAGES, re.S | re.M):
        found += block.splitlines()
    for text in (section("## Quickstart"), DOCS["discord.md"]):
        found += re.findall(r"^ {4,}(\S.*)$", text, re.M)  # indented code in a list item
        found += [span for span in re.findall(r"`([^`\n]+)`", text)
                  if re.match(r"(\./|python -m |\.venv/bin/python |cp |source )", span)]
    found += [span for span in re.findall(r"`([^`\n]+)`", PAGES) if span.startswith("python -m bot")]
    commands = []
    for line in found:
        line = line.split(" #")[0].strip()
        if line and line not in commands:
            commands.append(line)
    return commands


def normal(command: str) -> str:
    """What the command runs: ``./run.sh ARGS`` is ``python -m bot ARGS`` (run.sh's last line)."""
    if command.startswith("./run.sh"):
        command = "python -m bot" + command.removeprefix("./run.sh")
    command = command.replace(".venv/bin/python ", "python ")
    for placeholder, value in PLACEHOLDERS.items():
        command = command.replace(placeholder, value)
    return command


def allowed(command: str):
    for prefix, entry in ALLOWED.items():
        if command == prefix or command.startswith(prefix + " "):
            return entry
    return None


def run(command: str, cwd: Path, token: str = FAKE_TOKEN) -> subprocess.CompletedProcess:
    words = shlex.split(command)
    if words[0] == "python":
        words[0] = sys.executable
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DISCORD_TOKEN": token, "DATABASE_URL": "",
           "DATABASE_PATH": str(cwd / "data" / "storyteller.db")}
    return subprocess.run(words, cwd=cwd, env=env, capture_output=True, text=True, timeout=120)


COMMANDS = commands_in_readme()


def test_the_readme_is_read():
    """The parser finds the commands a reader sees (so a broken parser cannot pass everything)."""
    for expected in ("./run.sh", "./run.sh --offline", "python -m bot invite --client-id ID",
                     "python -m bot sync --guild ID", "cp .env.example .env"):
        assert expected in COMMANDS, expected


def test_run_sh_runs_python_m_bot_with_its_arguments():
    assert (ROOT / "run.sh").read_text().rstrip().splitlines()[-1] == 'exec .venv/bin/python -m bot "$@"'


@pytest.mark.slow
@pytest.mark.parametrize("command", COMMANDS)
def test_each_readme_command_exists_and_does_what_it_says(command, tmp_path):
    shutil_copy_env_example(tmp_path)
    target = normal(command)
    entry = allowed(target) or allowed(command)
    if entry is not None:
        _reason, probe = entry
        if probe is None:
            return
        done = run(probe, tmp_path)
        assert done.returncode == 0, f"{probe!r} (for the README's {command!r}):\n{done.stderr}"
        return
    if target.startswith("cp "):
        done = subprocess.run(shlex.split(target), cwd=tmp_path, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        return
    assert target.startswith("python -m "), f"the README shows {command!r}: run it here, or allow-list it"
    token = "" if target in EXPECTED else FAKE_TOKEN
    done = run(target, tmp_path, token=token)
    code, says = EXPECTED.get(target, (0, []))
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == code, f"{command!r} exited {done.returncode}:\n{done.stderr}"
    for words in says:
        assert words in done.stdout + done.stderr, words


def shutil_copy_env_example(tmp_path: Path) -> None:
    """The files a fresh clone has where its commands run (``cp .env.example .env`` needs one)."""
    (tmp_path / ".env.example").write_text((ROOT / ".env.example").read_text())


def test_the_readme_is_short_and_sends_the_reader_to_every_docs_page():
    assert len(README.splitlines()) <= 100  # what it is, the two commands, how to play, where to read on
    for name in DOCS:
        assert f"](docs/{name})" in README, name


def test_every_relative_link_of_the_readme_and_the_docs_lands_on_a_file_and_heading():
    pages = {ROOT / "README.md": README, **{ROOT / "docs" / name: text for name, text in DOCS.items()}}
    for page, text in pages.items():
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target):
                continue  # an address on the web
            path, _, anchor = target.partition("#")
            file = (page.parent / path).resolve() if path else page
            assert file.exists(), f"{page.name} links to {target}"
            if anchor and file.suffix == ".md":
                headings = {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-")
                            for h in re.findall(r"^#+ (.+)$", file.read_text(), re.M)}
                assert anchor in headings, f"{page.name} links to {target}: no such heading"
