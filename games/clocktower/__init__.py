"""Blood on the Clocktower, as the forum game "Her Royal Highness Register" runs it.

So far the data foundation only: the characters, the rulebook's night order and the Djinn's
jinxes (``characters``), and scripts in the official Script Tool format (``script``). The game
itself is not registered in ``games.GAMES`` yet.
"""

from .characters import (
    MARKERS,
    TEAMS,
    Character,
    Characters,
    ClocktowerDataError,
    Jinx,
    NightOrder,
    Setup,
    load,
    normalise_id,
)
from .deal import Composition, Deal, DealError, DealtSeat, composition, deal
from .script import (
    Script,
    ScriptError,
    UnknownCharacters,
    builtin_script,
    load_script,
    parse_script,
    script_to_json,
)

__all__ = [
    "MARKERS", "TEAMS", "Character", "Characters", "ClocktowerDataError", "Jinx", "NightOrder", "Script",
    "ScriptError", "Setup", "UnknownCharacters", "builtin_script", "load", "load_script", "normalise_id",
    "parse_script", "script_to_json",
]
__all__ += ["Composition", "Deal", "DealError", "DealtSeat", "composition", "deal"]
