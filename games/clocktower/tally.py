"""The day's count and its verdict: today's tally and its words, the early end, the execution at
the day's end (the Lleech, the Scapegoat who might die instead), and the game's mechanical end.

The count is a pure function of the state, so the tally the town sees, the early-end check the
Storyteller is told about and the execution at the day's end all count the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from games.engine import NO_ONE, STORYTELLER, Event, live, public, record

from .bmr_day import mastermind_end, pacifist_note
from .bmr_night import executed_dies, spared_execution, truly_dies
from .bmr_travellers import voudon
from .characters import Characters
from .info import names
from .registration import alignments
from .resolve import lleech_host
from .rules import chars, impaired, lives, plural
from .snv_twins import EVERY_DEMON_DEAD
from .stages import day_ends
from .state import ClocktowerState, PendingEnd, Seat
from .succession import demon_died

#: the vote for no execution (needs no nomination and nominates no one)
NO_EXECUTION = NO_ONE


# ----- votes -----

def can_vote(state: ClocktowerState, seat: Seat, ruling: Seat | None | bool = False) -> bool:
    """The living vote; the dead, and the living Beggar, vote with their token (or move a vote the
    token already paid for). Under the Voudon, only the Voudon and the dead vote (``ruling``: the
    Voudon found once for a whole count, None for none; False: look it up)."""
    voudon_seat = voudon(state) if ruling is False else ruling
    if isinstance(voudon_seat, Seat):
        return seat is voudon_seat or not seat.alive
    return (seat.alive and seat.character != "beggar") or seat.vote_token or seat.player in state.votes


def votes_with_token(seat: Seat, state: ClocktowerState | None = None, ruling: Seat | None | bool = False) -> bool:
    """Whether this voter's vote spends a token: the dead's and the living Beggar's (none under the
    Voudon: "They don't need a vote token"; ``ruling``: as ``can_vote``'s)."""
    if state is not None and (voudon(state) if ruling is False else ruling) is not None:
        return False
    return not seat.alive or seat.character == "beggar"


def counted_negatively(state: ClocktowerState) -> frozenset[str]:
    """The players whose vote counts -1 today: the Thief's choices. The mark is the Thief's
    ability, so it stops the moment the Thief is dead (a mark with no Thief seated is the
    Storytellers'). Worked out once per count, not once per voter."""
    if not state.negative:
        return frozenset()
    thieves = [s for s in state.seats if s.has("thief")]
    working = not thieves or any(s.alive for s in thieves)
    return frozenset(state.negative) if working else frozenset()


def butler_master(state: ClocktowerState, seat: Seat) -> str:
    """The master a living, working Butler chose last night ("" when its vote is free: the dead
    have no ability, and a drunk or poisoned Butler's does not bind it)."""
    if not seat.alive or seat.traveller or not seat.has("butler") or impaired(state, seat.player):
        return ""
    chosen = state.night_choices.get(seat.player)
    return chosen[0] if chosen else ""


def void_votes(state: ClocktowerState) -> frozenset[str]:
    """The Butlers' votes that count for nothing: "you may only vote if they are voting too",
    read as voting for the same option (the master's hand is up on that nomination)."""
    return frozenset(seat.player for seat in state.seats if void_vote(state, seat))


def void_vote(state: ClocktowerState, seat: Seat) -> bool:
    """Whether this seat's vote is one of ``void_votes`` (a Butler's without its master's)."""
    if "butler" not in (seat.character, seat.ability):  # (Seat.has, cheaply: every count)
        return False
    target = state.votes.get(seat.player)
    if target is None:
        return False
    master = butler_master(state, seat)
    return bool(master) and state.votes.get(master) != target


def tripled(state: ClocktowerState) -> frozenset[str]:
    """The players whose vote counts as 3 today: a living, working Bureaucrat's choice last night
    (read at each count, as the Thief's mark: it stops when the Bureaucrat dies or is impaired)."""
    marked = set()
    for seat in state.seats:
        if seat.character == "bureaucrat" and seat.alive and not impaired(state, seat.player):
            chosen = state.night_choices.get(seat.player)
            if chosen:
                marked.add(chosen[0])
    return frozenset(marked)


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
    #: the voters whose vote counts -1 today (``counted_negatively``)
    negative: frozenset[str] = frozenset()
    #: the Butlers' votes cast without their master's (``void_votes``): they count 0
    void: frozenset[str] = frozenset()
    #: the votes that count as 3 today (the Bureaucrat's choice)
    triple: frozenset[str] = frozenset()
    #: the living, working Voudon the count was made under (``voudon``), if any
    voudon: Seat | None = None

    def size(self, player: str) -> int:
        return 3 if player in self.triple else 1

    def weight(self, player: str) -> int:
        """-1 for a vote the Thief's choice counts negatively today, 0 for a Butler's without its
        master's, else 1; times 3 for the Bureaucrat's choice."""
        return 0 if player in self.void else -self.size(player) if player in self.negative else self.size(player)

    def most(self, player: str) -> int:
        """The most this player's vote could add to an option (a void Butler's vote may come to count)."""
        return 0 if player in self.negative else self.size(player)


def tally(state: ClocktowerState, ruling: Seat | None | bool = False) -> Tally:
    """Today's count. ``ruling``: the Voudon already looked up for this action (``can_vote``'s)."""
    options = [n.nominee for n in state.nominations] + [NO_EXECUTION]
    count = dict.fromkeys(options, 0)
    voters: dict[str, list[str]] = {o: [] for o in options}
    not_voted = []
    negative = counted_negatively(state)
    void = void_votes(state) if state.settings.butler_vote == "void" else frozenset()
    triple = tripled(state)
    ruling = voudon(state) if ruling is False else ruling
    plain = not (negative or void or triple)  # every vote counts 1: no weight to look up per voter
    votes = state.votes
    for seat in state.seats:
        player = seat.player
        target = votes.get(player)
        if target is None:
            if can_vote(state, seat, ruling):
                not_voted.append(player)
            continue
        if plain:
            count[target] += 1
        else:  # (Tally.weight, before the Tally is made)
            size = 3 if player in triple else 1
            count[target] += 0 if player in void else -size if player in negative else size
        voters[target].append(player)
    # the Judge's failed execution leaves the rest of the count as it was
    eligible = [o for o in options if o != state.judge_failed]
    top = max(map(count.__getitem__, eligible))
    tied = [o for o in eligible if count[o] == top] if top > 0 else []
    # (the Butcher's second vote is open after today's execution: it counts as a day's vote)
    leader = (state.executed if state.voting_closed or state.butcher_day != state.day else "") \
        or (tied[0] if len(tied) == 1 else "")
    return Tally(options, count, voters, not_voted, leader, top, tied, negative, void, triple,
                 ruling if isinstance(ruling, Seat) else None)


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
    positive_uncast = _most(t, t.not_voted)
    # a negative voter not already on the leader could still move onto it and lower it (a weight
    # below 0: counted negatively, and not a void Butler's)
    lowering = sum(t.size(s.player) for s in state.seats if s.player in t.negative and s.player not in t.void
                   and can_vote(state, s, t.voudon) and state.votes.get(s.player) != t.leader) if t.negative else 0
    worst = lead - lowering
    if state.settings.early_end == "majority":
        others = sum(_most(t, t.voters[o]) for o in t.options if o != t.leader)
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


def _most(t: Tally, players: list[str]) -> int:
    """The most these players' votes could add to an option (``Tally.most`` summed; 1 each when no
    vote is weighted today)."""
    if not t.negative and not t.triple:
        return len(players)
    return sum(t.most(p) for p in players)


def _option_short(state: ClocktowerState, option: str) -> str:
    return "No execution" if option == NO_EXECUTION else state.name(option)


def option_label(state: ClocktowerState, option: str) -> str:
    return "No execution" if option == NO_EXECUTION else state.label(option)


#: after a void Butler's name in the tally
NOT_COUNTED = " (not counted: their master is not voting with them)"


def tally_text(state: ClocktowerState, t: Tally, *, closed: bool = False) -> str:
    """The town square's living tally: each nomination with its voters in seat order."""
    by_nominee = {n.nominee: n.nominator for n in state.nominations}
    # each voter named once, not looked up seat by seat per name (every vote redraws the tally)
    names = {p.id: p.name for p in state.players}
    numbers = {s.player: s.seat for s in state.seats}
    voter = {p: f"{names.get(p, p)} ({n})" for p, n in numbers.items()}
    for s in state.seats:
        if not s.alive:
            voter[s.player] = f"{names.get(s.player, s.player)} ({s.seat}, dead)"

    def label(option: str) -> str:  # option_label, from the names above (``state.label`` scans the seats)
        if option == NO_EXECUTION:
            return "No execution"
        name = names.get(option, option)
        return f"{name} (seat {numbers[option]})" if option in numbers else name

    void = t.void
    named = voter.__getitem__
    lines = []
    for option in t.options:
        people = t.voters[option]
        if void:
            who = ", ".join(named(p) + (NOT_COUNTED if p in void else "") for p in people) or "no votes"
        else:
            who = ", ".join(map(named, people)) or "no votes"
        nominator = by_nominee.get(option)
        if nominator is not None:
            lines.append(f"**{label(option)}** · {t.count[option]} (nominated by {names.get(nominator, nominator)})"
                         f"\n  {who}")
        else:
            lines.append(f"**{label(option)}** · {t.count[option]}\n  {who}")
    if not state.nominations:
        lines.insert(0, "No nominations yet: the first vote on a player nominates them."
                     if state.stage == "nominations" and not closed else "Nobody was nominated today.")
    if t.not_voted and not closed:
        lines.append(f"Not voted ({len(t.not_voted)}): " + ", ".join(map(named, t.not_voted)))
    lines.append(standing(state, t, closed=closed, label=label))
    return "\n".join(lines)


def standing(state: ClocktowerState, t: Tally, *, closed: bool = False,
             label: Callable[[str], str] | None = None) -> str:
    """The count's verdict in words. ``label``: ``option_label`` for this state, if already at hand."""
    label = label or partial(option_label, state)
    if t.leader and t.leader != NO_EXECUTION:
        return f"{'Executed' if closed else 'About to die'}: **{label(t.leader)}**."
    if t.leader == NO_EXECUTION:
        return "No execution has the most votes" + (": nobody is executed." if closed else ".")
    if len(t.tied) > 1:
        names = " and ".join(label(o) for o in t.tied)
        return f"Tied at {t.top} between {names}: " + ("nobody is executed." if closed else "no execution as it stands.")
    return "No votes: " + ("nobody is executed." if closed else "no execution as it stands.")


def tally_slot(day: int) -> str:
    """The living message of a day's votes."""
    return f"tally:{day}"


def tally_event(state: ClocktowerState, t: Tally | None = None, *, closed: bool = False) -> Event:
    t = t or tally(state)
    data: dict[str, Any] = {"count": t.count, "leader": t.leader}
    if not closed:
        data |= {"ends": day_ends(state), "phase_seq": state.phase_seq}
    title = f"🗳️ Day {state.day} votes" + (" (closed)" if closed else "")
    return public("tally", tally_text(state, t, closed=closed), title=title, data=data,
                  slot=tally_slot(state.day))


def tally_changed(state: ClocktowerState, ruling: Seat | None | bool = False) -> list[Event]:
    """The tally changed (its face is made when it is shown: ``live``, ``Game.living``), and a
    word to the Storytellers when an early end becomes allowed, or stops being allowed, against
    what they were last told (``early_end_told``). ``ruling``: as ``tally``'s."""
    if state.voting_closed:
        return []
    t = tally(state, ruling)
    events = [live(tally_slot(state.day))]
    refusal = early_end_refusal(state, t)
    could_end = state.early_end_told
    if could_end != (not refusal):  # (a model's assignment is not free: only when it changes)
        state.early_end_told = not refusal
    if not could_end and not refusal:
        events.append(Event(type="early_end", audience=STORYTELLER, title="🗳️ Voting may end early",
                            text=f"Day {state.day}: {standing(state, t)} No tie or change of leader is "
                                 "possible any more; `/st endvoting` ends the day now."))
    elif could_end and refusal:
        events.append(Event(type="early_end_over", audience=STORYTELLER,
                            title="🗳️ Voting may no longer end early",
                            text=f"Day {state.day}: a vote moved. {refusal} `/st endvoting` is refused "
                                 "again; you are told if an early end becomes possible once more."))
    return events


# ----- the execution -----

def spends_token(state: ClocktowerState, target: str) -> bool:
    """Whether a dead player's vote on ``target`` spends their token (a vote for no execution
    only with ``dead_no_execution_spends``)."""
    return target != NO_EXECUTION or state.settings.dead_no_execution_spends


def spend_tokens(state: ClocktowerState) -> None:
    """Voting closes: under "at_close", a dead voter whose vote stands spends their token."""
    settings = state.settings
    for seat in state.seats:
        target = state.votes.get(seat.player)
        if votes_with_token(seat, state) and target is not None and settings.dead_vote == "at_close" and \
                spends_token(state, target):
            seat.vote_token = False


def day_record(state: ClocktowerState, t: Tally, executed: str, **extra: Any) -> Event:
    if state.butcher_day == state.day:  # the Butcher's second vote: a row of its own
        extra["butcher"] = True
    return record("day", {"day": state.day, "nominations": [n.model_dump() for n in state.nominations],
                          "votes": dict(state.votes),
                          "negative": [p for p in state.negative if t.weight(p) < 0],
                          "count": t.count, "executed": executed, **extra})


def execution(state: ClocktowerState, early: bool) -> list[Event]:
    """The plurality is executed (a tie, or no execution winning, means none), dead players'
    tokens are spent, and the day goes into the record."""
    t = tally(state)
    spend_tokens(state)
    executed = t.leader if t.leader not in ("", NO_EXECUTION) else ""
    verdict = standing(state, t, closed=True)
    told: list[Event] = []
    if executed:
        how, told = executes(state, state.seat_of(executed))
        verdict = f"⚖️ **{state.label(executed)}** is executed{how}."
    return [*told,
            tally_event(state, closed=True),
            public("execution", verdict + ("\nThe Storytellers ended voting early: no tie or change of "
                                            "leader was still possible." if early else ""),
                   title=f"🌆 Day {state.day} is over"),
            day_record(state, t, executed, early=early)]


def executes(state: ClocktowerState, seat: Seat) -> tuple[str, list[Event]]:
    """Execute ``seat``: the words after "is executed", and what the Storytellers are told.
    The Lleech "die[s] if & only if" its host is dead: executed while its host lives, it lives."""
    if state.executed and state.execution_killed:  # the Butcher's second: the first death by execution is kept
        state.first_executed, state.first_executed_impaired = state.executed, state.executed_impaired
    state.executed = seat.player
    state.execution_killed = False
    state.executed_impaired = impaired(state, seat.player)
    host = lleech_host(state)
    told: list[Event] = []
    if not seat.alive:
        how = " (they were already dead)"
        if truly_dies(state, seat):  # the Zombuul that registered as dead
            state.execution_killed = True
            told += [_bmr_told(f"{state.label(seat.player)}, the Zombuul that registered as dead, truly dies."),
                     *demon_died(state, seat)]
    elif (spared := spared_execution(state, seat)) is not None:
        how = spared[0]
        told.append(_bmr_told(spared[1]))
    elif seat.character == "lleech" and host and host != seat.player and state.seated(host) \
            and state.seat_of(host).alive and not impaired(state, seat.player):
        how = ""
        told.append(Event(type="lleech", audience=STORYTELLER, title="🩸 The Lleech is executed",
                          text=f"{state.label(seat.player)}, the Lleech, was executed but lives: its host, "
                               f"{state.label(host)}, is alive. The town saw only the execution."))
    else:
        seat.alive, state.execution_killed = False, True
        how = " and dies"
        told += lleech_spared(state, seat.player) + demon_died(state, seat)
        notes = executed_dies(state, seat)
        if notes:
            told.append(_bmr_told(notes))
    return how, told + scapegoat_note(state, seat) + pacifist_note(state, seat)


def _bmr_told(text: str) -> Event:
    return Event(type="execution_spared", audience=STORYTELLER, title="🌕 The execution", text=text)


def lleech_follows(state: ClocktowerState) -> list[Event]:
    """By day: "You die if & only if they are dead": the Lleech's host is dead, so the Lleech
    dies, unless it is drunk or poisoned (the link is its ability; it dies once sober again)."""
    host = lleech_host(state)
    if not host or not any(s.player == host and not s.alive for s in state.seats):
        return []
    events = []
    for lleech in (s for s in state.seats if s.character == "lleech" and s.alive
                   and not impaired(state, s.player)):
        lleech.alive = False
        events.append(public("death", f"💀 {state.label(lleech.player)} has died."))
        events.append(Event(type="lleech", audience=STORYTELLER, title="🩸 The Lleech dies",
                            text=f"{state.label(host)}, the Lleech's host, is dead: the Lleech, "
                                 f"{state.label(lleech.player)}, dies too."))
    return events


def lleech_spared(state: ClocktowerState, died: str) -> list[Event]:
    """The Lleech's host just died by day: an impaired Lleech does not die with them (the
    Storytellers are told, and the Mathematician's ledger counts it)."""
    if not died or died != lleech_host(state):
        return []
    events = []
    for lleech in (s for s in state.seats if s.character == "lleech" and s.alive):
        why = impaired(state, lleech.player)
        if why:
            state.note_abnormal(lleech.player, f"the Lleech: impaired ({why}): it does not die with its host, "
                                               f"{state.label(died)}")
            events.append(Event(type="lleech", audience=STORYTELLER, title="🩸 The Lleech lives",
                                text=f"{state.label(died)}, the Lleech's host, is dead, but the Lleech, "
                                     f"{state.label(lleech.player)}, is impaired ({why}) and does not die. "
                                     "Once sober again it dies (at the next execution or kill by day, the "
                                     "day's end or the night's lock)."))
    return events


def scapegoats(state: ClocktowerState, executed: Seat) -> list[Seat]:
    return [s for s in state.seats if s.has("scapegoat") and s.alive and s is not executed
            and s.alignment in registers_as(state, executed) and not impaired(state, s.player)]


def scapegoat_note(state: ClocktowerState, executed: Seat) -> list[Event]:
    """At an execution: a working Scapegoat of the executed player's alignment might take their place."""
    goats = scapegoats(state, executed)
    if not goats:
        return []
    alignment = goats[0].alignment
    why = (f"is of their alignment ({alignment})" if alignment == executed.alignment else
           f"is {alignment}, and the {chars(state)[executed.character].name}, who might register as {alignment}, "
           "may count as of its alignment")
    return [Event(type="scapegoat_due", audience=STORYTELLER, title="🐐 The Scapegoat",
                  text=f"{state.label(executed.player)} was executed; {state.label(goats[0].player)}, the "
                       f"Scapegoat, {why} and might be executed "
                       "instead. `/st traveller scapegoat` does it, until tonight's actions lock: "
                       f"{state.name(executed.player)} lives again and the Scapegoat dies, told to the town "
                       "at once.")]


def registers_as(state: ClocktowerState, executed: Seat) -> set[str]:
    """The alignments today's executed player may count as for the Scapegoat: theirs, and by a
    misregistration that worked when they were executed the Spy's good ("might register as good")
    and the Recluse's evil ("might register as evil")."""
    sober = not state.executed_impaired if executed.player == state.executed else None
    return alignments(state, executed, sober)


# ----- the end of the game -----

def mechanical_end(state: ClocktowerState, chars: Characters) -> PendingEnd | None:
    """The rulebook's victory conditions on the true grimoire (Travellers do not count): good when
    every Demon is dead, evil when only 2 players live; both at once is a tie, which good wins."""
    saint = saint_end(state)
    if saint:
        return saint
    regular = [s for s in state.seats if not s.traveller]
    demons_alive = [s for s in regular if chars[s.character].team == "demon" and lives(state, s)]
    living = sum(1 for s in regular if lives(state, s))
    if not demons_alive:
        extra = mastermind_end(state, chars)  # Bad Moon Rising: the Mastermind's extra day
        if extra is not False:
            return extra if isinstance(extra, PendingEnd) else None
        return PendingEnd(team="good", reason=EVERY_DEMON_DEAD)
    if living <= 2:
        return PendingEnd(team="evil", reason=f"only {living} player{'s' if living != 1 else ''} "
                                              "(not counting Travellers) live")
    return None


def saint_end(state: ClocktowerState) -> PendingEnd | None:
    """"If you die by execution, your team loses": today's execution killed a working Saint."""
    if state.phase != "day" or not state.executed or not state.execution_killed:
        return None
    seat = state.seat_of(state.executed)
    if not seat.has("saint") or seat.traveller:
        return None
    if state.executed_impaired:
        state.note_abnormal(seat.player, f"the Saint, {state.executed_impaired}, was executed and its team "
                                         "did not lose")
        return None
    return PendingEnd(team="evil" if seat.alignment == "good" else "good",
                      reason=f"the Saint, {state.label(seat.player)}, died by execution")


def mayor_end(state: ClocktowerState) -> PendingEnd | None:
    """At the day's end: "If only 3 players live & no execution occurs, your team wins" (a living,
    working Mayor; Travellers not counted)."""
    if state.executed or sum(1 for s in state.seats if s.alive and not s.traveller) != 3:
        return None
    for seat in state.seats:
        if seat.alive and seat.has("mayor") and not seat.traveller:
            why = impaired(state, seat.player)
            if why:
                state.note_abnormal(seat.player, f"the Mayor, {why}: 3 players live and no execution occurred, "
                                                 "and its team did not win")
                continue
            return PendingEnd(team=seat.alignment, reason=f"only 3 players live and no execution occurred: "
                                                          f"the Mayor, {state.label(seat.player)}")
    return None


def votes_recap(state: ClocktowerState, records: list[Event]) -> str:
    """Every day's votes, from the record: each nomination with its final voters, no execution,
    the verdict, and how many times votes were cast or moved that day ("" for no day)."""
    moves: dict[int, int] = {}
    for rec in records:
        if rec.type == "vote":
            moves[rec.data["day"]] = moves.get(rec.data["day"], 0) + 1
    by_day: dict[tuple[int, bool], dict[str, Any]] = {}
    for rec in records:  # a later record of a day corrects it (the Scapegoat executed instead)
        if rec.type == "day":
            key = (rec.data["day"], bool(rec.data.get("butcher")))
            by_day[key] = by_day.get(key, {}) | rec.data
    days = []
    for data in by_day.values():
        instead = f" instead of {state.label(data['instead_of'])}" if data.get("instead_of") else ""
        butcher = ", the Butcher's nomination" if data.get("butcher") else ""
        lines = [f"**Day {data['day']}{butcher}**: " + (f"{state.label(data['executed'])} executed{instead}"
                                               if data["executed"] else "no execution")
                 + (" (voting ended early)" if data.get("early") else "")
                 + (" at once, before voting closed" if data.get("at_once") else "")]
        by_option: dict[str, list[str]] = {}
        for voter, target in data["votes"].items():
            by_option.setdefault(target, []).append(voter)
        for nomination in data["nominations"]:
            nominee = nomination["nominee"]
            lines.append(f"• {state.label(nominee)} · {data['count'].get(nominee, 0)} "
                         f"(nominated by {state.name(nomination['nominator'])}): "
                         + (names(state, by_option.get(nominee, [])) if by_option.get(nominee) else "no votes"))
        lines.append(f"• No execution · {data['count'].get(NO_EXECUTION, 0)}: "
                     + (names(state, by_option[NO_EXECUTION]) if by_option.get(NO_EXECUTION) else "no votes"))
        if data.get("negative"):
            lines.append(f"• Counted negatively (the Thief): {names(state, data['negative'])}")
        lines.append(f"• {plural(moves.get(data['day'], 0), 'vote')} cast or moved that day")
        days.append("\n".join(lines))
    return "\n\n".join(days)
