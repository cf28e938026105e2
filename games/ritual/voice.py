"""The voice table (issue 29): the Choosing's speaking turns (the rulebook's "Silence rules: timed
turns"), who the rules want server-muted, and the few words said aloud with the public messages.

Pure functions of the state; the handlers that call them are the Choosing's (choosing.py)."""

from __future__ import annotations

from games.engine import Event, Rng, SpeakingTurn, public
from games.engine.spoken import number_words, spoken_seconds

from .models import RitualState

#: of the Choosing's own time, the seconds kept for the vote when turn seconds are fitted
VOTE_SECONDS = 20
#: fitted turn seconds stay within these bounds
MIN_TURN, MAX_TURN = 8, 20
#: the least time left for the vote after the last turn (the Choosing's clock grows to allow it)
VOTE_AFTER_TURNS = 15


# ------------------------------------------------------------------ speaking turns
def seat_order(state: RitualState, living: list[str]) -> list[str]:
    """The living in seat order, starting one seat later each round (so the same witch does not
    always open); a start seat out of the circle passes to the next living witch."""
    seats = [p.id for p in state.players]
    start = (state.round - 1) % len(seats)
    return [p for p in seats[start:] + seats[:start] if p in living]


def open_turns(state: RitualState, living: list[str], rng: Rng) -> None:
    """Draw the Choosing's speaking order (random order spends the rng only when turns are on)."""
    state.turn = 0
    state.speakers = []
    if not state.options.speaking_turns:
        return
    order = seat_order(state, living)
    if state.options.turn_order == "random":
        rng.shuffle(order)
    state.speakers = order


def close_turns(state: RitualState) -> None:
    state.speakers = []
    state.turn = 0


def turns_running(state: RitualState) -> bool:
    """A speaking turn is running: the Choosing is open and turns remain."""
    return not state.finished and state.phase == "choosing" and state.turn < len(state.speakers)


def turn_seconds(state: RitualState) -> int:
    """Each turn's seconds: the option, or fitted to the Choosing (its time less the vote's,
    shared among the speakers, within MIN_TURN..MAX_TURN)."""
    opts = state.options
    if opts.turn_seconds:
        return opts.turn_seconds
    share = (opts.choosing_seconds - VOTE_SECONDS) // max(1, len(state.speakers))
    return max(MIN_TURN, min(MAX_TURN, share))


def choosing_seconds(state: RitualState) -> int:
    """The Choosing's clock: its option, or long enough for every turn and a short vote after."""
    base = state.options.choosing_seconds
    if not state.speakers:
        return base
    return max(base, turn_seconds(state) * len(state.speakers) + VOTE_AFTER_TURNS)


def speaking_turn(state: RitualState) -> SpeakingTurn | None:
    if not turns_running(state):
        return None
    return SpeakingTurn(index=state.turn, speaker=state.speakers[state.turn], seconds=float(turn_seconds(state)))


def skip_gone(state: RitualState) -> None:
    """Move the floor past speakers no longer in the circle (removed, or dead)."""
    while state.turn < len(state.speakers) and not state.is_alive(state.speakers[state.turn]):
        state.turn += 1


def turn_event(state: RitualState) -> Event:
    """The living line under the Choosing's message: who has the floor (the bot adds the countdown)."""
    pid = state.speakers[state.turn]
    name = state.name(pid)
    return public(
        "speaking_turn",
        f"🎙️ **{name}** has the floor (turn {state.turn + 1} of {len(state.speakers)}). Only they can speak.",
        slot=f"turn:{state.round}", notify=[pid], say=f"{name}, you have the floor.",
        data={"on_phase": state.phase_seq, "turn_ends": True, "turn": state.turn, "speaker": pid,
              "seconds": turn_seconds(state)},
    )


def floor_open_event(state: RitualState) -> Event:
    """After the last turn: everyone may speak again, and vote."""
    return public(
        "speaking_turn", "🗣️ **The turns are over.** Everyone may speak again: cast your vote for the Performer.",
        slot=f"turn:{state.round}", say="The turns are over. Everyone may speak. Vote for the Performer.",
        data={"on_phase": state.phase_seq, "turn": len(state.speakers)},
    )


def turns_done_event(state: RitualState) -> Event:
    """After the last turn, when the vote closes with it (everyone has voted): the turn's line under
    the Choosing's message says the turns are over, instead of counting down a turn that ended.
    Nothing is said aloud: the Choosing closes in the same step, and its close is what is said."""
    return public(
        "speaking_turn", "🗣️ **The turns are over.**", slot=f"turn:{state.round}",
        data={"on_phase": state.phase_seq, "turn": len(state.speakers), "closing": True},
    )


def turns_intro(state: RitualState) -> str:
    """The Choosing message's line on the silence rules (only when turns are on)."""
    return (f"\n🎙️ **Silence rules:** each witch has the floor in turn ({turn_seconds(state)} s each) while the "
            "others keep silent; then everyone may speak. You may vote at any time.")


# ------------------------------------------------------------------ who is muted
def silenced(state: RitualState) -> list[str]:
    """During a turn every living witch but the speaker; the dead too with ``mute_dead``; never a
    removed witch, and no one once the game is over."""
    if state.finished:
        return []
    quiet: set[str] = set()
    turn = speaking_turn(state)
    if turn is not None:
        quiet |= {p.id for p in state.players if state.is_alive(p.id) and p.id != turn.speaker}
    if state.options.mute_dead:
        quiet |= set(state.dead)
    return [p.id for p in state.players if p.id in quiet and p.id not in state.removed]


# ------------------------------------------------------------------ words said aloud
def say_choosing(state: RitualState) -> str:
    if state.speakers:
        return f"Round {number_words(state.round)}. The Choosing: each witch speaks in turn, then the vote."
    return (f"Round {number_words(state.round)}. The Choosing: "
            f"{spoken_seconds(state.options.choosing_seconds)} to choose the Performer.")


def say_offering(state: RitualState, performer_name: str) -> str:
    return (f"The Offering, for {performer_name}'s ritual: "
            f"{spoken_seconds(state.options.offering_seconds)}.")


def say_council(state: RitualState) -> str:
    return f"The Council opens: {spoken_seconds(state.options.council_seconds)}."


SAY_QUALITY = {"PURE": "The ritual is pure.", "TAINTED": "The ritual is tainted.",
               "BACKFIRED": "The ritual backfires."}
SAY_END = {"Coven": "The Coven wins.", "Corrupted": "The Corrupted win.", "Neutral": "The Revenant wins alone.",
           "draw": "The game is a draw.", "ended": "The game is ended."}


def invariants(state: RitualState, events: list[Event]) -> list[str]:
    """The voice table's invariants: words said only with public messages; a running turn is a
    living witch's; the turns belong to the Choosing."""
    problems = [f"spoken words on a {e.audience.kind} event {e.type}" for e in events
                if e.say and e.audience.kind != "public"]
    if state.turn > len(state.speakers):
        problems.append("the speaking turn ran past the order")
    if state.speakers and state.phase != "choosing":
        problems.append("speaking turns outside the Choosing")
    if turns_running(state) and not state.is_alive(state.speakers[state.turn]):
        problems.append("the floor is held by a witch out of the circle")
    if set(silenced(state)) & set(state.removed):
        problems.append("a removed witch is muted")
    return problems
