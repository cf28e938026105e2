"""Tonight's information from the copilot to the players: a Storyteller accepts (or edits) each
proposal, and the accepted answers reach the players at dawn (or at once, ``inform_at=accept``).

Until dawn an accepted answer can be changed: accepting again replaces it. At dawn what was
accepted is delivered; with ``auto_inform`` a proposal nobody accepted is delivered as proposed
when nothing about it is flagged; what is left is named to the Storytellers. Every delivery is a
"told" row of the game's record, which the end reveal reads night by night.
"""

from __future__ import annotations

from games.engine import STORYTELLER, Event, Handler, Outcome, Rng, private, public, record

from .actions import Inform
from .copilot import (
    Answer,
    NotAllowedAnswer,
    Proposal,
    as_data,
    proposals,
    proposals_text,
    read_answer,
    spy_grimoire,
    told,
)
from .info import names
from .rules import chars, illegal, target_seat, who
from .snv_night import barista_twice
from .state import Accepted, ClocktowerState, Seat

#: the cards whose proposal is the truth: an answer that differs is false information
TRUTHFUL = frozenset({"empath", "undertaker", "ravenkeeper", "waitress", "harlot", "juggler", "shugenja", "chambermaid"})


def is_false(seat: Seat, proposal: Proposal, answer: Answer) -> bool | None:
    """Whether ``answer`` is false information, where the bot can tell. The Drunk's and the
    Marionette's false information is their own ability at work, not counted (None)."""
    if seat.character != seat.shown:
        return None
    if proposal.truth is not None:  # the Washerwoman's and the Knight's: true on the grimoire or not
        return not proposal.truth(answer)
    if proposal.character not in TRUTHFUL:
        return None
    if any("equidistant" in flag for flag in proposal.flags):
        return None
    return answer.text != proposal.answer


def inform(state: ClocktowerState, action: Inform, rng: Rng) -> Outcome:
    if action.night and action.night != state.night:
        raise illegal(f"Night {action.night} is over: what was accepted was delivered at dawn.", "stale_night")
    if state.phase != "night":
        raise illegal("Night information is sent at night (use `/st tell` for anything else).", "not_night")
    if state.stage != "locked":
        raise illegal("Tonight's information is proposed when the night's actions lock: the deaths and "
                      "poison it depends on are not known before.", "not_locked")
    seat = target_seat(state, action.target)
    found = next((p for p in proposals(state, chars(state)) if p.player == seat.player), None)
    if found is None:
        raise illegal(f"{state.label(seat.player)} is due no information tonight (use `/st tell` to send "
                      "something anyway).", "nothing_due")
    own = action.answer.strip()
    if not own and not found.ready:
        raise illegal(f"The {chars(state)[found.character].name}'s answer waits for you ({found.rule}): give "
                      "it with `answer:`.", "answer_needed")
    try:
        answer = read_answer(found, own or found.answer)
    except NotAllowedAnswer as exc:
        raise illegal(str(exc), "not_allowed") from None
    # the Spy's grimoire is drawn when it is delivered, as it stands then
    text = "" if found.character == "spy" and answer.text == "the grimoire" else told(found, answer)
    before = state.accepted.get(seat.player)
    if before is not None and barista_twice(state, seat.player) and seat.player not in state.accepted_first:
        state.accepted_first[seat.player] = before  # the Barista's Acts Twice: this is the second answer
        before = None
    second = " (their second answer: the Barista's Acts Twice)" if seat.player in state.accepted_first else ""
    accepted = Accepted(card=found.character, answer=answer.text, text=text, proposed=found.answer,
                        flags=list(found.flags), false=is_false(seat, found, answer))
    state.accepted[seat.player] = accepted
    if found.on_accept is not None:
        found.on_accept(answer)
    shown = (text or "the grimoire, as it stands when it is sent").rstrip(".")
    at_once = state.settings.inform_at == "accept"
    again = f" Before: {(before.text or 'the grimoire').rstrip('.')}." if before else ""
    # the co-Storytellers see each other's work either way
    events = [Event(type="information_accepted", audience=STORYTELLER, title=f"🌙 Night {state.night}: accepted",
                    text=f"✓ {who(state, seat)} " + ("was sent" if at_once else "learns at dawn")
                         + f"{second}: {shown}.{again}")]
    if at_once:  # a second acceptance is sent too: the player reads it as the Storytellers' correction
        return Outcome(state=state, events=events + deliver(state, seat.player, accepted),
                       reply=f"Sent to {state.label(seat.player)}{second}: {shown}.")
    return Outcome(state=state, events=events,
                   reply=f"Accepted: {state.label(seat.player)} learns at dawn{second}: {shown}. Accept again to "
                         "change it until then.")


def deliver(state: ClocktowerState, player: str, accepted: Accepted, *, auto: bool = False) -> list[Event]:
    text = accepted.text or spy_grimoire(state, chars(state))
    return [private(player, "information", f"🌙 {text}", title=f"Night {state.night}: you learn"),
            record("told", {"night": state.night, "player": player, "card": accepted.card,
                            "answer": accepted.answer, "proposed": accepted.proposed,
                            "flags": accepted.flags, "auto": auto})]


def information_at_dawn(state: ClocktowerState) -> list[Event]:
    """Dawn: the accepted information delivered, the unflagged rest too with ``auto_inform``,
    and the Storytellers told what was not sent, with the grimoire picture as the night left it."""
    events: list[Event] = []
    delivered = 0
    for player, accepted in state.accepted.items():
        if state.seated(player):
            answers = [a for a in (state.accepted_first.get(player), accepted) if a is not None]
            delivered += len(answers)
            if state.settings.inform_at == "dawn":  # else it was sent when accepted
                for answer in answers:  # (two: the Barista's Acts Twice)
                    events += deliver(state, player, answer)
    unsent = []
    for found in proposals(state, chars(state)):
        if found.player in state.accepted:
            continue
        if state.settings.auto_inform and found.ready and not found.flags and found.character != "spy":
            try:
                text = told(found, read_answer(found, found.answer))
            except NotAllowedAnswer:  # the proposal does not read back: the Storytellers' to send
                unsent.append(found)
                continue
            accepted = Accepted(card=found.character, answer=found.answer, text=text, proposed=found.answer)
            events += deliver(state, found.player, accepted, auto=True)
            delivered += 1
        else:
            unsent.append(found)
    when = "delivered at dawn" if state.settings.inform_at == "dawn" else "sent tonight"
    lines = [f"{delivered} piece{'s' if delivered != 1 else ''} of information {when}."
             if delivered or unsent else "Nobody was due information."]
    if unsent:
        lines.append("**Not sent** (nobody accepted it): " + names(state, [p.player for p in unsent])
                     + ". `/st tell` can still send them something.")
    lines.append("The grimoire as the night left it:")
    events.append(Event(type="information_dawn", audience=STORYTELLER, title=f"☀️ Dawn after night {state.night}",
                        text="\n".join(lines), image="grimoire"))
    return events


def woken_information(state: ClocktowerState, seat: Seat) -> list[Event]:
    """A player woken after the lock (the Ravenkeeper) chose: their information, proposed."""
    found = [p for p in proposals(state, chars(state)) if p.player == seat.player]
    return [information_event(state, found)] if found else []


def information_event(state: ClocktowerState, found: list[Proposal]) -> Event:
    when = ("reaches the player at once" if state.settings.inform_at == "accept" else
            "reaches the player at dawn (accept again to change it until then)")
    auto = (" At dawn, information nobody accepted is sent as proposed where nothing is flagged."
            if state.settings.auto_inform else "")
    return Event(type="night_information", audience=STORYTELLER, title=f"🌙 Night {state.night}: information due",
                 text=proposals_text(state, chars(state), found) + "\n\nThe proposed answer is the truth where "
                 "there is one; ⚑ marks where the rules leave it to you. **Review and send** (or `/st inform "
                 f"player:@p [answer:]`) accepts each one, as proposed or edited; what you accept {when}.{auto}",
                 data={"proposals": as_data(found), "view": "copilot", "night": state.night})


def information_recap(state: ClocktowerState, records: list[Event]) -> list[Event]:
    """The end reveal: what each player was told each night, and where it differed from the
    copilot's proposal, why."""
    nights: dict[int, list[str]] = {}
    for rec in records:
        if rec.type != "told":
            continue
        data = rec.data
        name = chars(state)[data["card"]].name if data["card"] in chars(state) else data["card"]
        line = f"• {state.name(data['player'])}, as the {name}: {data['answer']}"
        if data["answer"] != data["proposed"]:
            line += (f" (the truth: {data['proposed']})" if data["card"] in TRUTHFUL
                     else f" (proposed: {data['proposed']})")
        flags = [f for f in data.get("flags", []) if f]
        if flags:
            line += f" ⚑ {flags[0]}"
        nights.setdefault(data["night"], []).append(line)
    if not nights:
        return []
    text = "\n\n".join(f"**Night {n}**\n" + "\n".join(lines) for n, lines in sorted(nights.items()))
    return [public("information_recap", text, title="🌙 Every night's information")]


HANDLERS: dict[str, Handler] = {"inform": inform}
