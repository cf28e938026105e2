"""Blood on the Clocktower by forum, on the engine protocol: the table and the Storyteller's commands.

The bot is the Storytellers' assistant: every action here is either bookkeeping the Storyteller
asks for (``StorytellerAction``) or a mechanical rule. Every action is in the game's log, so
``python -m games replay`` reproduces a whole game, the Storyteller's choices included.

Phases: "setup" (the Storyteller checks the deal; nothing is sent), then the cycle from
``/st begin``: "night" and "day", each in stages with real deadlines (see ``day.stages``), and
"ending" while the Storytellers confirm a mechanical end. The night abilities come with issue 13.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from games.engine import (
    STORYTELLER,
    SUBSTITUTE,
    Action,
    Choice,
    EndGame,
    Event,
    Game,
    IllegalAction,
    Outcome,
    PhaseTimeout,
    Player,
    PlayerResult,
    Prompt,
    PromptField,
    RemovePlayer,
    Result,
    SetupError,
    View,
    private,
    public,
    record,
    to_thread,
)

from .actions import (
    ACTIONS,
    MAX_SEAT,
    AddFabled,
    AddReminder,
    AddTraveller,
    AlsaahirGuess,
    Begin,
    Continue,
    CountNegatively,
    DeclareWhisper,
    DeclareWinner,
    EndVoting,
    Execute,
    ExileVote,
    GoblinClaim,
    Inform,
    JugglerGuess,
    Kill,
    NeighbourWhisper,
    NightChoice,
    Redeal,
    RemoveFabled,
    RemoveReminder,
    Revive,
    SetAlignment,
    SetCharacter,
    Spoke,
    Substitute,
    Tell,
    TravellerLeaves,
    Unvote,
    Vote,
    WaitressAnswer,
)
from .characters import Characters, load
from .copilot import proposals
from .day import (
    NO_EXECUTION,
    Tally,
    can_vote,
    day_ends,
    early_end_refusal,
    mechanical_end,
    next_stage,
    night_ends,
    option_label,
    stage_seconds,
    stages,
    standing,
    tally,
    tally_text,
    weight,
)
from .deal import deal
from .fabled import FabledRules
from .info import card, deal_message, evil_lines, grimoire_picture, grimoire_text, names
from .inform import InformRules
from .night import NightRules, ask_for
from .options import Options, settings_of
from .resolve import lleech_host, plan_night
from .rules import (
    after_deal,
    character_id,
    choice_text,
    finish,
    hours,
    illegal,
    impaired,
    need_phase,
    plural,
    set_stage,
    talk_data,
    target_seat,
    who,
)
from .script import Script, ScriptError, builtin_script, parse_script
from .state import ClocktowerState, LunaticInfo, Nomination, PendingEnd, Reminder, Seat
from .talk import (
    TalkRules,
    neighbours,
    whisper_costs,
    whisper_limit,
    whisper_recap,
)
from .travellers import TravellerRules

#: the most Travellers in play at once (the rulebook: "a maximum of ... 2 Travellers")
MAX_TRAVELLERS = 2
DEALT_TEAMS = ("townsfolk", "outsider", "minion", "demon")
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


class Clocktower(TalkRules, NightRules, InformRules, TravellerRules, FabledRules, Game):
    name = "clocktower"
    title = "Blood on the Clocktower: Her Royal Highness Register"
    min_players = 7
    max_players = 15
    Options = Options
    Setup = ForcedDeal
    State = ClocktowerState
    actions = ACTIONS
    private_threads = True
    storytellers = True
    seats = True
    max_travellers = MAX_TRAVELLERS
    fixed_schedule = True

    @property
    def chars(self) -> Characters:
        return load()

    # ----- options and script -----
    def parse_options(self, data: dict[str, Any] | None) -> Options:
        options = super().parse_options(data)
        settings_of(options)  # a cycle that does not fit together is refused now
        script = self.script_of(options)
        self.parse_pool(options.pool, script)  # a pool naming what the script lacks is refused now
        return options


    def script_of(self, options: Options) -> Script:
        if not options.script:
            return builtin_script()
        try:
            return parse_script(options.script)
        except ScriptError as exc:
            raise SetupError(str(exc), code="bad_script") from None

    def pool_of(self, options: Options, script: Script) -> tuple[str, ...]:
        return self.parse_pool(options.pool, script)

    def parse_pool(self, text: str, script: Script) -> tuple[str, ...]:
        """A pool as a Storyteller writes it: empty or ``all`` for every dealable character of the
        script, a list (``washerwoman, high priestess, po``), or only exclusions (``-baron -po``).
        Names are separated by commas, or by spaces when there is no comma."""
        dealable = tuple(cid for team in DEALT_TEAMS for cid in script.characters.get(team, ()))
        words = [w.strip() for w in (text.split(",") if "," in text else text.split()) if w.strip()]
        if not words or [w.lower() for w in words] == ["all"]:
            return dealable
        if all(w.startswith("-") for w in words):
            dropped = set(self.check_pool([w[1:] for w in words], script))
            return tuple(c for c in dealable if c not in dropped)
        return self.check_pool(words, script)

    def check_pool(self, ids: list[str], script: Script) -> tuple[str, ...]:
        """The pool's character ids, each once; anything not a dealable character of the script
        is refused by name."""
        pool: list[str] = []
        for raw in ids:
            character = self.chars.resolve(raw)
            if character is None or character.id not in script.all_ids():
                raise SetupError(f"{raw!r} is not a character of the script {script.name!r}.", code="bad_pool")
            if character.team not in DEALT_TEAMS:
                raise SetupError(f"The {character.name} is never dealt; a Storyteller brings "
                                 f"{'Travellers' if character.team == 'traveller' else 'Fabled'} "
                                 "in with their own command.", code="bad_pool")
            if character.id not in pool:
                pool.append(character.id)
        return tuple(pool)

    # ----- setup: the deal, shown to the Storytellers only -----
    def _setup(self, players: list[Player], options: Options, rng: random.Random,
               forced: ForcedDeal) -> Outcome:
        script = self.script_of(options)
        pool = self.pool_of(options, script)
        seated = sorted(enumerate(players), key=lambda ip: (ip[1].seat if ip[1].seat is not None else ip[0] + 1))
        players = [Player(id=p.id, name=p.name, seat=p.seat if p.seat is not None else i + 1) for i, p in seated]
        numbers = [p.seat for p in players]
        if len(set(numbers)) != len(numbers):
            raise SetupError("Two players chose the same seat.", code="seat_taken")
        state = ClocktowerState(
            players=players, phase="setup", script=script, pool=pool,
            settings=settings_of(options),
            seats=[], fabled=["djinn"] if options.djinn and "djinn" in script.all_ids() else [])
        if forced.characters:
            self._force(state, forced)
        else:
            self._deal(state, rng, pool)
        seat_list = "\n".join(f"{p.seat} · {p.name}" for p in players)
        return Outcome(state=state, events=[
            public("seated", f"Sign-ups are closed. The circle, clockwise:\n{seat_list}\n\n"
                   "The Storyteller is checking the deal; your characters arrive in your private "
                   "thread when the first night begins.", title="🕯️ The seats are taken"),
            self._grimoire_event(state, "The deal is ready. Check it, then `/st redeal` or `/st begin`."),
        ])

    def _deal(self, state: ClocktowerState, rng: random.Random, pool: tuple[str, ...]) -> None:
        made = deal([p.id for p in state.players], pool, rng,
                    marionette_neighbours=state.settings.marionette_neighbours, script=state.script.all_ids())
        state.seats = [Seat(player=d.player, seat=state.players[i].seat or i + 1, character=d.character,
                            shown=d.shown, alignment=d.alignment) for i, d in enumerate(made.seats)]
        state.bluffs = made.bluffs
        state.reminders = [r for r in state.reminders if r.source == ""]
        state.lunatic = self._lunatic_info(state, rng)

    def _lunatic_info(self, state: ClocktowerState, rng: random.Random) -> LunaticInfo | None:
        """The Lunatic's made-up Minions (as many as there are real ones) and bluffs."""
        lunatics = state.by_character("lunatic")
        if not lunatics:
            return None
        lunatic = lunatics[0].player
        count = sum(1 for s in state.seats if self.chars[s.character].team == "minion")
        others = sorted(s.player for s in state.seats if s.player != lunatic)
        in_play = {s.character for s in state.seats} | {s.shown for s in state.seats}
        good = sorted(c for team in ("townsfolk", "outsider") for c in state.script.characters.get(team, ())
                      if c not in in_play and self.chars[c].false_card is None)
        return LunaticInfo(minions=tuple(rng.sample(others, count)),
                           bluffs=tuple(rng.sample(good, min(3, len(good)))))

    def _force(self, state: ClocktowerState, forced: ForcedDeal) -> None:
        ids = [p.id for p in state.players]
        if set(forced.characters) != set(ids):
            raise SetupError("A forced deal names every seated player once.", code="bad_setup")
        seats = []
        for p in state.players:
            character = character_id(forced.characters[p.id], DEALT_TEAMS)
            shown = character_id(forced.shown.get(p.id, character), DEALT_TEAMS)
            if self.chars[character].false_card and shown == character:
                raise SetupError(f"A forced deal gives the {self.chars[character].name} a false card.",
                                 code="bad_setup")
            seats.append(Seat(player=p.id, seat=p.seat or 0, character=character, shown=shown,
                              alignment="good" if self.chars[character].good else "evil"))
        state.seats = seats
        state.bluffs = tuple(character_id(b, DEALT_TEAMS) for b in forced.bluffs)
        if state.by_character("lunatic"):
            state.lunatic = LunaticInfo(minions=tuple(forced.lunatic_minions),
                                        bluffs=tuple(character_id(b, DEALT_TEAMS) for b in forced.lunatic_bluffs))


    def _grimoire_event(self, state: ClocktowerState, note: str) -> Event:
        return Event(type="grimoire", audience=STORYTELLER, title="📜 Grimoire",
                     text=f"{note}\n\n{grimoire_text(state, self.chars)}", image="grimoire")

    # ----- actions -----
    def _apply(self, state: ClocktowerState, action: Action, rng: random.Random) -> Outcome:
        if isinstance(action, PhaseTimeout):
            return self._timeout(state)
        if isinstance(action, EndGame):
            return finish(state, "ended", [], "🛑 The game was ended by the Storyteller."
                                + (f" {action.reason}" if action.reason else ""))
        if isinstance(action, RemovePlayer):
            return self._remove(state, action)
        handler = getattr(self, f"_do_{action.type}")
        return handler(state, action, rng)


    def _do_redeal(self, state: ClocktowerState, action: Redeal, rng: random.Random) -> Outcome:
        need_phase(state, "setup", doing="re-deal")
        pool = state.pool
        if action.pool is not None:
            try:
                pool = self.check_pool(action.pool, state.script)
            except SetupError as exc:
                raise illegal(str(exc), "bad_pool") from None
        try:
            self._deal(state, rng, pool)
        except SetupError as exc:
            raise illegal(str(exc), "bad_pool") from None
        state.pool = pool
        state.deals += 1
        return Outcome(state=state, events=[self._grimoire_event(state, f"Deal {state.deals}, at random.")],
                       reply=f"Dealt again (deal {state.deals}). The grimoire is in the Storytellers' thread.")

    def _do_begin(self, state: ClocktowerState, action: Begin, rng: random.Random) -> Outcome:
        need_phase(state, "setup", doing="begin the game")
        events = [private(s.player, "character", deal_message(state, self.chars, s.player),
                          title="🕯️ Your character") for s in state.seats]
        events += self._nightfall(state, "The characters are out: yours is in your private thread with the "
                                  "Storytellers.")
        events.append(Event(type="announcements", audience=to_thread("announcements"),
                            title="📣 Public announcements",
                            text="This thread is for the game's public announcements (Alsaahir and Juggler "
                                 "guesses, Goblin claims) and whisper requests (`/whisper`). Announcements "
                                 "count only in the first 36 hours of a day."))
        for fabled in state.fabled:
            events.append(self._fabled_event(state, fabled))
        events.append(Event(type="begun", audience=STORYTELLER, title="📜 The characters are out",
                            text=f"Every player has their character. Night 1 has begun.\n\n"
                                 f"{grimoire_text(state, self.chars)}"))
        return Outcome(state=state, events=events, reply="The characters are out. Night 1 has begun.")

    # ----- the cycle -----

    def _nightfall(self, state: ClocktowerState, opening: str = "") -> list[Event]:
        events = self._travellers_leave(state)
        self._roll_choices(state)
        state.silence = False
        state.night += 1
        state.round = state.night
        set_stage(state, "night", stages(state.settings, "night")[0][0])
        lock = state.settings.lock_seconds
        text = (f"{opening + ' ' if opening else ''}Public talk and whispers are closed until dawn. "
                "Send your night action to the Storytellers in your private thread"
                + (f"; night actions lock {hours(lock)} before dawn." if lock else "."))
        return [*events, public("night", text, title=f"🌙 Night {state.night} falls", opens_phase=True,
                                data=talk_data(state, "closed")), *self.night_asks(state),
                *self.apprentices_due(state)]


    def _travellers_leave(self, state: ClocktowerState) -> list[Event]:
        """"Travellers ... may stay for a maximum of 3 cycles": one who joined on day D leaves when
        day D+2 ends (the cycle they joined in counts). A Scapegoat executed that day stays, dead,
        through the night, so the Undertaker can learn it; it leaves at the next dusk."""
        events: list[Event] = []
        for seat in [s for s in state.seats if s.traveller and state.day >= s.joined_day + 2
                     and s.player != state.executed]:
            label = state.label(seat.player)
            events += self._unseat(state, seat).events
            events.append(Event(type="traveller_done", audience=STORYTELLER, title="🧳 A Traveller's stay is over",
                                text=f"{label} has stayed 3 cycles, the most the rulebook allows: they left."))
        return events

    def _timeout(self, state: ClocktowerState) -> Outcome:
        """A stage's deadline: the next stage, dawn, or the day's end and its execution."""
        if state.phase == "fiddle" and state.stage == "voting":
            return self.fiddle_closes(state, "its time is up")
        if state.phase not in ("night", "day"):
            return Outcome(state=state)  # setup, a pending end and the Demon's fiddle choice wait
        following = next_stage(state)
        if following is None:
            return self._dawn(state) if state.phase == "night" else self._end_of_day(state)
        set_stage(state, state.phase, following)
        events: list[Event] = []
        if following == "closing":
            events += self._reminders(state)
        elif following == "locked":
            events.append(public("actions_locked", f"Night actions are locked; dawn comes in "
                                 f"{hours(state.settings.lock_seconds)}.",
                                 title=f"🌙 Night {state.night}: actions locked", opens_phase=True))
            events.append(Event(type="locked", audience=STORYTELLER, title="🔒 Night actions are locked",
                                text=f"Night {state.night}'s actions are locked; dawn comes in "
                                     f"{hours(state.settings.lock_seconds)}."))
            events.append(self.choices_summary(state))
            events += self._resolve_night(state)
        elif following == "voting" and not state.voting_closed:
            events.append(public("nominations_closed", "Nominations are closed: vote on today's nominations"
                                 + (" or for no execution." if state.settings.no_execution_after_nominations
                                    else "."), title=f"☀️ Day {state.day}: voting only", opens_phase=True))
            events.append(self._tally_event(state))
        elif following == "final":
            events.append(Event(type="announcements_closed", audience=to_thread("announcements"),
                                text=f"Public announcements for day {state.day} are closed."))
            if not state.voting_closed:
                events.append(public("announcements_closed", "Public announcements are closed for today; "
                                     "voting goes on.", title=f"☀️ Day {state.day}: last hours", opens_phase=True))
                events.append(self._tally_event(state))
        return Outcome(state=state, events=events)

    def _reminders(self, state: ClocktowerState) -> list[Event]:
        """Before the lock, each player with a choice to make tonight is reminded: those the night
        prompts ask (by their card; the Ravenkeeper only once woken), and the Waitress's host."""
        lock = hours(state.settings.lock_seconds)
        events = []
        for seat in state.seats:
            got = ask_for(state, seat, self.chars)
            visited = (self._waitress_of(state, seat.player) is not None
                       and seat.player not in state.waitress_answers)
            if got is None and not visited:
                continue
            what = "Make your choice" if got is not None else "Answer the Waitress's visit"
            events.append(private(seat.player, "reminder", f"⏰ Night actions lock in "
                                  f"{hours(state.settings.reminder_seconds)} ({lock} before dawn). {what} "
                                  "with **Make my choice** before then; until the lock you can still change it.",
                                  title="Night actions lock soon"))
        return events

    def _dawn(self, state: ClocktowerState) -> Outcome:
        information = self.information_at_dawn(state)
        state.abnormal, state.silence = [], False
        state.day = state.night
        set_stage(state, "day", stages(state.settings, "day")[0][0])
        state.nominations, state.votes = [], {}
        state.negative, state.negative_tomorrow = state.negative_tomorrow, []
        state.executed, state.execution_killed, state.voting_closed = "", False, False
        state.exiles, state.exiled, state.announcements = {}, [], []
        self._whispers_at_dawn(state)
        died = [s.player for s in state.seats if s.player in state.dawn_deaths]
        revived = [s.player for s in state.seats if s.player in state.dawn_revivals]
        state.dawn_deaths, state.dawn_revivals = [], []
        lines = [f"💀 {names(state, died)} died in the night." if died else "Nobody died in the night."]
        if revived:
            lines.append(f"✨ {names(state, revived)} {'lives' if len(revived) == 1 else 'live'} again.")
        ending = self._pending(state, resume="day")
        if ending:  # the deaths only: the day opens when the Storytellers go on (``/st continue``)
            return Outcome(state=state, events=[public("dawn", "\n".join(lines), title=f"☀️ Day {state.day} dawns",
                                                       data=talk_data(state, "open")),
                                                *information, *ending])
        lines.append(f"Nominations are open for {hours(state.settings.nomination_seconds)}: the first vote "
                     "today on a player (`/vote`) nominates them. Votes move until the day ends; no "
                     "execution is a vote too.")
        return Outcome(state=state, events=[
            public("dawn", "\n".join(lines), title=f"☀️ Day {state.day} dawns", opens_phase=True,
                   data=talk_data(state, "open")),
            self._tally_event(state), *information])

    def _end_of_day(self, state: ClocktowerState, early: bool = False) -> Outcome:
        """The day ends: open exile calls are settled, the plurality is executed unless today's
        execution already happened, and night falls (or the Storytellers confirm an end)."""
        events = self._exiles_at_close(state)
        if not state.voting_closed:
            events += self._execution(state, early)
        events += self._lleech_follows(state)
        ending = self._pending(state, resume="night")
        if not ending:
            events += self._nightfall(state)
        return Outcome(state=state, events=events + ending)

    def _spend_tokens(self, state: ClocktowerState) -> None:
        """Voting closes: under "at_close", a dead voter whose vote stands spends their token."""
        settings = state.settings
        for seat in state.seats:
            target = state.votes.get(seat.player)
            if not seat.alive and target is not None and settings.dead_vote == "at_close" and (
                    target != NO_EXECUTION or settings.dead_no_execution_spends):
                seat.vote_token = False

    def _day_record(self, state: ClocktowerState, t: Tally, executed: str, **extra: Any) -> Event:
        return record("day", {"day": state.day, "nominations": [n.model_dump() for n in state.nominations],
                              "votes": dict(state.votes),
                              "negative": [p for p in state.negative if weight(state, p) < 0],
                              "count": t.count, "executed": executed, **extra})

    def _execution(self, state: ClocktowerState, early: bool) -> list[Event]:
        """The plurality is executed (a tie, or no execution winning, means none), dead players'
        tokens are spent, and the day goes into the record."""
        t = tally(state)
        self._spend_tokens(state)
        executed = t.leader if t.leader not in ("", NO_EXECUTION) else ""
        verdict = standing(state, t, closed=True)
        told: list[Event] = []
        if executed:
            how, told = self._executes(state, state.seat_of(executed))
            verdict = f"⚖️ **{state.label(executed)}** is executed{how}."
        return [*told,
                self._tally_event(state, closed=True),
                public("execution", verdict + ("\nThe Storytellers ended voting early: no tie or change of "
                                                "leader was still possible." if early else ""),
                       title=f"🌆 Day {state.day} is over"),
                self._day_record(state, t, executed, early=early)]

    def _executes(self, state: ClocktowerState, seat: Seat) -> tuple[str, list[Event]]:
        """Execute ``seat``: the words after "is executed", and what the Storytellers are told.
        The Lleech "die[s] if & only if" its host is dead: executed while its host lives, it lives."""
        state.executed = seat.player
        state.execution_killed = False
        host = lleech_host(state)
        told: list[Event] = []
        if not seat.alive:
            how = " (they were already dead)"
        elif seat.character == "lleech" and host and host != seat.player and state.seated(host) \
                and state.seat_of(host).alive and not impaired(state, seat.player):
            how = ""
            told.append(Event(type="lleech", audience=STORYTELLER, title="🩸 The Lleech is executed",
                              text=f"{state.label(seat.player)}, the Lleech, was executed but lives: its host, "
                                   f"{state.label(host)}, is alive. The town saw only the execution."))
        else:
            seat.alive, state.execution_killed = False, True
            how = " and dies"
            told += self._lleech_spared(state, seat.player)
        return how, told + self.scapegoat_note(state, seat)

    def _execute_now(self, state: ClocktowerState, seat: Seat, by: str) -> list[Event]:
        """An execution before the day's end (the Virgin's, or the Storyteller's ruling): voting is
        over for today; the rest of the day is quiet, or night falls at once (``virgin_day``)."""
        self._spend_tokens(state)
        state.voting_closed = True
        how, told = self._executes(state, seat)
        t = tally(state)  # after the execution: the closed tally names who was executed
        quiet = state.settings.virgin_day == "quiet"
        rest = ("Voting is over for today; talk and whispers go on until night falls." if quiet
                else "The day is over.")
        events = [self._tally_event(state, t, closed=True),
                  public("execution", f"⚖️ **{state.label(seat.player)}** is executed at once{how}. {rest}",
                         title=f"🌆 Day {state.day}: an execution"),
                  self._day_record(state, t, seat.player, at_once=by), *self._lleech_follows(state), *told]
        ending = self._pending(state, resume="night")
        if not ending and not quiet:
            events += self._exiles_at_close(state) + self._nightfall(state)
        return events + ending

    def _virgin(self, state: ClocktowerState, nominator: Seat, nominee: Seat) -> tuple[list[Event], bool]:
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
        team = self.chars[nominator.character].team
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
        elif nominator.character == "spy":
            said = ("the Spy, who might register as a Townsfolk: if they do, `/st execute` them now; "
                    "otherwise nothing happens.")
        else:
            said = f"not a Townsfolk ({self.chars[nominator.character].name}): nothing happens."
        return [Event(type="virgin", audience=STORYTELLER, title="🕊️ The Virgin is nominated",
                      text=f"{virgin}, the Virgin, was nominated for the first time, by {who}; the ability is "
                           f"spent. The nominator is {said}")], execute

    def _do_execute(self, state: ClocktowerState, action: Execute, rng: random.Random) -> Outcome:
        if state.phase != "day" or state.pending_end is not None:
            raise illegal("Executions happen by day.", "not_day")
        if state.voting_closed:
            raise illegal(f"Today's execution has happened ({state.label(state.executed)}).", "executed_today")
        seat = target_seat(state, action.target)
        if seat.traveller:
            raise illegal("Travellers are exiled, not executed.", "traveller")
        events = self._execute_now(state, seat, "storyteller")
        return Outcome(state=state, events=events,
                       reply=f"{state.label(seat.player)} is executed; voting is over for today.")

    def _pending(self, state: ClocktowerState, *, resume: str) -> list[Event]:
        """When the rules end the game, wait for the Storytellers to confirm (the town hears
        nothing of it until they do)."""
        found = self._goblin_end(state) or mechanical_end(state, self.chars)
        if found is None:
            return []
        state.pending_end = found.model_copy(update={"resume": resume})
        set_stage(state, "ending", "")
        politicians = [s for s in state.seats if s.character == "politician" and s.alignment != found.team]
        offer = (f"\nThe Politician ({names(state, [s.player for s in politicians])}) is on the losing side: "
                 f"if they were the player most responsible for it, add `politician:True` and they change "
                 "alignment and win." if politicians else "")
        return [Event(type="pending_end", audience=STORYTELLER, title="🏁 The game may be over",
                      text=f"By the rules, **{found.team}** wins: {found.reason}.{offer}\n"
                           f"`/st win team:{found.team}` announces it; `/st continue` goes on to the "
                           f"{resume} instead. The town has been told nothing yet.")]

    def _goblin_end(self, state: ClocktowerState) -> PendingEnd | None:
        """"If you publicly claim to be the Goblin when nominated & are executed that day, your
        team wins": today's executed player made a claim that counts and is the working Goblin."""
        if not state.executed:
            return None
        seat = state.seat_of(state.executed)
        if not seat.has("goblin") or not self.goblin_claimed(state, seat.player):
            return None
        why = impaired(state, seat.player)
        if why:
            state.note_abnormal(seat.player, f"the Goblin's claim failed ({why})")
            return None
        return PendingEnd(team=seat.alignment, reason=f"the Goblin, {state.label(seat.player)}, was executed "
                                                      "after claiming when nominated")

    def _do_continue(self, state: ClocktowerState, action: Continue, rng: random.Random) -> Outcome:
        pending = state.pending_end
        if state.phase != "ending" or pending is None:
            raise illegal("There is no end of the game waiting for you to confirm.", "nothing_pending")
        state.pending_end = None
        if pending.resume == "night":
            return Outcome(state=state, events=self._nightfall(state), reply="Night falls.")
        set_stage(state, "day", stages(state.settings, "day")[0][0])
        return Outcome(state=state, events=[
            public("day_resumed", "The day goes on: nominations are open.", title=f"☀️ Day {state.day}",
                   opens_phase=True), self._tally_event(state)], reply="The day goes on.")

    def _tally_event(self, state: ClocktowerState, t: Tally | None = None, *, closed: bool = False) -> Event:
        t = t or tally(state)
        data: dict[str, Any] = {"count": t.count, "leader": t.leader}
        if not closed:
            data |= {"ends": day_ends(state), "phase_seq": state.phase_seq}
        title = f"🗳️ Day {state.day} votes" + (" (closed)" if closed else "")
        return public("tally", tally_text(state, t, closed=closed), title=title, data=data,
                      slot=f"tally:{state.day}")

    # ----- votes -----
    def _do_vote(self, state: ClocktowerState, action: Vote, rng: random.Random) -> Outcome:
        seat = self._voting_seat(state, action.player)
        settings = state.settings
        target = action.target
        could_end = self._may_end_early(state)
        events: list[Event] = []
        if target == NO_EXECUTION:
            if state.stage != "nominations" and not settings.no_execution_after_nominations:
                raise illegal("No execution can be voted only while nominations are open.", "closed")
        else:
            nominee = target_seat(state, target)
            if nominee.traveller:
                raise illegal(f"{state.label(target)} is a Traveller: Travellers are exiled, not executed.",
                               "traveller")
            if not any(n.nominee == target for n in state.nominations):
                events.append(self._nominate(state, seat, nominee))
        nominated = bool(events)
        virgin, execute = self._virgin(state, seat, nominee) if nominated else ([], False)
        if state.votes.get(seat.player) == target:
            raise illegal(f"Your vote is already on {option_label(state, target)}.", "same_vote")
        state.votes[seat.player] = target
        if not seat.alive and settings.dead_vote == "when_cast" and (
                target != NO_EXECUTION or settings.dead_no_execution_spends):
            seat.vote_token = False
        events.append(record("vote", {"day": state.day, "voter": seat.player, "target": target}))
        if execute:
            events += virgin + self._execute_now(state, seat, "virgin")
            return Outcome(state=state, events=events, reply="You nominated them, and you are executed at once.")
        events += virgin + self._tally_changed(state, could_end)
        said = "You nominated them; your vote" if nominated else "Your vote"
        return Outcome(state=state, events=events, reply=f"{said} is on {option_label(state, target)}.")

    def _voting_seat(self, state: ClocktowerState, player: str) -> Seat:
        if state.phase != "day" or state.pending_end is not None:
            raise illegal("Votes are cast by day: voting opens at dawn." if state.phase == "night"
                           else "Voting is closed.", "not_day")
        if state.voting_closed:
            raise illegal("Today's execution has happened: voting is over until tomorrow.", "voting_closed")
        seat = target_seat(state, player)
        if not can_vote(state, seat):
            raise illegal("You are dead and your vote token is spent.", "no_token")
        return seat

    def _nominate(self, state: ClocktowerState, seat: Seat, nominee: Seat) -> Event:
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

    def _do_unvote(self, state: ClocktowerState, action: Unvote, rng: random.Random) -> Outcome:
        seat = self._voting_seat(state, action.player)
        if seat.player not in state.votes:
            raise illegal("You have not voted today.", "no_vote")
        could_end = self._may_end_early(state)
        del state.votes[seat.player]
        events = [record("vote", {"day": state.day, "voter": seat.player, "target": ""}),
                  *self._tally_changed(state, could_end)]
        spent = " Your vote token stays spent." if not seat.alive and not seat.vote_token else ""
        return Outcome(state=state, events=events, reply="Your vote is withdrawn." + spent)

    @staticmethod
    def _may_end_early(state: ClocktowerState) -> bool:
        return not early_end_refusal(state, tally(state))

    def _tally_changed(self, state: ClocktowerState, could_end: bool) -> list[Event]:
        """The tally's new face, and a word to the Storytellers when an early end becomes allowed
        (``could_end``: whether it was allowed before the change)."""
        if state.voting_closed:
            return []
        t = tally(state)
        events = [self._tally_event(state, t)]
        refusal = early_end_refusal(state, t)
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

    def _do_count_negatively(self, state: ClocktowerState, action: CountNegatively,
                             rng: random.Random) -> Outcome:
        after_deal(state, "count a vote negatively")
        seat = target_seat(state, action.target)
        day = state.phase == "day" and state.pending_end is None
        chosen = state.negative if day else state.negative_tomorrow
        if seat.player in chosen:
            raise illegal(f"{state.label(seat.player)}'s vote already counts negatively "
                           f"{'today' if day else 'tomorrow'}.", "already_negative")
        could_end = day and self._may_end_early(state)
        chosen.append(seat.player)
        events = self._tally_changed(state, could_end) if day else []
        return Outcome(state=state, events=events,
                       reply=f"{state.label(seat.player)}'s vote counts negatively {'today' if day else 'tomorrow'} "
                             "(the tally counts it as −1; nobody is told why).")

    def _do_end_voting(self, state: ClocktowerState, action: EndVoting, rng: random.Random) -> Outcome:
        if state.phase == "fiddle" and state.stage == "voting":
            return self.fiddle_closes(state, "the Storytellers closed it")
        if state.phase != "day" or state.pending_end is not None:
            raise illegal("Voting ends by day only.", "not_day")
        if state.voting_closed:
            raise illegal("Today's execution has happened: voting is already over.", "voting_closed")
        why = early_end_refusal(state, tally(state))
        if why:
            raise illegal(f"Voting cannot end early yet: {why}", "not_settled")
        outcome = self._end_of_day(state, early=True)
        outcome.reply = "Voting is over; the day has ended."
        return outcome


    def _do_kill(self, state: ClocktowerState, action: Kill, rng: random.Random) -> Outcome:
        return self._set_alive(state, action.target, alive=False)

    def _do_revive(self, state: ClocktowerState, action: Revive, rng: random.Random) -> Outcome:
        return self._set_alive(state, action.target, alive=True)

    def _set_alive(self, state: ClocktowerState, player: str, *, alive: bool) -> Outcome:
        """A death or a revival: told to the town at once by day; at night kept for dawn, so the
        timing of a notice gives nothing away. A change that undoes tonight's is simply forgotten."""
        after_deal(state, "revive" if alive else "kill")
        seat = target_seat(state, player)
        label = state.label(seat.player)
        if seat.alive == alive:
            raise illegal(f"{label} is alive." if alive else f"{label} is already dead.",
                           "alive" if alive else "already_dead")
        could_end = state.phase == "day" and self._may_end_early(state)
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
            following = [] if alive else self._lleech_spared(state, seat.player) + self._lleech_follows(state)
            if seat.has("thief") and state.negative:  # the Thief's marks stop (or count again) at once
                following += self._tally_changed(state, could_end)
            found = mechanical_end(state, self.chars)
            note = (f" By the rules **{found.team}** wins now ({found.reason}): `/st win team:{found.team}` "
                    "to announce it." if found else "")
            return Outcome(state=state, events=[news, *following], reply=f"{said}; the town was told.{note}")
        pending.append(seat.player)
        events = self._woken(state, seat) if not alive and state.phase == "night" else []
        woken = " They are woken to choose." if events else ""
        return Outcome(state=state, events=events, reply=f"{said}. The town learns it at dawn.{woken}")

    def _woken(self, state: ClocktowerState, seat: Seat) -> list[Event]:
        """A player who dies at night and chooses when killed (the Ravenkeeper) is woken to choose."""
        asked = self.ask_event(state, seat, woken=True)
        return [asked] if asked is not None else []

    def _lleech_follows(self, state: ClocktowerState) -> list[Event]:
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

    def _lleech_spared(self, state: ClocktowerState, died: str) -> list[Event]:
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

    def _resolve_night(self, state: ClocktowerState) -> list[Event]:
        """At the lock: what the choices do, applied to the grimoire, and told to the Storytellers,
        who may overrule any of it before dawn."""
        steps = plan_night(state, self.chars)
        events: list[Event] = []
        lines = []
        for step in steps:
            seat = state.seat_of(step.player)
            said = []
            for effect in step.effects:
                target = state.seat_of(effect.player)
                label = state.label(effect.player)
                if effect.kind == "dies":
                    target.alive, target.vote_token = False, True
                    state.dawn_deaths.append(effect.player)
                    events += self._woken(state, target)
                    said.append(f"{label} dies")
                elif effect.kind == "poison":
                    state.reminders.append(Reminder(player=effect.player, token="Poisoned", source=effect.source))
                    said.append(f"{label} is poisoned")
                elif effect.kind == "heal":
                    state.reminders = [r for r in state.reminders if not (
                        r.player == effect.player and r.source == effect.source and "poison" in r.token.lower())]
                    said.append(f"{label} becomes healthy")
                elif effect.kind == "negative" and effect.player not in state.negative_tomorrow:
                    state.negative_tomorrow.append(effect.player)
                    said.append(f"{label}'s vote counts negatively tomorrow")
            chose = f" chose {choice_text(state, step.chose)}" if step.chose else ""
            line = f"• {who(state, seat)}{chose}" + (": " + "; ".join(said) + "." if said else ".")
            lines += [line, *(f"  ↳ {note}" for note in step.notes)]
        state.killed_tonight |= {e.player: e.source for step in steps for e in step.effects if e.kind == "dies"}
        for step in steps:
            if step.abnormal:
                state.note_abnormal(step.player, f"the {self.chars[step.character].name}: {step.abnormal}")
            for failed in step.failed:
                state.note_abnormal(failed.player, failed.why)
        found = proposals(state, self.chars)
        if lines:
            events.append(Event(type="night_plan", audience=STORYTELLER, title=f"🌙 Night {state.night}: what the night does",
                                text="\n".join(lines) + "\n\nApplied to the grimoire. Overrule any of it before dawn "
                                "with `/st kill`, `/st revive` and `/st reminder`.", image="grimoire"))
        if found:
            events.append(self.information_event(state, found))
        return events

    def _do_set_character(self, state: ClocktowerState, action: SetCharacter, rng: random.Random) -> Outcome:
        after_deal(state, "change a character")
        seat = target_seat(state, action.target)
        teams = ("traveller",) if seat.traveller else DEALT_TEAMS
        character = character_id(action.character, teams)
        old = self.chars[seat.character].name
        seat.character = character
        events = []
        if action.tell:
            seat.shown = character
            events.append(private(seat.player, "character", "The Storyteller tells you your character has "
                                  "changed.\n\n" + card(self.chars, seat), title="🕯️ Your character"))
        new = self.chars[character].name
        told = "they were told" if action.tell else "their card still shows the " + self.chars[seat.shown].name
        return Outcome(state=state, events=events,
                       reply=f"{state.label(seat.player)}: {old} → {new} ({told}).")

    def _do_set_alignment(self, state: ClocktowerState, action: SetAlignment, rng: random.Random) -> Outcome:
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

    def _token(self, action: AddReminder) -> tuple[str, str]:
        token = " ".join(action.token.split())
        if not token:
            raise illegal("A reminder token needs some words.", "bad_token")
        if not action.source.strip():
            return token, ""
        source = self.chars.resolve(action.source)
        if source is None:
            raise illegal(f"{action.source!r} is not a character this game knows.", "bad_character")
        tokens = (*source.reminders, *source.reminders_global)
        match = next((t for t in tokens if t.lower() == token.lower()), None)
        if match is None:
            offered = ", ".join(dict.fromkeys(tokens)) or "none"
            raise illegal(f"The {source.name} has no {token!r} token. Its tokens: {offered}. (Leave the "
                           "source out to write your own note.)", "bad_token")
        return match, source.id

    def _do_add_reminder(self, state: ClocktowerState, action: AddReminder, rng: random.Random) -> Outcome:
        seat = target_seat(state, action.target)
        token, source = self._token(action)
        state.reminders.append(Reminder(player=seat.player, token=token, source=source))
        by = f" ({self.chars[source].name})" if source else ""
        return Outcome(state=state, reply=f"Reminder on {state.label(seat.player)}: {token}{by}.")

    def _do_remove_reminder(self, state: ClocktowerState, action: RemoveReminder,
                            rng: random.Random) -> Outcome:
        seat = target_seat(state, action.target)
        wanted = " ".join(action.token.split()).lower()
        for i, reminder in enumerate(state.reminders):
            if reminder.player == seat.player and reminder.token.lower() == wanted:
                del state.reminders[i]
                return Outcome(state=state, reply=f"Removed {reminder.token!r} from {state.label(seat.player)}.")
        have = ", ".join(r.token for r in state.reminders if r.player == seat.player) or "none"
        raise illegal(f"{state.label(seat.player)} has no {action.token!r} reminder (they have: {have}).",
                       "no_token")

    def _do_add_traveller(self, state: ClocktowerState, action: AddTraveller, rng: random.Random) -> Outcome:
        if state.day < 1:
            raise illegal("Travellers join on day 1 at the earliest.", "too_early")
        if any(s.player == action.target for s in state.seats):
            raise illegal(f"{state.label(action.target)} is already seated.", "already_seated")
        travellers = [s for s in state.seats if s.traveller]
        if len(travellers) >= MAX_TRAVELLERS:
            raise illegal(f"There are already {MAX_TRAVELLERS} Travellers: {names(state, [s.player for s in travellers])}.",
                           "too_many_travellers")
        taken = next((s for s in state.seats if s.seat == action.seat), None)
        if taken is not None:
            raise illegal(f"Seat {action.seat} is {state.name(taken.player)}'s.", "seat_taken")
        character = character_id(action.character, ("traveller",))
        if character not in state.script.all_ids():
            raise illegal(f"The {self.chars[character].name} is not a Traveller of this script.", "bad_character")
        if state.by_character(character):
            raise illegal(f"The {self.chars[character].name} is already in play.", "in_play")
        seat = Seat(player=action.target, seat=action.seat, character=character, shown=character,
                    alignment=action.alignment, traveller=True, joined_day=state.day)
        state.seats.append(seat)
        state.seats.sort(key=lambda s: s.seat)
        state.sync_players({action.target: action.name})
        name = self.chars[character].name
        return Outcome(state=state, events=[
            public("traveller", f"🧳 {state.label(seat.player)} travels in as the **{name}**.\n> "
                   f"{self.chars[character].ability}", title="A Traveller arrives"),
            private(seat.player, "character", deal_message(state, self.chars, seat.player),
                    title="🕯️ Your character"),
        ], reply=f"{state.label(seat.player)} is the {name} ({action.alignment}); they were told.")

    def _do_traveller_leaves(self, state: ClocktowerState, action: TravellerLeaves,
                             rng: random.Random) -> Outcome:
        seat = target_seat(state, action.target)
        if not seat.traveller:
            raise illegal(f"{state.label(seat.player)} is not a Traveller.", "not_traveller")
        return self._unseat(state, seat)

    def _unseat(self, state: ClocktowerState, seat: Seat) -> Outcome:
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

    def _fabled_event(self, state: ClocktowerState, fabled: str) -> Event:
        character = self.chars[fabled]
        text = f"**{character.name}** is in play.\n> {character.ability}"
        if fabled == "djinn":
            on_script = set(state.script.all_ids())
            jinxes = [j for j in state.script.jinxes if set(j.characters) <= on_script]
            if jinxes:
                text += "\n\nThe jinxes:\n" + "\n".join(
                    f"• **{' + '.join(self.chars[c].name for c in j.characters)}**: {j.text}" for j in jinxes)
        return Event(type="fabled", audience=to_thread("announcements"), title="✨ A Fabled", text=text)

    def _do_add_fabled(self, state: ClocktowerState, action: AddFabled, rng: random.Random) -> Outcome:
        fabled = character_id(action.fabled, ("fabled",))
        if fabled in state.fabled:
            raise illegal(f"The {self.chars[fabled].name} is already in play.", "in_play")
        state.fabled.append(fabled)
        events = [] if state.phase == "setup" else [self._fabled_event(state, fabled)]
        when = "announced at the start" if state.phase == "setup" else "announced in the announcement thread"
        return Outcome(state=state, events=events, reply=f"The {self.chars[fabled].name} is in play ({when}).")

    def _do_remove_fabled(self, state: ClocktowerState, action: RemoveFabled, rng: random.Random) -> Outcome:
        fabled = character_id(action.fabled, ("fabled",))
        if fabled not in state.fabled:
            raise illegal(f"The {self.chars[fabled].name} is not in play.", "not_in_play")
        state.fabled.remove(fabled)
        events = [] if state.phase == "setup" else [
            Event(type="fabled", audience=to_thread("announcements"), title="✨ A Fabled",
                  text=f"The **{self.chars[fabled].name}** is no longer in play.")]
        return Outcome(state=state, events=events, reply=f"The {self.chars[fabled].name} is out of play.")

    def _do_tell(self, state: ClocktowerState, action: Tell, rng: random.Random) -> Outcome:
        after_deal(state, "send information")
        seat = target_seat(state, action.target)
        return Outcome(state=state, events=[private(seat.player, "storyteller_info", action.text.strip(),
                                                    title="📜 From the Storyteller")],
                       reply=f"Sent to {state.label(seat.player)}.")

    def _do_substitute(self, state: ClocktowerState, action: Substitute, rng: random.Random) -> Outcome:
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
                    f"thread are yours now.\n\n" + deal_message(state, self.chars, new))
            events.append(private(new, "substitute", text, title="🔁 You take over a seat",
                                  data={"old": old, "new": new}))
        return Outcome(state=state, events=events, reply=f"{state.label(new)} now plays seat {seat.seat}.")

    def _remove(self, state: ClocktowerState, action: RemovePlayer) -> Outcome:
        seat = target_seat(state, action.target)
        if not seat.traveller:
            raise illegal("A seated player is not removed in this game: replace them with `/st substitute`, "
                           "or `/st kill` them.", "use_substitute")
        return self._unseat(state, seat)

    def _do_declare_winner(self, state: ClocktowerState, action: DeclareWinner, rng: random.Random) -> Outcome:
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


    # ----- reading -----
    def view(self, state: ClocktowerState, viewer: str | None) -> View:
        if viewer == "storyteller" or (state.finished and viewer is not None):
            return View(text=grimoire_text(state, self.chars), data={"grimoire": grimoire_picture(state, self.chars)})
        if viewer is None:
            return View(text=self._public_text(state), data={"seats": [
                {"seat": s.seat, "player": s.player, "alive": s.alive, "vote_token": s.vote_token,
                 "traveller": s.traveller} for s in state.seats]})
        seat = state.seat_of(viewer)
        if state.phase == "setup":
            return View(text=f"You sit in seat {seat.seat}. Your character arrives when the first night begins.")
        lines = [deal_message(state, self.chars, viewer)]
        lines.append("You are alive." if seat.alive else
                     "You are dead" + (": you still have your vote token." if seat.vote_token else
                                       ", and your vote token is spent."))
        return View(text="\n\n".join(lines), data={"seat": seat.seat, "shown": seat.shown,
                                                    "evil_info": evil_lines(state, self.chars, viewer)})

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
            extra = f" · Traveller: {self.chars[s.character].name}" if s.traveller else ""
            lines.append(f"{s.seat} · {state.name(s.player)}: {status}{extra}")
        if state.fabled:
            lines.append("Fabled: " + ", ".join(self.chars[f].name for f in state.fabled))
        return "\n".join(lines)

    def result(self, state: ClocktowerState) -> Result:
        return Result(finished=state.finished, phase=state.phase, round=state.round, outcome=state.outcome,
                      winners=state.winners, players=[
                          PlayerResult(id=s.player, name=state.name(s.player), role=self.chars[s.character].name,
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
            return [self._tally_event(state)]
        return []

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
            return self.fiddle_prompts(state, player_id)
        if state.phase == "night":
            return self.night_prompts(state, player_id)
        if state.phase != "day" or state.pending_end is not None or state.voting_closed:
            return []
        seat = state.seat_of(player_id)
        if not can_vote(state, seat):
            return []
        t = tally(state)
        mine = state.votes.get(player_id)
        nominated = {n.nominee: n.nominator for n in state.nominations}
        may_nominate = self._may_nominate(state, seat)
        choices = []
        for s in state.seats:
            if s.traveller or (s.player not in nominated and not may_nominate):
                continue
            about = (f"{plural(t.count[s.player], 'vote')}, nominated by {state.name(nominated[s.player])}"
                     if s.player in nominated else "not nominated: your vote nominates them")
            choices.append(Choice(value=s.player, label=state.label(s.player)[:100],
                                  description=("your vote · " if mine == s.player else "") + about))
        if state.stage == "nominations" or state.settings.no_execution_after_nominations:
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

    def no_vote_reason(self, state: ClocktowerState, player_id: str) -> str:
        try:
            self._voting_seat(state, player_id)
        except IllegalAction as exc:
            return exc.message
        return super().no_vote_reason(state, player_id)

    def _may_nominate(self, state: ClocktowerState, seat: Seat) -> bool:
        return seat.alive and state.stage == "nominations" and not (
            state.settings.one_nomination_per_day and any(n.nominator == seat.player for n in state.nominations))

    def picture(self, state: ClocktowerState, image: str) -> dict[str, Any] | None:
        if image == "grimoire":
            return grimoire_picture(state, self.chars)
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
            return self._fiddle_moves(state)
        moves: list[Action] = self._fabled_moves(state)
        if state.phase == "night":
            for prompt_owner in state.seats:
                for prompt in self.prompts(state, prompt_owner.player):
                    if prompt.action == "night_choice":
                        field = prompt.fields[0]
                        picks = [c.value for c in field.choices if c.value != state.night_choices.get(
                            prompt_owner.player, [""])[0]][:field.max_values]
                        if len(picks) == field.max_values:
                            moves.append(NightChoice(player=prompt_owner.player, targets=picks))
                    else:
                        moves.append(WaitressAnswer(player=prompt_owner.player, agree=prompt.extra["agree"]))
            for seat in state.seats:  # (one Demon's kill a night: the Demon itself lives)
                if seat.alive and not seat.traveller and self.chars[seat.character].team != "demon" \
                        and not state.dawn_deaths:
                    moves.append(Kill(player=st, target=seat.player))
                moves.append(Tell(player=st, target=seat.player, text="You learn 2."))
            moves += self._traveller_moves(state)
            for found in proposals(state, self.chars) if state.stage == "locked" else []:  # accepted or edited
                if found.ready:
                    moves.append(Inform(player=st, target=found.player))
                if found.allowed:
                    moves.append(Inform(player=st, target=found.player, answer=found.allowed[-1]))
            return moves
        if state.phase != "day":
            return moves
        if not state.voting_closed and not early_end_refusal(state, tally(state)):
            moves.append(EndVoting(player=st))
        travellers = [s for s in state.seats if s.traveller]
        free = [c for c in state.script.characters.get("traveller", ()) if not state.by_character(c)]
        if len(travellers) < MAX_TRAVELLERS and free and state.seats[-1].seat < MAX_SEAT:
            n = state.seats[-1].seat + 1
            moves.append(AddTraveller(player=st, target=f"traveller{n}", name=f"Traveller{n}", seat=n,
                                      character=free[n % len(free)], alignment="good" if n % 2 else "evil"))
        moves += self._talk_moves(state)
        for prompt_owner in state.seats:
            for prompt in self.prompts(state, prompt_owner.player):
                if prompt.action == "unvote":
                    moves.append(Unvote(player=prompt_owner.player))
                    continue
                for choice in prompt.fields[0].choices:
                    if state.votes.get(prompt_owner.player) != choice.value:
                        moves.append(Vote(player=prompt_owner.player, target=choice.value))
        return moves

    def _talk_moves(self, state: ClocktowerState) -> list[Action]:
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
            if self.spoke_matters(state, p, "town_square"):
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
                    truth = {t: [s.player for s in seats if not s.traveller and self.chars[s.character].team == t]
                             for t in ("minion", "demon")}
                    moves.append(AlsaahirGuess(player=p, minions=truth["minion"], demons=truth["demon"], place=where))
                if seat.shown == "juggler" and state.day == 1 and ("juggler", p) not in made:
                    moves.append(JugglerGuess(player=p, guesses={after: seats[(i + 1) % len(seats)].character},
                                              place=where))
        return moves

    def check_invariants(self, state: ClocktowerState, events: list[Event]) -> list[str]:
        problems = []
        if [p.id for p in state.players] != [s.player for s in state.seats]:
            problems.append("the engine's players are not the seats in order")
        numbers = [s.seat for s in state.seats]
        if numbers != sorted(set(numbers)):
            problems.append(f"seat numbers not distinct and in order: {numbers}")
        regular = [s.character for s in state.seats if not s.traveller]
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
            for seat in state.seats:
                if seat.traveller:
                    continue
                for secret in {seat.character, seat.shown}:
                    if re.search(rf"\b{re.escape(self.chars[secret].name.lower())}\b", text):
                        problems.append(f"public {event.type} event names {self.chars[secret].name}")
        return problems

    def recap(self, state: ClocktowerState, records: list[Event]) -> list[Event]:
        """Every day's votes, from the record: each nomination with its final voters, no
        execution, the verdict, and how many times votes were cast or moved that day."""
        moves: dict[int, int] = {}
        for rec in records:
            if rec.type == "vote":
                moves[rec.data["day"]] = moves.get(rec.data["day"], 0) + 1
        by_day: dict[int, dict[str, Any]] = {}
        for rec in records:  # a later record of a day corrects it (the Scapegoat executed instead)
            if rec.type == "day":
                by_day[rec.data["day"]] = by_day.get(rec.data["day"], {}) | rec.data
        days = []
        for data in by_day.values():
            instead = f" instead of {state.label(data['instead_of'])}" if data.get("instead_of") else ""
            lines = [f"**Day {data['day']}**: " + (f"{state.label(data['executed'])} executed{instead}"
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
        events = [public("chronicle", "\n\n".join(days), title="🗳️ Every day's votes")] if days else []
        talk = whisper_recap(state, records)
        if talk:
            events.append(public("whisper_recap", talk, title="🤫 Every day's whispers (how many each player was in)"))
        events += self.information_recap(state, records)
        return events

    def rules_summary(self) -> str:
        return ("A forum game of 7-15 players and up to 2 Travellers, run by human Storytellers whom the bot "
                "serves. Good wins when every Demon is dead; evil wins when only 2 players (not counting "
                "Travellers) live. Sign up with `/in seat:N`, `/travel in seat:N`, or `/spectate`. Each "
                "player's character arrives in a private thread with the Storytellers.")

    def rounds(self, state: ClocktowerState) -> int:
        return state.night


GAME = Clocktower()

__all__ = ["GAME", "MAX_TRAVELLERS", "Clocktower", "ForcedDeal"]
