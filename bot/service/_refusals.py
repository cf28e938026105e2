"""The refusals: the service's named errors, each with the sentence a player or host reads, and
the words of a refusal that several jobs share (a database that said no, a phase not open yet)."""

from __future__ import annotations

import games
from games.engine import GameError

from ..store import BUSY, FAILED, FULL, READ_ONLY, GameRow, StoreRefused


class NoGameHere(GameError):
    code = "no_game"


class NotAllowed(GameError):
    code = "not_allowed"


class LobbyError(GameError):
    code = "lobby"


class VoiceTaken(LobbyError):
    """The voice channel is already another game's table (``holder``, in a lobby or running): two
    games there would mute and unmute the same players against each other."""

    code = "voice_taken"

    def __init__(self, holder: GameRow) -> None:
        self.holder = holder
        super().__init__(f"🔊 That voice channel is already the table of {held_by(holder)}: two games in "
                         "one voice channel would mute and unmute the same players against each other. "
                         "Pick another voice channel, or end that game first.")

    def unlinked(self) -> str:
        """``/game new``'s note when the host's own voice channel is taken: the game has none yet."""
        return (f"🔇 No voice channel is linked yet: the one you are in is the table of {held_by(self.holder)}. "
                "Link another with `/game voice`.")


def held_by(row: GameRow) -> str:
    """A game in words, with its text channel: "game #3 (The Ritual, running in <#…>)"."""
    title = games.get(row.kind).title if row.kind in games.available() else row.kind
    status = "running" if row.status == "running" else "gathering players"
    return f"game #{row.id} ({title}, {status} in <#{row.channel_id}>)"


class NeedsConfirmation(GameError):
    """A moderator's action with a consequence they should agree to first (the game would end)."""

    code = "needs_confirmation"


class NotSaved(GameError):
    """The database refused a write: nothing changed, and the player is told so plainly."""

    code = "not_saved"


class GameMovedOn(GameError):
    """Another bot process committed to this game first (it should own the game's server; this
    happens only while shards change hands). Nothing was recorded; the player tries again."""

    code = "moved_on"


def quoted(text: str, limit: int = 40) -> str:
    """A short quotation of what a user typed, for a refusal that says what it refused."""
    return repr(text if len(text) <= limit else text[:limit] + "…")


#: what a player is told when the database refused their action, by ``StoreRefused.cause``
REFUSED_BECAUSE = {
    BUSY: "the game's database is busy. Try again in a moment.",
    FULL: "the bot's disk is full. Tell the bot's operator; trying again will not help until they act.",
    READ_ONLY: "the bot's database is read-only. Tell the bot's operator; trying again will not help until they act.",
    FAILED: "the bot could not save it. Tell the bot's operator if this keeps happening.",
}


def not_saved(exc: StoreRefused) -> NotSaved:
    """The plain sentence for a database that refused a write (nothing was recorded)."""
    return NotSaved(f"That was NOT recorded: {REFUSED_BECAUSE[exc.cause]}")


def is_store_error(exc: BaseException) -> bool:
    """A refusal of the database (locked, read-only, full, closed, unreachable), as opposed to a
    bug: a log shows the traceback of a bug only."""
    return isinstance(exc, StoreRefused)


#: the answer to a player's choice made while the phase's opening message is not posted yet; it
#: names no phase, since which phase comes next is what the channel is still revealing
NOT_OPEN_YET = "The next phase has not opened yet: wait for its message in the channel. Nothing was counted."
