"""The Storytellers' bookkeeping: deaths and revivals, characters and alignments, reminder tokens,
Travellers seated and unseated, private notes, a new person in a seat, and the declared end.

Every change here is the Storytellers' call; the rules only keep it consistent (a death by day is
told at once, by night at dawn; the Lleech follows its host).
"""

from __future__ import annotations

from games.engine import SUBSTITUTE, EndGame, Handler, Outcome, Player, RemovePlayer, Rng, private, public

from .actions import (
    AddReminder,
    AddTraveller,
    DeclareWinner,
    Kill,
    RemoveReminder,
    Revive,
    SetAlignment,
    SetCharacter,
    Substitute,
    Tell,
    TravellerLeaves,
)
from .info import card, deal_message, names
from .night import wake_to_choose
from .rules import DEALT_TEAMS, after_deal, character_id, chars, finish, illegal, most_travellers, target_seat
from .snv_barber import haircut_asks
from .snv_judged import told_by_day
from .snv_twins import good_blocked
from .state import ClocktowerState, Reminder, Seat
from .succession import demon_died
from .tally import lleech_follows, lleech_spared, mechanical_end, tally_changed

# ----- life and death -----

def kill(state: ClocktowerState, action: Kill, rng: Rng) -> Outcome:
    return set_alive(state, action.target, alive=False)


def revive(state: ClocktowerState, action: Revive, rng: Rng) -> Outcome:
    return set_alive(state, action.target, alive=True)


def set_alive(state: ClocktowerState, player: str, *, alive: bool) -> Outcome:
    """A death or a revival: told to the town at once by day; at night kept for dawn, so the
    timing of a notice gives nothing away. A change that undoes tonight's is simply forgotten."""
    after_deal(state, "revive" if alive else "kill")
    seat = target_seat(state, player)
    label = state.label(seat.player)
    if seat.alive == alive:
        raise illegal(f"{label} is alive." if alive else f"{label} is already dead.",
                       "alive" if alive else "already_dead")
    seat.alive = alive
    seat.vote_token = True
    said = f"{label} lives again" if alive else f"{label} is dead"
    pending, undone = ((state.dawn_revivals, state.dawn_deaths) if alive
                       else (state.dawn_deaths, state.dawn_revivals))
    if seat.player in undone:
        undone.remove(seat.player)
        return Outcome(state=state, reply=f"{said}: nothing about it is announced at dawn any more.")
    if state.phase == "day":
        news = public("revived", f"✨ {label} lives again.") if alive else public("death", f"💀 {label} has died.")
        following = [] if alive else lleech_spared(state, seat.player) + lleech_follows(state) + demon_died(state, seat)
        if seat.has("thief") and state.negative:  # the Thief's marks stop (or count again) at once
            following += tally_changed(state)
        found = mechanical_end(state, chars(state))
        if found is not None and found.team == "good" and good_blocked(state):
            found = None  # the Evil Twin: good can't win while both twins live (the death's own note says so)
        note = (f" By the rules **{found.team}** wins now ({found.reason}): `/st win team:{found.team}` "
                "to announce it." if found else "")
        return Outcome(state=state, events=[news, *following], reply=f"{said}; the town was told.{note}")
    pending.append(seat.player)
    events = wake_to_choose(state, seat) if not alive and state.phase == "night" else []
    woken = " They are woken to choose." if events else ""
    if not alive and state.phase == "night":  # a Demon's death passes on now (told privately), a Poisoner's poison ends
        events += demon_died(state, seat)
        if seat.character == "barber" and state.stage != "locked":  # the Demon's haircuts, asked now
            events += haircut_asks(state)
    return Outcome(state=state, events=events, reply=f"{said}. The town learns it at dawn.{woken}")


# ----- characters, alignments and tokens -----

def set_character(state: ClocktowerState, action: SetCharacter, rng: Rng) -> Outcome:
    after_deal(state, "change a character")
    seat = target_seat(state, action.target)
    teams = ("traveller",) if seat.traveller else DEALT_TEAMS
    character = character_id(state, action.character, teams)
    old = chars(state)[seat.character].name
    seat.character = character
    events = []
    if action.tell:
        seat.shown = character
        events.append(private(seat.player, "character", "The Storyteller tells you your character has "
                              "changed.\n\n" + card(chars(state), seat), title="🕯️ Your character"))
    new = chars(state)[character].name
    told = "they were told" if action.tell else "their card still shows the " + chars(state)[seat.shown].name
    return Outcome(state=state, events=events,
                   reply=f"{state.label(seat.player)}: {old} → {new} ({told}).")


def set_alignment(state: ClocktowerState, action: SetAlignment, rng: Rng) -> Outcome:
    after_deal(state, "change an alignment")
    seat = target_seat(state, action.target)
    if seat.alignment == action.alignment:
        raise illegal(f"{state.label(seat.player)} is already {action.alignment}.", "same_alignment")
    seat.alignment = action.alignment
    events = []
    if action.tell:
        events.append(private(seat.player, "alignment", f"The Storyteller tells you: you are now "
                              f"**{action.alignment}**.", title="⚖️ Your alignment"))
    return Outcome(state=state, events=events,
                   reply=f"{state.label(seat.player)} is now {action.alignment}"
                         f"{' (they were told)' if action.tell else ' (they were not told)'}.")


def reminder_token(state: ClocktowerState, action: AddReminder) -> tuple[str, str]:
    token = " ".join(action.token.split())
    if not token:
        raise illegal("A reminder token needs some words.", "bad_token")
    if not action.source.strip():
        return token, ""
    source = chars(state).resolve(action.source)
    if source is None:
        raise illegal(f"{action.source!r} is not a character this game knows.", "bad_character")
    tokens = (*source.reminders, *source.reminders_global)
    match = next((t for t in tokens if t.lower() == token.lower()), None)
    if match is None:
        offered = ", ".join(dict.fromkeys(tokens)) or "none"
        raise illegal(f"The {source.name} has no {token!r} token. Its tokens: {offered}. (Leave the "
                       "source out to write your own note.)", "bad_token")
    return match, source.id


def add_reminder(state: ClocktowerState, action: AddReminder, rng: Rng) -> Outcome:
    seat = target_seat(state, action.target)
    token, source = reminder_token(state, action)
    state.reminders.append(Reminder(player=seat.player, token=token, source=source))
    by = f" ({chars(state)[source].name})" if source else ""
    return Outcome(state=state, reply=f"Reminder on {state.label(seat.player)}: {token}{by}.")


def remove_reminder(state: ClocktowerState, action: RemoveReminder,
                        rng: Rng) -> Outcome:
    seat = target_seat(state, action.target)
    wanted = " ".join(action.token.split()).lower()
    for i, reminder in enumerate(state.reminders):
        if reminder.player == seat.player and reminder.token.lower() == wanted:
            del state.reminders[i]
            return Outcome(state=state, reply=f"Removed {reminder.token!r} from {state.label(seat.player)}.")
    have = ", ".join(r.token for r in state.reminders if r.player == seat.player) or "none"
    raise illegal(f"{state.label(seat.player)} has no {action.token!r} reminder (they have: {have}).",
                   "no_token")


# ----- seats -----

def add_traveller(state: ClocktowerState, action: AddTraveller, rng: Rng) -> Outcome:
    if state.day < 1:
        raise illegal("Travellers join on day 1 at the earliest.", "too_early")
    if any(s.player == action.target for s in state.seats):
        raise illegal(f"{state.label(action.target)} is already seated.", "already_seated")
    travellers = [s for s in state.seats if s.traveller]
    if len(travellers) >= most_travellers(state):
        raise illegal(f"There are already {most_travellers(state)} Travellers: {names(state, [s.player for s in travellers])}.",
                       "too_many_travellers")
    taken = next((s for s in state.seats if s.seat == action.seat), None)
    if taken is not None:
        raise illegal(f"Seat {action.seat} is {state.name(taken.player)}'s.", "seat_taken")
    character = character_id(state, action.character, ("traveller",))
    if character not in state.script.all_ids():
        raise illegal(f"The {chars(state)[character].name} is not a Traveller of this script.", "bad_character")
    if state.by_character(character):
        raise illegal(f"The {chars(state)[character].name} is already in play.", "in_play")
    seat = Seat(player=action.target, seat=action.seat, character=character, shown=character,
                alignment=action.alignment, traveller=True, joined_day=state.day,
                vote_token=character != "beggar")  # the Beggar joins without a token
    state.seats.append(seat)
    state.seats.sort(key=lambda s: s.seat)
    state.sync_players({action.target: action.name})
    name = chars(state)[character].name
    return Outcome(state=state, events=[
        public("traveller", f"🧳 {state.label(seat.player)} travels in as the **{name}**.\n> "
               f"{chars(state)[character].ability}", title="A Traveller arrives"),
        private(seat.player, "character", deal_message(state, chars(state), seat.player),
                title="🕯️ Your character"),
    ], reply=f"{state.label(seat.player)} is the {name} ({action.alignment}); they were told.")


def traveller_leaves(state: ClocktowerState, action: TravellerLeaves,
                         rng: Rng) -> Outcome:
    seat = target_seat(state, action.target)
    if not seat.traveller:
        raise illegal(f"{state.label(seat.player)} is not a Traveller.", "not_traveller")
    return unseat(state, seat)


def remove_player(state: ClocktowerState, action: RemovePlayer, rng: Rng) -> Outcome:
    seat = target_seat(state, action.target)
    if not seat.traveller:
        raise illegal("A seated player is not removed in this game: replace them with `/st substitute`, "
                       "or `/st kill` them.", "use_substitute")
    return unseat(state, seat)


def unseat(state: ClocktowerState, seat: Seat) -> Outcome:
    """A Traveller leaves: their seat and tokens go; the town is told."""
    label = state.label(seat.player)
    if state.fiddle is not None and seat.player in (state.fiddle.demon, state.fiddle.challenger):
        raise illegal(f"{label} is in the fiddle contest: they stay until it is over.", "fiddling")
    state.seats.remove(seat)
    state.reminders = [r for r in state.reminders if r.player != seat.player]
    state.forget(seat.player)
    state.sync_players()
    return Outcome(state=state, events=[public("traveller_left", f"🧳 {label} has left.")],
                   reply=f"{label} has left the game.")


def substitute(state: ClocktowerState, action: Substitute, rng: Rng) -> Outcome:
    seat = target_seat(state, action.target)
    new = action.new_player
    if not new or any(s.player == new for s in state.seats):
        raise illegal(f"{state.label(new)} is already seated.", "already_seated")
    old, old_label = seat.player, state.label(seat.player)
    state = state.renamed(old, new)  # the seat, its tokens, choices, votes, whispers and history
    seat = state.seat_of(new)
    state.players = [Player(id=new, name=action.name, seat=p.seat) if p.id == new else p for p in state.players]
    events = [public(SUBSTITUTE, f"🔁 {state.label(new)} takes over seat {seat.seat} from {old_label}.",
                     data={"old": old, "new": new})]
    if state.phase != "setup":
        text = (f"You take over seat {seat.seat} from {old_label}: its character, its history and this "
                f"thread are yours now.\n\n" + deal_message(state, chars(state), new))
        events.append(private(new, "substitute", text, title="🔁 You take over a seat",
                              data={"old": old, "new": new}))
    return Outcome(state=state, events=events, reply=f"{state.label(new)} now plays seat {seat.seat}.")


# ----- words and the end -----

def tell(state: ClocktowerState, action: Tell, rng: Rng) -> Outcome:
    after_deal(state, "send information")
    seat = target_seat(state, action.target)
    return Outcome(state=state, events=[private(seat.player, "storyteller_info", action.text.strip(),
                                                title="📜 From the Storyteller"),
                                        *told_by_day(state, seat, action.text.strip())],
                   reply=f"Sent to {state.label(seat.player)}.")


def declare_winner(state: ClocktowerState, action: DeclareWinner, rng: Rng) -> Outcome:
    after_deal(state, "declare a winner")
    reason = action.reason.strip()
    if not reason and state.pending_end is not None and state.pending_end.team == action.team:
        reason = state.pending_end.reason[0].upper() + state.pending_end.reason[1:] + "."
    switched = ""
    if action.politician:
        politicians = [s for s in state.seats if s.character == "politician" and s.alignment != action.team]
        if not politicians:
            raise illegal(f"There is no Politician on the losing side to change to {action.team}.",
                           "no_politician")
        for seat in politicians:
            seat.alignment = action.team
        switched = (f" The Politician, {names(state, [s.player for s in politicians])}, was the most "
                    f"responsible for their team's loss: they change alignment and win.")
    winners = [s.player for s in state.seats if s.alignment == action.team]
    text = f"🏆 **{action.team.capitalize()} wins!**" + (f" {reason}" if reason else "") + switched
    return finish(state, action.team, winners, text)


def end_game(state: ClocktowerState, action: EndGame, rng: Rng) -> Outcome:
    return finish(state, "ended", [], "🛑 The game was ended by the Storyteller."
                  + (f" {action.reason}" if action.reason else ""))


HANDLERS: dict[str, Handler] = {
    "kill": kill, "revive": revive, "set_character": set_character, "set_alignment": set_alignment,
    "add_reminder": add_reminder, "remove_reminder": remove_reminder, "add_traveller": add_traveller,
    "traveller_leaves": traveller_leaves, "remove_player": remove_player, "substitute": substitute,
    "tell": tell, "declare_winner": declare_winner, "end_game": end_game}
