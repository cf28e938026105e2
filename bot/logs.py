"""The bot's log lines: plain text (the default) or one JSON object per line (``LOG_FORMAT=json``)
that an operator's log search can filter by game, server, shard and action.

The game a line is about is not passed to each ``log.info``: the service and the delivery open a
``log_context`` (or the ``game_scope`` decorator does) while they work on a game, and every line
logged inside carries it, through a context variable (so each asyncio task keeps its own).
"""

from __future__ import annotations

import functools
import inspect
import json
import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
#: the fields a line may carry about its game, in the order they are written
FIELDS = ("game_id", "guild_id", "shard_id", "action")

#: the current game's fields; replaced, never changed in place (a task copies the mapping it sees)
_context: ContextVar[dict[str, Any]] = ContextVar("storyteller_log_context", default={})  # noqa: B039
#: the shard count for a line's shard (Discord puts a server on ``(id >> 22) % count``); 0: unknown
_shards = {"count": 0}


@contextmanager
def log_context(**fields: Any) -> Iterator[None]:
    """Lines logged inside carry ``fields`` (game_id, guild_id, action); None values are left out."""
    token = _context.set({**_context.get(), **{k: v for k, v in fields.items() if v is not None}})
    try:
        yield
    finally:
        _context.reset(token)


def bind(**fields: Any) -> None:
    """Add fields to the context already open (what is known only once the game is loaded, such
    as its server). Outside any context it does nothing, so nothing outlives its scope."""
    current = _context.get()
    if current:
        _context.set({**current, **{k: v for k, v in fields.items() if v is not None}})


def game_scope(method: Callable) -> Callable:
    """Decorate an async method with a ``game_id`` parameter (and maybe an ``action`` dict): its
    lines carry the game, and the action's type. One line above a method, so the method's body is
    not re-indented. Where the two parameters sit is worked out once, here: binding the whole
    signature on every call cost a tenth of a quick game's action."""
    names = list(inspect.signature(method).parameters)
    game_at = names.index("game_id") if "game_id" in names else None
    action_at = names.index("action") if "action" in names else None

    def argument(name: str, at: int | None, args: tuple, kwargs: dict) -> Any:
        if name in kwargs:
            return kwargs[name]
        return args[at] if at is not None and at < len(args) else None

    @functools.wraps(method)
    async def scoped(*args: Any, **kwargs: Any) -> Any:
        action = argument("action", action_at, args, kwargs)
        kind = action.get("type") if isinstance(action, dict) else None
        with log_context(game_id=argument("game_id", game_at, args, kwargs), action=kind):
            return await method(*args, **kwargs)

    return scoped


def current() -> dict[str, Any]:
    """The fields a line logged now would carry (the shard worked out from the server)."""
    fields = dict(_context.get())
    guild = fields.get("guild_id")
    if "shard_id" not in fields and isinstance(guild, int) and _shards["count"]:
        fields["shard_id"] = (guild >> 22) % _shards["count"]
    return fields


def set_shard_count(count: int | None) -> None:
    """How many shards the bot has in all, once known (SHARD_COUNT, or Discord's recommendation)."""
    _shards["count"] = count or 0


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, the game's fields where they apply,
    and ``exc_info`` (the traceback, as text) when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        fields = current()
        line.update((name, fields[name]) for name in FIELDS if name in fields)
        if record.exc_info:
            line["exc_info"] = self.formatException(record.exc_info)
        if record.stack_info:
            line["stack_info"] = self.formatStack(record.stack_info)
        return json.dumps(line, ensure_ascii=False, default=str)


def formatter(log_format: str) -> logging.Formatter:
    """The formatter of ``LOG_FORMAT``: ``json`` or ``text``."""
    return JsonFormatter() if log_format == "json" else logging.Formatter(TEXT_FORMAT)


def setup(settings: Any) -> None:
    """The process's logging, from the settings (LOG_LEVEL, LOG_FORMAT, SHARD_COUNT): one handler
    on standard error."""
    handler = logging.StreamHandler()
    handler.setFormatter(formatter(settings.log_format))
    logging.basicConfig(level=settings.log_level.upper(), handlers=[handler])
    set_shard_count(settings.shard_count)
