"""Ireland Cauldron: a secret-identity card game for 5-10 players (pure rules)."""

from .game import CauldronGame
from .terms import outcome_for, rank, thistle_threshold

GAME = CauldronGame()

__all__ = ["GAME", "CauldronGame", "outcome_for", "rank", "thistle_threshold"]
