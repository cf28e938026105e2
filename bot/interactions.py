"""Answering an interaction: who is asking, the reply (long texts in parts), the edit of the
clicked message, and ``answered``, the one path every command, menu, component and form answers
through.

A command or a click says what it does and raises a ``GameError`` for what it refuses;
``answered`` turns that into its sentence, anything else into an apology and the log, and defers
an answer that is slow to come within Discord's 3 s.

A leaf: it knows Discord and ``Actor``, and no adapter, so every cog, component
and feature package can use it.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import inspect
import logging
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any, ParamSpec

import discord

from games.engine import GameError

from .actor import Actor
from .logs import current, log_context
from .render import chunks

log = logging.getLogger(__name__)
P = ParamSpec("P")

APOLOGY = ("Sorry, something went wrong on my side, and what you asked may NOT have been done. "
           "Check with **My hand** or `/game status` before trying again.")
#: Discord waits 3 seconds for the first answer to an interaction; past this, the bot defers
#: (a "thinking..." that buys 15 minutes), so a slow write (a busy database) still gets its answer
DEFER_AFTER = 2.0


@dataclass
class _Answering:
    """An interaction being answered: one lock, so the deferral and the answer never cross, and
    whether a slow answer's deferral shows in the channel."""

    public: bool = False
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


#: the interactions being answered, by id
_answering: dict[int, _Answering] = {}


def _answer_lock(interaction: discord.Interaction) -> asyncio.Lock:
    return _answering.setdefault(interaction.id, _Answering()).lock


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


async def open_form(interaction: discord.Interaction, form: discord.ui.Modal) -> None:
    """Open a form (a modal) as the answer. A form is only ever the first answer: it cannot follow
    a deferral, so an answer too slow to open it says so in words."""
    async with _answer_lock(interaction):
        if interaction.response.is_done():
            raise GameError("That took me too long to open the form: press the button again.", code="too_slow")
        await interaction.response.send_modal(form)


async def defer_publicly(interaction: discord.Interaction) -> bool:
    """From now on, a slow answer's deferral shows in the channel (for a command that learns only
    as it runs whether it answers publicly, such as ``/game script public:True``). False when it
    is too late: the answer was already deferred privately, so it stays private."""
    answering = _answering.setdefault(interaction.id, _Answering())
    async with answering.lock:  # (not while the watchdog is deferring)
        if interaction.response.is_done():
            return False
        answering.public = True
        return True


def answered(*, public: bool = False
             ) -> Callable[[Callable[P, Awaitable[None]]], Callable[P, Coroutine[Any, Any, None]]]:
    """The one answer path: decorate an app command, a member's menu, a component's or a form's
    callback (anything with an ``interaction`` parameter). The body runs with a watchdog that
    defers an answer slow to come; a ``GameError`` it raises is answered with its sentence,
    anything else with ``APOLOGY`` and a log line naming the game (the body's ``game_id``
    parameter, else its component's ``game_id``, else the game the body found and named with
    ``logs.bind``). ``public``: the command answers in the channel, so its deferral is public too.
    A body that another answered body calls just runs: the outer one answers."""
    def decorate(body: Callable[P, Awaitable[None]]) -> Callable[P, Coroutine[Any, Any, None]]:
        names = list(inspect.signature(body).parameters)
        if "interaction" not in names:
            raise TypeError(f"{body.__qualname__} has no 'interaction' parameter to answer")
        at = names.index("interaction")
        game_at = names.index("game_id") if "game_id" in names else None

        @functools.wraps(body)
        async def answer(*args: P.args, **kwargs: P.kwargs) -> None:
            interaction: Any = kwargs["interaction"] if "interaction" in kwargs else args[at]
            game_id: Any
            if game_at is not None:
                game_id = kwargs["game_id"] if "game_id" in kwargs else args[game_at]
            else:
                game_id = getattr(args[0], "game_id", None) if args else None
            await _answer(interaction, game_id, public, body(*args, **kwargs))

        # discord.py reads a command's parameters from its callback's signature, and evaluates
        # string annotations in the callback's module: show it the body's, already evaluated
        answer.__signature__ = inspect.signature(body, eval_str=True)  # type: ignore[attr-defined]  # inspect reads it
        answer.__answered__ = True  # type: ignore[attr-defined]  # (what tests/discord/test_answers.py looks for)
        return answer

    return decorate


def is_answered(callback: Any) -> bool:
    """Whether a callback (a function or a bound method) answers through ``answered``."""
    return getattr(callback, "__answered__", False) is True


async def _answer(interaction: discord.Interaction, game_id: int | None, public: bool,
                  work: Awaitable[None]) -> None:
    if interaction.id in _answering:  # inside another answered body: that one answers
        await work
        return
    _answering[interaction.id] = _Answering(public)
    watchdog = asyncio.get_running_loop().create_task(_defer_when_slow(interaction))
    # the body's log lines carry its server and game; a command that finds its game as it runs
    # names it with ``logs.bind``
    with log_context(game_id=game_id, guild_id=interaction.guild_id):
        try:
            await work
        except GameError as exc:
            with contextlib.suppress(discord.HTTPException):
                await reply(interaction, str(exc))
        except Exception:
            log.exception("unexpected error (game %s, channel %s, user %s)", current().get("game_id"),
                          interaction.channel_id, interaction.user.id)
            with contextlib.suppress(discord.HTTPException):
                await reply(interaction, APOLOGY)
        finally:
            watchdog.cancel()
            _answering.pop(interaction.id, None)
            delivery = getattr(interaction.client, "delivery", None)
            if delivery is not None and interaction.response.is_done():
                delivery.note_interaction(interaction)  # a private push may ride on it for a while


async def _defer_when_slow(interaction: discord.Interaction) -> None:
    await asyncio.sleep(DEFER_AFTER)
    answering = _answering.get(interaction.id)
    if answering is None:
        return
    async with answering.lock:
        if interaction.response.is_done():
            return
        with contextlib.suppress(discord.HTTPException):
            if interaction.type == discord.InteractionType.component:
                await interaction.response.defer()  # the answer comes as a follow-up
            else:
                await interaction.response.defer(ephemeral=not answering.public, thinking=True)
