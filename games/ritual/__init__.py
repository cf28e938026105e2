"""The Ritual: witchcraft, corruption and dangerous magic for 3-9 players."""

from .data import load
from .game import RitualGame

load()  # validate the data once, at import

GAME = RitualGame()

__all__ = ["GAME", "RitualGame"]
