"""``python -m bot invite``: the invite asks for what the code checks, from one table."""

import ast
import base64
import functools
import operator
import os
import subprocess
import sys
from pathlib import Path

import discord
import pytest

from bot import play
from bot.permissions import BY_FLAG, TABLE, VOICE, BadToken, client_id_of, invite_url, permissions_value
from bot.voice import mutes

ROOT = Path(__file__).resolve().parents[2]
FLAGS = set(discord.Permissions.VALID_FLAGS)


def test_the_integer_is_the_or_of_the_tables_flags():
    every = functools.reduce(operator.or_, (getattr(discord.Permissions, p.flag).flag for p in TABLE))
    assert permissions_value() == every
    no_voice = functools.reduce(operator.or_, (getattr(discord.Permissions, p.flag).flag for p in TABLE
                                               if p.when != VOICE))
    assert permissions_value(voice=False) == no_voice
    granted = discord.Permissions(permissions_value())
    assert granted.manage_roles and granted.manage_threads and granted.create_public_threads
    assert not discord.Permissions(no_voice).mute_members


def test_every_flag_in_the_table_is_discords():
    assert {p.flag for p in TABLE} <= FLAGS
    assert len({p.flag for p in TABLE}) == len(TABLE)


@pytest.mark.parametrize("checked", [play.TOWN_PERMISSIONS, play.THREAD_PERMISSIONS, mutes.MUTE_PERMISSIONS,
                                     mutes.SPEAK_PERMISSIONS])
def test_what_the_checks_name_is_in_the_table(checked):
    for flag, words in checked.items():
        assert flag in BY_FLAG, f"{flag} is checked but the invite does not ask for it"
        assert BY_FLAG[flag].name == words


@pytest.mark.parametrize("path", ["bot/play.py", "bot/voice/mutes.py", "bot/voice/narrator.py"])
def test_no_permission_is_checked_outside_the_table(path):
    """Any permission flag the module names (a string or an attribute such as ``perms.speak``) is
    one of the table's: a check added without the table fails here."""
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    named = {node.value for node in ast.walk(tree) if isinstance(node, ast.Constant) and node.value in FLAGS}
    named |= {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute) and node.attr in FLAGS
              and node.attr not in {"value"}}
    # the voice link's own calls (``speak`` is also the narrator's verb) are not permission checks
    assert named - {"speak"} <= set(BY_FLAG), named - set(BY_FLAG)


def test_the_client_id_is_read_from_a_token():
    token = base64.b64encode(b"123456789012345678").decode().rstrip("=") + ".GhIjKl.abcdef"
    assert client_id_of(token) == 123456789012345678
    with pytest.raises(BadToken):
        client_id_of("not-a-token")
    assert invite_url(42).startswith("https://discord.com/oauth2/authorize?client_id=42&scope=bot+applications.commands"
                                     "&permissions=")


def invite(*args, token=""):
    env = {**os.environ, "DISCORD_TOKEN": token, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "bot", "invite", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)


@pytest.mark.slow
def test_the_command_prints_the_url_and_what_each_permission_is_for():
    done = invite("--client-id", "1234")
    assert done.returncode == 0, done.stderr
    url = (f"https://discord.com/oauth2/authorize?client_id=1234&scope=bot+applications.commands"
           f"&permissions={permissions_value()}")
    assert url in done.stdout
    for p in TABLE:
        assert p.name in done.stdout and p.why in done.stdout
    quiet = invite("--client-id", "1234", "--no-voice")
    assert f"permissions={permissions_value(voice=False)}" in quiet.stdout
    assert "Mute Members" not in quiet.stdout.split("integer")[1].split("(no voice")[0]


@pytest.mark.slow
def test_the_command_reads_the_id_from_the_token():
    token = base64.b64encode(b"987654321").decode().rstrip("=") + ".x.y"
    done = invite(token=token)
    assert done.returncode == 0, done.stderr
    assert "client_id=987654321&" in done.stdout


@pytest.mark.slow
def test_a_bad_token_is_answered_in_a_sentence():
    done = invite(token="definitely not a token")
    assert done.returncode == 2
    assert "does not look like a bot token" in done.stderr and "--client-id" in done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""


@pytest.mark.slow
def test_no_token_and_no_id_says_what_to_pass():
    done = invite()
    assert done.returncode == 2
    assert "--client-id" in done.stderr and "DISCORD_TOKEN" in done.stderr
    assert "Traceback" not in done.stderr
