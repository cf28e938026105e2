"""Copy every game from one store to another: ``python -m bot migrate-db --from ... --to ...``.

The way from the SQLite file to PostgreSQL when one machine is no longer enough (and back). Every
table is copied whole, ids included, so a running game continues on the new store exactly where it
was: its state, its log, its record, its pending messages and the Discord messages it edits. The
counts of every table are compared at the end. Stop the bot first: a game that moves on during the
copy would be copied half-way.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .store import Exec, Many, Store
from .stores import is_postgresql, open_store

#: every table, parents first, with every column (``test_migrate`` checks this against the schema)
TABLES: dict[str, tuple[str, ...]] = {
    "guild_settings": ("guild_id", "storyteller_role_id"),
    "games": ("id", "kind", "guild_id", "channel_id", "host_id", "status", "seed", "options", "min_players",
              "max_players", "state", "phase_seq", "deadline", "paused_remaining", "created_at", "updated_at",
              "paused", "waiting_seconds", "thread_channel_id", "host_name", "remind_at", "step",
              "claimed_until", "voice_channel_id", "turn_deadline", "live_step", "closed_from"),
    "game_fixed": ("game_id", "fixed"),
    "lobby_players": ("game_id", "user_id", "name", "joined_at", "seat", "kind"),
    "game_storytellers": ("game_id", "user_id", "name", "added_at"),
    "actions": ("game_id", "step", "actor_id", "action", "created_at", "records"),
    "game_records": ("game_id", "step", "seq", "type", "data", "created_at"),
    "outbox": ("id", "game_id", "target", "recipient_id", "phase_seq", "payload", "image", "created_at",
               "delivered_at", "failure", "step", "parts_sent", "picture", "op", "slot"),
    "message_slots": ("game_id", "slot", "channel_id", "message_id", "last_message_id", "shown"),
    "group_threads": ("game_id", "key", "thread_id", "members"),
    "dm_channels": ("user_id", "channel_id"),
    "voice_mutes": ("guild_id", "user_id", "game_id", "muted_at"),
    "token_budget": ("bucket", "tokens", "refilled_at", "granted", "leased", "leased_until"),
    "token_leases": ("bucket", "holder", "rate", "counts_until"),
}
#: tables the target keeps itself as rows arrive (its triggers count the games copied), never copied
DERIVED: tuple[str, ...] = ("game_counts",)
#: the order rows are read in (a stable order, so the batches cover each table once)
KEYS = {"guild_settings": "guild_id", "lobby_players": "game_id, user_id", "game_storytellers": "game_id, user_id",
        "message_slots": "game_id, slot", "group_threads": "game_id, key", "dm_channels": "user_id",
        "voice_mutes": "guild_id, user_id, game_id", "token_budget": "bucket",
        "token_leases": "bucket, holder", "actions": "game_id, step", "game_records": "game_id, step, seq",
        "game_fixed": "game_id"}
BATCH = 500


class MigrationRefused(Exception):
    """The copy cannot be made; the sentence says why and what to do."""


@dataclass(frozen=True)
class Copied:
    table: str
    source: int
    target: int


def store_address(url: str) -> str | Path:
    """``sqlite:///relative.db``, ``sqlite:////absolute.db`` or a bare path: a SQLite file;
    ``postgresql://...``: PostgreSQL."""
    if is_postgresql(url):
        return url
    if url.startswith("sqlite:///"):
        return Path(url.removeprefix("sqlite:///"))
    if "://" in url:
        raise MigrationRefused(f"{url!r} is neither sqlite:///path/to/file.db nor postgresql://...")
    return Path(url)


async def count(store: Store, table: str) -> int:
    return (await store._read(f"SELECT count(*) FROM {table}"))[0][0]  # noqa: SLF001


async def copy_store(source: Store, target: Store) -> list[Copied]:
    """Copy every table of ``source`` into the empty ``target``; the counts, compared."""
    if await target.version() != await source.version():
        raise MigrationRefused("The two databases are at different schema versions; start the bot once on "
                               "each (it migrates them) and try again.")
    held = [t for t in TABLES if await count(target, t)]
    if "games" in held:
        raise MigrationRefused("The target already holds games. Copy into an empty database, so that no "
                               "game's id is taken twice.")
    if held:
        raise MigrationRefused(f"The target already holds rows ({', '.join(held)}), perhaps from a bot "
                               "started on it. Copy into an empty database.")
    try:
        await _copy_tables(source, target)
    except BaseException:
        await _empty(target)  # a copy cut short leaves nothing behind: the next try starts clean
        raise
    copied = [Copied(t, await count(source, t), await count(target, t)) for t in TABLES]
    wrong = [c for c in copied if c.source != c.target]
    if wrong:
        await _empty(target)
        raise MigrationRefused("The copy is incomplete, and what was copied was removed again: " + ", ".join(
            f"{c.table} had {c.target} rows of {c.source}" for c in wrong))
    return copied


async def _copy_tables(source: Store, target: Store) -> None:
    for table, columns in TABLES.items():
        names = ", ".join(columns)
        order = KEYS.get(table, "id")
        insert = f"INSERT INTO {table} ({names}) VALUES ({', '.join('?' * len(columns))})"
        offset = 0
        while rows := await source._read(  # noqa: SLF001
                f"SELECT {names} FROM {table} ORDER BY {order} LIMIT ? OFFSET ?", (BATCH, offset)):
            await target._transaction(_insert(insert, rows))  # noqa: SLF001
            offset += len(rows)
    await target.after_copy()


async def _empty(target: Store) -> None:
    """Delete every copied row from the target, children first."""

    def delete():
        for table in reversed(TABLES):
            yield Exec(f"DELETE FROM {table}")

    await target._transaction(delete())  # noqa: SLF001


def _insert(sql: str, rows: list[tuple]):
    yield Many(sql, rows)


async def migrate_db(source_url: str, target_url: str) -> list[Copied]:
    """Open both stores (each migrated to the current schema), copy, verify."""
    address = store_address(source_url)
    if isinstance(address, Path) and not address.exists():
        raise MigrationRefused(f"There is no database at {str(address)!r} to copy from.")
    source = await open_store(address)
    try:
        target = await open_store(store_address(target_url))
        try:
            return await copy_store(source, target)
        finally:
            await target.close()
    finally:
        await source.close()
