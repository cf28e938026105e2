"""The Fabled the Storytellers may put in play beside the Djinn: the Fiddler's contest and Hell's
Librarian's silence.

- The Fiddler: "Once per game, at night, the Demon secretly chooses a player of an opposing
  alignment; All players then vote which of these two wins the game." `/st fabled fiddle` starts it: the
  Demon chooses in its thread (or the Storytellers for an absent Demon), then the town votes
  between the two players, named by seat with no character and without saying which is the
  Demon. Every seated player votes, alive or dead, no ability changes it; the contest closes at
  its deadline, when everyone has voted, or on `/st endvoting`. The winner's team wins at once;
  a tie goes to ``fiddler_tie`` (the rulebook's "In the event of a tie, the Good team win" by
  default; the official Fiddler gives it to evil).
- Hell's Librarian: "Something bad might happen to whomever speaks when the Storyteller calls for
  silence." The night is silent, and `/st fabled silence` calls for silence by day. A seated player who
  posts in the town square or the announcement thread during a silence gets a "Something Bad"
  token and the Storytellers are told; what happens is theirs.
"""

from __future__ import annotations

from games.engine import (
    STORYTELLER,
    Action,
    Choice,
    Event,
    Handler,
    Outcome,
    Prompt,
    PromptField,
    Rng,
    private,
    public,
    record,
    to_thread,
)

from .actions import AddFabled, EndVoting, FiddleChallenge, FiddleVote, RemoveFabled, Silence, StartFiddle
from .rules import character_id, chars, finish, hours, illegal, set_stage, talk_data, target_seat
from .state import ClocktowerState, Fiddle, Reminder, Seat

# ----- putting them in play -----

def fabled_event(state: ClocktowerState, fabled: str) -> Event:
    character = chars(state)[fabled]
    text = f"**{character.name}** is in play.\n> {character.ability}"
    if fabled == "djinn":
        on_script = set(state.script.all_ids())
        jinxes = [j for j in state.script.jinxes if set(j.characters) <= on_script]
        if jinxes:
            text += "\n\nThe jinxes:\n" + "\n".join(
                f"• **{' + '.join(chars(state)[c].name for c in j.characters)}**: {j.text}" for j in jinxes)
    return Event(type="fabled", audience=to_thread("announcements"), title="✨ A Fabled", text=text)


def add_fabled(state: ClocktowerState, action: AddFabled, rng: Rng) -> Outcome:
    fabled = character_id(state, action.fabled, ("fabled",))
    if fabled in state.fabled:
        raise illegal(f"The {chars(state)[fabled].name} is already in play.", "in_play")
    state.fabled.append(fabled)
    events = [] if state.phase == "setup" else [fabled_event(state, fabled)]
    when = "announced at the start" if state.phase == "setup" else "announced in the announcement thread"
    return Outcome(state=state, events=events, reply=f"The {chars(state)[fabled].name} is in play ({when}).")


def remove_fabled(state: ClocktowerState, action: RemoveFabled, rng: Rng) -> Outcome:
    fabled = character_id(state, action.fabled, ("fabled",))
    if fabled not in state.fabled:
        raise illegal(f"The {chars(state)[fabled].name} is not in play.", "not_in_play")
    state.fabled.remove(fabled)
    events = [] if state.phase == "setup" else [
        Event(type="fabled", audience=to_thread("announcements"), title="✨ A Fabled",
              text=f"The **{chars(state)[fabled].name}** is no longer in play.")]
    return Outcome(state=state, events=events, reply=f"The {chars(state)[fabled].name} is out of play.")


# ----- the Fiddler -----

def start_fiddle(state: ClocktowerState, action: StartFiddle, rng: Rng) -> Outcome:
    if "fiddler" not in state.fabled:
        raise illegal("The Fiddler is not in play: `/st fabled add fiddler` first (it is announced).", "no_fiddler")
    if state.fiddle is not None:
        if action.challenger and not state.fiddle.challenger:
            return challenge(state, target_seat(state, action.challenger), by_storyteller=True)
        raise illegal("The fiddle contest has begun already (once per game).", "fiddling")
    if state.phase not in ("day", "night"):
        raise illegal("The fiddle contest is called by day or by night, once the game is under way.", "not_now")
    demons = [s for s in state.seats if s.alive and chars(state)[s.character].team == "demon"]
    if action.demon:
        demon = target_seat(state, action.demon)
        if demon not in demons:
            raise illegal(f"{state.label(demon.player)} is not a living Demon.", "not_demon")
    elif len(demons) == 1:
        demon = demons[0]
    elif not demons:
        raise illegal("No Demon lives: there is nobody to fiddle.", "no_demon")
    else:
        raise illegal(f"Several Demons live ({', '.join(state.label(d.player) for d in demons)}): name the one "
                      "who fiddles with `demon:`.", "which_demon")
    state.fiddle = Fiddle(demon=demon.player)
    set_stage(state, "fiddle", "choosing")
    events = [public("fiddle", "🎻 The Storytellers use the **Fiddler**: the Demon is secretly choosing a player "
                     "of the opposing alignment. Then every player, alive or dead, votes which of the two "
                     "wins the game; no ability changes it. Abilities no longer work.",
                     title="🎻 The fiddle contest", opens_phase=True, data=talk_data(state, "open")),
              private(demon.player, "fiddle_ask", "🎻 The Fiddler: choose a player of the opposing alignment "
                      "(alive or dead) with **Make my choice**. The town then votes which of you two wins.",
                      title="The fiddle contest")]
    if action.challenger:
        events += challenge(state, target_seat(state, action.challenger), by_storyteller=True).events
    return Outcome(state=state, events=events,
                   reply=f"The fiddle contest begins: {state.label(demon.player)} (the Demon) chooses, in their thread.")


def fiddle_challenge(state: ClocktowerState, action: FiddleChallenge, rng: Rng) -> Outcome:
    fiddle = state.fiddle
    if fiddle is None or state.stage != "choosing" or action.player != fiddle.demon:
        raise illegal("There is no fiddle contest for you to choose in.", "not_fiddling")
    return challenge(state, target_seat(state, action.target))


def challenge(state: ClocktowerState, challenger: Seat, *, by_storyteller: bool = False) -> Outcome:
    fiddle = state.fiddle
    assert fiddle is not None
    demon = state.seat_of(fiddle.demon)
    if challenger == demon:
        raise illegal("Choose another player than yourself.", "self")
    if challenger.alignment == demon.alignment:
        if by_storyteller:
            raise illegal(f"{state.label(challenger.player)} is of the Demon's alignment: choose a player of the "
                          "opposing one.", "same_alignment")
        # the Demon's pick is answered as any pick: a refusal would tell it who is on its side
        # (a Magician, an evil Traveller); the Storytellers choose the opponent instead
        return Outcome(state=state, events=[Event(
            type="fiddle_same_side", audience=STORYTELLER, title="🎻 The fiddle contest",
            text=f"The Demon, {state.label(demon.player)}, chose {state.label(challenger.player)}, of its own "
                 "alignment. Choose its opponent with `/st fabled fiddle challenger:@p`.")],
            reply=f"You chose {state.label(challenger.player)}.")
    fiddle.challenger = challenger.player
    set_stage(state, "fiddle", "voting")
    pair = sorted([demon, challenger], key=lambda s: s.seat)  # by seat: nobody learns which is the Demon
    tie = state.settings.fiddler_tie
    events = [
        public("fiddle_contest", f"🎻 **{state.label(pair[0].player)}** and **{state.label(pair[1].player)}** "
               f"are in the fiddle contest. Every player votes which of them wins the game (`/vote` or "
               f"**Make my choice**); votes move freely until the contest closes in "
               f"{hours(state.settings.fiddle_seconds)} or when everyone has voted. The winner's whole team "
               f"wins; on a tie, {tie} wins.", title="🎻 Vote: who wins?", opens_phase=True),
        fiddle_tally(state),
        Event(type="fiddle_chosen", audience=STORYTELLER, title="🎻 The fiddle contest",
              text=f"{state.label(challenger.player)} was chosen" + (" by you" if by_storyteller else " by the Demon")
                   + f" against {state.label(demon.player)}."),
    ]
    return Outcome(state=state, events=events, reply=f"You chose {state.label(challenger.player)}.")


def fiddle_counts(state: ClocktowerState) -> dict[str, int]:
    fiddle = state.fiddle
    assert fiddle is not None
    counts = {fiddle.demon: 0, fiddle.challenger: 0}
    for target in fiddle.votes.values():
        counts[target] = counts.get(target, 0) + 1
    return counts


def fiddle_tally(state: ClocktowerState, *, closed: bool = False) -> Event:
    fiddle = state.fiddle
    assert fiddle is not None
    counts = fiddle_counts(state)
    lines = []
    for seat in sorted((state.seat_of(p) for p in counts), key=lambda s: s.seat):
        voters = [state.name(v) for v, t in fiddle.votes.items() if t == seat.player]
        lines.append(f"• **{state.label(seat.player)}** · {counts[seat.player]}"
                     + (f": {', '.join(voters)}" if voters else ""))
    waiting = sum(1 for s in state.seats if s.player not in fiddle.votes)
    lines.append("The contest is closed." if closed else f"{waiting} player{'s' if waiting != 1 else ''} "
                 "still to vote.")
    return public("fiddle_tally", "\n".join(lines), title="🎻 The fiddle contest" + (" (closed)" if closed else ""),
                  slot="fiddle")


def fiddle_vote(state: ClocktowerState, action: FiddleVote, rng: Rng) -> Outcome:
    fiddle = state.fiddle
    if fiddle is None or state.stage != "voting":
        raise illegal("There is no fiddle contest to vote in now.", "not_fiddling")
    voter = target_seat(state, action.player)
    if action.target not in (fiddle.demon, fiddle.challenger):
        raise illegal(f"Vote for {state.label(fiddle.demon)} or {state.label(fiddle.challenger)}.", "bad_target")
    fiddle.votes[voter.player] = action.target
    events = [fiddle_tally(state), record("fiddle_vote", {"voter": voter.player, "target": action.target})]
    if all(s.player in fiddle.votes for s in state.seats):
        return fiddle_result(state, events, "everyone has voted")
    return Outcome(state=state, events=events, reply=f"Your vote: {state.label(action.target)} wins.")


def fiddle_closes(state: ClocktowerState, why: str) -> Outcome:
    """The contest's deadline, or the Storytellers' ``/st endvoting``."""
    return fiddle_result(state, [], why)


def fiddle_result(state: ClocktowerState, events: list[Event], why: str) -> Outcome:
    fiddle = state.fiddle
    assert fiddle is not None
    counts = fiddle_counts(state)
    demon, challenger = state.seat_of(fiddle.demon), state.seat_of(fiddle.challenger)
    if counts[demon.player] == counts[challenger.player]:
        team = state.settings.fiddler_tie
        winner = demon if demon.alignment == team else challenger
        how = f"a tie, {counts[demon.player]} to {counts[challenger.player]}: {team} wins ties"
    else:
        winner = max((demon, challenger), key=lambda s: counts[s.player])
        how = f"{counts[winner.player]} votes to {counts[(challenger if winner is demon else demon).player]}"
    team = winner.alignment
    events.append(fiddle_tally(state, closed=True))
    events.append(record("fiddle", {"demon": demon.player, "challenger": challenger.player, "counts": counts,
                                    "winner": winner.player}))
    winners = [s.player for s in state.seats if s.alignment == team]
    text = (f"🎻 The fiddle contest is over ({why}): **{state.label(winner.player)}** wins it ({how}).\n"
            f"🏆 **{team.capitalize()} wins!**")
    over = finish(state, team, winners, text)
    return Outcome(state=over.state, events=events + over.events, reply="The fiddle contest is over.")


def fiddle_prompts(state: ClocktowerState, player: str) -> list[Prompt]:
    fiddle = state.fiddle
    if fiddle is None:
        return []
    if state.stage == "choosing" and player == fiddle.demon:
        choices = [Choice(value=s.player, label=state.label(s.player)[:100]) for s in state.seats
                   if s.player != player]
        return [Prompt(action="fiddle_challenge", title="The fiddle contest: your opponent",
                       text="Choose a player of the opposing alignment, alive or dead.",
                       fields=[PromptField(name="target", placeholder="Choose a player…", choices=choices[:25])])]
    if state.stage == "voting":
        mine = fiddle.votes.get(player)
        choices = [Choice(value=p, label=state.label(p)[:100], description="your vote" if mine == p else "")
                   for p in sorted((fiddle.demon, fiddle.challenger), key=lambda p: state.seat_of(p).seat)]
        return [Prompt(action="fiddle_vote", title="The fiddle contest: who wins?", vote=True,
                       text=f"Your vote: {state.label(mine)}." if mine else "You have not voted yet.",
                       fields=[PromptField(name="target", placeholder="Who wins?", choices=choices)])]
    return []


def fiddle_moves(state: ClocktowerState) -> list[Action]:
    """For random play-throughs: the Demon's choice (or the Storytellers' for it), the votes, the close."""
    st = "storyteller"
    moves: list[Action] = []
    fiddle = state.fiddle
    assert fiddle is not None
    demon = state.seat_of(fiddle.demon)
    for seat in state.seats:
        for prompt in fiddle_prompts(state, seat.player):
            for choice in prompt.fields[0].choices:
                if prompt.action == "fiddle_vote":
                    moves.append(FiddleVote(player=seat.player, target=choice.value))
                elif state.seat_of(choice.value).alignment != demon.alignment:
                    moves.append(FiddleChallenge(player=seat.player, target=choice.value))
    if state.stage == "voting":
        moves.append(EndVoting(player=st))
    return moves


def fabled_moves(state: ClocktowerState) -> list[Action]:
    """For random play-throughs: the Storytellers put in and use the Fiddler (late) and Hell's Librarian."""
    st = "storyteller"
    moves: list[Action] = []
    if state.phase == "day" and state.day >= 2:
        for fabled in ("hellslibrarian", "fiddler") if state.day >= 6 else ("hellslibrarian",):
            if fabled not in state.fabled:
                moves.append(AddFabled(player=st, fabled=fabled))
        if "hellslibrarian" in state.fabled:
            moves.append(Silence(player=st, on=not state.silence))
    demons = [s for s in state.seats if s.alive and chars(state)[s.character].team == "demon"]
    if "fiddler" in state.fabled and state.fiddle is None and state.phase in ("day", "night") and len(demons) == 1:
        moves.append(StartFiddle(player=st))
    return moves


# ----- Hell's Librarian -----

def silent(state: ClocktowerState) -> bool:
    """Whether it is a silence Hell's Librarian watches: the night, or a silence the Storytellers called."""
    return "hellslibrarian" in state.fabled and (state.phase == "night" or state.silence)


def breaks_silence(state: ClocktowerState, player: str, place: str) -> bool:
    if place not in ("town_square", "announcements") or not silent(state):
        return False
    if not any(s.player == player for s in state.seats):
        return False
    return not any(r.player == player and r.source == "hellslibrarian" for r in state.reminders)


def silence_broken(state: ClocktowerState, player: str, place: str) -> list[Event]:
    state.reminders.append(Reminder(player=player, token="Something Bad", source="hellslibrarian"))
    where = "the town square" if place == "town_square" else "the announcement thread"
    when = "at night" if state.phase == "night" else "during the silence you called"
    return [Event(type="silence_broken", audience=STORYTELLER, title="🤫 Hell's Librarian",
                  text=f"{state.label(player)} spoke in {where} {when}: something bad might happen to them. "
                       "A Something Bad token is on the grimoire (later posts are not reported again until "
                       "you remove it).")]


def silence(state: ClocktowerState, action: Silence, rng: Rng) -> Outcome:
    if "hellslibrarian" not in state.fabled:
        raise illegal("Hell's Librarian is not in play: `/st fabled add hellslibrarian` first (it is announced).",
                      "no_librarian")
    if state.phase != "day":
        raise illegal("The night is silent already; call for silence by day.", "not_day")
    if action.on == state.silence:
        raise illegal("The town is silent already." if action.on else "There is no silence to end.", "unchanged")
    state.silence = action.on
    text = ("🤫 The Storytellers call for **silence** in the town square and the announcement thread. Something "
            "bad might happen to whoever speaks (Hell's Librarian)." if action.on else
            "🔔 The silence is over: talk freely.")
    return Outcome(state=state, events=[public("silence", text, title="Hell's Librarian")],
                   reply="Silence called." if action.on else "The silence is over.")


#: the Storytellers' Fabled actions, and the players' in the fiddle contest
HANDLERS: dict[str, Handler] = {
    "add_fabled": add_fabled, "remove_fabled": remove_fabled, "fiddle": start_fiddle,
    "fiddle_challenge": fiddle_challenge, "fiddle_vote": fiddle_vote, "silence": silence}
