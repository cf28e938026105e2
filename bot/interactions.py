"""Answering an interaction: who is asking, the reply (long texts in parts), the edit of the
clicked message, and ``guarded``, which runs a command's or a click's work and answers in time.

A leaf: it knows Discord and ``Actor``, and no adapter, so every cog, component
and feature package can use it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from games.engine import GameError

from .actor import Actor
from .render import chunks

log = logging.getLogger(__name__)

APOLOGY = ("Sorry, something went wrong on my side, and what you asked may NOT have been done. "
           "Check with **My hand** or `/game status` before trying again.")
#: Discord waits 3 seconds for the first answer to an interaction; past this, the bot defers
#: (a "thinking..." that buys 15 minutes), so a slow write (a busy database) still gets its answer
DEFER_AFTER = 2.0
#: one lock per interaction being answered, so the deferral and the answer never cross
_answering: dict[int, asyncio.Lock] = {}


def _answer_lock(interaction: discord.Interaction) -> asyncio.Lock:
    return _answering.setdefault(interaction.id, asyncio.Lock())


def actor_of(interaction: discord.Interaction) -> Actor:
    user = interaction.user
    perms = getattr(user, "guild_permissions", None)
    roles = frozenset(r.id for r in getattr(user, "roles", []))
    return Actor(id=user.id, name=user.display_name, manage_guild=bool(perms and perms.manage_guild),
                 role_ids=roles)


def chosen_values(interaction: discord.Interaction) -> list[str]:
    """The values a select's user chose (none when the interaction carries none)."""
    data = interaction.data
    values = data.get("values", []) if data is not None else []
    return [str(v) for v in values] if isinstance(values, list) else []


async def reply(interaction: discord.Interaction, content: str | None = None, *,
                ephemeral: bool = True, **kwargs: Any) -> int | None:
    """Answer an interaction. A text over Discord's 2,000 characters goes as several messages, the
    embeds and components (``kwargs``) with the last one, so nothing is cut off. Returns the id of
    that last message, when Discord said it."""
    parts: list[str | None] = list(chunks(content, 2000)) if content is not None else [None]
    message_id: int | None = None
    async with _answer_lock(interaction):
        for index, part in enumerate(parts):
            extra = kwargs if index == len(parts) - 1 else {}
            if part is not None:  # (no text: embeds or components alone)
                extra = {**extra, "content": part}
            if interaction.response.is_done():
                sent = await interaction.followup.send(ephemeral=ephemeral, wait=True, **extra)
                message_id = sent.id
            else:
                callback = await interaction.response.send_message(ephemeral=ephemeral, **extra)
                message_id = getattr(callback, "message_id", None)
    return message_id


async def update_message(interaction: discord.Interaction, **kwargs: Any) -> None:
    """Edit the message whose component was clicked (the lobby), deferred or not."""
    async with _answer_lock(interaction):
        if interaction.response.is_done():
            await interaction.edit_original_response(**kwargs)
        else:
            await interaction.response.edit_message(**kwargs)


async def acknowledge(interaction: discord.Interaction) -> None:
    """Answer a component with nothing to say (the select already shows the pick), unless the
    slow-answer watchdog did it already."""
    async with _answer_lock(interaction):
        if not interaction.response.is_done():
            await interaction.response.defer()


async def _defer_when_slow(interaction: discord.Interaction, public: bool) -> None:
    await asyncio.sleep(DEFER_AFTER)
    async with _answer_lock(interaction):
        if interaction.response.is_done():
            return
        with contextlib.suppress(discord.HTTPException):
            if interaction.type == discord.InteractionType.component:
                await interaction.response.defer()  # the answer comes as a follow-up
            else:
                await interaction.response.defer(ephemeral=not public, thinking=True)


async def guarded(interaction: discord.Interaction, game_id: int | None,
                  work: Callable[[], Awaitable[None]], *, public: bool = False) -> None:
    """Run ``work`` and answer in time: a game error becomes its sentence, anything else an
    apology (and the log), and an answer that is slow to come is deferred within Discord's 3 s.
    ``public``: the command answers in the channel (its deferral is public too)."""
    watchdog = asyncio.get_running_loop().create_task(_defer_when_slow(interaction, public))
    try:
        await work()
    except GameError as exc:
        with contextlib.suppress(discord.HTTPException):
            await reply(interaction, str(exc))
    except Exception:
        log.exception("unexpected error (game %s, channel %s, user %s)", game_id, interaction.channel_id,
                      interaction.user.id)
        with contextlib.suppress(discord.HTTPException):
            await reply(interaction, APOLOGY)
    finally:
        watchdog.cancel()
        _answering.pop(interaction.id, None)
        delivery = getattr(interaction.client, "delivery", None)
        if delivery is not None and interaction.response.is_done():
            delivery.note_interaction(interaction)  # a private push may ride on it for a while
