"""A real HTTP server on loopback standing in for Discord's API, for discord.py's own HTTP client."""

import contextlib
from collections.abc import Awaitable, Callable

import discord
from aiohttp import web


@contextlib.asynccontextmanager
async def discord_on_loopback(monkeypatch, answer: Callable[[web.Request], Awaitable[web.StreamResponse]]):
    """Serve every request with ``answer`` on a free loopback port, and point discord.py's routes
    at it (for the test's length)."""
    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", answer)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]
    monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{port}/api/v10")
    try:
        yield
    finally:
        await runner.cleanup()
