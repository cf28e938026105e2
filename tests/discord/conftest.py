"""The real bot on simcord's simulated Discord, with a real SQLite file and a manual clock."""

import discord
import pytest

import games
from bot.client import StorytellerBot
from bot.clock import ManualClock
from bot.config import Settings


@pytest.fixture(autouse=True)
def tally_registered(monkeypatch):
    monkeypatch.setitem(games.GAMES, "tally", "support.tally:GAME")


@pytest.fixture
def clock():
    return ManualClock()


@pytest.fixture
def db_path(tmp_path):
    return tmp_path / "bot.db"


@pytest.fixture
def simcord_bot(db_path, clock):
    settings = Settings(_env_file=None, discord_token="offline", database_path=str(db_path), pause_scale=0)
    return StorytellerBot(settings, clock=clock, use_scheduler=False)


class World:
    def __init__(self, env):
        self.env = env
        self.guild = env.create_guild("Coven")
        self.channel = self.guild.create_text_channel("games")
        mods = self.guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
        self.admin = self.guild.add_member(env.create_user("admin"), roles=[mods])
        self.host = self.guild.add_member(env.create_user("host"))
        self.ann = self.guild.add_member(env.create_user("ann"))
        self.bo = self.guild.add_member(env.create_user("bo"))

    @property
    def bot(self) -> StorytellerBot:
        return self.env.bot

    async def settle(self):
        await self.bot.delivery.wait_idle()
        await self.env.settle()

    def channel_texts(self):
        out = []
        for m in self.channel.history():
            out.append(m.content + " " + " ".join((e.title or "") + " " + (e.description or "") for e in m.embeds))
        return out

    def dm_texts(self, member):
        return [" ".join((e.description or "") for e in m.embeds) + m.content
                for m in member.user.dm_channel.history()] if hasattr(member, "user") else []


@pytest.fixture
async def world(simcord_env):
    return World(simcord_env)
