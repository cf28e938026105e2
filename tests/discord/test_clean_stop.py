"""A clean stop with a send in flight (issue 31, item 7), on simcord with the real bot, calling
``shut_down`` as the SIGTERM handler does: a send that finishes within the grace is delivered and
marked so; one still going when the grace runs out is cut short, stays pending and goes once at
the next start, with the same nonce; nothing new is committed or armed meanwhile (the gateway is
closed, the timers are stopped), and the claims are released in every case."""

import asyncio
import sqlite3

import pytest
from support.sim import new_bot


class Hold:
    """Once ``armed``, a message posted to ``channel_id`` waits in flight (before Discord gets
    it) until ``release`` is set. ``nonces`` are those of every message posted there."""

    def __init__(self, channel_id: int) -> None:
        self.channel_id = channel_id
        self.armed = False
        self.held, self.release = asyncio.Event(), asyncio.Event()
        self.nonces: list[tuple[str | None, bool | None]] = []

    def holds(self, route) -> bool:
        return route.method == "POST" and route.path == "/channels/{channel_id}/messages" \
            and route.channel_id == self.channel_id


def hold_posts(env, bot, channel_id: int) -> Hold:
    """Put a ``Hold`` on ``bot``'s REST calls (the way every message goes to Discord)."""
    hold = Hold(channel_id)
    real = bot.http.request

    async def request(route, **kwargs):
        if hold.holds(route):
            body = kwargs.get("json") or {}
            if not body and kwargs.get("form"):
                import json
                body = json.loads(next(f["value"] for f in kwargs["form"] if f["name"] == "payload_json"))
            hold.nonces.append((body.get("nonce"), body.get("enforce_nonce")))
            if hold.armed:
                hold.held.set()
                await env.external_wait(hold.release.wait(), reason="the test holds a send in flight")
        return await real(route, **kwargs)

    bot.http.request = request
    return hold


@pytest.fixture
async def simcord_bot(db_path, clock):
    """The bot with a short grace (the tests wait it out in real time) and its timers running."""
    from support.sim import close_made_bots

    bot = new_bot(db_path, clock, stop_grace_seconds=0.5, use_scheduler=True)
    yield bot
    await bot.close()
    await close_made_bots()


async def tally(w, channel) -> int:
    """A game of Tally (host, ann, bo) at its first vote in ``channel``; its id."""
    lobby = (await w.host.slash(channel, "game new", kind="tally", options="vote_seconds=60 rounds=3")).response
    for member in (w.ann, w.bo):
        await member.click(lobby, label="Join")
    await w.host.click(lobby, label="Start")
    await w.settle()
    return (await w.bot.service.game_in_channel(channel.id)).id


#: the first round's result, the message held in flight
RESULT = "wins."


def read(db_path, sql, *args):
    with sqlite3.connect(db_path, timeout=10) as conn:
        return conn.execute(sql, args).fetchall()


def pending(db_path, game_id):
    return read(db_path, "SELECT id FROM outbox WHERE game_id = ? AND delivered_at IS NULL AND failure IS NULL",
                game_id)


async def a_send_in_flight(w, game_id: int) -> Hold:
    """The game's round closed by /mod skip, its result held in flight on the way to the channel."""
    hold = hold_posts(w.env, w.bot, w.channel.id)
    hold.armed = True
    await w.host.slash(w.channel, "mod skip")
    await asyncio.wait_for(hold.held.wait(), 10)
    assert pending(w.bot.settings.database_path, game_id)  # committed, acknowledged, not yet sent
    return hold


async def test_a_send_in_flight_finishes_within_the_grace(world, db_path):
    w = world
    game_id = await tally(w, w.channel)
    before = len(w.channel.history())
    hold = await a_send_in_flight(w, game_id)

    stopping = asyncio.create_task(w.bot.shut_down())
    await asyncio.sleep(0.1)  # the stop has begun: the gateway is closed, the grace runs
    assert not stopping.done()
    hold.release.set()
    assert await asyncio.wait_for(stopping, 10) is True  # every send finished in time

    assert any(RESULT in t for t in w.channel_texts()[before:])  # the result reached the channel
    assert pending(db_path, game_id) == []  # and its rows are marked delivered
    assert read(db_path, "SELECT id FROM games WHERE claimed_until IS NOT NULL") == []


async def test_a_send_cut_short_by_the_grace_goes_once_at_the_next_start(world, db_path, clock):
    w = world
    game_id = await tally(w, w.channel)
    other = await tally(w, w.guild.create_text_channel("more-games"))
    # a claim this process holds: an overdue phase it claimed but has not closed
    clock.advance(61)
    now = clock.now()
    assert [gid for gid, _seq in await w.bot.store.claim_due(now, now + 60)] == [game_id, other]
    hold = await a_send_in_flight(w, game_id)
    cut = pending(db_path, game_id)

    assert await asyncio.wait_for(w.bot.shut_down(), 10) is False  # the grace (0.5 s) ran out
    assert not any(RESULT in t for t in w.channel_texts())  # Discord never got it
    assert pending(db_path, game_id) == cut  # not lost, not marked sent
    assert read(db_path, "SELECT failure FROM outbox WHERE game_id = ? AND failure IS NOT NULL", game_id) == []
    # claims released though the grace ran out: another process may close those phases now
    assert read(db_path, "SELECT id FROM games WHERE claimed_until IS NOT NULL") == []
    hold.release.set()  # (the cut send does not come back to life)
    await asyncio.sleep(0.05)
    assert not any(RESULT in t for t in w.channel_texts())

    before = len(w.env.http_requests)
    await w.env.restart_bot(new_bot(db_path, clock))
    await asyncio.wait_for(w.bot.recovered.wait(), 10)
    await w.settle()
    assert pending(db_path, game_id) == []
    assert sum(RESULT in t for t in w.channel_texts()) == 1  # exactly once
    # the re-send carries the cut send's nonce, enforced: had Discord received the cut one, it
    # would answer with that message rather than post a second
    resent = [((r.json or {}).get("nonce"), (r.json or {}).get("enforce_nonce")) for r in w.env.http_requests[before:]
              if r.method == "POST" and r.path == f"/channels/{w.channel.id}/messages"]
    assert hold.nonces[-1] == (f"o{cut[0][0]}p0", True)  # the cut send's nonce: its row's
    assert resent[0] == hold.nonces[-1]


async def test_nothing_new_is_committed_or_armed_during_the_grace(world, db_path, clock):
    w = world
    game_id = await tally(w, w.channel)
    other = await tally(w, w.guild.create_text_channel("more-games"))
    phase_msg = [m for m in w.channel.history() if m.components][-1]
    w.bot.settings.stop_grace_seconds = 1.0
    # the other game's timer falls due 0.3 s from now, inside the grace
    row = await w.bot.store.game(other)
    w.bot.service.timers.arm(other, row.phase_seq, clock.now() + 0.3)
    clock.advance(61)
    hold = await a_send_in_flight(w, game_id)

    stopping = asyncio.create_task(w.bot.shut_down())
    await asyncio.sleep(0.05)
    # a click now never reaches the bot: Discord delivers interactions over the closed gateway
    res = await w.ann.click(phase_msg, label="Make my choice")
    assert not res.acknowledged
    await asyncio.sleep(0.6)  # past the other game's timer
    hold.release.set()
    assert await asyncio.wait_for(stopping, 10) is True
    assert read(db_path, "SELECT phase_seq FROM games WHERE id = ?", other) == [(row.phase_seq,)]
    assert read(db_path, "SELECT COUNT(*) FROM outbox WHERE game_id = ? AND delivered_at IS NULL", other) == [(0,)]



async def test_a_gateway_connection_that_does_not_close_does_not_hold_the_stop(world, db_path, monkeypatch):
    """A dead network: the shard's close never ends. The stop waits for it a moment, not forever,
    and the sends under way still get their grace."""
    w = world
    game_id = await tally(w, w.channel)
    monkeypatch.setattr("bot.client.GATEWAY_CLOSE_SECONDS", 0.2)
    shard = next(iter(w.bot._AutoShardedClient__shards.values()))  # (simcord's shard, under discord.py's)
    never = asyncio.Event()

    async def hangs():
        await never.wait()

    shard.disconnect = hangs
    hold = await a_send_in_flight(w, game_id)
    stopping = asyncio.create_task(w.bot.shut_down())
    await asyncio.sleep(0.3)  # past the gateway's moment, inside the grace
    assert not stopping.done()
    hold.release.set()
    assert await asyncio.wait_for(stopping, 5) is True
    assert pending(db_path, game_id) == []
