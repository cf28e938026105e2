"""The deployment in ``deploy/``: no Docker engine runs here, so each file is exercised without one.
The image's build is replayed (its COPY lines into a folder, which must then hold a bot that starts
and migrates a database), its install step must be the project's own setup script with an extra
that exists, and the compose file's settings must be settings the bot accepts and that fit together
(shards, database, health port, stop grace)."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from urllib.parse import urlparse

import pytest
import yaml

from bot.config import Settings
from games.engine import fonts

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"


def instructions(dockerfile: Path) -> list[tuple[str, str]]:
    """The Dockerfile's instructions as (INSTRUCTION, arguments), continuation lines joined."""
    lines, current = [], ""
    for raw in dockerfile.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.endswith("\\"):
            current += line[:-1] + " "
            continue
        lines.append(current + line)
        current = ""
    return [(line.split(None, 1)[0].upper(), line.split(None, 1)[1]) for line in lines]


def compose() -> dict:
    return yaml.safe_load((DEPLOY / "compose.yaml").read_text())


def bots(spec: dict) -> dict[str, dict]:
    return {name: service for name, service in spec["services"].items() if name.startswith("bot")}


def settings_of(environment: dict) -> Settings:
    """The bot's settings from a service's environment, as the bot reads them (no .env file)."""
    return Settings(_env_file=None, **{key.lower(): value for key, value in environment.items()})


def replay_copies(target: Path) -> None:
    """Do the image's COPY lines into ``target`` (its WORKDIR)."""
    for name, args in instructions(DEPLOY / "Dockerfile"):
        if name != "COPY":
            continue
        *sources, dest = shlex.split(args)
        for source in sources:
            src = ROOT / source.rstrip("/")
            where = target / dest.rstrip("/") if dest not in ("./", ".") else target
            if src.is_dir():
                shutil.copytree(src, where if source.endswith("/") else where / src.name,
                                ignore=shutil.ignore_patterns("__pycache__"), dirs_exist_ok=True)
            else:
                dest_path = where / src.name if dest.endswith("/") or dest in ("./", ".") else where
                dest_path.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(src, dest_path)


@pytest.mark.slow
def test_the_image_installs_with_the_projects_own_setup_script_and_an_extra_that_exists():
    steps = instructions(DEPLOY / "Dockerfile")
    runs = [args for name, args in steps if name == "RUN"]
    setup = [run for run in runs if "scripts/setup-venv.sh" in run]
    assert len(setup) == 1, "the image must be built by scripts/setup-venv.sh, once"
    extra = shlex.split(setup[0].split("scripts/setup-venv.sh", 1)[1])[0]
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert extra in extras
    # the compose file runs the bots on PostgreSQL: the image's extra must carry its driver
    assert any(dep.startswith("asyncpg") for dep in extras[extra])
    assert subprocess.run(["bash", "-n", str(ROOT / "scripts/setup-venv.sh")], timeout=60).returncode == 0
    cmd = [args for name, args in steps if name == "CMD"]
    assert cmd and yaml.safe_load(cmd[-1]) == ["python", "-m", "bot"]
    assert ("STOPSIGNAL", "SIGTERM") in steps


@pytest.mark.slow
def test_the_image_installs_the_colour_emoji_font_where_the_pictures_look_for_it():
    """Debian's fonts-noto-color-emoji, from a Debian base, before the setup script, apt lists cleaned."""
    steps = instructions(DEPLOY / "Dockerfile")
    (base,) = [args for name, args in steps if name == "FROM"]
    assert base.startswith("python:") and "alpine" not in base, "the font's package and path are Debian's"
    runs = [args for name, args in steps if name == "RUN"]
    (font,) = [run for run in runs if "fonts-noto-color-emoji" in run]
    commands = [shlex.split(part) for part in font.split("&&")]
    assert ["apt-get", "update"] in commands
    install = next(c for c in commands if c[:2] == ["apt-get", "install"])
    assert {"-y", "--no-install-recommends", "fonts-noto-color-emoji"} <= set(install)
    assert commands.index(install) > commands.index(["apt-get", "update"])
    assert ["rm", "-rf", "/var/lib/apt/lists/*"] in commands[commands.index(install):]
    assert runs.index(font) < next(k for k, run in enumerate(runs) if "scripts/setup-venv.sh" in run)
    debian = "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"
    assert debian in fonts.COLOUR_EMOJI_PATHS
    listed = subprocess.run(["dpkg", "-L", "fonts-noto-color-emoji"], capture_output=True, text=True, timeout=60) \
        if shutil.which("dpkg") else None
    if listed is not None and listed.returncode == 0:  # installed here (as .ci/run does): the same path
        assert debian in listed.stdout.split()


@pytest.mark.slow
def test_what_the_image_copies_is_a_bot_that_starts_and_migrates(tmp_path):
    app = tmp_path / "app"
    replay_copies(app)
    assert (app / "scripts/setup-venv.sh").exists()
    fresh = tmp_path / "fresh.db"
    script = (
        "import asyncio, bot.client, bot.store\n"
        "from bot.stores import open_store\n"
        f"assert bot.store.MIGRATIONS.is_dir() and str(bot.store.MIGRATIONS).startswith({str(app)!r})\n"
        "async def main():\n"
        f"    store = await open_store({str(fresh)!r})\n"
        "    await store.close()\n"
        "asyncio.run(main())\n"
    )
    env = {**os.environ, "PYTHONPATH": str(app)}
    done = subprocess.run([sys.executable, "-c", script], cwd=app, env=env, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert fresh.stat().st_size > 0
    # with no token the image's command says what to do, in words
    done = subprocess.run([sys.executable, "-m", "bot"], cwd=app, capture_output=True, text=True, timeout=60,
                          env={**env, "DISCORD_TOKEN": ""})
    assert done.returncode == 2 and "DISCORD_TOKEN" in done.stderr


def test_the_compose_bots_settings_are_the_bots_and_split_the_shards_between_them():
    spec = compose()
    processes = bots(spec)
    assert len(processes) == 2
    counts, owned = set(), []
    for service in processes.values():
        assert service["build"] == {"context": "..", "dockerfile": "deploy/Dockerfile"}
        assert (DEPLOY / ".." / service["build"]["dockerfile"]).resolve() == DEPLOY / "Dockerfile"
        fields = set(Settings.model_fields)
        unknown = {key for key in service["environment"] if key.lower() not in fields}
        assert not unknown, f"settings the bot does not know: {unknown}"
        settings = settings_of(service["environment"])
        counts.add(settings.shard_count)
        owned.append(set(settings.shard_id_list or ()))
    (count,) = counts
    assert sorted(i for ids in owned for i in ids) == list(range(count)), "every shard run exactly once"


def test_the_compose_bots_reach_the_compose_postgres():
    spec = compose()
    database = spec["services"]["postgres"]
    env = database["environment"]
    for service in bots(spec).values():
        url = urlparse(settings_of(service["environment"]).database_url)
        assert url.scheme == "postgresql"
        assert (url.hostname, url.username, url.password, url.path.lstrip("/")) == (
            "postgres", env["POSTGRES_USER"], env["POSTGRES_PASSWORD"], env["POSTGRES_DB"])
        assert service["depends_on"]["postgres"]["condition"] == "service_healthy"
    assert "healthcheck" in database and "volumes" in database


def test_the_compose_health_checks_ask_the_bots_own_port_and_a_stop_waits_for_its_sends():
    for service in bots(compose()).values():
        settings = settings_of(service["environment"])
        assert settings.health_port, "a health check needs the health endpoint on"
        probe = " ".join(service["healthcheck"]["test"])
        assert f"127.0.0.1:{settings.health_port}/healthz" in probe
        for mapping in service.get("ports", []):
            assert mapping.rsplit(":", 1)[1] == str(settings.health_port)
            assert settings.health_host == "0.0.0.0", "a published port needs the endpoint on every address"
        grace = float(service["stop_grace_period"].rstrip("s"))
        assert grace > settings.stop_grace_seconds


@pytest.mark.parametrize("path", ["Dockerfile", "compose.yaml"])
def test_every_file_of_deploy_is_exercised_here(path):
    """A new file in deploy/ needs a test of its own (and its name here)."""
    assert sorted(p.name for p in DEPLOY.iterdir() if p.is_file()) == ["Dockerfile", "compose.yaml"]
    assert (DEPLOY / path).read_text().strip()
