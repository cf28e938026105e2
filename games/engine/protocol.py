"""The protocol every game implements (open_spiel's Game/State split, boardgame.io's pure moves).

    setup(players, options, rng, forced) -> Outcome   # the first state, role cards, the first phase
    apply(state, action, rng)            -> Outcome   # validates; raises IllegalAction, changes nothing
    view(state, viewer)                  -> View      # what one player (or the table) may see
    result(state)                        -> Result    # phase, winners, every role (at the end)

A game subclasses ``Game``, writes ``_setup`` and declares ``handlers`` (action type -> handler);
the base class parses actions, rejects stale and out-of-game actions, works on a copy (so an error
changes nothing), dispatches to the handler and counts steps (so randomness is replayable, see
``rng.rng_for``).
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Annotated, Any, ClassVar, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from .errors import IllegalAction, SetupError
from .events import LIVE, Event
from .options import readable_error, with_nones
from .rng import Rng


class Player(BaseModel):
    id: str
    name: str
    #: the seat a player chose at sign-up, in games with a circle of numbered seats (Clocktower)
    seat: int | None = None


class Action(BaseModel):
    """Base of every action. ``player`` is who acts; system actions leave it empty.

    ``phase_seq``, when given, pins the action to the phase it was made in: a click on a button
    from a closed phase is refused instead of landing in the next one.
    """

    model_config = ConfigDict(extra="forbid")
    player: str = ""
    phase_seq: int | None = None


class StorytellerAction(Action):
    """An action by one of the game's Storytellers: an actor who is not a seated player.

    ``player`` holds the Storyteller's id (for the log); the engine does not check it against
    the seats, and the service lets only the game's Storytellers send such an action.
    """


#: the longest free text a moderator may give (a reason for ending a game)
MAX_REASON = 500


class PhaseTimeout(Action):
    """The deadline of phase ``phase_seq`` passed (or a moderator skipped it)."""

    type: Literal["phase_timeout"] = "phase_timeout"
    phase_seq: int


class RemovePlayer(Action):
    """A moderator removes an absent player, as the game's rules allow."""

    type: Literal["remove_player"] = "remove_player"
    target: str


def leaving(state: BaseState, action: RemovePlayer, removed: Collection[str]) -> str:
    """The player a ``RemovePlayer`` takes out of a game that keeps a list of those who left
    (``removed``); refused when they are not in the game or have already left."""
    target = action.target
    if target not in {p.id for p in state.players}:
        raise IllegalAction("That player is not in this game.", code="not_a_player")
    if target in removed:
        raise IllegalAction(f"{state.name(target)} has already left.", code="already_removed")
    return target


class EndGame(Action):
    """A moderator ends the game now: no winner, full reveal."""

    type: Literal["end_game"] = "end_game"
    reason: str = Field(default="", max_length=MAX_REASON)


class TurnOver(Action):
    """Speaking turn ``turn`` of phase ``phase_seq`` is over: its seconds passed (the bot's turn
    clock) or a moderator skipped it. Only games with speaking turns (``Game.speaking_turn``)
    take it; a stale turn is refused."""

    type: Literal["turn_over"] = "turn_over"
    phase_seq: int
    turn: int


class SpeakingTurn(BaseModel):
    """The timed speaking turn running now: the ``index``-th of the phase, ``speaker``'s, lasting
    ``seconds`` from when it starts (the phase's message posted, or the last turn over)."""

    index: int
    speaker: str
    seconds: float


COMMON_ACTIONS: tuple[type[Action], ...] = (PhaseTimeout, RemovePlayer, EndGame)


class BaseState(BaseModel):
    """Fields every game's state has. Games subclass it."""

    players: list[Player]
    phase: str
    phase_seq: int = 0
    round: int = 0
    step: int = 0
    finished: bool = False
    #: label of how it ended: a team name, "draw", or "ended" by a moderator.
    outcome: str = ""
    winners: list[str] = Field(default_factory=list)

    def player(self, player_id: str) -> Player:
        for p in self.players:
            if p.id == player_id:
                return p
        raise IllegalAction("You are not a player in this game.", code="not_a_player")

    def name(self, player_id: str) -> str:
        for p in self.players:
            if p.id == player_id:
                return p.name
        return player_id

    def next_phase(self, phase: str) -> None:
        self.phase = phase
        self.phase_seq += 1


class Outcome(BaseModel):
    model_config = ConfigDict(arbitrary_types_allowed=True)
    state: Any
    events: list[Event] = Field(default_factory=list)
    #: the sentence to show the acting player ("Your vote is in."), ephemeral.
    reply: str = ""


#: the value of a vote's "no one" choice; ``/vote`` with no target picks it where a vote offers it.
NO_ONE = "none"


class Choice(BaseModel):
    value: str
    label: str
    description: str = ""
    emoji: str = ""


class PromptField(BaseModel):
    """One select menu of a prompt; its value fills ``name`` in the action (or ``into``)."""

    name: str
    placeholder: str
    choices: list[Choice]
    min_values: int = 1
    max_values: int = 1
    #: the action's field this select fills, when several selects offer parts of one choice
    #: (a shrine by its row): ``name`` then only tells the selects apart
    into: str = ""


class Prompt(BaseModel):
    """A secret choice open to one player now. The bot draws it as selects (or a button)."""

    action: str  # the action type it makes
    title: str
    text: str = ""
    fields: list[PromptField] = Field(default_factory=list)
    #: each field is a whole answer by itself: a pick in any one of them acts at once
    any_field: bool = False
    #: label of the button when the prompt has no fields, or a submit button for several fields.
    submit_label: str = ""
    #: the ``/vote`` command routes to this prompt (its field is ``target``).
    vote: bool = False
    #: fixed extra values of the action (e.g. which pending choice it answers).
    extra: dict[str, Any] = Field(default_factory=dict)


class View(BaseModel):
    """What one viewer may know right now: a text for "My hand" and data for tests and tools."""

    text: str
    data: dict[str, Any] = Field(default_factory=dict)


class PlayerResult(BaseModel):
    id: str
    name: str
    role: str
    team: str
    alive: bool
    score: int | None = None


class Result(BaseModel):
    finished: bool
    phase: str
    round: int
    outcome: str
    winners: list[str]
    players: list[PlayerResult]


#: an action's handler: a pure function of the state (the engine's private copy), the parsed action
#: and the randomness, that validates (raising ``IllegalAction``) and returns what happened
Handler = Callable[[Any, Any, Rng], Outcome]


#: what may close a phase besides a moderator: its deadline passing (``PhaseTimeout``), every player
#: who may act having acted, one player's move (a turn), the table saying it is ready
Closer = Literal["deadline", "all_acted", "move", "ready"]


@dataclass(frozen=True)
class Phase:
    """One phase of a game's declared phase table (``Game.phases``): the engine derives the phase's
    length, its label and what a ``PhaseTimeout`` does from it, so a phase is described once.

    ``seconds`` is the name of the option that holds the phase's length, or a function of the
    state (a length that depends on more than one option); a falsy length means no timer.
    ``on_timeout`` closes the phase when its deadline passes: a function of the state and the
    randomness returning the events it caused. ``prompts`` are the action types the phase asks
    players for (its secret choices), for readers and tests.
    """

    label: str | Callable[[Any], str]
    seconds: str | Callable[[Any], float | None] | None = None
    closes: tuple[Closer, ...] = ()
    prompts: tuple[str, ...] = ()
    on_timeout: Callable[[Any, Rng], list[Event]] | None = None

    def length(self, state: Any) -> float | None:
        if self.seconds is None:
            return None
        value = getattr(state.options, self.seconds) if isinstance(self.seconds, str) else self.seconds(state)
        return float(value) if value else None

    def words(self, state: Any) -> str:
        return self.label if isinstance(self.label, str) else self.label(state)


def close_on_timeout(phases: Mapping[str, Phase], state: Any, rng: Rng) -> list[Event]:
    """The current phase's deadline passed: close it as its entry in ``phases`` says (for a
    game's ``phase_timeout`` handler)."""
    entry = phases.get(state.phase)
    if entry is None or entry.on_timeout is None:
        raise IllegalAction("This phase has no timer.", code="no_timer")
    return entry.on_timeout(state, rng)


def action_type(action: type[Action]) -> str:
    """The ``type`` an action class declares (its discriminator)."""
    return action.model_fields["type"].default


class Game(ABC):
    """A game: its data, rules and narration. Instances are stateless; state is a pydantic model."""

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    Options: ClassVar[type[BaseModel]]
    Setup: ClassVar[type[BaseModel]]  # forced parts of setup, for tests and bug reports
    State: ClassVar[type[BaseState]]
    actions: ClassVar[tuple[type[Action], ...]]
    #: private messages go to a private thread per player in the game's channel instead of DMs
    #: (the forum games: a player's thread is where the Storyteller talks to them).
    private_threads: ClassVar[bool] = False
    #: run by human Storytellers who are not seated: the host and co-Storytellers receive the
    #: storyteller audience and sit in every private thread, and send ``StorytellerAction``s
    storytellers: ClassVar[bool] = False
    #: players choose a numbered seat at sign-up (``/in seat:3``); the circle is in seat order
    seats: ClassVar[bool] = False
    #: Travellers who may sign up besides the regular players (and take seats after them)
    max_travellers: ClassVar[int] = 0
    #: phases keep a fixed schedule (the 72-hour forum cycle): a phase closed by its deadline
    #: starts the next one from that deadline, not from when the bot got to it, so boundaries
    #: that passed while the bot was down resolve at once, in order, and the times stay
    fixed_schedule: ClassVar[bool] = False
    #: a line for a table's welcome (the offline table's): how a new group starts this game ("" for none)
    welcome: ClassVar[str] = ""
    #: the command that shows a Storyteller the whole truth (a game with Storytellers; "" for none)
    truth_command: ClassVar[str] = ""
    #: every action type the game takes (its ``actions`` and ``COMMON_ACTIONS``) -> its handler: a
    #: class attribute naming plain functions ``(state, action, rng) -> Outcome`` in the modules of
    #: their rules (never the game's methods). The default ``_apply`` dispatches through it, and a
    #: test fails for an action type without a handler.
    handlers: Mapping[str, Handler] = {}
    #: every phase a game can be in -> its ``Phase`` (label, length, what closes it, its prompts, its
    #: timeout). The default ``phase_seconds``, ``phase_label`` and ``close_on_timeout`` read it;
    #: ``tests/engine/test_phases.py`` fails for a phase a game reaches without an entry.
    phases: Mapping[str, Phase] = {}
    #: the state's fields stored apart from the rest (``dump_fixed``), because they are set at the
    #: start and change rarely or never (the Clocktower's script, pool, players and settings): a
    #: step stores only the rest (``dump_state``), and the fixed part only when one of them is a new
    #: object
    fixed_fields: ClassVar[tuple[str, ...]] = ()

    # ----- actions -----
    def action_types(self) -> set[str]:
        """The type of every action this game parses."""
        return {action_type(a) for a in (*self.actions, *COMMON_ACTIONS)}

    @cached_property
    def action_adapter(self) -> TypeAdapter:
        members = (*self.actions, *COMMON_ACTIONS)
        # a union made at run time from the game's action classes: no static type to check
        union = Annotated[Union[members], Field(discriminator="type")]  # type: ignore[valid-type]  # noqa: UP007
        return TypeAdapter(union)

    def parse_action(self, data: dict[str, Any] | Action) -> Action:
        if isinstance(data, Action):
            return data
        try:
            return self.action_adapter.validate_python(data)
        except ValidationError as exc:
            raise IllegalAction(_readable(exc), code="malformed_action") from None

    def parse_options(self, data: dict[str, Any] | None) -> BaseModel:
        try:
            return self.Options.model_validate(with_nones(self.Options, data or {}))
        except ValidationError as exc:
            raise SetupError(readable_error(exc, self.Options, subject=self.title), code="bad_option") from None

    def dump_state(self, state: BaseState) -> str:
        """The state as stored with each step: every field at its default left out (a Clocktower
        day's 6.9 KB becomes 3.8 KB, so the game's row fits one database page instead of two:
        issue 38), and so are the ``fixed_fields`` (``dump_fixed`` stores them, only when they
        change). ``load_state`` fills them back in, so a default is part of the stored format:
        ``tests/engine/test_stored_state.py`` holds every state model's defaults, and fails when
        one changes without a migration of the stored states."""
        if self.fixed_fields:
            return state.model_dump_json(exclude_defaults=True, exclude=set(self.fixed_fields))
        return state.model_dump_json(exclude_defaults=True)

    def dump_fixed(self, state: BaseState) -> str | None:
        """The ``fixed_fields`` alone, as stored apart from the state (defaults left out, as
        ``dump_state`` leaves them); None for a game that has none."""
        if not self.fixed_fields:
            return None
        return state.model_dump_json(exclude_defaults=True, include=set(self.fixed_fields))

    def load_state(self, data: dict[str, Any] | str, fixed: str | None = None) -> BaseState:
        """The state from ``dump_state``'s JSON and, when stored apart, ``dump_fixed``'s. A state
        stored before the fixed part was kept apart still holds it, and loads without one."""
        if fixed is not None:
            data = _joined(data, fixed) if isinstance(data, str) else {**data, **json.loads(fixed)}
        if isinstance(data, str):
            return self.State.model_validate_json(data)
        return self.State.model_validate(data)

    def player_range(self, options: dict[str, Any] | BaseModel | None) -> tuple[int, int]:
        """The fewest and most players a table with these options takes: the class's by default (a
        game whose options change it, such as the Clocktower's script, says so here)."""
        return self.min_players, self.max_players

    # ----- the protocol -----
    def setup(
        self,
        players: Sequence[Player],
        options: dict[str, Any] | BaseModel | None,
        rng: Rng,
        forced: dict[str, Any] | None = None,
    ) -> Outcome:
        if len({p.id for p in players}) != len(players):
            raise SetupError("Each player can sit at the table only once.", code="duplicate_player")
        opts = options if isinstance(options, BaseModel) else self.parse_options(options)
        low, high = self.player_range(opts)
        if not low <= len(players) <= high:
            raise SetupError(
                f"{self.title} needs {low} to {high} players "
                f"(there are {len(players)}).",
                code="player_count",
            )
        try:
            setup = self.Setup.model_validate(forced or {})
        except ValidationError as exc:
            raise SetupError(_readable(exc), code="bad_setup") from None
        return self._setup(list(players), opts, rng, setup)

    def apply(self, state: BaseState, action: dict[str, Any] | Action, rng: Rng, *,
              in_place: bool = False) -> Outcome:
        """Validate and apply one action. On an error nothing changes and ``IllegalAction`` says why.

        ``in_place=True`` skips the defensive copy: the caller owns ``state`` and must throw it
        away if an error is raised (the bot does: it re-reads the committed state).
        """
        act = self.parse_action(action)
        if state.finished:
            raise IllegalAction("This game is over.", code="game_over")
        if act.phase_seq is not None and act.phase_seq != state.phase_seq:
            raise IllegalAction(
                "Too late: that phase has closed, and nothing was counted.", code="stale_phase"
            )
        if act.player and not isinstance(act, (PhaseTimeout, StorytellerAction)):
            state.player(act.player)  # raises not_a_player
        # a private copy, so an error half-way changes nothing (JSON round trip: pydantic-core does
        # it several times faster than copy.deepcopy)
        work = state if in_place else type(state).model_validate_json(state.model_dump_json())
        outcome = self._apply(work, act, rng)
        outcome.state.step = state.step + 1
        return outcome

    @abstractmethod
    def _setup(self, players: list[Player], options: Any, rng: Rng, forced: Any) -> Outcome: ...

    def _apply(self, state: Any, action: Action, rng: Rng) -> Outcome:
        """Dispatch ``action`` to its handler (``handlers``)."""
        handler = self.handlers.get(action.type)  # type: ignore[attr-defined]
        if handler is None:
            raise IllegalAction(f"{self.title} has no such action.", code="unknown_action")
        return handler(state, action, rng)

    @abstractmethod
    def view(self, state: Any, viewer: str | None) -> View:
        """``viewer`` is a player id, ``None`` for the public table, "storyteller" for the ST."""

    @abstractmethod
    def result(self, state: Any) -> Result: ...

    def phase_seconds(self, state: Any) -> float | None:
        """How long the current phase lasts before ``PhaseTimeout``; None for no timer (from
        ``phases``: a finished game or a phase without a length has none)."""
        entry = self.phases.get(state.phase)
        return None if state.finished or entry is None else entry.length(state)

    def close_on_timeout(self, state: Any, rng: Rng) -> list[Event]:
        """The current phase's deadline passed: close it as its ``phases`` entry says."""
        return close_on_timeout(self.phases, state, rng)

    @abstractmethod
    def prompts(self, state: Any, player_id: str) -> list[Prompt]:
        """The secret choices open to this player now (empty when they have none)."""

    @abstractmethod
    def legal_actions(self, state: Any) -> list[Action]:
        """Every legal player action now (used by random simulation); timeouts not included."""

    @abstractmethod
    def check_invariants(self, state: Any, events: list[Event]) -> list[str]:
        """Broken invariants after a step (empty when all hold), secrets in public events included."""

    def team_members(self, state: Any, team: str) -> list[str]:
        """Player ids a ``team`` audience reaches."""
        return []

    def picture(self, state: Any, image: str) -> dict[str, Any] | None:
        """What the picture named by an event's ``image`` shows (the Castle's tableau), as plain
        JSON-able public data. Cheap: it is made when the event is committed; the drawing waits."""
        return None

    def draw(self, picture: dict[str, Any]) -> bytes | None:
        """PNG bytes of a picture from ``picture``'s data (slow: the bot draws off its event loop)."""
        return None

    def render(self, state: Any, image: str) -> bytes | None:
        """PNG bytes of the picture named by an event's ``image``, drawn now."""
        data = self.picture(state, image)
        return None if data is None else self.draw(data)

    def reminder_seconds(self, state: Any) -> float | None:
        """After how long without any action the game calls the player it waits for again
        (``remind``); None for never. For a phase with no timer, where an absent player would
        otherwise stall the table until a moderator steps in."""
        return None

    def remind(self, state: Any) -> list[Event]:
        """What the table is told when ``reminder_seconds`` passed with nothing happening."""
        return []

    def phase_label(self, state: Any) -> str:
        """The current phase in words, for the table ("the Council"), from ``phases``."""
        entry = self.phases.get(state.phase)
        return entry.words(state) if entry is not None else f"the {state.phase.replace('_', ' ')}"

    def choices_since(self, state: Any) -> int:
        """The first ``phase_seq`` whose choices still stand: the bot keeps that phase's message,
        buttons and prompts open (a forum night's reminder stage keeps dusk's open until the lock)."""
        return state.phase_seq

    def board_ends(self, state: Any) -> list[list]:
        """The deadlines a player cares about now, each [label, seconds after the current phase's
        deadline], for the phase's message; none: the phase's own deadline."""
        return []

    def timed_slots(self, state: Any) -> list[Event]:
        """The living messages that count down to the phase's deadlines (a forum day's tally): the
        bot re-times them when a moderator moves, pauses or resumes the phase."""
        return []

    def living(self, state: Any) -> list[Event]:
        """The faces of the game's living messages that ``live`` events name, as this state shows
        them (made when they are shown, not when they changed), each with its ``slot``; none for a
        slot no longer live (its phase is over: the event that closed it gave its last face)."""
        return []

    def faces(self, state: Any, events: list[Event]) -> list[Event]:
        """The events as they are shown from this state: each ``live`` one replaced by its face
        (``living``), or left out when its slot is no longer live."""
        if not any(e.type == LIVE for e in events):
            return events
        now = {face.slot: face for face in self.living(state)}
        return [now[e.slot] if e.type == LIVE else e for e in events if e.type != LIVE or e.slot in now]

    def silenced(self, state: Any) -> list[str]:
        """The seated players the rules want silent in the voice channel now: the dead where the
        table chose so, everyone but the speaker during a speaking turn, everyone during a quiet
        night. The bot server-mutes them in the game's linked voice channel (and no one else),
        and unmutes whoever it muted once they are no longer here. Never a removed player."""
        return []

    def speaking_turn(self, state: Any) -> SpeakingTurn | None:
        """The timed speaking turn running now, if any: when its seconds pass the bot applies
        ``TurnOver(phase_seq, turn=index)``, as a moderator's skip does."""
        return None

    def mutes_anyone(self, state: Any) -> bool:
        """Whether the table's options let the rules silence anyone (``silenced``) at some point of
        the game: the bot then checks, at the start, that it may mute in the voice channel."""
        options = getattr(state, "options", None)  # (as ``narrated`` reads it: not every state has options)
        return options is not None and self.mutes_by_options(options)

    def mutes_by_options(self, options: Any) -> bool:
        """``mutes_anyone`` from the parsed options alone (a lobby has no state yet: the link
        answer asks it before the game starts)."""
        return False

    def narrated(self, state: Any) -> bool:
        """Whether the table asked for the phases to be spoken aloud (events' ``say``) in the
        game's linked voice channel (the ``narrate`` option where a game has one)."""
        return bool(getattr(getattr(state, "options", None), "narrate", False))

    def shared_prompts(self, state: Any) -> list[Prompt]:
        """Choices every player makes among the same options now (a vote, "I am ready"): the bot
        puts them on the phase's message itself, so a player chooses in one tap. Each pick is still
        checked against that player's own prompt, and the answer to it is private."""
        return []

    def no_vote_reason(self, state: Any, player_id: str) -> str:
        """Why ``/vote`` finds no vote open for this player now."""
        return "There is no vote open for you right now."

    def recap(self, state: Any, records: list[Event]) -> list[Event]:
        """At the end: what the game's record (its ``record`` events, in order) tells the table."""
        return []

    def rounds(self, state: Any) -> int:
        return state.round

    def rules_summary(self) -> str:
        return self.title


def _joined(state: str, fixed: str) -> str:
    """One JSON object of the members of two (the stored state's and its fixed part's), so the
    state is still validated from JSON in one pass, as when it was stored whole."""
    inner = [part for part in (state.strip()[1:-1].strip(), fixed.strip()[1:-1].strip()) if part]
    return "{" + ",".join(inner) + "}"


def _readable(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors()[:3]:
        where = ".".join(str(x) for x in err.get("loc", ()) if not isinstance(x, int))
        msg = err.get("msg", "is not valid")
        parts.append(f"{where}: {msg}" if where else msg)
    return "That was not understood: " + "; ".join(parts) + "."
