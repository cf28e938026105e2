"""Several bot processes on one database, each owning its shards' games; a dead process's
deadlines taken over with no timeout applied twice. Each "process" is a service with its own store
(its own connections), on each engine; the PostgreSQL runs are the configuration that matters."""

import asyncio

import pytest
from pydantic import ValidationError
from support.actors import ANN, BO, HOST

from bot.config import Settings
from bot.deadlines import Deadlines
from bot.service import GameMovedOn, GameService, LobbyError
from bot.shards import Shards
from bot.stores import open_store
from games.engine import IllegalAction

SHARD_0 = Shards(2, frozenset({0}))
SHARD_1 = Shards(2, frozenset({1}))


def guild_on(shard: int, n: int = 1) -> int:
    """A server id that Discord puts on ``shard`` of 2."""
    return ((2 * n + shard) << 22) | 12345


async def started(service, guild: int, channel: int, seconds: int = 60) -> int:
    row = await service.new_game(kind="tally", guild_id=guild, channel_id=channel, host=HOST,
                                 options_text=f"vote_seconds={seconds} rounds=3")
    for p in (ANN, BO):
        await service.join(row.id, p)
    await service.start(row.id, HOST)
    return row.id


async def timeouts(store, game_id) -> int:
    return sum(a["type"] == "phase_timeout" for a in await store.actions(game_id))


@pytest.fixture
async def store(store_url):
    s = await open_store(store_url)
    yield s
    await s.close()


@pytest.fixture
async def processes(store_url, clock):
    """Open services (processes) on one database; all closed at the end."""
    opened: list[GameService] = []

    async def open_process(shards):
        service = GameService(await open_store(store_url), clock, shards=shards)
        opened.append(service)
        return service

    yield open_process
    for service in opened:
        await service.store.close()


def test_shard_settings_are_checked_in_words():
    assert Settings(_env_file=None, shard_count=4, shard_ids="1, 3").shards == Shards(4, frozenset({1, 3}))
    assert Settings(_env_file=None, shard_count=2, shard_ids="0,1").shards is None  # all of them
    assert Settings(_env_file=None).shards is None
    for bad, words in (({"shard_ids": "0"}, "needs SHARD_COUNT"), ({"shard_count": 2, "shard_ids": "2"}, "0 to 1"),
                       ({"shard_count": 2, "shard_ids": "a,b"}, "separated by commas")):
        with pytest.raises(ValidationError, match=words):
            Settings(_env_file=None, **bad)


async def test_each_process_rearms_sweeps_and_delivers_only_its_own_shards_games(processes, clock):
    first, second = await processes(SHARD_0), await processes(SHARD_1)
    mine = await started(first, guild_on(0), 100)
    theirs = await started(second, guild_on(1), 200)
    assert [g.id for g in await first.store.active_games(shards=SHARD_0)] == [mine]
    assert await first.store.games_with_pending_messages(shards=SHARD_0) == [mine]
    assert await second.store.games_with_pending_messages(shards=SHARD_1) == [theirs]

    clock.advance(61)
    assert await first.fire_due() == 1  # its own game only
    assert (await timeouts(first.store, mine), await timeouts(first.store, theirs)) == (1, 0)
    assert await second.fire_due() == 1
    assert await timeouts(second.store, theirs) == 1

    # a restart of the first process re-arms its own game only
    again = await processes(SHARD_0)
    assert await again.rearm_all() == 1
    assert set(again.timers.armed) == {mine}


async def test_a_dead_processs_deadlines_are_taken_over_once_by_two_sweepers(processes, clock):
    """Process A dies with five overdue phases; two processes that both took over A's shard sweep
    at the same moment: every phase closes exactly once."""
    dead = await processes(SHARD_0)
    games = [await started(dead, guild_on(0, n), 300 + n) for n in range(1, 6)]
    await dead.store.close()  # it dies: its timers die with it
    clock.advance(3600)

    left, right = await processes(None), await processes(Shards(2, frozenset({0})))
    fired = await asyncio.gather(left.fire_due(rounds=1), right.fire_due(rounds=1))
    assert sum(fired) == len(games)
    for game_id in games:
        assert await timeouts(left.store, game_id) == 1
        assert (await left.store.game(game_id)).phase_seq == 2


async def test_two_processes_applying_to_one_game_at_once_commit_once(processes, clock):
    """The step check: a second process that read the same step commits nothing and says so."""
    one, two = await processes(None), await processes(None)
    game_id = await started(one, guild_on(0), 400)
    clock.advance(61)
    await two.load(game_id)  # the second process has the game cached at the same step
    assert await one.on_deadline(game_id, 1)
    with pytest.raises(GameMovedOn, match="NOT recorded"):
        await two.act(game_id, ANN.id, {"type": "vote", "player": str(ANN.id), "target": "red"})
    assert not await two.on_deadline(game_id, 1)  # stale: that phase is over
    assert await timeouts(one.store, game_id) == 1
    # after the refusal the second process reads the game again, and the vote goes in
    await two.act(game_id, ANN.id, {"type": "vote", "player": str(ANN.id), "target": "red"})
    one._cache.clear()  # (a process caches only the games it owns; this one is read afresh)
    assert (await one.load(game_id)).state.votes == {str(ANN.id): "red"}


async def test_a_pause_or_cancel_by_another_process_is_never_written_over(processes, clock):
    """The commit also checks the row as its writer read it: a process holding the game from
    before another's pause (or cancel) commits nothing, says so, and the pause (or cancel) holds."""
    one, two = await processes(None), await processes(None)
    game_id = await started(one, guild_on(0), 410, seconds=600)
    vote = {"type": "vote", "player": str(ANN.id), "target": "red"}
    await two.load(game_id)  # read before the pause
    await one.pause(game_id, HOST)
    with pytest.raises(GameMovedOn, match="NOT recorded"):
        await two.act(game_id, ANN.id, vote)
    row = await one.store.game(game_id)
    assert row.paused and row.deadline is None
    assert not (await one.load(game_id)).state.votes
    with pytest.raises(IllegalAction, match="paused"):  # read again: the pause is seen
        await two.act(game_id, ANN.id, vote)

    await one.resume(game_id, HOST)
    await two.load(game_id)  # read before the cancel
    await one.cancel(game_id, HOST)
    with pytest.raises(GameMovedOn):
        await two.act(game_id, ANN.id, vote)
    assert (await one.store.game(game_id)).status == "cancelled"
    with pytest.raises(LobbyError, match="already over"):
        await two.cancel(game_id, HOST)


async def test_a_timer_change_for_a_phase_another_process_closed_changes_nothing(processes, clock):
    one, two = await processes(None), await processes(None)
    game_id = await started(one, guild_on(0), 420)
    await two.load(game_id)  # phase 1 as this process read it
    clock.advance(61)
    assert await one.on_deadline(game_id, 1)
    deadline = (await one.store.game(game_id)).deadline
    with pytest.raises(GameMovedOn, match="NOT done"):
        await two.extend(game_id, HOST, 300)  # meant for phase 1, which is over
    row = await one.store.game(game_id)
    assert row.phase_seq == 2 and row.deadline == deadline


async def test_a_claim_keeps_other_sweepers_off_until_the_commit_or_its_end(store):
    gid = await store.create_game(kind="tally", guild_id=guild_on(0), channel_id=1, host_id=1, seed=1,
                                  options={}, min_players=1, max_players=5, now=0.0)
    await store.commit_step(gid, state="{}", phase_seq=1, step=0, deadlines=Deadlines(close=10.0),
                            status="running", actor_id=None, action=None, messages=[], now=0.0)
    assert await store.claim_due(5.0, 65.0) == []  # not due yet
    assert await store.claim_due(11.0, 71.0) == [(gid, 1)]
    assert await store.claim_due(12.0, 72.0) == []  # claimed
    assert await store.claim_due(12.0, 72.0, shards=SHARD_1) == []
    assert await store.claim_due(80.0, 140.0, shards=SHARD_0) == [(gid, 1)]  # the claim ran out
    await store.commit_step(gid, state="{}", phase_seq=1, step=1, deadlines=Deadlines(close=10.0),
                            status="running", actor_id=None, action=None, messages=[], now=81.0)
    assert await store.claim_due(82.0, 142.0) == [(gid, 1)]  # a commit releases the claim


@pytest.mark.slow
async def test_real_processes_close_their_own_shards_phases_and_two_takeovers_close_each_once(
        processes, store_url, clock):
    """Separate OS processes on one database: each closes the overdue phases of its own shards only;
    then two processes that both run every shard start at the same moment: each phase closes once."""
    import json
    import sys
    import time
    from pathlib import Path

    from support.offline_process import children, python_env

    setup = await processes(None)
    shard_games = {0: [await started(setup, guild_on(0, n), 600 + n) for n in range(1, 4)],
                   1: [await started(setup, guild_on(1, n), 700 + n) for n in range(1, 4)]}
    past = time.time() - 1  # the sweeper processes run on the real clock
    await setup.store._write("UPDATE games SET deadline = ? WHERE status = 'running'", (past,))  # noqa: SLF001

    def run_together(*shard_ids):
        with children(*[[sys.executable, "-m", "support.sweeper", str(store_url), "2", ids] for ids in shard_ids],
                      cwd=Path.cwd(), env=python_env()) as procs:  # (each ended whatever happens)
            codes = [p.wait(120) for p in procs]
            assert codes == [0] * len(procs), [p.stderr() for p in procs]
            return [set(json.loads(p.stdout().strip().splitlines()[-1])) for p in procs]

    closed_0, closed_1 = run_together("0", "1")
    assert (closed_0, closed_1) == (set(shard_games[0]), set(shard_games[1]))
    for game_id in shard_games[0] + shard_games[1]:
        assert await timeouts(setup.store, game_id) == 1

    await setup.store._write("UPDATE games SET deadline = ? WHERE status = 'running'", (past,))  # noqa: SLF001
    left, right = run_together("0,1", "0,1")
    assert not left & right and left | right == set(shard_games[0] + shard_games[1])
    for game_id in shard_games[0] + shard_games[1]:
        assert await timeouts(setup.store, game_id) == 2
