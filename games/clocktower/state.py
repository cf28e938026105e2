"""The Clocktower table's state: small on purpose.

It holds what every action reads: the seats in circle order, the script, the pool, the bluffs,
the Fabled, the reminder tokens and where the cycle stands. What grows all week (every vote,
whisper, night record and message a player was told) is not here: it is in the game's events
and, from issue 12 on, in append-only rows.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from games.engine import BaseState, IllegalAction, Player

from .options import Settings
from .script import Script

Alignment = Literal["good", "evil"]


class Seat(BaseModel):
    """One player's place in the circle and everything true about them."""

    model_config = ConfigDict(extra="forbid")
    player: str
    #: the number chosen at sign-up; the circle is in seat-number order
    seat: int
    #: the true character
    character: str
    #: the character on the player's card (the Drunk, the Lunatic, the Marionette see another)
    shown: str
    alignment: Alignment
    alive: bool = True
    #: a dead player's one vote (the living always vote)
    vote_token: bool = True
    traveller: bool = False
    #: the day a Traveller joined (0 for the players seated at the deal)
    joined_day: int = 0
    #: the Townsfolk or Minion ability an Apprentice gained ("" for everyone else)
    ability: str = ""

    def has(self, character: str) -> bool:
        """Whether this player has that character's ability in play: theirs, or an Apprentice's gained one."""
        return character in (self.character, self.ability)

    @property
    def acting(self) -> str:
        """The card a player acts by at night: an Apprentice's gained ability, else their card (the
        Drunk, the Lunatic and the Marionette act by the card they were shown)."""
        return self.ability or self.shown


#: the stored form of a circle's seats, by the seats' values (``stored_seats``)
_STORED_SEATS: dict[tuple[tuple[Any, ...], ...], str] = {}
#: how many circles' stored forms are kept (each about 2 KB): far more than the games voting at once
STORED_SEATS_KEPT = 256
_SEATS = TypeAdapter(list[Seat])


def stored_seats(seats: list[Seat]) -> str:
    """The seats as a step stores them (defaults left out), made once for the same seats' values.

    A day's votes change no seat, so every vote would dump the same 15 seats again: over half the
    time of writing a Clocktower day's state (issue 38). The seats' values (a seat's fields are
    plain strings, numbers and flags) say whether this circle was dumped before."""
    key = tuple(tuple(seat.__dict__.values()) for seat in seats)
    stored = _STORED_SEATS.get(key)
    if stored is None:
        if len(_STORED_SEATS) >= STORED_SEATS_KEPT:
            _STORED_SEATS.clear()
        stored = _STORED_SEATS[key] = _SEATS.dump_json(seats, exclude_defaults=True).decode()
    return stored


class Reminder(BaseModel):
    """A reminder token on the grimoire: its text and which character (or the Storyteller) put it."""

    model_config = ConfigDict(extra="forbid")
    player: str
    token: str
    #: a character id, or "" for the Storyteller's own note
    source: str = ""


class LunaticInfo(BaseModel):
    """What the Lunatic, who believes they are the Demon, is shown at the deal: chosen with the
    deal (the Storyteller sees it in the grimoire and may re-deal), never real Demon information."""

    model_config = ConfigDict(extra="forbid")
    minions: tuple[str, ...]
    bluffs: tuple[str, ...]


class Nomination(BaseModel):
    """Today's nomination: the first vote today on ``nominee``, by ``nominator``."""

    model_config = ConfigDict(extra="forbid")
    nominee: str
    nominator: str


class Whisper(BaseModel):
    """A declared whisper: a private thread of its members and the Storytellers, open until one
    of them speaks publicly."""

    model_config = ConfigDict(extra="forbid")
    id: int
    day: int
    by: str
    #: everyone in it, the declarer first
    members: list[str]
    #: who paid how many of their whispers for it
    cost: dict[str, int] = Field(default_factory=dict)
    #: who broke it ("" while it is open)
    broken_by: str = ""


class Announcement(BaseModel):
    """A public announcement made in the announcement thread: an Alsaahir guess, a Juggler
    guess or a Goblin claim (anyone may make any of them)."""

    model_config = ConfigDict(extra="forbid")
    kind: Literal["alsaahir", "juggler", "goblin", "slayer", "gossip", "klutz"]
    by: str
    #: a Slayer's shot: the player chosen
    target: str = ""
    minions: list[str] = Field(default_factory=list)
    demons: list[str] = Field(default_factory=list)
    #: a Gossip's statement made dead, with the ability the Bone Collector gave back until dusk
    regained: bool = False
    #: the Juggler's guesses: player -> character id
    guesses: dict[str, str] = Field(default_factory=dict)
    #: the guessed players who were drunk or poisoned when guessed (a poisoned Recluse or Spy
    #: registers as itself: the guess is judged as it was made)
    impaired: list[str] = Field(default_factory=list)
    #: a Goblin claim: whether the claimant was nominated today when they claimed
    nominated: bool = False
    #: a Gossip's public statement, in its words
    statement: str = ""


class Accepted(BaseModel):
    """Tonight's information for one player, accepted by a Storyteller: delivered at dawn (or at
    once, with ``inform_at=accept``)."""

    model_config = ConfigDict(extra="forbid")
    #: the card the information is for
    card: str
    answer: str
    #: the player's message
    text: str
    #: the copilot's proposal, and its flags, when it was accepted
    proposed: str
    flags: list[str] = Field(default_factory=list)
    #: whether the answer is false information (None where the bot cannot tell: the Storyteller's call)
    false: bool | None = None


class Abnormal(BaseModel):
    """A line of the Mathematician's ledger: a player's ability worked abnormally since dawn."""

    model_config = ConfigDict(extra="forbid")
    player: str
    why: str


class Fiddle(BaseModel):
    """A fiddle contest (the Fiddler): the Demon, the player it challenged, and every player's vote."""

    model_config = ConfigDict(extra="forbid")
    demon: str
    challenger: str = ""
    #: voter -> the contestant they vote to win
    votes: dict[str, str] = Field(default_factory=dict)


class PendingEnd(BaseModel):
    """A mechanical end of the game the bot found, waiting for the Storyteller's confirmation."""

    model_config = ConfigDict(extra="forbid")
    team: Alignment
    reason: str
    #: what ``/st continue`` goes on to: the night (after an execution) or the day (at dawn)
    resume: Literal["night", "day"] = "night"


class ClocktowerState(BaseState):
    script: Script
    #: the characters the Storyteller allowed the deal to use
    pool: tuple[str, ...]
    settings: Settings = Field(default_factory=Settings)
    #: in circle order; ``players`` (the engine's list) follows the same order
    seats: list[Seat]
    bluffs: tuple[str, ...] = ()
    lunatic: LunaticInfo | None = None
    fabled: list[str] = Field(default_factory=list)
    reminders: list[Reminder] = Field(default_factory=list)
    #: how many deals were made (re-deals included) before the characters went out
    deals: int = 1
    night: int = 0
    day: int = 0
    #: deaths and revivals the Storyteller recorded at night, told to the town at dawn
    dawn_deaths: list[str] = Field(default_factory=list)
    dawn_revivals: list[str] = Field(default_factory=list)
    #: where the phase stands: a night is "open", "closing" (the reminder went out), "locked";
    #: a day is "nominations", "voting" (no new nominations), "final" (announcements closed)
    stage: str = ""
    # ----- today (cleared at dawn; the week's history is in the game's record rows) -----
    nominations: list[Nomination] = Field(default_factory=list)
    #: voter -> nominee, or NO_EXECUTION; a new vote moves the old one
    votes: dict[str, str] = Field(default_factory=dict)
    #: players whose vote counts negatively today (the Thief's choice), and tomorrow (chosen tonight)
    negative: list[str] = Field(default_factory=list)
    negative_tomorrow: list[str] = Field(default_factory=list)
    #: who was executed today ("" for nobody): the Undertaker learns it tonight
    executed: str = ""
    #: whether that execution killed them (not when already dead, nor a Lleech whose host lives)
    execution_killed: bool = False
    #: why the executed player was drunk or poisoned when executed ("" when not): a poisoned Recluse
    #: or Spy registers as itself to what reads the execution later (the Undertaker, the Scapegoat)
    executed_impaired: str = ""
    #: the Butcher's day: the player today's first execution killed, and why they were impaired then
    #: ("" for none), when a second execution followed (the Undertaker may learn either)
    first_executed: str = ""
    first_executed_impaired: str = ""
    #: today's execution has happened before the day's end (the Virgin, `/st execute`): no more votes
    voting_closed: bool = False
    #: whether the Storytellers were last told that voting may end early today: a vote's notice
    #: compares with it, so the tally is counted once a vote, not before and after
    early_end_told: bool = False
    #: today's exile calls: Traveller -> voter -> "yes" or "no"
    exiles: dict[str, dict[str, str]] = Field(default_factory=dict)
    #: Travellers exiled today
    exiled: list[str] = Field(default_factory=list)
    #: today's neighbour whispers: [from, to]
    neighbour_whispers: list[list[str]] = Field(default_factory=list)
    #: today's public announcements (kept through the night: the Juggler learns at night)
    announcements: list[Announcement] = Field(default_factory=list)
    # ----- tonight (kept to the next dusk: the day reads what the night chose) -----
    #: each asked player's choice tonight: player ids, or ["no-one"]; editable until the lock
    night_choices: dict[str, list[str]] = Field(default_factory=dict)
    #: the Waitress's target's answer: target -> agreed
    waitress_answers: dict[str, bool] = Field(default_factory=dict)
    #: a judged character's answer tonight that is not players: a character's id, or "yes" / "no"
    night_answers: dict[str, str] = Field(default_factory=dict)
    #: tonight's deaths by the character whose ability killed them (the Ravenkeeper the Pukka killed)
    killed_tonight: dict[str, str] = Field(default_factory=dict)
    #: tonight's information the Storytellers accepted: player -> what they learn
    accepted: dict[str, Accepted] = Field(default_factory=dict)
    #: the first of two answers accepted tonight for a player whose ability works twice (the Barista)
    accepted_first: dict[str, Accepted] = Field(default_factory=dict)
    #: abilities that worked abnormally since dawn (the Mathematician's ledger; cleared at dawn)
    abnormal: list[Abnormal] = Field(default_factory=list)
    #: the Demon's choice of the Barber's haircuts tonight: 2 players, or ["no-one"] (snv_swaps)
    haircut: list[str] = Field(default_factory=list)
    #: the previous night's choices (the Po's charge reads them)
    last_choices: dict[str, list[str]] = Field(default_factory=dict)
    # ----- across days -----
    #: open whispers, and today's broken ones
    whispers: list[Whisper] = Field(default_factory=list)
    #: whispers declared in the whole game (each one's thread key is its number)
    whisper_count: int = 0
    pending_end: PendingEnd | None = None
    #: the players who made a Slayer's shot (once per game each, the real Slayer or not)
    slayer_shots: list[str] = Field(default_factory=list)
    #: the players who made a Klutz's choice (once per game each, the real Klutz or not)
    klutz_chosen: list[str] = Field(default_factory=list)
    #: the day the Gunslinger last shot (once a day)
    gunslinger_day: int = 0
    #: the fiddle contest, once the Storytellers use the Fiddler
    fiddle: Fiddle | None = None
    #: a silence the Storytellers called by day (Hell's Librarian; the night is silent anyway)
    silence: bool = False
    #: players whose once-per-game night ability was used (a choice stood at a lock)
    used_once: list[str] = Field(default_factory=list)
    #: the Mastermind's extra day (0: none): the day after the Demon died by execution
    mastermind_day: int = 0
    #: the day of each of the Matron's swaps (at most 3 a day)
    matron_swaps: list[int] = Field(default_factory=list)
    #: the Judges who used their once-per-game ruling
    judged_by: list[str] = Field(default_factory=list)
    #: today's nominee whose execution the Judge forced to fail ("" for none; cleared at dawn)
    judge_failed: str = ""
    #: the day the Butcher's second nomination was offered or made (once a day)
    butcher_day: int = 0
    #: the players dead at today's dawn (who died today: the Zombuul, the Godfather read it at night)
    dead_at_dawn: list[str] = Field(default_factory=list)

    @property
    def whispers_used(self) -> dict[str, int]:
        """Whispers used today, by player: the costs of today's declarations (kept until dawn)."""
        used: dict[str, int] = {}
        for whisper in self.whispers:
            if whisper.day == self.day:
                for player, cost in whisper.cost.items():
                    used[player] = used.get(player, 0) + cost
        return used

    def note_abnormal(self, player: str, why: str) -> None:
        """A line of the Mathematician's ledger (once per player and reason)."""
        if not any(a.player == player and a.why == why for a in self.abnormal):
            self.abnormal.append(Abnormal(player=player, why=why))

    # ----- a player's seat changing hands, or emptying -----
    def renamed(self, old: str, new: str) -> ClocktowerState:
        """This state with player ``old`` replaced by ``new`` wherever a player id is kept (a
        substitute takes over a seat: its choices, votes, whispers, tokens and history).

        Player ids are opaque tokens (Discord ids) that no other value of the state equals, so
        every string and key equal to ``old`` is that player."""
        def swap(value: Any) -> Any:
            if isinstance(value, str):
                return new if value == old else value
            if isinstance(value, list | tuple):
                return [swap(v) for v in value]
            if isinstance(value, dict):
                return {swap(k): swap(v) for k, v in value.items()}
            return value
        return type(self).model_validate(swap(self.model_dump()))

    def forget(self, player: str) -> None:
        """A Traveller left: tonight's and today's choices that name them go (a choice of a player
        who left is no choice), so nothing later looks for a seat that is gone. The record keeps
        what happened."""
        for choices in (self.night_choices, self.last_choices):
            for chooser in [c for c, targets in choices.items() if c == player or player in targets]:
                del choices[chooser]
        for table in (self.waitress_answers, self.night_answers, self.votes, self.accepted, self.accepted_first,
                      self.killed_tonight, self.exiles):
            table.pop(player, None)
        self.votes = {voter: target for voter, target in self.votes.items() if target != player}
        for calls in self.exiles.values():
            calls.pop(player, None)
        if self.fiddle is not None:
            self.fiddle.votes.pop(player, None)

    def seated(self, player: str) -> bool:
        return any(s.player == player for s in self.seats)

    # ----- reading seats -----
    def seat_of(self, player: str) -> Seat:
        for seat in self.seats:
            if seat.player == player:
                return seat
        raise IllegalAction("That player is not seated in this game.", code="not_seated")

    def by_character(self, character: str) -> list[Seat]:
        return [s for s in self.seats if s.character == character]

    def label(self, player: str) -> str:
        """"Alice (seat 3)": how the bot names a player to the table."""
        for seat in self.seats:
            if seat.player == player:
                return f"{self.name(player)} (seat {seat.seat})"
        return self.name(player)

    def sync_players(self, names: dict[str, str] | None = None) -> None:
        """Keep the engine's ``players`` in circle order after seats change (``names``: new players')."""
        known = {p.id: p.name for p in self.players} | (names or {})
        self.players = [Player(id=s.player, name=known.get(s.player, s.player), seat=s.seat) for s in self.seats]
