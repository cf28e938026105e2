"""Moderator commands for every game: host, storyteller role, or Manage Server; and a member's
"Remove from game" menu, which is /mod remove on that member."""

from __future__ import annotations

from typing import Any, Protocol

import discord
from discord import app_commands
from discord.ext import commands

from games.engine import MAX_REASON, GameError

from ..delivery import paused_ends, schedule_of
from ..interactions import actor_of, answered, reply
from ..logs import bind
from ..render import duration, relative_time
from ..service import GameService, NeedsConfirmation, TimerChange
from ..views import removal_view
from .menus import add_user_menu, member_here, remove_menu


def deadlines(ends: list, deadline: float) -> str:
    """"Night actions lock <t:..> · Dawn comes <t:..>": a game's deadlines (``board_ends``) from
    the current phase's deadline."""
    return " · ".join(f"{name} {relative_time(deadline + after)}" for name, after in ends)


def timer_text(change: TimerChange, ends: list | None = None) -> str:
    """Where the phase's timer stands, in a sentence that names the phase (with ``ends``, the
    deadlines a player cares about instead of the phase's own)."""
    phase = change.phase[0].upper() + change.phase[1:]
    if change.paused:
        if change.remaining is None:
            return f"{phase} has no timer."
        if ends:
            return paused_ends(change.remaining, ends)
        return f"{phase} will have {duration(change.remaining)} left when the game resumes."
    if change.waiting is not None:
        return (f"{phase}, coming next, will have {duration(change.waiting)} from when its message is "
                "posted.")
    if change.deadline is None:
        return f"{phase} has no timer."
    if ends:
        return f"{deadlines(ends, change.deadline)}."
    return f"{phase} closes {relative_time(change.deadline)}."


PAUSED = ("⏸️ The game is paused: its timer stops, and choices and votes are refused until a moderator "
          "resumes it with `/mod resume`.")


class ModerationBot(Protocol):
    """What the moderator commands use of the bot."""

    service: GameService

    @property
    def tree(self) -> app_commands.CommandTree[Any]: ...


class Moderation(commands.Cog):
    mod = app_commands.Group(name="mod", description="Moderate the game in this channel", guild_only=True)

    def __init__(self, bot: ModerationBot) -> None:
        self.bot = bot
        self._menus: list[app_commands.ContextMenu] = []

    async def cog_load(self) -> None:
        self._menus = [add_user_menu(self.bot.tree, "Remove from game", self.remove_from_game)]

    async def cog_unload(self) -> None:
        for menu in self._menus:
            remove_menu(self.bot.tree, menu)

    async def _game_id(self, interaction: discord.Interaction) -> int:
        game_id = (await self.bot.service.game_in_channel(interaction.channel_id)).id
        bind(game_id=game_id)
        return game_id

    async def _ends(self, game_id: int) -> list:
        """The deadlines the game names now (``board_ends``; none for most games)."""
        try:
            table = await self.bot.service.load(game_id)
        except GameError:  # no table yet (sign-ups): the command answers for itself
            return []
        return schedule_of(table.game, table.state).ends

    async def _skipped(self, game_id: int, label: str, before: list) -> str:
        """What a skip closed and what comes next, for a game that names its deadlines: "A
        moderator skipped ahead: night actions lock now; Dawn comes <t:..>". Otherwise the phase."""
        if not before:
            return f"⏭️ A moderator closed {label}."
        row = await self.bot.service.row(game_id)
        name, after = before[0]
        closed = f"{name[0].lower()}{name[1:]} now" if after == 0 else ""
        ends = await self._ends(game_id) if row is not None and row.status == "running" else []
        coming = deadlines(ends, row.deadline) if ends and row is not None and row.deadline and not row.paused else ""
        coming = coming[:1].lower() + coming[1:]
        return "⏭️ A moderator skipped ahead: " + ("; ".join(p for p in (closed, coming) if p) or "done") + "."

    async def _announce(self, interaction: discord.Interaction, text: str) -> None:
        await reply(interaction, text, ephemeral=False)

    # The timer commands tell the table through the game's own message queue, so the notice comes
    # after whatever the table is still being shown (a reveal in beats); the moderator gets it now.
    @mod.command(name="pause", description="Freeze the game's timer")
    @answered()
    async def pause(self, interaction: discord.Interaction) -> None:
        await self.bot.service.pause(await self._game_id(interaction), actor_of(interaction),
                                     notice=lambda change: PAUSED)
        await reply(interaction, f"Done. The table is told: {PAUSED}")

    @mod.command(name="resume", description="Unfreeze the game's timer")
    @answered()
    async def resume(self, interaction: discord.Interaction) -> None:
        game_id = await self._game_id(interaction)
        ends = await self._ends(game_id)
        change = await self.bot.service.resume(game_id, actor_of(interaction),
                                               notice=lambda change: f"▶️ The game resumes. "
                                                                     f"{timer_text(change, ends)}")
        await reply(interaction, f"Done. ▶️ The game resumes. {timer_text(change, ends)}")
        await self.bot.service.close_if_due(game_id)  # nothing was left: the phase closes now

    @mod.command(name="extend", description="Give the current phase more time")
    @app_commands.describe(seconds="How many seconds to add")
    @answered()
    async def extend(self, interaction: discord.Interaction, seconds: app_commands.Range[int, 1, 604800]) -> None:
        game_id = await self._game_id(interaction)
        ends = await self._ends(game_id)
        change = await self.bot.service.extend(game_id, actor_of(interaction), seconds,
                                               notice=lambda change: f"⏳ {timer_text(change, ends)}")
        await reply(interaction, f"Done. ⏳ {timer_text(change, ends)}")

    @mod.command(name="shorten", description="Take time off the current phase")
    @app_commands.describe(seconds="How many seconds to take off")
    @answered()
    async def shorten(self, interaction: discord.Interaction, seconds: app_commands.Range[int, 1, 604800]) -> None:
        game_id = await self._game_id(interaction)
        ends = await self._ends(game_id)
        change = await self.bot.service.extend(game_id, actor_of(interaction), -seconds,
                                               notice=lambda change: f"⏳ {timer_text(change, ends)}")
        await reply(interaction, f"Done. ⏳ {timer_text(change, ends)}")
        await self.bot.service.close_if_due(game_id)

    @mod.command(name="skip", description="Close the current phase now, as if its timer ran out")
    @answered(public=True)
    async def skip(self, interaction: discord.Interaction) -> None:
        game_id = await self._game_id(interaction)
        meant = await self.bot.service.phase_seq(game_id)  # the phase showing as the command arrived
        before = await self._ends(game_id)
        label = await self.bot.service.skip(game_id, actor_of(interaction), meant)
        await self._announce(interaction, await self._skipped(game_id, label, before))

    @mod.command(name="skip-turn", description="End the current speaking turn now: the next speaker has the floor")
    @answered(public=True)
    async def skip_turn(self, interaction: discord.Interaction) -> None:
        game_id = await self._game_id(interaction)
        name = await self.bot.service.skip_turn(game_id, actor_of(interaction))
        await self._announce(interaction, f"⏭️ A moderator ended {name}'s speaking turn.")

    @mod.command(name="remove", description="Remove an absent player, as the game's rules allow")
    @answered()
    async def remove(self, interaction: discord.Interaction, player: discord.Member) -> None:
        await self._remove(interaction, player)

    @answered()
    async def remove_from_game(self, interaction: discord.Interaction, member: discord.Member | discord.User) -> None:
        """A member's menu, "Remove from game": ``/mod remove player:`` that member, the same work."""
        await self._remove(interaction, member_here(interaction, member))

    async def _remove(self, interaction: discord.Interaction, player: discord.Member) -> None:
        game_id = await self._game_id(interaction)
        try:
            outcome = await self.bot.service.remove(game_id, actor_of(interaction), player.id)
        except NeedsConfirmation as exc:
            await reply(interaction, f"{player.display_name}: {exc}", view=removal_view(game_id, player.id))
            return
        await reply(interaction, outcome.reply or f"{player.display_name} was removed.")

    @mod.command(name="grimoire", description="Every secret of the game, privately (moderators who are not playing)")
    @answered()
    async def grimoire(self, interaction: discord.Interaction) -> None:
        view = await self.bot.service.grimoire(await self._game_id(interaction), actor_of(interaction))
        await reply(interaction, view.text)

    @mod.command(name="end", description="End the game now: no winner, everything revealed")
    @app_commands.describe(reason=f"Why (at most {MAX_REASON} characters)")
    @answered()
    async def end(self, interaction: discord.Interaction, reason: str | None = None) -> None:
        await self.bot.service.end(await self._game_id(interaction), actor_of(interaction), reason or "")
        await reply(interaction, "The game was ended.")
