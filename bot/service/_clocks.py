"""The clocks: a phase's deadline, its reminder and its speaking turn as the timers fire them,
the sweep of overdue phases and the re-arming at start-up, the opener that starts a phase's
clock, and a moderator's pause, resume, extend, shorten and skip."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

from games.engine import GameError, IllegalAction, public

from .. import deadlines
from ..actor import Actor
from ..deadlines import SLACK, Deadlines
from ..store import GameRow, MovedOn, NewMessage, StoreRefused
from ._core import ServiceCore, Table
from ._outbox import phase_slot, refresh
from ._refusals import GameMovedOn, NotSaved, is_store_error

#: one logger for the whole service, named as before the cut (operators filter on it)
log = logging.getLogger(__package__)


@dataclass(frozen=True)
class TimerChange:
    """Where a phase's timer stands after pause, resume, extend or shorten."""

    deadline: float | None  # the closing time while running; None while paused or without a timer
    paused: bool
    remaining: float | None  # seconds left while paused (None: the phase has no timer)
    #: the phase's seconds while its clock waits for its message to be posted
    waiting: float | None = None
    #: which phase, in words ("the Council")
    phase: str = "the phase"

    @classmethod
    def of(cls, d: Deadlines, phase: str) -> TimerChange:
        return cls(d.close, d.paused, d.remaining, d.waiting, phase)



#: a moderator's notice to the table about the timer, worded from where the timer stands
Notice = Callable[[TimerChange], str]


class Clocks(ServiceCore):
    """A game's clocks as the service applies them (``bot.deadlines`` holds their rules): the
    timers' callbacks, the sweep, re-arming, and a moderator's pause, resume, extend and skip."""

    #: how long after a failed timeout (a locked, read-only or full database) it is tried again
    RETRY_SECONDS = 5.0
    #: how long a sweep's claim on an overdue phase keeps other processes off it
    CLAIM_SECONDS = 60.0
    #: the most overdue phases one timeout closes in a row (the sweep goes on from there)
    CHAIN_LIMIT = 50

    # ----- what the timers call -----
    async def on_deadline(self, game_id: int, phase_seq: int) -> bool:
        """A phase's deadline passed: close it, and each next phase already overdue too (a fixed
        schedule after downtime), in order, each in its own transaction with its messages. Stale
        or paused timers do nothing.

        The chain is closed here, not by a timer: a job armed under this job's name while it runs
        is skipped by the scheduler, which left the rest of the chain to the sweep.
        Never raises: a timeout the database refuses (locked, read-only, full) is logged and tried
        again in ``RETRY_SECONDS``; the minute sweep (``sweep``) is the net under any lost job.
        Returns whether a phase was closed.
        """
        closed = 0
        try:
            async with self.lock(game_id):
                while closed < self.CHAIN_LIMIT:
                    row = await self.store.game(game_id)
                    if row is None or row.status != "running" or row.phase_seq != phase_seq:
                        break
                    clocks = row.deadlines
                    if clocks.paused or clocks.close is None:
                        break
                    if not clocks.due(self.clock.now(), SLACK):  # extended meanwhile, or not due yet: re-arm
                        self.timers.arm(game_id, row.phase_seq, clocks.close)
                        break
                    if self.shards is not None:  # another process may have committed to it (a DM click)
                        self._cache.pop(game_id, None)
                    outcome = await self._apply(game_id, None, {"type": "phase_timeout", "phase_seq": phase_seq},
                                                anchor=clocks.close)
                    closed += 1
                    if outcome.state.phase_seq == phase_seq:
                        break
                    phase_seq = outcome.state.phase_seq
                return closed > 0
        except GameError as exc:
            if not isinstance(exc, NotSaved):
                log.warning("game %s: timeout of phase %s refused: %s", game_id, phase_seq, exc)
                return closed > 0
            cause: BaseException = exc.__cause__ or exc
        except Exception as exc:
            cause = exc
        # the database refused (or a bug): the traceback only for what is not the database
        log.warning("game %s: timeout of phase %s failed (%s); retrying in %.0f s", game_id, phase_seq,
                    cause, self.RETRY_SECONDS, exc_info=not is_store_error(cause))
        self.timers.retry(game_id, phase_seq, self.RETRY_SECONDS)
        return closed > 0

    async def on_reminder(self, game_id: int, phase_seq: int) -> bool:
        """The game has been quiet for its ``reminder_seconds``: tell the table what the game
        says (a mention of the player it waits for). Once per quiet stretch; never raises (a
        reminder the database refuses stays due, and the minute sweep tries it again). The
        reminder is the game's, not a phase's (``phase_seq``, the phase it was armed in, is not
        looked at): its job is kept from turn to turn, and it reminds of the phase the game is in."""
        try:
            async with self.lock(game_id):
                row = await self.store.game(game_id)
                if row is None or row.status != "running":
                    return False
                phase_seq = row.phase_seq
                clocks = row.deadlines
                if clocks.paused or clocks.remind_at is None:
                    return False
                now = self.clock.now()
                if not clocks.reminder_due(now):  # moved meanwhile
                    self.timers.arm_reminder(game_id, phase_seq, clocks.remind_at)
                    return False
                table = await self.load(game_id)
                seconds = table.game.reminder_seconds(table.state)
                due_at = deadlines.reminder_after(clocks, await self.store.last_change(game_id), seconds)
                self._cache.pop(game_id, None)
                self._bump(game_id)
                if due_at is not None and due_at > now + SLACK:  # something happened: the quiet counts from it
                    await self.store.move_reminder(game_id, phase_seq, due_at)
                    self.timers.arm_reminder(game_id, phase_seq, due_at)
                    return False
                # (a phase that calls no one again says nothing: its reminder is only cleared, so no
                # sweep finds it due again)
                said = table.game.remind(table.state) if seconds else []
                messages = self.messages(row, table.game, table.state, said)
                sent = await self.store.remind(game_id, phase_seq, messages, now,
                                               quiet_since=now + SLACK - seconds if seconds else None)
        except Exception as exc:
            log.warning("game %s: reminder of phase %s failed (%s)", game_id, phase_seq, exc,
                        exc_info=not is_store_error(exc))
            return False
        if sent and messages:
            self._messages_ready(game_id)
        return sent

    async def on_turn(self, game_id: int, phase_seq: int) -> bool:
        """The speaking turn's seconds passed: the floor goes to the next speaker (``TurnOver``),
        whose turn starts when this one was due to end. Turns that ran out meanwhile (the bot was
        down) are over too, each in its own step, delivered together: the turn due now runs, with
        what is left of it (``Deadlines.turn_due``). Never raises: a refused write leaves the turn
        due, and the minute sweep tries again."""
        moved = False
        try:
            with self.held_notifications():  # the turns long past are never shown or said
                async with self.lock(game_id):
                    while True:
                        row = await self.store.game(game_id)
                        if row is None or row.status != "running" or row.phase_seq != phase_seq:
                            return moved
                        clocks = row.deadlines
                        if clocks.paused or clocks.turn_ends is None:
                            return moved
                        if not clocks.turn_due(self.clock.now()):  # the turn moved meanwhile
                            self.timers.arm_turn(game_id, phase_seq, clocks.turn_ends)
                            return moved
                        if not await self._turn_over(game_id, None, since=clocks.turn_ends):
                            return moved
                        moved = True
        except Exception as exc:
            log.warning("game %s: the speaking turn of phase %s did not move on (%s)", game_id, phase_seq, exc,
                        exc_info=not is_store_error(exc) and not isinstance(exc, GameError))
            return moved

    async def _turn_over(self, game_id: int, actor_id: int | None, since: float | None = None) -> bool:
        """Give the floor to the next speaker; the caller holds the game's lock. ``since``: when
        the turn was due to end (its clock ran out), else the next turn starts now."""
        table = await self.load(game_id)
        turn = table.game.speaking_turn(table.state)
        if turn is None:
            return False
        await self._apply(game_id, actor_id, {"type": "turn_over", "phase_seq": table.state.phase_seq,
                                              "turn": turn.index}, turn_since=since)
        return True

    async def skip_turn(self, game_id: int, actor: Actor) -> str:
        """A moderator ends the current speaking turn now; returns the name of the one who had the floor."""
        async with self.lock(game_id):
            table = await self._moderated(game_id, actor)
            turn = table.game.speaking_turn(table.state)
            if turn is None:
                raise IllegalAction("No one has a speaking turn right now.", code="no_turn")
            await self._turn_over(game_id, actor.id)
            return table.state.name(turn.speaker)

    async def start_clock(self, game_id: int, phase_seq: int, started_at: float,
                          delivered: list[int]) -> float | None:
        """The phase's opening message was posted at ``started_at``: its clock runs from then.
        The delivered rows are marked in the same transaction, so a crash cannot post the message
        twice or leave the phase without a clock. Returns the deadline, or None when the phase
        was not waiting (moved on, paused, or already running)."""
        async with self.lock(game_id):
            row = await self.row(game_id)
            started = None
            if row is not None and row.status == "running" and row.phase_seq == phase_seq \
                    and row.deadlines.starts_at_posting:
                table = await self.load(game_id)
                turn = table.game.speaking_turn(table.state) if table.state.phase_seq == phase_seq else None
                started = deadlines.start_clock(row.deadlines, started_at,
                                                turn=turn.seconds if turn is not None else None)
                self._cache.pop(game_id, None)
                self._bump(game_id)
            written = await self.store.opener_delivered(
                game_id, phase_seq, None if started is None else started.close, delivered, self.clock.now(),
                turn_deadline=None if started is None else started.turn_ends)
            self._posted[game_id] = max(self._posted.get(game_id, -1), phase_seq)
            if written and started is not None and started.close is not None:
                self.timers.arm(game_id, phase_seq, started.close)
                self.timers.arm_turn(game_id, phase_seq, started.turn_ends)
                return started.close
            return None

    async def close_if_due(self, game_id: int) -> bool:
        """Close the game's phase now if its deadline has passed (after a shorten or a resume)."""
        row = await self.store.game(game_id)
        if row is None or row.status != "running" or not row.deadlines.due(self.clock.now()):
            return False
        return await self.on_deadline(game_id, row.phase_seq)

    async def on_deadlines(self, due: list[tuple[int, int]]) -> int:
        """Several phases fell due together (timer jobs of the same moment): close them all, in
        the order given (their deadlines), before any of their messages is delivered."""
        closed = 0
        with self.held_notifications():
            for game_id, phase_seq in due:
                closed += await self.on_deadline(game_id, phase_seq)
        return closed

    async def fire_due(self, rounds: int = 50) -> int:
        """Resolve every running game whose deadline has passed (start-up, the sweep, tests), in
        deadline order (a game on a fixed schedule with several boundaries due closes them in a
        row, in order). Every phase is closed, each in its own transaction, before any of their
        messages is delivered."""
        if self.stopping:
            return 0
        async with self._claiming:
            return await self._fire_due(rounds)

    async def stop_claiming(self) -> None:
        """A clean stop: no sweep claims an overdue phase from now on, and the one under way (if
        any) has finished, so the claims released after this are all this process will hold."""
        self.stopping = True
        async with self._claiming:
            pass

    async def _fire_due(self, rounds: int) -> int:
        fired = 0
        with self.held_notifications():
            try:
                for _ in range(rounds):
                    now = self.clock.now()
                    closed = 0
                    # claimed, so another process sweeping the same shards (a takeover) skips them
                    for game_id, phase_seq in await self.store.claim_due(now, now + self.CLAIM_SECONDS,
                                                                         shards=self.shards):
                        closed += await self.on_deadline(game_id, phase_seq)
                    fired += closed
                    if not closed:
                        break
                for game_id, phase_seq in await self.store.due_reminders(self.clock.now(), shards=self.shards):
                    await self.on_reminder(game_id, phase_seq)
                for game_id, phase_seq in await self.store.due_turns(self.clock.now(), shards=self.shards):
                    await self.on_turn(game_id, phase_seq)
            except StoreRefused as exc:
                log.warning("the sweep of overdue phases was refused (%s); the next sweep tries again", exc)
        return fired

    async def rearm_all(self) -> int:
        """At start-up: close every overdue phase now (one batch: all closed before any is
        delivered, no timer job racing it), then re-arm each running game's timer from the database."""
        await self.fire_due()
        armed = 0
        for row in await self.store.active_games(shards=self.shards):
            armed += self._arm_from(row)
        return armed

    def _arm_from(self, row: GameRow) -> bool:
        """Arm the game's timers as its row says (none while paused); returns whether a phase
        deadline was armed."""
        clocks = row.deadlines if row.status == "running" else deadlines.NONE
        self.timers.follow(row.id, row.phase_seq, clocks)
        return not clocks.paused and clocks.close is not None

    async def adopt(self, game_id: int) -> bool:
        """Another process committed to a game of ours (``hand_over``): read it again, arm its
        timers from the database and deliver its messages. Returns whether it is ours."""
        async with self.lock(game_id):
            self._cache.pop(game_id, None)
            self._bump(game_id)
            row = await self.store.game(game_id)
            if row is None or not self.owns(row):
                return False
            if row.status in ("lobby", "running"):
                self._arm_from(row)
            else:
                self._game_over(game_id)
        self._messages_ready(game_id)
        return True

    # ----- a moderator's hand on the clock -----
    async def _set_timer(self, table: Table, clocks: Deadlines, notice: Notice | None = None) -> TimerChange:
        """Save the game's clocks, with a refresh of the phase's message so its countdown says the
        same, and the moderator's notice to the table (``notice``) in the same transaction. The notice
        goes through the outbox, so it reaches the channel after what the table is still being
        shown (a reveal in beats), never between its lines."""
        game_id, seq = table.row.id, table.row.phase_seq
        change = TimerChange.of(clocks, table.game.phase_label(table.state))
        messages = [refresh(phase_slot(seq))]
        if notice is not None:
            event = public("moderator", notice(change))
            messages.append(NewMessage("channel", None, event.model_dump_json()))
        self._cache.pop(game_id, None)
        self._bump(game_id)
        try:
            await self._saving(self.store.set_timer(game_id, clocks, self.clock.now(), phase_seq=seq,
                                                    messages=messages))
        except MovedOn:
            raise GameMovedOn("That was NOT done: the game moved on at that moment. Look again and "
                              "try once more.") from None
        self.timers.follow(game_id, seq, clocks)
        self._messages_ready(game_id)
        return change

    @staticmethod
    def _paces(table: Table) -> dict[str, float | None]:
        """The seconds of the game's reminder and of its speaking turn running now (None: none),
        as the moderator's clock changes restart them."""
        turn = table.game.speaking_turn(table.state)
        return {"remind": table.game.reminder_seconds(table.state),
                "turn": turn.seconds if turn is not None else None}

    async def pause(self, game_id: int, actor: Actor, notice: Notice | None = None) -> TimerChange:
        async with self.lock(game_id):
            table = await self._moderated(game_id, actor)
            return await self._set_timer(table, deadlines.pause(table.row.deadlines, self.clock.now()), notice)

    async def resume(self, game_id: int, actor: Actor, notice: Notice | None = None) -> TimerChange:
        """Unfreeze the timer. What was left counts from now; 0 left means the phase is due now."""
        async with self.lock(game_id):
            table = await self._moderated(game_id, actor)
            clocks = deadlines.resume(table.row.deadlines, self.clock.now(), **self._paces(table))
            return await self._set_timer(table, clocks, notice)

    async def extend(self, game_id: int, actor: Actor, seconds: float, notice: Notice | None = None) -> TimerChange:
        """Move the current phase's deadline by ``seconds`` (negative shortens). While paused, it
        changes the time that will be left at the resume."""
        async with self.lock(game_id):
            table = await self._moderated(game_id, actor)
            clocks = deadlines.extend(table.row.deadlines, seconds, self.clock.now(), **self._paces(table))
            return await self._set_timer(table, clocks, notice)

    async def skip(self, game_id: int, actor: Actor, meant: int | None = None) -> str:
        """Close the current phase now; returns its label ("the Council"). ``meant`` is the phase
        the moderator saw when the command arrived: if its timer closed it while the command waited,
        nothing is skipped (the next phase is not closed by mistake)."""
        async with self.lock(game_id):
            table = await self._moderated(game_id, actor)
            label = table.game.phase_label(table.state)
            if meant is not None and table.state.phase_seq != meant:
                raise IllegalAction(f"That phase had just closed on its own (its timer ran out), so nothing was "
                                    f"skipped. The table is now in {label}: use /mod skip again to close it too.",
                                    code="phase_moved")
            await self._apply(game_id, actor.id, {"type": "phase_timeout", "phase_seq": table.state.phase_seq})
            return label
