"""Slash commands are synced on demand (``python -m bot sync``) or by one process (SYNC_COMMANDS),
not by every start of every process."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
import simcord
from support.sim import bot_settings

from bot.__main__ import commands_only
from bot.client import StorytellerBot, syncs_at_start
from bot.clock import ManualClock
from bot.config import Settings

ROOT = Path(__file__).resolve().parents[2]


def test_sync_at_start_is_off_by_default_and_then_only_for_shard_zero():
    assert not syncs_at_start(Settings(_env_file=None))
    assert syncs_at_start(Settings(_env_file=None, sync_commands=True))
    assert syncs_at_start(Settings(_env_file=None, sync_commands=True, shard_count=4, shard_ids="0,1"))
    assert not syncs_at_start(Settings(_env_file=None, sync_commands=True, shard_count=4, shard_ids="2,3"))


def names(env, scope):
    return sorted(name for name, _type in env.backend.commands.get(scope, {}))


async def test_a_start_with_sync_off_sends_no_commands(tmp_path):
    bot = StorytellerBot(bot_settings(tmp_path / "bot.db", sync_commands=False), clock=ManualClock(),
                         use_scheduler=False)
    env = simcord.Env(bot, shard_count=1)
    await env.start()
    try:
        assert env.backend.commands == {} or all(not c for c in env.backend.commands.values())
        assert bot.tree.get_command("game") is not None  # the tree is built, only not sent
    finally:
        await env.shutdown()
        await bot.close()


async def test_sync_sends_the_commands_to_one_server_or_globally(tmp_path):
    bot = commands_only(bot_settings(tmp_path / "bot.db"))
    env = simcord.Env(bot, shard_count=1)
    guild = env.create_guild("Coven")
    await env.start()
    try:
        assert not hasattr(bot, "store")  # no database opened for a sync
        synced = await bot.sync_tree(guild.id)
        assert "game" in {c.name for c in synced}
        assert names(env, guild.id) == sorted(c.name for c in synced)
        assert names(env, None) == []
        await bot.sync_tree()
        assert "game" in names(env, None)
        # a member can use what was synced (simcord invokes only synced commands)
        member = guild.add_member(env.create_user("ann"))
        result = await member.slash(guild.create_text_channel("games"), "game list")
        assert result is not None
    finally:
        await env.shutdown()
        await bot.close()


@pytest.mark.slow
def test_sync_with_no_token_says_what_to_do(tmp_path):
    env = {**os.environ, "DISCORD_TOKEN": "", "DATABASE_PATH": str(tmp_path / "x.db")}
    done = subprocess.run([sys.executable, "-m", "bot", "sync"], cwd=tmp_path, env=env | {"PYTHONPATH": str(ROOT)},
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "DISCORD_TOKEN" in done.stderr and "Traceback" not in done.stderr
