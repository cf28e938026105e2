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
from typing import Any

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST

from . import metrics as metrics_module
from .metrics import DATABASE_SECONDS, Metrics

log = logging.getLogger(__name__)

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


class HealthServer:
    """The aiohttp server of ``/healthz`` and ``/metrics`` for one bot."""

    def __init__(self, bot: Any, host: str, port: int) -> None:
        self.bot = bot
        self.host = host
        self.port = port
        self.metrics = Metrics()
        self._runner: web.AppRunner | None = None

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/healthz", self._healthz)
        app.router.add_get("/metrics", self._metrics)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        try:
            await site.start()
        except OSError as exc:
            await self._runner.cleanup()
            self._runner = None
            raise HealthPortBusy(f"HEALTH_PORT {self.port} on {self.host} could not be opened "
                                 f"({exc.strerror or exc}); choose another port or HEALTH_HOST") from None
        server = getattr(site, "_server", None)
        if server is not None and server.sockets:
            self.port = server.sockets[0].getsockname()[1]  # the port chosen for 0
        metrics_module.install(self.metrics)

    async def stop(self) -> None:
        if metrics_module.installed() is self.metrics:
            metrics_module.install(None)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

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
    server = HealthServer(bot, settings.health_host, settings.health_port)
    try:
        await server.start()
    except HealthPortBusy as exc:
        log.error("no health endpoint: %s", exc)
        return None
    log.info("health and metrics at %s/healthz and %s/metrics", server.url, server.url)
    return server
