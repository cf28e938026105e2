"""The Choosing: the secret vote for the Performer in the 13th Chair (with the voice table's
speaking turns, ``voice.py``), and the Offering it opens."""

from __future__ import annotations

from games.engine import (
    Action,
    Choice,
    Event,
    IllegalAction,
    Outcome,
    Prompt,
    PromptField,
    Rng,
    TurnOver,
    public,
)

from . import voice
from .circle import alive, all_acted, check_acting, living_target
from .models import RitualState, VotePerformer
from .words import round_word


def open_choosing(state: RitualState, rng: Rng) -> list[Event]:
    state.next_phase("choosing")
    state.votes = {}
    state.offerings = {}
    state.performer = ""
    state.warded = ""
    voice.open_turns(state, alive(state), rng)
    events = [public(
        "choosing_opened",
        f"🪑 **Round {round_word(state.round)}: The Choosing.** Who will sit in the 13th Chair? "
        "Discuss, then cast your secret vote for this round's Performer."
        + (voice.turns_intro(state) if state.speakers else ""),
        title="The Choosing", opens_phase=True, data={"round": state.round}, say=voice.say_choosing(state),
    )]
    if state.speakers:
        events.append(voice.turn_event(state))
    return events


def close_choosing(state: RitualState, rng: Rng) -> list[Event]:
    """The Performer is chosen (the most votes; a tie as the table's option says) and the Offering opens."""
    living = alive(state)
    tally: dict[str, int] = {}
    for target in state.votes.values():
        tally[target] = tally.get(target, 0) + 1
    if tally:
        top = max(tally.values())
        leaders = [p for p in living if tally.get(p) == top]
    else:
        leaders = list(living)
    tie = len(leaders) > 1
    if tie and state.options.performer_tie == "fewest_then_random":
        least = min(state.performed.get(p, 0) for p in leaders)
        leaders = [p for p in leaders if state.performed.get(p, 0) == least]
    performer = leaders[0] if len(leaders) == 1 else rng.choice(leaders)
    state.performer = performer
    state.performed[performer] = state.performed.get(performer, 0) + 1
    voice.close_turns(state)
    name = state.name(performer)
    if not tally:
        how = "No one voted; fate itself chooses."
    elif tie:
        how = "The votes are split; the Chair chooses for itself."
    else:
        how = "The coven has chosen."
    # the line pings the Performer (``notify``): that is how they learn it, with no DM of its own
    events = [public(
        "performer_chosen", f"🪑 {how} **{name}** takes the 13th Chair as this round's Performer: "
        "if the ritual backfires, the Hollow comes for them. They offer an ingredient like everyone else.",
        title="The 13th Chair", data={"performer": performer, "tie": tie}, pause=2.0, notify=[performer],
        say=f"{name} takes the thirteenth chair.",
    )]
    state.votes = {}
    state.next_phase("offering")
    events.append(public(
        "offering_opened",
        f"🧪 **The Offering.** Each witch secretly places one ingredient into the cauldron for "
        f"**{name}**'s ritual.",
        title="The Offering", opens_phase=True, data={"performer": performer},
        say=voice.say_offering(state, name),
    ))
    return events


def vote_performer(state: RitualState, action: VotePerformer, rng: Rng) -> Outcome:
    check_acting(state, action)
    events: list[Event] = []
    if state.phase != "choosing":
        raise IllegalAction("The Performer vote is only open during The Choosing.", code="wrong_phase")
    target = living_target(state, action.target)
    changed = action.player in state.votes
    state.votes[action.player] = target
    reply = (f"Your vote for {state.name(target)} to sit in the 13th Chair is "
             f"{'changed' if changed else 'in'}; you can change it until the phase closes.")
    if voice.turns_running(state):
        reply += " The vote closes after the last speaking turn."
    if all_acted(state, state.votes) and not voice.turns_running(state):
        events = close_choosing(state, rng)
        reply = f"Your vote for {state.name(target)} is in. Everyone has voted: the Choosing is over."
    return Outcome(state=state, events=events, reply=reply)


def turn_over(state: RitualState, action: TurnOver, rng: Rng) -> Outcome:
    """A speaking turn's seconds passed (or a moderator skipped it): the next living witch has the
    floor; after the last turn everyone may speak, and the vote closes if everyone has voted."""
    turn = voice.speaking_turn(state)
    if turn is None or action.phase_seq != state.phase_seq or action.turn != turn.index:
        raise IllegalAction("That speaking turn is not the one running now: nothing changed.", code="stale_turn")
    state.turn += 1
    voice.skip_gone(state)
    if voice.turns_running(state):
        events = [voice.turn_event(state)]
    elif state.votes and all_acted(state, state.votes):
        # (the line before the close: it is the Choosing's)
        events = [voice.turns_done_event(state), *close_choosing(state, rng)]
    else:
        events = [voice.floor_open_event(state)]
    return Outcome(state=state, events=events, reply=f"{state.name(turn.speaker)}'s turn is over.")


def after_removal(state: RitualState, pid: str, rng: Rng) -> list[Event]:
    """A witch left during the Choosing: the floor moves on if it was theirs; the vote closes
    once everyone left has voted and no turn remains."""
    speaking = voice.turns_running(state) and state.speakers[state.turn] == pid
    if speaking:
        voice.skip_gone(state)
    if state.votes and all_acted(state, state.votes) and not voice.turns_running(state):
        done = [voice.turns_done_event(state)] if speaking else []  # (the line is the Choosing's)
        return done + close_choosing(state, rng)
    if speaking:
        return [voice.turn_event(state) if voice.turns_running(state) else voice.floor_open_event(state)]
    return []


def performer_choices(state: RitualState, voter: str) -> list[Choice]:
    return [Choice(value=p, label=state.name(p)[:100], description="That's you" if p == voter else "")
            for p in alive(state)]


def prompt(state: RitualState, player_id: str) -> Prompt:
    current = state.votes.get(player_id)
    return Prompt(
        action="vote_performer", title="Choose the Performer", vote=True,
        text="Who sits in the 13th Chair this round?" + (
            f" Your vote: **{state.name(current)}** (you can change it)." if current else ""),
        fields=[PromptField(name="target", placeholder="Vote for the Performer",
                            choices=performer_choices(state, player_id))],
    )


def shared_prompt(state: RitualState) -> Prompt:
    return Prompt(action="vote_performer", title="Choose the Performer", vote=True,
                  fields=[PromptField(name="target", placeholder="Vote for the Performer (secret)",
                                      choices=performer_choices(state, ""))])


def legal_actions(state: RitualState, living: list[str]) -> list[Action]:
    """Every vote the living may cast in the Choosing (themselves included)."""
    acts: list[Action] = []
    for p in living:
        acts.extend(VotePerformer.model_construct(player=p, target=t) for t in living)
    return acts
