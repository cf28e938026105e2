"""Blood on the Clocktower, as the forum game "Her Royal Highness Register" runs it.

The characters, the rulebook's night order and the Djinn's jinxes (``characters``), scripts in
the official Script Tool format (``script``), the deal (``deal``), and the game on the engine
protocol (``game``): the table, the deal checked by the Storytellers, the characters sent out, and
the Storyteller's commands. The days come with issue 12, the night abilities with issue 13.
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
from .game import GAME, Clocktower
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
__all__ += ["GAME", "Clocktower", "Composition", "Deal", "DealError", "DealtSeat", "composition", "deal"]
