"""The one place where a game moves: load, lock, apply, save (state + log + outbox), arm, deliver.

Nothing here knows Discord: cogs and views turn clicks into calls, and ``Delivery`` sends the outbox.

The package, by job:
- ``_core``: the one path of every action (the per-game lock, the row cache, load, apply,
  commit), the hand-off of committed rows to the delivery, and who may act (host, moderator,
  Storyteller);
- ``_lobby``: a new game, joining and leaving (seats, Travellers, spectators), its options, its
  voice channel, its Storytellers, and its start;
- ``_play``: a player's action and a Storyteller's, and a player's own view and prompts;
- ``_clocks``: the phase's deadline, reminder and speaking turn as the timers fire them, the
  sweep and the re-arming at start-up, the posted opener that starts a phase's clock, and a
  moderator's pause, resume, extend, shorten and skip (the clocks' rules are ``bot.deadlines``);
- ``_moderation``: cancel, end, remove an absent player, the grimoire;
- ``_outbox``: the rows a commit hands the delivery (events as messages with their pictures, a
  phase's opening slot, refreshes, the game's undo), pure;
- ``_refusals``: the named errors and the sentences a player reads.

Each job is a class deriving from ``ServiceCore`` alone, and ``GameService`` is their sum. Mixins,
not functions taking the service, because every caller (and every test that replaces a method on
one service, such as ``load`` or ``require_storyteller``) speaks to one object: functions would need
a second, forwarding method for each of the service's calls. A job reaches only the core through
``self`` (the type checker refuses a call into another job, since no job knows the others), and
the two leaf modules (``_outbox``, ``_refusals``) by import; nothing imports this package from
inside it.
"""

from ._clocks import Clocks, Notice, TimerChange
from ._core import ServiceCore, Table
from ._lobby import MAX_OPTIONS_TEXT, Lobby, new_seed, parse_options
from ._moderation import Moderation
from ._outbox import (
    PHASE_SLOT,
    STORYTELLERS_KEY,
    UNDO,
    opens_in_channel,
    phase_of_slot,
    phase_slot,
    refresh,
    undo_row,
)
from ._play import Play
from ._refusals import (
    NOT_OPEN_YET,
    REFUSED_BECAUSE,
    GameMovedOn,
    LobbyError,
    NeedsConfirmation,
    NoGameHere,
    NotAllowed,
    NotSaved,
    VoiceTaken,
    held_by,
    is_store_error,
    not_saved,
    quoted,
)


class GameService(Lobby, Play, Clocks, Moderation):
    """A game's every move, by job (see the package's docstring)."""

    def _new_seed(self) -> int:
        return new_seed()  # read from this package at each call: a test replaces ``bot.service.new_seed``


__all__ = [
    "MAX_OPTIONS_TEXT", "NOT_OPEN_YET", "PHASE_SLOT", "REFUSED_BECAUSE", "STORYTELLERS_KEY", "UNDO",
    "Clocks", "GameMovedOn", "GameService", "Lobby", "LobbyError", "Moderation", "NeedsConfirmation",
    "NoGameHere", "NotAllowed", "NotSaved", "Notice", "Play", "ServiceCore", "Table", "TimerChange",
    "VoiceTaken", "held_by", "is_store_error", "new_seed", "not_saved", "opens_in_channel", "parse_options",
    "phase_of_slot", "phase_slot", "quoted", "refresh", "undo_row",
]
