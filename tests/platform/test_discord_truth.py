"""Discord's answer is the truth: the invalid requests counted toward Discord's ban, a refused token,
and the pacer corrected by Discord's rate-limit headers (issue 30, item 6)."""

import asyncio
import logging
from types import SimpleNamespace

import discord
import pytest
from multidict import CIMultiDict
from support.seconds import SimulatedSeconds
from yarl import URL

from bot.delivery._calls import Calls, rate_limits
from bot.delivery._rules import Retry
from bot.discord_health import DiscordHealth
from bot.pacer import COSMETIC, NARRATION, URGENT, Pacer


class Clock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


class Response:
    """Just enough of aiohttp's response for ``discord.HTTPException``."""

    def __init__(self, status: int, headers: dict[str, str] | None = None) -> None:
        self.status = status
        self.reason = "refused"
        self.headers = headers or {}


def refusal(status: int, **headers: str) -> discord.HTTPException:
    response = Response(status, {k.replace("_", "-"): v for k, v in headers.items()})
    kind = discord.Forbidden if status == 403 else discord.HTTPException
    return kind(response, {"message": "refused", "code": 0})


# ----- the counter -----

def test_only_401_403_and_unshared_429_count_and_they_age_out_after_ten_minutes():
    clock = Clock()
    health = DiscordHealth(clock=clock)
    for status in (401, 403, 429, 404, 500, 400):
        health.note(status)
    health.note(429, shared=True)  # Discord does not count a shared limit's 429
    assert health.count == 3
    clock.t = 599.0
    health.note(403)
    assert health.count == 4
    clock.t = 600.0  # the first three are ten minutes old
    assert health.count == 1


def test_the_operator_is_warned_once_at_half_and_once_at_nine_tenths(caplog):
    clock = Clock()
    health = DiscordHealth(limit=100, clock=clock)
    with caplog.at_level(logging.WARNING, logger="bot.discord_health"):
        for _ in range(95):
            health.note(403)
    warnings = [r.getMessage() for r in caplog.records]
    assert len(warnings) == 2
    assert "50 invalid requests" in warnings[0] and "50%" in warnings[0]
    assert "90 invalid requests" in warnings[1] and "banned for an hour" in warnings[1]
    assert health.strain == pytest.approx(0.95)


def test_a_401_refuses_the_token_and_says_so_once_at_error(caplog):
    health = DiscordHealth()
    with caplog.at_level(logging.WARNING, logger="bot.discord_health"):
        health.note(403)
        assert not health.token_refused
        health.note(401)
        health.note(401)
    assert health.token_refused
    errors = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert len(errors) == 1
    assert "401" in errors[0].getMessage() and "Reset the token" in errors[0].getMessage()


# ----- the pacer slows what can wait near the ban -----

async def paced(pacer, seconds, calls):
    """The simulated time at which each (name, priority, key) was let through."""
    times: dict[str, float] = {}

    async def one(name, priority, key):
        await pacer.turn(priority, key)
        times[name] = seconds.t

    await asyncio.gather(*[one(*c) for c in calls])
    return times


async def test_near_the_ban_cosmetic_edits_slow_first_then_narration_and_urgent_never():
    seconds = SimulatedSeconds(yields=5)
    pacer = Pacer(per_second=50, per_channel=50, clock=seconds.now, sleep=seconds.sleep)
    calls = [(f"{kind}{i}", priority, (("channel", i), "send"))
             for kind, priority in (("edit", COSMETIC), ("story", NARRATION), ("opener", URGENT))
             for i in range(3)]
    assert max((await paced(pacer, seconds, calls)).values()) == 0.0  # all at once

    pacer.ease(0.6)  # past half of Discord's limit: one cosmetic edit a second
    seconds.t = 100.0
    times = await paced(pacer, seconds, calls)
    assert sorted(times[f"edit{i}"] for i in range(3)) == [100.0, 101.0, 102.0]
    assert {times[f"story{i}"] for i in range(3)} == {100.0}
    assert {times[f"opener{i}"] for i in range(3)} == {100.0}

    pacer.ease(0.95)  # past nine tenths: narration one a second, cosmetic one in ten seconds
    seconds.t = 200.0
    times = await paced(pacer, seconds, calls)
    assert sorted(times[f"story{i}"] for i in range(3)) == [200.0, 201.0, 202.0]
    assert sorted(times[f"edit{i}"] for i in range(3)) == [200.0, 210.0, 220.0]
    assert {times[f"opener{i}"] for i in range(3)} == {200.0}

    pacer.ease(0.1)  # the invalid requests aged out: the normal pace again
    seconds.t = 300.0
    assert set((await paced(pacer, seconds, calls)).values()) == {300.0}


# ----- the pacer learns from Discord's headers -----

async def test_a_global_429_closes_the_budget_for_its_wait_then_halves_it_for_a_minute():
    seconds = SimulatedSeconds(yields=5)
    pacer = Pacer(per_second=4, per_channel=50, clock=seconds.now, sleep=seconds.sleep)
    pacer.learn("any", retry_after=2.5, is_global=True)
    sends = [(f"s{i}", URGENT, (("channel", i), "send")) for i in range(4)]
    times = await paced(pacer, seconds, sends)
    assert sorted(times.values()) == [2.5, 2.5, 3.5, 3.5]  # two a second, after the wait
    seconds.t = 100.0  # a minute later the guess is back
    assert set((await paced(pacer, seconds, sends)).values()) == {100.0}


async def test_a_routes_headers_narrow_its_window_and_its_429_closes_it():
    seconds = SimulatedSeconds(yields=5)
    pacer = Pacer(per_second=50, per_channel=5, channel_seconds=5.0, clock=seconds.now, sleep=seconds.sleep)
    key = (("channel", 1), "edit")
    pacer.learn(key, limit=2, reset_after=8.0)  # Discord: this route takes 2 per 8 seconds
    times = await paced(pacer, seconds, [(f"e{i}", COSMETIC, key) for i in range(3)])
    assert sorted(times.values()) == [0.0, 0.0, 8.0]
    other = await paced(pacer, seconds, [(f"o{i}", URGENT, (("channel", 2), "send")) for i in range(5)])
    assert set(other.values()) == {8.0}  # another channel keeps the guess of 5 per 5 seconds
    pacer.learn(key, limit=50, reset_after=0.5)  # a looser answer never widens a learned window
    seconds.t = 50.0
    times = await paced(pacer, seconds, [(f"e{i}", COSMETIC, key) for i in range(3)])
    assert sorted(times.values()) == [50.0, 50.0, 58.0]
    seconds.t = 100.0
    pacer.learn(key, retry_after=3.0)
    times = await paced(pacer, seconds, [("late", URGENT, key)])
    assert times["late"] == 103.0


def test_the_headers_of_a_refusal_are_read_whatever_their_case():
    exc = refusal(429, **{"Retry-After": "3", "X-RateLimit-Scope": "global", "x-ratelimit-limit": "5",
                          "X-RateLimit-Reset-After": "2.5"})
    assert rate_limits(exc) == {"retry_after": 3.0, "is_global": True, "shared": False, "limit": 5,
                                "reset_after": 2.5}
    assert rate_limits(refusal(429, **{"X-RateLimit-Scope": "shared", "Retry-After": "x"})) == {
        "is_global": False, "shared": True}  # a wait that is not a number is left out
    assert rate_limits(discord.RateLimited(4.0)) == {"retry_after": 4.0, "shared": False}


# ----- Calls: every refusal counted and learned from; after a 401 nothing is sent -----

class Spy(Pacer):
    def __init__(self) -> None:
        super().__init__()
        self.learned: list[tuple] = []

    def learn(self, key, **kwargs) -> None:
        self.learned.append((key, kwargs))


async def test_calls_count_refusals_teach_the_pacer_and_send_nothing_after_a_401():
    calls = Calls(bot=None, pacer=Spy())
    made = []

    def refusing(exc):
        async def send():
            made.append(exc)
            raise exc
        return send

    for exc in (refusal(403), refusal(404), refusal(429, **{"Retry-After": "2", "X-RateLimit-Limit": "5",
                                                            "X-RateLimit-Reset-After": "4"})):
        with pytest.raises(discord.HTTPException):
            await calls.call(URGENT, ("channel", 7), refusing(exc))
    assert calls.health.count == 2  # the 403 and the 429, not the 404
    assert calls.pacer.learned == [((("channel", 7), "send"), {"retry_after": 2.0, "is_global": False,
                                                               "limit": 5, "reset_after": 4.0})]
    assert not calls.stopped

    with pytest.raises(discord.HTTPException):
        await calls.call(URGENT, ("channel", 7), refusing(refusal(401)))
    assert calls.stopped and calls.health.count == 3
    with pytest.raises(Retry):
        await calls.call(URGENT, ("channel", 7), refusing(refusal(500)))
    assert len(made) == 4  # the call after the 401 never reached Discord


# ----- every answer heard at discord.py's session -----

def headers(**named: str) -> CIMultiDict:
    """Response headers, case-insensitive as aiohttp gives them."""
    return CIMultiDict({k.replace("_", "-"): v for k, v in named.items()})


def test_every_answer_is_counted_where_it_counts_and_interactions_apart():
    health = DiscordHealth()
    health.heard("POST", "https://discord.com/api/v10/channels/1/messages", 200, headers())
    health.heard("PATCH", "https://discord.com/api/v10/channels/1/messages/2", 429, headers(Retry_After="1"))
    health.heard("POST", "https://discord.com/api/v10/interactions/5/tok/callback", 204, headers())
    health.heard("POST", "https://discord.com/api/v10/webhooks/6/tok?wait=1", 403, headers())
    assert health.calls == {"global": 2, "interaction": 2}
    assert health.count == 2  # the 429 (no scope: the bot's own) and the interaction's 403


def test_a_shared_429_is_heard_but_not_counted_and_a_header_in_any_case_is_read():
    health = DiscordHealth()
    assert not health.heard("POST", "/api/v10/channels/1/messages", 429, headers(**{"x-ratelimit-scope": "shared"}))
    assert health.heard("POST", "/api/v10/channels/1/messages", 429, headers(**{"X-RateLimit-Scope": "user"}))
    assert health.count == 1 and health.calls["global"] == 2


def test_a_global_429_is_told_to_the_listeners_with_its_wait(caplog):
    health = DiscordHealth()
    waits = []
    health.on_global.append(waits.append)
    with caplog.at_level(logging.WARNING, logger="bot.discord_health"):
        health.heard("POST", "/api/v10/channels/1/messages", 429, headers(X_RateLimit_Global="true", Retry_After="3"))
        health.heard("POST", "/api/v10/channels/1/messages", 429, headers(X_RateLimit_Scope="global"))
        health.heard("POST", "/api/v10/channels/1/messages", 429, headers(X_RateLimit_Scope="user", Retry_After="9"))
    assert waits == [3.0, 1.0]  # no wait given: a second
    assert "global rate limit" in caplog.records[0].getMessage()


def test_each_buckets_latest_headers_are_kept():
    health = DiscordHealth()
    health.heard("POST", "/api/v10/channels/1/messages", 200, headers(
        X_RateLimit_Bucket="abc", X_RateLimit_Limit="5", X_RateLimit_Remaining="4", X_RateLimit_Reset_After="1.5"))
    health.heard("POST", "/api/v10/channels/1/messages", 200, headers(
        X_RateLimit_Bucket="abc", X_RateLimit_Limit="5", X_RateLimit_Remaining="x", X_RateLimit_Reset_After="1"))
    assert health.buckets == {"abc": (5, 4, 1.5)}  # a header that is not a number changes nothing


def test_a_refusal_raised_after_the_session_heard_it_is_not_counted_twice():
    health = DiscordHealth()
    assert health.note(403) and health.count == 1  # nothing heard at the session yet: counted here
    health.heard("POST", "/api/v10/channels/1/messages", 403, headers())
    assert health.note(403)  # still invalid (the pacer eases), but counted once, when heard
    assert health.count == 2


async def test_the_bot_installs_the_hook_on_its_session_and_a_global_429_closes_the_pacer(tmp_path):
    from support.sim import bot_settings

    from bot.client import StorytellerBot

    bot = StorytellerBot(bot_settings(tmp_path / "bot.db"), use_scheduler=False)
    trace = bot.http.http_trace
    assert trace is not None
    [hook] = trace.on_request_end
    response = SimpleNamespace(status=429, headers=headers(X_RateLimit_Scope="global", Retry_After="2"))
    params = SimpleNamespace(method="POST", url=URL("https://discord.com/api/v10/channels/1/messages"),
                             response=response)
    await hook(None, None, params)
    assert bot.delivery.calls.health.count == 1
    pacer = bot.delivery.calls.pacer
    assert pacer.total.limit == pacer._total_limit // 2
    await bot.http.close()
