"""What one step writes to SQLite, counted in pages (issue 38): the game's row, the action log's
row (its record beside it) and the message's rows, and nothing else. Before migration 018 a step
also wrote the action log's unique index, the record's index and the AUTOINCREMENT counters' page
(sqlite_sequence): 8 pages where 4 do. And an upgrade from version 17 keeps every row."""

import struct
from contextlib import asynccontextmanager

import asyncpg
from support.old_database import database_at

from bot.actor import Actor
from bot.clock import ManualClock
from bot.deadlines import Deadlines
from bot.postgres import PG_MIGRATIONS
from bot.service import GameService
from bot.store import NewMessage, SqliteStore, migration_files
from bot.stores import open_store

PAGE = 4096
FRAME_HEADER = 24


def commits_in_wal(path, start: int) -> list[list[int]]:
    """The pages of each transaction written to the WAL file since byte ``start``."""
    data = path.read_bytes()
    commits, pages, offset = [], [], start
    while offset + FRAME_HEADER <= len(data):
        page, commit_size = struct.unpack(">II", data[offset:offset + 8])
        pages.append(page)
        if commit_size:
            commits.append(pages)
            pages = []
        offset += FRAME_HEADER + PAGE
    return commits


@asynccontextmanager
async def closing(store):
    """The store, closed whatever the test finds (an open one would keep its thread, and the run, alive)."""
    try:
        yield store
    finally:
        await store.close()


async def quiet_store(path) -> SqliteStore:
    """A store whose WAL only grows (its checkpointer stopped), so each commit's pages can be read."""
    store = await SqliteStore.open(path)
    if store.checkpointer is not None:
        await store.checkpointer.close()
        store.checkpointer = None
    await store.db.execute("PRAGMA wal_autocheckpoint = 0")
    return store


async def test_a_step_with_a_record_and_a_message_writes_four_pages(tmp_path):
    """The game's row, the action with its record beside it (migration 021), the message and its
    pending index: 4 pages (8 before migration 018, 5 before 021)."""
    async with closing(await quiet_store(tmp_path / "pages.db")) as store:
        game_id = await store.create_game(kind="clocktower", guild_id=1, channel_id=10, host_id=7, seed=1,
                                          options={}, min_players=5, max_players=15, now=0.0)
        wal = tmp_path / "pages.db-wal"
        for step in range(1, 4):  # the first steps make their pages; the third is a step like any other
            start = wal.stat().st_size if wal.exists() else 0
            await store.commit_step(game_id, state=f'{{"step": {step}}}', phase_seq=1, step=step,
                                    deadlines=Deadlines(), status="running", actor_id=7,
                                    action='{"type": "vote"}', now=float(step),
                                    messages=[NewMessage("channel", None, '{"type": "tally"}', op="slot", slot="tally:1")],
                                    records=[("vote", '{"voter": "7"}')], follows=step - 1,
                                    as_read=await store.game(game_id))
        rows = await store.db.execute_fetchall("SELECT name, pageno FROM dbstat")
        names = {page: name for name, page in rows}
        [last] = commits_in_wal(wal, start)
        assert sorted(names.get(p, p) for p in last) == ["actions", "games", "outbox", "outbox_pending"]
        assert await store.records(game_id) == [("vote", {"voter": "7"})] * 3


async def test_upgrading_a_version_17_database_keeps_the_log_the_record_and_the_outbox(tmp_path):
    path = tmp_path / "v17.db"
    conn = database_at(path, 17)
    conn.execute("INSERT INTO games (kind, guild_id, channel_id, host_id, status, seed, min_players, "
                 "max_players, created_at, updated_at, step) VALUES ('ritual', 1, 10, 7, 'running', 3, 3, 9, 0, 0, 2)")
    conn.executemany("INSERT INTO actions (game_id, step, actor_id, action, created_at) VALUES (1, ?, 7, ?, 0)",
                     [(1, '{"type": "a"}'), (2, '{"type": "b"}')])
    conn.executemany("INSERT INTO game_records (game_id, step, type, data, created_at) VALUES (1, ?, ?, '{}', 0)",
                     [(1, "first"), (1, "second"), (2, "third")])
    conn.executemany("INSERT INTO outbox (game_id, target, phase_seq, payload, created_at, delivered_at) "
                     "VALUES (1, 'channel', 1, ?, 0, ?)", [('{"n": 1}', 5.0), ('{"n": 2}', None)])
    conn.commit()
    conn.close()

    async with closing(await open_store(path)) as store:
        assert await store.version() == len(migration_files()) >= 18
        assert await store.actions(1) == [{"type": "a"}, {"type": "b"}]
        assert [kind for kind, _ in await store.records(1)] == ["first", "second", "third"]
        [pending] = await store.pending_messages(1)
        assert pending.payload == {"n": 2} and pending.id == 2
        await store.commit_step(1, state="{}", phase_seq=2, step=3, deadlines=Deadlines(), status="running",
                                actor_id=7, action='{"type": "c"}', now=1.0, follows=2,
                                messages=[NewMessage("channel", None, '{"n": 3}')],
                                records=[("fourth", "{}"), ("fifth", "{}")])
        assert [kind for kind, _ in await store.records(1)] == ["first", "second", "third", "fourth", "fifth"]
        assert [m.id for m in await store.pending_messages(1)] == [2, 3]


async def test_a_prune_keeps_the_newest_message_so_no_id_is_given_twice(tmp_path):
    async with closing(await open_store(tmp_path / "prune.db")) as store:
        game_id = await store.create_game(kind="ritual", guild_id=1, channel_id=10, host_id=7, seed=1,
                                          options={}, min_players=3, max_players=9, now=0.0)
        for step in (1, 2):
            await store.commit_step(game_id, state="{}", phase_seq=1, step=step, deadlines=Deadlines(),
                                    status="running", actor_id=None, action=None, now=0.0,
                                    messages=[NewMessage("channel", None, f'{{"n": {step}}}')])
        ids = [m.id for m in await store.pending_messages(game_id)]
        await store.mark_all_delivered(ids, 1.0, None)
        assert await store.prune_delivered(before=100.0) == 1  # the newest stays
        await store.commit_step(game_id, state="{}", phase_seq=1, step=3, deadlines=Deadlines(),
                                status="running", actor_id=None, action=None, now=2.0,
                                messages=[NewMessage("channel", None, '{"n": 3}')])
        [new] = await store.pending_messages(game_id)
        assert new.id > max(ids)


async def test_upgrading_a_version_17_postgresql_database_keeps_the_log_and_the_record(postgres_url):
    """PostgreSQL's migration 018 gives the record its ``seq`` from the old ids and keys the log by
    (game, step), as SQLite's does, so ``bot.migrate`` copies the same rows both ways."""
    conn = await asyncpg.connect(postgres_url)
    try:  # (closed whatever happens: the database is dropped after the test)
        await conn.execute("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, "
                           "applied_at TIMESTAMPTZ NOT NULL DEFAULT now())")
        for number, migration in migration_files(PG_MIGRATIONS):
            if number <= 17:
                await conn.execute(migration.read_text())
                await conn.execute("INSERT INTO schema_migrations (version) VALUES ($1)", number)
        await conn.execute("INSERT INTO games (kind, guild_id, channel_id, host_id, status, seed, min_players, "
                           "max_players, created_at, updated_at, step) VALUES ('ritual', 1, 10, 7, 'running', 3, 3, "
                           "9, 0, 0, 2)")
        await conn.executemany("INSERT INTO actions (game_id, step, actor_id, action, created_at) "
                               "VALUES (1, $1, 7, $2, 0)", [(1, '{"type": "a"}'), (2, '{"type": "b"}')])
        await conn.executemany("INSERT INTO game_records (game_id, step, type, data, created_at) "
                               "VALUES (1, $1, $2, '{}', 0)", [(1, "first"), (1, "second"), (2, "third")])
    finally:
        await conn.close()

    async with closing(await open_store(postgres_url)) as store:
        assert await store.version() == len(migration_files(PG_MIGRATIONS)) >= 18
        assert await store.actions(1) == [{"type": "a"}, {"type": "b"}]
        assert [kind for kind, _ in await store.records(1)] == ["first", "second", "third"]
        await store.commit_step(1, state="{}", phase_seq=2, step=3, deadlines=Deadlines(), status="running",
                                actor_id=7, action='{"type": "c"}', now=1.0, follows=2, messages=[],
                                records=[("fourth", "{}"), ("fifth", "{}")])
        assert [kind for kind, _ in await store.records(1)] == ["first", "second", "third", "fourth", "fifth"]


async def test_a_clocktower_vote_writes_one_page_of_the_game_and_none_of_its_fixed_part(tmp_path):
    """A 15-player Clocktower day: the script and the pool live in ``game_fixed``, written at the deal
    and never by a vote, so the game's row (its state without them) is one page, not a page and an
    overflow page, and no page of ``game_fixed`` is written (migration 019)."""
    async with closing(await quiet_store(tmp_path / "vote.db")) as store:
        clock = ManualClock()
        service = GameService(store, clock)
        storyteller = Actor(id=1000, name="ST")
        row = await service.new_game(kind="clocktower", guild_id=1, channel_id=1, host=storyteller)
        for i in range(1, 16):
            await service.join(row.id, Actor(id=i, name=f"P{i}"), seat=i)
        await service.start(row.id, storyteller)
        await service.storyteller_act(row.id, storyteller, {"type": "begin"})
        clock.advance(24 * 3600)
        await service.fire_due()
        seats = (await service.load(row.id)).state.seats
        targets = [s.player for s in seats if s.character != "virgin"][:4]
        voters = [s.player for s in seats if s.player not in targets]  # (the first four nominate each target)
        wal = tmp_path / "vote.db-wal"
        written = []
        for i in range(12):
            voter, target = voters[i % len(voters)], targets[i % 4]
            start = wal.stat().st_size
            await service.act(row.id, int(voter), {"type": "vote", "player": voter, "target": target})
            written += commits_in_wal(wal, start)
        names = {page: name for name, page in await store.db.execute_fetchall("SELECT name, pageno FROM dbstat")}
        assert len(written) == 12
        for pages in written:
            tables = [names.get(p) for p in pages]
            assert tables.count("games") == 1 and "game_fixed" not in tables, tables
        # and a vote that nominates no one writes only its game's row and its action (its record beside
        # it): the tally it changed is drawn when shown (the row's mark), not written to the outbox
        for pages in written[4:]:
            assert sorted(names.get(p) for p in pages) == ["actions", "games"], pages
