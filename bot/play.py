"""What a click or a command does: turns an interaction into a service call and answers it.

Every entry point is guarded: a game error becomes an ephemeral sentence, anything unexpected is
logged with the game id and the player gets a short apology, never a traceback.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

import games
from games.engine import NO_ONE, GameError, Prompt

from .render import chunks, relative_time
from .service import Actor, GameService, LobbyError, NotAllowed
from .views import lobby_view, prompts_view

if TYPE_CHECKING:
    from .client import StorytellerBot

log = logging.getLogger(__name__)

APOLOGY = "Sorry, something went wrong on my side. The game goes on; try again in a moment."


def actor_of(interaction: discord.Interaction) -> Actor:
    user = interaction.user
    perms = getattr(user, "guild_permissions", None)
    roles = frozenset(r.id for r in getattr(user, "roles", []))
    return Actor(id=user.id, name=user.display_name, manage_guild=bool(perms and perms.manage_guild),
                 role_ids=roles)


async def reply(interaction: discord.Interaction, content: str | None = None, *,
                ephemeral: bool = True, **kwargs: Any) -> None:
    """Answer an interaction. A text over Discord's 2,000 characters goes as several messages, the
    embeds and components (``kwargs``) with the last one, so nothing is cut off."""
    parts: list[str | None] = list(chunks(content, 2000)) if content is not None else [None]
    for index, part in enumerate(parts):
        extra = kwargs if index == len(parts) - 1 else {}
        if interaction.response.is_done():
            await interaction.followup.send(part, ephemeral=ephemeral, **extra)
        else:
            await interaction.response.send_message(part, ephemeral=ephemeral, **extra)


async def guarded(interaction: discord.Interaction, game_id: int | None,
                  work: Callable[[], Awaitable[None]]) -> None:
    try:
        await work()
    except GameError as exc:
        await reply(interaction, str(exc))
    except Exception:
        log.exception("unexpected error (game %s, channel %s, user %s)", game_id, interaction.channel_id,
                      interaction.user.id)
        with contextlib.suppress(discord.HTTPException):
            await reply(interaction, APOLOGY)


class Play:
    def __init__(self, bot: StorytellerBot) -> None:
        self.bot = bot
        #: selections of multi-field prompts waiting for their submit button (game, user, seq, action)
        self.partial: dict[tuple[int, int, int, str], dict[str, Any]] = {}

    @property
    def service(self) -> GameService:
        return self.bot.service

    # ----- lobby -----
    async def lobby_embed(self, game_id: int) -> discord.Embed:
        row = await self.bot.store.game(game_id)
        game = games.get(row.kind)
        players = await self.bot.store.lobby_players(game_id)
        names = "\n".join(f"• {name}" for _, name in players) or "nobody yet"
        embed = discord.Embed(
            title=f"{game.title}: gathering players",
            description=(f"Host: <@{row.host_id}>\nPlayers {len(players)} "
                         f"(needs {row.min_players}-{row.max_players}):\n{names}"),
            colour=discord.Colour.dark_purple())
        if row.options:
            embed.add_field(name="Options", value=" ".join(f"`{k}={v}`" for k, v in row.options.items())[:1024])
        embed.set_footer(text=f"game #{game_id} · /game join or the buttons below")
        return embed

    async def on_table_button(self, interaction: discord.Interaction, game_id: int, what: str) -> None:
        async def work() -> None:
            if what in ("choose", "hand"):
                await self.show_private(interaction, game_id, with_view=(what == "hand"))
                return
            actor = actor_of(interaction)
            if what == "join":
                await self.service.join(game_id, actor)
            elif what == "leave":
                await self.service.leave(game_id, actor)
            elif what == "start":
                await self.service.start(game_id, actor)
                await interaction.response.edit_message(
                    embed=discord.Embed(title="The game has begun.", description="Good luck.",
                                        colour=discord.Colour.dark_purple()), view=None)
                return
            await interaction.response.edit_message(embed=await self.lobby_embed(game_id),
                                                    view=lobby_view(game_id))
        await guarded(interaction, game_id, work)

    # ----- private views and choices -----
    async def show_private(self, interaction: discord.Interaction, game_id: int, *, with_view: bool) -> None:
        table, view, prompts = await self.service.private_view(game_id, interaction.user.id)
        parts = []
        if with_view or not prompts:
            parts.append(view.text)
        parts += [f"**{p.title}**" + (f"\n{p.text}" if p.text else "") for p in prompts]
        if not prompts:
            parts.append("_You have nothing to choose right now._")
        components = prompts_view(game_id, table.state.phase_seq, prompts)
        kwargs: dict[str, Any] = {}
        if components is not None:
            kwargs["view"] = components
        await reply(interaction, "\n\n".join(parts), **kwargs)

    async def _act(self, interaction: discord.Interaction, game_id: int, action: dict[str, Any]) -> None:
        outcome = await self.service.act(game_id, interaction.user.id, action)
        await reply(interaction, outcome.reply or "Done.")

    def _prompt(self, game_id: int, table, user_id: int, action: str) -> Prompt:
        for prompt in table.game.prompts(table.state, str(user_id)):
            if prompt.action == action:
                return prompt
        raise GameError("That choice is not open to you any more.", code="no_prompt")

    async def on_choice(self, interaction: discord.Interaction, game_id: int, seq: int, action: str,
                        field: str, values: list[str]) -> None:
        async def work() -> None:
            table = await self.service.load(game_id)
            if table.state.phase_seq != seq:
                raise GameError("Too late: that phase has closed, and nothing was counted.", code="stale_phase")
            prompt = self._prompt(game_id, table, interaction.user.id, action)
            spec = next((f for f in prompt.fields if f.name == field), None)
            if spec is None:
                raise GameError("That choice is not open to you any more.", code="no_prompt")
            value: Any = values[0] if spec.max_values == 1 and values else values
            key = (game_id, interaction.user.id, seq, action)
            chosen = self.partial.setdefault(key, {})
            chosen[field] = value
            if prompt.submit_label or len(prompt.fields) > 1:
                await reply(interaction, f"Noted. Press **{prompt.submit_label or 'Confirm'}** when ready.")
                return
            self.partial.pop(key, None)
            await self._act(interaction, game_id, {"type": action, "player": str(interaction.user.id),
                                                   "phase_seq": seq, **prompt.extra, **chosen})
        await guarded(interaction, game_id, work)

    async def on_choice_button(self, interaction: discord.Interaction, game_id: int, seq: int,
                               action: str) -> None:
        async def work() -> None:
            table = await self.service.load(game_id)
            prompt = self._prompt(game_id, table, interaction.user.id, action)
            chosen = self.partial.pop((game_id, interaction.user.id, seq, action), {})
            missing = [f.placeholder for f in prompt.fields if f.name not in chosen]
            if missing:
                raise GameError(f"Choose first: {', '.join(missing)}.", code="incomplete")
            await self._act(interaction, game_id, {"type": action, "player": str(interaction.user.id),
                                                   "phase_seq": seq, **prompt.extra, **chosen})
        await guarded(interaction, game_id, work)

    async def vote(self, interaction: discord.Interaction, target_id: int | None) -> None:
        """``/vote``: route to whatever vote the channel's game has open for this player."""
        row = await self.service.game_in_channel(interaction.channel_id)
        if row.status != "running":
            raise LobbyError("The game here has not started yet.")
        table = await self.service.load(row.id)
        uid = str(interaction.user.id)
        if not any(p.id == uid for p in table.state.players):
            raise NotAllowed("You are not playing in this game.")
        votes = [p for p in table.game.prompts(table.state, uid) if p.vote]
        if not votes:
            raise GameError("There is no vote open for you right now.", code="no_vote")
        prompt = votes[0]
        field = next((f for f in prompt.fields if f.name == "target"), None)
        value = None if target_id is None else str(target_id)
        if field is not None:
            values = {c.value for c in field.choices}
            names = ", ".join(c.label for c in field.choices)
            if value is None:
                # no target: a vote for no one, where this vote offers that choice
                if NO_ONE not in values:
                    raise GameError(f"Name someone to vote for: {names}.", code="bad_target")
                value = NO_ONE
            elif value not in values:
                raise GameError(f"You can't vote for them now. You can vote for: {names}.", code="bad_target")
        await self._act(interaction, row.id, {"type": prompt.action, "player": uid,
                                              "phase_seq": table.state.phase_seq, **prompt.extra,
                                              "target": value})

    async def status_text(self, row) -> str:
        game = games.get(row.kind)
        if row.status == "lobby":
            players = await self.bot.store.lobby_players(row.id)
            return (f"**{game.title}** (game #{row.id}) is gathering players: "
                    f"{', '.join(n for _, n in players)} ({len(players)}/{row.min_players}-{row.max_players}).")
        table = await self.service.load(row.id)
        text = game.view(table.state, None).text
        if row.paused:
            text += "\n⏸️ Paused."
        elif row.deadline:
            text += f"\n⏳ This phase closes {relative_time(row.deadline)}."
        return f"**{game.title}** (game #{row.id})\n{text}"
