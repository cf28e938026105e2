"""Everything the offline table needs from simcord's private parts, in one place.

Written for simcord 3.2.1 (pinned in pyproject.toml as ``simcord[preview]==3.2.1``). Each helper
names the private attribute it touches; if simcord changes, this is the only module to revisit,
and ``tests/offline`` exercises every helper. The public API covers the rest (``Env``,
builders, actors, ``env.preview``, ``env.advance_time``).

What is private, and why:

* ``backend.clock._epoch``: simcord's virtual clock starts at 2026-01-01. The table starts it at
  the real time instead, so message timestamps, ``<t:...:R>`` countdowns (the bot computes
  deadlines from the real clock) and the preview's "now" agree with the wall clock.
* ``backend.bot_user.name``: the bot account is called "TestBot" in simcord; renamed before start.
* ``backend.snowflake``: ``create_text_channel`` and ``create_user`` take no ``id=``; the table
  pins the ids it derives from names so a restarted process matches the database's ids.
* ``Preview._action``: a browser action calls ``env._begin_operation``; if the clock pump is in
  the middle of ``advance_time`` the action is refused (HTTP 400). A shared lock serializes the
  two. ``Preview.capability`` is pinned so the URL survives a reopen or a restart.
  ``Preview._PAGE_LEASE_SECONDS`` (10 minutes) is lengthened and ``Preview._open_page`` evicts
  the least recently used tab instead of refusing a 17th one.
* ``Preview._pages``, ``_Page.revision``, ``Preview._publish``, ``Preview._advance_presentation_time``,
  ``Env._begin_operation``/``_end_operation``/``_settle_internal``: ``Preview.refresh()`` minus
  republishing pages that are already current, and a click made on a revision that only those
  refreshes superseded is taken at the current revision (see ``PreviewGate``).
* ``Preview._closed``, ``Env._operation_task``: read only, to know whether the preview is
  closing and whether a simcord operation is running.
* ``Env._preview``: simcord serves one preview (one channel) per Env, and a preview's composer
  and commands act in its own channel. A thread is played in a preview of its own (a "room",
  see ``open_room``): ``Env._preview`` still names the table's preview, and names a room's only
  while an action of that room runs (simcord marks the running action through it).
* ``Preview.viewers``: reordered so a room opens as the player who asked for it.
* ``preview._markdown._FIELD_POLICIES``: the preview draws ``<@id>`` and ``<#id>`` as names in a
  message's text only; Discord draws them in an embed's description and field values too (the
  lobby's voice line, the speaker's line), so those two fields draw them as well (``show_mentions``).
* ``_Page.channel_id``, ``preview._commands.build_catalog``: a slash command typed as text and
  sent with Enter is run as that command (``typed_as_command``, ``bot/offline/typed.py``).
* ``PreviewServer._static``: the page draws a ``<t:...:R>`` countdown once, against the time it was
  published; Discord's client ticks it. ``tick_countdowns`` serves ``app.js`` with a few lines more
  that redraw every relative time each second from the browser's clock (the table's clock is the
  wall clock, see ``set_epoch``).
* ``backend.transcript``: its length is the cheapest "did anything happen" marker, so a page
  is republished only when something changed since it was last published.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterator
from datetime import datetime
from typing import Any

import discord
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


def show_mentions() -> None:
    """Mentions in an embed's description and field values show as names, as on Discord."""
    from simcord.preview import _markdown

    for field in ("embed_description", "embed_field_value"):
        _markdown._FIELD_POLICIES[field]["mentions"] = True


#: appended to the preview's app.js: every second, each drawn relative time ("in 40 seconds",
#: "2 minutes ago", "now") is redrawn from its ``datetime`` and the browser's clock, with the words
#: the page itself uses (text.js: Intl.RelativeTimeFormat, numeric "auto")
TICK_JS = r"""
;(() => {
  const RELATIVE = /^(in \d+ \w+|\d+ \w+ ago|now|tomorrow|yesterday|(next|last|this) \w+)$/;
  const words = new Intl.RelativeTimeFormat("en-US", { numeric: "auto" });
  function tick() {
    const now = Date.now();
    for (const time of document.querySelectorAll("time.discord-timestamp[datetime]")) {
      if (time.dataset.ticks === undefined) time.dataset.ticks = RELATIVE.test(time.textContent.trim()) ? "1" : "";
      if (!time.dataset.ticks) continue;
      const seconds = (Date.parse(time.getAttribute("datetime")) - now) / 1000;
      const absolute = Math.abs(seconds);
      const [unit, amount] = absolute < 60 ? ["second", seconds] : absolute < 3600 ? ["minute", seconds / 60]
        : absolute < 86400 ? ["hour", seconds / 3600] : absolute < 604800 ? ["day", seconds / 86400]
          : ["week", seconds / 604800];
      const text = words.format(Math.round(amount), unit);
      if (time.textContent !== text) time.textContent = text;
    }
  }
  setInterval(tick, 1000);
})();
"""


#: whether ``tick_countdowns`` has patched simcord's page server (once per process)
_ticks_added = False


def tick_countdowns() -> None:
    """The table's pages count ``<t:...:R>`` down every second, as Discord's client does."""
    from simcord.preview._server import PreviewServer

    global _ticks_added
    if _ticks_added:
        return
    original = PreviewServer._static

    async def static(self: Any, request: Any) -> Any:
        response = await original(self, request)
        if request.path == "/app.js" and response.status == 200 and response.text is not None:
            response.text = response.text + TICK_JS
        return response

    PreviewServer._static = static  # type: ignore[method-assign]  # simcord's page server, patched once
    _ticks_added = True


def name_bot(env: simcord.Env, name: str) -> None:
    """simcord calls its bot account "TestBot"; the table calls it by its role (before start)."""
    env.backend.bot_user.name = name


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

    backend.snowflake = next_id  # type: ignore[method-assign]  # simcord's id source, for this block only
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
    """Serializes browser actions with the table's own simcord operations, and keeps every open
    tab up to date.

    * ``install(preview)`` wraps the preview's action handler with ``lock``: a browser action
      never overlaps the clock pump's ``advance_time`` or a refresh (simcord would refuse it).
    * ``refresh(preview)`` republishes exactly the pages that have not seen the latest change:
      a change the bot made in the background (a timer), made from another tab, or made from
      Python. A browser action republishes its own page, so that page is not republished again
      (a republish can close a select list the player is opening).
    * A click stays valid across those refreshes. Every publication bumps the page's revision and
      simcord refuses a click that carries an older one ("stale"), so a click landing just after
      a background refresh would fail although the page only moved on. On Discord such a click
      simply arrives and the bot decides (ours refuses a choice from a closed phase by itself).
      So a click made on a revision that only these refreshes superseded is taken at the current
      revision. Revisions published for any other reason (the player's own action, a viewer
      switch) stay binding.
    """

    def __init__(self, env: simcord.Env, lock: asyncio.Lock | None = None) -> None:
        self.env = env
        self.lock = lock or asyncio.Lock()
        self.actions = 0
        self.rebased = 0
        self._marks: dict[str, int] = {}  # page id -> change marker when it was last published
        self._floor: dict[str, int] = {}  # page id -> oldest revision still accepted
        self._refreshed: dict[str, int] = {}  # page id -> the revision our last refresh published

    def stale_pages(self, preview: Any) -> list[str]:
        marker = change_marker(self.env)
        return [pid for pid in preview._pages if self._marks.get(pid) != marker]

    def mark_all(self, preview: Any) -> None:
        marker = change_marker(self.env)
        for pid in preview._pages:
            self._marks[pid] = marker

    async def refresh(self, preview: Any) -> int:
        """Settle, then republish the pages behind the latest change (what ``Preview.refresh()``
        does for every page). Hold ``lock``. Returns how many pages were republished."""
        if not self.stale_pages(preview):
            return 0
        env = self.env
        published = 0
        env._begin_operation("preview.refresh")
        try:
            await env._settle_internal()
            marker = change_marker(env)
            preview._advance_presentation_time()
            for pid, page in tuple(preview._pages.items()):
                if pid not in preview._pages or self._marks.get(pid) == marker:
                    continue  # pruned meanwhile, or already current
                before = page.revision
                preview._publish(page, reason="refresh")
                published += 1
                self._marks[pid] = marker
                if self._refreshed.get(pid) == before:  # nothing else was published since
                    self._floor.setdefault(pid, before)
                else:
                    self._floor[pid] = before
                self._refreshed[pid] = page.revision
        finally:
            env._end_operation()
        for registry in (self._marks, self._floor, self._refreshed):
            for pid in set(registry) - set(preview._pages):
                registry.pop(pid, None)
        return published

    def _rebase(self, preview: Any, context_id: Any, body: Any) -> Any:
        page = preview._pages.get(context_id) if isinstance(context_id, str) else None
        if page is None or not isinstance(body, dict):
            return body
        revision = body.get("published_revision")
        if (isinstance(revision, int) and not isinstance(revision, bool) and revision < page.revision
                and self._refreshed.get(context_id) == page.revision
                and revision >= self._floor.get(context_id, page.revision)):
            self.rebased += 1
            return {**body, "published_revision": page.revision}
        return body

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
                env = gate.env
                table_preview, env._preview = env._preview, preview  # see Env._preview above
                hint = None
                try:
                    body, hint = typed_as_command(preview, context_id, body)
                    result = await original_action(context_id, gate._rebase(preview, context_id, body))
                    if hint is not None:
                        await answer_typed(env, preview, context_id, hint)
                    return result
                finally:
                    if preview is not table_preview:  # a room: the table's preview is back
                        env._preview = table_preview
                    gate.actions += 1
                    if isinstance(context_id, str) and context_id in preview._pages and hint is None:
                        gate._marks[context_id] = change_marker(gate.env)  # it published itself
                    # (with a hint, the answer came after the page published itself: the pump shows it)

        def open_page(viewer_id: Any = None, target_id: Any = None) -> Any:
            pages = preview._pages
            if len(pages) >= preview._MAX_PAGES + 1:
                idle = [p for p in pages.values()
                        if p is not preview._python and p is not preview._action_page]
                if idle:
                    oldest = min(idle, key=lambda p: p.last_activity)
                    log.info("16 tabs are open; the least recently used one is released")
                    preview._close_page(oldest.id)
            page = original_open(viewer_id, target_id)
            gate._marks[page.id] = change_marker(gate.env)
            return page

        preview._action = action
        preview._open_page = open_page


def typed_as_command(preview: Any, context_id: Any, body: Any) -> tuple[Any, str | None]:
    """A message sent from the box that is a typed slash command (``/game new ritual``) becomes
    that command (``run_command``, as if picked from the list); one that cannot be run is sent as
    typed, with the sentence that says how. Uses ``_Page`` and ``_commands.build_catalog``."""
    if not isinstance(body, dict) or body.get("kind") != "send_message" or not isinstance(body.get("content"), str) \
            or not body["content"].lstrip().startswith("/"):
        return body, None  # (plain chat: the command list is not built for it)
    page = preview._pages.get(context_id) if isinstance(context_id, str) else None
    if page is None:
        return body, None
    from simcord.preview._commands import build_catalog

    from .typed import NotACommand, typed_command

    try:
        typed = typed_command(body["content"], build_catalog(preview, page).get("entries") or [])
    except NotACommand as exc:
        return body, str(exc)
    if typed is None:
        return body, None
    command = {key: value for key, value in body.items() if key not in ("content", "reply_to_id")}
    command.update(kind="run_command", command_id=typed.entry["commandId"], path=typed.entry["path"],
                   schema_fingerprint=typed.entry["schemaFingerprint"], options=typed.options)
    return command, None


async def answer_typed(env: simcord.Env, preview: Any, context_id: Any, hint: str) -> None:
    """The table's answer to a typed command it could not run, in the channel it was typed in."""
    page = preview._pages.get(context_id)
    channel = env.bot.get_channel(page.channel_id) if page is not None else None
    if isinstance(channel, discord.abc.Messageable):  # (the typed command came from a text channel)
        await channel.send(hint)


async def open_room(env: simcord.Env, gate: PreviewGate, channel: simcord.ChannelHandle,
                    viewers: list[Any], *, port: int, capability: str) -> Any:
    """A preview of ``channel`` (a thread) beside the table's own, for ``viewers`` (its members).
    Hold ``gate.lock``. Raises ``simcord.SetupError`` (a busy port, a viewer without access)."""
    table_preview = env._preview
    env._preview = None  # simcord refuses a second preview while one is open
    try:
        preview = env.preview(channel, viewers=viewers, layout="channel", port=port or None)
        gate.install(preview, capability=capability)
        await preview.__aenter__()
    finally:
        env._preview = table_preview
    return preview


def prefer_viewer(preview: Any, member: Any) -> None:
    """A page opened without a viewer (a fresh tab) shows the preview as ``member``."""
    viewers = tuple(preview.viewers)
    if member in viewers:
        preview.viewers = (member, *(v for v in viewers if v is not member))


def viewer_ids(preview: Any) -> set[int]:
    return {viewer.id for viewer in preview.viewers}
