"""Everything the offline table needs from simcord's private parts, in one place.

Written for simcord 3.2.1 (pinned in pyproject.toml as ``simcord[preview]==3.2.1``). Each helper
names the private attribute it touches; if simcord changes, this is the only module to revisit,
and ``tests/offline`` exercises every helper. The public API covers the rest (``Env``,
builders, actors, ``env.preview``, ``env.advance_time``).

What is private, and why:

* ``backend.clock._epoch``: simcord's virtual clock starts at 2026-01-01. The table starts it at
  the real time instead, so message timestamps, ``<t:...:R>`` countdowns (the bot computes
  deadlines from the real clock) and the preview's "now" agree with the wall clock.
* ``backend.snowflake``: ``create_text_channel`` and ``create_user`` take no ``id=``; the table
  pins the ids it derives from names so a restarted process matches the database's ids.
* ``Preview._action``: a browser action calls ``env._begin_operation``; if the clock pump is in
  the middle of ``advance_time`` the action is refused (HTTP 400). A shared lock serializes the
  two. ``Preview.capability`` is pinned so the URL survives a reopen or a restart.
  ``Preview._PAGE_LEASE_SECONDS`` (10 minutes) is lengthened and ``Preview._open_page`` evicts
  the least recently used tab instead of refusing a 17th one.
* ``backend.transcript``: its length is the cheapest "did anything happen" marker, so pages
  are republished (``preview.refresh()``, public) only when the bot changed something.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterator
from datetime import datetime
from typing import Any

import simcord

log = logging.getLogger(__name__)

SIMCORD_VERSION = "3.2.1"
#: how long a browser tab that stopped polling keeps its page (simcord's default is 10 minutes)
PAGE_LEASE_SECONDS = 12 * 3600.0


def check_version() -> str | None:
    """A warning when the installed simcord is not the one this module was written for."""
    try:
        from importlib.metadata import version

        installed = version("simcord")
    except Exception:  # pragma: no cover - metadata missing in odd installs
        return None
    if installed != SIMCORD_VERSION:
        return (f"The offline table was written for simcord {SIMCORD_VERSION}; {installed} is installed. "
                "Reinstall with: pip install -e '.[offline]'")
    return None


def set_epoch(env: simcord.Env, start: datetime) -> None:
    """Start the virtual clock at ``start`` (call before anything is created)."""
    clock = env.backend.clock
    clock._epoch = start - (clock.now() - clock._epoch)


@contextlib.contextmanager
def pinned_ids(env: simcord.Env, *ids: int) -> Iterator[None]:
    """The next ``len(ids)`` snowflakes simcord allocates are exactly ``ids`` (in order)."""
    backend = env.backend
    queue = list(ids)
    original = backend.snowflake

    def next_id() -> int:
        if queue:
            return backend.reserve_id(queue.pop(0))
        return original()

    backend.snowflake = next_id
    try:
        yield
    finally:
        del backend.snowflake  # back to the class's method
        if queue:
            raise RuntimeError(f"simcord allocated fewer ids than expected ({len(queue)} unused)")


def change_marker(env: simcord.Env) -> int:
    """Grows whenever anything crosses simcord's HTTP or gateway seam."""
    return len(env.backend.transcript)


def operation_busy(env: simcord.Env) -> bool:
    """True while some simcord operation (an action, a refresh, an advance) is running."""
    return env._operation_task is not None


def preview_closed(preview: Any) -> bool:
    """True once the preview began closing (its own ``wait_closed`` says only when it finished)."""
    return bool(preview._closed)


class PreviewGate:
    """Serializes browser actions with the table's own simcord operations (clock pump, refresh).

    ``install(preview)`` wraps the preview's action handler with ``lock``; after each browser
    action the change marker is recorded, because a browser action republishes its own pages.
    """

    def __init__(self, env: simcord.Env) -> None:
        self.env = env
        self.lock = asyncio.Lock()
        self.seen = change_marker(env)
        self.actions = 0

    def install(self, preview: Any, *, capability: str | None = None) -> None:
        """Call between ``env.preview(...)`` and entering it."""
        if capability:
            preview.capability = capability
        preview._PAGE_LEASE_SECONDS = PAGE_LEASE_SECONDS
        original_action = preview._action
        original_open = preview._open_page
        gate = self

        async def action(context_id: Any, body: Any) -> Any:
            async with gate.lock:
                try:
                    return await original_action(context_id, body)
                finally:
                    gate.actions += 1
                    gate.seen = change_marker(gate.env)

        def open_page(viewer_id: Any = None, target_id: Any = None) -> Any:
            pages = preview._pages
            if len(pages) >= preview._MAX_PAGES + 1:
                idle = [p for p in pages.values()
                        if p is not preview._python and p is not preview._action_page]
                if idle:
                    oldest = min(idle, key=lambda p: p.last_activity)
                    log.info("16 tabs are open; the least recently used one is released")
                    preview._close_page(oldest.id)
            return original_open(viewer_id, target_id)

        preview._action = action
        preview._open_page = open_page

    def changed(self) -> bool:
        return change_marker(self.env) != self.seen

    def mark_seen(self) -> None:
        self.seen = change_marker(self.env)
