"""The drain loop: per game, the pending outbox rows in delivery units, each sent by its job (the
board, one message, a slot), in order per destination, with back-off on a passing fault; and
``Delivery``, what the rest of the bot calls."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any

import discord

import games
from games.engine import Event, GameError

from ..edit_windows import EditWindows
from ..logs import game_scope
from ..pacer import COSMETIC, NARRATION, URGENT, Pacer
from ..service import UNDO, is_store_error
from ..store import OutboxRow
from ..voice.table import VOICE
from ._board import Board
from ._calls import Calls, classify
from ._ports import Bot
from ._private import Private, Ride
from ._rules import (
    GiveUp,
    Retry,
    counting,
    groupable,
    lane,
    line_key,
    line_may_wait,
    priority,
    restating,
    units,
)
from ._send import Sender
from ._threads import Threads

log = logging.getLogger(__name__)


class Delivery:
    """Sends each game's outbox. The jobs it composes: ``board`` (the channel's board and living
    slots), ``sender`` (a row as a message of its own), ``private`` (rides and open prompts) and
    ``threads`` (threads and permissions), every call going through ``calls``."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self._tasks: dict[int, asyncio.Task] = {}
        self._again: set[int] = set()
        self._retries: dict[int, asyncio.TimerHandle] = {}
        self._attempts: dict[int, int] = {}  # outbox row id -> failed attempts so far
        self._side: set[asyncio.Task] = set()  # edits that must not hold up the channel
        self._flying: set[int] = set()  # restating lines being sent beside the channel (row ids)
        #: a living line that only counts is edited at most once per ``living_edit_seconds``
        self.windows: EditWindows[tuple[int, str | None]] = EditWindows(lambda: self.bot.settings.living_edit_seconds)
        settings = bot.settings
        self.calls = Calls(bot, Pacer(settings.discord_calls_per_second, settings.channel_calls,
                                      settings.channel_window_seconds))
        self.threads = Threads(bot, self.calls)
        self.private = Private(bot, self.calls, self._beside)

        async def pause(event: Event) -> None:  # looked up at each pause: a test may replace it
            await self._pause(event)

        self.board = Board(bot, self.calls, self._done, pause, self.private.close_prompts)
        bot.voice.calls = self.calls  # the voice table's mutes go through the same pacer
        self.sender = Sender(bot, self.calls, self.threads, self.private, self._done, pause)
        self.idle = asyncio.Event()
        self.idle.set()

    @property
    def pacer(self) -> Pacer:
        """The one pacer of every call delivery makes (a test or a benchmark may put another)."""
        return self.calls.pacer

    @pacer.setter
    def pacer(self, pacer: Pacer) -> None:
        self.calls.pacer = pacer

    @property
    def retry_base(self) -> float:
        return self.bot.settings.delivery_retry_seconds

    # ----- what the rest of the bot calls -----
    def kick(self, game_id: int) -> None:
        """Make sure the game's pending messages are being delivered."""
        if self.calls.stopped:  # Discord refused the token: the rows wait in the outbox
            return
        self._again.add(game_id)
        task = self._tasks.get(game_id)
        if task is None or task.done():
            self.idle.clear()
            self._tasks[game_id] = asyncio.get_running_loop().create_task(self._drain(game_id))

    async def kick_pending(self) -> int:
        """Kick every game with undelivered rows (start-up and the periodic sweep)."""
        pending = await self.bot.store.games_with_pending_messages(shards=self.bot.service.shards)
        for game_id in pending:
            self.kick(game_id)  # a game backing off tries now too: the sweep is rarer than the cap
        return len(pending)

    async def drain_all(self) -> None:
        await self.kick_pending()
        await self.wait_idle()

    async def wait_idle(self) -> None:
        """Wait for the deliveries under way (not for retries that are backing off)."""
        while any(not t.done() for t in self._under_way()):
            await asyncio.gather(*[t for t in self._under_way() if not t.done()], return_exceptions=True)

    def _under_way(self) -> list[asyncio.Task]:
        """The drains, the edits beside them, and the voice table's trailing mutes."""
        return [*self._tasks.values(), *self._side, *self.bot.voice.under_way()]

    @property
    def backing_off(self) -> set[int]:
        """The games whose delivery waits for a retry."""
        return set(self._retries)

    def forget(self, game_id: int) -> None:
        """The game is over: drop what was kept for its notices (its last messages still go; what
        its nights changed on Discord is undone by the ``undo`` row written with its end)."""
        self.private.forget(game_id)
        self.threads.forget(game_id)
        self.board.forget(game_id)
        self.windows.forget(lambda key: key[0] == game_id)

    @property
    def rides(self) -> dict[int, Ride]:
        """User id -> their latest interaction still open (``Private.rides``)."""
        return self.private.rides

    @property
    def prompts(self) -> dict:
        """(game, user, message) -> a private message of open choices (``Private.prompts``)."""
        return self.private.prompts

    def note_interaction(self, interaction: discord.Interaction) -> None:
        self.private.note_interaction(interaction)

    def note_prompt(self, game_id: int, phase_seq: int, interaction: discord.Interaction, message_id: int) -> None:
        self.private.note_prompt(game_id, phase_seq, interaction, message_id)

    def forget_prompt(self, game_id: int, user_id: int, message_id: int) -> None:
        self.private.forget_prompt(game_id, user_id, message_id)

    async def sync_storytellers(self, game_id: int, removed: int | None = None) -> None:
        await self.threads.sync_storytellers(game_id, removed)

    async def _group_thread(self, game_row, key: str, members: list[int], level: int = URGENT):
        """A group's private thread, opened if need be (``Threads.group_thread``; the offline
        table's tests open a player's thread through it)."""
        return await self.threads.group_thread(game_row, key, members, level)

    # ----- the drain loop -----
    def _beside(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` beside the channel's delivery (``wait_idle`` waits for it too)."""
        task = asyncio.get_running_loop().create_task(work)
        self._side.add(task)
        task.add_done_callback(self._side.discard)

    def _retry_later(self, game_id: int, delay: float) -> None:
        old = self._retries.pop(game_id, None)
        if old is not None:
            old.cancel()

        def again() -> None:
            self._retries.pop(game_id, None)
            self.kick(game_id)

        self._retries[game_id] = asyncio.get_running_loop().call_later(delay, again)

    def _hold(self, row: OutboxRow, alone: bool) -> bool:
        """Whether a living line waits for its window to end, so a burst of clicks is one edit:
        only a line that counts, and only while nothing comes after it in the channel. The
        window's end kicks the game again, and the newest text of the line goes (the older rows
        of its slot are superseded by then)."""
        return alone and counting(row) and self.windows.wait((row.game_id, row.slot),
                                                             lambda: self.kick(row.game_id))

    def _shown(self, row: OutboxRow) -> None:
        """A living line was edited: a line that counts starts its window now; one that called
        someone starts none, so the line after it (the end of the speaking turns) shows at once."""
        key = (row.game_id, row.slot)
        if counting(row):
            self.windows.edited(key)
        else:
            self.windows.clear(key)

    def _send_line(self, row: OutboxRow, level: int) -> None:
        """Send the newest restating line beside the channel: whether one was held (a teammate
        changed their mind in the last seconds) must not move the channel's next message by the
        time a DM takes. Its player's next messages wait for it."""
        self.windows.let_go(line_key(row))
        self._flying.add(row.id)

        async def send() -> None:
            try:
                try:
                    await self.sender.deliver(row, level)
                except GiveUp as exc:
                    log.warning("game %s: message %s given up: %s", row.game_id, row.id, exc.reason)
                    await self._done([row], exc.reason)
            except Exception as exc:  # Retry, or the database: its player's lane waits for the retry
                delay = self._backoff(row.id)
                log.warning("game %s: message %s not delivered (%s); retry in %.1f s", row.game_id, row.id,
                            getattr(exc, "reason", exc), delay)
                self._flying.discard(row.id)
                self._retry_later(row.game_id, delay)
                return
            self._attempts.pop(row.id, None)
            self._flying.discard(row.id)
            self.kick(row.game_id)  # its player's next messages, if any

        self._beside(send())

    def _backoff(self, row_id: int) -> float:
        attempts = self._attempts[row_id] = self._attempts.get(row_id, 0) + 1
        return min(self.retry_base * 2 ** (attempts - 1), self.bot.settings.delivery_retry_max_seconds)

    @game_scope  # its log lines carry the game
    async def _drain(self, game_id: int) -> None:
        store = self.bot.store
        try:
            while game_id in self._again:
                self._again.discard(game_id)
                pending = await store.pending_messages(game_id)
                # destinations held up by a refused row, or by a line being sent beside the channel
                waiting: set[tuple] = {lane(r) for r in pending if r.id in self._flying}
                next_try: float | None = None
                found, superseded = units(pending)
                superseded = [r for r in superseded if r.id not in self._flying]
                if superseded:
                    await store.mark_all_delivered([r.id for r in superseded], self.bot.clock.now(),
                                                   "superseded")
                # a unit goes with the urgency of the most urgent unit behind it, which it holds up
                urgency = [priority(u) for u in found]
                for i in range(len(found) - 2, -1, -1):
                    urgency[i] = min(urgency[i], urgency[i + 1])
                lanes = [lane(u[0]) for u in found]
                for index, (unit, level) in enumerate(zip(found, urgency, strict=True)):
                    head = unit[0]
                    try:
                        if head.target == "channel":  # first, even while the channel waits
                            await self.threads.hand_over_seats(unit)
                        if lane(head) in waiting:
                            continue
                        if restating(head):
                            later = [r for u in found[index + 1:] for r in u]
                            if not (line_may_wait(head, later) and self.windows.hold(
                                    line_key(head), lambda: self.kick(game_id))):
                                self._send_line(head, level)
                                waiting.add(lane(head))
                            continue
                        if head.target == VOICE:
                            await self._voice(head)
                        elif head.target == UNDO:
                            await self._undo(head)
                        elif head.op == "refresh":
                            await self.board.refresh(head, level)
                        elif head.op == "slot":
                            if self._hold(head, lane(head) not in lanes[index + 1:]):
                                continue
                            await self.board.show_in_slot(head, level)
                            self._shown(head)
                        elif groupable(head):
                            await self.board.deliver_group(unit, level)
                        else:
                            await self.sender.deliver(head, level)
                    except Retry as exc:
                        delay = self._backoff(head.id)
                        log.warning("game %s: message %s not delivered (%s); retry %d in %.1f s",
                                    game_id, head.id, exc.reason, self._attempts[head.id], delay)
                        if exc.permission:
                            await self.threads.tell_host_about_permission(game_id, head, exc)
                        waiting.add(lane(head))
                        next_try = delay if next_try is None else min(next_try, delay)
                        continue
                    except GiveUp as exc:
                        log.warning("game %s: message %s given up: %s", game_id, head.id, exc.reason)
                        await self._done(unit, exc.reason)
                    self._attempts.pop(head.id, None)
                if ("channel", None) not in waiting:  # (after what the channel waits for, in its order)
                    try:
                        await self._closing(game_id)
                        await self._living(game_id)
                        self._attempts.pop(-game_id, None)
                    except Retry as exc:
                        delay = self._backoff(-game_id)  # (its attempts apart from any row's id)
                        log.warning("game %s: its closed phases or living messages not shown (%s); retry in %.1f s",
                                    game_id, exc.reason, delay)
                        next_try = delay if next_try is None else min(next_try, delay)
                if next_try is not None:
                    self._retry_later(game_id, next_try)
                    return
        except Exception as exc:  # the database itself (locked, read-only...): try again later
            log.warning("game %s: delivery interrupted (%s); retrying", game_id, exc,
                        exc_info=not is_store_error(exc))
            self._retry_later(game_id, self.bot.settings.delivery_retry_max_seconds / 10)
        finally:
            if self._tasks.get(game_id) is asyncio.current_task():
                del self._tasks[game_id]
            if not any(not t.done() for t in self._tasks.values()):
                self.idle.set()

    async def _closing(self, game_id: int) -> None:
        """Close the messages of the phases the game's steps closed (its row marked: ``closed_from``,
        up to the current phase), as a refresh row of each would: "closed", no buttons, their
        prompts closed. Then clear the mark, unless a later phase has begun meanwhile."""
        service = self.bot.service
        game_row = await service.row(game_id)
        if game_row is None or game_row.closed_from is None:
            return
        game = games.get(game_row.kind)
        for seq in range(game_row.closed_from, game_row.phase_seq):
            try:
                await self.board.refresh_phase(game_row, game, seq, COSMETIC)
            except GiveUp as exc:  # (the message is gone: as a given-up row is marked, it is passed)
                log.warning("game %s: phase %s's message not closed: %s", game_id, seq, exc.reason)
        await service.phases_closed(game_id, game_row.phase_seq)

    async def _living(self, game_id: int) -> None:
        """Draw the game's living messages (a day's tally) from its committed state when a step
        marked its row (``live_step``), then clear the mark. A burst of steps is drawn once: after
        the window of the last edit (``EditWindows``), from the newest state."""
        service = self.bot.service
        game_row = await service.row(game_id)
        if game_row is None or game_row.live_step is None:
            return
        try:
            table = await service.load(game_id)
        except GameError:  # over or cancelled: its end gave its living messages their last faces
            await service.living_drawn(game_id, game_row.live_step)
            return
        faces = table.game.living(table.state)
        if any(self.windows.wait((game_id, f"game:{face.slot}"), lambda: self.kick(game_id)) for face in faces):
            return  # the last edit's window is still open: its end kicks the game again
        step = table.state.step
        try:
            for face in faces:
                await self.board.show_living(table.row, table.game, face, step, NARRATION)
                self.windows.edited((game_id, f"game:{face.slot}"))
        except GiveUp as exc:  # (the channel is gone: the mark is cleared, as a given-up row is marked)
            log.warning("game %s: its living messages given up: %s", game_id, exc.reason)
        await service.living_drawn(game_id, step)

    async def _voice(self, row: OutboxRow) -> None:
        """A voice row: the linked channel's mutes made to match its step (``VoiceTable.sync``)."""
        try:
            await self.bot.voice.sync(row)
        except Exception as exc:
            if is_store_error(exc):
                raise
            raise classify(exc, "voice") from exc
        await self._done([row])

    async def _undo(self, row: OutboxRow) -> None:
        """An undo row: what the game's nights changed on Discord, undone (``Threads.undo``); a
        row of a game another process owns stays for its owner."""
        try:
            ours = await self.threads.undo(row)
        except (Retry, GiveUp):
            raise
        except Exception as exc:
            if is_store_error(exc):
                raise
            raise classify(exc, "undo") from exc
        if ours:
            await self._done([row])

    async def _done(self, unit: list[OutboxRow], failure: str | None = None,
                    started_at: float | None = None) -> None:
        """Mark a unit delivered; if it opened a phase, the phase's clock starts (from
        ``started_at``, when it was posted; a given-up opener starts it too, so no game waits forever)."""
        ids = [r.id for r in unit]
        opener = next((r for r in unit if r.slot and r.op == "send"), None)
        now = self.bot.clock.now()
        if opener is None:
            await self.bot.store.mark_all_delivered(ids, now, failure)
        else:
            if failure is not None:
                await self.bot.store.mark_all_delivered(ids, now, failure)
                ids = []
            await self.bot.service.start_clock(opener.game_id, opener.phase_seq,
                                               now if started_at is None else started_at, ids)
        spoken = [r for r in unit if r.target == "channel" and r.payload.get("say")]
        if spoken and failure is None:
            try:  # tagged: a line of a phase passed, or of a living line replaced, is not said late
                await self.bot.voice.narrate(unit[0].game_id, [r.payload["say"] for r in spoken],
                                             phase_seq=max(r.phase_seq for r in spoken),
                                             slots=[r.slot if r.op == "slot" else None for r in spoken])
            except Exception as exc:  # best effort: the words are on the channel
                log.warning("game %s: not said aloud: %s", unit[0].game_id, exc)
        talk = next((r for r in unit if r.target == "channel" and (r.payload.get("data") or {}).get("talk")), None)
        if talk is not None and failure is None:
            try:
                await self.threads.set_talk(talk)
            except Exception as exc:  # best effort: the message said talk is closed
                log.warning("game %s: talk not %s: %s", talk.game_id, talk.payload["data"]["talk"], exc)

    async def _pause(self, event: Event) -> None:
        """The theatre's pause after an event in the channel (``Event.pause``, scaled)."""
        if event.pause:
            await asyncio.sleep(event.pause * self.bot.settings.pause_scale)
