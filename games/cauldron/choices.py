"""The two choice phases a primary may open: the Cailleach's Gaze (bottom or out) and the Yew vote
(the ingredient to poison); each resumes the resolution queue when it closes."""

from __future__ import annotations

from collections import Counter

from games.engine import (
    Action,
    Choice,
    Event,
    IllegalAction,
    Outcome,
    Prompt,
    PromptField,
    Rng,
)

from .checks import need_active, need_phase, need_player
from .data import INGREDIENTS
from .effects import effect
from .ending import check_end, game_over_event
from .models import CauldronState, GazeChoice, YewVote
from .night import run_queue
from .terms import KIND_LABEL, ing


def gaze_choice(s: CauldronState, a: GazeChoice, rng: Rng) -> Outcome:
    need_player(a)
    need_phase(s, "gaze", "Deciding a gazed card")
    need_active(s, a.player)
    if a.player not in s.gaze_pending:
        raise IllegalAction("The Cailleach showed you no card to decide.", code="no_pending_choice")
    s.gaze_choices[a.player] = a.choice
    where = "to the bottom of the deck" if a.choice == "bottom" else "out of the game"
    if all(pid in s.gaze_choices for pid in s.gaze_pending):
        return Outcome(state=s, events=close_gaze(s, rng), reply=f"Your card goes {where}.")
    return Outcome(state=s, events=[],
                   reply=f"Your card goes {where}; you can change it until every gazer has chosen.")


def close_gaze(s: CauldronState, rng: Rng) -> list[Event]:
    events: list[Event] = []
    bottom = discarded = 0
    for p in s.players:  # seat order; a removed gazer's card goes to the bottom too
        pid = p.id
        card = s.gaze_pending.get(pid)
        if card is None:
            continue
        choice = s.gaze_choices.get(pid, "bottom")
        if choice == "discard" and s.finished:
            choice = "stayed"
        s.deck.remove(card)
        if choice == "discard":
            s.out.append(card)
            discarded += 1
            events += check_end(s, announce=False)
        elif choice == "bottom":
            s.deck.append(card)
            bottom += 1
        else:  # the game ended before this discard: the card stays in the deck, at the bottom
            s.deck.append(card)
        for k in reversed(s.knowledge[pid]):
            if k.card == card and k.fate == "pending":
                k.fate = "discarded" if choice == "discard" else "bottom"
                break
    s.gaze_pending, s.gaze_choices = {}, {}
    events.append(effect(s, "gaze", "primary",
                         f"{bottom} card{'s' if bottom != 1 else ''} sent to the bottom, "
                         f"{discarded} cast out of the game.", bottom=bottom, discarded=discarded))
    if s.finished:
        events.append(game_over_event(s))
        return events
    events += run_queue(s, rng)
    return events


def yew_vote(s: CauldronState, a: YewVote, rng: Rng) -> Outcome:
    need_player(a)
    need_phase(s, "yew", "Voting to poison")
    need_active(s, a.player)
    if a.player not in s.yew_voters:
        raise IllegalAction("Only those who drank Yew's Quiet Draught vote.", code="not_a_voter")
    if a.target not in s.yew_options:
        names = ", ".join(INGREDIENTS[k].name for k in s.yew_options)
        raise IllegalAction(f"You can poison one of: {names}.", code="bad_target")
    s.yew_votes[a.player] = a.target
    if all(pid in s.yew_votes for pid in s.yew_voters if pid not in s.removed):
        return Outcome(state=s, events=close_yew(s, rng), reply=f"Your vote to poison {ing(a.target)} is in.")
    return Outcome(state=s, events=[],
                   reply=f"Your vote to poison {ing(a.target)} is in; you can change it until every drinker has voted.")


def close_yew(s: CauldronState, rng: Rng) -> list[Event]:
    events: list[Event] = []
    votes = Counter(v for pid, v in s.yew_votes.items() if pid not in s.removed)
    s.yew_voters, s.yew_votes = [], {}
    options, s.yew_options = s.yew_options, []
    if not votes:
        events.append(effect(s, "yew", "primary", "no one voted: nothing is poisoned.", poisoned=None))
    else:
        top = max(votes.values())
        tied = [k for k in options if votes[k] == top]
        chosen = tied[0] if len(tied) == 1 else rng.choice(tied)
        if s.poison_round != s.round + 1:
            s.poison = []
        s.poison.append(chosen)
        s.poison_round = s.round + 1
        how = " (drawn at random among the tied)" if len(tied) > 1 else ""
        events.append(effect(s, "yew", "primary",
                             f"**{ing(chosen)}** is poisoned{how}. Whoever casts it next night "
                             f"cannot cast on night {s.round + 2}.", poisoned=chosen,
                             tied=tied if len(tied) > 1 else [], votes=sum(votes.values())))
    events += run_queue(s, rng)
    return events


def gaze_prompt(s: CauldronState, player_id: str) -> Prompt | None:
    """The card the Cailleach showed a gazer, and where it goes."""
    if player_id not in s.gaze_pending:
        return None
    kind = s.kinds[s.gaze_pending[player_id]]
    return Prompt(action="gaze", title="Cailleach's Gaze",
                  text=f"You see **{KIND_LABEL[kind]}**. Where does it go?",
                  fields=[PromptField(name="choice", placeholder="Bottom or out of the game", choices=[
                      Choice(value="bottom", label="Put it at the bottom of the deck", emoji="⬇️"),
                      Choice(value="discard", label="Cast it out of the game", emoji="🗑️")])])


def gaze_legal_actions(s: CauldronState) -> list[Action]:
    out: list[Action] = []
    for pid in s.gaze_pending:
        if pid in s.removed:
            continue
        out += [GazeChoice(player=pid, choice="bottom"), GazeChoice(player=pid, choice="discard")]
    return out


def yew_prompt(s: CauldronState, player_id: str) -> Prompt | None:
    """The Yew drinkers' vote for the ingredient to poison."""
    if player_id not in s.yew_voters:
        return None
    return Prompt(action="yew_vote", title="Yew's Quiet Draught", vote=True,
                  text="Vote for the ingredient to poison: whoever casts it next night sits out the "
                       "night after.",
                  fields=[PromptField(name="target", placeholder="Ingredient to poison", choices=[
                      Choice(value=k, label=INGREDIENTS[k].name, description=INGREDIENTS[k].short,
                             emoji=INGREDIENTS[k].emoji) for k in s.yew_options])])


def yew_legal_actions(s: CauldronState) -> list[Action]:
    out: list[Action] = []
    for pid in s.yew_voters:
        if pid not in s.removed:
            out += [YewVote(player=pid, target=k) for k in s.yew_options]
    return out
