"""Blood on the Clocktower by forum, on the engine protocol: the table and the Storyteller's commands.

The bot is the Storytellers' assistant: every action here is either bookkeeping the Storyteller
asks for (``StorytellerAction``) or a mechanical rule. Every action is in the game's log, so
``python -m games replay`` reproduces a whole game, the Storyteller's choices included.

Phases so far: "setup" (the Storyteller checks the deal; nothing is sent) and "night" (from
``/st begin``). The days, votes and whispers come with issue 12, the night abilities with issue 13.
"""

from __future__ import annotations

import json
import random
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from games.engine import (
    STORYTELLER,
    SUBSTITUTE,
    Action,
    EndGame,
    Event,
    Game,
    IllegalAction,
    Outcome,
    PhaseTimeout,
    Player,
    PlayerResult,
    Prompt,
    RemovePlayer,
    Result,
    SetupError,
    StorytellerAction,
    View,
    private,
    public,
    to_thread,
)

from .characters import Characters, load
from .deal import deal
from .info import card, deal_message, evil_lines, grimoire_picture, grimoire_text, names, reveal_text
from .script import Script, ScriptError, builtin_script, parse_script
from .state import ClocktowerState, LunaticInfo, Reminder, Seat, Settings

#: the most Travellers in play at once (the rulebook: "a maximum of ... 2 Travellers")
MAX_TRAVELLERS = 2
#: the longest private note a Storyteller sends in one action
MAX_TELL = 1500
#: the longest reminder token the Storyteller writes themselves
MAX_TOKEN = 40
#: the highest seat number: 15 players and 2 Travellers
MAX_SEAT = 17
DEALT_TEAMS = ("townsfolk", "outsider", "minion", "demon")
#: public events whose words are the rulebook's own (the Djinn's jinxes, what the announcement
#: thread is for): they name characters, but never say who is which
RULES_TEXT = frozenset({"fabled", "announcements"})


class Options(BaseModel):
    model_config = ConfigDict(extra="forbid")
    #: an imported script in the official Script Tool JSON ("" for Her Royal Highness Register)
    script: str = Field("", description="a script in the official Script Tool JSON (load one with /st script)")
    pool: str = Field("", description="the characters the deal may use: all (the default), names separated by commas, "
                      "or only exclusions such as -baron,-po")
    marionette_neighbours: Literal["demon", "demon_or_recluse"] = Field(
        "demon", description="whom the Marionette sits beside: the Demon, or the Demon or the Recluse")
    minions_learn_marionette: bool = Field(
        False, description="whether the other Minions learn who the Marionette is (official rules: no)")
    djinn: bool = Field(True, description="the Djinn is in play from the start (the rulebook: yes)")


class ForcedDeal(BaseModel):
    """A deal chosen in advance, for tests and bug reports (never from a Discord command)."""

    model_config = ConfigDict(extra="forbid")
    characters: dict[str, str] = Field(default_factory=dict)  # player id -> character
    shown: dict[str, str] = Field(default_factory=dict)       # player id -> false card
    bluffs: list[str] = Field(default_factory=list)
    lunatic_minions: list[str] = Field(default_factory=list)
    lunatic_bluffs: list[str] = Field(default_factory=list)


# ----- the Storyteller's actions -----

class Redeal(StorytellerAction):
    """Deal again at random (only before the characters go out), optionally from a new pool."""

    type: Literal["redeal"] = "redeal"
    pool: list[str] | None = Field(default=None, max_length=40)


class Begin(StorytellerAction):
    """Send every player their character: the first night begins."""

    type: Literal["begin"] = "begin"


class Kill(StorytellerAction):
    type: Literal["kill"] = "kill"
    target: str


class Revive(StorytellerAction):
    type: Literal["revive"] = "revive"
    target: str


class SetCharacter(StorytellerAction):
    type: Literal["set_character"] = "set_character"
    target: str
    character: str = Field(max_length=50)
    #: tell the player their new character (else their card stays as it was)
    tell: bool = True


class SetAlignment(StorytellerAction):
    type: Literal["set_alignment"] = "set_alignment"
    target: str
    alignment: Literal["good", "evil"]
    tell: bool = True


class AddReminder(StorytellerAction):
    type: Literal["add_reminder"] = "add_reminder"
    target: str
    token: str = Field(max_length=MAX_TOKEN)
    #: the character whose token it is; "" for the Storyteller's own note
    source: str = Field("", max_length=50)


class RemoveReminder(StorytellerAction):
    type: Literal["remove_reminder"] = "remove_reminder"
    target: str
    token: str = Field(max_length=MAX_TOKEN)


class AddTraveller(StorytellerAction):
    type: Literal["add_traveller"] = "add_traveller"
    target: str
    name: str = Field(max_length=100)
    seat: int = Field(ge=1, le=MAX_SEAT)
    character: str = Field(max_length=50)
    alignment: Literal["good", "evil"]


class TravellerLeaves(StorytellerAction):
    type: Literal["traveller_leaves"] = "traveller_leaves"
    target: str


class AddFabled(StorytellerAction):
    type: Literal["add_fabled"] = "add_fabled"
    fabled: str = Field(max_length=50)


class RemoveFabled(StorytellerAction):
    type: Literal["remove_fabled"] = "remove_fabled"
    fabled: str = Field(max_length=50)


class Tell(StorytellerAction):
    """Private information for one player, in their thread."""

    type: Literal["tell"] = "tell"
    target: str
    text: str = Field(min_length=1, max_length=MAX_TELL)


class Substitute(StorytellerAction):
    """A new person takes over a seat: character, alignment, history and thread stay the seat's."""

    type: Literal["substitute"] = "substitute"
    target: str
    new_player: str
    name: str = Field(max_length=100)


class DeclareWinner(StorytellerAction):
    type: Literal["declare_winner"] = "declare_winner"
    team: Literal["good", "evil"]
    reason: str = Field("", max_length=500)


STORYTELLER_ACTIONS: tuple[type[Action], ...] = (
    Redeal, Begin, Kill, Revive, SetCharacter, SetAlignment, AddReminder, RemoveReminder, AddTraveller,
    TravellerLeaves, AddFabled, RemoveFabled, Tell, Substitute, DeclareWinner)


def _illegal(text: str, code: str) -> IllegalAction:
    return IllegalAction(text, code=code)


class Clocktower(Game):
    name = "clocktower"
    title = "Blood on the Clocktower: Her Royal Highness Register"
    min_players = 7
    max_players = 15
    Options = Options
    Setup = ForcedDeal
    State = ClocktowerState
    actions = STORYTELLER_ACTIONS
    private_threads = True
    storytellers = True
    seats = True
    max_travellers = MAX_TRAVELLERS

    @property
    def chars(self) -> Characters:
        return load()

    # ----- options and script -----
    def parse_options(self, data: dict[str, Any] | None) -> Options:
        options = super().parse_options(data)
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
            settings=Settings(marionette_neighbours=options.marionette_neighbours,
                              minions_learn_marionette=options.minions_learn_marionette),
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
            character = self._character(forced.characters[p.id], DEALT_TEAMS)
            shown = self._character(forced.shown.get(p.id, character), DEALT_TEAMS)
            if self.chars[character].false_card and shown == character:
                raise SetupError(f"A forced deal gives the {self.chars[character].name} a false card.",
                                 code="bad_setup")
            seats.append(Seat(player=p.id, seat=p.seat or 0, character=character, shown=shown,
                              alignment="good" if self.chars[character].good else "evil"))
        state.seats = seats
        state.bluffs = tuple(self._character(b, DEALT_TEAMS) for b in forced.bluffs)
        if state.by_character("lunatic"):
            state.lunatic = LunaticInfo(minions=tuple(forced.lunatic_minions),
                                        bluffs=tuple(self._character(b, DEALT_TEAMS) for b in forced.lunatic_bluffs))

    def _character(self, raw: str, teams: tuple[str, ...]) -> str:
        character = self.chars.resolve(raw)
        if character is None or character.team not in teams:
            kinds = "/".join(teams)
            raise _illegal(f"{raw!r} is not a {kinds} character this game knows.", "bad_character")
        return character.id

    def _grimoire_event(self, state: ClocktowerState, note: str) -> Event:
        return Event(type="grimoire", audience=STORYTELLER, title="📜 Grimoire",
                     text=f"{note}\n\n{grimoire_text(state, self.chars)}", image="grimoire")

    # ----- actions -----
    def _apply(self, state: ClocktowerState, action: Action, rng: random.Random) -> Outcome:
        if isinstance(action, PhaseTimeout):
            return Outcome(state=state)  # no phase of this issue has a timer yet
        if isinstance(action, EndGame):
            return self._finish(state, "ended", [], "🛑 The game was ended by the Storyteller."
                                + (f" {action.reason}" if action.reason else ""))
        if isinstance(action, RemovePlayer):
            return self._remove(state, action)
        handler = getattr(self, f"_do_{action.type}")
        return handler(state, action, rng)

    def _need_phase(self, state: ClocktowerState, *phases: str, doing: str) -> None:
        if state.phase not in phases:
            when = {"setup": "before the characters go out", "night": "at night", "day": "by day"}
            allowed = " or ".join(when[p] for p in phases)
            raise _illegal(f"You can {doing} only {allowed}.", "wrong_phase")

    def _target(self, state: ClocktowerState, player: str) -> Seat:
        for seat in state.seats:
            if seat.player == player:
                return seat
        raise _illegal(f"{state.name(player) if player else 'That'} is not seated in this game.", "not_seated")

    def _do_redeal(self, state: ClocktowerState, action: Redeal, rng: random.Random) -> Outcome:
        self._need_phase(state, "setup", doing="re-deal")
        pool = state.pool
        if action.pool is not None:
            try:
                pool = self.check_pool(action.pool, state.script)
            except SetupError as exc:
                raise _illegal(str(exc), "bad_pool") from None
        try:
            self._deal(state, rng, pool)
        except SetupError as exc:
            raise _illegal(str(exc), "bad_pool") from None
        state.pool = pool
        state.deals += 1
        return Outcome(state=state, events=[self._grimoire_event(state, f"Deal {state.deals}, at random.")],
                       reply=f"Dealt again (deal {state.deals}). The grimoire is in the Storytellers' thread.")

    def _do_begin(self, state: ClocktowerState, action: Begin, rng: random.Random) -> Outcome:
        self._need_phase(state, "setup", doing="begin the game")
        state.next_phase("night")
        state.night = 1
        state.round = 1
        events = [private(s.player, "character", deal_message(state, self.chars, s.player),
                          title="🕯️ Your character") for s in state.seats]
        events.append(public("night", "The characters are out: yours is in your private thread with the "
                             "Storytellers. Public talk and whispers are closed until dawn.",
                             title="🌙 Night 1 falls", opens_phase=True))
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

    def _after_deal(self, state: ClocktowerState, doing: str) -> None:
        if state.phase == "setup":
            raise _illegal(f"The characters have not gone out yet: `/st begin` first, then {doing}.",
                           "not_begun")

    def _do_kill(self, state: ClocktowerState, action: Kill, rng: random.Random) -> Outcome:
        return self._set_alive(state, action.target, alive=False)

    def _do_revive(self, state: ClocktowerState, action: Revive, rng: random.Random) -> Outcome:
        return self._set_alive(state, action.target, alive=True)

    def _set_alive(self, state: ClocktowerState, player: str, *, alive: bool) -> Outcome:
        """A death or a revival: told to the town at once by day; at night kept for dawn, so the
        timing of a notice gives nothing away. A change that undoes tonight's is simply forgotten."""
        self._after_deal(state, "revive" if alive else "kill")
        seat = self._target(state, player)
        label = state.label(seat.player)
        if seat.alive == alive:
            raise _illegal(f"{label} is alive." if alive else f"{label} is already dead.",
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
            return Outcome(state=state, events=[news], reply=f"{said}; the town was told.")
        pending.append(seat.player)
        return Outcome(state=state, reply=f"{said}. The town learns it at dawn.")

    def _do_set_character(self, state: ClocktowerState, action: SetCharacter, rng: random.Random) -> Outcome:
        self._after_deal(state, "change a character")
        seat = self._target(state, action.target)
        teams = ("traveller",) if seat.traveller else DEALT_TEAMS
        character = self._character(action.character, teams)
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
        self._after_deal(state, "change an alignment")
        seat = self._target(state, action.target)
        if seat.alignment == action.alignment:
            raise _illegal(f"{state.label(seat.player)} is already {action.alignment}.", "same_alignment")
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
            raise _illegal("A reminder token needs some words.", "bad_token")
        if not action.source.strip():
            return token, ""
        source = self.chars.resolve(action.source)
        if source is None:
            raise _illegal(f"{action.source!r} is not a character this game knows.", "bad_character")
        tokens = (*source.reminders, *source.reminders_global)
        match = next((t for t in tokens if t.lower() == token.lower()), None)
        if match is None:
            offered = ", ".join(dict.fromkeys(tokens)) or "none"
            raise _illegal(f"The {source.name} has no {token!r} token. Its tokens: {offered}. (Leave the "
                           "source out to write your own note.)", "bad_token")
        return match, source.id

    def _do_add_reminder(self, state: ClocktowerState, action: AddReminder, rng: random.Random) -> Outcome:
        seat = self._target(state, action.target)
        token, source = self._token(action)
        state.reminders.append(Reminder(player=seat.player, token=token, source=source))
        by = f" ({self.chars[source].name})" if source else ""
        return Outcome(state=state, reply=f"Reminder on {state.label(seat.player)}: {token}{by}.")

    def _do_remove_reminder(self, state: ClocktowerState, action: RemoveReminder,
                            rng: random.Random) -> Outcome:
        seat = self._target(state, action.target)
        wanted = " ".join(action.token.split()).lower()
        for i, reminder in enumerate(state.reminders):
            if reminder.player == seat.player and reminder.token.lower() == wanted:
                del state.reminders[i]
                return Outcome(state=state, reply=f"Removed {reminder.token!r} from {state.label(seat.player)}.")
        have = ", ".join(r.token for r in state.reminders if r.player == seat.player) or "none"
        raise _illegal(f"{state.label(seat.player)} has no {action.token!r} reminder (they have: {have}).",
                       "no_token")

    def _do_add_traveller(self, state: ClocktowerState, action: AddTraveller, rng: random.Random) -> Outcome:
        if state.day < 1:
            raise _illegal("Travellers join on day 1 at the earliest.", "too_early")
        if any(s.player == action.target for s in state.seats):
            raise _illegal(f"{state.label(action.target)} is already seated.", "already_seated")
        travellers = [s for s in state.seats if s.traveller]
        if len(travellers) >= MAX_TRAVELLERS:
            raise _illegal(f"There are already {MAX_TRAVELLERS} Travellers: {names(state, [s.player for s in travellers])}.",
                           "too_many_travellers")
        taken = next((s for s in state.seats if s.seat == action.seat), None)
        if taken is not None:
            raise _illegal(f"Seat {action.seat} is {state.name(taken.player)}'s.", "seat_taken")
        character = self._character(action.character, ("traveller",))
        if character not in state.script.all_ids():
            raise _illegal(f"The {self.chars[character].name} is not a Traveller of this script.", "bad_character")
        if state.by_character(character):
            raise _illegal(f"The {self.chars[character].name} is already in play.", "in_play")
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
        seat = self._target(state, action.target)
        if not seat.traveller:
            raise _illegal(f"{state.label(seat.player)} is not a Traveller.", "not_traveller")
        return self._unseat(state, seat)

    def _unseat(self, state: ClocktowerState, seat: Seat) -> Outcome:
        """A Traveller leaves: their seat and tokens go; the town is told."""
        label = state.label(seat.player)
        state.seats.remove(seat)
        state.reminders = [r for r in state.reminders if r.player != seat.player]
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
        fabled = self._character(action.fabled, ("fabled",))
        if fabled in state.fabled:
            raise _illegal(f"The {self.chars[fabled].name} is already in play.", "in_play")
        state.fabled.append(fabled)
        events = [] if state.phase == "setup" else [self._fabled_event(state, fabled)]
        when = "announced at the start" if state.phase == "setup" else "announced in the announcement thread"
        return Outcome(state=state, events=events, reply=f"The {self.chars[fabled].name} is in play ({when}).")

    def _do_remove_fabled(self, state: ClocktowerState, action: RemoveFabled, rng: random.Random) -> Outcome:
        fabled = self._character(action.fabled, ("fabled",))
        if fabled not in state.fabled:
            raise _illegal(f"The {self.chars[fabled].name} is not in play.", "not_in_play")
        state.fabled.remove(fabled)
        events = [] if state.phase == "setup" else [
            Event(type="fabled", audience=to_thread("announcements"), title="✨ A Fabled",
                  text=f"The **{self.chars[fabled].name}** is no longer in play.")]
        return Outcome(state=state, events=events, reply=f"The {self.chars[fabled].name} is out of play.")

    def _do_tell(self, state: ClocktowerState, action: Tell, rng: random.Random) -> Outcome:
        self._after_deal(state, "send information")
        seat = self._target(state, action.target)
        return Outcome(state=state, events=[private(seat.player, "storyteller_info", action.text.strip(),
                                                    title="📜 From the Storyteller")],
                       reply=f"Sent to {state.label(seat.player)}.")

    def _do_substitute(self, state: ClocktowerState, action: Substitute, rng: random.Random) -> Outcome:
        seat = self._target(state, action.target)
        new = action.new_player
        if not new or any(s.player == new for s in state.seats):
            raise _illegal(f"{state.label(new)} is already seated.", "already_seated")
        old, old_label = seat.player, state.label(seat.player)
        seat.player = new
        for reminder in state.reminders:
            if reminder.player == old:
                reminder.player = new
        state.dawn_deaths = [new if p == old else p for p in state.dawn_deaths]
        state.dawn_revivals = [new if p == old else p for p in state.dawn_revivals]
        if state.lunatic is not None:
            state.lunatic = LunaticInfo(minions=tuple(new if p == old else p for p in state.lunatic.minions),
                                        bluffs=state.lunatic.bluffs)
        state.players = [Player(id=new, name=action.name, seat=p.seat) if p.id == old else p for p in state.players]
        events = [public(SUBSTITUTE, f"🔁 {state.label(new)} takes over seat {seat.seat} from {old_label}.",
                         data={"old": old, "new": new})]
        if state.phase != "setup":
            text = (f"You take over seat {seat.seat} from {old_label}: its character, its history and this "
                    f"thread are yours now.\n\n" + deal_message(state, self.chars, new))
            events.append(private(new, "substitute", text, title="🔁 You take over a seat",
                                  data={"old": old, "new": new}))
        return Outcome(state=state, events=events, reply=f"{state.label(new)} now plays seat {seat.seat}.")

    def _remove(self, state: ClocktowerState, action: RemovePlayer) -> Outcome:
        seat = self._target(state, action.target)
        if not seat.traveller:
            raise _illegal("A seated player is not removed in this game: replace them with `/st substitute`, "
                           "or `/st kill` them.", "use_substitute")
        return self._unseat(state, seat)

    def _do_declare_winner(self, state: ClocktowerState, action: DeclareWinner, rng: random.Random) -> Outcome:
        self._after_deal(state, "declare a winner")
        winners = [s.player for s in state.seats if s.alignment == action.team]
        text = f"🏆 **{action.team.capitalize()} wins!**" + (f" {action.reason.strip()}" if action.reason.strip() else "")
        return self._finish(state, action.team, winners, text)

    def _finish(self, state: ClocktowerState, outcome: str, winners: list[str], text: str) -> Outcome:
        state.finished = True
        state.outcome = outcome
        state.winners = winners
        state.next_phase("over")
        return Outcome(state=state, events=[
            public("game_over", f"{text}\n\n{reveal_text(state, self.chars)}", title="The grimoire, revealed")])

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
        lines = [f"**{state.phase.capitalize()} {state.night if state.phase == 'night' else state.day}**"]
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
        return None

    def prompts(self, state: ClocktowerState, player_id: str) -> list[Prompt]:
        return []

    def picture(self, state: ClocktowerState, image: str) -> dict[str, Any] | None:
        if image == "grimoire":
            return grimoire_picture(state, self.chars)
        return None

    def draw(self, picture: dict[str, Any]) -> bytes | None:
        from .picture import draw_grimoire
        return draw_grimoire(picture)

    def legal_actions(self, state: ClocktowerState) -> list[Action]:
        """The Storyteller's moves, for random play-throughs (a Storyteller id of "storyteller")."""
        st = "storyteller"
        if state.phase == "setup":
            return [Begin(player=st), Redeal(player=st)]
        moves: list[Action] = [DeclareWinner(player=st, team="good"), DeclareWinner(player=st, team="evil")]
        for seat in state.seats:
            moves.append(Kill(player=st, target=seat.player) if seat.alive else Revive(player=st, target=seat.player))
            moves.append(Tell(player=st, target=seat.player, text="You learn 2."))
            moves.append(AddReminder(player=st, target=seat.player, token="Poisoned", source="pukka"))
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
            if event.image == "grimoire" and event.audience.kind != "storyteller":
                problems.append(f"the grimoire picture in a {event.audience.kind} event")
            if state.finished or event.audience.kind not in ("public", "thread") or event.type in RULES_TEXT:
                continue
            text = json.dumps([event.text, event.title, event.data]).lower()
            for seat in state.seats:
                if seat.traveller:
                    continue
                for secret in {seat.character, seat.shown}:
                    if self.chars[secret].name.lower() in text:
                        problems.append(f"public {event.type} event names {self.chars[secret].name}")
        return problems

    def rules_summary(self) -> str:
        return ("A forum game of 7-15 players and up to 2 Travellers, run by human Storytellers whom the bot "
                "serves. Good wins when every Demon is dead; evil wins when only 2 players (not counting "
                "Travellers) live. Sign up with `/in seat:N`, `/travel in seat:N`, or `/spectate`. Each "
                "player's character arrives in a private thread with the Storytellers.")

    def rounds(self, state: ClocktowerState) -> int:
        return state.night


GAME = Clocktower()

__all__ = ["GAME", "MAX_SEAT", "MAX_TRAVELLERS", "STORYTELLER_ACTIONS", "Clocktower", "ForcedDeal", "Options"]
