"""Sign-ups with seats, for any game that seats its players in a circle (``Game.seats``): /in,
/out and /spectate. The sign-up sheet is edited in place (``Play.show_signups``); the service
decides who may sign up as what.
"""

from __future__ import annotations

from typing import Protocol

import discord
from discord import app_commands
from discord.ext import commands

from ..interactions import actor_of, answered, reply
from ..logs import bind
from ..play import Play
from ..service import GameService


class SeatsBot(Protocol):
    """What the sign-up commands use of the bot."""

    service: GameService
    play: Play  # show_signups


async def join_seat(bot: SeatsBot, interaction: discord.Interaction, seat: int | None, kind: str) -> None:
    """Sign up as ``kind`` ('player', 'traveller' or 'spectator'), in ``seat`` or the first free
    one, in the game of this channel or of the channel this thread is in."""
    row = await bot.service.game_here(interaction.channel_id, getattr(interaction.channel, "parent_id", None))
    bind(game_id=row.id)
    said = await bot.service.join(row.id, actor_of(interaction), seat=seat, kind=kind)
    if row.status == "lobby":
        await bot.play.show_signups(interaction, row.id, said)
    else:
        then = " A Storyteller chooses their character." if kind == "traveller" else ""
        await reply(interaction, f"🧳 {said}{then}", ephemeral=False)


class Seats(commands.Cog):
    def __init__(self, bot: SeatsBot) -> None:
        self.bot = bot

    @app_commands.command(name="in", description="Sign up to play, in a seat of your choice")
    @app_commands.describe(seat="The seat you want (leave it out for the first free one)")
    @app_commands.guild_only()
    @answered(public=True)
    async def sign_in(self, interaction: discord.Interaction, seat: app_commands.Range[int, 1, 30] | None = None):
        await join_seat(self.bot, interaction, seat, "player")

    @app_commands.command(name="spectate", description="Watch the game: listed as a spectator, no seat")
    @app_commands.guild_only()
    @answered(public=True)
    async def spectate(self, interaction: discord.Interaction) -> None:
        await join_seat(self.bot, interaction, None, "spectator")

    @app_commands.command(name="out", description="Take back your sign-up")
    @app_commands.guild_only()
    @answered(public=True)
    async def sign_out(self, interaction: discord.Interaction) -> None:
        row = await self.bot.service.game_here(interaction.channel_id,
                                               getattr(interaction.channel, "parent_id", None))
        bind(game_id=row.id)
        await self.bot.service.leave(row.id, actor_of(interaction))
        said = f"{interaction.user.display_name} is out."
        if row.status == "lobby":
            await self.bot.play.show_signups(interaction, row.id, said)
        else:
            await reply(interaction, said, ephemeral=False)
