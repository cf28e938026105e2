"""One row as a message of its own, wherever it goes: the channel (a picture, a long text), a
player's DM (or a ride on their open interaction), a player's private thread, a group's thread."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from games.engine import Event, Prompt

from ..pacer import URGENT
from ..render import message_parts
from ..store import OutboxRow, Slot
from ..views import event_view, phase_view
from ._calls import Calls, classify, message, with_mentions
from ._ports import Bot
from ._private import Private
from ._reads import game_of, schedule_now, shared_now
from ._rules import GiveUp, Retry, Schedule, calling, countdown, player_key
from ._threads import Threads


class Sender:
    """``done`` marks rows delivered (and starts an opened phase's clock); ``pause`` waits out an
    event's pause in the channel."""

    def __init__(self, bot: Bot, calls: Calls, threads: Threads, private: Private,
                 done: Callable[..., Awaitable[None]], pause: Callable[[Event], Awaitable[None]]) -> None:
        self.bot = bot
        self.calls = calls
        self.threads = threads
        self.private = private
        self.done = done
        self.pause = pause

    async def deliver(self, row: OutboxRow, level: int = URGENT) -> None:
        """Send every part of one row not yet accepted; raise Retry or GiveUp when Discord refuses."""
        event = Event.model_validate(row.payload)
        service = self.bot.service
        game_row, game = await game_of(service, row)
        target = row.target if row.target != "dm" or not game.private_threads else "thread"
        if target == "dm" and await self.private.ride(game_row, row, event):
            await self.done([row])
            return
        try:
            destination = await self.destination(game_row, row, event, target, level)
        except (Retry, GiveUp):
            raise
        except Exception as exc:
            raise classify(exc, target) from exc
        parts = message_parts(event, game.title, row.game_id)
        image = row.image
        if image is None and row.picture is not None:
            # drawn here, in a worker thread (Pillow releases the GIL): no table waits for it
            image = await asyncio.to_thread(game.draw, row.picture)
        where = (target, getattr(destination, "id", None))
        started_at = self.bot.clock.now()
        first_id = None
        sent = None
        for index in range(row.parts_sent, len(parts)):
            last = index == len(parts) - 1
            if index == 0 and row.slot:
                game_row = await service.row(row.game_id) or game_row
                started_at = self.bot.clock.now()
            shared = await shared_now(service, game_row, row.phase_seq) if last and event.opens_phase else []
            plan = await schedule_now(service, game_row) if event.opens_phase else None
            kwargs = part(game_row, row, event, target, parts[index], image, first=index == 0,
                          last=last, now=started_at, shared=shared, schedule=plan)
            try:
                posted = await self.calls.call(level, where, destination.send, nonce=f"o{row.id}p{index}", **kwargs)
            except Exception as exc:
                failure = classify(exc, target)
                if isinstance(failure, GiveUp) and failure.reason == "dm closed":
                    await self.private.dm_closed_notice(game_row, row)
                if target == "dm" and isinstance(exc, discord.NotFound) and row.recipient_id is not None:
                    # the kept DM channel is gone: forget it, and open a new one on the retry
                    await self.bot.store.forget_dm_channel(row.recipient_id)
                    failure = Retry(f"dm: channel gone ({exc.code})")
                raise failure from exc
            sent = posted
            if index == 0:
                first_id = posted.id
            if not last:
                await self.bot.store.mark_parts_sent(row.id, index + 1)
        if row.slot and sent is not None:
            await self.bot.store.set_slot(row.game_id, row.slot,
                                          Slot(sent.channel.id, first_id or sent.id, sent.id))
        await self.done([row], started_at=started_at)
        if target == "group" and event.data.get("close"):
            await self.threads.close_thread(destination, row.game_id)
        if row.target == "channel":
            await self.pause(event)

    async def destination(self, game_row, row: OutboxRow, event: Event, target: str, level: int):
        if target == "channel":
            return await self.calls.channel(game_row.channel_id, level)
        if target == "group" and event.audience.kind == "thread":
            return await self.threads.public_thread(game_row, event.audience.id, level)
        if target == "group":
            return await self.threads.group_thread(game_row, event.audience.id,
                                                   [int(m) for m in event.audience.members], level,
                                                   reopen=event.audience.reopen)
        assert row.recipient_id is not None
        if target == "thread":
            return await self.threads.group_thread(game_row, player_key(row.recipient_id), [row.recipient_id],
                                                   level)
        return await self.calls.dm(row.recipient_id, level)


def part(game_row, row: OutboxRow, event: Event, target: str, embed: discord.Embed,
         image: bytes | None, *, first: bool, last: bool, now: float,
         shared: list[Prompt] | None = None, schedule: Schedule | None = None) -> dict[str, Any]:
    """One Discord message of a row: the countdown on the first, the picture and buttons on the last."""
    files = []
    if last and image:
        files.append(discord.File(io.BytesIO(image), filename="picture.png"))
        embed.set_image(url="attachment://picture.png")
    view = None
    still_open = True
    content = None
    if target == "channel" and event.opens_phase:
        content, still_open = countdown(game_row, row.phase_seq, now, schedule=schedule)
    if last and still_open and (target in ("dm", "thread") or (target == "channel" and event.opens_phase)):
        view = phase_view(row.game_id, row.phase_seq, (shared or []) if target == "channel" else [])
    if last and event.data.get("view"):  # a view a feature registered for this event
        view = event_view(row.game_id, event.data) or view
    kwargs = message([embed], files, view)
    if first and content:
        kwargs["content"] = content
    if first and target == "channel":
        kwargs = with_mentions(kwargs, calling([event]))
    return kwargs

