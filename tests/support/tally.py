"""A tiny game for testing the platform on its own: everyone votes for a colour; the majority wins.

It follows the same protocol as the real games (it is not registered in ``games.GAMES``; tests
register it by hand), and keeps one secret per player so leaks can be checked.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from games.engine import (
    Action,
    BaseState,
    Choice,
    EndGame,
    Event,
    Game,
    IllegalAction,
    Outcome,
    PhaseTimeout,
    PlayerResult,
    Prompt,
    PromptField,
    RemovePlayer,
    Result,
    View,
    private,
    public,
    to_group,
)


class TallyOptions(BaseModel):
    vote_seconds: int = Field(default=60, ge=5, le=259_200)
    rounds: int = Field(default=2, ge=1, le=5)


class TallySetup(BaseModel):
    secrets: dict[str, str] = Field(default_factory=dict)


class TallyState(BaseState):
    options: TallyOptions
    secret: dict[str, str]
    votes: dict[str, str] = Field(default_factory=dict)
    gone: list[str] = Field(default_factory=list)
    tallies: list[str] = Field(default_factory=list)


class Vote(Action):
    type: Literal["vote"] = "vote"
    target: str


class Whisper(Action):
    """A word to other players in a shared private thread (the platform's whisper threads)."""

    type: Literal["whisper"] = "whisper"
    to: list[str]
    text: str


COLOURS = ["red", "blue"]


class Tally(Game):
    name = "tally"
    title = "Tally"
    min_players = 2
    max_players = 6
    Options = TallyOptions
    Setup = TallySetup
    State = TallyState
    actions = (Vote, Whisper)

    def _setup(self, players, options, rng, forced):
        secret = {p.id: forced.secrets.get(p.id) or rng.choice(["owl", "cat"]) for p in players}
        state = TallyState(players=players, phase="vote", phase_seq=1, round=1, options=options, secret=secret)
        events = [private(p.id, "card", f"Your secret animal is the {secret[p.id]}.") for p in players]
        events.append(public("open", "Round 1: vote for a colour.", opens_phase=True))
        return Outcome(state=state, events=events)

    def _living(self, state):
        return [p.id for p in state.players if p.id not in state.gone]

    def _apply(self, state, action, rng):
        if isinstance(action, EndGame):
            return self._finish(state, "ended")
        if isinstance(action, RemovePlayer):
            if action.target not in self._living(state):
                raise IllegalAction("That player is not in the game.", code="bad_target")
            state.gone.append(action.target)
            state.votes.pop(action.target, None)
            return Outcome(state=state, events=[public("removed", f"{state.name(action.target)} left.")],
                           reply="Removed.")
        if isinstance(action, PhaseTimeout):
            return self._close(state)
        if action.player in state.gone:
            raise IllegalAction("You are out of the game.", code="dead")
        if isinstance(action, Whisper):
            members = sorted({action.player, *action.to})
            event = Event(type="whisper", audience=to_group("whisper:" + "+".join(members), members),
                          text=f"{state.name(action.player)}: {action.text}")
            return Outcome(state=state, events=[event], reply="Whispered.")
        if action.target not in COLOURS:
            raise IllegalAction("Vote red or blue.", code="bad_target")
        state.votes[action.player] = action.target
        if set(state.votes) >= set(self._living(state)):
            out = self._close(state)
            out.reply = "Your vote is in."
            return out
        return Outcome(state=state, reply="Your vote is in; you can change it until the phase closes.")

    def _close(self, state):
        counts = {c: sum(v == c for v in state.votes.values()) for c in COLOURS}
        winner = max(COLOURS, key=lambda c: counts[c])
        state.tallies.append(winner)
        state.votes = {}
        events = [public("tally", f"Round {state.round}: {winner} wins.", pause=0.5)]
        if state.round >= state.options.rounds:
            out = self._finish(state, winner)
            out.events[:0] = events
            return out
        state.round += 1
        state.next_phase("vote")
        events.append(public("open", f"Round {state.round}: vote for a colour.", title=f"Round {state.round}",
                             opens_phase=True))
        return Outcome(state=state, events=events)

    def _finish(self, state, outcome):
        state.finished = True
        state.outcome = outcome
        state.phase = "game_over"
        state.phase_seq += 1
        reveal = ", ".join(f"{state.name(p)}: {a}" for p, a in state.secret.items())
        return Outcome(state=state, events=[public("reveal", f"Game over ({outcome}). {reveal}")])

    def view(self, state, viewer):
        text = f"Round {state.round}, phase {state.phase}."
        if viewer == "storyteller":
            return View(text="Storyteller view. " + ", ".join(
                f"{p.name}: {state.secret[p.id]}" for p in state.players))
        if viewer in state.secret:
            text += f" Your animal: {state.secret[viewer]}."
        return View(text=text)

    def result(self, state):
        return Result(finished=state.finished, phase=state.phase, round=state.round, outcome=state.outcome,
                      winners=[], players=[PlayerResult(id=p.id, name=p.name, role=state.secret[p.id], team="",
                                                        alive=p.id not in state.gone) for p in state.players])

    def phase_seconds(self, state):
        return None if state.finished else state.options.vote_seconds

    def prompts(self, state, player_id):
        if state.finished or player_id in state.gone:
            return []
        return [Prompt(action="vote", title="Vote for a colour", vote=True, fields=[PromptField(
            name="target", placeholder="Colour", choices=[Choice(value=c, label=c) for c in COLOURS])])]

    def legal_actions(self, state):
        return [Vote(player=p, target=c) for p in self._living(state) for c in COLOURS]

    def check_invariants(self, state, events: list[Event]):
        return []


GAME = Tally()
