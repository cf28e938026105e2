"""Delivers the outbox: public events to the game's channel, private ones by DM (with the
same "Make my choice" and "My hand" buttons, so a player can act from the DM).

Rows are delivered in order, per game, and marked delivered only after Discord accepted them, so
a crash between commit and send re-sends after restart rather than losing a message. A closed DM
(error 50007) is never a dead end: the player is told in the channel, with no secret, to use the
"My hand" button, which answers ephemerally.
"""

from __future__ import annotations

import asyncio
import io
import logging
from typing import TYPE_CHECKING

import discord

import games
from games.engine import Event

from .render import embeds_for, relative_time
from .store import OutboxRow
from .views import phase_view

if TYPE_CHECKING:
    from .client import StorytellerBot

log = logging.getLogger(__name__)

DM_CLOSED = 50007


def player_key(user_id: int) -> str:
    """The group key of a player's own private thread (games with ``private_threads``)."""
    return f"player:{user_id}"


def message(embeds, files, view: discord.ui.View | None = None) -> dict:
    """The keyword arguments of one ``send``: embeds, and the picture and buttons when there are any."""
    kwargs: dict = {"embeds": embeds}
    if files:
        kwargs["files"] = files
    if view is not None:
        kwargs["view"] = view
    return kwargs


class Delivery:
    def __init__(self, bot: StorytellerBot) -> None:
        self.bot = bot
        self._tasks: dict[int, asyncio.Task] = {}
        self._again: set[int] = set()
        self._dm_notices: set[tuple[int, int, int]] = set()
        self.idle = asyncio.Event()
        self.idle.set()

    def kick(self, game_id: int) -> None:
        """Make sure the game's pending messages are being delivered."""
        self._again.add(game_id)
        task = self._tasks.get(game_id)
        if task is None or task.done():
            self.idle.clear()
            self._tasks[game_id] = asyncio.get_running_loop().create_task(self._drain(game_id))

    async def drain_all(self) -> None:
        for game_id in await self.bot.store.games_with_pending_messages():
            self.kick(game_id)
        await self.wait_idle()

    async def wait_idle(self) -> None:
        while any(not t.done() for t in self._tasks.values()):
            await asyncio.gather(*[t for t in self._tasks.values() if not t.done()],
                                 return_exceptions=True)

    async def _drain(self, game_id: int) -> None:
        try:
            while game_id in self._again:
                self._again.discard(game_id)
                for row in await self.bot.store.pending_messages(game_id):
                    failure = await self._send(row)
                    await self.bot.store.mark_delivered(row.id, self.bot.clock.now(), failure)
        except Exception:
            log.exception("delivery of game %s failed; it will be retried at the next action or restart",
                          game_id)
        finally:
            if all(t.done() or t is asyncio.current_task() for t in self._tasks.values()):
                self.idle.set()

    async def _send(self, row: OutboxRow) -> str | None:
        event = Event.model_validate(row.payload)
        game_row = await self.bot.store.game(row.game_id)
        if game_row is None:
            return "game gone"
        game = games.get(game_row.kind)
        embeds = embeds_for(event, game.title, row.game_id)
        files = []
        if row.image:
            files.append(discord.File(io.BytesIO(row.image), filename="picture.png"))
            embeds[-1].set_image(url="attachment://picture.png")
        if row.target == "channel":
            return await self._to_channel(game_row, row, event, embeds, files)
        if row.target == "group":
            return await self._to_group(game_row, row, event, embeds, files)
        if game.private_threads:
            return await self._to_thread(game_row, row, embeds, files)
        return await self._to_player(game_row, row, embeds, files)

    async def _channel(self, channel_id: int):
        channel = self.bot.get_channel(channel_id)
        if channel is None:
            channel = await self.bot.fetch_channel(channel_id)
        return channel

    async def _to_channel(self, game_row, row: OutboxRow, event: Event, embeds, files) -> str | None:
        channel = await self._channel(game_row.channel_id)
        kwargs = message(embeds, files, phase_view(row.game_id) if event.opens_phase else None)
        if event.opens_phase and game_row.phase_seq == row.phase_seq and game_row.deadline:
            kwargs["content"] = f"⏳ Closes {relative_time(game_row.deadline)}"
        try:
            await channel.send(**kwargs)
        except discord.HTTPException as exc:
            log.warning("game %s: channel message failed: %s", row.game_id, exc)
            return f"channel: {exc.status} {exc.code}"
        if event.pause:
            await asyncio.sleep(event.pause * self.bot.settings.pause_scale)
        return None

    async def _to_player(self, game_row, row: OutboxRow, embeds, files) -> str | None:
        assert row.recipient_id is not None
        try:
            user = self.bot.get_user(row.recipient_id) or await self.bot.fetch_user(row.recipient_id)
            # the same two buttons as the channel's phase messages: a player can choose from the DM
            await user.send(**message(embeds, files, phase_view(row.game_id)))
            return None
        except discord.Forbidden as exc:
            if exc.code == DM_CLOSED or exc.status == 403:
                await self._dm_closed_notice(game_row, row)
                return "dm closed"
            return f"dm: {exc.status} {exc.code}"
        except discord.HTTPException as exc:
            log.warning("game %s: DM to %s failed: %s", row.game_id, row.recipient_id, exc)
            return f"dm: {exc.status} {exc.code}"

    async def _to_thread(self, game_row, row: OutboxRow, embeds, files) -> str | None:
        """A private thread per player in the game's channel; the host (storyteller) is in each."""
        assert row.recipient_id is not None
        try:
            thread = await self._player_thread(game_row, row.recipient_id)
            await thread.send(**message(embeds, files, phase_view(row.game_id)))
            return None
        except discord.HTTPException as exc:
            log.warning("game %s: thread message to %s failed: %s", row.game_id, row.recipient_id, exc)
            return f"thread: {exc.status} {exc.code}"

    async def _to_group(self, game_row, row: OutboxRow, event: Event, embeds, files) -> str | None:
        """A private thread shared by a group of players (a whisper) and the host (storyteller)."""
        try:
            thread = await self._group_thread(game_row, event.audience.id,
                                              [int(m) for m in event.audience.members])
            await thread.send(**message(embeds, files))
            return None
        except discord.HTTPException as exc:
            log.warning("game %s: group thread %s failed: %s", row.game_id, event.audience.id, exc)
            return f"group: {exc.status} {exc.code}"

    async def _player_thread(self, game_row, user_id: int):
        """A player's own thread: the group of one."""
        return await self._group_thread(game_row, player_key(user_id), [user_id])

    async def _group_thread(self, game_row, key: str, members: list[int]):
        """The group's thread, opened on its first message and kept in the database by key;
        members who joined the group since are added. The host (storyteller) is in every one."""
        store = self.bot.store
        found = await store.group_thread(game_row.id, key)
        if found is not None:
            thread_id, known = found
            thread = self.bot.get_channel(thread_id) or await self.bot.fetch_channel(thread_id)
        else:
            channel = await self._channel(game_row.channel_id)
            names = dict(await store.lobby_players(game_row.id))
            title = ", ".join(names.get(m, "storyteller" if m == game_row.host_id else str(m))
                              for m in members)
            thread = await channel.create_thread(name=f"🔒 {title} · game {game_row.id}"[:100],
                                                 type=discord.ChannelType.private_thread, invitable=False)
            known = []
        new = [uid for uid in dict.fromkeys([*members, game_row.host_id]) if uid not in known]
        for uid in new:
            await thread.add_user(discord.Object(id=uid))
        if found is None or new:
            await store.set_group_thread(game_row.id, key, thread.id, [*known, *new])
        return thread

    async def _dm_closed_notice(self, game_row, row: OutboxRow) -> None:
        key = (row.game_id, row.recipient_id, row.phase_seq)
        if key in self._dm_notices:
            return
        self._dm_notices.add(key)
        channel = await self._channel(game_row.channel_id)
        await channel.send(
            f"<@{row.recipient_id}>, I couldn't send you a private message (your DMs are closed). "
            "Press **My hand** on the latest game message, or use `/game hand`, to see it.",
            view=phase_view(row.game_id),
            allowed_mentions=discord.AllowedMentions(users=True),
        )
