"""The store on a real SQLite file: migrations, WAL, one transaction per step, restart."""

import sqlite3

import pytest

from bot.store import ChannelBusy, NewMessage, Store, migration_files


@pytest.fixture
async def store(tmp_path):
    s = await Store.open(tmp_path / "games.db")
    yield s
    await s.close()


async def new_game(store, channel=10, now=100.0):
    return await store.create_game(kind="ritual", guild_id=1, channel_id=channel, host_id=7, seed=42,
                                   options={"choosing_seconds": "60"}, min_players=3, max_players=9,
                                   now=now)


async def test_migrations_set_user_version_and_wal(tmp_path, store):
    assert await store.version() == len(migration_files())
    async with store.db.execute("PRAGMA journal_mode") as cur:
        assert (await cur.fetchone())[0] == "wal"
    # opening again applies nothing new and keeps the data
    gid = await new_game(store)
    await store.close()
    again = await Store.open(tmp_path / "games.db")
    assert (await again.game(gid)).options == {"choosing_seconds": "60"}
    await again.close()


async def test_one_active_game_per_channel(store):
    gid = await new_game(store)
    with pytest.raises(ChannelBusy):
        await new_game(store)
    await store.set_status(gid, "finished", 200.0)
    assert await new_game(store) != gid  # the channel is free again


async def test_commit_step_writes_state_log_and_outbox_together(store):
    gid = await new_game(store)
    msgs = [NewMessage("channel", None, '{"type": "x"}'), NewMessage("dm", 5, '{"type": "y"}', b"png")]
    await store.commit_step(gid, state='{"s": 1}', phase_seq=3, step=1, deadline=500.0,
                            paused_remaining=None, status="running", actor_id=5,
                            action='{"type": "vote"}', messages=msgs, now=300.0)
    row = await store.game(gid)
    assert (row.state, row.phase_seq, row.deadline, row.status) == ('{"s": 1}', 3, 500.0, "running")
    assert await store.actions(gid) == [{"type": "vote"}]
    pending = await store.pending_messages(gid)
    assert [(m.target, m.recipient_id, m.image) for m in pending] == [("channel", None, None), ("dm", 5, b"png")]
    await store.mark_delivered(pending[0].id, 301.0)
    assert [m.id for m in await store.pending_messages(gid)] == [pending[1].id]


async def test_a_failed_step_leaves_nothing_behind(store):
    gid = await new_game(store)
    await store.commit_step(gid, state="A", phase_seq=1, step=1, deadline=None, paused_remaining=None,
                            status="running", actor_id=1, action='{"n": 1}', messages=[], now=1.0)
    # step 1 again breaks the log's UNIQUE (game, step): the whole step must roll back
    with pytest.raises(sqlite3.IntegrityError):
        await store.commit_step(gid, state="B", phase_seq=2, step=1, deadline=9.0, paused_remaining=None,
                                status="running", actor_id=1, action='{"n": 2}',
                                messages=[NewMessage("channel", None, "{}")], now=2.0)
    row = await store.game(gid)
    assert (row.state, row.phase_seq) == ("A", 1)
    assert await store.pending_messages(gid) == []
    assert await store.actions(gid) == [{"n": 1}]


async def test_lobby_and_settings(store):
    gid = await new_game(store)
    assert await store.add_player(gid, 1, "Ann", 1.0)
    assert not await store.add_player(gid, 1, "Ann", 2.0)
    assert await store.add_player(gid, 2, "Bo", 3.0)
    assert await store.lobby_players(gid) == [(1, "Ann"), (2, "Bo")]
    assert await store.remove_player(gid, 1)
    assert await store.lobby_players(gid) == [(2, "Bo")]
    assert await store.storyteller_role(1) is None
    await store.set_storyteller_role(1, 55)
    await store.set_storyteller_role(1, 56)
    assert await store.storyteller_role(1) == 56


async def test_outbox_survives_a_restart(tmp_path):
    path = tmp_path / "g.db"
    store = await Store.open(path)
    gid = await new_game(store)
    await store.commit_step(gid, state="S", phase_seq=1, step=1, deadline=None, paused_remaining=None,
                            status="running", actor_id=None, action=None,
                            messages=[NewMessage("dm", 3, '{"secret": true}')], now=1.0)
    await store.close()  # "crash" before delivery
    store = await Store.open(path)
    assert await store.games_with_pending_messages() == [gid]
    assert (await store.pending_messages(gid))[0].payload == {"secret": True}
    await store.close()


async def test_upgrading_a_version_2_database_keeps_pending_messages(tmp_path):
    """Migration 003 rebuilds the outbox (a new target, 'group'): rows waiting to be sent survive;
    a player's own thread becomes the group of one, with the host."""
    path = tmp_path / "old.db"
    conn = sqlite3.connect(path)
    for number, migration in migration_files():
        if number <= 2:
            conn.executescript(migration.read_text())
    conn.execute("PRAGMA user_version = 2")
    conn.execute("INSERT INTO games (kind, guild_id, channel_id, host_id, status, seed, min_players, "
                 "max_players, created_at, updated_at) VALUES ('ritual', 1, 10, 7, 'running', 3, 3, 9, 0, 0)")
    conn.execute("INSERT INTO outbox (game_id, target, recipient_id, phase_seq, payload, created_at) "
                 "VALUES (1, 'dm', 7, 1, '{\"type\": \"card\"}', 0)")
    conn.execute("INSERT INTO game_threads (game_id, owner_id, thread_id) VALUES (1, 8, 444)")
    conn.commit()
    conn.close()

    store = await Store.open(path)
    assert await store.version() == len(migration_files()) >= 3
    assert [(m.target, m.recipient_id, m.payload) for m in await store.pending_messages(1)] == [
        ("dm", 7, {"type": "card"})]
    await store.commit_step(1, state="{}", phase_seq=2, step=1, deadline=None, paused_remaining=None,
                            status="running", actor_id=None, action=None, now=1.0,
                            messages=[NewMessage("group", None, '{"type": "whisper"}')])
    assert [m.target for m in await store.pending_messages(1)] == ["dm", "group"]
    assert await store.group_thread(1, "player:8") == (444, [8, 7])
    await store.set_group_thread(1, "whisper:a+b", 555, [8, 7])
    assert await store.group_thread(1, "whisper:a+b") == (555, [7, 8])
    await store.close()
