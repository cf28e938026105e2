"""The pure Clocktower tests' table: a forced deal, the Storyteller's actions, the clock by hand."""

import pytest

import games
from games.clocktower.copilot import NotAllowedAnswer, proposals, read_answer
from games.engine import Player
from games.engine.run import start, step

GAME = games.get("clocktower")
ST = "st1"
HOUR = 3600
# seat i holds CHARACTERS[i - 1]: the Pukka in seat 1, the Politician in seat 7
CHARACTERS = ["pukka", "spy", "washerwoman", "empath", "knight", "soldier", "politician", "virgin"]


def new_game(options=None, characters=CHARACTERS, shown=None):
    """``shown``: player id -> the false card of a Drunk, Lunatic or Marionette."""
    ps = [Player(id=f"p{i}", name=f"Name{i}", seat=i) for i in range(1, len(characters) + 1)]
    forced = {"characters": {f"p{i + 1}": c for i, c in enumerate(characters)},
              "bluffs": ["shugenja", "juggler", "alsaahir"], "shown": shown or {}}
    return start(GAME, ps, options, seed=1, forced=forced).state


def act(state, **action):
    action.setdefault("player", ST)
    return step(GAME, state, action, seed=1)


def timeout(state):
    return act(state, type="phase_timeout", phase_seq=state.phase_seq, player="")


def vote(state, voter, target):
    return step(GAME, state, {"type": "vote", "player": voter, "target": target}, seed=1)


def to_day(state=None, options=None, characters=CHARACTERS):
    """Begin, then through the night's three stages to dawn."""
    state = act(state or new_game(options, characters), type="begin").state
    while state.phase == "night":
        state = timeout(state).state
    return state


def bounded(state, until, what):
    """Timeouts until ``until(state)``; the last outcome (never loops for ever)."""
    out = None
    for _ in range(12):
        if until(state):
            return out, state
        out = timeout(state)
        state = out.state
    raise AssertionError(f"never reached {what}: {state.phase} {state.stage}")


def shown(out):
    """An outcome's events as they are shown: a living message's face (the day's tally) drawn from
    the state after the step, as the bot draws it when it shows it (``Game.faces``)."""
    return GAME.faces(out.state, out.events)


def events_of(out, kind):
    return [e for e in shown(out) if e.audience.kind == kind]


def choose(state, player, *targets):
    """A night choice of players; the state after it."""
    return act(state, player=player, type="night_choice", targets=list(targets)).state


def lock(state):
    """From anywhere in a night to its lock: the outcome of the lock."""
    while state.stage != "closing":
        state = timeout(state).state
    return timeout(state)


def through_night(state):
    """From a night to the next dawn: the outcome of the dawn."""
    out = None
    while state.phase == "night":
        out = timeout(state)
        state = out.state
    return out


def first_day(options, characters):
    """A game of this script and deal, begun and through its first night: the state at dawn of day 1."""
    return through_night(act(new_game(options, characters), type="begin").state).state


def traveller(state, character, alignment="good", seat=9, target="t9"):
    """A Traveller added by the Storytellers, named "Trav": the state after it."""
    return act(state, type="add_traveller", target=target, name="Trav", seat=seat, character=character,
               alignment=alignment).state


def end_day(state, *voters_target):
    """Votes (voter, target), then the clock to the day's end: the outcome of the day's end."""
    for voter, target in voters_target:
        state = vote(state, voter, target).state
    while True:
        out = timeout(state)
        if out.state.phase != "day":
            return out
        state = out.state


def next_night(state):
    """The state at the next nightfall (or the night it is in)."""
    while state.phase != "night":
        state = timeout(state).state
    return state


def to_night(state, night):
    """Forward to night ``night`` (never past it)."""
    for _ in range(30):
        if state.phase == "night" and state.night == night:
            return state
        state = timeout(state).state
    raise AssertionError(f"never reached night {night}: {state.phase} {state.stage}")


# ----- the copilot's proposals -----

def by_player(state):
    """Tonight's information proposals, by player."""
    return {p.player: p for p in proposals(state, GAME.chars_of(state))}


def allows(proposal, text):
    """Whether the copilot accepts ``text`` as an answer to the proposal."""
    try:
        read_answer(proposal, text)
    except NotAllowedAnswer:
        return False
    return True


def refuses(proposal, *texts):
    """Each of ``texts`` is refused in words as an answer to the proposal."""
    for text in texts:
        with pytest.raises(NotAllowedAnswer, match="is not an answer the rules allow here"):
            read_answer(proposal, text)
