"""Delivers the outbox: public events to the game's channel, private ones by DM (with the
same "Make my choice" and "My hand" buttons, so a player can act from the DM) or to private threads.

Rows are delivered in order per destination (the channel, each player's DM or thread, each group
thread) and marked delivered only after Discord accepted them, so
a crash between commit and send re-sends after restart rather than losing a message; each send
carries a nonce made from the outbox id, so Discord drops the second copy of such a re-send.

What Discord refuses is sorted by whether trying again can help:
- a passing fault (5xx, a rate limit, the network) keeps the row pending and is retried with
  back-off, across restarts too; the rows behind it for the same destination wait, so order holds,
  and other destinations go on: a private message that waits never delays the channel, whose
  timing would otherwise tell everyone that someone was just sent a secret;
- a missing permission also stays pending, and the host is told in words what to grant;
- only what cannot change is given up (a closed DM, a deleted channel, a malformed message), with
  the game id in the log.
A closed DM is never a dead end: the player can press "My hand", which answers ephemerally. The
channel is told about closed DMs only for the deal, when every player gets a private message,
so the notice never reveals who was just sent a secret.
"""

from __future__ import annotations

import asyncio
import io
import logging
from typing import TYPE_CHECKING, Any

import aiohttp
import discord

import games
from games.engine import Event

from .render import message_parts, relative_time
from .store import OutboxRow
from .views import phase_view

if TYPE_CHECKING:
    from .client import StorytellerBot

log = logging.getLogger(__name__)

DM_CLOSED = 50007
#: Discord's codes for a permission the bot lacks where it tried to post
MISSING_ACCESS, MISSING_PERMISSIONS = 50001, 50013
#: the step that deals the game: its private messages go to every player at once
DEAL_STEP = 0


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


class Retry(Exception):
    """Discord refused for now: keep the row and try again later."""

    def __init__(self, reason: str, *, permission: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.permission = permission


class GiveUp(Exception):
    """Discord refused for a reason that will not change: the row is closed with this reason."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def lane(row: OutboxRow) -> tuple:
    """The destination whose order a row keeps: the channel, one player's DM or thread, one group."""
    if row.target == "group":
        return ("group", row.payload.get("audience", {}).get("id"))
    return (row.target, row.recipient_id)


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


class Delivery:
    def __init__(self, bot: StorytellerBot) -> None:
        self.bot = bot
        self._tasks: dict[int, asyncio.Task] = {}
        self._again: set[int] = set()
        self._retries: dict[int, asyncio.TimerHandle] = {}
        self._attempts: dict[int, int] = {}  # outbox row id -> failed attempts so far
        self._dm_notices: set[tuple[int, int]] = set()  # (game, player) told about closed DMs
        self._told_host: set[tuple[int, str]] = set()  # (game, target) permission problems told
        self.idle = asyncio.Event()
        self.idle.set()

    @property
    def retry_base(self) -> float:
        return self.bot.settings.delivery_retry_seconds

    def kick(self, game_id: int) -> None:
        """Make sure the game's pending messages are being delivered."""
        self._again.add(game_id)
        task = self._tasks.get(game_id)
        if task is None or task.done():
            self.idle.clear()
            self._tasks[game_id] = asyncio.get_running_loop().create_task(self._drain(game_id))

    async def kick_pending(self) -> int:
        """Kick every game with undelivered rows (start-up and the periodic sweep)."""
        pending = await self.bot.store.games_with_pending_messages()
        for game_id in pending:
            self.kick(game_id)  # a game backing off tries now too: the sweep is rarer than the cap
        return len(pending)

    async def drain_all(self) -> None:
        await self.kick_pending()
        await self.wait_idle()

    async def wait_idle(self) -> None:
        """Wait for the deliveries under way (not for retries that are backing off)."""
        while any(not t.done() for t in self._tasks.values()):
            await asyncio.gather(*[t for t in self._tasks.values() if not t.done()],
                                 return_exceptions=True)

    @property
    def backing_off(self) -> set[int]:
        """The games whose delivery waits for a retry."""
        return set(self._retries)

    def forget(self, game_id: int) -> None:
        """The game is over: drop what was kept for its notices (its last messages still go)."""
        self._dm_notices = {k for k in self._dm_notices if k[0] != game_id}
        self._told_host = {k for k in self._told_host if k[0] != game_id}

    def _retry_later(self, game_id: int, delay: float) -> None:
        old = self._retries.pop(game_id, None)
        if old is not None:
            old.cancel()

        def again() -> None:
            self._retries.pop(game_id, None)
            self.kick(game_id)

        self._retries[game_id] = asyncio.get_running_loop().call_later(delay, again)

    def _backoff(self, row_id: int) -> float:
        attempts = self._attempts[row_id] = self._attempts.get(row_id, 0) + 1
        return min(self.retry_base * 2 ** (attempts - 1), self.bot.settings.delivery_retry_max_seconds)

    async def _drain(self, game_id: int) -> None:
        store = self.bot.store
        try:
            while game_id in self._again:
                self._again.discard(game_id)
                waiting: set[tuple] = set()  # destinations held up by a refused row
                next_try: float | None = None
                for row in await store.pending_messages(game_id):
                    if lane(row) in waiting:
                        continue
                    try:
                        await self._deliver(row)
                    except Retry as exc:
                        delay = self._backoff(row.id)
                        log.warning("game %s: message %s not delivered (%s); retry %d in %.1f s",
                                    game_id, row.id, exc.reason, self._attempts[row.id], delay)
                        if exc.permission:
                            await self._tell_host_about_permission(game_id, row, exc)
                        waiting.add(lane(row))
                        next_try = delay if next_try is None else min(next_try, delay)
                        continue
                    except GiveUp as exc:
                        log.warning("game %s: message %s given up: %s", game_id, row.id, exc.reason)
                        await store.mark_delivered(row.id, self.bot.clock.now(), exc.reason)
                    else:
                        await store.mark_delivered(row.id, self.bot.clock.now())
                    self._attempts.pop(row.id, None)
                if next_try is not None:
                    self._retry_later(game_id, next_try)
                    return
        except Exception as exc:  # the database itself (locked, read-only...): try again later
            log.warning("game %s: delivery interrupted (%s); retrying", game_id, exc)
            self._retry_later(game_id, self.bot.settings.delivery_retry_max_seconds / 10)
        finally:
            if self._tasks.get(game_id) is asyncio.current_task():
                del self._tasks[game_id]
            if not any(not t.done() for t in self._tasks.values()):
                self.idle.set()

    # ----- one row -----
    async def _deliver(self, row: OutboxRow) -> None:
        """Send every part of one row not yet accepted; raise Retry or GiveUp when Discord refuses."""
        event = Event.model_validate(row.payload)
        game_row = await self.bot.service.row(row.game_id)
        if game_row is None:
            raise GiveUp("game gone")
        game = games.get(game_row.kind)
        target = row.target if row.target != "dm" or not game.private_threads else "thread"
        try:
            destination = await self._destination(game_row, row, event, target)
        except (Retry, GiveUp):
            raise
        except Exception as exc:
            raise classify(exc, target) from exc
        parts = message_parts(event, game.title, row.game_id)
        image = row.image
        if image is None and row.picture is not None:
            # drawn here, in a worker thread (Pillow releases the GIL): no table waits for it
            image = await asyncio.to_thread(game.draw, row.picture)
        for index in range(row.parts_sent, len(parts)):
            last = index == len(parts) - 1
            kwargs = self._part(game_row, row, event, target, parts[index], image, first=index == 0, last=last)
            try:
                await destination.send(nonce=f"o{row.id}p{index}", **kwargs)
            except Exception as exc:
                failure = classify(exc, target)
                if isinstance(failure, GiveUp) and failure.reason == "dm closed":
                    await self._dm_closed_notice(game_row, row)
                if target == "dm" and isinstance(exc, discord.NotFound):
                    # the kept DM channel is gone: forget it, and open a new one on the retry
                    await self.bot.store.forget_dm_channel(row.recipient_id)
                    failure = Retry(f"dm: channel gone ({exc.code})")
                raise failure from exc
            if not last:
                await self.bot.store.mark_parts_sent(row.id, index + 1)
        if event.pause and row.target == "channel":
            await asyncio.sleep(event.pause * self.bot.settings.pause_scale)

    def _part(self, game_row, row: OutboxRow, event: Event, target: str, embed: discord.Embed,
              image: bytes | None, *, first: bool, last: bool) -> dict[str, Any]:
        """One Discord message of a row: the countdown on the first, the picture and buttons on the last."""
        files = []
        if last and image:
            files.append(discord.File(io.BytesIO(image), filename="picture.png"))
            embed.set_image(url="attachment://picture.png")
        view = None
        if last and (target in ("dm", "thread") or (target == "channel" and event.opens_phase)):
            view = phase_view(row.game_id)
        kwargs = message([embed], files, view)
        if (first and target == "channel" and event.opens_phase and game_row.phase_seq == row.phase_seq
                and game_row.deadline):
            kwargs["content"] = f"⏳ Closes {relative_time(game_row.deadline)}"
        return kwargs

    async def _destination(self, game_row, row: OutboxRow, event: Event, target: str):
        if target == "channel":
            return await self._channel(game_row.channel_id)
        if target == "group":
            return await self._group_thread(game_row, event.audience.id,
                                            [int(m) for m in event.audience.members])
        assert row.recipient_id is not None
        if target == "thread":
            return await self._player_thread(game_row, row.recipient_id)
        return await self._dm(row.recipient_id)

    async def _dm(self, user_id: int) -> discord.PartialMessageable:
        """The player's DM channel, opened once and then kept in the database: each private
        message is one call to Discord."""
        channel_id = await self.bot.store.dm_channel(user_id)
        if channel_id is None:
            channel = await self.bot.create_dm(discord.Object(id=user_id))
            channel_id = channel.id
            await self.bot.store.set_dm_channel(user_id, channel_id)
        return self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private)

    async def _channel(self, channel_id: int):
        channel = self.bot.get_channel(channel_id)
        if channel is None:
            channel = await self.bot.fetch_channel(channel_id)
        return channel

    async def _player_thread(self, game_row, user_id: int):
        """A player's own thread: the group of one."""
        return await self._group_thread(game_row, player_key(user_id), [user_id])

    async def _group_thread(self, game_row, key: str, members: list[int]):
        """The group's thread, opened on its first message and kept in the database by key;
        members who joined the group since are added. The host (storyteller) is in every one.
        The thread is recorded as soon as it exists, so a retry after a failed add reuses it."""
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
            await store.set_group_thread(game_row.id, key, thread.id, known)
        added = list(known)
        for uid in dict.fromkeys([*members, game_row.host_id]):
            if uid not in added:
                await thread.add_user(discord.Object(id=uid))
                added.append(uid)
        if added != known:
            await store.set_group_thread(game_row.id, key, thread.id, added)
        return thread

    # ----- telling people what went wrong, with no secret in it -----
    async def _dm_closed_notice(self, game_row, row: OutboxRow) -> None:
        """At the deal only, one notice per player per game: every player gets a private message
        then, so the notice says nothing about what the game is doing in secret."""
        key = (row.game_id, row.recipient_id)
        if row.step != DEAL_STEP or key in self._dm_notices:
            return
        self._dm_notices.add(key)
        try:
            channel = await self._channel(game_row.channel_id)
            await channel.send(
                f"<@{row.recipient_id}>, I couldn't send you a private message (your DMs are closed). "
                "Press **My hand** on the latest game message, or use `/game hand`, to see your role "
                "and everything you learn during the game.",
                view=phase_view(row.game_id),
                allowed_mentions=discord.AllowedMentions(users=True),
            )
        except Exception as exc:
            log.warning("game %s: closed-DM notice for %s failed: %s", row.game_id, row.recipient_id, exc)

    async def _tell_host_about_permission(self, game_id: int, row: OutboxRow, exc: Retry) -> None:
        """Tell the host, once per game and kind of place, which permission to grant."""
        game_row = await self.bot.store.game(game_id)
        if game_row is None or (row.target == "dm" and not games.get(game_row.kind).private_threads):
            return  # a DM refused for a reason other than closed DMs: nothing the host can grant
        where = "thread" if row.target in ("group", "dm") else row.target
        if (game_id, where) in self._told_host:
            return
        self._told_host.add((game_id, where))
        if where == "thread":
            needed = "Create Private Threads, Send Messages in Threads and Manage Threads"
        else:
            needed = "View Channel, Send Messages, Embed Links, Attach Files and Read Message History"
        text = (f"I can't post the messages of game #{game_id} in <#{game_row.channel_id}>: Discord "
                f"says I lack a permission there. Please give me {needed} in that channel. Nothing "
                "is lost: the game's messages are kept and go out, in order, as soon as I can post.")
        try:
            await (await self._dm(game_row.host_id)).send(text)
        except Exception as dm_exc:
            log.error("game %s: missing permission in channel %s (%s), and the host could not be told "
                      "(%s)", game_id, game_row.channel_id, exc.reason, dm_exc)
