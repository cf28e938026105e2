"""A game's fixed part stored once (issue 38): the Clocktower's script and pool are set at the deal,
so they live apart from the state (``game_fixed``, read as ``GameRow.fixed``), written at the start
and when a re-deal changes the pool, never again with each vote. On SQLite and on PostgreSQL,
through the service."""

import json
import sqlite3

import pytest

import games
from bot.actor import Actor
from bot.clock import ManualClock
from bot.deadlines import Deadlines
from bot.service import GameService
from bot.store import migration_files
from bot.stores import open_store

ST = Actor(id=1000, name="ST")
HOUR = 3600.0
GAME = games.get("clocktower")


@pytest.fixture
async def store(store_url):
    store = await open_store(store_url)
    try:
        yield store
    finally:
        await store.close()


class Commits:
    """The ``fixed`` each ``commit_step`` of the store was given (None: the column left as it is)."""

    def __init__(self, store) -> None:
        self.fixed: list[str | None] = []
        real = store.commit_step

        async def commit_step(game_id, **kwargs):
            self.fixed.append(kwargs.get("fixed"))
            return await real(game_id, **kwargs)

        store.commit_step = commit_step


async def seated(service: GameService, players: int = 8) -> int:
    """A Clocktower game with ``players`` seated, started (in set-up: the characters dealt, not out)."""
    row = await service.new_game(kind="clocktower", guild_id=1, channel_id=1, host=ST)
    for i in range(1, players + 1):
        await service.join(row.id, Actor(id=i, name=f"P{i}"), seat=i)
    await service.start(row.id, ST)
    return row.id


async def to_day(service: GameService, clock: ManualClock, game_id: int) -> None:
    await service.storyteller_act(game_id, ST, {"type": "begin"})
    clock.advance(24 * HOUR)
    await service.fire_due()
    assert (await service.load(game_id)).state.phase == "day"


async def on_day_one(store) -> tuple[ManualClock, GameService, int]:
    """A seated Clocktower game at dawn of day 1, on a service of its own: its clock, service and id."""
    clock = ManualClock()
    service = GameService(store, clock)
    game_id = await seated(service)
    await to_day(service, clock, game_id)
    return clock, service, game_id


async def a_vote(service: GameService, game_id: int, voter: int = 2) -> None:
    state = (await service.load(game_id)).state
    target = next(s.player for s in state.seats if s.character != "virgin" and s.player != str(voter)
                  and state.votes.get(str(voter)) != s.player)
    await service.act(game_id, voter, {"type": "vote", "player": str(voter), "target": target})


async def stored(store, game_id: int) -> tuple[dict, dict | None]:
    row = await store.game(game_id)
    return json.loads(row.state), None if row.fixed is None else json.loads(row.fixed)


async def test_the_script_and_pool_are_stored_apart_and_load_back_after_a_restart(store):
    clock, service, game_id = await on_day_one(store)
    await a_vote(service, game_id)
    state, fixed = await stored(store, game_id)
    assert "script" not in state and "pool" not in state and "players" not in state
    assert fixed is not None and set(fixed) == {"script", "pool", "players"}
    live = (await service.load(game_id)).state
    assert fixed["script"]["name"] == live.script.name and fixed["pool"] == list(live.pool)

    restarted = GameService(store, clock)  # a new process on the same database: nothing cached
    assert (await restarted.load(game_id)).state.model_dump_json() == live.model_dump_json()
    await a_vote(restarted, game_id, voter=3)  # and it plays on
    assert (await restarted.load(game_id)).state.votes["3"]


async def test_a_vote_writes_no_fixed_part(store):
    clock, service, game_id = await on_day_one(store)
    before = (await store.game(game_id)).fixed
    commits = Commits(store)
    for voter in (2, 3, 4, 2):
        await a_vote(service, game_id, voter)
    assert commits.fixed == [None, None, None, None]
    assert (await store.game(game_id)).fixed == before
    # and after a restart too: the fixed part loaded from the row is not written back
    restarted = GameService(store, clock)
    await a_vote(restarted, game_id, voter=5)
    assert commits.fixed[-1] is None and (await store.game(game_id)).fixed == before


async def test_a_game_stored_whole_by_the_version_before_moves_its_fixed_part_out_at_its_next_step(store):
    clock, service, game_id = await on_day_one(store)
    live = (await service.load(game_id)).state
    whole = live.model_dump_json(exclude_defaults=True)  # as the version before stored it
    await store._write("UPDATE games SET state = ? WHERE id = ?", (whole, game_id))
    await store._write("DELETE FROM game_fixed WHERE game_id = ?", (game_id,))

    restarted = GameService(store, clock)
    assert (await restarted.load(game_id)).state.model_dump_json() == live.model_dump_json()
    commits = Commits(store)
    await a_vote(restarted, game_id)
    await a_vote(restarted, game_id, voter=3)
    assert commits.fixed[0] is not None and commits.fixed[1] is None  # moved out once
    state, fixed = await stored(store, game_id)
    assert "script" not in state and "pool" not in state
    assert fixed["pool"] == list(live.pool) and fixed["script"]["name"] == live.script.name
    again = GameService(store, clock)
    assert (await again.load(game_id)).state.script.model_dump_json() == live.script.model_dump_json()


async def test_a_redeal_with_a_new_pool_writes_the_new_pool(store):
    clock = ManualClock()
    service = GameService(store, clock)
    game_id = await seated(service)
    old_pool = (await service.load(game_id)).state.pool
    commits = Commits(store)
    await service.storyteller_act(game_id, ST, {"type": "redeal"})  # the same pool: nothing to write
    new_pool = list(reversed(old_pool))
    await service.storyteller_act(game_id, ST, {"type": "redeal", "pool": new_pool})
    assert commits.fixed[0] is None and commits.fixed[1] is not None
    _state, fixed = await stored(store, game_id)
    assert fixed["pool"] == new_pool != list(old_pool)
    assert (await GameService(store, clock).load(game_id)).state.pool == tuple(new_pool)


async def test_a_vote_on_sqlite_binds_no_script(tmp_path):
    """What SQLite is handed for a vote: nothing written to ``game_fixed``, and no statement of it
    carries the script's or the pool's bytes."""
    store = await open_store(tmp_path / "traced.db")
    try:
        clock = ManualClock()
        service = GameService(store, clock)
        game_id = await seated(service)
        await to_day(service, clock, game_id)
        script_name = json.dumps((await service.load(game_id)).state.script.name)
        statements: list[str] = []
        await store.db.set_trace_callback(statements.append)  # (the trace shows the bound values)
        try:
            await a_vote(service, game_id)
        finally:
            await store.db.set_trace_callback(None)
        [update] = [sql for sql in statements if sql.startswith("UPDATE games SET state")]
        assert '"script"' not in update and '"pool"' not in update
        assert not [sql for sql in statements if "INTO game_fixed" in sql]
        assert script_name not in "".join(statements)
    finally:
        await store.close()


async def test_a_version_18_database_upgrades_and_its_clocktower_game_plays_on(tmp_path):
    """A file of the version before (schema 18, no ``game_fixed`` table, the script inside the state)
    opened by this one: migration 019 adds the table, the game loads as it was, and its first
    step moves the script and the pool out of the state."""
    path = tmp_path / "v18.db"
    store = await open_store(path)
    clock = ManualClock()
    try:
        service = GameService(store, clock)
        game_id = await seated(service)
        await to_day(service, clock, game_id)
        live = (await service.load(game_id)).state
    finally:
        await store.close()
    with sqlite3.connect(path) as conn:  # back to how version 18 stored it
        conn.execute("UPDATE games SET state = ? WHERE id = ?", (live.model_dump_json(exclude_defaults=True), game_id))
        conn.execute("DROP TABLE game_fixed")
        conn.execute("ALTER TABLE games DROP COLUMN live_step")  # (migration 020's)
        conn.execute("ALTER TABLE games DROP COLUMN closed_from")  # (migration 022's)
        # (migration 021's: the records kept beside the actions go back to game_records)
        conn.execute("INSERT INTO game_records (game_id, step, seq, type, data, created_at) "
                     "SELECT a.game_id, a.step, CAST(j.key AS INTEGER), json_extract(j.value, '$[0]'), "
                     "json_extract(j.value, '$[1]'), a.created_at FROM actions AS a, json_each(a.records) AS j")
        conn.execute("ALTER TABLE actions DROP COLUMN records")
        conn.execute("PRAGMA user_version = 18")
    conn.close()

    store = await open_store(path)
    try:
        assert await store.version() == len(migration_files())
        assert (await store.game(game_id)).fixed is None
        service = GameService(store, clock)
        assert (await service.load(game_id)).state.model_dump_json() == live.model_dump_json()
        await a_vote(service, game_id)
        state, fixed = await stored(store, game_id)
        assert "script" not in state and fixed["pool"] == list(live.pool)
    finally:
        await store.close()


async def test_the_store_writes_a_fixed_part_only_when_given_one(store):
    """``commit_step``'s ``fixed``: written when given, left as it is when None, on both of
    PostgreSQL's ways (one statement, and statement by statement when a seat changes hands)."""
    game_id = await store.create_game(kind="clocktower", guild_id=1, channel_id=10, host_id=7, seed=1,
                                      options={}, min_players=5, max_players=15, now=0.0)
    assert (await store.game(game_id)).fixed is None

    async def commit(step: int, **kwargs) -> None:
        await store.commit_step(game_id, state=f'{{"step": {step}}}', phase_seq=1, step=step,
                                deadlines=Deadlines(), status="running", actor_id=None, action=None,
                                messages=[], now=float(step), **kwargs)

    await commit(1, fixed='{"pool": ["a"]}')
    await commit(2)
    assert (await store.game(game_id)).fixed == '{"pool": ["a"]}'
    await commit(3, fixed='{"pool": ["b"]}', substitutes=[(7, 8, "Eight")])
    row = await store.game(game_id)
    assert (row.state, row.fixed) == ('{"step": 3}', '{"pool": ["b"]}')


async def test_a_field_newly_declared_fixed_is_stored_at_the_next_step_not_lost(store, monkeypatch):
    """A fixed part stored before the game declared one more field fixed lacks that field: the next
    step writes the whole fixed part again (else the field would be in neither the state nor it)."""
    clock = ManualClock()
    this_version = GAME.fixed_fields
    monkeypatch.setattr(type(GAME), "fixed_fields", ("script",))  # a version before: the pool in the state
    service = GameService(store, clock)
    game_id = await seated(service)
    await to_day(service, clock, game_id)
    state, fixed = await stored(store, game_id)
    assert "pool" in state and set(fixed) == {"script"}
    live = (await service.load(game_id)).state

    monkeypatch.setattr(type(GAME), "fixed_fields", this_version)
    restarted = GameService(store, clock)
    commits = Commits(store)
    await a_vote(restarted, game_id)
    await a_vote(restarted, game_id, voter=3)
    assert commits.fixed[0] is not None and commits.fixed[1] is None
    state, fixed = await stored(store, game_id)
    assert "pool" not in state and fixed["pool"] == list(live.pool)
    assert (await GameService(store, clock).load(game_id)).state.pool == live.pool
