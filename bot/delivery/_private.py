"""What delivery keeps of a player's recent interactions: a ride (a private message sent as an
ephemeral follow-up instead of a DM) and their open private prompts (closed when their phase
is), and the channel's one notice to a player whose DMs are closed."""

from __future__ import annotations

import logging
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any

import aiohttp
import discord

import games
from games.engine import Event

from ..pacer import URGENT
from ..render import message_parts
from ..store import OutboxRow
from ..views import phase_view
from ._calls import Calls
from ._ports import Bot
from ._rules import DEAL_STEP, PROMPT_CLOSED, PROMPT_EDIT_SECONDS

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Ride:
    """A player's recent interaction: its follow-up webhook sends them an ephemeral message at
    no cost to the bot's budget (interaction follow-ups are not counted against it)."""

    followup: discord.Webhook
    channel_id: int | None
    private: bool  # the interaction was in a DM
    until: float


@dataclass(frozen=True)
class OpenPrompt:
    """A player's private message of choices, edited to "over" (no selects) when its phase closes."""

    interaction: discord.Interaction  # the one whose original response is the message
    phase_seq: int
    until: float


class Private:
    """``beside`` runs work that must not hold up the channel (and that ``wait_idle`` waits for)."""

    def __init__(self, bot: Bot, calls: Calls, beside: Callable[[Coroutine[Any, Any, None]], None]) -> None:
        self.bot = bot
        self.calls = calls
        self.beside = beside
        self.rides: dict[int, Ride] = {}  # user id -> their latest interaction still open
        # (game, user, message) -> a private message of open choices: a player who pressed Make my
        # choice twice has two, and both close with the phase
        self.prompts: dict[tuple[int, int, int], OpenPrompt] = {}
        self.dm_notices: set[tuple[int, int | None]] = set()  # (game, player) told about closed DMs

    def forget(self, game_id: int) -> None:
        self.dm_notices = {k for k in self.dm_notices if k[0] != game_id}

    # ----- rides -----
    def note_interaction(self, interaction: discord.Interaction) -> None:
        """Keep a player's latest answered interaction: their next private message may ride on it."""
        seconds = self.bot.settings.ride_seconds
        if not seconds or interaction.type not in (discord.InteractionType.component,
                                                   discord.InteractionType.application_command):
            return
        if interaction.response.type == discord.InteractionResponseType.deferred_channel_message:
            # a "thinking..." deferral: Discord makes the first follow-up take its place, with the
            # deferral's visibility (public for a moderator's command), whatever the flag says
            return
        now = self.bot.clock.now()
        self.rides[interaction.user.id] = Ride(interaction.followup, interaction.channel_id,
                                               interaction.guild_id is None, now + seconds)
        if len(self.rides) > 10_000:  # drop the stale ones now and then
            self.rides = {k: r for k, r in self.rides.items() if r.until > now}

    async def ride(self, game_row, row: OutboxRow, event: Event) -> bool:
        """Send a private row as an ephemeral follow-up of the player's open interaction in the
        game's channel or their DM, if they have one; False when it must go by DM. The deal's
        messages (role cards) always go by DM, to stay where the player can read them all game."""
        recipient = row.recipient_id
        ride = self.rides.get(recipient) if recipient is not None else None
        if (recipient is None or ride is None or ride.until <= self.bot.clock.now() or row.step == DEAL_STEP or row.image
                or row.picture or row.parts_sent):
            return False
        if not ride.private and ride.channel_id != game_row.channel_id:
            return False
        game = games.get(game_row.kind)
        parts = message_parts(event, game.title, row.game_id)
        if len(parts) != 1:
            return False
        try:
            # in the game's channel the phase's message has the buttons; in a DM they come along
            if ride.private:
                await ride.followup.send(embeds=parts, ephemeral=True, view=phase_view(row.game_id))
            else:
                await ride.followup.send(embeds=parts, ephemeral=True)
        except Exception as exc:  # expired or refused: the DM it is
            log.info("game %s: a follow-up to %s failed (%s); sending a DM", row.game_id, row.recipient_id, exc)
            self.rides.pop(recipient, None)
            return False
        return True

    # ----- open prompts -----
    def note_prompt(self, game_id: int, phase_seq: int, interaction: discord.Interaction, message_id: int) -> None:
        """A player has their choices for this phase in front of them, in message ``message_id``,
        the original response of ``interaction``: when the phase closes, that message loses its
        selects and says so. Noting the same message again (a choice made in it) replaces it."""
        now = self.bot.clock.now()
        key = (game_id, interaction.user.id, message_id)
        self.prompts[key] = OpenPrompt(interaction, phase_seq, now + PROMPT_EDIT_SECONDS)
        if len(self.prompts) > 20_000:  # drop the ones Discord no longer lets us edit
            self.prompts = {k: p for k, p in self.prompts.items() if p.until > now}

    def forget_prompt(self, game_id: int, user_id: int, message_id: int) -> None:
        """Message ``message_id`` has nothing left to choose: it no longer needs closing."""
        self.prompts.pop((game_id, user_id, message_id), None)

    def close_prompts(self, game_id: int, phase_seq: int) -> None:
        """The phase is over: its players' private choices say so, beside the channel's delivery
        (an edit through the interaction, outside the bot's own budget)."""
        now = self.bot.clock.now()
        closing = [self.prompts.pop(k) for k, p in list(self.prompts.items())
                   if k[0] == game_id and p.phase_seq <= phase_seq]
        closing = [p for p in closing if p.until > now]
        if closing:
            self.beside(self._close_prompts(closing))

    async def _close_prompts(self, closing: list[OpenPrompt]) -> None:
        for prompt in closing:
            try:
                await prompt.interaction.edit_original_response(content=PROMPT_CLOSED, embeds=[], view=None)
            except (TimeoutError, discord.HTTPException, OSError, aiohttp.ClientError) as exc:
                log.debug("closing a private prompt failed: %s", exc)  # cosmetic: a click is refused anyway

    # ----- closed DMs -----
    async def dm_closed_notice(self, game_row, row: OutboxRow) -> None:
        """At the deal only, one notice per player per game: every player gets a private message
        then, so the notice says nothing about what the game is doing in secret."""
        key = (row.game_id, row.recipient_id)
        if row.step != DEAL_STEP or key in self.dm_notices:
            return
        self.dm_notices.add(key)
        try:
            channel = await self.calls.channel(game_row.channel_id)
            await self.calls.call(
                URGENT, ("channel", channel.id), channel.send,
                f"<@{row.recipient_id}>, I couldn't send you a private message (your DMs are closed). "
                "Press **My hand** on the latest game message, or use `/game hand`, to see your role "
                "and everything you learn during the game.",
                view=phase_view(row.game_id),
                allowed_mentions=discord.AllowedMentions(users=True),
            )
        except Exception as exc:
            log.warning("game %s: closed-DM notice for %s failed: %s", row.game_id, row.recipient_id, exc)
