"""A turn: whose it is and its message, its two moves (manipulate the shrines: ``pick_up`` then a
``place`` per pawn, in ``shrines.py``; or advance the ritual: ``advance``, in ``outcomes.py``), its
end (the next seat to the left, a new round, the turn limit, the spell), its timer running out,
and the nudge of a turn with no timer."""

from __future__ import annotations

from typing import Any

from games.engine import Event, IllegalAction, Outcome, Rng, public

from . import outcomes, shrines
from .checks import active, check_turn, occupied
from .data import N_SHRINES, shrine_name
from .ending import cast_spell
from .models import Advance, CastleState, PickUp, Place
from .words import MAX_TEXT, count, from_where


def begin(state: CastleState, first: str, how: str) -> list[Event]:
    """The first turn, ``first``'s (``how``: how they were chosen, told before)."""
    state.first = first
    state.round = 1
    state.current = first
    state.next_phase("turn")
    lead = (how + "\n\n") if how else ""
    return [turn_event(state, f"{lead}**{state.name(first)}** takes the first turn.")]


def turn_event(state: CastleState, summary: str, move: dict[str, Any] | None = None) -> Event:
    """The turn message: the last move in one line (``move``: its data), the picture, who plays next."""
    text = (f"{summary}\n➡️ **{state.name(state.current)}**, your turn: manipulate the shrines or advance "
            "the ritual. (The picture in words: **My hand**.)")
    data: dict[str, Any] = {"current": state.current, "turn": state.turns + 1}
    if move:
        data["move"] = move
    return public("turn", text[:MAX_TEXT], title=f"Turn {state.turns + 1}", image="tableau",
                  opens_phase=True, data=data, notify=[state.current], say=f"{state.name(state.current)}'s turn.")


# ----------------------------------------------------------------------------- the moves


def pick_up(state: CastleState, action: PickUp, rng: Rng) -> Outcome:
    """Manipulate the shrines, step 1: the pawns go into the hand (the table is told now)."""
    check_turn(state, action)
    pid = action.player
    if state.hand:
        raise IllegalAction("You have already picked up pawns: place them first.", code="mid_turn")
    mine = state.pawns[pid]
    if len(set(action.pawns)) != len(action.pawns):
        raise IllegalAction("Name each pawn only once.", code="duplicate_pawn")
    bad = [k for k in action.pawns if not 1 <= k <= len(mine)]
    if bad:
        raise IllegalAction(f"You have pawns 1 to {len(mine)}; there is no pawn {bad[0]}.", code="no_such_pawn")
    left_from = []  # the shrines the pawns leave (the rest come from the supply)
    for k in sorted(action.pawns):
        origin = shrines.lift(state, pid, k - 1)
        if origin is not None:
            left_from.append(shrine_name(origin))
    n = len(action.pawns)
    text = (f"✋ **{state.name(pid)}** picks up {count(n, 'pawn')} {from_where(n - len(left_from), left_from)} "
            f"and will flip {'a shrine' if n == 1 else f'{n} shrines'}.")
    return Outcome(state=state, events=[public("pick_up", text, data={"player": pid, "count": n})],
                   reply=f"You picked up {count(n, 'pawn')}: choose {'its' if n == 1 else 'the first'} "
                         "shrine below.")


def place(state: CastleState, action: Place, rng: Rng) -> Outcome:
    """Manipulate the shrines, step 2: flip a shrine and put a pawn on it; the last pawn ends the turn."""
    check_turn(state, action)
    if not state.hand:
        raise IllegalAction("Pick up at least one of your pawns first (or advance the ritual).",
                            code="no_pawn_in_hand")
    idx = action.index()
    why = shrines.free(state, idx)
    if why:
        raise IllegalAction(why, code="shrine_taken")
    shrines.flip(state, state.current, idx)
    left = len(state.hand)
    if left:  # the table hears of the flips once, in the next turn's message
        return Outcome(state=state, events=[],
                       reply=f"Flipped {shrine_name(idx)}. {left} more pawn{'s' if left > 1 else ''} to place.")
    events = end_turn(state, shrines.summary(state), move=shrines.flips_data(state))
    return Outcome(state=state, events=events, reply=f"Flipped {shrine_name(idx)}. Your turn is done.")


def advance(state: CastleState, action: Advance, rng: Rng) -> Outcome:
    """Advance the ritual: turn one outcome card face up; the turn ends (the last card casts the spell)."""
    check_turn(state, action)
    if state.hand:
        raise IllegalAction("You are manipulating the shrines this turn: place your pawns.", code="mid_turn")
    k = action.card - 1
    if state.revealed[k]:
        raise IllegalAction(f"The outcome on ritual card {action.card} is already face up.",
                            code="already_revealed")
    told = outcomes.reveal(state, k, action.player)
    events = end_turn(state, outcomes.reveal_summary(state, k, action.player), told=told,
                      move=dict(told.data, player=action.player))
    return Outcome(state=state, events=events,
                   reply=f"You turned the outcome on ritual card {action.card} face up.")


# ----------------------------------------------------------------------------- the end of a turn


def end_turn(state: CastleState, summary: str, told: Event | None = None,
             move: dict[str, Any] | None = None) -> list[Event]:
    """End the turn; the next turn's message tells the move (``summary``) once. ``told`` is the
    move's own line (an ``advance``): it is sent only if the game ends here, with no turn message."""
    state.turns += 1
    state.hand = []
    state.flips = []
    state.vacated = []
    if all(state.revealed):  # only a reveal ends the game this way: ``told`` is that last reveal
        return ([told] if told else []) + cast_spell(state)
    if state.options.max_turns is not None and state.turns >= state.options.max_turns:
        return _turn_limit(state, summary, told, move)
    live = active(state)
    order = [p.id for p in state.players]
    seat = order.index(state.current)
    nxt = state.current
    for step in range(1, len(order) + 1):
        cand = order[(seat + step) % len(order)]
        if cand in live:
            nxt = cand
            break
    if wrapped(order, state.first, seat, order.index(nxt)):
        state.round += 1  # the turn reaches (or passes) the first player's seat: a new round
    state.current = nxt
    state.next_phase("turn")
    return [turn_event(state, summary, move)]


def _turn_limit(state: CastleState, summary: str, told: Event | None,
                move: dict[str, Any] | None) -> list[Event]:
    """The table's ``max_turns`` have passed: the castle turns the rest of the outcome cards over
    and the spell is cast."""
    lead = "" if told else summary + "\n"  # no turn message follows: the move is told here
    events = [told] if told else []
    events.append(public("turn_limit", f"{lead}⏳ {state.options.max_turns} turns have passed: the ritual "
                                       "completes itself.",
                         data={"turns": state.turns, **({"move": move} if move else {})}))
    events += [outcomes.reveal(state, k, None) for k in outcomes.face_down(state)]
    return events + cast_spell(state)


def wrapped(order: list[str], first: str, seat: int, nxt: int) -> bool:
    """True when going from seat ``seat`` to seat ``nxt`` (clockwise) reaches or passes the first seat."""
    f = order.index(first)
    n = len(order)
    dist_next = (nxt - seat) % n or n
    dist_first = (f - seat) % n or n
    return dist_first <= dist_next


# ----------------------------------------------------------------------------- the clock


def turn_timeout(state: CastleState, rng: Rng) -> list[Event]:
    """The turn's timer ran out: as the table's ``on_timeout`` says, the castle plays the turn at
    random (a move for a player who has not started, the pawns in hand placed), or it passes (the
    pawns in hand go back where they came from)."""
    if state.options.on_timeout == "random":
        return _play_at_random(state, rng)
    return _pass(state)


def _play_at_random(state: CastleState, rng: Rng) -> list[Event]:
    pid = state.current
    events: list[Event] = []
    if not state.hand:
        if rng.random() < 0.5:
            k = rng.choice(outcomes.face_down(state))
            events.append(public("timeout", f"⌛ {state.name(pid)}'s time ran out: the castle "
                                            "advances the ritual for them."))
            told = outcomes.reveal(state, k, pid)
            events += end_turn(state, outcomes.reveal_summary(state, k, pid) + " (time ran out)",
                               told=told, move=dict(told.data, player=pid))
            return events
        shrines.lift(state, pid, rng.randrange(len(state.pawns[pid])))
    events.append(public("timeout", f"⌛ {state.name(pid)}'s time ran out: the castle places their "
                                    "pawns at random."))
    while state.hand:
        taken = occupied(state)
        spots = [i for i in range(N_SHRINES) if shrines.free(state, i, taken) is None]
        shrines.flip(state, pid, rng.choice(spots))
    events += end_turn(state, shrines.summary(state) + " (time ran out)", move=shrines.flips_data(state))
    return events


def _pass(state: CastleState) -> list[Event]:
    """Pawns still in hand go back where they came from (the supply if that shrine is taken)."""
    pid = state.current
    taken = occupied(state)
    back = 0
    for held in state.hand:
        home = held.origin if held.origin is not None and held.origin not in taken else None
        state.pawns[pid][held.pawn] = home
        if home is not None:
            taken[home] = pid
        back += 1
    state.hand = []
    msg = f"⌛ {state.name(pid)}'s time ran out; the turn passes."
    if back:
        msg += (f" {back} unplaced pawn{'s go' if back > 1 else ' goes'} back where "
                f"{'they' if back > 1 else 'it'} came from (or to the supply, if a pawn now stands there).")
    events = [public("timeout", msg, data={"player": pid})]
    summary = shrines.summary(state) if state.flips else f"**{state.name(pid)}**'s time ran out."
    events += end_turn(state, summary, move=shrines.flips_data(state) if state.flips else None)
    return events


def reminder_seconds(state: CastleState) -> float | None:
    """A turn with no timer calls its player again after ``nudge_seconds`` of quiet."""
    if state.finished or state.phase != "turn" or state.options.turn_seconds:
        return None
    return float(state.options.nudge_seconds) if state.options.nudge_seconds else None


def remind(state: CastleState) -> list[Event]:
    """The nudge: the player whose turn it is, mentioned again."""
    if reminder_seconds(state) is None:
        return []
    text = (f"⏰ **{state.name(state.current)}**, the table is waiting for your turn: "
            "**Make my choice** under your turn's message.\n_Turns have no timer in this game (the "
            "rulebook's way): a moderator can pass this turn with `/mod skip`, and the host can give the "
            "next game a turn timer with `/game new` options `turn_seconds=120`._")
    return [public("nudge", text, notify=[state.current])]
