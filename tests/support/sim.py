"""Helpers for end-to-end tests on simcord's simulated Discord."""

import discord

from bot.client import StorytellerBot


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


async def open_and_start(w, options="vote_seconds=60 rounds=2"):
    res = await w.host.slash(w.channel, "game new", kind="tally", options=options)
    assert not res.ephemeral
    lobby = res.response
    assert "gathering players" in lobby.embeds[0].title
    for member in (w.ann, w.bo):
        await member.click(lobby, label="Join")
    res = await w.ann.click(lobby, label="Start")
    assert res.ephemeral and "Only the host" in res.response.content
    await w.host.click(lobby, label="Start")
    await w.settle()
    return lobby
