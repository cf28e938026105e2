"""The Evil Twin's win (Sects & Violets): "You & an opposing player know each other. If the good
player is executed, evil wins. Good can't win if you both live."

The pair is dealt and told by ``snv_setup`` (the "Twin" token on the other twin). What matters is
alignment, not which twin holds which card (the wiki: a good player made the Evil Twin is still good,
and an evil player becomes their twin): the twin whose alignment is good is "the good player".
Both rules are the Evil Twin's ability, so a dead, drunk or poisoned Evil Twin does neither.
The end waits for the Storytellers as every end does (``clock.pending_end``).
"""

from __future__ import annotations

from games.engine import STORYTELLER, Event

from .rules import chars, impaired, lives
from .snv_setup import twins
from .state import ClocktowerState, PendingEnd, Seat

EVERY_DEMON_DEAD = "every Demon is dead"


def _pairs(state: ClocktowerState) -> list[tuple[Seat, Seat]]:
    """Each (Evil Twin, its twin) seated pair."""
    return [(state.seat_of(evil), state.seat_of(other)) for evil, other in twins(state)]


def _good(evil: Seat, other: Seat) -> Seat | None:
    """The pair's good player (None when both twins are of one alignment: the Storytellers pick a new twin)."""
    if evil.alignment == other.alignment:
        return None
    return evil if evil.alignment == "good" else other


def _working(state: ClocktowerState, evil: Seat, what: str = "") -> bool:
    """The Evil Twin has its ability: alive and sober (a drunk or poisoned one goes in the ledger).
    Executed itself (a good player holding the card), it is read as it was at its execution."""
    executed = evil.player == state.executed and (state.execution_killed or evil.alive)
    if not (evil.alive or executed) or evil.traveller:
        return False
    why = state.executed_impaired if executed else impaired(state, evil.player)
    if why:
        if what:  # (``what`` "": only asking, nothing noted)
            state.note_abnormal(evil.player, f"the Evil Twin, {why}: {what}")
        return False
    return True


def twin_end(state: ClocktowerState) -> PendingEnd | None:
    """Today's execution (dead or alive: an execution all the same) was of the good twin while the
    Evil Twin has its ability: evil wins."""
    if state.phase != "day" or not state.executed:
        return None
    for evil, other in _pairs(state):
        good = _good(evil, other)
        if good is None or good.player != state.executed:
            continue
        if _working(state, evil, "the good twin was executed and evil did not win"):
            return PendingEnd(team="evil", reason=f"the good twin, {state.label(good.player)}, was executed while "
                                                  f"the Evil Twin, {state.label(evil.player)}, lives")
    return None


def good_blocked(state: ClocktowerState, *, note: bool = True) -> str:
    """Why good cannot win now ("" when it may): both twins live and the Evil Twin has its ability
    (``note``: a drunk or poisoned Evil Twin goes in the ledger)."""
    for evil, other in _pairs(state):
        if _good(evil, other) is None or not (lives(state, evil) and lives(state, other)):
            continue
        if _working(state, evil, "both twins live and good was not stopped from winning" if note else ""):
            return (f"both twins live ({state.label(evil.player)}, the Evil Twin, and {state.label(other.player)}): "
                    "good can't win while they do")
    return ""


def good_win_held(state: ClocktowerState, found: PendingEnd, why: str) -> list[Event]:
    """Good's win found (the Mayor's, a Klutz's, the Mastermind's day...) but ``why`` (``good_blocked``):
    the Storytellers are told, privately, that the game goes on. "Every Demon is dead" is told at the
    Demon's death (``demons_dead_twins_live``) and at each dawn (``twin_notes``), so not again here."""
    if found.reason == EVERY_DEMON_DEAD:
        return []
    return [Event(type="twins_live", audience=STORYTELLER, title="🪞 The Evil Twin",
                  text=f"By the rules good would win ({found.reason}), but {why}. The game goes on; the town "
                       "has been told nothing of it.")]


def demons_dead_twins_live(state: ClocktowerState, demon: Seat) -> list[Event]:
    """The last Demon just died while both twins live: the game goes on (the end is not even
    proposed), and the Storytellers are told why."""
    if any(s.alive and not s.traveller and chars(state)[s.character].team == "demon" for s in state.seats) \
            or chars(state)[demon.character].team != "demon":
        return []
    why = good_blocked(state)
    if not why:
        return []
    return [Event(type="twins_live", audience=STORYTELLER, title="🪞 The Evil Twin",
                  text=f"Every Demon is dead ({state.label(demon.player)} was the last), but {why}. The game "
                       "goes on: the town sees the death and the night falling as usual, nothing more. Good wins "
                       "once the Evil Twin dies too (the bot proposes it then).")]


def twin_notes(state: ClocktowerState) -> list[str]:
    """The Storytellers' lines at dawn: every Demon dead while both twins live (the game goes on), and a
    pair of one alignment (a Pit-Hag or a Storyteller's change): "the Storyteller chooses a new Twin" (the wiki)."""
    demons = any(s.alive and not s.traveller and chars(state)[s.character].team == "demon" for s in state.seats)
    why = "" if demons else good_blocked(state, note=False)
    going_on = [f"• Every Demon is dead, but {why}: the game goes on until one of the twins dies."] if why else []
    return going_on + [f"• {state.label(evil.player)}, the Evil Twin, and {state.label(other.player)} are both "
            f"{evil.alignment}: choose a new twin of the opposing alignment (move the Twin token with "
            "`/st reminder`) and tell both twins (`/st tell`)." for evil, other in _pairs(state)
            if _good(evil, other) is None]
