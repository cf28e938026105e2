"""The voice table (issue 29): who the rules want server-muted (the quiet night) and the few words
said aloud with the public messages. Pure functions of the state."""

from __future__ import annotations

from games.engine.spoken import number_words, spoken_seconds

from .models import CauldronState

#: the phases of the night: the card selection and the secret choices of its resolution (the
#: Cailleach's Gaze, the Yew vote); the day ends them
NIGHT_PHASES = ("night", "gaze", "yew")


def silenced(s: CauldronState) -> list[str]:
    """With ``night_quiet``: every seated player not removed, from nightfall until the day breaks."""
    if s.finished or not s.options.night_quiet or s.phase not in NIGHT_PHASES:
        return []
    return s.active()


def say_night(s: CauldronState) -> str:
    quiet = " Silence." if s.options.night_quiet else ""
    seconds = spoken_seconds(s.options.night_seconds).capitalize()
    return f"Night {number_words(s.round)}.{quiet} {seconds} to cast an ingredient."


def say_day(s: CauldronState) -> str:
    return f"Day breaks. {spoken_seconds(s.options.day_seconds).capitalize()}."


SAY_END = {"good": "The Good win.", "evil": "The Evil win.", "draw": "The cauldron settles. A draw.",
           "ended": "The game is ended."}
