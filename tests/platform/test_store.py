"""The store's contract, run on both engines (a real SQLite file and a real PostgreSQL database):
migrations, one transaction per step, every query; and what is SQLite's own (WAL, old files)."""


import pytest
from support.old_database import database_at

from bot.deadlines import Deadlines
from bot.postgres import PG_MIGRATIONS
from bot.store import ChannelBusy, NewMessage, Slot, SqliteStore, migration_files
from bot.stores import open_store

#: a Discord id near the top of the snowflake range, and a deadline with its fraction
BIG = 1_456_074_443_980_800_021
WHEN = 1_795_000_000.125


@pytest.fixture
async def store(store_url):
    s = await open_store(store_url)
    yield s
    await s.close()


async def new_game(store, channel=10, now=100.0):
    return await store.create_game(kind="ritual", guild_id=1, channel_id=channel, host_id=7, seed=42,
                                   options={"choosing_seconds": "60"}, min_players=3, max_players=9,
                                   now=now)


def test_both_engines_have_the_same_numbered_migrations():
    assert [n for n, _ in migration_files(PG_MIGRATIONS)] == [n for n, _ in migration_files()]


async def test_migrations_record_the_version_and_opening_again_keeps_the_data(store_url, store):
    assert await store.version() == len(migration_files())
    gid = await new_game(store)
    await store.close()
    again = await open_store(store_url)
    assert await again.version() == len(migration_files())
    assert (await again.game(gid)).options == {"choosing_seconds": "60"}
    await again.close()


async def test_sqlite_runs_in_wal_mode(tmp_path):
    store = await open_store(tmp_path / "games.db")
    assert isinstance(store, SqliteStore)
    async with store.db.execute("PRAGMA journal_mode") as cur:
        assert (await cur.fetchone())[0] == "wal"
    await store.close()


async def test_one_active_game_per_channel(store):
    gid = await new_game(store)
    with pytest.raises(ChannelBusy):
        await new_game(store)
    await store.set_status(gid, "finished", 200.0)
    assert await new_game(store) != gid  # the channel is free again


async def test_commit_step_writes_state_log_and_outbox_together(store):
    gid = await new_game(store)
    msgs = [NewMessage("channel", None, '{"type": "x"}'), NewMessage("dm", 5, '{"type": "y"}', b"png")]
    await store.commit_step(gid, state='{"s": 1}', phase_seq=3, step=1, deadlines=Deadlines(close=500.0),
                            status="running", actor_id=5,
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
    await store.commit_step(gid, state="A", phase_seq=1, step=1, deadlines=Deadlines(),
                            status="running", actor_id=1, action='{"n": 1}', messages=[], now=1.0)
    # step 1 again breaks the log's UNIQUE (game, step): the whole step must roll back
    with pytest.raises(Exception, match="(?i)unique"):
        await store.commit_step(gid, state="B", phase_seq=2, step=1, deadlines=Deadlines(close=9.0),
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


async def test_outbox_survives_a_restart(store_url):
    path = store_url
    store = await open_store(path)
    gid = await new_game(store)
    await store.commit_step(gid, state="S", phase_seq=1, step=1, deadlines=Deadlines(),
                            status="running", actor_id=None, action=None,
                            messages=[NewMessage("dm", 3, '{"secret": true}')], now=1.0)
    await store.close()  # "crash" before delivery
    store = await open_store(path)
    assert await store.games_with_pending_messages() == [gid]
    assert (await store.pending_messages(gid))[0].payload == {"secret": True}
    await store.close()


async def test_upgrading_a_version_2_database_keeps_pending_messages(tmp_path):
    """Migration 003 rebuilds the outbox (a new target, 'group'): rows waiting to be sent survive;
    a player's own thread becomes the group of one, with the host."""
    path = tmp_path / "old.db"
    conn = database_at(path, 2)
    conn.execute("INSERT INTO games (kind, guild_id, channel_id, host_id, status, seed, min_players, "
                 "max_players, created_at, updated_at) VALUES ('ritual', 1, 10, 7, 'running', 3, 3, 9, 0, 0)")
    conn.execute("INSERT INTO outbox (game_id, target, recipient_id, phase_seq, payload, created_at) "
                 "VALUES (1, 'dm', 7, 1, '{\"type\": \"card\"}', 0)")
    conn.execute("INSERT INTO game_threads (game_id, owner_id, thread_id) VALUES (1, 8, 444)")
    conn.commit()
    conn.close()

    store = await open_store(path)
    assert await store.version() == len(migration_files()) >= 3
    assert [(m.target, m.recipient_id, m.payload) for m in await store.pending_messages(1)] == [
        ("dm", 7, {"type": "card"})]
    await store.commit_step(1, state="{}", phase_seq=2, step=1, deadlines=Deadlines(),
                            status="running", actor_id=None, action=None, now=1.0,
                            messages=[NewMessage("group", None, '{"type": "whisper"}')])
    assert [m.target for m in await store.pending_messages(1)] == ["dm", "group"]
    assert await store.group_thread(1, "player:8") == (444, [8, 7])
    await store.set_group_thread(1, "whisper:a+b", 555, [8, 7])
    assert await store.group_thread(1, "whisper:a+b") == (555, [7, 8])
    await store.close()


async def test_games_keep_discord_ids_times_and_every_column(store):
    gid = await store.create_game(kind="clocktower", guild_id=BIG, channel_id=BIG + 1, host_id=BIG + 2, seed=2**31 - 1,
                                  options={"script": "tb"}, min_players=5, max_players=15, now=WHEN,
                                  host_name="Hélène", seat_host=True)
    row = await store.game(gid)
    assert (row.guild_id, row.channel_id, row.host_id, row.seed, row.host_name) == (BIG, BIG + 1, BIG + 2,
                                                                                   2**31 - 1, "Hélène")
    assert (row.status, row.state, row.paused, row.remind_at) == ("lobby", None, False, None)
    assert await store.lobby_players(gid) == [(BIG + 2, "Hélène")]
    assert (await store.active_game_in_channel(BIG + 1)).id == gid
    assert [g.id for g in await store.active_games(BIG)] == [gid]
    assert await store.active_games(5) == []
    assert await store.set_options(gid, {"script": "bmr"}, WHEN)
    assert (await store.game(gid)).options == {"script": "bmr"}
    await store.set_thread_channel(gid, BIG + 3)
    assert (await store.game(gid)).threads_under == BIG + 3

    await store.commit_step(gid, state="S", phase_seq=4, step=1,
                            deadlines=Deadlines(close=WHEN, waiting=30.5, remind_at=WHEN + 180),
                            status="running", actor_id=BIG, action='{"a": 1}', now=WHEN, messages=[])
    row = await store.game(gid)
    assert (row.deadline, row.waiting_seconds, row.remind_at, row.phase_seq) == (WHEN, 30.5, WHEN + 180, 4)
    assert not await store.set_options(gid, {}, WHEN)  # only in the lobby

    await store.set_timer(gid, Deadlines(paused=True, remaining=12.25), WHEN, phase_seq=4,
                          messages=[NewMessage("channel", None, '{"n": "paused"}', op="refresh", slot="phase:4")])
    row = await store.game(gid)
    assert (row.deadline, row.paused_remaining, row.paused, row.remind_at) == (None, 12.25, True, None)
    [refresh] = await store.pending_messages(gid)
    assert (refresh.op, refresh.slot, refresh.phase_seq) == ("refresh", "phase:4", 4)

    await store.set_status(gid, "finished", WHEN, messages=[NewMessage("channel", None, '{"n": "end"}')])
    row = await store.game(gid)
    assert (row.status, row.deadline, row.paused, row.paused_remaining) == ("finished", None, False, None)
    assert (await store.pending_messages(gid))[-1].phase_seq == 4  # the game's phase, read in the write
    assert await store.active_game_in_channel(BIG + 1) is None


async def test_the_opening_message_starts_the_clock_once(store):
    gid = await new_game(store)
    await store.commit_step(gid, state="S", phase_seq=2, step=1, deadlines=Deadlines(waiting=60.0),
                            status="running", actor_id=None, action=None, now=1.0,
                            messages=[NewMessage("channel", None, '{"opens": true}', slot="phase:2")])
    [opener] = await store.pending_messages(gid)
    assert await store.opener_delivered(gid, 2, 70.0, [opener.id], 10.0)
    assert not await store.opener_delivered(gid, 2, 99.0, [], 11.0)  # already running
    row = await store.game(gid)
    assert (row.deadline, row.waiting_seconds) == (70.0, None)
    assert await store.pending_messages(gid) == []


async def test_a_reminder_is_sent_once_and_only_when_due(store):
    gid = await new_game(store)
    await store.commit_step(gid, state="S", phase_seq=3, step=1, deadlines=Deadlines(remind_at=100.0),
                            status="running", actor_id=None, action=None, now=1.0, messages=[])
    nudge = [NewMessage("channel", None, '{"nudge": 1}')]
    assert not await store.remind(gid, 3, nudge, 99.0)   # not yet
    assert not await store.remind(gid, 2, nudge, 101.0)  # another phase
    assert await store.remind(gid, 3, nudge, 101.0)
    assert not await store.remind(gid, 3, nudge, 102.0)  # once
    assert [m.payload for m in await store.pending_messages(gid)] == [{"nudge": 1}]
    assert (await store.game(gid)).remind_at is None


async def test_substitutes_records_and_the_log(store):
    gid = await new_game(store)
    await store.add_player(gid, 1, "Ann", 1.0, seat=1)
    await store.add_player(gid, 2, "Bo", 2.0, seat=2)
    await store.add_player(gid, 3, "Cy", 3.0, kind="spectator")
    await store.set_group_thread(gid, "player:1", 501, [1, 7])
    await store.set_group_thread(gid, "player:3", 502, [3, 7])  # Cy had a thread as a spectator
    await store.commit_step(gid, state="S", phase_seq=1, step=1, deadlines=Deadlines(),
                            status="running", actor_id=7, action='{"swap": 1}', now=5.0, messages=[],
                            substitutes=[(1, 3, "Cy")], records=[("vote", '{"v": 1}'), ("vote", '{"v": 2}')])
    assert await store.lobby_players(gid) == [(3, "Cy"), (2, "Bo")]  # Cy took seat 1
    assert await store.group_thread(gid, "player:3") == (501, [1, 7])
    assert await store.group_thread(gid, "player:1") is None
    await store.commit_step(gid, state="T", phase_seq=1, step=2, deadlines=Deadlines(),
                            status="running", actor_id=None, action='{"b": 2}', now=6.0, messages=[],
                            records=[("whisper", '{"w": 1}')])
    assert await store.records(gid) == [("vote", {"v": 1}), ("vote", {"v": 2}), ("whisper", {"w": 1})]
    assert [t for _k, _d, t in await store.timed_records(gid)] == [5.0, 5.0, 6.0]
    assert await store.actions(gid) == [{"swap": 1}, {"b": 2}]


async def test_signups_seats_kinds_and_storytellers(store):
    gid = await new_game(store)
    await store.add_player(gid, 1, "Ann", 1.0)
    await store.add_player(gid, 2, "Bo", 2.0, seat=2)
    await store.add_player(gid, 3, "Cy", 3.0, seat=1, kind="traveller")
    assert [(s.user_id, s.seat, s.kind) for s in await store.signups(gid)] == [
        (3, 1, "traveller"), (2, 2, "player"), (1, None, "player")]  # seats first, then by joining
    assert await store.change_signup(gid, 1, seat=3, kind="spectator")
    assert not await store.change_signup(gid, 99, seat=4, kind="player")
    assert await store.lobby_players(gid, None) == [(3, "Cy"), (2, "Bo"), (1, "Ann")]
    assert await store.lobby_players(gid, "spectator") == [(1, "Ann")]
    assert await store.add_storyteller(gid, BIG, "Sam", 1.0)
    assert not await store.add_storyteller(gid, BIG, "Sam", 2.0)
    assert await store.add_storyteller(gid, 8, "Tia", 3.0)
    assert await store.storytellers(gid) == [(BIG, "Sam"), (8, "Tia")]
    assert await store.remove_storyteller(gid, BIG)
    assert not await store.remove_storyteller(gid, BIG)
    assert await store.storytellers(gid) == [(8, "Tia")]


async def test_delivery_bookkeeping(store):
    gid = await new_game(store)
    other = await new_game(store, channel=11)
    msgs = [NewMessage("channel", None, f'{{"n": {i}}}', picture='{"p": 1}' if i == 0 else None) for i in range(4)]
    await store.commit_step(gid, state="S", phase_seq=1, step=1, deadlines=Deadlines(),
                            status="running", actor_id=None, action=None, messages=msgs, now=10.0)
    await store.commit_step(other, state="S", phase_seq=1, step=1, deadlines=Deadlines(),
                            status="running", actor_id=None, action=None, now=10.0,
                            messages=[NewMessage("group", None, '{"g": 1}')])
    assert await store.games_with_pending_messages() == [gid, other]
    rows = await store.pending_messages(gid)
    assert rows[0].picture == {"p": 1} and rows[1].picture is None
    await store.mark_parts_sent(rows[0].id, 2)
    assert (await store.pending_messages(gid))[0].parts_sent == 2
    await store.mark_all_delivered([rows[0].id, rows[1].id], 20.0)
    await store.mark_delivered(rows[2].id, 30.0, failure="Forbidden")
    assert [m.id for m in await store.pending_messages(gid)] == [rows[3].id]
    assert await store.prune_delivered(25.0) == 2  # delivered before 25
    assert await store.prune_delivered(25.0) == 0
    await store.mark_all_delivered([], 40.0)  # nothing to mark is fine


async def test_living_message_slots(store):
    gid = await new_game(store)
    await store.set_slots(gid, {"phase:1": Slot(BIG, 100, 100), "board": Slot(BIG, 100, 101, [{"e": 1}])})
    assert await store.slot(gid, "board") == Slot(BIG, 100, 101, [{"e": 1}])
    assert await store.phase_of_message(gid, 100) == 1
    await store.set_slot(gid, "board", Slot(BIG, 102, 102, None))  # replaced
    assert await store.slot(gid, "board") == Slot(BIG, 102, 102, None)
    # a later phase edited into message 100: the phases it showed are forgotten
    await store.set_slots(gid, {"phase:2": Slot(BIG, 100, 100)}, taken_over=100)
    assert await store.slot(gid, "phase:1") is None
    assert await store.phase_of_message(gid, 100) == 2
    assert await store.phase_of_message(gid, 555) is None


async def test_threads_dm_channels_and_guild_settings(store):
    gid = await new_game(store)
    await store.set_group_thread(gid, "whisper:a+b", BIG, [3, 1, 2])
    await store.set_group_thread(gid, "player:1", 77, [1])
    await store.set_group_thread(gid, "player:1", 78, [1, 7])  # replaced
    assert await store.group_threads(gid) == [("player:1", 78, [1, 7]), ("whisper:a+b", BIG, [1, 2, 3])]
    assert (await store.game_of_thread(BIG)).id == gid
    assert await store.game_of_thread(12345) is None
    assert await store.dm_channel(BIG) is None
    await store.set_dm_channel(BIG, 9)
    await store.set_dm_channel(BIG, 10)
    assert await store.dm_channel(BIG) == 10
    await store.forget_dm_channel(BIG)
    assert await store.dm_channel(BIG) is None
    await store.set_storyteller_role(BIG, None)
    assert await store.storyteller_role(BIG) is None


async def test_a_games_record_comes_back_in_step_order_from_beside_its_actions_and_from_its_own_table(store):
    """A step's record rows are kept beside its action (``actions.records``, migration 021); a step
    with no action (a game's start) keeps them in ``game_records``, as every step did before. The
    record is read from both, in (step, order), the rows written before the migration included."""
    gid = await new_game(store)
    step = 0

    async def commit(action, records):
        nonlocal step
        step += 1
        await store.commit_step(gid, state="{}", phase_seq=1, step=step, deadlines=Deadlines(), status="running",
                                actor_id=7 if action else None, action=action, messages=[], now=float(step),
                                records=records)

    await commit(None, [("deal", '{"n": 1}'), ("bluffs", '{"n": 2}')])  # a start: no action of its own
    await commit('{"type": "vote"}', [("vote", '{"voter": "7"}'), ("nomination", '{"by": "7"}')])
    await commit('{"type": "whisper"}', [])  # an action with no record
    # a step written by the version before: its action here, its record in game_records
    step += 1
    await store._write("INSERT INTO actions (game_id, step, actor_id, action, created_at) VALUES (?, ?, 7, ?, ?)",
                       (gid, step, '{"type": "vote"}', float(step)))
    await store._write("INSERT INTO game_records (game_id, step, seq, type, data, created_at) "
                       "VALUES (?, ?, 0, 'vote', '{\"voter\": \"8\"}', ?)", (gid, step, float(step)))
    await commit('{"type": "vote"}', [("vote", '{"voter": "9"}')])
    assert await store.timed_records(gid) == [
        ("deal", {"n": 1}, 1.0), ("bluffs", {"n": 2}, 1.0), ("vote", {"voter": "7"}, 2.0),
        ("nomination", {"by": "7"}, 2.0), ("vote", {"voter": "8"}, 4.0), ("vote", {"voter": "9"}, 5.0)]
    assert [a["type"] for a in await store.actions(gid)] == ["vote", "whisper", "vote", "vote"]
