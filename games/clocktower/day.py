"""The day's vote as the players and Storytellers make it: votes (the first on a player nominates
them), the Virgin, the Thief's negative votes, the early end, an execution at once, and the
Scapegoat executed instead. The count is in ``tally``; the day's end in ``clock``.
"""

from __future__ import annotations

from games.engine import (
    STORYTELLER,
    Choice,
    Event,
    Handler,
    Outcome,
    Prompt,
    PromptField,
    Rng,
    public,
    record,
)

from .actions import CountNegatively, EndVoting, Execute, ScapegoatInstead, Unvote, Vote
from .beggar import give_token
from .bmr_gossip import gossip_statement
from .bmr_travellers import bishop_refusal, st_nominate, swap_seats, voudon, voudon_vote
from .clock import end_of_day, nightfall, pending_end
from .fabled import fiddle_closes
from .registration import misregistering, teams
from .resolve import lleech_host
from .rules import after_deal, chars, hours, illegal, impaired, plural, target_seat, who
from .shots import gunslinger_shot, slayer_shot
from .snv_day import witch_curse
from .snv_madness import execute_at_night, madness_at_nomination, madness_judged
from .snv_travellers import BUTCHER_STAGE, butcher_window
from .state import ClocktowerState, Nomination, Reminder, Seat
from .talk import exiles_at_close
from .tally import (
    NO_EXECUTION,
    butler_master,
    can_vote,
    day_record,
    early_end_refusal,
    executes,
    lleech_follows,
    option_label,
    scapegoats,
    spend_tokens,
    spends_token,
    tally,
    tally_changed,
    tally_event,
    void_vote,
    votes_with_token,
)

# ----- votes and nominations -----

def vote(state: ClocktowerState, action: Vote, rng: Rng) -> Outcome:
    # the Voudon's rule, looked up once for the whole vote (each look scans every seat); again only
    # after a nomination, which may change it (the Witch's curse may kill a nominating Voudon)
    ruling = voudon(state)
    nominated_only = voudon_nomination(state, action, ruling)
    if nominated_only is not None:
        return nominated_only
    seat = voting_seat(state, action.player, ruling)
    settings = state.settings
    target = action.target
    events: list[Event] = []
    if target == NO_EXECUTION:
        if state.stage not in ("nominations", BUTCHER_STAGE) and not settings.no_execution_after_nominations:
            raise illegal("No execution can be voted only while nominations are open.", "closed")
    else:
        nominee = target_seat(state, target)
        if nominee.traveller:
            raise illegal(f"{state.label(target)} is a Traveller: Travellers are exiled, not executed.",
                           "traveller")
        if not any(n.nominee == target for n in state.nominations):
            events.append(nominate(state, seat, nominee))
    nominated = bool(events)
    virgin, execute = virgin_nominated(state, seat, nominee) if nominated else ([], False)
    if nominated:
        virgin += witch_curse(state, seat) + madness_at_nomination(state)
        ruling = voudon(state)
    if state.votes.get(seat.player) == target:
        raise illegal(f"Your vote is already on {option_label(state, target)}.", "same_vote")
    state.votes[seat.player] = target
    if votes_with_token(seat, state, ruling) and settings.dead_vote == "when_cast" and spends_token(state, target):
        seat.vote_token = False
    events.append(record("vote", {"day": state.day, "voter": seat.player, "target": target}))
    if execute:
        events += virgin + execute_now(state, seat, "virgin")
        return Outcome(state=state, events=events, reply="You nominated them, and you are executed at once.")
    events += virgin + tally_changed(state, ruling) + butler_without_master(state, seat)
    if nominated and not seat.alive:  # the Witch's curse killed the nominator
        events += pending_end(state, resume="day")
    said = "You nominated them; your vote" if nominated else "Your vote"
    return Outcome(state=state, events=events, reply=f"{said} is on {option_label(state, target)}.")


def voudon_nomination(state: ClocktowerState, action: Vote, ruling: Seat | None | bool = False) -> Outcome | None:
    """Under the Voudon a living player casts no vote, but their vote on a player not yet nominated
    still nominates them (None: not this case). ``ruling``: as ``voudon_vote``'s."""
    if ruling is None:  # no Voudon: not this case (as ``voudon_vote`` below would say, after two seat scans)
        return None
    if state.phase != "day" or state.pending_end is not None or state.voting_closed or not state.seated(action.player):
        return None
    seat = state.seat_of(action.player)
    if voudon_vote(state, seat, ruling) is not False:
        return None
    if action.target == NO_EXECUTION or any(n.nominee == action.target for n in state.nominations):
        raise illegal(VOUDON_RULE, "voudon")
    nominee = target_seat(state, action.target)
    if nominee.traveller:
        raise illegal(f"{state.label(nominee.player)} is a Traveller: Travellers are exiled, not executed.",
                      "traveller")
    events = [nominate(state, seat, nominee)]
    virgin, execute = virgin_nominated(state, seat, nominee)
    if execute:
        return Outcome(state=state, events=events + virgin + execute_now(state, seat, "virgin"),
                       reply="You nominated them, and you are executed at once.")
    return Outcome(state=state, events=events + virgin + tally_changed(state),
                   reply=f"You nominated {state.label(nominee.player)}. {VOUDON_RULE}")


#: why a living player's vote is refused under the Voudon
VOUDON_RULE = "Only the Voudon and the dead vote while the Voudon is in play: your vote is not cast."


def voting_seat(state: ClocktowerState, player: str, ruling: Seat | None | bool = False) -> Seat:
    """The voter's seat, or why they may not vote now. ``ruling``: as ``voudon_vote``'s."""
    if state.phase != "day" or state.pending_end is not None:
        raise illegal("Votes are cast by day: voting opens at dawn." if state.phase == "night"
                       else "Voting is closed.", "not_day")
    if state.voting_closed:
        raise illegal("Today's execution has happened: voting is over until tomorrow.", "voting_closed")
    seat = target_seat(state, player)
    if voudon_vote(state, seat, ruling) is False:
        raise illegal(VOUDON_RULE, "voudon")
    if not can_vote(state, seat, ruling):
        raise illegal("The Beggar votes only with a vote token: a dead player may give you theirs." if seat.alive
                      else "You are dead and your vote token is spent.", "no_token")
    return seat


def nominate(state: ClocktowerState, seat: Seat, nominee: Seat) -> Event:
    if bishop_refusal(state):
        raise illegal(bishop_refusal(state), "bishop")
    if state.stage != "nominations":
        raise illegal(f"Nominations closed {hours(state.settings.nomination_seconds)} into the day: vote on "
                       "a nominated player or for no execution.", "nominations_closed")
    if not seat.alive:
        raise illegal("You are dead: the dead cannot nominate, but " + (
            "your vote token still lets you vote once on an existing nomination (or for no execution)."
            if seat.vote_token else "the vote your token paid for can still move to an existing "
            "nomination."), "dead_nominator")
    if state.settings.one_nomination_per_day and any(n.nominator == seat.player for n in state.nominations):
        raise illegal("You have already nominated today (one nomination a day each).", "nominated_today")
    state.nominations.append(Nomination(nominee=nominee.player, nominator=seat.player))
    return public("nomination", f"📢 {state.label(seat.player)} nominates {state.label(nominee.player)}.")


def virgin_nominated(state: ClocktowerState, nominator: Seat, nominee: Seat) -> tuple[list[Event], bool]:
    """The Virgin's first nomination spends the ability; if the nominator is a Townsfolk, they
    are executed at once (True). Where the rules give the Storyteller judgement (a Spy may
    register as a Townsfolk) they are told, and ``/st execute`` carries it out."""
    if not nominee.has("virgin") or not nominee.alive or any(
            r.player == nominee.player and r.source == "virgin" for r in state.reminders):
        return [], False
    state.reminders.append(Reminder(player=nominee.player, token="No Ability", source="virgin"))
    who, virgin = state.label(nominator.player), state.label(nominee.player)
    host = "djinn" in state.fabled and lleech_host(state) == nominator.player
    failing = impaired(state, nominee.player)
    team = chars(state)[nominator.character].team
    execute = False
    if failing:
        said = f"but the Virgin's ability fails ({failing}): nothing happens."
        if team == "townsfolk":
            state.note_abnormal(nominee.player, f"the Virgin's ability failed ({failing}) on a Townsfolk nominator")
    elif team == "townsfolk" and host:
        said = ("but they are the Lleech's host, who does not register as a Townsfolk to the Virgin "
                "(the Djinn's jinx): nothing happens.")
    elif team == "townsfolk":
        said, execute = "a Townsfolk: they are executed at once.", True
    elif "townsfolk" in teams(state, chars(state), nominator):  # a Spy whose ability works
        said = (f"{_holder(state, nominator)}, who might register as a Townsfolk: if they do, `/st execute` them "
                "now; otherwise nothing happens.")
    else:
        said = f"not a Townsfolk ({chars(state)[nominator.character].name}): nothing happens."
    return [Event(type="virgin", audience=STORYTELLER, title="🕊️ The Virgin is nominated",
                  text=f"{virgin}, the Virgin, was nominated for the first time, by {who}; the ability is "
                       f"spent. The nominator is {said}")], execute


def butler_without_master(state: ClocktowerState, seat: Seat) -> list[Event]:
    """A Butler's vote cast without its master's, counted (``butler_vote`` "counts", the wiki's
    advice: the tally never shows who the Butler is): the Storytellers are told, privately."""
    if state.settings.butler_vote != "counts" or not void_vote(state, seat):
        return []
    master = butler_master(state, seat)
    return [Event(type="butler_vote", audience=STORYTELLER, title=f"☀️ Day {state.day}: the Butler",
                  text=f"{who(state, seat)}, voted without their master, {state.label(master)}: by "
                       "its ability this vote does not count. The tally counts it, so as not to show who the "
                       "Butler is (the wiki's advice); if it decides the day, rule it with `/st execute` or "
                       "`/st endvoting`.")]


def _holder(state: ClocktowerState, seat: Seat) -> str:
    """"the Spy", or "the Apprentice with the Spy's ability": whose misregistration it is."""
    own = chars(state)[seat.character].name
    gained = [c for c in misregistering(seat) if c != seat.character]
    return f"the {own}" + (f" with the {chars(state)[gained[0]].name}'s ability" if gained else "")


def unvote(state: ClocktowerState, action: Unvote, rng: Rng) -> Outcome:
    seat = voting_seat(state, action.player)
    if seat.player not in state.votes:
        raise illegal("You have not voted today.", "no_vote")
    del state.votes[seat.player]
    events = [record("vote", {"day": state.day, "voter": seat.player, "target": ""}),
              *tally_changed(state)]
    spent = " Your vote token stays spent." if not seat.alive and not seat.vote_token else ""
    return Outcome(state=state, events=events, reply="Your vote is withdrawn." + spent)


def count_negatively(state: ClocktowerState, action: CountNegatively,
                         rng: Rng) -> Outcome:
    after_deal(state, "count a vote negatively")
    seat = target_seat(state, action.target)
    day = state.phase == "day" and state.pending_end is None
    chosen = state.negative if day else state.negative_tomorrow
    if seat.player in chosen:
        raise illegal(f"{state.label(seat.player)}'s vote already counts negatively "
                       f"{'today' if day else 'tomorrow'}.", "already_negative")
    chosen.append(seat.player)
    events = tally_changed(state) if day else []
    return Outcome(state=state, events=events,
                   reply=f"{state.label(seat.player)}'s vote counts negatively {'today' if day else 'tomorrow'} "
                         "(the tally counts it as −1; nobody is told why).")


# ----- the end of voting and executions -----

def end_voting(state: ClocktowerState, action: EndVoting, rng: Rng) -> Outcome:
    if state.phase == "fiddle" and state.stage == "voting":
        return fiddle_closes(state, "the Storytellers closed it")
    if state.phase != "day" or state.pending_end is not None:
        raise illegal("Voting ends by day only.", "not_day")
    if state.voting_closed:
        raise illegal("Today's execution has happened: voting is already over.", "voting_closed")
    why = early_end_refusal(state, tally(state))
    if why:
        raise illegal(f"Voting cannot end early yet: {why}", "not_settled")
    outcome = end_of_day(state, early=True)
    outcome.reply = "Voting is over; the day has ended."
    return outcome


def execute(state: ClocktowerState, action: Execute, rng: Rng) -> Outcome:
    if state.phase == "night":  # for madness only (snv_madness)
        return execute_at_night(state, target_seat(state, action.target))
    if state.phase != "day" or state.pending_end is not None:
        raise illegal("Executions happen by day.", "not_day")
    if state.voting_closed:
        raise illegal(f"Today's execution has happened ({state.label(state.executed)}).", "executed_today")
    seat = target_seat(state, action.target)
    if seat.traveller:
        raise illegal("Travellers are exiled, not executed.", "traveller")
    events = madness_judged(state, seat) + execute_now(state, seat, "storyteller")
    return Outcome(state=state, events=events,
                   reply=f"{state.label(seat.player)} is executed; voting is over for today.")


def execute_now(state: ClocktowerState, seat: Seat, by: str) -> list[Event]:
    """An execution before the day's end (the Virgin's, or the Storyteller's ruling): voting is
    over for today; the rest of the day is quiet, or night falls at once (``virgin_day``)."""
    spend_tokens(state)
    state.voting_closed = True
    how, told = executes(state, seat)
    t = tally(state)  # after the execution: the closed tally names who was executed
    quiet = state.settings.virgin_day == "quiet"
    rest = ("Voting is over for today; talk and whispers go on until night falls." if quiet
            else "The day is over.")
    events = [tally_event(state, t, closed=True),
              public("execution", f"⚖️ **{state.label(seat.player)}** is executed at once{how}. {rest}",
                     title=f"🌆 Day {state.day}: an execution"),
              day_record(state, t, seat.player, at_once=by), *lleech_follows(state), *told]
    ending = pending_end(state, resume="night")
    if state.pending_end is None and not quiet:
        events += exiles_at_close(state) + (butcher_window(state) or nightfall(state))
    return events + ending


def scapegoat_instead(state: ClocktowerState, action: ScapegoatInstead, rng: Rng) -> Outcome:
    if not state.executed:
        raise illegal("Nobody has been executed today.", "no_execution")
    executed = state.seat_of(state.executed)
    ending = state.phase == "ending" and state.pending_end is not None and state.pending_end.resume == "night"
    if not (ending or (state.phase == "day" and state.voting_closed)
            or (state.phase == "night" and state.stage != "locked")):
        raise illegal("The Scapegoat takes an execution's place from the execution until the night's "
                      "actions lock.", "too_late")
    goats = scapegoats(state, executed)
    if not goats:
        raise illegal(f"No living, working Scapegoat is of {state.label(executed.player)}'s alignment.",
                      "no_scapegoat")
    goat = goats[0]
    revived = state.execution_killed  # one who was already dead stays dead
    executed.alive = executed.alive or revived
    goat.alive, state.execution_killed = False, True
    state.executed, state.executed_impaired = goat.player, impaired(state, goat.player)
    events = [public("scapegoat", f"🐐 {state.label(goat.player)}, the Scapegoat, is executed instead of "
                     f"{state.label(executed.player)}" + (", who lives." if revived else "."),
                     title="The Scapegoat")]
    events += lleech_follows(state)
    # the day's closed tally and its record now name the Scapegoat (the record corrects the day's)
    events += [tally_event(state, closed=True),
               record("day", {"day": state.day, "executed": goat.player, "instead_of": executed.player})]
    if ending:
        state.pending_end = None
        found = pending_end(state, resume="night")
        events += found if state.pending_end is not None else found + nightfall(state)
    return Outcome(state=state, events=events,
                   reply=f"{state.label(goat.player)} is executed instead of {state.label(executed.player)}. "
                         "Anyone who died because of the first execution (the Lleech with its host) is "
                         "yours to revive with `/st revive`.")



# ----- the prompts -----

def vote_prompts(state: ClocktowerState, player_id: str) -> list[Prompt]:
    """By day: this player's vote (a nominee, a player their vote would nominate, or no
    execution), and taking it back."""
    if state.phase != "day" or state.pending_end is not None or state.voting_closed:
        return []
    seat = state.seat_of(player_id)
    if not can_vote(state, seat):
        return []
    t = tally(state)
    mine = state.votes.get(player_id)
    nominated = {n.nominee: n.nominator for n in state.nominations}
    nominates = may_nominate(state, seat)
    choices = []
    for s in state.seats:
        if s.traveller or (s.player not in nominated and not nominates):
            continue
        about = (f"{plural(t.count[s.player], 'vote')}, nominated by {state.name(nominated[s.player])}"
                 if s.player in nominated else "not nominated: your vote nominates them")
        choices.append(Choice(value=s.player, label=state.label(s.player)[:100],
                              description=("your vote · " if mine == s.player else "") + about))
    if state.stage in ("nominations", BUTCHER_STAGE) or state.settings.no_execution_after_nominations:
        choices.append(Choice(value=NO_EXECUTION, label="No execution",
                              description=("your vote · " if mine == NO_EXECUTION else "")
                              + plural(t.count[NO_EXECUTION], "vote")))
    token = "" if seat.alive else (" You are dead: this uses your vote token." if seat.vote_token
                                   else " You are dead: your token already paid for today's vote.")
    if not seat.alive and state.stage == "nominations":
        token += " The dead cannot nominate: vote on a nominated player or for no execution."
    prompts = [Prompt(action="vote", title=f"Day {state.day}: your vote", vote=True,
                      text=f"Your vote is on {option_label(state, mine)}." if mine else
                      "You have not voted today." + token,
                      fields=[PromptField(name="target", placeholder="Vote for…", choices=choices[:25])])]
    if mine is not None:
        prompts.append(Prompt(action="unvote", title="Take your vote back", submit_label="Withdraw my vote"))
    return prompts


def may_nominate(state: ClocktowerState, seat: Seat) -> bool:
    return seat.alive and state.stage == "nominations" and not bishop_refusal(state) and not (
        state.settings.one_nomination_per_day and any(n.nominator == seat.player for n in state.nominations))


HANDLERS: dict[str, Handler] = {
    "vote": vote, "unvote": unvote, "count_negatively": count_negatively, "end_voting": end_voting,
    "execute": execute, "scapegoat": scapegoat_instead, "slayer_shot": slayer_shot,
    "gunslinger_shot": gunslinger_shot, "give_token": give_token, "gossip_statement": gossip_statement,
    "st_nominate": st_nominate, "swap_seats": swap_seats}
