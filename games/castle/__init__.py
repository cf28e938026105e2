"""Castle of Magic: The Card Game (4-6 players, turn-based), pure rules."""

from .game import GAME, Advance, CastleGame, CastleState, ClaimFirst, Options, PickUp, Place, Setup

__all__ = ["GAME", "Advance", "CastleGame", "CastleState", "ClaimFirst", "Options", "PickUp", "Place", "Setup"]
