"""A successful answer's rate-limit headers reach the pacer under the key of the call that got it:
discord.py hands back no headers on success, so the session's trace hook (``Calls.trace``) hands
them to the call under way in the same task. The route's window narrows before Discord ever
answers 429; an answer that allows more than the window leaves it as it was.

Real parts: discord.py's HTTP client over a real aiohttp server on loopback."""

import contextlib

import discord
from aiohttp import web
from support.loopback import discord_on_loopback

from bot.delivery._calls import Calls
from bot.pacer import URGENT, Pacer


@contextlib.asynccontextmanager
async def discord_answering(monkeypatch, headers: dict[str, str]):
    """discord.py's HTTP client, its session hooked by ``Calls.trace``, on a server whose every
    answer carries ``headers``."""

    async def answer(request: web.Request) -> web.Response:
        if request.path.endswith("/users/@me"):
            return web.json_response({"id": "1", "username": "bot", "discriminator": "0", "avatar": None})
        return web.json_response({"id": "7", "type": 0}, headers=headers)

    async with discord_on_loopback(monkeypatch, answer):
        calls = Calls(None, Pacer(1000, 5, 5.0))
        http = discord.http.HTTPClient(None, http_trace=calls.trace())
        await http.static_login("offline")
        try:
            yield calls, http
        finally:
            await http.close()


def fetch(http, channel_id: int):
    async def fetch_channel():
        return await http.request(discord.http.Route("GET", "/channels/{channel_id}", channel_id=channel_id))
    return fetch_channel


async def test_a_routes_slower_limit_is_learned_from_a_successful_answer(monkeypatch):
    headers = {"X-RateLimit-Bucket": "abc", "X-RateLimit-Limit": "2", "X-RateLimit-Remaining": "1",
               "X-RateLimit-Reset-After": "10.0"}
    async with discord_answering(monkeypatch, headers) as (calls, http):
        await calls.call(URGENT, ("channel", 7), fetch(http, 7))
        window = calls.pacer._channels[(("channel", 7), "fetch_channel")]
        assert (window.limit, window.seconds) == (2, 10.0)  # Discord's pace: 2 calls in 10 s
        assert calls.health.buckets["abc"] == (2, 1, 10.0)  # (the health keeps it by bucket too)
        other = calls.pacer._channel((("channel", 8), "fetch_channel"))
        assert (other.limit, other.seconds) == (5, 5.0)  # another channel's route: its own window


async def test_an_answer_that_allows_as_much_leaves_the_window_as_it_was(monkeypatch):
    # 10 calls in 10 s is the window's own pace (5 in 5 s): mixed, they would make 5 in 10 s
    headers = {"X-RateLimit-Bucket": "abc", "X-RateLimit-Limit": "10", "X-RateLimit-Remaining": "9",
               "X-RateLimit-Reset-After": "10.0"}
    async with discord_answering(monkeypatch, headers) as (calls, http):
        await calls.call(URGENT, ("channel", 7), fetch(http, 7))
        window = calls.pacer._channels[(("channel", 7), "fetch_channel")]
        assert (window.limit, window.seconds) == (5, 5.0)


async def test_a_call_not_made_through_calls_teaches_no_window(monkeypatch):
    headers = {"X-RateLimit-Bucket": "abc", "X-RateLimit-Limit": "2", "X-RateLimit-Remaining": "1",
               "X-RateLimit-Reset-After": "10.0"}
    async with discord_answering(monkeypatch, headers) as (calls, http):
        await fetch(http, 7)()  # (an interaction answer, say): heard by the health, no key to learn for
        assert calls.pacer._channels == {}
        assert calls.health.buckets["abc"] == (2, 1, 10.0)
