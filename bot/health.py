"""The operator's endpoint, on HEALTH_PORT (off unless set; HEALTH_HOST, loopback by default):

* ``/healthz``: 200 with a small JSON body when the bot is ready (start-up recovery done, the
  database answers, every shard connected); 503 with the reasons otherwise. For a load balancer,
  a container's health check or systemd's watchdog script.
* ``/metrics``: Prometheus's text format (``bot.metrics``).

Served by the bot and by the offline table alike (both are a ``StorytellerBot``; the offline
table's simulated gateway is always connected), on a port of its own.
"""

from __future__ import annotations

import asyncio
import logging
import math
import sys
from typing import Any

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError
from prometheus_client import CONTENT_TYPE_LATEST

from . import metrics as metrics_module
from .config import Settings
from .metrics import DATABASE_SECONDS, Metrics

log = logging.getLogger(__name__)

#: a client has this long to send its whole request, and the most connections open at once: the
#: defaults of HEALTH_TIMEOUT_SECONDS and HEALTH_CONNECTIONS (the settings are their one source)
TIMEOUT_SECONDS: float = Settings.model_fields["health_timeout_seconds"].default
MOST_CONNECTIONS: int = Settings.model_fields["health_connections"].default


class HealthPortBusy(RuntimeError):
    """HEALTH_PORT could not be bound (in use, or not allowed)."""


async def database_problem(bot: Any, timeout: float | None = None) -> str | None:
    """Why the database does not answer (None: it answered ``SELECT 1`` within ``timeout``, by
    default ``DATABASE_SECONDS``)."""
    timeout = DATABASE_SECONDS if timeout is None else timeout
    store = getattr(bot, "store", None)
    if store is None:
        return "the database is not open yet"
    if store.closed:
        return "the database is closed"
    try:
        await asyncio.wait_for(store._read("SELECT 1"), timeout)
    except TimeoutError:
        return f"the database did not answer within {timeout:g} s"
    except Exception as exc:
        return f"the database refused ({type(exc).__name__}: {exc})"
    return None


def gateway_problem(bot: Any) -> str | None:
    """Why the bot is not connected to Discord (None: every shard is). A shard's latency is only
    reported: it is unknown until the first heartbeat is answered, up to a minute after READY."""
    if bot.is_closed():
        return "the bot is shutting down"
    if not bot.is_ready():
        return "not connected to Discord yet"
    down = sorted(sid for sid, shard in bot.shards.items() if shard.is_closed())
    if down:
        return "shard(s) " + ", ".join(map(str, down)) + " not connected"
    return None


async def check(bot: Any) -> tuple[bool, dict[str, Any]]:
    """Whether the bot is ready, and the body that says so (or why not)."""
    reasons = []
    recovered = bot.recovered.is_set()
    if not recovered:
        reasons.append("start-up recovery is not finished")
    database = await database_problem(bot)
    if database:
        reasons.append(database)
    gateway = gateway_problem(bot)
    if gateway:
        reasons.append(gateway)
    body: dict[str, Any] = {
        "status": "ok" if not reasons else "unavailable",
        "recovered": recovered,
        "database": "ok" if database is None else "down",
        "shards": {str(sid): (round(lat, 3) if math.isfinite(lat) else None) for sid, lat in bot.latencies},
    }
    if reasons:
        body["reasons"] = reasons
    return not reasons, body


class ServerLog(logging.LoggerAdapter):
    """aiohttp's server log: a request the client got wrong (malformed, a line too long) is its
    fault, not the bot's, so it is one INFO line with no traceback; an error in the endpoint's own
    handlers keeps its ERROR and traceback."""

    def __init__(self) -> None:
        super().__init__(log, {})

    def exception(self, msg: Any, *args: Any, exc_info: Any = True, **kwargs: Any) -> None:
        exc = exc_info if isinstance(exc_info, BaseException) else sys.exc_info()[1]
        if isinstance(exc, HttpProcessingError):
            self.info("health port: a bad request from %s, answered %s (%s)", args[0] if args else "?",
                      exc.code, one_line(exc.message))
        else:
            self.error(msg, *args, exc_info=exc_info, **kwargs)

    def debug(self, msg: Any, *args: Any, exc_info: Any = None, **kwargs: Any) -> None:
        if isinstance(exc_info, HttpProcessingError):  # (aiohttp's word on what is not HTTP at all)
            super().debug("health port: not HTTP from %s (%s)", args[0] if args else "?", one_line(exc_info.message))
        else:
            super().debug(msg, *args, exc_info=exc_info, **kwargs)


def one_line(text: Any) -> str:
    """A client's words in one short line (they may hold the raw bytes it sent, newlines included)."""
    return " ".join(str(text).split())[:200]


class Refused(asyncio.Protocol):
    """A connection beyond the cap: closed as soon as it is made."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        transport.close()


class Counted(asyncio.Protocol):
    """aiohttp's handler of one connection, told to ``on_lost`` when the connection ends."""

    def __init__(self, inner: Any, on_lost: Any) -> None:
        self.inner = inner
        self.on_lost = on_lost

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.inner.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received()

    def pause_writing(self) -> None:
        self.inner.pause_writing()

    def resume_writing(self) -> None:
        self.inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        self.on_lost(self)
        self.inner.connection_lost(exc)


class HealthServer:
    """The aiohttp server of ``/healthz`` and ``/metrics`` for one bot. A client has ``timeout``
    seconds to send its whole request, and one request per connection (a slow or silent client
    holds no file descriptor for long); beyond ``most`` connections at once a new one is closed."""

    def __init__(self, bot: Any, host: str, port: int, *, timeout: float = TIMEOUT_SECONDS,
                 most: int = MOST_CONNECTIONS) -> None:
        self.bot = bot
        self.host = host
        self.port = port
        self.timeout = timeout
        self.most = most
        self.metrics = Metrics()
        self._runner: web.AppRunner | None = None
        self._listener: asyncio.Server | None = None
        #: connection (aiohttp's handler) -> the call that cuts it if its request has not come
        self._deadlines: dict[Any, asyncio.TimerHandle] = {}
        self._full = False  # the cap was reached (said once, until there is room again)
        self._open: set[Counted] = set()  # the connections handed to aiohttp, until each ends

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    async def start(self) -> None:
        app = web.Application(middlewares=[self._one_request])
        app.router.add_get("/healthz", self._healthz)
        app.router.add_get("/metrics", self._metrics)
        self._runner = web.AppRunner(app, access_log=None, logger=ServerLog(), keepalive_timeout=self.timeout,
                                     lingering_time=self.timeout)
        await self._runner.setup()
        try:
            self._listener = await asyncio.get_running_loop().create_server(
                self._connection, self.host, self.port, reuse_address=True)
        except OSError as exc:
            await self._runner.cleanup()
            self._runner = None
            raise HealthPortBusy(f"HEALTH_PORT {self.port} on {self.host} could not be opened "
                                 f"({exc.strerror or exc}); choose another port or HEALTH_HOST") from None
        if self._listener.sockets:
            self.port = self._listener.sockets[0].getsockname()[1]  # the port chosen for 0
        metrics_module.install(self.metrics)

    def _connection(self) -> asyncio.BaseProtocol:
        """A new connection: aiohttp's handler, cut after ``timeout`` unless its request has come
        by then (``_one_request``); beyond the cap, one closed at once."""
        assert self._runner is not None and self._runner.server is not None
        server = self._runner.server
        # counted from here to its loss (aiohttp lists a connection only once it is made, after this
        # factory: a burst accepted in one pass of the loop would all pass its count)
        if len(self._open) >= self.most:
            if not self._full:
                self._full = True
                log.warning("health port: %d connections open, the most it keeps; more are closed at once "
                            "(HEALTH_CONNECTIONS)", self.most)
            return Refused()
        self._full = False
        handler = server()
        self._deadlines[handler] = asyncio.get_running_loop().call_later(self.timeout, self._cut, handler)
        counted = Counted(handler, self._lost)
        self._open.add(counted)
        return counted

    def _lost(self, counted: Counted) -> None:
        """A connection ended: it no longer counts, and its deadline is off."""
        self._open.discard(counted)
        deadline = self._deadlines.pop(counted.inner, None)
        if deadline is not None:
            deadline.cancel()

    def _cut(self, handler: Any) -> None:
        """The connection's request did not come within ``timeout``: closed."""
        if self._deadlines.pop(handler, None) is not None:
            log.debug("health port: a connection sent no whole request within %g s; closed", self.timeout)
            handler.force_close()

    @web.middleware
    async def _one_request(self, request: web.Request, handler: Any) -> web.StreamResponse:
        """The request came in time (its deadline is off), and is the connection's only one."""
        deadline = self._deadlines.pop(request.protocol, None)
        if deadline is not None:
            deadline.cancel()
        response = await handler(request)
        response.force_close()
        return response

    async def stop(self) -> None:
        if metrics_module.installed() is self.metrics:
            metrics_module.install(None)
        if self._listener is not None:
            self._listener.close()  # no new connection; those open are closed by the runner
        for deadline in self._deadlines.values():
            deadline.cancel()
        self._deadlines.clear()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self._listener is not None:
            await self._listener.wait_closed()
            self._listener = None

    async def _healthz(self, request: web.Request) -> web.Response:
        ready, body = await check(self.bot)
        return web.json_response(body, status=200 if ready else 503)

    async def _metrics(self, request: web.Request) -> web.Response:
        body = await self.metrics.scrape(self.bot)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})


async def serve_health(bot: Any) -> HealthServer | None:
    """Start the endpoint when HEALTH_PORT is set (None when it is not, or it could not be opened:
    the bot plays on, and the log says why)."""
    settings = bot.settings
    if settings.health_port is None:
        return None
    server = HealthServer(bot, settings.health_host, settings.health_port,
                          timeout=settings.health_timeout_seconds, most=settings.health_connections)
    try:
        await server.start()
    except HealthPortBusy as exc:
        log.error("no health endpoint: %s", exc)
        return None
    log.info("health and metrics at %s/healthz and %s/metrics", server.url, server.url)
    return server
