"""The Judge (a Bad Moon Rising Traveller): "Once per game, if another player nominated, you may choose
to force the current execution to pass or fail."

The living Judge rules on a player another player nominated today, while voting is open (the wiki: not
on its own nomination, nor on an exile). "Pass": they are executed at once and voting is over, however
few voted. "Fail": they are taken out of today's count, which goes on as it was without them. The Judge's
character is public, so its ruling is told to the town; a drunk or poisoned Judge's ruling is spent and
nothing happens (the Storytellers are told).
"""

from __future__ import annotations

from games.engine import STORYTELLER, Event, Handler, Outcome, Rng, public, record

from .actions import JudgeRuling
from .day import execute_now
from .rules import illegal, impaired, target_seat
from .snv_night import holds_regained, regains_ability
from .state import ClocktowerState
from .tally import tally_changed


def judge_ruling(state: ClocktowerState, action: JudgeRuling, rng: Rng) -> Outcome:
    if state.phase != "day" or state.pending_end is not None or state.voting_closed:
        raise illegal("The Judge rules on today's execution while voting is open.", "not_day")
    seat = target_seat(state, action.player)
    if not seat.has("judge") or not (seat.alive or holds_regained(state, seat)):  # (the Bone Collector's choice)
        raise illegal("Only the living Judge rules on an execution.", "not_judge")
    if seat.player in state.judged_by:
        raise illegal("You have used the Judge's ruling: it is once per game.", "spent")
    nominee = target_seat(state, action.target)
    nomination = next((n for n in state.nominations if n.nominee == nominee.player), None)
    if nomination is None:
        raise illegal(f"{state.label(nominee.player)} is not nominated today.", "not_nominated")
    if nomination.nominator == seat.player:
        raise illegal("You nominated them: the Judge rules only when another player nominated.", "own_nomination")
    state.judged_by.append(seat.player)
    ruled = f"⚖️ {state.label(seat.player)}, the Judge, forces the execution of {state.label(nominee.player)} " \
            f"to {action.verdict}."
    events: list[Event] = [record("judge", {"day": state.day, "by": seat.player, "target": nominee.player,
                                           "verdict": action.verdict})]
    why = impaired(state, seat.player) or ("" if seat.alive or regains_ability(state, seat) else
                                           "dead, and the Bone Collector that gave the ability back is drunk or poisoned")
    if why:
        state.note_abnormal(seat.player, f"the Judge, {why}, ruled on {state.label(nominee.player)}: nothing happened")
        events += [public("judge", ruled), Event(
            type="judge", audience=STORYTELLER, title="⚖️ The Judge",
            text=f"The Judge, {state.label(seat.player)}, is {why}: the ruling is spent and nothing happens "
                 "(the town heard the ruling; the count goes on as it was).")]
        return Outcome(state=state, events=events, reply="Your ruling is made.")
    if action.verdict == "pass":
        return Outcome(state=state, events=[public("judge", ruled), *events, *execute_now(state, nominee, "judge")],
                       reply="Your ruling is made: they are executed.")
    state.judge_failed = nominee.player
    return Outcome(state=state, events=[public("judge", ruled + " They cannot be executed today."), *events,
                                        *tally_changed(state)],
                   reply="Your ruling is made: their execution fails.")


HANDLERS: dict[str, Handler] = {"judge_ruling": judge_ruling}
