"""Discord's answer is the truth, on the simulated Discord: a refused token (401) stops the sending
without losing a message, and every 401, 403 and 429 is counted toward Discord's ban on invalid
requests, the 429s discord.py waits out and retries by itself included."""

import asyncio
import contextlib
import json
import logging

import discord
from aiohttp import web
from simcord import _dpy_internals
from simcord.backend.errors import BackendError
from simcord.http import router
from support.loopback import discord_on_loopback
from support.sim import new_bot, open_and_start


def channel_path(w):
    return f"/channels/{w.channel.id}/messages"


def channel_calls(w):
    """The calls to any channel (the game's, a DM)."""
    return [r for r in w.env.http_requests if r.path.startswith("/channels/")]


async def test_a_401_stops_the_sending_keeps_every_row_and_says_so_once(world, caplog, db_path, clock):
    w = world
    w.env.inject_error("*", "/channels/*", status=401, code=0, message="401: Unauthorized", times=None)
    with caplog.at_level(logging.WARNING):
        await open_and_start(w)
        await w.settle_retries()
    game_id = (await w.bot.service.game_in_channel(w.channel.id)).id
    pending = await w.bot.store.pending_messages(game_id)
    assert {"channel", "dm"} <= {r.target for r in pending}  # kept, not marked delivered
    assert w.bot.delivery.calls.stopped
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and "refused the bot's token" in errors[0] and "restart" in errors[0]
    assert len(channel_calls(w)) == 1  # one refused call (a DM), then nothing more was tried

    w.env.backend.faults.clear()  # even if Discord would answer now, the stopped bot sends nothing
    await w.bot.sweep()
    await w.settle()
    await asyncio.sleep(0.1)  # longer than every back-off of the test settings
    await w.settle()
    assert len(channel_calls(w)) == 1
    assert not w.bot.delivery.backing_off

    old = w.bot  # the operator puts a new token and restarts: everything goes out
    await w.env.restart_bot(new_bot(db_path, clock))
    await old.store.close()
    await w.settle_retries()
    assert any("Round 1" in t for t in w.channel_texts())
    assert await w.bot.store.pending_messages(game_id) == []


async def test_each_403_counts_toward_discords_ban_on_invalid_requests(world):
    w = world
    w.env.inject_error("POST", channel_path(w), status=403, code=50001, message="Missing Access", times=3)
    await open_and_start(w)
    await w.settle_retries()
    assert w.bot.delivery.calls.health.count == 3
    assert not w.bot.delivery.calls.stopped  # a missing permission is no refused token
    assert any("Round 1" in t for t in w.channel_texts())  # retried once the fault passed


# ----- every answer heard at discord.py's session, the 429s it retries by itself included -----

def as_json(data, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """A JSON answer with Discord's exact content type (discord.py reads no other as JSON)."""
    return web.Response(body=json.dumps(data).encode(), status=status,
                        headers={**(headers or {}), "Content-Type": "application/json"})


class Wire:
    """A real HTTP server in front of simcord's Discord, so the bot talks to it through discord.py's
    own HTTPClient and aiohttp session: a 429 is answered as Discord does (``Via``, ``Retry-After``,
    ``X-RateLimit-Scope``, ``retry_after`` in the body) and discord.py waits it out and retries by
    itself; every other answer carries a route's rate-limit headers."""

    def __init__(self, backend, scope: str = "user") -> None:
        self.backend = backend
        self.scope = scope

    async def answer(self, request: web.Request) -> web.StreamResponse:
        path = request.path.removeprefix("/api/v10")
        body = await request.json() if request.content_type == "application/json" else None
        try:
            data = router.dispatch(self.backend, request.method, path, json=body, params=dict(request.query))
        except BackendError as exc:
            if exc.status != 429:
                return as_json(exc.to_json(), status=exc.status)
            headers = {"Via": "1.1 google", "Retry-After": "0", "X-RateLimit-Scope": self.scope}
            if self.scope == "global":
                headers["X-RateLimit-Global"] = "true"
            return as_json({"message": "You are being rate limited.", "retry_after": 0.01,
                            "global": self.scope == "global"}, status=429, headers=headers)
        headers = {"X-RateLimit-Bucket": f"{request.method} {path.split('/')[1]}", "X-RateLimit-Limit": "5",
                   "X-RateLimit-Remaining": "4", "X-RateLimit-Reset-After": "1.0"}
        if data is None:
            return web.Response(status=204, headers=headers)
        return as_json(data, headers=headers)

    @contextlib.asynccontextmanager
    async def carrying(self, bot, monkeypatch):
        """``bot``'s REST calls on this wire, heard by the hook the bot installed on its session."""
        async with discord_on_loopback(monkeypatch, self.answer):
            http = discord.http.HTTPClient(asyncio.get_running_loop(), http_trace=bot.delivery.calls.trace())
            await http.static_login("offline")
            simcord_http = bot.http
            _dpy_internals.install_http(bot, http)
            try:
                yield
            finally:
                _dpy_internals.install_http(bot, simcord_http)
                await http.close()


def posts(w):
    return [r for r in w.env.http_requests if r.method == "POST" and r.path == channel_path(w)]


async def test_429s_discord_py_waits_out_by_itself_are_counted_once_each(world, monkeypatch):
    w = world
    before = len(w.env.http_requests)
    async with Wire(w.env.backend).carrying(w.bot, monkeypatch):
        w.env.inject_error("POST", channel_path(w), status=429, code=0, message="rate limited", times=3)
        await open_and_start(w)
        await w.settle_retries()
    health = w.bot.delivery.calls.health
    assert any("Round 1" in t for t in w.channel_texts())  # discord.py retried: the bot saw no refusal
    assert not w.bot.delivery.backing_off
    assert health.count == 3  # each 429 once, though none reached the bot as an exception
    assert len(posts(w)) >= 4  # the three refused, then the ones that went through
    rest = [r for r in w.env.http_requests[before:] if not r.path.startswith(("/interactions/", "/webhooks/"))]
    assert health.calls["global"] == len(rest)  # every call on the wire heard, the refused ones too
    assert health.buckets["POST channels"][0] == 5  # a route's headers, learned from its answers


async def test_shared_429s_are_heard_but_not_counted_toward_the_ban(world, monkeypatch):
    w = world
    async with Wire(w.env.backend, scope="shared").carrying(w.bot, monkeypatch):
        w.env.inject_error("POST", channel_path(w), status=429, code=0, message="rate limited", times=2)
        await open_and_start(w)
        await w.settle_retries()
    assert any("Round 1" in t for t in w.channel_texts())
    assert w.bot.delivery.calls.health.count == 0


async def test_a_global_429_retried_inside_discord_py_closes_the_pacers_budget(world, monkeypatch):
    w = world
    pacer = w.bot.delivery.calls.pacer
    full = pacer.total.limit
    async with Wire(w.env.backend, scope="global").carrying(w.bot, monkeypatch):
        w.env.inject_error("POST", channel_path(w), status=429, code=0, message="rate limited", times=1)
        await open_and_start(w)
        await w.settle_retries()
    assert any("Round 1" in t for t in w.channel_texts())
    assert w.bot.delivery.calls.health.count == 1
    assert pacer.total.limit == full // 2  # learned, though discord.py never raised it


async def test_a_403_raised_to_the_bot_is_counted_once_not_at_the_wire_and_again_by_delivery(world, monkeypatch):
    w = world
    async with Wire(w.env.backend).carrying(w.bot, monkeypatch):
        w.env.inject_error("POST", channel_path(w), status=403, code=50001, message="Missing Access", times=2)
        await open_and_start(w)
        await w.settle_retries()
    assert any("Round 1" in t for t in w.channel_texts())
    assert w.bot.delivery.calls.health.count == 2
