"""``python -m bot migrate-db``: a SQLite database holding running games of every kind, copied to a
real PostgreSQL database; every game continues there exactly where it was."""

import asyncio
import json
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from support.actors import HOST

import games
from bot.__main__ import main
from bot.actor import Actor
from bot.migrate import DERIVED, TABLES
from bot.postgres import PostgresStore
from bot.service import GameService
from bot.store import NewMessage, Slot
from bot.stores import open_store
from games.engine import StorytellerAction

KINDS = {"ritual": 4, "cauldron": 5, "castle": 4, "clocktower": 8, "tally": 3}


async def play_some(service: GameService, game_id: int, moves: int, rng: random.Random) -> None:
    for _ in range(moves):
        table = await service.load(game_id)
        legal = table.game.legal_actions(table.state)
        if not legal:
            return
        action = rng.choice(legal)
        data = action.model_dump(exclude={"player"} if isinstance(action, StorytellerAction) else set())
        if isinstance(action, StorytellerAction):
            await service.storyteller_act(game_id, HOST, data)
        else:
            await service.act(game_id, int(action.player), data)


async def running_games(service: GameService) -> list[int]:
    rng = random.Random(7)
    ids = []
    for n, (kind, players) in enumerate(KINDS.items()):
        row = await service.new_game(kind=kind, guild_id=5, channel_id=500 + n, host=HOST)
        for i in range(players):
            await service.join(row.id, Actor(id=1000 + 10 * n + i, name=f"P{n}{i}"),
                               **({"seat": i + 1} if kind == "clocktower" else {}))
        await service.start(row.id, HOST)
        await play_some(service, row.id, 12, rng)
        ids.append(row.id)
    # a lobby, a finished game, and the bookkeeping of delivery
    lobby = await service.new_game(kind="ritual", guild_id=5, channel_id=599, host=HOST)
    await service.store.set_slots(ids[0], {"phase:1": Slot(77, 78, 79, [{"e": 1}])})
    await service.store.set_group_thread(ids[3], "whisper:a+b", 88, [1, 2])
    await service.store.set_dm_channel(1000, 66)
    await service.store.set_storyteller_role(5, 44)
    await service.store.add_storyteller(ids[3], 9, "Co", 1.0)
    await service.store.set_status(ids[4], "finished", 2.0, [NewMessage("dm", 3, '{"x": 1}', b"\x89PNG")])
    pending = await service.store.pending_messages(ids[0])
    await service.store.mark_all_delivered([m.id for m in pending[:2]], 3.0)
    return ids + [lobby.id]


def test_the_copy_names_every_column_of_both_schemas(tmp_path, postgres_server):
    import asyncio

    async def columns():
        sqlite_store = await open_store(tmp_path / "x.db")
        pg_url = postgres_server.new_database()
        pg = await PostgresStore.open(pg_url)
        try:
            lite = {t: tuple(r[1] for r in await sqlite_store._read(f"PRAGMA table_info({t})")) for t in TABLES}
            tables = await sqlite_store._read("SELECT name FROM sqlite_master WHERE type = 'table' "
                                              "AND name NOT LIKE 'sqlite_%'")
            pgcols = {t: tuple(r[0] for r in await pg._read(
                "SELECT column_name FROM information_schema.columns WHERE table_name = ? ORDER BY ordinal_position",
                (t,))) for t in TABLES}
            return lite, {r[0] for r in tables}, pgcols
        finally:
            await sqlite_store.close()
            await pg.close()
            postgres_server.drop_database(pg_url)

    lite, tables, pg = asyncio.run(columns())
    assert tables == set(TABLES) | set(DERIVED)
    for table, names in TABLES.items():
        assert set(names) == set(lite[table]) == set(pg[table]), table


@pytest.mark.slow
async def test_running_games_of_every_kind_continue_on_postgresql(tmp_path, postgres_url, clock, capsys):
    path = tmp_path / "storyteller.db"
    before = GameService(await open_store(path), clock)
    ids = await running_games(before)
    states = {gid: (await before.store.game(gid)) for gid in ids}
    clocktower = ids[list(KINDS).index("clocktower")]
    assert states[clocktower].fixed is not None and "script" not in json.loads(states[clocktower].state)
    outboxes = {gid: await before.store.pending_messages(gid) for gid in ids}
    logs = {gid: await before.store.actions(gid) for gid in ids}
    records = {gid: await before.store.records(gid) for gid in ids}
    armed_before = await before.rearm_all()
    await before.store.close()

    done = subprocess.run([sys.executable, "-m", "bot", "migrate-db", "--from", f"sqlite:///{path}",
                           "--to", postgres_url], capture_output=True, text=True, timeout=120,
                          cwd=Path(__file__).resolve().parents[2])
    assert done.returncode == 0, done.stderr
    counts = dict(line.split()[:2] for line in done.stdout.splitlines() if line.endswith(" rows"))
    assert counts["games"] == str(len(ids)) and int(counts["outbox"]) > 0 and int(counts["actions"]) > 40
    assert "Verified" in done.stdout

    after = GameService(await open_store(postgres_url), clock)
    try:
        for gid in ids:
            assert await after.store.game(gid) == states[gid]
            assert await after.store.pending_messages(gid) == outboxes[gid]
            assert await after.store.actions(gid) == logs[gid]
            assert await after.store.records(gid) == records[gid]
        assert await after.store.slot(ids[0], "phase:1") == Slot(77, 78, 79, [{"e": 1}])
        assert await after.store.group_thread(ids[3], "whisper:a+b") == (88, [1, 2])
        assert await after.store.storytellers(ids[3]) == [(9, "Co")]
        assert (await after.store.dm_channel(1000), await after.store.storyteller_role(5)) == (66, 44)
        assert await after.rearm_all() == armed_before
        # every running game goes on: one more legal move each, logged after the copied ones
        rng = random.Random(8)
        for gid in ids[:4]:
            await play_some(after, gid, 1, rng)
            assert len(await after.store.actions(gid)) == len(logs[gid]) + 1
        new = await after.new_game(kind="ritual", guild_id=5, channel_id=700, host=HOST)
        assert new.id == max(ids) + 1  # new rows take the next ids
        on_postgresql = await after.store.game(clocktower)
    finally:
        await after.store.close()

    # and back to a new SQLite file: the Clocktower's script and pool (its fixed part) come too
    back = tmp_path / "back.db"
    assert await cli("migrate-db", "--from", postgres_url, "--to", f"sqlite:///{back}") == 0
    returned = GameService(await open_store(back), clock)
    try:
        row = await returned.store.game(clocktower)
        assert (row.state, row.fixed) == (on_postgresql.state, on_postgresql.fixed)
        game = games.get("clocktower")
        assert (await returned.load(clocktower)).state.model_dump_json() == game.load_state(
            on_postgresql.state, on_postgresql.fixed).model_dump_json()
    finally:
        await returned.store.close()


async def cli(*args) -> int:
    return await asyncio.to_thread(main, list(args))


async def test_the_copy_refuses_in_words_and_changes_nothing(tmp_path, postgres_url, capsys):
    assert await cli("migrate-db", "--from", f"sqlite:///{tmp_path}/missing.db", "--to", postgres_url) == 2
    assert "no database" in capsys.readouterr().err
    assert not (tmp_path / "missing.db").exists()
    assert await cli("migrate-db", "--from", "mysql://x", "--to", postgres_url) == 2
    assert "neither" in capsys.readouterr().err

    path = tmp_path / "a.db"
    store = await open_store(path)
    await store.create_game(kind="ritual", guild_id=1, channel_id=2, host_id=3, seed=4, options={},
                            min_players=3, max_players=9, now=1.0)
    await store.close()
    assert await cli("migrate-db", "--from", str(path), "--to", postgres_url) == 0
    capsys.readouterr()
    assert await cli("migrate-db", "--from", str(path), "--to", postgres_url) == 2  # not empty any more
    assert "already holds games" in capsys.readouterr().err
    # and back: PostgreSQL to a new SQLite file
    back = tmp_path / "back.db"
    assert await cli("migrate-db", "--from", postgres_url, "--to", f"sqlite:///{back}") == 0
    with sqlite3.connect(back) as conn:
        assert conn.execute("SELECT count(*) FROM games").fetchone()[0] == 1


@pytest.fixture(autouse=True)
def _tally(monkeypatch):
    import games

    monkeypatch.setitem(games.GAMES, "tally", "support.tally:GAME")


async def test_a_copy_cut_short_leaves_an_empty_target_and_the_next_try_succeeds(tmp_path, postgres_url,
                                                                                   monkeypatch, capsys):
    import bot.migrate as migrate

    path = tmp_path / "a.db"
    store = await open_store(path)
    for n in range(3):
        await store.create_game(kind="ritual", guild_id=1, channel_id=2 + n, host_id=3, seed=4, options={},
                                min_players=3, max_players=9, now=1.0)
    await store.set_dm_channel(1000, 66)
    await store.close()

    target = await open_store(postgres_url)
    await target.set_dm_channel(5, 6)  # a bot was started on the target and kept a DM channel
    await target.close()
    assert await cli("migrate-db", "--from", str(path), "--to", postgres_url) == 2
    assert "already holds rows (dm_channels)" in capsys.readouterr().err

    target = await open_store(postgres_url)
    await target._write("DELETE FROM dm_channels")
    await target.close()
    copy_tables = migrate._copy_tables

    async def cut_short(source, target):  # the games go over, then the connection drops
        await target._transaction(migrate._insert(
            "INSERT INTO games (id, kind, guild_id, channel_id, host_id, status, seed, options, min_players, "
            "max_players, created_at, updated_at) VALUES (?, 'ritual', 1, 9, 3, 'lobby', 4, '{}', 3, 9, 1, 1)",
            [(1,)]))
        raise ConnectionError("the network went away")

    monkeypatch.setattr(migrate, "_copy_tables", cut_short)
    with pytest.raises(ConnectionError):
        await migrate.migrate_db(str(path), postgres_url)
    target = await open_store(postgres_url)
    assert [await migrate.count(target, t) for t in TABLES] == [0] * len(TABLES)  # nothing left behind
    await target.close()

    monkeypatch.setattr(migrate, "_copy_tables", copy_tables)
    assert await cli("migrate-db", "--from", str(path), "--to", postgres_url) == 0
    target = await open_store(postgres_url)
    assert await migrate.count(target, "games") == 3 and await migrate.count(target, "dm_channels") == 1
    await target.close()
