"""The channel's board and living slots: a commit's channel events as one message shown in beats
(added to the board while it is the channel's last message), a phase's opening message edited as
its clock moves ("closed" and no buttons once it is over), and a game's living messages (a vote
tally) edited in place and re-timed with the phase; a living line that names its phase
(``data["on_phase"]``, a day's ready count) is edited into that phase's message instead."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import discord

import games
from games.engine import Event, GameError, Prompt

from ..render import group_embeds
from ..service import phase_of_slot, phase_slot
from ..store import OutboxRow, Slot
from ..views import phase_view
from ._calls import Calls, classify, with_mentions
from ._ports import Bot
from ._reads import game_of, schedule_now, shared_now
from ._rules import (
    Schedule,
    beat_ends,
    calling,
    countdown,
    fits,
    phase_label,
    slot_countdown,
    turn_line,
    unit_payloads,
)


def phase_face(game_id: int, game_row, phase_seq: int | None, now: float,
               shared: list[Prompt] | None = None, label: str = "", schedule: Schedule | None = None) -> dict[str, Any]:
    """The countdown line and buttons of a phase's message: the phase's buttons while it is
    open, none once it is over (or when the message shows no phase)."""
    if phase_seq is None:
        return {"content": "", "view": None}
    content, still_open = countdown(game_row, phase_seq, now, label, schedule)
    view = phase_view(game_id, phase_seq, shared or []) if still_open else None
    return {"content": content, "view": view}


class Board:
    """``done`` marks rows delivered (and starts an opened phase's clock); ``pause`` waits out an
    event's pause between beats; ``close_prompts`` closes the players' private choices of a phase."""

    def __init__(self, bot: Bot, calls: Calls, done: Callable[..., Awaitable[None]],
                 pause: Callable[[Event], Awaitable[None]], close_prompts: Callable[[int, int], None]) -> None:
        self.bot = bot
        self.calls = calls
        self.done = done
        self.pause = pause
        self.close_prompts = close_prompts
        #: (game, message) -> the closed face a refresh last gave it: a second refresh that would
        #: close the same message the same way (two stages' refreshes caught up together, as after
        #: downtime or a shared dawn) makes no call; any other edit of the message forgets it
        self.closed_faces: dict[tuple[int, int], tuple[str, int]] = {}

    def beats(self, head: OutboxRow) -> int:
        """The steps a reveal is shown in: THEATRE_BEATS, or one when the token's budget is pressed
        (its edits would spend calls others wait for). A group already under way keeps its steps."""
        if head.parts_sent == 0 and self.calls.pacer.pressed():
            return 1
        return self.bot.settings.theatre_beats

    def forget(self, game_id: int) -> None:
        self.closed_faces = {k: v for k, v in self.closed_faces.items() if k[0] != game_id}

    async def deliver_group(self, unit: list[OutboxRow], level: int) -> None:
        """A commit's channel events as one message, shown in beats (a send or an edit, then edits
        after the game's longest pauses).

        While the game's board (the message that shows its latest events) is still the channel's
        last message and has room, the events are added to it by an edit, which also closes the
        phase it showed; otherwise they go as a new message, which becomes the board. A group in
        progress is kept as the slot ``group:<first id>``, so a restart goes on where it stopped."""
        head = unit[0]
        service = self.bot.service
        game_row, game = await game_of(service, head)
        events = [Event.model_validate(r.payload) for r in unit]
        ends = beat_ends(events, self.beats(head), self.bot.settings.theatre_cut_seconds)
        opener = next((r for r in unit if r.slot), None)
        try:
            channel = await self.calls.channel(game_row.channel_id, level)
        except Exception as exc:
            raise classify(exc, "channel") from exc
        where = ("channel", game_row.channel_id)
        store = self.bot.store
        group_key = f"group:{head.id}"
        kept = await store.slot(head.game_id, group_key) if head.parts_sent else None
        if kept is not None:  # resuming after a restart: the message and what it showed before
            message, base = channel.get_partial_message(kept.message_id), kept.shown or []
            in_place = bool(base)
        else:
            board = await store.slot(head.game_id, "board")
            in_place = (board is not None and board.shown is not None and not calling(events)
                        and getattr(channel, "last_message_id", None) == board.message_id
                        and fits([*board.shown, *unit_payloads(unit)]))
            message, base = None, []
            if in_place and board is not None and board.shown is not None:  # (what in_place says)
                message, base = channel.get_partial_message(board.message_id), board.shown
        shown_base = [Event.model_validate(p) for p in base]
        started_at = self.bot.clock.now()
        for beat in range(head.parts_sent, len(ends)):
            last = beat == len(ends) - 1
            showing = [*shown_base, *events[:ends[beat]]]
            kwargs: dict[str, Any] = {"embeds": group_embeds(showing, game.title, head.game_id)}
            if last and opener is not None:
                game_row = await service.row(head.game_id) or game_row
                started_at = self.bot.clock.now()
                kwargs |= phase_face(head.game_id, game_row, opener.phase_seq, started_at,
                                     await shared_now(service, game_row, opener.phase_seq), phase_label(showing),
                                     await schedule_now(service, game_row))
            elif message is not None and in_place:
                # narration added to the board: its phase's countdown and buttons stay while it is open
                game_row = await service.row(head.game_id) or game_row
                seq = await store.phase_of_message(head.game_id, message.id)
                kwargs |= phase_face(head.game_id, game_row, seq, self.bot.clock.now(),
                                     await shared_now(service, game_row, seq), phase_label(showing),
                                     await schedule_now(service, game_row))
            try:
                if message is not None:
                    self.closed_faces.pop((head.game_id, message.id), None)
                    try:
                        await self.calls.call(level, where, message.edit, **kwargs)
                    except discord.NotFound:
                        if beat != head.parts_sent or kept is not None:
                            raise
                        # the board was deleted (by a moderator): these events go as a new message
                        message, base, shown_base, in_place = None, [], [], False
                        kwargs["embeds"] = group_embeds(events[:ends[beat]], game.title, head.game_id)
                if message is None:
                    kwargs = with_mentions(kwargs, calling(events))
                    message = await self.calls.call(level, where, channel.send, nonce=f"o{head.id}p0", **kwargs)
            except Exception as exc:
                raise classify(exc, "channel") from exc
            if not last:
                if beat == head.parts_sent and kept is None:
                    await store.set_slot(head.game_id, group_key,
                                         Slot(channel.id, message.id, message.id, base))
                await store.mark_parts_sent(head.id, beat + 1)
                await self.pause(events[ends[beat] - 1])
        shown = [*base, *unit_payloads(unit)]
        slots = {"board": Slot(channel.id, message.id, message.id, shown)}
        if opener is not None:
            assert opener.slot is not None  # (a phase's opener names its phase's slot)
            slots[opener.slot] = Slot(channel.id, message.id, message.id)
        await store.set_slots(head.game_id, slots,
                              taken_over=message.id if in_place and opener is not None else None)
        await self.done(unit, started_at=started_at)
        await self.pause(events[-1])

    async def refresh(self, row: OutboxRow, level: int) -> None:
        """A refresh row: its phase's message edited to what the game row says now (``refresh_phase``)."""
        seq = phase_of_slot(row.slot) if row.slot is not None else None
        if seq is None:  # (refreshes are of phases' messages: ``service.refresh``)
            await self.done([row], "no message")
            return
        game_row, game = await game_of(self.bot.service, row)
        shown = await self.refresh_phase(game_row, game, seq, level)
        await self.done([row], None if shown else "no message")

    async def refresh_phase(self, game_row, game, seq: int, level: int) -> bool:
        """Edit a phase's message to what the game row says now: the countdown while the phase is
        open, "closed" and no buttons after (a refresh row's, and the phases a step closed:
        ``Drain._closing``). False when the phase has no message to edit (never posted, given up)."""
        store = self.bot.store
        game_id = game_row.id
        slot = await store.slot(game_id, phase_slot(seq))
        plan = await schedule_now(self.bot.service, game_row)
        if countdown(game_row, seq, 0.0, schedule=plan)[1] is False:
            # the prompts of every phase whose choices no longer stand
            self.close_prompts(game_id, max(seq, plan.since - 1) if plan is not None else seq)
        if slot is None and type(game).choices_since is not games.engine.Game.choices_since:
            # a stage with no message of its own (a forum game's night reminder stage) is shown on
            # the message of the stage before it: moved or closed, that message follows
            slot = await store.slot(game_id, phase_slot(seq - 1))
            seq -= 1
        if slot is None:  # never posted (or given up): nothing to edit
            return False
        board = await store.slot(game_id, "board")
        label = (phase_label([Event.model_validate(p) for p in board.shown])
                 if board is not None and board.shown and board.message_id == slot.message_id else "")
        content, still_open = countdown(game_row, seq, self.bot.clock.now(), label, plan)
        face = (game_id, slot.message_id)
        if not still_open and self.closed_faces.get(face) == (content, slot.last_message_id):
            return True  # closed so already: nothing to send
        channel = self.bot.get_partial_messageable(slot.channel_id)
        where = ("channel", slot.channel_id)
        call = self.calls.call
        try:
            if still_open:
                await call(level, where, channel.get_partial_message(slot.message_id).edit, content=content)
            elif slot.last_message_id == slot.message_id:
                await call(level, where, channel.get_partial_message(slot.message_id).edit,
                           content=content, view=None)
            else:
                await call(level, where, channel.get_partial_message(slot.message_id).edit, content=content)
                await call(level, where, channel.get_partial_message(slot.last_message_id).edit, view=None)
            if still_open:
                self.closed_faces.pop(face, None)
                await self.retime(game_id, game_row, game, level)
            else:
                self.closed_faces[face] = (content, slot.last_message_id)
        except Exception as exc:
            raise classify(exc, "channel") from exc
        return True

    async def retime(self, game_id: int, game_row, game, level: int) -> None:
        """The phase was moved, paused or resumed: the living messages that count down to its
        deadlines (``Game.timed_slots``: a forum day's tally) follow, so they agree with it."""
        if type(game).timed_slots is games.engine.Game.timed_slots:
            return  # the game has none (and its state need not be read)
        try:
            table = await self.bot.service.load(game_id)
        except GameError:
            return
        for event in game.timed_slots(table.state):
            slot = await self.bot.store.slot(game_id, f"game:{event.slot}")
            if slot is not None:
                await self.calls.call(level, ("channel", slot.channel_id),
                                      self.bot.get_partial_messageable(slot.channel_id).get_partial_message(
                                          slot.message_id).edit, content=slot_countdown(game_row, event))

    async def show_in_slot(self, row: OutboxRow, level: int) -> None:
        """A game's living message (a vote tally): edit it to this event; post it the first time,
        or again if it was deleted."""
        game_row, game = await game_of(self.bot.service, row)
        event = turn_line(game_row, Event.model_validate(row.payload))
        if isinstance(event.data.get("on_phase"), int) and await self.show_on_phase(row, event, game, level):
            return
        assert row.slot is not None  # (a living message's row names its slot: ``op="slot"``)
        await self.show(game_row, game, event, row.slot, f"o{row.id}p0", level)
        await self.done([row])

    async def show_living(self, game_row, game, face: Event, step: int, level: int) -> None:
        """A living message's face drawn from the game's state at ``step`` (``Game.living``), in
        its slot as a row's event would be."""
        await self.show(game_row, game, turn_line(game_row, face), f"game:{face.slot}",
                        f"L{game_row.id}s{step}", level)

    async def show(self, game_row, game, event: Event, slot_name: str, nonce: str, level: int) -> None:
        """Edit the living message ``slot_name`` to ``event``; post it the first time, or again if
        it was deleted (``nonce``: Discord's guard against posting it twice)."""
        embeds = group_embeds([event], game.title, game_row.id)
        content = slot_countdown(game_row, event)
        slot = await self.bot.store.slot(game_row.id, slot_name)
        try:
            channel = await self.calls.channel(game_row.channel_id, level)
            where = ("channel", channel.id)
            if slot is not None:
                try:
                    await self.calls.call(level, where, channel.get_partial_message(slot.message_id).edit,
                                          content=content, embeds=embeds)
                    return
                except discord.NotFound:
                    pass  # deleted: post it again
            message = await self.calls.call(level, where, channel.send, nonce=nonce,
                                            content=content or None, embeds=embeds)
        except Exception as exc:
            raise classify(exc, "channel") from exc
        await self.bot.store.set_slot(game_row.id, slot_name, Slot(channel.id, message.id, message.id))

    async def show_on_phase(self, row: OutboxRow, event: Event, game, level: int) -> bool:
        """A living line that belongs under its phase's buttons (``data["on_phase"]``: the phase's
        seq; a day's "2 of 5 ready"): shown in that phase's own message, the board, in place of
        the line it showed before, so it never scrolls away from the buttons. False when that
        message is not the board any more (or is gone): the line then goes as a message of its own."""
        store = self.bot.store
        phase = await store.slot(row.game_id, phase_slot(event.data["on_phase"]))
        board = await store.slot(row.game_id, "board")
        if phase is None or board is None or board.shown is None or board.message_id != phase.message_id:
            return False
        shown = list(board.shown)
        at = next((i for i, p in enumerate(shown) if p.get("slot") == event.slot), None)
        payload = event.model_dump(mode="json")
        if at is None:
            shown.append(payload)
        else:
            shown[at] = payload
        if not fits(shown):
            return False
        embeds = group_embeds([Event.model_validate(p) for p in shown], game.title, row.game_id)
        channel = self.bot.get_partial_messageable(board.channel_id)
        try:
            # embeds only: the countdown line and the buttons stay as they are
            await self.calls.call(level, ("channel", board.channel_id),
                                  channel.get_partial_message(board.message_id).edit, embeds=embeds)
        except discord.NotFound:
            return False
        except Exception as exc:
            raise classify(exc, "channel") from exc
        await store.set_slot(row.game_id, "board", Slot(board.channel_id, board.message_id,
                                                        board.last_message_id, shown))
        await self.done([row])
        return True
