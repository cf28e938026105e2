"""Deal the characters of Her Royal Highness Register to the players in their seats.

:func:`deal` follows the rulebook's Town Composition table (``data/composition.json``), then:

* the Minions and the Demon are chosen first, then their [setup] brackets apply (the Baron:
  two more Outsiders, two fewer Townsfolk), then the good characters;
* no character is dealt twice, and every choice is random among the pool's characters of a type;
* a character with a ``false_card`` (the Drunk, the Lunatic, the Marionette) is dealt as itself
  but *shown* another character's card, never one in play and never one shown to someone else;
* a character that must neighbour the Demon (the Marionette) is given to a player who sits next
  to the Demon's player: seats are fixed by sign-up, so the deal chooses players, never seats;
* the Demon gets three bluffs: good characters of the script neither in play nor shown.

A deal that cannot be made raises :class:`DealError` with a sentence the Storyteller can read.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import combinations
from typing import Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from games.engine import Rng, SetupError

from .catalogue import CountRow
from .characters import (
    DATA,
    SCRIPT_TEAMS,
    TEAM_WORDS,
    Character,
    Characters,
    ClocktowerDataError,
    load,
    read_data,
)

#: the keyword values of ``marionette_neighbours``
NEIGHBOUR_OPTIONS: tuple[str, ...] = ("demon", "demon_or_recluse")
#: how many bluffs the Demon is given
BLUFFS = 3
#: the teams a false card of each kind is drawn from
FALSE_CARD_TEAMS: dict[str, tuple[str, ...]] = {
    "townsfolk": ("townsfolk",),
    "demon": ("demon",),
    "good": ("townsfolk", "outsider"),
}
GOOD_TEAMS: tuple[str, ...] = ("townsfolk", "outsider")
EVIL_TEAMS: tuple[str, ...] = ("demon", "minion")


class DealError(SetupError):
    """The players, the pool or the options cannot make a deal."""

    code = "bad_deal"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


#: one row of the rulebook's Town Composition table (the official table's row, read the same way)
Composition = CountRow


class _CompositionFile(_Strict):
    composition: tuple[Composition, ...]


@lru_cache(maxsize=1)
def composition() -> dict[int, Composition]:
    """The Town Composition table, keyed by the number of players."""
    try:
        rows = _CompositionFile.model_validate(read_data(DATA, "composition.json")).composition
    except ValidationError as exc:
        raise ClocktowerDataError(f"Clocktower: cannot read data/composition.json: {exc}") from None
    for row in rows:
        if sum(row.counts().values()) != row.players:
            raise ClocktowerDataError(f"Clocktower: the composition for {row.players} players "
                                      "does not add up to that many players.")
    return {row.players: row for row in rows}


class DealtSeat(_Strict):
    """One player's seat after the deal."""

    player: str
    #: the true character
    character: str
    #: the character on the player's card (differs for the Drunk, the Lunatic, the Marionette)
    shown: str
    team: Literal["townsfolk", "outsider", "minion", "demon"]
    alignment: Literal["good", "evil"]


class Deal(_Strict):
    """The characters of every seat, in seat order (a circle), and the Demon's bluffs."""

    seats: tuple[DealtSeat, ...]
    bluffs: tuple[str, ...]
    #: sentences for the Storytellers about what the deal could not do itself (``deal_any``)
    notes: tuple[str, ...] = ()

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(s.player for s in self.seats)

    @property
    def in_play(self) -> frozenset[str]:
        return frozenset(s.character for s in self.seats)

    @property
    def demon_player(self) -> str:
        return next(s.player for s in self.seats if s.team == "demon")

    @property
    def minion_players(self) -> tuple[str, ...]:
        return tuple(s.player for s in self.seats if s.team == "minion")

    @property
    def evil_players(self) -> tuple[str, ...]:
        return tuple(s.player for s in self.seats if s.alignment == "evil")

    def seat_of(self, player: str) -> DealtSeat:
        return next(s for s in self.seats if s.player == player)

    def player_of(self, character: str) -> str | None:
        return next((s.player for s in self.seats if s.character == character), None)

    def neighbours(self, player: str) -> tuple[str, str]:
        """The players either side of ``player`` (anticlockwise, clockwise)."""
        i, n = self.players.index(player), len(self.seats)
        return self.seats[(i - 1) % n].player, self.seats[(i + 1) % n].player


def deal(seats: Sequence[str], pool: Iterable[str], rng: Rng, *,
         marionette_neighbours: str = "demon", script: Iterable[str] | None = None) -> Deal:
    """Deal ``pool``'s characters to ``seats`` (player ids in seat order); raise DealError in words.

    ``marionette_neighbours``: "demon" (the ability's own bracket) or "demon_or_recluse" (the
    rulebook's Character Notes let the Marionette neighbour the Recluse instead, when in play).

    False cards: the Drunk is shown a Townsfolk of the script not in play, the Marionette a good
    character of the script not in play, and the Lunatic a Demon of the script that is *not* in
    play. The official rules let the Storyteller show the Lunatic the real Demon's character
    too; this deal never does, so that every false card follows one rule (never a character in
    play), the Lunatic's card says nothing about which Demon is real, and the Demon - who learns
    who the Lunatic is - sees at once that the Lunatic is not them. The script has three Demons
    and one is dealt, so two are always left to show.

    ``script``: the ids of the game's script, which false cards and bluffs are drawn from (all
    the characters the engine knows when None).
    """
    if marionette_neighbours not in NEIGHBOUR_OPTIONS:
        raise DealError(f"The Marionette may neighbour \"demon\" or \"demon_or_recluse\", "
                        f"not {marionette_neighbours!r}.")
    chars = load()
    counts = _counts_for(seats)
    by_team = _pool_by_team(pool, chars)
    evil = _choose_evil(by_team, counts, rng)
    good = _choose_good(by_team, _needs(counts, evil), rng)
    seated = _seat([*evil, *good], rng, marionette_neighbours)
    on_script = None if script is None else {c.id for c in map(chars.resolve, script) if c is not None}
    shown = _false_cards(seated, chars, rng, on_script)
    bluffs = _bluffs(chars, {c.id for c in seated} | set(shown.values()), rng, on_script)
    return Deal(seats=tuple(_dealt(player, c, shown.get(i, c.id))
                            for i, (player, c) in enumerate(zip(seats, seated, strict=True))),
                bluffs=bluffs)


def _dealt(player: str, character: Character, shown: str) -> DealtSeat:
    return DealtSeat(player=player, character=character.id, shown=shown, team=character.team,
                     alignment="good" if character.good else "evil")


# -- the players and the pool ------------------------------------------------------------------

def _counts_for(seats: Sequence[str]) -> dict[str, int]:
    table = composition()
    low, high = min(table), max(table)
    if len(seats) not in table:
        raise DealError(f"Her Royal Highness Register is for {low} to {high} players, "
                        f"not {len(seats)}.")
    for i, player in enumerate(seats):
        if not isinstance(player, str) or not player:
            raise DealError(f"Seat {i + 1} has no player.")
        if player in seats[:i]:
            raise DealError(f"The player {player} sits in two seats.")
    return table[len(seats)].counts()


def _pool_by_team(pool: Iterable[str], chars: Characters) -> dict[str, list[Character]]:
    """The pool's characters by team, each once, in the pool's order; refuse what cannot be dealt."""
    by_team: dict[str, list[Character]] = {team: [] for team in SCRIPT_TEAMS}
    for cid in pool:
        character = chars.resolve(cid) if isinstance(cid, str) else None
        if character is None:
            raise DealError(f"The pool names {cid!r}, which is not a character of this script.")
        if character.team not in by_team:
            raise DealError(f"The {character.name} is a {TEAM_WORDS[character.team][0]} and is "
                            "never dealt to a player; take it out of the pool.")
        if all(c.id != character.id for c in by_team[character.team]):
            by_team[character.team].append(character)
    return by_team


# -- choosing the characters -------------------------------------------------------------------

def _choose_evil(by_team: dict[str, list[Character]], counts: dict[str, int],
                 rng: Rng) -> list[Character]:
    """The Demon and the Minions: at random among the choices the pool's good characters can follow.

    A Baron drawn from a pool without two spare Outsiders could not be dealt, so every choice of
    evil characters is weighed first, and one the pool cannot complete is never drawn.
    """
    for team in EVIL_TEAMS:
        _require(team, counts[team], by_team[team])
    choices = [list(demons + minions)
               for demons in combinations(by_team["demon"], counts["demon"])
               for minions in combinations(by_team["minion"], counts["minion"])]
    possible = [evil for evil in choices if _fits(by_team, _needs(counts, evil))]
    if not possible:
        plainest = min(choices, key=lambda evil: sum(abs(_outsiders_added(c)) for c in evil))
        for team, (need, note) in _needs(counts, plainest).items():
            _require(team, need, by_team[team], note)
    return rng.choice(possible)


def _outsiders_added(character: Character) -> int:
    return character.setup.outsiders if character.setup else 0


def _needs(counts: dict[str, int], evil: list[Character]) -> dict[str, tuple[int, str]]:
    """How many Townsfolk and Outsiders ``evil``'s setup brackets call for, each with a note why."""
    changers = [c for c in evil if _outsiders_added(c)]
    added = sum(_outsiders_added(c) for c in changers)
    return {
        "outsider": (counts["outsider"] + added, _note(changers, 1)),
        "townsfolk": (counts["townsfolk"] - added, _note(changers, -1)),
    }


def _note(changers: list[Character], sign: int) -> str:
    """" (the Baron adds 2)" for Outsiders, " (the Baron removes 2)" for Townsfolk."""
    parts = [f"the {c.name} {'adds' if sign * _outsiders_added(c) > 0 else 'removes'} "
             f"{abs(_outsiders_added(c))}" for c in changers]
    return f" ({' and '.join(parts)})" if parts else ""


def _fits(by_team: dict[str, list[Character]], needs: dict[str, tuple[int, str]]) -> bool:
    return all(0 <= need <= len(by_team[team]) for team, (need, _) in needs.items())


def _require(team: str, need: int, have: list[Character], note: str = "") -> None:
    if need < 0:
        raise DealError(f"The setup would need fewer than no {TEAM_WORDS[team][1]}{note}.")
    if need > len(have):
        word = TEAM_WORDS[team][0 if need == 1 else 1]
        names = f"{len(have)}: {', '.join(c.name for c in have)}" if have else "none"
        raise DealError(f"The pool needs {need} {word}{note} but has {names}.")


def _choose_good(by_team: dict[str, list[Character]], needs: dict[str, tuple[int, str]],
                 rng: Rng) -> list[Character]:
    good: list[Character] = []
    for team in GOOD_TEAMS:
        need, note = needs[team]
        _require(team, need, by_team[team], note)
        good += rng.sample(by_team[team], need)
    return good


# -- seating -----------------------------------------------------------------------------------

def _seat(characters: list[Character], rng: Rng, option: str) -> list[Character]:
    """The characters in seat order: shuffled, but a tethered character (the Marionette) sits
    next to one of its anchors (the Demon; or the Recluse with "demon_or_recluse").

    For a Demon anchor every allowed seating is equally likely; with the Recluse also in play,
    the anchor is first chosen evenly between the Demon and the Recluse.
    """
    n = len(characters)
    seated: list[Character | None] = [None] * n
    for tethered in (c for c in characters if c.setup and c.setup.neighbours):
        anchor = rng.choice([c for c in characters if _anchors(tethered, c, option)])
        if not any(c is anchor for c in seated):
            free_pairs = [i for i in range(n) if seated[i] is None
                          and any(seated[j] is None for j in _beside(i, n))]
            seated[rng.choice(free_pairs)] = anchor
        home = next(i for i, c in enumerate(seated) if c is anchor)
        seated[rng.choice([j for j in _beside(home, n) if seated[j] is None])] = tethered
    placed = {c.id for c in seated if c is not None}
    rest = [c for c in characters if c.id not in placed]
    rng.shuffle(rest)
    free = iter(rest)
    return [c if c is not None else next(free) for c in seated]


def _anchors(tethered: Character, other: Character, option: str) -> bool:
    """Whether ``tethered`` may sit next to ``other``."""
    assert tethered.setup is not None
    if other.team == tethered.setup.neighbours:
        return True
    return option == "demon_or_recluse" and other.id in tethered.setup.or_neighbours


def _beside(i: int, n: int) -> tuple[int, int]:
    return (i - 1) % n, (i + 1) % n


# -- what the players see ----------------------------------------------------------------------

def _false_cards(seated: list[Character], chars: Characters, rng: Rng,
                 on_script: set[str] | None = None) -> dict[int, str]:
    """Seat index -> the character on the card, for each seat whose card lies.

    A false card is never a character in play, never one already shown, and never a character
    that is itself always shown a false card (nobody could believe they are the Drunk).
    """
    taken = {c.id for c in seated}
    shown: dict[int, str] = {}
    for i, character in enumerate(seated):
        if character.false_card is None:
            continue
        options = sorted(c.id for c in _script(chars, FALSE_CARD_TEAMS[character.false_card], on_script)
                         if c.id not in taken and c.false_card is None)
        if not options:
            raise DealError(f"No {character.false_card} character is left to show the {character.name}.")
        shown[i] = rng.choice(options)
        taken.add(shown[i])
    return shown


def _bluffs(chars: Characters, taken: set[str], rng: Rng,
           on_script: set[str] | None = None) -> tuple[str, ...]:
    """Up to three good characters of the script, neither in play nor shown on a card, and never
    one that is always shown a false card (a Demon claiming the Drunk claims what nobody knows)."""
    options = sorted(c.id for c in _script(chars, GOOD_TEAMS, on_script)
                     if c.id not in taken and c.false_card is None)
    return tuple(rng.sample(options, min(BLUFFS, len(options))))


def _script(chars: Characters, teams: tuple[str, ...], on_script: set[str] | None = None) -> list[Character]:
    return [c for team in teams for c in chars.by_team(team) if on_script is None or c.id in on_script]
