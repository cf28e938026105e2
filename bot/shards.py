"""Which games a bot process owns, when several processes split Discord's shards between them."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Shards:
    """The shards one bot process runs, of ``count``: it owns the games of their servers (it
    re-arms their timers, sweeps their deadlines, delivers their messages). Discord puts a server
    on shard ``(server id >> 22) % count``."""

    count: int
    ids: frozenset[int]

    def of(self, guild_id: int) -> int:
        """The shard of a server."""
        return (guild_id >> 22) % self.count

    def where(self, column: str = "guild_id") -> tuple[str, tuple]:
        """The SQL condition (with its arguments) that keeps this process's games."""
        marks = ", ".join("?" * len(self.ids))
        return f" AND (({column} >> 22) % ?) IN ({marks})", (self.count, *sorted(self.ids))
