"""The forum day: the cycle's stages, today's tally, the early end, and the end of the game.

Pure functions of the state, so the tally the town sees, the early-end check the Storyteller is
told about and the execution at the day's end all count the same way.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine import NO_ONE

from .characters import Characters
from .options import Settings
from .state import ClocktowerState, PendingEnd, Seat

#: the vote for no execution (needs no nomination and nominates no one)
NO_EXECUTION = NO_ONE


# ----- the cycle -----

def stages(settings: Settings, phase: str) -> list[tuple[str, float]]:
    """The stages of a night or a day with their lengths, in order (a stage of no length is
    skipped: a day whose announcements close with it has no "final" stage)."""
    if phase == "night":
        opened = settings.night_seconds - settings.lock_seconds - settings.reminder_seconds
        parts = [("open", opened), ("closing", settings.reminder_seconds), ("locked", settings.lock_seconds)]
    elif phase == "day":
        parts = [("nominations", settings.nomination_seconds),
                 ("voting", settings.announcement_seconds - settings.nomination_seconds),
                 ("final", settings.day_seconds - settings.announcement_seconds)]
    elif phase == "fiddle":  # the Demon's choice waits for it; the town's vote has a deadline
        parts = [("voting", settings.fiddle_seconds)]
    else:
        return []
    return [(name, seconds) for name, seconds in parts if seconds > 0]


def stage_seconds(state: ClocktowerState) -> float | None:
    return dict(stages(state.settings, state.phase)).get(state.stage)


def next_stage(state: ClocktowerState) -> str | None:
    """The stage after the current one in the same night or day; None at its end."""
    names = [name for name, _ in stages(state.settings, state.phase)]
    if state.stage not in names:
        return None
    at = names.index(state.stage)
    return names[at + 1] if at + 1 < len(names) else None


STAGE_ENDS = {"nominations": "Nominations close", "voting": "Announcements close", "final": "Voting closes"}


def day_ends(state: ClocktowerState) -> list[list]:
    """The day's boundaries still to come, each with its seconds after the current stage's end
    (the bot turns them into Discord timestamps from the stage's deadline)."""
    out: list[list] = []
    after = 0.0
    started = False
    for name, seconds in stages(state.settings, "day"):
        if name == state.stage:
            started = True
        elif started:
            after += seconds
        else:
            continue
        label = STAGE_ENDS[name]
        if name == "voting" and not any(n == "final" for n, _ in stages(state.settings, "day")):
            label = "Voting closes"
        out.append([label, after])
    return out


def night_ends(state: ClocktowerState) -> list[list]:
    """The night's boundaries a player cares about, the lock and dawn, each with its seconds after
    the current stage's end (the start of the reminder stage is not one of them)."""
    parts = stages(state.settings, "night")
    names = [name for name, _ in parts]
    if state.stage not in names:
        return []
    out: list[list] = []
    after = 0.0
    for at in range(names.index(state.stage), len(parts)):
        if names[at] != state.stage:
            after += parts[at][1]
        if at == len(parts) - 1:
            out.append(["Dawn comes" if names[at] == "locked" else "Night actions lock at dawn", after])
        elif names[at + 1] == "locked":
            out.append(["Night actions lock", after])
    return out


# ----- votes -----

def can_vote(state: ClocktowerState, seat: Seat) -> bool:
    """The living vote; the dead vote with their token (or move a vote the token already paid for)."""
    return seat.alive or seat.vote_token or seat.player in state.votes


def weight(state: ClocktowerState, player: str) -> int:
    """-1 for a vote the Thief's choice counts negatively today. The mark is the Thief's ability,
    so it stops the moment the Thief is dead (a mark with no Thief seated is the Storytellers')."""
    thieves = [s for s in state.seats if s.has("thief")]
    working = not thieves or any(s.alive for s in thieves)
    return -1 if player in state.negative and working else 1


@dataclass(frozen=True)
class Tally:
    #: today's nominees in nomination order, then no execution
    options: list[str]
    count: dict[str, int]
    #: each option's voters in seat order
    voters: dict[str, list[str]]
    #: who may still vote and has not
    not_voted: list[str]
    #: the option about to win: a nominee, NO_EXECUTION, or "" (a tie for the most, or no votes);
    #: once today's execution has happened, the player executed (the Virgin's nominator, a Scapegoat)
    leader: str
    top: int
    #: the options tied for the most votes (more than one when it is a tie)
    tied: list[str]


def tally(state: ClocktowerState) -> Tally:
    options = [n.nominee for n in state.nominations] + [NO_EXECUTION]
    count = dict.fromkeys(options, 0)
    voters: dict[str, list[str]] = {o: [] for o in options}
    not_voted = []
    for seat in state.seats:
        target = state.votes.get(seat.player)
        if target is None:
            if can_vote(state, seat):
                not_voted.append(seat.player)
            continue
        count[target] += weight(state, seat.player)
        voters[target].append(seat.player)
    top = max(count.values())
    tied = [o for o in options if count[o] == top] if top > 0 else []
    leader = state.executed or (tied[0] if len(tied) == 1 else "")
    return Tally(options, count, voters, not_voted, leader, top, tied)


def early_end_refusal(state: ClocktowerState, t: Tally) -> str:
    """Why voting may not end early now ("" when it may): while a tie or a change of leader is
    still possible. Readings (``Settings.early_end``): "majority" counts every vote as movable, so
    the leader must out-vote all other votes and every uncast one together; "uncast" takes the
    cast votes as they stand and asks only whether the uncast ones could still tie the leader."""
    if state.executed:
        return "Today's execution has happened: voting is over."
    if not t.leader:
        return "No option leads: it is a tie" + (" at 0" if t.top <= 0 else "") + "."
    lead = t.count[t.leader]
    positive_uncast = sum(1 for p in t.not_voted if weight(state, p) > 0)
    # a negative voter not already on the leader could still move onto it and lower it
    lowering = sum(1 for s in state.seats if weight(state, s.player) < 0 and can_vote(state, s)
                   and state.votes.get(s.player) != t.leader)
    worst = lead - lowering
    if state.settings.early_end == "majority":
        others = sum(max(0, weight(state, p)) for o in t.options if o != t.leader for p in t.voters[o])
        best_other = others + positive_uncast
        if worst > best_other:
            return ""
        return (f"{_option_short(state, t.leader)} leads with {lead}, but the other votes and the "
                f"{positive_uncast} not yet cast could still reach {best_other}.")
    runner = max((t.count[o] for o in t.options if o != t.leader), default=0)
    if worst > runner + positive_uncast:
        return ""
    return (f"{_option_short(state, t.leader)} leads {lead} to {runner}, and {positive_uncast} "
            f"vote{'s are' if positive_uncast != 1 else ' is'} not yet cast.")


def _option_short(state: ClocktowerState, option: str) -> str:
    return "No execution" if option == NO_EXECUTION else state.name(option)


def option_label(state: ClocktowerState, option: str) -> str:
    return "No execution" if option == NO_EXECUTION else state.label(option)


def tally_text(state: ClocktowerState, t: Tally, *, closed: bool = False) -> str:
    """The town square's living tally: each nomination with its voters in seat order."""
    by_nominee = {n.nominee: n.nominator for n in state.nominations}
    lines = []
    for option in t.options:
        who = ", ".join(_voter(state, p) for p in t.voters[option]) or "no votes"
        head = f"**{option_label(state, option)}** · {t.count[option]}"
        if option in by_nominee:
            head += f" (nominated by {state.name(by_nominee[option])})"
        lines.append(f"{head}\n  {who}")
    if not state.nominations:
        lines.insert(0, "No nominations yet: the first vote on a player nominates them."
                     if state.stage == "nominations" and not closed else "Nobody was nominated today.")
    if t.not_voted and not closed:
        lines.append(f"Not voted ({len(t.not_voted)}): " + ", ".join(_voter(state, p) for p in t.not_voted))
    lines.append(standing(state, t, closed=closed))
    return "\n".join(lines)


def _voter(state: ClocktowerState, player: str) -> str:
    seat = state.seat_of(player)
    return f"{state.name(player)} ({seat.seat}{', dead' if not seat.alive else ''})"


def standing(state: ClocktowerState, t: Tally, *, closed: bool = False) -> str:
    if t.leader and t.leader != NO_EXECUTION:
        return f"{'Executed' if closed else 'About to die'}: **{state.label(t.leader)}**."
    if t.leader == NO_EXECUTION:
        return "No execution has the most votes" + (": nobody is executed." if closed else ".")
    if len(t.tied) > 1:
        names = " and ".join(option_label(state, o) for o in t.tied)
        return f"Tied at {t.top} between {names}: " + ("nobody is executed." if closed else "no execution as it stands.")
    return "No votes: " + ("nobody is executed." if closed else "no execution as it stands.")


# ----- the end of the game -----

def mechanical_end(state: ClocktowerState, chars: Characters) -> PendingEnd | None:
    """The rulebook's victory conditions on the true grimoire (Travellers do not count): good when
    every Demon is dead, evil when only 2 players live; both at once is a tie, which good wins."""
    regular = [s for s in state.seats if not s.traveller]
    demons_alive = [s for s in regular if chars[s.character].team == "demon" and s.alive]
    living = sum(1 for s in regular if s.alive)
    if not demons_alive:
        return PendingEnd(team="good", reason="every Demon is dead")
    if living <= 2:
        return PendingEnd(team="evil", reason=f"only {living} player{'s' if living != 1 else ''} "
                                              "(not counting Travellers) live")
    return None
