"""Every action of the game, grouped by who sends it: the players, the Storytellers, and the town
(what the bot sends for what it saw). Each action's handler is in the module of its concern; the
game's handler table (``game.py``) puts them together.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, field_validator

from games.engine import Action, StorytellerAction

#: the longest private note a Storyteller sends in one action
MAX_TELL = 1500
#: the longest reminder token the Storyteller writes themselves
MAX_TOKEN = 40
#: the highest seat number: 15 players and 2 Travellers
MAX_SEAT = 20
#: the most Travellers in play at once: Her Royal Highness Register's rulebook ("a maximum of ... 2
#: Travellers"), and the official rules' for any other script (up to 5)
MAX_TRAVELLERS = 2
MAX_TRAVELLERS_OFFICIAL = 5
#: the most players named in one Juggler announcement ("up to 5 players' characters")
MAX_JUGGLES = 5
#: where a player's action was made, as the bot saw it
Place = Literal["announcements", "town_square", "thread", "elsewhere"]


# ----- the players' -----

class Vote(Action):
    """A vote on a player (the first vote today on them is their nomination) or for no execution
    (``NO_EXECUTION``). A new vote moves the old one."""

    type: Literal["vote"] = "vote"
    target: str = Field(max_length=40)

class Unvote(Action):
    """Take one's vote back (a dead player's spent token stays spent)."""

    type: Literal["unvote"] = "unvote"

class NightChoice(Action):
    """A night choice by the character the player believes they are: players, or ["no-one"]; for a
    character the Storytellers judge, also a character (``character``) or a yes or no (``answer``)."""

    type: Literal["night_choice"] = "night_choice"
    targets: list[str] = Field(default_factory=list, max_length=3)
    character: str = Field("", max_length=50)
    answer: Literal["", "yes", "no"] = ""

    @field_validator("targets", mode="before")
    @classmethod
    def _one(cls, value: Any) -> Any:
        return [value] if isinstance(value, str) else value

class NightCharacter(Action):
    """The character part of a night choice of a player and a character (the Pit-Hag, the Cerenovus):
    its own action, so the prompt that asks it is found apart from the players' one."""

    type: Literal["night_character"] = "night_character"
    character: str = Field(max_length=50)

class Haircut(Action):
    """The Demon's choice of the Barber's haircuts: 2 players to swap characters, or ["no-one"]."""

    type: Literal["haircut"] = "haircut"
    targets: list[str] = Field(default_factory=list, max_length=2)

class WaitressAnswer(Action):
    """The Waitress's target agrees (or refuses) to be visited."""

    type: Literal["waitress_answer"] = "waitress_answer"
    agree: bool

class DeclareWhisper(Action):
    """``/whisper`` in the announcement thread: a private thread with these players."""

    type: Literal["whisper"] = "whisper"
    players: list[str] = Field(min_length=1, max_length=16)
    place: Place = "elsewhere"

class NeighbourWhisper(Action):
    """An undeclared whisper of at most 15 words to a neighbour, once a day each."""

    type: Literal["neighbour_whisper"] = "neighbour_whisper"
    target: str = Field(max_length=40)
    text: str = Field(max_length=400)

class AlsaahirGuess(Action):
    type: Literal["alsaahir_guess"] = "alsaahir_guess"
    minions: list[str] = Field(default_factory=list, max_length=8)
    demons: list[str] = Field(default_factory=list, max_length=4)
    place: Place = "elsewhere"

class JugglerGuess(Action):
    type: Literal["juggler_guess"] = "juggler_guess"
    #: player -> character (a name or id; the game keeps the id)
    guesses: dict[str, str] = Field(min_length=1, max_length=MAX_JUGGLES)
    place: Place = "elsewhere"

class GoblinClaim(Action):
    type: Literal["goblin_claim"] = "goblin_claim"
    place: Place = "elsewhere"

class SlayerShot(Action):
    """"Once per game, during the day, publicly choose a player": anyone may claim it (a bluff
    too), once per game each."""

    type: Literal["slayer_shot"] = "slayer_shot"
    target: str = Field(max_length=40)
    place: Place = "elsewhere"

class JudgeRuling(Action):
    """The Judge: "Once per game, if another player nominated, you may choose to force the current
    execution to pass or fail"."""

    type: Literal["judge_ruling"] = "judge_ruling"
    target: str = Field(max_length=40)
    verdict: Literal["pass", "fail"]

class ButcherNominate(Action):
    """The Butcher: "Each day, after the 1st execution, you may nominate again"."""

    type: Literal["butcher_nominate"] = "butcher_nominate"
    target: str = Field(max_length=40)

class GossipStatement(Action):
    """The Gossip's "public statement" (each day): anyone may make one (a bluff too), once a day each."""

    type: Literal["gossip_statement"] = "gossip_statement"
    statement: str = Field(min_length=1, max_length=300)
    place: Place = "elsewhere"

class KlutzChoice(Action):
    """The Klutz: "When you learn that you died, publicly choose 1 alive player": anyone dead may make
    one (a bluff too), once per game each."""

    type: Literal["klutz_choice"] = "klutz_choice"
    target: str = Field(max_length=40)
    place: Place = "elsewhere"

class GunslingerShot(Action):
    """The Gunslinger: "each day, after the 1st vote has been tallied, you may choose a player that voted: they die"."""

    type: Literal["gunslinger_shot"] = "gunslinger_shot"
    target: str = Field(max_length=40)
    place: Place = "elsewhere"

class GiveToken(Action):
    """A dead player gives their vote token to the Beggar."""

    type: Literal["give_token"] = "give_token"
    target: str = Field(max_length=40)

class ExileVote(Action):
    """A vote on a Traveller's exile: the first "yes" today calls it. Alive and dead vote freely."""

    type: Literal["exile_vote"] = "exile_vote"
    target: str = Field(max_length=40)
    vote: Literal["yes", "no", "withdraw"] = "yes"

class FiddleChallenge(Action):
    """The Demon chooses its opponent in the fiddle contest."""

    type: Literal["fiddle_challenge"] = "fiddle_challenge"
    target: str = Field(max_length=40)

class FiddleVote(Action):
    """A vote for which contestant wins the game (moves freely until the contest closes)."""

    type: Literal["fiddle_vote"] = "fiddle_vote"
    target: str = Field(max_length=40)

# ----- the Storytellers' -----

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
    #: the Politician was the player most responsible for their team losing: they change
    #: alignment and win (the Storyteller's judgement)
    politician: bool = False

class CountNegatively(StorytellerAction):
    """The Thief's choice: at night, the player's vote counts negatively tomorrow; by day, today."""

    type: Literal["count_negatively"] = "count_negatively"
    target: str

class EndVoting(StorytellerAction):
    """End today's voting now (only when no tie or change of leader is still possible)."""

    type: Literal["end_voting"] = "end_voting"

class Continue(StorytellerAction):
    """Go on after a mechanical end the Storyteller does not confirm."""

    type: Literal["continue"] = "continue"

class StorytellerNominate(StorytellerAction):
    """The Storytellers nominate a player (the Bishop: "Only the Storyteller can nominate")."""

    type: Literal["st_nominate"] = "st_nominate"
    target: str = Field(max_length=40)

class SwapSeats(StorytellerAction):
    """The Matron's swap, carried out by the Storytellers: two players exchange seats."""

    type: Literal["swap_seats"] = "swap_seats"
    first: str = Field(max_length=40)
    second: str = Field(max_length=40)

class Execute(StorytellerAction):
    """Execute a player now, ending today's voting (the Virgin when the Storyteller judges a Spy
    registers as a Townsfolk, or any execution the Storyteller rules)."""

    type: Literal["execute"] = "execute"
    target: str = Field(max_length=40)

class Inform(StorytellerAction):
    """Accept a player's information tonight: the copilot's proposal, or ``answer`` (checked
    against the answers the rules allow, unless anything is allowed)."""

    type: Literal["inform"] = "inform"
    target: str
    answer: str = Field("", max_length=200)
    #: the night the Storyteller saw (the panel's): refused once that night is over
    night: int = 0

class GainAbility(StorytellerAction):
    """The Apprentice gains a Townsfolk (good) or Minion (evil) ability."""

    type: Literal["apprentice"] = "apprentice"
    target: str
    character: str = Field(max_length=50)

class BaristaCup(StorytellerAction):
    """The Barista: "Each night, until dusk, 1) a player becomes sober, healthy & gets true info, or 2)
    their ability works twice. They learn which." The Storytellers choose the player and which."""

    type: Literal["barista"] = "barista"
    target: str
    effect: Literal["sober", "twice"]

class ScapegoatInstead(StorytellerAction):
    """The Scapegoat is executed instead of today's executed player."""

    type: Literal["scapegoat"] = "scapegoat"

class StartFiddle(StorytellerAction):
    """The Storytellers use the Fiddler (``demon`` when several Demons live), or choose the
    challenger for a Demon who does not (``challenger``)."""

    type: Literal["fiddle"] = "fiddle"
    demon: str = ""
    challenger: str = ""

class Silence(StorytellerAction):
    """The Storytellers call for silence (Hell's Librarian), or end it."""

    type: Literal["silence"] = "silence"
    on: bool = True

# ----- the town's: what the bot saw -----

class Spoke(Action):
    """The player posted publicly (the bot's listener sends it only for players in an open
    whisper): their whispers break."""

    type: Literal["spoke"] = "spoke"
    place: Place = "town_square"

#: every action, in the order the action union lists them (its error messages name the types in
#: this order)
ACTIONS: tuple[type[Action], ...] = (
    Redeal, Begin, Kill, Revive, SetCharacter, SetAlignment, AddReminder, RemoveReminder, AddTraveller,
    TravellerLeaves, AddFabled, RemoveFabled, Tell, Substitute, DeclareWinner, CountNegatively, EndVoting,
    Continue, Execute, StorytellerNominate, SwapSeats,
    Vote, Unvote,
    DeclareWhisper, NeighbourWhisper, Spoke, AlsaahirGuess, JugglerGuess, GoblinClaim, SlayerShot,
    GunslingerShot, GiveToken, ExileVote, GossipStatement, JudgeRuling, KlutzChoice, ButcherNominate,
    NightChoice, WaitressAnswer, NightCharacter, Haircut,
    Inform,
    GainAbility, ScapegoatInstead, BaristaCup,
    StartFiddle, FiddleChallenge, FiddleVote, Silence)
