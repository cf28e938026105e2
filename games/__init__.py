"""The rules of every game, pure: no Discord, database, scheduler, asyncio or clock.

``GAMES`` maps a game's name to where it lives; ``get(name)`` imports it on first use, so
importing this package has no side effects.
"""

from __future__ import annotations

from importlib import import_module

from .engine import Game, GameError

GAMES: dict[str, str] = {
    "ritual": "games.ritual:GAME",
    "cauldron": "games.cauldron:GAME",
    "castle": "games.castle:GAME",
    "clocktower": "games.clocktower:GAME",
}


_loaded: dict[str, Game] = {}


class UnknownGame(GameError):
    code = "unknown_game"


def available() -> list[str]:
    """Names of the games whose package is present."""
    names = []
    for name in GAMES:
        try:
            get(name)
        except UnknownGame:
            continue
        names.append(name)
    return names


def get(name: str) -> Game:
    where = GAMES.get(name.lower().strip())
    if where in _loaded:
        return _loaded[where]
    if where is None:
        raise UnknownGame(f"There is no game called {name!r}. Games: {', '.join(GAMES)}.")
    module, attr = where.split(":")
    try:
        game = _loaded[where] = getattr(import_module(module), attr)
        return game
    except ModuleNotFoundError:
        raise UnknownGame(f"The game {name!r} is not installed yet.") from None
