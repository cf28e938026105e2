"""Blood on the Clocktower by forum, on the engine protocol: the whole game at a glance.

The bot is the Storytellers' assistant: every action is either bookkeeping the Storyteller asks
for (``StorytellerAction``) or a mechanical rule. Every action is in the game's log, so
``python -m games replay`` reproduces a whole game, the Storyteller's choices included.

Phases: "setup" (the Storyteller checks the deal; nothing is sent), then the cycle from
``/st begin``: "night" and "day", each in stages with real deadlines (``stages``, ``clock``),
"fiddle" for the Fiddler's contest, and "ending" while the Storytellers confirm a mechanical end.

Here: the setup (the deal and ``begin``), what each viewer sees, the prompts, the result, and the
handler table, made of each concern's own table (``clock``, ``day``, ``grimoire``, ``night``,
``inform``, ``talk``, ``travellers``, ``fabled``). The actions are declared in ``actions``; the
helpers every rule uses are in ``rules``.
"""

from __future__ import annotations

import json
import re
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from games.engine import (
    STORYTELLER,
    Action,
    BaseState,
    Event,
    Game,
    IllegalAction,
    Outcome,
    Player,
    PlayerResult,
    Prompt,
    Result,
    Rng,
    SetupError,
    View,
    private,
    public,
    to_thread,
)

from . import (
    bmr_judge,
    clock,
    day,
    fabled,
    grimoire,
    inform,
    night,
    snv_klutz,
    snv_travellers,
    talk,
    travellers,
)
from .actions import (
    ACTIONS,
    MAX_SEAT,
    MAX_TRAVELLERS,
    MAX_TRAVELLERS_OFFICIAL,
    AddTraveller,
    Begin,
    Continue,
    DeclareWinner,
    EndVoting,
    Haircut,
    Inform,
    Kill,
    NightChoice,
    Redeal,
    Tell,
    Unvote,
    Vote,
    WaitressAnswer,
)
from .bmr_information import place_grandchild
from .catalogue import load as load_catalogue
from .characters import Characters
from .clock import nightfall
from .copilot import proposals
from .day import vote_prompts, voting_seat
from .deal import deal
from .deal_any import deal_script
from .fabled import fabled_event, fabled_moves, fiddle_moves, fiddle_prompts
from .info import deal_message, evil_lines, grimoire_picture, grimoire_text
from .inform import information_recap
from .night import night_prompts
from .options import Options, SetupOptions, settings_of
from .reveal import change_records, changes_recap, grimoire_marks, held_now, tokens_now
from .rules import DEALT_TEAMS, character_id, chars, illegal, most_travellers, need_phase
from .script import Script, ScriptError, builtin_script, edition_of, edition_script, parse_script
from .script_characters import characters_for, homebrew_for_deal
from .script_text import Sheet, script_sheet, sheet_of_state
from .setup_tokens import place_red_herring
from .snv_judged import judged_recap
from .snv_setup import place_twin
from .snv_travellers import snv_traveller_moves
from .snv_twins import good_blocked
from .stages import day_ends, night_ends, stage_seconds, stages
from .state import ClocktowerState, LunaticInfo, Seat, stored_seats
from .talk import breaks_whisper, spoke_matters, talk_moves, whisper_recap
from .tally import early_end_refusal, tally, tally_event, votes_recap
from .travellers import traveller_moves

#: public events whose words are the rulebook's own (the Djinn's jinxes, what the announcement
#: thread is for): they name characters, but never say who is which
RULES_TEXT = frozenset({"fabled", "announcements"})
#: public events that repeat what a player announced (anyone may claim any character): they are
#: the same whoever makes them, so they tell nothing of the grimoire
PLAYERS_CLAIMS = frozenset({"announcement"})


class ForcedDeal(BaseModel):
    """A deal chosen in advance, for tests and bug reports (never from a Discord command)."""

    model_config = ConfigDict(extra="forbid")
    characters: dict[str, str] = Field(default_factory=dict)  # player id -> character
    shown: dict[str, str] = Field(default_factory=dict)       # player id -> false card
    bluffs: list[str] = Field(default_factory=list)
    lunatic_minions: list[str] = Field(default_factory=list)
    lunatic_bluffs: list[str] = Field(default_factory=list)


def read_script(options: SetupOptions) -> Script:
    if not options.script:
        return builtin_script()
    edition = edition_of(options.script) if len(options.script) < 40 else None
    if edition is not None:
        return edition_script(edition)
    try:
        return parse_script(options.script)
    except ScriptError as exc:
        raise SetupError(str(exc), code="bad_script") from None


def fabled_at_start(script: Script, options: SetupOptions) -> list[str]:
    """The Fabled in play from the start: every Fabled on an official script (they are its rules),
    and on Her Royal Highness Register the Djinn, as its option says (the rulebook: yes)."""
    if script.rules == "official":
        return list(script.characters.get("fabled", ()))
    return ["djinn"] if options.djinn and "djinn" in script.all_ids() else []


def read_pool(text: str, script: Script) -> tuple[str, ...]:
    """A pool as a Storyteller writes it: empty or ``all`` for every dealable character of the
    script, a list (``washerwoman, high priestess, po``), or only exclusions (``-baron -po``).
    Names are separated by commas, or by spaces when there is no comma."""
    dealable = tuple(cid for team in DEALT_TEAMS for cid in script.characters.get(team, ()))
    words = [w.strip() for w in (text.split(",") if "," in text else text.split()) if w.strip()]
    if not words or [w.lower() for w in words] == ["all"]:
        return dealable
    if all(w.startswith("-") for w in words):
        dropped = set(check_pool([w[1:] for w in words], script))
        return tuple(c for c in dealable if c not in dropped)
    return check_pool(words, script)


def check_pool(ids: list[str], script: Script) -> tuple[str, ...]:
    """The pool's character ids, each once; anything not a dealable character of the script
    is refused by name."""
    pool: list[str] = []
    for raw in ids:
        character = characters_for(script).resolve(raw)
        if character is None or character.id not in script.all_ids():
            raise SetupError(f"{raw!r} is not a character of the script {script.name!r}.", code="bad_pool")
        if character.team not in DEALT_TEAMS:
            raise SetupError(f"The {character.name} is never dealt; a Storyteller brings "
                             f"{'Travellers' if character.team == 'traveller' else 'Fabled'} "
                             "in with their own command.", code="bad_pool")
        if character.id not in pool:
            pool.append(character.id)
    return tuple(pool)


def deal_seats(state: ClocktowerState, rng: Rng, pool: tuple[str, ...]) -> tuple[str, ...]:
    """Deal at random: Her Royal Highness Register by its rulebook, any other script by the official
    counts and set-up changes. Returns what the deal could not do itself, for the Storytellers."""
    players = [p.id for p in state.players]
    if state.script.rules == "hrh":
        made = deal(players, pool, rng, marionette_neighbours=state.settings.marionette_neighbours,
                    script=state.script.all_ids())
    else:
        made = deal_script(players, pool, rng, script=state.script.all_ids(),
                           homebrew=homebrew_for_deal(state.script))
    state.seats = [Seat(player=d.player, seat=state.players[i].seat or i + 1, character=d.character,
                        shown=d.shown, alignment=d.alignment) for i, d in enumerate(made.seats)]
    state.bluffs = made.bluffs
    state.reminders = [r for r in state.reminders if r.source == ""]
    state.lunatic = lunatic_info(state, rng)
    place_red_herring(state, rng)
    place_twin(state, rng)
    place_grandchild(state, chars(state), rng)
    return made.notes


def lunatic_info(state: ClocktowerState, rng: Rng) -> LunaticInfo | None:
    """The Lunatic's made-up Minions (as many as there are real ones) and bluffs."""
    lunatics = state.by_character("lunatic")
    if not lunatics:
        return None
    lunatic = lunatics[0].player
    count = sum(1 for s in state.seats if chars(state)[s.character].team == "minion")
    others = sorted(s.player for s in state.seats if s.player != lunatic)
    in_play = {s.character for s in state.seats} | {s.shown for s in state.seats}
    good = sorted(c for team in ("townsfolk", "outsider") for c in state.script.characters.get(team, ())
                  if c not in in_play and chars(state)[c].false_card is None)
    return LunaticInfo(minions=tuple(rng.sample(others, count)),
                       bluffs=tuple(rng.sample(good, min(3, len(good)))))


def force_deal(state: ClocktowerState, forced: ForcedDeal) -> None:
    ids = [p.id for p in state.players]
    if set(forced.characters) != set(ids):
        raise SetupError("A forced deal names every seated player once.", code="bad_setup")
    seats = []
    for p in state.players:
        character = character_id(state, forced.characters[p.id], DEALT_TEAMS)
        shown = character_id(state, forced.shown.get(p.id, character), DEALT_TEAMS)
        if chars(state)[character].false_card and shown == character:
            raise SetupError(f"A forced deal gives the {chars(state)[character].name} a false card.",
                             code="bad_setup")
        seats.append(Seat(player=p.id, seat=p.seat or 0, character=character, shown=shown,
                          alignment="good" if chars(state)[character].good else "evil"))
    state.seats = seats
    state.bluffs = tuple(character_id(state, b, DEALT_TEAMS) for b in forced.bluffs)
    if state.by_character("lunatic"):
        state.lunatic = LunaticInfo(minions=tuple(forced.lunatic_minions),
                                    bluffs=tuple(character_id(state, b, DEALT_TEAMS) for b in forced.lunatic_bluffs))


def copies_allowed(state: ClocktowerState, character: str) -> bool:
    """Whether the deal may give this character to several players (Legion, the Village Idiot)."""
    if state.script.rules == "hrh":
        return False
    if any(c.id == character and "bag-duplicate" in c.special for c in state.script.homebrew):
        return True
    change = load_catalogue().setup.get(character)
    return change is not None and (change.majority or max(change.copies) > 0)


def deal_note(note: str, notes: tuple[str, ...]) -> str:
    """The grimoire's heading: the note, then what the deal asks of the Storytellers (Lil' Monsta's
    babysitter, the drunk Village Idiot...)."""
    return note + "".join(f"\n• {n}" for n in notes)


def grimoire_event(state: ClocktowerState, note: str) -> Event:
    return Event(type="grimoire", audience=STORYTELLER, title="📜 Grimoire",
                 text=f"{note}\n\n{grimoire_text(state, chars(state), grimoire_marks(state))}", image="grimoire")


def redeal(state: ClocktowerState, action: Redeal, rng: Rng) -> Outcome:
    need_phase(state, "setup", doing="re-deal")
    pool = state.pool
    if action.pool is not None:
        try:
            pool = check_pool(action.pool, state.script)
        except SetupError as exc:
            raise illegal(str(exc), "bad_pool") from None
    try:
        notes = deal_seats(state, rng, pool)
    except SetupError as exc:
        raise illegal(str(exc), "bad_pool") from None
    state.pool = pool
    state.deals += 1
    return Outcome(state=state, events=[grimoire_event(state, deal_note(f"Deal {state.deals}, at random.", notes))],
                   reply=f"Dealt again (deal {state.deals}). The grimoire is in the Storytellers' thread.")


def begin(state: ClocktowerState, action: Begin, rng: Rng) -> Outcome:
    need_phase(state, "setup", doing="begin the game")
    events = [private(s.player, "character", deal_message(state, chars(state), s.player),
                      title="🕯️ Your character") for s in state.seats]
    events += nightfall(state, "The characters are out: yours is in your private thread with the "
                              "Storytellers.")
    events.append(Event(type="announcements", audience=to_thread("announcements"),
                        title="📣 Public announcements",
                        text="This thread is for the game's public announcements (Alsaahir and Juggler "
                             "guesses, Goblin claims) and whisper requests (`/whisper`). Announcements "
                             "count only in the first 36 hours of a day."))
    for fabled_id in state.fabled:
        events.append(fabled_event(state, fabled_id))
    events.append(Event(type="begun", audience=STORYTELLER, title="📜 The characters are out",
                        text=f"Every player has their character. Night 1 has begun.\n\n"
                             f"{grimoire_text(state, chars(state), grimoire_marks(state))}"))
    return Outcome(state=state, events=events, reply="The characters are out. Night 1 has begun.")


#: Her Royal Highness Register's player counts (its rulebook's table)
HRH_PLAYERS = (7, 15)


class Clocktower(Game):
    name = "clocktower"
    title = "Blood on the Clocktower"
    #: the official counts (5 to 15); Her Royal Highness Register's deal refuses fewer than 7 in words
    min_players = 5
    max_players = 15
    Options = Options
    Setup = ForcedDeal
    State = ClocktowerState
    actions = ACTIONS
    private_threads = True
    storytellers = True
    seats = True
    max_travellers = MAX_TRAVELLERS_OFFICIAL
    fixed_schedule = True
    #: set at the deal and rarely changed after (the pool only by a re-deal in set-up; the players,
    #: each a name by seat, only by a Traveller's arrival or departure and a substitute, each time a
    #: new list; the settings never): stored apart
    fixed_fields = ("script", "pool", "players", "settings")
    welcome = ("Blood on the Clocktower for a new group: Trouble Brewing, the script played first "
               "(`/game new kind:clocktower options:script=tb`; 5 to 15 players, the Storyteller not seated).")
    truth_command = "/st grimoire"

    #: every action's handler, by the action's type (a new action goes in ``actions`` and in the
    #: table of the module of its concern)
    handlers = {"redeal": redeal, "begin": begin, **clock.HANDLERS, **day.HANDLERS, **grimoire.HANDLERS,
                **night.HANDLERS, **inform.HANDLERS, **talk.HANDLERS, **travellers.HANDLERS, **fabled.HANDLERS,
                **bmr_judge.HANDLERS, **snv_klutz.HANDLERS,
                **snv_travellers.HANDLERS}

    def _apply(self, state: ClocktowerState, action: Action, rng: Rng) -> Outcome:
        """Dispatch, then record each character, alignment or gained ability the action changed (the
        end reveal tells them in order: ``reveal.py``)."""
        held, tokens, when = held_now(state), tokens_now(state), (state.phase, state.night, state.day)
        outcome = super()._apply(state, action, rng)
        if held and held_now(outcome.state) != held:  # (no seat changed: nothing to compare seat by seat)
            before = {h[0]: h[1:] for h in held}  # (seats_now, from what was taken)
            outcome.events += change_records(before, tokens, when, getattr(action, "type", ""),
                                             outcome.state, outcome.events)
        return outcome

    def dump_state(self, state: BaseState) -> str:
        """As every game's, with the seats' stored form made once for the same seats (``stored_seats``):
        most steps, a day's votes above all, change no seat."""
        assert isinstance(state, ClocktowerState)
        rest = state.model_dump_json(exclude_defaults=True, exclude={*self.fixed_fields, "seats"})
        seats = '{"seats":' + stored_seats(state.seats)
        return seats + "}" if rest == "{}" else seats + "," + rest[1:]

    def chars_of(self, state: ClocktowerState) -> Characters:
        """The game's characters (the bot's copilot panel reads them from the game)."""
        return chars(state)

    def parse_options(self, data: dict[str, Any] | None) -> SetupOptions:
        options = super().parse_options(data)
        assert isinstance(options, SetupOptions)  # validated by ``Options``, made on ``SetupOptions``
        settings_of(options)  # a cycle that does not fit together is refused now
        script = self.script_of(options)
        self.parse_pool(options.pool, script)  # a pool naming what the script lacks is refused now
        return options

    def player_range(self, options: dict[str, Any] | BaseModel | None) -> tuple[int, int]:
        """5 to 15 on any script by the official counts; Her Royal Highness Register's own 7 to 15."""
        setup = options if isinstance(options, SetupOptions) else self.parse_options(
            options if isinstance(options, dict) or options is None else options.model_dump())
        if self.script_of(setup).rules == "hrh":
            return HRH_PLAYERS
        return self.min_players, self.max_players

    def script_of(self, options: SetupOptions) -> Script:
        return read_script(options)

    def parse_pool(self, text: str, script: Script) -> tuple[str, ...]:
        return read_pool(text, script)

    def script_sheet(self, options: dict[str, Any] | None, state: ClocktowerState | None) -> Sheet:
        """``/game script``: the script as a player reads it, from the dealt game's state, or
        before the deal from the table's options (the script loaded, the Djinn if it is on)."""
        if state is not None:
            return sheet_of_state(state)
        setup = self.parse_options(options)
        script = read_script(setup)
        return script_sheet(script, fabled=fabled_at_start(script, setup))

    def _setup(self, players: list[Player], options: SetupOptions, rng: Rng,
               forced: ForcedDeal) -> Outcome:
        script = read_script(options)
        pool = read_pool(options.pool, script)
        seated = sorted(enumerate(players), key=lambda ip: (ip[1].seat if ip[1].seat is not None else ip[0] + 1))
        players = [Player(id=p.id, name=p.name, seat=p.seat if p.seat is not None else i + 1) for i, p in seated]
        numbers = [p.seat for p in players]
        if len(set(numbers)) != len(numbers):
            raise SetupError("Two players chose the same seat.", code="seat_taken")
        state = ClocktowerState(
            players=players, phase="setup", script=script, pool=pool,
            settings=settings_of(options),
            seats=[], fabled=fabled_at_start(script, options))
        notes: tuple[str, ...] = ()
        if forced.characters:
            force_deal(state, forced)
        else:
            notes = deal_seats(state, rng, pool)
        seat_list = "\n".join(f"{p.seat} · {p.name}" for p in players)
        return Outcome(state=state, events=[
            public("seated", f"Sign-ups are closed. The circle, clockwise:\n{seat_list}\n\n"
                   "The Storyteller is checking the deal; your characters arrive in your private "
                   "thread when the first night begins.", title="🕯️ The seats are taken"),
            grimoire_event(state, deal_note("The deal is ready. Check it, then `/st redeal` or `/st begin`.", notes)),
        ])

    def view(self, state: ClocktowerState, viewer: str | None) -> View:
        if viewer == "storyteller" or (state.finished and viewer is not None):
            return View(text=grimoire_text(state, chars(state), grimoire_marks(state)), data={"grimoire": grimoire_picture(state, chars(state), marks=grimoire_marks(state))})
        if viewer is None:
            return View(text=self._public_text(state), data={"seats": [
                {"seat": s.seat, "player": s.player, "alive": s.alive, "vote_token": s.vote_token,
                 "traveller": s.traveller} for s in state.seats]})
        seat = state.seat_of(viewer)
        if state.phase == "setup":
            return View(text=f"You sit in seat {seat.seat}. Your character arrives when the first night begins.")
        lines = [deal_message(state, chars(state), viewer)]
        lines.append("You are alive." if seat.alive else
                     "You are dead" + (": you still have your vote token." if seat.vote_token else
                                       ", and your vote token is spent."))
        return View(text="\n\n".join(lines), data={"seat": seat.seat, "shown": seat.shown,
                                                    "evil_info": evil_lines(state, chars(state), viewer)})

    def _public_text(self, state: ClocktowerState) -> str:
        if state.phase == "setup":
            return "Sign-ups are closed; the Storyteller is checking the deal."
        heading = {"night": f"Night {state.night}" + {"locked": ": night actions are locked"}.get(state.stage, ""),
                   "ending": f"Day {state.day} is over", "fiddle": "The fiddle contest", "over": "The game is over",
                   "day": f"Day {state.day}" + {"nominations": ": nominations and votes", "voting": ": votes only",
                                                 "final": ": votes only, announcements closed"}.get(state.stage, "")}
        lines = [f"**{heading.get(state.phase, state.phase.capitalize())}**"]
        for s in state.seats:
            status = "alive" if s.alive else ("dead, vote token left" if s.vote_token else "dead, vote spent")
            extra = f" · Traveller: {chars(state)[s.character].name}" if s.traveller else ""
            lines.append(f"{s.seat} · {state.name(s.player)}: {status}{extra}")
        if state.fabled:
            lines.append("Fabled: " + ", ".join(chars(state)[f].name for f in state.fabled))
        return "\n".join(lines)

    def result(self, state: ClocktowerState) -> Result:
        return Result(finished=state.finished, phase=state.phase, round=state.round, outcome=state.outcome,
                      winners=state.winners, players=[
                          PlayerResult(id=s.player, name=state.name(s.player), role=chars(state)[s.character].name,
                                       team=s.alignment, alive=s.alive) for s in state.seats])

    def phase_seconds(self, state: ClocktowerState) -> float | None:
        return stage_seconds(state)

    def choices_since(self, state: ClocktowerState) -> int:
        """The first ``phase_seq`` whose choices are still open (the bot keeps that phase's
        prompts and buttons): a night's choices stay open from dusk through the reminder stage
        until the lock, though the reminder stage has a ``phase_seq`` of its own."""
        if state.phase == "night" and state.stage == "closing":
            names = [name for name, _ in stages(state.settings, "night")]
            return state.phase_seq - names.index("closing")
        return state.phase_seq

    def timed_slots(self, state: ClocktowerState) -> list[Event]:
        """The living messages that count down to the stage's deadlines (the day's tally): the bot
        re-times them when a moderator moves, pauses or resumes the stage."""
        if state.phase == "day" and state.pending_end is None and not state.voting_closed:
            return [tally_event(state)]
        return []

    def living(self, state: ClocktowerState) -> list[Event]:
        """The day's tally, drawn from the state when it is shown, while its votes are open."""
        return self.timed_slots(state)

    def board_ends(self, state: ClocktowerState) -> list[list]:
        """The deadlines a player cares about now, each as [label, seconds after the current
        stage's deadline]: by night the lock and dawn, by day the closing of nominations,
        announcements and votes (the day's tally shows the same)."""
        if state.phase == "night":
            return night_ends(state)
        if state.phase == "day" and state.pending_end is None:
            return day_ends(state)
        return []

    def prompts(self, state: ClocktowerState, player_id: str) -> list[Prompt]:
        if state.phase == "fiddle":
            return fiddle_prompts(state, player_id)
        if state.phase == "night":
            return night_prompts(state, player_id)
        return vote_prompts(state, player_id)

    def spoke_matters(self, state: ClocktowerState, player: str, place: str) -> bool:
        """Whether the rules care that ``player`` posted at ``place`` (the bot's listener asks
        before sending ``Spoke``): see ``talk.spoke_matters``."""
        return spoke_matters(state, player, place)

    def breaks_whisper(self, state: ClocktowerState, player: str, place: str) -> bool:
        return breaks_whisper(state, player, place)

    def no_vote_reason(self, state: ClocktowerState, player_id: str) -> str:
        try:
            voting_seat(state, player_id)
        except IllegalAction as exc:
            return exc.message
        return super().no_vote_reason(state, player_id)

    def picture(self, state: ClocktowerState, image: str) -> dict[str, Any] | None:
        if image == "grimoire":
            return grimoire_picture(state, chars(state), marks=grimoire_marks(state))
        return None

    def draw(self, picture: dict[str, Any]) -> bytes | None:
        from .picture import draw_grimoire
        return draw_grimoire(picture)

    def legal_actions(self, state: ClocktowerState) -> list[Action]:
        """Every move for random play-throughs: the players' votes, and the Storyteller's (a
        Storyteller id of "storyteller"): at night a kill or a note, by day an early end when
        allowed, and at a mechanical end its confirmation or going on."""
        st = "storyteller"
        if state.phase == "setup":
            return [Begin(player=st), Redeal(player=st)]
        if state.phase == "ending" and state.pending_end is not None:
            return [DeclareWinner(player=st, team=state.pending_end.team), Continue(player=st)]
        if state.phase == "fiddle":
            return fiddle_moves(state)
        moves: list[Action] = fabled_moves(state)
        if state.phase == "night":
            for prompt_owner in state.seats:
                for prompt in self.prompts(state, prompt_owner.player):
                    kind = Haircut if prompt.action == "haircut" else NightChoice
                    if prompt.action in ("night_choice", "haircut") and not prompt.fields:  # yes, no, or no-one
                        moves.append(kind(player=prompt_owner.player, **prompt.extra))
                    elif prompt.action in ("night_choice", "night_character") and prompt.fields[0].into == "character":
                        field = prompt.fields[state.night % len(prompt.fields)]
                        pick = field.choices[(state.night + prompt_owner.seat) % len(field.choices)]
                        moves.append(NightChoice(player=prompt_owner.player, character=pick.value))
                    elif prompt.action in ("night_choice", "haircut"):
                        field = prompt.fields[0]
                        picks = [c.value for c in field.choices if c.value != state.night_choices.get(
                            prompt_owner.player, [""])[0]][:field.max_values]
                        if len(picks) == field.max_values:
                            moves.append(kind(player=prompt_owner.player, targets=picks))
                    else:
                        moves.append(WaitressAnswer(player=prompt_owner.player, agree=prompt.extra["agree"]))
            for seat in state.seats:  # (one Demon's kill a night: the Demon itself lives)
                if seat.alive and not seat.traveller and chars(state)[seat.character].team != "demon" \
                        and not state.dawn_deaths:
                    moves.append(Kill(player=st, target=seat.player))
                moves.append(Tell(player=st, target=seat.player, text="You learn 2."))
            moves += traveller_moves(state) + snv_traveller_moves(state)
            for found in proposals(state, chars(state)) if state.stage == "locked" else []:  # accepted or edited
                if found.ready:
                    moves.append(Inform(player=st, target=found.player))
                if found.allowed:
                    moves.append(Inform(player=st, target=found.player, answer=found.allowed[-1]))
                elif found.allowed is None and found.form is None and found.check is None:  # judged freely
                    moves.append(Inform(player=st, target=found.player,
                                        answer=f"As the Storytellers judge, night {state.night}."))
            return moves
        if state.phase != "day":
            return moves
        if not state.voting_closed and not early_end_refusal(state, tally(state)):
            moves.append(EndVoting(player=st))
        travellers = [s for s in state.seats if s.traveller]
        free = [c for c in state.script.characters.get("traveller", ()) if not state.by_character(c)]
        if len(travellers) < most_travellers(state) and free and state.seats[-1].seat < MAX_SEAT:
            n = state.seats[-1].seat + 1
            moves.append(AddTraveller(player=st, target=f"traveller{n}", name=f"Traveller{n}", seat=n,
                                      character=free[n % len(free)], alignment="good" if n % 2 else "evil"))
        moves += talk_moves(state) + snv_traveller_moves(state)
        for prompt_owner in state.seats:
            for prompt in self.prompts(state, prompt_owner.player):
                if prompt.action == "unvote":
                    moves.append(Unvote(player=prompt_owner.player))
                    continue
                for choice in prompt.fields[0].choices:
                    if state.votes.get(prompt_owner.player) != choice.value:
                        moves.append(Vote(player=prompt_owner.player, target=choice.value))
        return moves

    def check_invariants(self, state: ClocktowerState, events: list[Event]) -> list[str]:
        problems = []
        events = self.faces(state, events)  # a living message checked as it is shown
        if [p.id for p in state.players] != [s.player for s in state.seats]:
            problems.append("the engine's players are not the seats in order")
        numbers = [s.seat for s in state.seats]
        if numbers != sorted(set(numbers)):
            problems.append(f"seat numbers not distinct and in order: {numbers}")
        if state.pending_end is not None and state.pending_end.team == "good" and good_blocked(state, note=False):
            problems.append("good's win proposed while both twins live")
        regular = [s.character for s in state.seats if not s.traveller and not copies_allowed(state, s.character)]
        if state.phase == "setup" and len(set(regular)) != len(regular):
            problems.append("two players were dealt the same character")
        for event in events:
            for p in event.data.get("proposals", []) if event.type == "night_information" else []:
                if p["ready"] and p["allowed"] is not None and p["answer"] not in p["allowed"]:
                    problems.append(f"proposed {p['answer']!r} to {p['player']}, outside {p['allowed']}")
            if event.image == "grimoire" and event.audience.kind != "storyteller" and not state.finished:
                problems.append(f"the grimoire picture in a {event.audience.kind} event")
            if state.finished or event.audience.kind not in ("public", "thread") or \
                    event.type in RULES_TEXT | PLAYERS_CLAIMS:
                continue
            text = json.dumps([event.text, event.title, event.data]).lower()
            for public_name in (chars(state)[f].name.lower() for f in state.fabled):  # "Hell's Librarian"
                text = text.replace(public_name, "")
            for seat in state.seats:
                if seat.traveller:
                    continue
                for secret in {seat.character, seat.shown}:
                    if re.search(rf"\b{re.escape(chars(state)[secret].name.lower())}\b", text):
                        problems.append(f"public {event.type} event names {chars(state)[secret].name}")
        return problems

    def recap(self, state: ClocktowerState, records: list[Event]) -> list[Event]:
        """At the end: every day's votes, every day's whispers, every night's information, what the
        Storytellers judged, and every character change."""
        days = votes_recap(state, records)
        events = [public("chronicle", days, title="🗳️ Every day's votes")] if days else []
        talk = whisper_recap(state, records)
        if talk:
            events.append(public("whisper_recap", talk, title="🤫 Every day's whispers (how many each player was in)"))
        events += information_recap(state, records)
        events += judged_recap(state, records)
        events += changes_recap(state, records)
        return events

    def rules_summary(self) -> str:
        return ("A forum game of 5-15 players and up to 5 Travellers (Her Royal Highness Register: 7-15 and 2), "
                "run by human Storytellers whom the bot serves, on any script (the base editions by name, or a "
                "Script Tool file). Good wins when every Demon is dead; evil wins when only 2 players (not counting "
                "Travellers) live. Sign up with `/in seat:N`, `/travel in seat:N`, or `/spectate`. Each "
                "player's character arrives in a private thread with the Storytellers.")

    def rounds(self, state: ClocktowerState) -> int:
        return state.night


GAME = Clocktower()

__all__ = ["GAME", "MAX_TRAVELLERS", "Clocktower", "ForcedDeal"]
