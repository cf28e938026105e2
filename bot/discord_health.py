"""What Discord's answers say about the bot's standing: the invalid requests of the last ten minutes,
and whether the token was refused.

Discord bans the bot's IP address for an hour once it has made 10,000 invalid requests (answered
401, 403 or 429, except a 429 of a shared rate limit) in ten minutes. The count is kept here, the
operator is warned as it nears the limit, and the pacer slows what can wait (``strain``). A 401 means
the token was reset or revoked: nothing sent with it can succeed, so the bot stops sending and says
so once, rather than retrying into the ban.

Every answer is heard where discord.py's HTTP session receives it (``Calls.trace`` in ``bot.delivery``, an aiohttp trace on
the bot's one session): a 429 that discord.py waits out and retries by itself never reaches the
bot as an exception, yet Discord counts it. The same hook reads the rate-limit headers of every
answer and tells how many calls went where: interaction responses and follow-ups
(``/interactions``, ``/webhooks``) are counted apart, as Discord leaves them out of the global
limit of 50 calls a second.
"""

from __future__ import annotations

import logging
import time
from collections import Counter, deque
from collections.abc import Callable, Mapping
from typing import Any

from yarl import URL

from . import metrics

log = logging.getLogger(__name__)

#: Discord's limit of invalid requests, and the window it counts them in
BAN_LIMIT, BAN_WINDOW = 10_000, 600.0
#: the shares of the limit at which the operator is warned
WARN_AT = (0.5, 0.9)
#: the answers Discord counts as invalid
INVALID = frozenset({401, 403, 429})
TOKEN_REFUSED = ("Discord refused the bot's token (401 Unauthorized): it was reset or revoked. "
                 "Nothing more is sent; undelivered messages stay in the outbox. Reset the token "
                 "in the Discord developer portal, put the new one in DISCORD_TOKEN and restart the bot.")
#: the paths of interaction responses and follow-ups, outside Discord's global limit
INTERACTION_PATHS = ("/interactions/", "/webhooks/")
#: the most rate-limit buckets remembered (the oldest is forgotten first)
MAX_BUCKETS = 4096


def path_of(url: Any) -> str:
    """The API path of a URL, without ``/api/v10`` and the query: ``/channels/1/messages``."""
    path = URL(str(url)).path
    if path.startswith("/api/v"):
        path = "/" + path.split("/", 3)[-1]
    return path


def scope_of(status: int, headers: Mapping[str, str]) -> str:
    """Whose limit an answer speaks of: "global", "shared" (a resource's, not counted toward the
    ban), "user" (the bot's own on a route), or "" when it says nothing."""
    scope = str(headers.get("X-RateLimit-Scope", "")).lower()
    if scope:
        return scope
    if str(headers.get("X-RateLimit-Global", "")).lower() == "true":
        return "global"
    return "user" if status == 429 else ""


class DiscordHealth:
    """The invalid requests of the last ``window`` seconds, and whether the token was refused."""

    def __init__(self, limit: int = BAN_LIMIT, window: float = BAN_WINDOW,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.window = window
        self.clock = clock
        self._times: deque[float] = deque()
        self._warned = 0  # how many of WARN_AT were passed (and told) so far
        #: the token was refused (a 401): nothing more is sent until a restart with a new one
        self.token_refused = False
        #: answers heard at the session, by where they count: "global" (the 50 a second) or
        #: "interaction" (responses and follow-ups, outside it)
        self.calls: Counter[str] = Counter()
        #: X-RateLimit-Bucket -> (limit, remaining, reset_after) of its latest answer
        self.buckets: dict[str, tuple[int, int, float]] = {}
        #: called with the wait of a global 429 (the pacer closes its budget for it)
        self.on_global: list[Callable[[float], None]] = []
        self._hearing = False  # the session hook hears every answer: refusals raised are counted there

    @property
    def count(self) -> int:
        """Invalid requests in the last ``window`` seconds."""
        now = self.clock()
        while self._times and self._times[0] <= now - self.window:
            self._times.popleft()
        return len(self._times)

    @property
    def strain(self) -> float:
        """The share of Discord's limit used (0 = none, 1 = the ban)."""
        return self.count / self.limit

    def note(self, status: int, *, shared: bool = False) -> bool:
        """A refusal raised to the bot; returns whether it counts as invalid. Once the session hook
        hears the answers (``heard``), it has counted this one already and it is not counted again."""
        if not self._hearing:  # (else the session hook has heard it already)
            metrics.discord_answer(status)
        if status not in INVALID or (status == 429 and shared):
            return False
        if self._hearing:
            return True
        return self._count(status)

    def heard(self, method: str, url: Any, status: int, headers: Mapping[str, str]) -> bool:
        """One answer as the session received it (every one, retried or not): counted by where it
        counts, its rate-limit headers kept, a global 429 passed on. Returns whether it counts as
        invalid."""
        self._hearing = True
        if status >= 400:
            metrics.discord_answer(status)
        path = path_of(url)
        self.calls["interaction" if path.startswith(INTERACTION_PATHS) else "global"] += 1
        scope = scope_of(status, headers)
        self._learn(headers)
        if status == 429 and scope == "global":
            wait = number(headers.get("Retry-After"), float) or 1.0
            log.warning("Discord's global rate limit was hit (%s %s); nothing is sent for %.1f s", method, path, wait)
            for listener in self.on_global:
                listener(wait)
        if status not in INVALID or (status == 429 and scope == "shared"):
            return False
        return self._count(status)

    def _learn(self, headers: Mapping[str, str]) -> None:
        bucket = headers.get("X-RateLimit-Bucket")
        limit = number(headers.get("X-RateLimit-Limit"), int)
        remaining = number(headers.get("X-RateLimit-Remaining"), int)
        reset_after = number(headers.get("X-RateLimit-Reset-After"), float)
        if bucket is None or limit is None or remaining is None or reset_after is None:
            return
        self.buckets.pop(bucket, None)
        self.buckets[bucket] = (limit, remaining, reset_after)
        if len(self.buckets) > MAX_BUCKETS:
            del self.buckets[next(iter(self.buckets))]

    def _count(self, status: int) -> bool:
        self._times.append(self.clock())
        if status == 401:
            self._refuse_token()
        self._warn()
        return True

    def _refuse_token(self) -> None:
        if not self.token_refused:
            self.token_refused = True
            log.error(TOKEN_REFUSED)

    def _warn(self) -> None:
        """Tell the operator once as each share of the limit is passed (again if it falls back)."""
        strain = self.strain
        passed = sum(1 for share in WARN_AT if strain >= share)
        if passed > self._warned:
            log.warning("Discord answered %d invalid requests (401/403/429) in the last %d minutes, "
                        "%d%% of the %d that get the bot's address banned for an hour; "
                        "cosmetic edits and narration are slowed until it falls",
                        self.count, self.window // 60, round(100 * strain), self.limit)
        self._warned = passed


def number(text: str | None, kind: Callable[[str], Any]) -> Any:
    """``kind(text)``, or None when the header is absent or not a number."""
    try:
        return None if text is None else kind(text)
    except ValueError:
        return None
