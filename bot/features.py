"""The feature packages: a game's own Discord side (its commands, components and views), each
added to the bot by its ``setup(bot)`` at start-up. A game that needs commands of its own gets a
package like these and one line here; the core modules never name it."""

from __future__ import annotations

from typing import Any

from . import clocktower

FEATURES = (clocktower,)


async def setup_features(bot: Any) -> None:
    for feature in FEATURES:
        await feature.setup(bot)
