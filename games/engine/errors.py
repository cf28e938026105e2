"""Named errors the rules raise. Each carries a code for logs and tests, and a sentence a player can read."""

from __future__ import annotations


class GameError(Exception):
    """Base of every error a game raises on purpose."""

    code = "game_error"

    def __init__(self, message: str, code: str | None = None, **params: object) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.params = params

    def __str__(self) -> str:  # the player-readable sentence
        return self.message


class IllegalAction(GameError):
    """The action breaks a rule or arrives at the wrong time. Nothing changed."""

    code = "illegal_action"


class SetupError(GameError):
    """The players, options or forced setup cannot make a game."""

    code = "bad_setup"


class DataError(GameError):
    """A data file of a game (roles, ingredients, decks) failed validation when loaded."""

    code = "bad_data"
