"""Castle of Magic: The Card Game (4-6 players, turn-based), pure rules."""

from .game import GAME, CastleGame
from .models import Advance, CastleOptions, CastleSetup, CastleState, ClaimFirst, PickUp, Place

__all__ = ["GAME", "Advance", "CastleGame", "CastleOptions", "CastleSetup", "CastleState", "ClaimFirst", "PickUp",
           "Place"]
