"""What Discord's answers say about the bot's standing: the invalid requests of the last ten minutes,
and whether the token was refused.

Discord bans the bot's IP address for an hour once it has made 10,000 invalid requests (answered
401, 403 or 429, except a 429 of a shared rate limit) in ten minutes. The count is kept here, the
operator is warned as it nears the limit, and the pacer slows what can wait (``strain``). A 401 means
the token was reset or revoked: nothing sent with it can succeed, so the bot stops sending and says
so once, rather than retrying into the ban.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable

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
        """An answer from Discord; returns whether it counts as invalid."""
        metrics.discord_answer(status)
        if status not in INVALID or (status == 429 and shared):
            return False
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
