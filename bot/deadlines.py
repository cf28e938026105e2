"""A game's deadlines as one value, and the pure rules that move them.

A running game has up to three clocks: its phase's (``close``, or the seconds ``remaining`` while
paused, or the seconds ``waiting`` for the phase's opening message to be posted), a quiet table's
reminder (``remind_at``) and a speaking turn's (``turn_ends``). They live in the game's row (the
columns ``deadline``, ``paused``, ``paused_remaining``, ``waiting_seconds``, ``remind_at`` and
``turn_deadline``), are written by the store as one thing, and are moved here only: each rule is a
function of the value and the clock's ``now`` (an argument; nothing here reads a clock), and
refuses in words (``IllegalAction``) what cannot be done. No store, no Discord, no asyncio.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from games.engine import IllegalAction

#: a deadline within this many seconds of now is due (a timer fires a moment early or late)
SLACK = 0.5


@dataclass(frozen=True)
class Deadlines:
    """Where a game's clocks stand. Unix seconds, or seconds of a clock that is not running."""

    #: when the running phase closes (None: no timer, or its clock is paused or waiting)
    close: float | None = None
    paused: bool = False
    #: the seconds that were left when paused; None while paused: the phase has no timer
    remaining: float | None = None
    #: the phase's seconds while its clock waits for its opening message to be posted
    waiting: float | None = None
    #: when a quiet game calls the player it waits for again (``Game.reminder_seconds``)
    remind_at: float | None = None
    #: when the current speaking turn ends (None: no turn, or its clock waits or is paused)
    turn_ends: float | None = None

    @property
    def starts_at_posting(self) -> bool:
        """Whether the phase's clock waits to start when its opening message is posted."""
        return not self.paused and self.waiting is not None

    def due(self, now: float, slack: float = 0.0) -> bool:
        """Whether the running phase's deadline has passed by ``now`` (within ``slack``)."""
        return not self.paused and self.close is not None and self.close <= now + slack

    def reminder_due(self, now: float) -> bool:
        """Whether the quiet table's reminder is due (within ``SLACK``)."""
        return not self.paused and self.remind_at is not None and self.remind_at <= now + SLACK

    def turn_due(self, now: float) -> bool:
        """Whether the running speaking turn's seconds have run out by ``now`` (within ``SLACK``).
        The next turn then starts at ``turn_ends`` (``next_turn``'s ``since``), and if that one
        too has run out (the bot was down through it) it is over as well, until the turn due now."""
        return not self.paused and self.turn_ends is not None and self.turn_ends <= now + SLACK


#: a game with no clock running: the lobby's, and a game's once it is over
NONE = Deadlines()


def _later(now: float, seconds: float | None) -> float | None:
    """``now + seconds``; None for no seconds (None or 0: no clock)."""
    return now + seconds if seconds else None


# ----- the phase's clock -----


def open_phase(d: Deadlines, seconds: float | None, *, start: float, waits_for_opener: bool) -> Deadlines:
    """A new phase of ``seconds`` (None or 0: no timer) begins at ``start``. While paused, its
    whole time waits for the resume; when its clock waits for its opening message to be posted
    (``waits_for_opener``), its seconds wait (``start_clock``), so narration queued before it never
    eats the players' time."""
    if d.paused:
        return _moved(d, close=None, remaining=seconds or None, waiting=None)
    if seconds and waits_for_opener:
        return _moved(d, close=None, remaining=d.remaining, waiting=seconds)
    return _moved(d, close=start + seconds if seconds else None, remaining=d.remaining, waiting=None)


def _moved(d: Deadlines, *, close: float | None, remaining: float | None, waiting: float | None) -> Deadlines:
    """``d`` with its phase's clock so; ``d`` itself when nothing changes (a phase with no timer
    opens on every turn of a game with none: no copy made for it; issue 38)."""
    if (d.close, d.remaining, d.waiting) == (close, remaining, waiting):
        return d
    return replace(d, close=close, remaining=remaining, waiting=waiting)


def start_clock(d: Deadlines, at: float, *, turn: float | None = None) -> Deadlines | None:
    """The phase's opening message was posted at ``at``: the seconds it waited for run from then,
    and so does its speaking turn of ``turn`` seconds, if one runs. None when the phase is not
    waiting (paused, or its clock already runs)."""
    if not d.starts_at_posting or d.waiting is None:
        return None
    return replace(d, close=at + d.waiting, waiting=None, turn_ends=None if turn is None else at + turn)


def end() -> Deadlines:
    """The game is over: no clock runs."""
    return NONE


def pause(d: Deadlines, now: float) -> Deadlines:
    """Freeze the clocks: the phase keeps what was left of it (or the seconds still waiting for
    its message); the reminder and the speaking turn stop."""
    if d.paused:
        raise IllegalAction("The game is already paused.", code="paused")
    remaining = d.waiting if d.close is None else max(0.0, d.close - now)
    return Deadlines(paused=True, remaining=remaining)


def resume(d: Deadlines, now: float, *, remind: float | None = None, turn: float | None = None) -> Deadlines:
    """Unfreeze: what was left counts from now (0 left: the phase is due now); the reminder of
    ``remind`` seconds and the speaking turn of ``turn`` seconds start again."""
    if not d.paused:
        raise IllegalAction("The game is not paused.", code="not_paused")
    return Deadlines(close=None if d.remaining is None else now + d.remaining,
                     remind_at=_later(now, remind), turn_ends=None if turn is None else now + turn)


def extend(d: Deadlines, seconds: float, now: float, *, remind: float | None = None,
           turn: float | None = None) -> Deadlines:
    """Move the phase's deadline by ``seconds`` (negative shortens, never before now). While
    paused it changes the time left at the resume; while the phase waits for its message, its
    length. The reminder counts ``remind`` seconds from now; a running speaking turn keeps its end
    (one of ``turn`` seconds starts now if none ran)."""
    if d.paused:
        if d.remaining is None:
            raise IllegalAction("This phase has no timer to change.", code="no_timer")
        return Deadlines(paused=True, remaining=max(0.0, d.remaining + seconds))
    if d.waiting is not None:
        return Deadlines(waiting=max(0.0, d.waiting + seconds), remind_at=_later(now, remind))
    if d.close is None:
        raise IllegalAction("This phase has no timer to change.", code="no_timer")
    kept = d.turn_ends if d.turn_ends is not None else (None if turn is None else now + turn)
    return Deadlines(close=max(now, d.close + seconds), remind_at=_later(now, remind),
                     turn_ends=None if turn is None else kept)


def shorten(d: Deadlines, seconds: float, now: float, *, remind: float | None = None,
            turn: float | None = None) -> Deadlines:
    """Bring the phase's deadline ``seconds`` closer (``extend`` backwards)."""
    return extend(d, -seconds, now, remind=remind, turn=turn)


# ----- the reminder and the speaking turn, after a step -----


def remind(d: Deadlines, now: float, seconds: float | None) -> Deadlines:
    """A quiet game calls its player again ``seconds`` after its last step (None or 0: never); none
    while paused. A step keeps the reminder already set, as the earliest it can be due: when that
    time comes, the quiet is counted from the game's last change (``reminder_after``), and the
    reminder moves to its end if it is not over. So an action writes no new ``remind_at``: that
    column is indexed, and moving it with every action cost SQLite an index page and PostgreSQL
    every index of ``games`` (no update in place) on each of them (issue 38). A reminder sent (or
    never set) starts from ``now``; one that would come later than ``now + seconds`` is brought
    back to it. (The same value when nothing changes: every action of every game passes here.)"""
    remind_at = None if d.paused else _later(now, seconds)
    if remind_at is not None and d.remind_at is not None and d.remind_at <= remind_at:
        return d
    return d if remind_at == d.remind_at else replace(d, remind_at=remind_at)


def reminder_after(d: Deadlines, last_change: float | None, seconds: float | None) -> float | None:
    """When a reminder set (``remind_at``) is really due: ``seconds`` after the game's last change,
    and never before the time set (``remind``); None when there is none to give (paused, or the
    phase calls no one again)."""
    if d.paused or d.remind_at is None or not seconds:
        return None
    return d.remind_at if last_change is None else max(d.remind_at, last_change + seconds)


def next_turn(d: Deadlines, now: float, seconds: float | None, *, same_turn: bool,
              since: float | None = None) -> Deadlines:
    """The speaking turn after a step: none (``seconds`` None); the same turn keeps its end; a new
    turn of ``seconds`` starts now, or when the turn before was due to end (``since``: its clock
    ran out), so the turns keep their schedule as the phase clock does. While the phase's clock
    is paused or waits for its message, a new turn waits too."""
    if seconds is None or (not same_turn and (d.paused or d.waiting is not None)):
        return d if d.turn_ends is None else replace(d, turn_ends=None)
    if same_turn:
        return d
    return replace(d, turn_ends=(now if since is None else since) + seconds)
