"""Boundaries that passed while the bot was down (or its database refused) resolve at once, in
order, keeping the schedule's times: a Clocktower night whose first stage, lock and dawn are all
overdue reaches the day in one go, with the scheduler running and no sweep, on the timer's path
and on the start-up recovery's."""

import asyncio

from support.actors import ANN, HOST

from bot.service import GameService
from bot.stores import open_store

HOUR = 3600.0


async def night_begun(service: GameService) -> int:
    row = await service.new_game(kind="clocktower", guild_id=5, channel_id=51, host=HOST)
    for i in range(7):
        await service.join(row.id, type(ANN)(id=100 + i, name=f"P{i}"), seat=i + 1)
    await service.start(row.id, HOST)
    await service.storyteller_act(row.id, HOST, {"type": "begin"})
    return row.id


async def assert_day_on_schedule(service: GameService, game_id: int, first: float) -> None:
    """The day's nominations are open, at the schedule's time; each stage closed by its own
    timeout, in order, and each one's messages were queued for the table (the night's reminder
    stage has none unless someone acts tonight), and the messages of the stages closed wait to say
    so from the first of them (the game's mark: no delivery runs here)."""
    table = await service.load(game_id)
    assert (table.state.phase, table.state.stage) == ("day", "nominations")
    assert table.row.deadline == first + 4 * HOUR + 24 * HOUR  # dawn at 24 h, nominations close at 48 h
    logged = [a["type"] for a in await service.store.actions(game_id)]
    assert logged == ["begin", "phase_timeout", "phase_timeout", "phase_timeout"]
    queued = await service.store.pending_messages(game_id)
    steps = [m.step for m in queued if m.step is not None]
    assert steps == sorted(steps) and {3, 4} <= set(steps)  # the lock's and the dawn's own messages
    assert table.row.closed_from == 0  # (from the set-up: no delivery ran since the deal)
    assert any("Day 1 dawns" in m.payload.get("title", "") for m in queued if m.step == 4)


async def test_a_timer_that_closes_an_overdue_stage_closes_the_overdue_ones_after_it(service, clock):
    game_id = await night_begun(service)
    first = (await service.store.game(game_id)).deadline
    clock.advance(30 * HOUR)  # the stage's timeout was refused for 30 hours (a database fault)
    service.timers.start()
    try:
        service.timers.arm(game_id, (await service.store.game(game_id)).phase_seq, first)  # its retry
        for _ in range(200):
            await asyncio.sleep(0.01)
            if len(await service.store.actions(game_id)) >= 4:
                break
        await asyncio.sleep(0.05)  # nothing more comes
        await assert_day_on_schedule(service, game_id, first)
    finally:
        service.timers.shutdown()


async def test_start_up_recovery_closes_every_overdue_stage_in_order(tmp_path, clock):
    path = tmp_path / "bot.db"
    first_run = GameService(await open_store(path), clock)
    game_id = await night_begun(first_run)
    first = (await first_run.store.game(game_id)).deadline
    await first_run.store.close()  # the bot goes down in the night's first stage

    clock.advance(30 * HOUR)
    second = GameService(await open_store(path), clock)
    second.timers.start()  # as the bot starts its scheduler before recovering
    try:
        assert await second.rearm_all() == 1
        await assert_day_on_schedule(second, game_id, first)  # at once: no sweep, no waiting
    finally:
        second.timers.shutdown()
        await second.store.close()
