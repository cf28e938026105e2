"""The day's talk: whispers, public announcements and the exile of Travellers.

The rulebook's words for each rule are quoted where a reading was chosen; the readings are in the
game's README under Interpretations, and each one a Storyteller might want otherwise is an option
(``Settings``). The players' actions carry ``place``: where the bot saw them made, so a whisper
declared outside the announcement thread is refused here, by the rules, not by the adapter.
"""

from __future__ import annotations

import math

from games.engine import (
    STORYTELLER,
    Action,
    Event,
    Handler,
    Outcome,
    Rng,
    private,
    public,
    record,
    to_group,
    to_thread,
)

from .actions import (
    AlsaahirGuess,
    DeclareWhisper,
    ExileVote,
    GoblinClaim,
    JugglerGuess,
    NeighbourWhisper,
    Spoke,
)
from .characters import Characters
from .deal import composition
from .fabled import breaks_silence, silence_broken
from .registration import teams
from .rules import WHISPER_KEY, chars, circle_neighbours, hours, illegal, impaired, plural, target_seat
from .state import Announcement, ClocktowerState, Seat, Whisper
from .tally import tally_changed

MAX_NEIGHBOUR_WORDS = 15


# ----- pure rules -----

def whisper_limit(state: ClocktowerState) -> int:
    """Whispers a day: "2 plus the number of base Minions in the playercount" (Travellers aside)."""
    table = composition()
    regular = sum(1 for s in state.seats if not s.traveller)
    return 2 + table[min(max(regular, min(table)), max(table))].minions


def whisper_costs(state: ClocktowerState, by: str, members: list[str]) -> dict[str, int]:
    """Who pays how many whispers: one for each other player, except that "normal players may
    freely whisper Travellers", while a Traveller always pays. The payers are the declarer, or
    every member (``whisper_payer``)."""
    payers = [by] if state.settings.whisper_payer == "declarer" else members
    costs = {}
    for payer in payers:
        traveller = state.seat_of(payer).traveller
        cost = sum(1 for m in members if m != payer and (traveller or not state.seat_of(m).traveller))
        if cost:
            costs[payer] = cost
    return costs


def neighbours(state: ClocktowerState, player: str) -> list[str]:
    """Whom a neighbour whisper may go to (``neighbour_whisper``: "alive" or "adjacent")."""
    return circle_neighbours(state, player, living=state.settings.neighbour_whisper == "alive")


def alsaahir_check(state: ClocktowerState, chars: Characters, minions: list[str], demons: list[str]) -> str:
    """"correct" when the guess names exactly the true Minions and Demons; "possible" when it is
    right only if a Recluse or Spy misregisters (the Storyteller's call); else "wrong"."""
    exact = True
    for seat in state.seats:
        guessed = "minion" if seat.player in minions else "demon" if seat.player in demons else "none"
        if seat.traveller:
            if guessed != "none":
                return "wrong"
            continue
        team = chars[seat.character].team
        true = team if team in ("minion", "demon") else "none"
        allowed = {t if t in ("minion", "demon") else "none" for t in teams(state, chars, seat)}
        if guessed not in allowed:
            return "wrong"
        exact = exact and guessed == true
    return "correct" if exact else "possible"


def exile_voters(state: ClocktowerState) -> list[Seat]:
    """The players counted for the exile majority: all of them, or all but the Travellers."""
    return [s for s in state.seats if state.settings.exile_counts_travellers or not s.traveller]


def exile_needed(state: ClocktowerState) -> int:
    """"Yes" votes that exile at once: at least half of the players ("half", the official rules)
    or more than half ("strict"); under "cast" the call is settled when the day ends."""
    players = len(exile_voters(state))
    return players // 2 + 1 if state.settings.exile_majority == "strict" else math.ceil(players / 2)


def exile_passes(state: ClocktowerState, target: str, *, closing: bool) -> bool:
    votes = state.exiles.get(target, {})
    yes = sum(1 for v in votes.values() if v == "yes")
    if state.settings.exile_majority == "cast":
        return closing and yes * 2 > len(votes)
    return yes >= exile_needed(state)


def exile_text(state: ClocktowerState, target: str, *, result: str = "") -> str:
    votes = state.exiles.get(target, {})
    lines = []
    for vote in ("yes", "no"):
        who = [state.name(s.player) for s in state.seats if votes.get(s.player) == vote]
        lines.append(f"**{vote.capitalize()}** · {len(who)}: {', '.join(who) or 'nobody'}")
    if result:
        lines.append(result)
    elif state.settings.exile_majority == "cast":
        lines.append("Settled when the day ends: exiled if more than half of the votes cast say yes.")
    else:
        lines.append(f"{plural(exile_needed(state), 'yes vote')} of {plural(len(exile_voters(state)), 'player')} "
                     f"{'exiles' if exile_needed(state) == 1 else 'exile'} them.")
    return "\n".join(lines)


def announced_at(state: ClocktowerState, place: str) -> bool:
    """Whether whispers and announcements count when made here: the announcement thread, and the
    town square too with ``announce_anywhere`` (the bot posts them in the thread either way)."""
    return place == "announcements" or (place == "town_square" and state.settings.announce_anywhere)


def words(text: str) -> int:
    return len(text.split())


# ----- the Storytellers' ledger and the end's count -----

def whisper_ledger(state: ClocktowerState, records: list[Event], day: int, times: list[str] | None = None) -> str:
    """One day's whispers, from the record: who declared, with whom, the cost, and when and by
    whom each broke; then the neighbour whispers (``times``: a time to show for each record)."""
    lines: list[str] = []
    broken: dict[int, str] = {}
    for i, rec in enumerate(records):
        if rec.type == "whisper_broken":
            when = f" {times[i]}" if times else ""
            broken[rec.data["id"]] = f"broken by {state.name(rec.data['by'])}{when} (day {rec.data['day']})"
    neighbour = []
    for i, rec in enumerate(records):
        data = rec.data
        if data.get("day") != day:
            continue
        when = f" {times[i]}" if times else ""
        if rec.type == "whisper":
            others = [m for m in data["members"] if m != data["by"]]
            cost = ", ".join(f"{state.name(p)} {n}" for p, n in data["cost"].items()) or "free"
            lines.append(f"#{data['id']}{when}: {state.name(data['by'])} with {', '.join(state.name(m) for m in others)}"
                         f" · cost: {cost} · {broken.get(data['id'], 'open')}")
        elif rec.type == "neighbour_whisper":
            neighbour.append(f"{state.name(data['by'])} → {state.name(data['to'])}{when}: “{data['text']}”")
    used = {p: n for p, n in state.whispers_used.items() if n} if day == state.day else {}
    head = f"**Whispers, day {day}** (a limit of {whisper_limit(state)} a day)"
    if used:
        head += "\nUsed today: " + ", ".join(f"{state.name(p)} {n}" for p, n in used.items())
    body = lines or ["No whispers declared."]
    if neighbour:
        body += ["**Neighbour whispers**", *neighbour]
    return "\n".join([head, *body])


def whisper_recap(state: ClocktowerState, records: list[Event]) -> str:
    """Every whisper's count for the end: per day, how many each player was in."""
    days: dict[int, dict[str, int]] = {}
    neighbour: dict[int, int] = {}
    for rec in records:
        if rec.type == "whisper":
            counts = days.setdefault(rec.data["day"], {})
            for member in rec.data["members"]:
                counts[member] = counts.get(member, 0) + 1
        elif rec.type == "neighbour_whisper":
            neighbour[rec.data["day"]] = neighbour.get(rec.data["day"], 0) + 1
    lines = []
    for day in sorted(set(days) | set(neighbour)):
        counts = days.get(day, {})
        ranked = sorted(counts.items(), key=lambda kv: (-kv[1], state.seat_of(kv[0]).seat
                                                         if any(s.player == kv[0] for s in state.seats) else 99))
        said = ", ".join(f"{state.name(p)} {n}" for p, n in ranked) or "none declared"
        lines.append(f"**Day {day}**: {said}" + (f" · {plural(neighbour[day], 'neighbour whisper')}" if neighbour.get(day) else ""))
    return "\n".join(lines)


# ----- whispers -----

def talk_open(state: ClocktowerState, doing: str) -> None:
    if state.phase == "night":
        raise illegal(f"{doing} by day only: talk is closed at night.", "not_day")
    if state.phase != "day" or state.pending_end is not None:
        raise illegal(f"{doing} by day only, and the day is over.", "not_day")


def declare_whisper(state: ClocktowerState, action: DeclareWhisper, rng: Rng) -> Outcome:
    talk_open(state, "Whispers are declared")
    if not announced_at(state, action.place):
        raise illegal("Declare whispers in the announcement thread, where everyone sees them.", "wrong_place")
    by = target_seat(state, action.player)
    members = [by.player]
    for player in action.players:
        if player == by.player:
            raise illegal("You cannot whisper yourself.", "self")
        seat = target_seat(state, player)
        if seat.player not in members:
            members.append(seat.player)
    if len(members) < 2:
        raise illegal("Name at least one other player.", "nobody")
    for open_one in state.whispers:
        if not open_one.broken_by and set(open_one.members) == set(members):
            raise illegal("You already have an open whisper with exactly these players.", "already_open")
    costs = whisper_costs(state, by.player, members)
    limit = whisper_limit(state)
    used = state.whispers_used
    for payer, cost in costs.items():
        left = limit - used.get(payer, 0)
        if cost > left:
            who = "you have" if payer == by.player else f"{state.name(payer)} has"
            raise illegal(f"This whisper costs {cost} and {who} {max(left, 0)} of {limit} left today.",
                          "over_limit")
    state.whisper_count += 1
    whisper = Whisper(id=state.whisper_count, day=state.day, by=by.player, members=members, cost=costs)
    state.whispers.append(whisper)
    others = ", ".join(state.label(m) for m in members[1:])
    used = state.whispers_used
    paid = "; ".join(f"{state.name(p)} has used {used[p]} of {limit}" for p in costs) or "free"
    return Outcome(state=state, events=[
        Event(type="whisper", audience=to_thread("announcements"),
              text=f"🤫 {state.label(by.player)} whispers with {others} ({paid})."),
        Event(type="whisper_open", audience=to_group(f"{WHISPER_KEY}{whisper.id}", members, reopen=True),
              title="🤫 A whisper", text=f"This whisper is open: {', '.join(state.name(m) for m in members)} "
              "and the Storytellers. It breaks when one of you speaks publicly in the town square."),
        record("whisper", {"day": state.day, "id": whisper.id, "by": by.player, "members": members,
                           "cost": costs}),
    ], reply=f"Your whisper with {others} is open: a private thread with them and the Storytellers.")


def breaks_whisper(state: ClocktowerState, player: str, place: str) -> bool:
    """Whether a public post by ``player`` at ``place`` breaks a whisper (the bot asks before
    sending ``Spoke``, so most town-square posts cost nothing)."""
    if place != "town_square" and not (place == "announcements" and state.settings.announcement_breaks_whisper):
        return False
    return any(not w.broken_by and player in w.members for w in state.whispers)


def spoke_matters(state: ClocktowerState, player: str, place: str) -> bool:
    """Whether the rules care that ``player`` posted at ``place`` (a whisper breaks, or Hell's
    Librarian hears it): the bot's listener asks before sending ``Spoke``."""
    return breaks_whisper(state, player, place) or breaks_silence(state, player, place)


def spoke(state: ClocktowerState, action: Spoke, rng: Rng) -> Outcome:
    if not spoke_matters(state, action.player, action.place):
        raise illegal("No whisper of yours breaks.", "no_whisper")
    events: list[Event] = []
    breaks = breaks_whisper(state, action.player, action.place)
    if breaks_silence(state, action.player, action.place):
        events += silence_broken(state, action.player, action.place)
    speaker = state.name(action.player)
    where = "the town square" if action.place == "town_square" else "the announcement thread"
    for whisper in state.whispers:
        if not breaks or whisper.broken_by or action.player not in whisper.members:
            continue
        key = f"{WHISPER_KEY}{whisper.id}"
        if state.settings.whisper_break == "speaker" and len(whisper.members) > 2:
            whisper.members = [m for m in whisper.members if m != action.player]
            events.append(Event(type="whisper_left", audience=to_group(key, whisper.members),
                                text=f"{speaker} spoke in {where} and left this whisper; it goes on for the rest."))
            events.append(private(action.player, "whisper_left", f"You spoke in {where}: you left whisper "
                                  f"#{whisper.id}. Declare a new whisper to talk with them again."))
        else:
            whisper.broken_by = action.player
            events.append(Event(type="whisper_broken", audience=to_group(key, whisper.members),
                                text=f"💬 {speaker} spoke in {where}: this whisper is broken and closed. "
                                     "Declare a new whisper to talk again.", data={"close": True}))
        events.append(record("whisper_broken", {"day": state.day, "id": whisper.id, "by": action.player}))
    return Outcome(state=state, events=events)


def neighbour_whisper(state: ClocktowerState, action: NeighbourWhisper,
                          rng: Rng) -> Outcome:
    talk_open(state, "Neighbour whispers are sent")
    by = target_seat(state, action.player)
    to = target_seat(state, action.target)
    beside = neighbours(state, by.player)
    if to.player not in beside:
        near = " or ".join(state.label(p) for p in beside) or "nobody"
        raise illegal(f"{state.label(to.player)} is not your neighbour: you may whisper {near}.", "not_neighbour")
    text = " ".join(action.text.split())
    count = words(text)
    if count == 0:
        raise illegal("Write the whisper (at most 15 words).", "empty")
    if count > MAX_NEIGHBOUR_WORDS:
        raise illegal(f"That is {count} words; a neighbour whisper is at most {MAX_NEIGHBOUR_WORDS}.", "too_long")
    if [by.player, to.player] in state.neighbour_whispers:
        raise illegal(f"You have already whispered {state.label(to.player)} today (once a day to each "
                      "neighbour).", "already_whispered")
    state.neighbour_whispers.append([by.player, to.player])
    return Outcome(state=state, events=[
        private(to.player, "neighbour_whisper", f"🤫 Your neighbour {state.label(by.player)} whispers: “{text}”"),
        private(by.player, "neighbour_whisper", f"🤫 You whispered to {state.label(to.player)}: “{text}”"),
        record("neighbour_whisper", {"day": state.day, "by": by.player, "to": to.player, "text": text}),
    ], reply=f"Whispered to {state.label(to.player)} ({count} word{'s' if count != 1 else ''}).")


def whispers_at_dawn(state: ClocktowerState) -> None:
    """A new day: the counts start again (they are today's declarations); broken whispers leave
    the state (they are in the record)."""
    state.neighbour_whispers = []
    state.whispers = [w for w in state.whispers if not w.broken_by]


# ----- public announcements -----

def announcing(state: ClocktowerState, action: Action, place: str) -> Seat:
    if state.phase != "day" or state.pending_end is not None or state.stage not in ("nominations", "voting"):
        raise illegal(f"Public announcements count only in the first {hours(state.settings.announcement_seconds)} "
                      "of a day.", "announcements_closed")
    if not announced_at(state, place):
        raise illegal("Public announcements count only in the announcement thread.", "wrong_place")
    return target_seat(state, action.player)


def announced(state: ClocktowerState, announcement: Announcement, text: str,
               extra: list[Event] | None = None) -> Outcome:
    """Every announcement is acknowledged the same way, whoever makes it."""
    state.announcements.append(announcement)
    return Outcome(state=state, events=[
        Event(type="announcement", audience=to_thread("announcements"), title="📣 Announcement noted",
              text=f"{state.label(announcement.by)} {text}"),
        record("announcement", {"day": state.day, **announcement.model_dump()}),
        *(extra or [])], reply="Your announcement is noted.")


def alsaahir_guess(state: ClocktowerState, action: AlsaahirGuess, rng: Rng) -> Outcome:
    seat = announcing(state, action, action.place)
    limit = state.settings.alsaahir_guesses_per_day
    made = sum(1 for a in state.announcements if a.kind == "alsaahir" and a.by == seat.player)
    if limit and made >= limit:
        raise illegal(f"You have made {made} Alsaahir guess{'es' if made != 1 else ''} today "
                      f"({limit} a day).", "guessed_today")
    minions = [target_seat(state, p).player for p in dict.fromkeys(action.minions)]
    demons = [target_seat(state, p).player for p in dict.fromkeys(action.demons)]
    if not demons:
        raise illegal("Name the Demon (and the Minions): an Alsaahir guess names both.", "no_demon")
    if set(minions) & set(demons):
        raise illegal("A player cannot be guessed both a Minion and a Demon.", "both")
    extra: list[Event] = []
    if seat.has("alsaahir") and seat.alive:
        found = alsaahir_check(state, chars(state), minions, demons)
        why = impaired(state, seat.player)
        if found != "wrong":
            if why:
                state.note_abnormal(seat.player, f"the Alsaahir's guess failed ({why})")
            judged = ("It is correct by the grimoire" if found == "correct" else
                      "It is correct only if a Recluse or Spy registers that way (your call)")
            then = (f"but the Alsaahir's ability fails ({why}): nothing happens." if why else
                    "`/st win team:good` ends the game (good wins); the town has been told nothing.")
            extra.append(Event(type="alsaahir", audience=STORYTELLER, title="📣 The Alsaahir's guess",
                               text=f"{state.label(seat.player)}, the Alsaahir, guessed. {judged}, {then}"))
    text = (f"guesses, as the Alsaahir: {'Minion' if len(minions) == 1 else 'Minions'} "
            f"{', '.join(state.label(p) for p in minions) or 'none'}; "
            f"{'Demon' if len(demons) == 1 else 'Demons'} {', '.join(state.label(p) for p in demons)}.")
    return announced(state, Announcement(kind="alsaahir", by=seat.player, minions=minions, demons=demons),
                           text, extra)


def juggler_guess(state: ClocktowerState, action: JugglerGuess, rng: Rng) -> Outcome:
    seat = announcing(state, action, action.place)
    if any(a.kind == "juggler" and a.by == seat.player for a in state.announcements):
        raise illegal("You have already made Juggler guesses today.", "guessed_today")
    guesses: dict[str, str] = {}
    for player, character in action.guesses.items():
        target = target_seat(state, player)
        found = chars(state).resolve(character)
        if found is None or found.id not in state.script.all_ids():
            raise illegal(f"{character!r} is not a character of this script.", "bad_character")
        guesses[target.player] = found.id
    listed = "; ".join(f"{state.label(p)}: {chars(state)[c].name}" for p, c in guesses.items())
    # judged as made: who could not misregister then (drunk or poisoned) is read so at night
    held = [p for p in guesses if impaired(state, p)]
    return announced(state, Announcement(kind="juggler", by=seat.player, guesses=guesses, impaired=held),
                           f"guesses, as the Juggler: {listed}.")


def goblin_claim(state: ClocktowerState, action: GoblinClaim, rng: Rng) -> Outcome:
    seat = announcing(state, action, action.place)
    if any(a.kind == "goblin" and a.by == seat.player for a in state.announcements):
        raise illegal("You have already claimed the Goblin today.", "claimed_today")
    nominated = any(n.nominee == seat.player for n in state.nominations)
    outcome = announced(state, Announcement(kind="goblin", by=seat.player, nominated=nominated),
                              "claims to be the Goblin" + ("." if nominated else " (not nominated today yet)."))
    if not nominated and state.settings.goblin_claim == "after_nomination":
        outcome.reply += (" You are not nominated today: a Goblin claim counts when it is made after the "
                          "nomination, so claim again once you are nominated.")
    return outcome


def goblin_claimed(state: ClocktowerState, player: str) -> bool:
    """Whether ``player`` made a Goblin claim today that counts for the Goblin's win."""
    nominated = any(n.nominee == player for n in state.nominations)
    return any(a.kind == "goblin" and a.by == player and (
        a.nominated or (state.settings.goblin_claim == "any_time" and nominated)) for a in state.announcements)


# ----- exile -----

def exile_vote(state: ClocktowerState, action: ExileVote, rng: Rng) -> Outcome:
    if state.phase != "day" or state.pending_end is not None:
        raise illegal("Exiles are called by day.", "not_day")
    voter = target_seat(state, action.player)
    target = target_seat(state, action.target)
    if not target.traveller:
        raise illegal(f"{state.label(target.player)} is not a Traveller: only Travellers are exiled. "
                      "Vote with `/vote` to execute.", "not_traveller")
    if target.player in state.exiled:
        raise illegal(f"{state.label(target.player)} has already been exiled today.", "exiled")
    votes = state.exiles.get(target.player)
    events: list[Event] = []
    if action.vote == "withdraw":
        if not votes or voter.player not in votes:
            raise illegal("You have not voted on that exile.", "no_vote")
        del votes[voter.player]
        reply = "Your exile vote is withdrawn."
    else:
        if votes is None:
            if action.vote != "yes":
                raise illegal(f"Nobody has called for {state.label(target.player)}'s exile today: a yes vote "
                              "calls it.", "no_call")
            votes = state.exiles[target.player] = {}
            events.append(public("exile_call", f"📢 {state.label(voter.player)} calls for the exile of "
                                 f"{state.label(target.player)}. Everyone, alive or dead, may vote: `/exile`.",
                                 title="🧳 An exile is called"))
        if votes.get(voter.player) == action.vote:
            raise illegal(f"Your exile vote is already {action.vote}.", "same_vote")
        votes[voter.player] = action.vote
        reply = f"Your vote on {state.label(target.player)}'s exile: {action.vote}."
    if exile_passes(state, target.player, closing=False):
        events += exile(state, target)
    else:
        events.append(exile_event(state, target.player))
    return Outcome(state=state, events=events, reply=reply)


def exile_event(state: ClocktowerState, target: str, result: str = "") -> Event:
    return public("exile_tally", exile_text(state, target, result=result),
                  title=f"🧳 Exile of {state.name(target)}", slot=f"exile:{state.day}:{target}")


def exile(state: ClocktowerState, target: Seat) -> list[Event]:
    """The Traveller is exiled: they die. The Deviant's fate is the Storytellers' (a drunk or
    poisoned one has no ability, and they are told to kill it), and the town reads the same
    words either way."""
    votes = state.exiles.get(target.player, {})
    state.exiled.append(target.player)
    label = state.label(target.player)
    events = [exile_event(state, target.player, result="**Exiled.**"),
              record("exile", {"day": state.day, "target": target.player, "votes": dict(votes), "exiled": True})]
    if target.has("deviant"):
        # the same public words whether or not it is drunk or poisoned: the town learns no token
        events.append(public("exile", f"🧳 {label} is exiled. The Storytellers decide whether the Deviant dies.",
                             title="🧳 Exiled"))
        why = impaired(state, target.player)
        text = (f"{label} is {why}: the Deviant has no ability and dies by exile; `/st kill` them." if why else
                f"{label} cannot die by exile if they were funny today: `/st kill` them if they were not.")
        events.append(Event(type="deviant", audience=STORYTELLER, title="🧳 The Deviant is exiled", text=text))
    else:
        died = target.alive
        target.alive = False
        events.append(public("exile", f"🧳 {label} is exiled" + (" and dies." if died else "."), title="🧳 Exiled"))
        if died and target.has("thief") and state.negative:  # the Thief's marks stop at once
            events += tally_changed(state)
    return events


def exiles_at_close(state: ClocktowerState) -> list[Event]:
    """The day ends: under "cast" each open call is settled; the others lapse into the record."""
    events: list[Event] = []
    for player, votes in state.exiles.items():
        if player in state.exiled or not any(s.player == player for s in state.seats):
            continue
        seat = state.seat_of(player)
        if exile_passes(state, player, closing=True):
            events += exile(state, seat)
        else:
            events.append(exile_event(state, player, result="Not exiled."))
            events.append(record("exile", {"day": state.day, "target": player, "votes": dict(votes),
                                           "exiled": False}))
    state.exiles = {}
    return events


# ----- random play-throughs -----

def talk_moves(state: ClocktowerState) -> list[Action]:
    """A sample of the day's talk for random play-throughs: a whisper with the next seat, a
    neighbour whisper, breaking one's whispers, exile votes, and announcements."""
    moves: list[Action] = []
    seats = state.seats
    where = "announcements"
    limit = whisper_limit(state)
    used = state.whispers_used
    made = {(a.kind, a.by) for a in state.announcements}
    for i, seat in enumerate(seats):
        p = seat.player
        after = seats[(i + 1) % len(seats)].player
        costs = whisper_costs(state, p, [p, after])
        if all(used.get(q, 0) + c <= limit for q, c in costs.items()) and not any(
                not w.broken_by and set(w.members) == {p, after} for w in state.whispers):
            moves.append(DeclareWhisper(player=p, players=[after], place=where))
        for near in neighbours(state, p)[:1]:
            if [p, near] not in state.neighbour_whispers:
                moves.append(NeighbourWhisper(player=p, target=near, text="I trust you, vote with me."))
        if spoke_matters(state, p, "town_square"):
            moves.append(Spoke(player=p))
        for traveller in (s for s in seats if s.traveller and s.player not in state.exiled):
            called = traveller.player in state.exiles
            mine = state.exiles.get(traveller.player, {}).get(p)
            if not called or mine != "yes":
                moves.append(ExileVote(player=p, target=traveller.player, vote="yes"))
            elif mine == "yes":
                moves.append(ExileVote(player=p, target=traveller.player, vote="no"))
        if state.stage in ("nominations", "voting"):
            if any(n.nominee == p for n in state.nominations) and ("goblin", p) not in made:
                moves.append(GoblinClaim(player=p, place=where))
            if seat.character == "alsaahir" and ("alsaahir", p) not in made:
                truth = {t: [s.player for s in seats if not s.traveller and chars(state)[s.character].team == t]
                         for t in ("minion", "demon")}
                moves.append(AlsaahirGuess(player=p, minions=truth["minion"], demons=truth["demon"], place=where))
            if seat.shown == "juggler" and state.day == 1 and ("juggler", p) not in made:
                moves.append(JugglerGuess(player=p, guesses={after: seats[(i + 1) % len(seats)].character},
                                          place=where))
    return moves

HANDLERS: dict[str, Handler] = {
    "whisper": declare_whisper, "neighbour_whisper": neighbour_whisper, "spoke": spoke,
    "alsaahir_guess": alsaahir_guess, "juggler_guess": juggler_guess, "goblin_claim": goblin_claim,
    "exile_vote": exile_vote}
