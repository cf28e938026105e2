"""The pure engine every game stands on: protocol, events and audiences, errors, randomness."""

from .errors import DataError, GameError, IllegalAction, SetupError
from .events import (
    LIVE,
    PUBLIC,
    RECORD,
    STORYTELLER,
    SUBSTITUTE,
    Audience,
    Event,
    live,
    private,
    public,
    record,
    to_group,
    to_player,
    to_team,
    to_thread,
)
from .protocol import (
    COMMON_ACTIONS,
    MAX_REASON,
    NO_ONE,
    Action,
    BaseState,
    Choice,
    EndGame,
    Game,
    Handler,
    Outcome,
    Phase,
    PhaseTimeout,
    Player,
    PlayerResult,
    Prompt,
    PromptField,
    RemovePlayer,
    Result,
    SpeakingTurn,
    StorytellerAction,
    TurnOver,
    View,
    action_type,
    close_on_timeout,
    leaving,
)
from .rng import Rng, ScriptedRng, rng_for
from .run import Replay, SimulationReport, leaks, replay, simulate, step

__all__ = [
    "COMMON_ACTIONS", "LIVE", "MAX_REASON", "NO_ONE", "PUBLIC", "RECORD", "STORYTELLER", "SUBSTITUTE", "Action", "Audience", "BaseState", "Choice",
    "DataError", "EndGame", "Event", "Game", "GameError", "Handler", "IllegalAction", "Outcome",
    "Phase", "PhaseTimeout", "Player", "PlayerResult", "Prompt", "PromptField", "RemovePlayer", "Replay",
    "Result", "Rng", "ScriptedRng", "SetupError", "SimulationReport", "SpeakingTurn", "StorytellerAction", "TurnOver", "View", "action_type", "close_on_timeout", "leaks", "leaving", "live", "private",
    "public", "record", "replay", "rng_for", "simulate", "step", "to_group", "to_player", "to_team", "to_thread",
]
