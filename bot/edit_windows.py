"""At most one edit of a living message per short window: a burst of changes (ready clicks,
votes, sign-ups) goes to Discord as one edit at the window's end, showing the newest text. A
private line that restates its whole state (``hold``) waits a window from its first change, and
only the newest of the burst is sent.

Time is ``time.monotonic``, not the event loop's: a test's loop may run on virtual time."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)


class EditWindows(Generic[K]):
    """The edit windows of living messages, by key (a game's slot, a game's sign-up sheet)."""

    def __init__(self, seconds: Callable[[], float]) -> None:
        #: the window's length, read at each use (0: every change is edited at once)
        self.seconds = seconds
        self._edited: dict[K, float] = {}  # key -> when it was last edited
        self._held: dict[K, asyncio.TimerHandle] = {}  # key -> its held edit's window end
        self._holding: dict[K, asyncio.TimerHandle] = {}  # key -> a held line's window end
        self._due: set[K] = set()  # held lines whose window ended: the next look sends

    def wait(self, key: K, release: Callable[[], object]) -> bool:
        """Whether an edit of ``key`` must wait for its window to end; the first edit to wait arms
        ``release`` for that end (which then finds the newest text to show)."""
        window = self.seconds()
        if window <= 0 or key not in self._edited:
            return False
        left = self._edited[key] + window - time.monotonic()
        if left <= 0:
            return False
        if key not in self._held:
            self._held[key] = asyncio.get_running_loop().call_later(min(left, window), self._end, key, release)
        return True

    def hold(self, key: K, release: Callable[[], object]) -> bool:
        """Whether a line that restates its state waits: its window opens at its first change
        (``release`` at its end, which then finds the newest line to send) and it waits until then."""
        if key in self._due:
            self._due.discard(key)
            return False
        window = self.seconds()
        if window <= 0:
            return False
        if key not in self._holding:
            self._holding[key] = asyncio.get_running_loop().call_later(window, self._hold_ends, key, release)
        return True

    def let_go(self, key: K) -> None:
        """A held line was sent before its window ended (its phase is over): no window is left."""
        held = self._holding.pop(key, None)
        if held is not None:
            held.cancel()
        self._due.discard(key)

    def _hold_ends(self, key: K, release: Callable[[], object]) -> None:
        self._holding.pop(key, None)
        self._due.add(key)
        release()

    def edited(self, key: K) -> None:
        """``key`` was just edited: its window starts now (a held edit it carried is done)."""
        self._cancel(key)
        self._edited[key] = time.monotonic()

    def clear(self, key: K) -> None:
        """``key`` has no window (its last edit called someone: the next one shows at once)."""
        self._cancel(key)
        self._edited.pop(key, None)

    def forget(self, belongs: Callable[[K], bool]) -> None:
        """Drop the windows of keys that ``belongs`` (a game that is over), except held edits."""
        for key in [k for k in self._edited if belongs(k) and k not in self._held]:
            del self._edited[key]
        self._due = {k for k in self._due if not belongs(k)}

    def _cancel(self, key: K) -> None:
        held = self._held.pop(key, None)
        if held is not None:
            held.cancel()

    def _end(self, key: K, release: Callable[[], object]) -> None:
        self._held.pop(key, None)
        self._edited.pop(key, None)
        release()
