"""The Council: after a ritual that killed no one, the secret vote to burn a witch (a tie burns no one)."""

from __future__ import annotations

from games.engine import Action, Choice, Event, IllegalAction, Outcome, Prompt, PromptField, Rng, public

from . import records, voice
from .circle import NONE, alive, all_acted, check_acting, kill, living_target, role_reveal
from .data import load
from .ending import check_win, end_round
from .models import RitualState, VoteBurn


def open_council(state: RitualState) -> list[Event]:
    state.next_phase("council")
    state.votes = {}
    survived = " The Performer survived." if state.performer and state.is_alive(state.performer) else ""
    text = (f"⚖️ **The Council.**{survived} Discuss what the ritual revealed, then "
            "secretly vote to burn one witch")
    text += ", or to burn no one." if state.options.allow_spare else "."
    text += " A tie burns no one."
    if state.warded:
        text += f"\n🛡️ The wards shield **{state.name(state.warded)}**: they cannot be burned this round."
    return [public("council_opened", text, title="The Council", opens_phase=True,
                   data={"warded": state.warded}, say=voice.say_council(state))]


def close_council(state: RitualState, rng: Rng) -> list[Event]:
    """The votes are counted (one witch burns, or no one), then the round ends unless a side has won."""
    nar = load().narration.council
    tally: dict[str, int] = {}
    for target in state.votes.values():
        tally[target] = tally.get(target, 0) + 1
    state.votes = {}
    burned = ""
    events: list[Event] = []
    if not tally:
        events.append(public("council_result", nar["empty"], data={"burned": ""}, pause=2.0,
                             say="No one burns."))
    else:
        top = max(tally.values())
        leaders = [t for t, c in tally.items() if c == top]
        if len(leaders) > 1:
            events.append(public("council_result", nar["tie"], data={"burned": "", "tie": True}, pause=2.0,
                                 say="The Council cannot agree. No one burns."))
        elif leaders[0] == NONE:
            events.append(public("council_result", nar["spare"], data={"burned": ""}, pause=2.0,
                                 say="No one burns."))
        else:
            burned = leaders[0]
            kill(state, burned)
            events.append(public("council_result", nar["burn"].format(victim=state.name(burned)),
                                 data={"burned": burned}, pause=3.0, say=f"{state.name(burned)} burns."))
            if state.options.reveal_on_death:
                events.append(role_reveal(state, burned))
    if state.history and burned:
        rec = records.decode(state.history[-1])
        rec["burned"] = burned
        state.history[-1] = records.encode(rec)
    events += check_win(state)
    if state.finished:
        return events
    return events + end_round(state, rng)


def vote_burn(state: RitualState, action: VoteBurn, rng: Rng) -> Outcome:
    check_acting(state, action)
    events: list[Event] = []
    if state.phase != "council":
        raise IllegalAction("The burn vote is only open during The Council.", code="wrong_phase")
    if action.target.lower() in (NONE, "no one", "nobody", "spare"):
        if not state.options.allow_spare:
            raise IllegalAction("This table plays without a 'burn no one' choice: name a witch.",
                                code="no_spare")
        target = NONE
    else:
        target = living_target(state, action.target)
        if target == action.player:
            raise IllegalAction("You cannot vote to burn yourself.", code="self_burn")
        if target == state.warded:
            raise IllegalAction(f"The wards shield {state.name(target)} this round: choose someone else.",
                                code="warded")
    changed = action.player in state.votes
    state.votes[action.player] = target
    what = "to burn no one" if target == NONE else f"to burn {state.name(target)}"
    reply = f"Your vote {what} is {'changed' if changed else 'in'}; you can change it until the Council closes."
    if all_acted(state, state.votes):
        events = close_council(state, rng)
        reply = f"Your vote {what} is in. Everyone has voted: the Council is over."
    return Outcome(state=state, events=events, reply=reply)


def burn_choices(state: RitualState, voter: str) -> list[Choice]:
    """Who may be burned, for ``voter`` (not themselves), or for everyone (``voter`` "")."""
    choices = [Choice(value=p, label=state.name(p)[:100]) for p in alive(state)
               if p != voter and p != state.warded]
    if state.options.allow_spare:
        choices.append(Choice(value=NONE, label="Burn no one", emoji="🕯️"))
    return choices


def prompt(state: RitualState, player_id: str) -> Prompt:
    current = state.votes.get(player_id)
    choices = burn_choices(state, player_id)
    shown = ("no one" if current == NONE else state.name(current)) if current else ""
    return Prompt(
        action="vote_burn", title="Vote to burn", vote=True,
        text="Who should burn? A tie burns no one." + (
            f" Your vote: **{shown}** (you can change it)." if shown else ""),
        fields=[PromptField(name="target", placeholder="Vote to burn", choices=choices)],
    )


def shared_prompt(state: RitualState) -> Prompt:
    return Prompt(action="vote_burn", title="Vote to burn", vote=True,
                  fields=[PromptField(name="target", placeholder="Vote to burn (secret)",
                                      choices=burn_choices(state, ""))])


def legal_actions(state: RitualState, living: list[str]) -> list[Action]:
    """Every vote the living may cast in the Council: not themselves, not the warded."""
    acts: list[Action] = []
    for p in living:
        targets = [t for t in living if t != p and t != state.warded]
        if state.options.allow_spare:
            targets.append(NONE)
        acts.extend(VoteBurn.model_construct(player=p, target=t) for t in targets)
    return acts
