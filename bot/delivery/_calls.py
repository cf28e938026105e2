"""Talking to Discord: every call through the one pacer, a refusal sorted into Retry or GiveUp,
what Discord's refusals teach (``DiscordHealth``, the pacer's ``learn``), and the keyword arguments
of one message."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Hashable, Mapping
from contextvars import ContextVar
from typing import Any, TypeVar

import aiohttp
import discord

from ..discord_health import DiscordHealth
from ..pacer import URGENT, Pacer
from ._ports import Bot
from ._rules import GiveUp, Retry

#: the answers (their headers) Discord gave to the call under way in this task: discord.py hands
#: back no headers on success, but its session's trace hook runs in the caller's task
ANSWERS: ContextVar[list[Mapping[str, str]] | None] = ContextVar("discord_answers", default=None)

T = TypeVar("T")

DM_CLOSED = 50007
#: Discord's codes for a permission the bot lacks where it tried to post
MISSING_ACCESS, MISSING_PERMISSIONS = 50001, 50013


def classify(exc: BaseException, where: str) -> Retry | GiveUp:
    """Whether a failed call is worth another try."""
    if isinstance(exc, discord.Forbidden):
        if exc.code == DM_CLOSED:
            return GiveUp("dm closed")
        return Retry(f"{where}: no permission ({exc.status} {exc.code}: {exc.text})", permission=True)
    if isinstance(exc, discord.NotFound):
        return GiveUp(f"{where}: not found ({exc.code})")
    if isinstance(exc, discord.HTTPException):
        if exc.status >= 500 or exc.status in (401, 408, 429):
            return Retry(f"{where}: {exc.status} {exc.code}")
        return GiveUp(f"{where}: refused ({exc.status} {exc.code}: {exc.text})")
    if isinstance(exc, OSError | aiohttp.ClientError | asyncio.TimeoutError):
        return Retry(f"{where}: network ({type(exc).__name__})")
    return Retry(f"{where}: {type(exc).__name__}: {exc}")


def lasting(exc: BaseException, place: str) -> str:
    """``place``, when Discord refused it for good (a missing permission, a thing gone); a passing
    fault is raised as Retry instead, so the work is tried again."""
    failure = classify(exc, "thread")
    if isinstance(failure, Retry) and not failure.permission:
        raise failure from exc
    return place


def message(embeds, files, view: discord.ui.View | None = None) -> dict:
    """The keyword arguments of one ``send``: embeds, and the picture and buttons when there are any."""
    kwargs: dict = {"embeds": embeds}
    if files:
        kwargs["files"] = files
    if view is not None:
        kwargs["view"] = view
    return kwargs


def with_mentions(kwargs: dict[str, Any], ids: list[int]) -> dict[str, Any]:
    """A new message that mentions ``ids`` above its countdown, pinging them and nobody else. (An
    edit never pings, so a message that calls someone is always sent new.)"""
    if not ids:
        return kwargs
    mentions = " ".join(f"<@{i}>" for i in ids)
    line = kwargs.get("content") or ""
    return {**kwargs, "content": f"{mentions} {line}".strip(),
            "allowed_mentions": discord.AllowedMentions(everyone=False, roles=False,
                                                        users=[discord.Object(i) for i in ids])}


def route_limit(headers: Mapping[str, str]) -> dict[str, Any]:
    """A successful answer's word on its route's limit: ``limit`` calls, its bucket reset in
    ``reset_after`` seconds (``Pacer.heed_route``'s keyword arguments), or nothing when it says none."""
    found: dict[str, Any] = {}
    for name, header, kind in (("limit", "X-RateLimit-Limit", int), ("reset_after", "X-RateLimit-Reset-After", float)):
        with contextlib.suppress(KeyError, ValueError, TypeError):  # absent or not a number
            found[name] = kind(headers[header])
    return found if len(found) == 2 else {}


def rate_limits(exc: BaseException) -> dict[str, Any]:
    """What a refusal says about Discord's limits, from its ``X-RateLimit-*`` headers (and a
    ``RateLimited``'s wait): the keyword arguments of ``Pacer.learn``, plus ``shared``."""
    if isinstance(exc, discord.RateLimited):
        return {"retry_after": exc.retry_after, "shared": False}
    response = getattr(exc, "response", None)
    headers = {str(k).lower(): v for k, v in (getattr(response, "headers", None) or {}).items()}
    scope = str(headers.get("x-ratelimit-scope", "")).lower()
    learned: dict[str, Any] = {
        "is_global": scope == "global" or str(headers.get("x-ratelimit-global", "")).lower() == "true",
        "shared": scope == "shared",
    }
    for name, header, kind in (("retry_after", "retry-after", float), ("limit", "x-ratelimit-limit", int),
                               ("reset_after", "x-ratelimit-reset-after", float)):
        with contextlib.suppress(KeyError, ValueError, TypeError):  # absent or not a number
            learned[name] = kind(headers[header])
    return learned


class Calls:
    """Every call delivery makes to Discord goes through ``call``, paced by ``pacer``; ``health``
    keeps what Discord's refusals say (invalid requests, a refused token)."""

    def __init__(self, bot: Bot, pacer: Pacer, health: DiscordHealth | None = None) -> None:
        self.bot = bot
        self.pacer = pacer
        self.health = health or DiscordHealth()

    @property
    def stopped(self) -> bool:
        """Discord refused the token: nothing more is sent until a restart with a new one."""
        return self.health.token_refused

    async def call(self, level: int, where: Hashable, method: Callable[..., Awaitable[T]], *args: Any,
                   rank: int = 0, **kwargs: Any) -> T:
        """One call to Discord, ``method(*args, **kwargs)``, when the pacer lets it go. Each kind
        of call to a channel has its own window, as Discord keeps a bucket per route; ``rank``
        orders the calls of one level (``Pacer.turn``)."""
        if self.stopped:  # another 401 would only count toward the ban
            raise Retry("Discord refused the bot's token; not sent")
        if self.pacer.strain:  # slowed for Discord's invalid requests: as they age, less so
            self.pacer.ease(self.health.strain)
        key = (where, getattr(method, "__name__", ""))
        await self.pacer.turn(level, key, rank)
        answers: list[Mapping[str, str]] = []
        token = ANSWERS.set(answers)
        try:
            result = await method(*args, **kwargs)
        except (discord.HTTPException, discord.RateLimited) as exc:
            self.heed(key, exc)
            raise
        finally:
            ANSWERS.reset(token)
        if answers:  # the route's limit, learned before it is ever hit
            limits = route_limit(answers[-1])
            if limits:
                self.pacer.heed_route(key, **limits)
        return result

    def trace(self) -> aiohttp.TraceConfig:
        """The hook for discord.py's session: ``DiscordHealth`` hears every answer, and the headers
        of the answer to a call made through ``call`` go back to it (and so to the pacer, under
        the call's own key)."""
        config = aiohttp.TraceConfig()

        async def on_request_end(_session, _context, params: aiohttp.TraceRequestEndParams) -> None:
            self.health.heard(params.method, params.url, params.response.status, params.response.headers)
            answers = ANSWERS.get()
            if answers is not None:
                answers.append(params.response.headers)

        config.on_request_end.append(on_request_end)
        return config

    def heed(self, key: Any, exc: discord.HTTPException | discord.RateLimited) -> None:
        """Count a refusal toward Discord's ban and let the pacer learn from it."""
        status = exc.status if isinstance(exc, discord.HTTPException) else 429
        limits = rate_limits(exc)
        shared = limits.pop("shared")
        if self.health.note(status, shared=shared):
            self.pacer.ease(self.health.strain)
        if status != 429:  # only a 429 says to wait
            limits.pop("retry_after", None)
            limits["is_global"] = False
        if status == 429 or "limit" in limits:
            self.pacer.learn(key, **limits)

    async def channel(self, channel_id: int, level: int = URGENT):
        channel = self.bot.get_channel(channel_id)
        if channel is None:
            channel = await self.call(level, ("channel", channel_id), self.bot.fetch_channel, channel_id)
        return channel

    async def dm(self, user_id: int, level: int = URGENT) -> discord.PartialMessageable:
        """The player's DM channel, opened once and then kept in the database: each private
        message is one call to Discord."""
        channel_id = await self.bot.store.dm_channel(user_id)
        if channel_id is None:
            channel = await self.call(level, ("dm", user_id), self.bot.create_dm, discord.Object(id=user_id))
            channel_id = channel.id
            await self.bot.store.set_dm_channel(user_id, channel_id)
        return self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private)
