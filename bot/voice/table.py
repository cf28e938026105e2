"""What the rules ask of the voice channel after a step, with no Discord in it: who is to be
silent and which speaking turn runs, and the outbox row that carries the silent set to the
delivery (so a mute follows the messages of its step, never runs ahead of a reveal)."""

from __future__ import annotations

import functools
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


@functools.cache
def has_voice_rules(kind: type[Game]) -> bool:
    """Whether a game class says whom to silence or runs speaking turns (it overrides ``silenced``
    or ``speaking_turn``)."""
    return kind.silenced is not Game.silenced or kind.speaking_turn is not Game.speaking_turn


def voice_now(game: Game, state: Any) -> VoiceNow:
    """Who the rules silence and which turn runs, once the game is over: no one and none. A game
    with no voice rules of its own (the Castle, the Clocktower) silences no one and runs no turn,
    at no cost: the service asks before and after every action."""
    if state.finished:
        return SILENT_NONE
    if not has_voice_rules(type(game)):
        return VoiceNow((), None, state.phase_seq)
    seated = {p.id for p in state.players}
    silenced = tuple(sorted(int(pid) for pid in game.silenced(state) if pid in seated and pid.isdigit()))
    return VoiceNow(silenced, game.speaking_turn(state), state.phase_seq)


def voice_row(after: VoiceNow, before: VoiceNow | None = None) -> NewMessage:
    """The outbox row that makes the linked channel's mutes match the silent set ``after`` a step
    (``SILENT_NONE``: unmute everyone the game muted); during a speaking turn it names the speaker
    (unmuted first), the previous speaker (muted next, the one ``before`` the step) and the turn's
    seconds (what a server's edits can keep up with)."""
    payload: dict[str, Any] = {"type": VOICE, "silenced": sorted(after.silenced)}
    if after.turn is not None:
        payload["speaker"] = after.speaker
        payload["seconds"] = after.turn.seconds
        if before is not None and before.speaker != after.speaker:
            payload["previous"] = before.speaker
    return NewMessage(VOICE, None, json.dumps(payload))


#: the table options the voice table reads (a game has those of them it offers), in the order
#: the link answer shows them
VOICE_OPTIONS = ("speaking_turns", "turn_seconds", "turn_order", "mute_dead", "night_quiet", "narrate")


def voice_options(game: Game, options: dict[str, Any]) -> dict[str, Any]:
    """The voice options of a game's table as they are in effect (the defaults filled in)."""
    parsed = game.parse_options(options).model_dump()
    return {key: parsed[key] for key in VOICE_OPTIONS if key in parsed}


def options_line(values: dict[str, Any]) -> str:
    """The voice options in the words they are typed in: "`speaking_turns=true` `narrate=true`"."""
    shown = {True: "true", False: "false"}
    return " ".join(f"`{key}={shown.get(value, value) if isinstance(value, bool) else value}`"
                    for key, value in values.items())
