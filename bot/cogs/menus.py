"""Right-click a member ("Apps" in the member's menu): the user context menus. Each one lives in the
cog of the slash command it stands for and calls that command's own work, so it answers exactly
as the command does; this module holds what they share: the menu on the bot's tree, and the
refusal of a member of another server (or one who left this one).
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

import discord
from discord import app_commands

from games.engine import GameError

#: a user menu's work: the member right-clicked comes as a bare user when not (or no longer) in the server
MenuCallback = Callable[[discord.Interaction[Any], discord.Member | discord.User], Coroutine[Any, Any, None]]


class NotHere(GameError):
    """The member right-clicked is not a member of this server."""

    code = "not_here"


def member_here(interaction: discord.Interaction, member: discord.Member | discord.User) -> discord.Member:
    """The member right-clicked, when they belong to this server; refused in words otherwise (a
    user who left, or one seen elsewhere, comes as a bare user with no server)."""
    if not isinstance(member, discord.Member) or member.guild.id != interaction.guild_id:
        raise NotHere(f"{member.display_name} is not a member of this server, so they are in no game here.")
    return member


def add_user_menu(tree: app_commands.CommandTree, name: str, callback: MenuCallback) -> app_commands.ContextMenu:
    """A member's menu entry named ``name``, on servers only, added to ``tree``."""
    menu = app_commands.ContextMenu(name=name, callback=callback, type=discord.AppCommandType.user)
    menu.guild_only = True
    tree.add_command(menu)
    return menu


def remove_menu(tree: app_commands.CommandTree, menu: app_commands.ContextMenu) -> None:
    tree.remove_command(menu.name, type=menu.type)
