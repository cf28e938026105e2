"""What the rules ask of the voice channel after a step, with no Discord in it: who is to be
silent and which speaking turn runs, and the outbox row that carries the silent set to the
delivery (so a mute follows the messages of its step, never runs ahead of a reveal)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from games.engine import Game, SpeakingTurn

from ..store import NewMessage

#: the outbox target of a voice row: "make the linked channel's mutes match this step"
VOICE = "voice"


@dataclass(frozen=True)
class VoiceNow:
    """The voice channel as the rules want it after a step."""

    #: the seated players to be server-muted, as Discord user ids
    silenced: tuple[int, ...] = ()
    #: the speaking turn running now, and the phase it runs in
    turn: SpeakingTurn | None = None
    phase_seq: int = 0

    @property
    def speaker(self) -> int | None:
        """The speaker's Discord user id, while a speaking turn runs."""
        return int(self.turn.speaker) if self.turn is not None and self.turn.speaker.isdigit() else None

    @property
    def turn_key(self) -> tuple[int, int, str] | None:
        return None if self.turn is None else (self.phase_seq, self.turn.index, self.turn.speaker)


SILENT_NONE = VoiceNow()


def voice_now(game: Game, state: Any) -> VoiceNow:
    """Who the rules silence and which turn runs, once the game is over: no one and none."""
    if state.finished:
        return SILENT_NONE
    seated = {p.id for p in state.players}
    silenced = tuple(sorted(int(pid) for pid in game.silenced(state) if pid in seated and pid.isdigit()))
    return VoiceNow(silenced, game.speaking_turn(state), state.phase_seq)


def voice_row(silenced: tuple[int, ...] | list[int], after: VoiceNow | None = None,
              before: VoiceNow | None = None) -> NewMessage:
    """The outbox row that makes the linked channel's mutes match ``silenced``; with the turn
    ``after`` the step and the one ``before`` it, it names the speaker (unmuted first), the
    previous speaker (muted next) and the turn's seconds (what a server's edits can keep up with)."""
    payload: dict[str, Any] = {"type": VOICE, "silenced": sorted(silenced)}
    if after is not None and after.turn is not None:
        payload["speaker"] = after.speaker
        payload["seconds"] = after.turn.seconds
        if before is not None and before.speaker != after.speaker:
            payload["previous"] = before.speaker
    return NewMessage(VOICE, None, json.dumps(payload))


def turn_deadline(before: VoiceNow | None, after: VoiceNow, kept: float | None, now: float,
                  *, clock_waits: bool) -> float | None:
    """When the speaking turn after a step ends: a new turn starts its clock now (or, when its
    phase's clock waits for the phase's message, when that is posted); the same turn keeps its."""
    if after.turn is None:
        return None
    if before is not None and before.turn_key == after.turn_key:
        return kept
    return None if clock_waits else now + after.turn.seconds
