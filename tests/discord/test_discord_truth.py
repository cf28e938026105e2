"""Discord's answer is the truth, on the simulated Discord: a refused token (401) stops the sending
without losing a message, and every 403 is counted toward Discord's ban on invalid requests."""

import asyncio
import logging

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
