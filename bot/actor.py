"""Who asks the service for something: the little of a Discord member it needs."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Actor:
    """Who is asking: enough of a Discord member to check permissions."""

    id: int
    name: str
    manage_guild: bool = False
    role_ids: frozenset[int] = field(default_factory=frozenset)
