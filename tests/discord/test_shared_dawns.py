"""Shared deadlines on time (issue 30, item 3): when several games' phases fall due together, every
one is closed (each in its own transaction, in deadline order) before the first of their messages
is sent, and each new phase's clock still starts when its message is posted."""

import asyncio

import pytest

from bot.clock import SystemClock
from bot.timers import Timers

GAMES = 4
VOTE_SECONDS = 60


async def tables_due_together(w, clock) -> list[int]:
    """GAMES tally games, each in its own channel, started one second apart in the reverse order
    of their ids (so deadline order is not id order); returns their ids, earliest deadline first."""
    lobbies = []
    for i in range(GAMES):
        channel = w.guild.create_text_channel(f"table-{i}")
        res = await w.host.slash(channel, "game new", kind="tally", options=f"vote_seconds={VOTE_SECONDS} rounds=2")
        assert not res.ephemeral, res.response.content
        for member in (w.ann, w.bo):
            await member.click(res.response, label="Join")
        lobbies.append((channel, res.response))
    started = []
    for channel, lobby in reversed(lobbies):
        await w.host.click(lobby, label="Start")
        await w.settle()
        started.append((await w.bot.service.game_in_channel(channel.id)).id)
        clock.advance(1)
    return started


def record_commits(w) -> list[tuple[int, int, float | None, float | None]]:
    """(game id, HTTP requests made so far, deadline, waiting seconds) at each commit of a step."""
    commits: list[tuple[int, int, float | None, float | None]] = []
    real = w.bot.store.commit_step

    async def commit_step(game_id, **kwargs):
        await real(game_id, **kwargs)
        commits.append((game_id, len(w.env.http_requests), kwargs["deadlines"].close, kwargs["deadlines"].waiting))

    w.bot.store.commit_step = commit_step
    return commits


@pytest.mark.parametrize("path", ["sweep", "start-up", "timer jobs"])
async def test_every_due_phase_is_closed_in_deadline_order_before_any_message_is_sent(world, clock, path):
    w = world
    ids = await tables_due_together(w, clock)
    before = {gid: (await w.bot.store.game(gid)).phase_seq for gid in ids}
    clock.advance(VOTE_SECONDS + 5)  # every game's vote is overdue
    commits = record_commits(w)
    sent_before = len(w.env.http_requests)
    if path == "sweep":
        await w.bot.service.fire_due()
    elif path == "start-up":
        await w.bot.service.rearm_all()
    else:  # the timer jobs of one moment, in deadline order (Timers sorts them: tested below)
        await w.bot.service.on_deadlines([(gid, before[gid]) for gid in ids])
    if path != "start-up":  # (start-up goes on re-arming timers while the messages go out)
        clock.advance(7)  # the messages are posted later than the closing
    assert [gid for gid, *_ in commits] == ids  # one commit each, earliest deadline first
    assert all(sent == sent_before for _, sent, *_ in commits), "a message went out before every phase was closed"
    assert all(deadline is None and waiting == VOTE_SECONDS  # each new phase waits for its message
               for *_, deadline, waiting in commits)
    posted_at = clock.now()
    await w.settle()
    assert len(w.env.http_requests) > sent_before
    for gid in ids:
        row = await w.bot.store.game(gid)
        assert row.phase_seq != before[gid] and row.waiting_seconds is None
        assert row.deadline == pytest.approx(posted_at + VOTE_SECONDS)  # the clock runs from the post


async def test_only_the_batch_own_commits_are_held(world):
    """A game committing beside a batch (a click, its own task) is delivered at once; a task the
    batch started that outlives it is not held for good."""
    service = world.bot.service
    kicked: list[int] = []
    real = service._notify
    service._notify = kicked.append
    try:
        go, later = asyncio.Event(), asyncio.Event()

        async def commits_on(event, game_id):
            await event.wait()
            service._messages_ready(game_id)

        beside = asyncio.get_running_loop().create_task(commits_on(go, 2))
        with service.held_notifications():
            service._messages_ready(1)
            go.set()
            await beside
            late = asyncio.get_running_loop().create_task(commits_on(later, 3))  # in the batch's context
            assert kicked == [2]
        assert kicked == [2, 1]
        later.set()
        await late
        assert kicked == [2, 1, 3]
    finally:
        service._notify = real


async def test_timer_jobs_due_in_the_same_moment_are_closed_as_one_batch_in_deadline_order():
    batches: list[list[tuple[int, int]]] = []
    done = asyncio.Event()

    async def fire(game_id, phase_seq):
        raise AssertionError("a due phase was fired alone")

    async def fire_many(due):
        batches.append(due)
        done.set()

    clock = SystemClock()
    timers = Timers(clock, fire, fire_many=fire_many)
    timers.start()
    try:
        now = clock.now()
        timers.arm(3, 5, now + 0.03)
        timers.arm(1, 2, now + 0.02)
        timers.arm(2, 7, now + 0.01)
        timers.arm(4, 1, now + 0.02)
        timers.cancel(4)
        await asyncio.wait_for(done.wait(), timeout=10)
        await asyncio.sleep(0.1)
        assert batches == [[(2, 7), (1, 2), (3, 5)]]
    finally:
        timers.shutdown()


async def test_a_dawn_caught_up_after_its_night_edits_each_closed_message_once(world, clock):
    """A Clocktower night whose reminder, lock and dawn all fall due together (downtime, or games
    started together): each closed message is edited once, not once per stage that closed it."""
    from support.clocktower_helpers import begun

    w = world
    await begun(w, 7)
    since = len(w.env.http_requests)
    clock.advance(24 * 3600)  # the reminder stage, the lock and dawn, all due
    await w.bot.service.fire_due()
    await w.settle()
    edits = [(r.path, repr(r.json)) for r in w.env.http_requests[since:] if r.method == "PATCH"
             and "/messages/" in r.path]
    assert edits and len(edits) == len(set(edits)), edits
    assert any("Day 1 dawns" in t for t in w.channel_texts())
