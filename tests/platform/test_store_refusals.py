"""A database that refuses leaves either store as one named kind, ``StoreRefused``, carrying its
cause and the driver's own error, and still of the driver's class. On a real SQLite file (read-only,
locked, full, closed) and a real PostgreSQL database (read-only, closed, unreachable)."""

import sqlite3

import asyncpg
import pytest

from bot.actor import Actor
from bot.deadlines import Deadlines
from bot.postgres import PostgresStore
from bot.service import NotSaved
from bot.store import BUSY, FAILED, FULL, READ_ONLY, ChannelBusy, StoreRefused
from bot.stores import open_store


def locked(path):
    """A second connection holding the database's write lock, as another process would."""
    locker = sqlite3.connect(path, isolation_level=None)
    locker.execute("BEGIN EXCLUSIVE")
    return locker


async def new_game(store, channel=10):
    return await store.create_game(kind="ritual", guild_id=1, channel_id=channel, host_id=7, seed=42,
                                   options={}, min_players=3, max_players=9, now=100.0)


async def refusal_of(call) -> StoreRefused:
    with pytest.raises(StoreRefused) as refused:
        await call
    return refused.value


def is_the_drivers(refused: StoreRefused, driver_error: type[BaseException] | tuple) -> bool:
    """Still the driver's kind (code that catches the driver's error still does), with its message,
    and the driver's own error as the cause."""
    return (isinstance(refused, driver_error) and type(refused.__cause__) is not type(refused)
            and isinstance(refused.__cause__, driver_error) and str(refused) == str(refused.__cause__))


# ----- SQLite -----

async def test_a_read_only_sqlite_database_refuses_a_write_as_read_only(tmp_path):
    store = await open_store(tmp_path / "bot.db")
    game_id = await new_game(store)
    await store.db.execute_fetchall("PRAGMA query_only = ON")
    refused = await refusal_of(store.add_player(game_id, 2, "Ann", 101.0))
    assert refused.cause == READ_ONLY and is_the_drivers(refused, sqlite3.OperationalError)
    assert await store.signups(game_id) == []  # reads still work
    await store.close()


async def test_a_locked_sqlite_database_refuses_as_busy(tmp_path):
    store = await open_store(tmp_path / "bot.db")
    await store.db.execute_fetchall("PRAGMA busy_timeout = 50")
    locker = locked(tmp_path / "bot.db")
    try:
        refused = await refusal_of(new_game(store))
    finally:
        locker.close()
    assert refused.cause == BUSY and is_the_drivers(refused, sqlite3.OperationalError)
    assert await store.active_games() == []
    await store.close()


async def test_a_full_sqlite_database_refuses_a_transaction_as_full(tmp_path):
    store = await open_store(tmp_path / "bot.db")
    game_id = await new_game(store)
    pages = (await store.db.execute_fetchall("PRAGMA page_count"))[0][0]
    await store.db.execute_fetchall(f"PRAGMA max_page_count = {pages}")
    refused = await refusal_of(store.commit_step(
        game_id, state="x" * 200_000, phase_seq=1, step=1, deadlines=Deadlines(),
        status="running", actor_id=None, action=None, messages=[], now=101.0))
    assert refused.cause == FULL and is_the_drivers(refused, sqlite3.OperationalError)
    await store.close()


async def test_a_closed_sqlite_store_refuses_a_read(tmp_path):
    store = await open_store(tmp_path / "bot.db")
    await store.close()
    refused = await refusal_of(store.game(1))
    assert refused.cause == FAILED and is_the_drivers(refused, ValueError)


async def test_the_service_words_the_cause_the_store_names(service, tmp_path):
    await service.store.db.execute_fetchall("PRAGMA busy_timeout = 50")
    locker = locked(tmp_path / "bot.db")
    try:
        with pytest.raises(NotSaved, match="busy") as not_saved:
            await service.new_game(kind="tally", guild_id=5, channel_id=10, host=Actor(id=1, name="Host"),
                                   options_text="")
    finally:
        locker.close()
    assert isinstance(not_saved.value.__cause__, StoreRefused) and not_saved.value.__cause__.cause == BUSY


# ----- both engines: a constraint -----

async def test_a_constraint_arrives_refused_and_one_game_per_channel_is_still_told_apart(store_url):
    store = await open_store(store_url)
    refused = await refusal_of(store.add_storyteller(999, 2, "Ann", 100.0))  # no game 999: a foreign key
    assert refused.cause == FAILED
    assert is_the_drivers(refused, (sqlite3.IntegrityError, asyncpg.IntegrityConstraintViolationError))
    await new_game(store)
    with pytest.raises(ChannelBusy):
        await new_game(store)
    await store.close()


# ----- PostgreSQL -----

async def test_a_read_only_postgresql_database_refuses_a_write_as_read_only(postgres_server, postgres_url):
    store = await open_store(postgres_url)
    game_id = await new_game(store)
    postgres_server.sql(f'ALTER DATABASE "{postgres_url.rsplit("/", 1)[1]}" '
                        "SET default_transaction_read_only = on")
    await store.pool.expire_connections()  # the setting holds for connections made from now on
    refused = await refusal_of(store.add_player(game_id, 2, "Ann", 101.0))
    assert refused.cause == READ_ONLY and is_the_drivers(refused, asyncpg.ReadOnlySQLTransactionError)
    await store.close()


async def test_a_closed_postgresql_store_refuses_a_read(postgres_url):
    store = await open_store(postgres_url)
    await store.close()
    refused = await refusal_of(store.game(1))
    assert refused.cause == FAILED and is_the_drivers(refused, asyncpg.InterfaceError)


async def test_an_unreachable_postgresql_server_refuses_to_open(postgres_server):
    refused = await refusal_of(PostgresStore.open("postgresql://postgres@127.0.0.1:1/nothing"))
    assert refused.cause == FAILED and is_the_drivers(refused, OSError)
