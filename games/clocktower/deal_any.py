"""Deal any official script to the players in their seats, with every character's set-up change.

:func:`deal_script` follows the official player-count table (``data/official/counts.json``) and
the set-up changes of ``data/official/setup.json``, read through :mod:`catalogue`:

* the evil characters are drawn first (a Demon, then its Minions); ``legal_counts`` then gives
  every team count the rules allow with them, and one is drawn at random (all equally likely);
* the good characters are drawn for that count; a good character that changes the counts or
  needs another character (the Balloonist, the Hermit, the Huntsman, the Choirboy) stays in play
  and the count is drawn again with it, so its change can happen;
* then the rest of each change: required characters, Village Idiot copies, false cards, seats
  beside the Demon or in Lord of Typhon's line, an evil Townsfolk, no token for Lil' Monsta;
* the Demon's three bluffs: good characters of the script neither in play nor shown.

A draw that breaks a rule (``SetupConflict``) is drawn again, a bounded number of times; when no
draw works, :class:`deal.DealError` carries the most frequent conflict's sentence, for the
Storytellers, who may deal by hand (a pool of exactly the characters they want). What the deal cannot do itself goes to ``Deal.notes``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from games.engine import Rng

from .catalogue import (
    SCRIPT_WIDE_TEAMS,
    Catalogue,
    SetupChange,
    SetupConflict,
    TeamCounts,
    active_changes,
    legal_counts,
    load,
)
from .characters import TEAM_WORDS
from .deal import BLUFFS, FALSE_CARD_TEAMS, GOOD_TEAMS, Deal, DealError, DealtSeat

#: how many draws are tried before the deal gives up and explains why
TRIES = 200
#: the official jinx text of characters that cannot be in play together (the Heretic's)
ONLY_ONE_JINXED = "Only 1 jinxed character can be in play."
DEALT_TEAMS: tuple[str, ...] = ("townsfolk", "outsider", "minion", "demon")
NO_CHANGE = SetupChange(text="-")


@dataclass(frozen=True)
class Homebrew:
    """A homebrew character object of the script, as the deal needs it. It is dealt like any
    character of its team; its set-up change, if it has one (``setup``), is the Storytellers' to
    apply, and the deal says so in its notes."""

    id: str
    name: str
    team: str
    setup: bool = False
    #: may be dealt in several seats (the app's "bag-duplicate" hint); copies fill only seats the
    #: pool's other characters cannot
    duplicates: bool = False


@dataclass(frozen=True)
class _Table:
    """What every draw reads: the catalogue, the script, the players and the pool by team."""

    cat: Catalogue
    script: tuple[str, ...]
    players: tuple[str, ...]
    pool: dict[str, tuple[str, ...]]
    homebrew: dict[str, Homebrew] = field(default_factory=dict)

    def change(self, cid: str) -> SetupChange:
        return NO_CHANGE if cid in self.homebrew else self.cat.setup.get(cid, NO_CHANGE)

    def team(self, cid: str) -> str:
        return self.homebrew[cid].team if cid in self.homebrew else self.cat.records[cid].team

    def name(self, cid: str) -> str:
        return self.homebrew[cid].name if cid in self.homebrew else self.cat.records[cid].name

    def official(self, ids: Iterable[str]) -> list[str]:
        """``ids`` without the homebrew ones (which the catalogue does not know)."""
        return [c for c in ids if c not in self.homebrew]

    def legal(self, chosen: Iterable[str]) -> tuple[TeamCounts, ...]:
        """``legal_counts`` for the official characters, with room for the homebrew ones chosen."""
        chosen = list(chosen)
        legal = legal_counts(self.official(self.script), len(self.players), self.official(chosen),
                             catalogue=self.cat)
        needs = Counter(self.team(c) for c in dict.fromkeys(chosen) if not self.change(c).no_token)
        fits = tuple(o for o in legal if all(n <= o.counts()[t] for t, n in needs.items()))
        if not fits:
            raise SetupConflict(f"No team count has room for every chosen character: {self.names(chosen)}.")
        return fits

    def changes(self, chosen: Iterable[str]) -> tuple[tuple[str, SetupChange], ...]:
        return active_changes(self.official(self.script), self.official(chosen), catalogue=self.cat)

    def names(self, ids: Iterable[str]) -> str:
        return ", ".join(self.name(c) for c in ids)


@dataclass(frozen=True)
class _Draw:
    """One draw's characters: ``dealt`` holds one entry per seat (Legion and Village Idiot repeat)."""

    counts: TeamCounts
    chosen: tuple[str, ...]
    dealt: tuple[str, ...]
    no_evil: str | None


def deal_script(seats: Sequence[str], pool: Iterable[str], rng: Rng, *, script: Sequence[str],
                catalogue: Catalogue | None = None, homebrew: Iterable[Homebrew] = ()) -> Deal:
    """Deal ``pool``'s characters of ``script`` to ``seats`` (player ids in seat order).

    ``pool``: the characters the Storytellers allow the deal to draw (Townsfolk, Outsiders,
    Minions, Demons of the script); ``script``: every id of the script, which false cards, bluffs
    and required characters (the King, the Damsel) are drawn from, and whose Fabled and Loric
    changes apply. ``homebrew``: the script's homebrew character objects (their ids are in
    ``script`` and may be in ``pool``). Raise DealError in words for bad input or when no deal
    can be made.
    """
    cat = catalogue or load()
    own = _homebrew(homebrew)
    on_script = _script(cat, script, own)
    table = _Table(cat=cat, script=on_script, players=_seats(cat, seats),
                   pool=_pool(cat, on_script, pool, own), homebrew=own)
    conflicts: Counter[str] = Counter()
    for _ in range(TRIES):
        try:
            return _attempt(table, rng)
        except SetupConflict as exc:
            conflicts[str(exc)] += 1
    reason = conflicts.most_common(1)[0][0]
    raise DealError(f"No deal can be made from this pool at {len(table.players)} players: {reason} "
                    "To deal by hand, narrow the pool (`/st pool`) to the characters you want in play: the deal "
                    "then only seats them.")


# -- the input ---------------------------------------------------------------------------------

def _homebrew(homebrew: Iterable[Homebrew]) -> dict[str, Homebrew]:
    own: dict[str, Homebrew] = {}
    for h in homebrew:
        if not h.id or not h.name:
            raise DealError("A homebrew character needs an id and a name.")
        if h.team not in TEAM_WORDS:
            raise DealError(f"The homebrew {h.name} is on the team {h.team!r}, which is no Clocktower team.")
        own[h.id] = h
    return own


def _read(cat: Catalogue, cid: object, own: dict[str, Homebrew]) -> str | None:
    """The id ``cid`` means: a homebrew character's own, or the official one, or None."""
    if not isinstance(cid, str):
        return None
    if cid in own:
        return cid
    record = cat.resolve(cid)
    return record.id if record is not None else None


def _script(cat: Catalogue, script: Sequence[str], own: dict[str, Homebrew]) -> tuple[str, ...]:
    if isinstance(script, str):
        raise DealError("The script must be a list of character ids, not one string.")
    ids: list[str] = []
    for cid in script:
        found = _read(cat, cid, own)
        if found is None:
            raise DealError(f"The script names {cid!r}, which is not an official character.")
        if found not in ids:
            ids.append(found)
    return tuple(ids)


def _seats(cat: Catalogue, seats: Sequence[str]) -> tuple[str, ...]:
    low, high = min(cat.counts), max(cat.counts)
    if isinstance(seats, str) or len(seats) not in cat.counts:
        count = "one string" if isinstance(seats, str) else str(len(seats))
        raise DealError(f"A script is dealt to {low} to {high} seated players, not {count}.")
    for i, player in enumerate(seats):
        if not isinstance(player, str) or not player:
            raise DealError(f"Seat {i + 1} has no player.")
        if player in seats[:i]:
            raise DealError(f"The player {player} sits in two seats.")
    return tuple(seats)


def _pool(cat: Catalogue, script: tuple[str, ...], pool: Iterable[str],
          own: dict[str, Homebrew]) -> dict[str, tuple[str, ...]]:
    """The pool's characters by team, each once, in the pool's order; refuse what cannot be dealt."""
    if isinstance(pool, str):
        raise DealError("The pool must be a list of character ids, not one string.")
    by_team: dict[str, list[str]] = {team: [] for team in DEALT_TEAMS}
    for cid in pool:
        found = _read(cat, cid, own)
        if found is None:
            raise DealError(f"The pool names {cid!r}, which is not an official character.")
        name, team = (own[found].name, own[found].team) if found in own else \
            (cat.records[found].name, cat.records[found].team)
        if team not in by_team:
            raise DealError(f"The {name} is a {TEAM_WORDS[team][0]} and is never dealt "
                            "to a seated player; take it out of the pool.")
        if found not in script:
            raise DealError(f"The pool names the {name}, which is not on the script.")
        if found not in by_team[team]:
            by_team[team].append(found)
    return {team: tuple(ids) for team, ids in by_team.items()}


# -- one draw ------------------------------------------------------------------------------------

def _attempt(table: _Table, rng: Rng) -> Deal:
    no_evil = _no_evil_game(table, rng)
    evil = [] if no_evil else _draw_evil(table, rng)
    draw = _draw_good(table, rng, [*evil, *([no_evil] if no_evil else [])], no_evil)
    _check(table, draw)
    seated = _seat(table, rng, draw)
    shown = _false_cards(table, rng, seated, draw)
    evil_seats, evil_notes = _evil_townsfolk(table, rng, seated, draw)
    bluffs = () if no_evil else _bluffs(table, rng, set(seated) | set(draw.chosen) | set(shown.values()))
    seats = tuple(_dealt(table, player, cid, shown.get(i, cid), i in evil_seats)
                  for i, (player, cid) in enumerate(zip(table.players, seated, strict=True)))
    return Deal(seats=seats, bluffs=bluffs,
                notes=(*_notes(table, draw, seated), *_drunk_copy(table, rng, seated), *evil_notes))


def _dealt(table: _Table, player: str, cid: str, shown: str, turned: bool) -> DealtSeat:
    team = table.team(cid)
    alignment = "evil" if turned or team in ("minion", "demon") else "good"
    return DealtSeat(player=player, character=cid, shown=shown, team=team,
                     alignment=alignment)


def _no_evil_game(table: _Table, rng: Rng) -> str | None:
    """The Atheist, when this deal puts it in play (then nothing evil is dealt), else None.

    The Atheist is drawn as often as any Townsfolk of the pool would be (the table's Townsfolk
    seats over the pool's Townsfolk), and always when the pool has nothing evil to deal.
    """
    atheists = [c for team in GOOD_TEAMS for c in table.pool[team] if table.change(c).no_evil]
    if not atheists:
        return None
    atheist = rng.choice(atheists)
    if not _evil_possible(table):
        return atheist
    team = table.team(atheist)
    seats = table.cat.counts[len(table.players)].counts()[team]
    return atheist if rng.random() < seats / len(table.pool[team]) else None


def _evil_possible(table: _Table) -> bool:
    return bool(table.pool["demon"]) or any(table.change(m).demons < 0 for m in table.pool["minion"])


def _draw_evil(table: _Table, rng: Rng) -> list[str]:
    """A Demon, then its Minions, each at random; a Minion that means no Demon (the Summoner) puts
    the Demon back. A pool with no Demon deals such a Minion for certain."""
    minions = table.pool["minion"]
    demonless = [m for m in minions if table.change(m).demons < 0]
    demon = rng.choice(table.pool["demon"]) if table.pool["demon"] else None
    if demon is None and not demonless:
        raise SetupConflict("The pool has no Demon.")
    first = demon if demon is not None else rng.choice(demonless)
    options = table.legal([first])
    want = rng.choice(sorted({o.minions for o in options}))
    fixed = [] if demon is not None else [first]
    rest = [m for m in minions if m not in fixed]
    copier = _copier(table, "minion", [])
    if want > len(minions):  # every Minion of the pool, and copies of one that may be copied
        if copier is None or want - len(minions) not in _spare_copies(table, copier):
            raise SetupConflict(_short_of(table, "minion", want, list(minions), [first]))
        drawn = [*fixed, *rest, *[copier] * (want - len(minions))]
    else:
        drawn = [*fixed, *rng.sample(rest, want - len(fixed))]
    if demon is not None and any(table.change(m).demons < 0 for m in drawn):
        demon = None  # the Summoner: no Demon is dealt; its seat is a Townsfolk
    return [*([demon] if demon else []), *drawn]


def _shapes_counts(change: SetupChange) -> bool:
    """Whether a good character's change must be known before the count is drawn."""
    return change.outsiders != (0,) or bool(change.requires)


def _draw_good(table: _Table, rng: Rng, chosen: list[str], no_evil: str | None) -> _Draw:
    """The count and the good characters for it; a count-shaping character drawn at random is kept
    and the count drawn again with it (so the Balloonist's extra Outsider can happen)."""
    while True:
        required = [r for _, ch in table.changes(chosen)
                    for r in ch.requires if r not in chosen]
        for cid in required:
            if cid not in table.script:
                raise SetupConflict(f"The {table.name(_requirer(table, chosen, cid))} needs the "
                                    f"{table.name(cid)} in play, who is not on the script.")
        legal = table.legal(chosen)
        fixed = list(dict.fromkeys([*(c for c in chosen if table.team(c) in GOOD_TEAMS), *required]))
        options = [o for o in legal if _room(table, o, fixed) is None]
        if not options:
            raise SetupConflict(_room(table, legal[-1], fixed, chosen) or "No count fits the pool.")
        counts = rng.choice(options)
        townsfolk = _draw_townsfolk(table, rng, counts.townsfolk, fixed)
        outsiders = _draw_team(table, rng, "outsider", counts.outsiders, fixed)
        new = [c for c in dict.fromkeys([*townsfolk, *outsiders])
               if c not in fixed and _shapes_counts(table.change(c))]
        if not new:
            break
        chosen = [*chosen, *new]
    evil = [c for c in chosen if table.team(c) in ("minion", "demon")]
    return _Draw(counts=counts, chosen=tuple(dict.fromkeys([*chosen, *required])),
                 dealt=(*_evil_seats(table, evil, counts), *townsfolk, *outsiders),
                 no_evil=no_evil)


def _requirer(table: _Table, chosen: list[str], required: str) -> str:
    return next(c for c in chosen if required in table.change(c).requires)


def _evil_seats(table: _Table, evil: list[str], counts: TeamCounts) -> list[str]:
    """One entry per evil seat: Legion fills every Demon seat; Lil' Monsta takes none."""
    out: list[str] = []
    for cid in evil:
        change = table.change(cid)
        if change.no_token:
            continue
        out += [cid] * (counts.demons if change.majority else 1)
    return out


def _pool_of(table: _Table, team: str, fixed: list[str]) -> list[str]:
    """The pool's characters of ``team`` a random draw may take: not already fixed, and never the
    Atheist unless it is fixed (drawn at random it would undo the evil already dealt)."""
    return [c for c in table.pool[team] if c not in fixed and not table.change(c).no_evil]


def _copier(table: _Table, team: str, fixed: list[str]) -> str | None:
    """The character of ``team`` that may be dealt in several seats (the Village Idiot, a homebrew
    character marked so), if any."""
    return next((c for c in [*fixed, *table.pool[team]]
                 if table.team(c) == team and max(_spare_copies(table, c)) > 0), None)


def _spare_copies(table: _Table, cid: str) -> tuple[int, ...]:
    """How many extra copies of ``cid`` may be dealt."""
    own = table.homebrew.get(cid)
    if own is not None:
        return tuple(range(len(table.players) + 1)) if own.duplicates else (0,)
    return table.change(cid).copies


def _room(table: _Table, counts: TeamCounts, fixed: list[str], chosen: Sequence[str] = ()) -> str | None:
    """Why the pool cannot fill ``counts`` around ``fixed``, or None when it can."""
    for team in GOOD_TEAMS:
        need = counts.counts()[team]
        have = [c for c in fixed if table.team(c) == team] + _pool_of(table, team, fixed)
        copier = _copier(table, team, fixed)
        spare = max(_spare_copies(table, copier)) if copier else 0
        if need > len(have) + spare:
            return _short_of(table, team, need, have, chosen)
    return None


def _short_of(table: _Table, team: str, need: int, have: list[str], chosen: Sequence[str]) -> str:
    changers = [c for c in chosen if table.change(c) is not NO_CHANGE]
    wide = [c for c in table.script if table.team(c) in SCRIPT_WIDE_TEAMS and c in table.cat.setup]
    with_ = f" with the {table.names([*wide, *changers])}" if [*wide, *changers] else ""
    word = TEAM_WORDS[team][0 if need == 1 else 1]
    listed = f"{len(have)}: {table.names(have)}" if have else "none"
    return f"The pool needs {need} {word}{with_} but has {listed}."


def _draw_townsfolk(table: _Table, rng: Rng, need: int, fixed: list[str]) -> list[str]:
    """``need`` Townsfolk seats: the fixed ones, the rest at random; with the Village Idiot in play,
    0 to 2 of the others (as its change allows) are Village Idiots too."""
    mine = [c for c in fixed if table.team(c) == "townsfolk"]
    rest = _pool_of(table, "townsfolk", fixed)
    copier = _copier(table, "townsfolk", fixed)
    short = need - len(mine) - len(rest)
    if short > 0:  # only the Village Idiot's copies can fill the seats (_room checked they can)
        assert copier is not None
        if short not in _spare_copies(table, copier):
            raise SetupConflict(_short_of(table, "townsfolk", need, [*mine, *rest], ()))
        if copier not in mine:
            mine.append(copier)
            rest.remove(copier)
        return [*mine, *rest, *[copier] * short]
    picked = [*mine, *rng.sample(rest, need - len(mine))]
    if copier is None or copier not in picked:
        return picked
    spare = [c for c in picked if c not in mine and c != copier]
    extra = rng.choice([k for k in table.change(copier).copies if k <= len(spare)])
    gone = set(rng.sample(spare, extra))
    return [c for c in picked if c not in gone] + [copier] * extra


def _draw_team(table: _Table, rng: Rng, team: str, need: int, fixed: list[str]) -> list[str]:
    mine = [c for c in fixed if table.team(c) == team]
    rest = _pool_of(table, team, fixed)
    short = need - len(mine) - len(rest)
    copier = _copier(table, team, fixed)
    if short > 0 and copier is not None and short in _spare_copies(table, copier):
        return [*mine, *rest, *[copier] * short]
    if short > 0 or need < len(mine):
        raise SetupConflict(_short_of(table, team, need, [*mine, *rest], ()))
    return [*mine, *rng.sample(rest, need - len(mine))]


def _check(table: _Table, draw: _Draw) -> None:
    """The whole draw against the rules once more: its count is legal for everything in play, and
    no two characters of an "only 1 jinxed character can be in play" jinx (the Heretic's) are."""
    in_play = list(dict.fromkeys([*draw.chosen, *draw.dealt]))
    if draw.counts not in table.legal(in_play):
        raise SetupConflict("The drawn characters do not fit the drawn count.")
    for jinx in table.cat.jinxes_among(table.official(in_play)):
        if jinx.reason.strip() == ONLY_ONE_JINXED:
            raise SetupConflict(f"The {table.name(jinx.first)} and the {table.name(jinx.second)} cannot "
                                "both be in play (their jinx).")


# -- seating -------------------------------------------------------------------------------------

def _seat(table: _Table, rng: Rng, draw: _Draw) -> list[str]:
    """The dealt characters in seat order. Seats are fixed; the deal chooses who gets what:
    Lord of Typhon's evil line, a character beside the Demon (the Marionette), the rest shuffled."""
    n = len(draw.dealt)
    seats: list[str | None] = [None] * n
    left = list(draw.dealt)
    demons = [c for c in left if table.team(c) == "demon"]
    tethered = [c for c in left if table.change(c).neighbours == "demon"]
    if any(table.change(d).evil_line for d in demons):
        _line(table, rng, seats, left, demons[0], tethered)
    elif tethered:
        if not demons:
            raise SetupConflict(f"The {table.name(tethered[0])} sits beside the Demon, and no Demon is dealt "
                                "here: it enters play after the Demon, if at all.")
        home = rng.randrange(n)
        seats[home] = demons[0]
        left.remove(demons[0])
        for cid in tethered:
            free = [j for j in ((home - 1) % n, (home + 1) % n) if seats[j] is None]
            if not free:
                raise SetupConflict("Two characters cannot both sit beside the Demon.")
            seats[rng.choice(free)] = cid
            left.remove(cid)
    rng.shuffle(left)
    rest = iter(left)
    return [c if c is not None else next(rest) for c in seats]


def _line(table: _Table, rng: Rng, seats: list[str | None], left: list[str], lord: str,
          tethered: list[str]) -> None:
    """The Demon and the Minions in consecutive seats, the Demon in the middle (one of the two
    middles when the line is even), a Minion on each side; a Marionette next to the Demon."""
    n = len(seats)
    minions = [c for c in left if table.team(c) == "minion"]
    size = 1 + len(minions)
    start = rng.randrange(n)
    line = [(start + k) % n for k in range(size)]
    middle = rng.choice([size // 2] if size % 2 else [size // 2 - 1, size // 2])
    seats[line[middle]] = lord
    left.remove(lord)
    spots = [line[k] for k in range(size) if k != middle]
    for cid in tethered:
        beside = [line[k] for k in (middle - 1, middle + 1) if 0 <= k < size and seats[line[k]] is None]
        if not beside:
            raise SetupConflict("Two characters cannot both sit beside the Demon.")
        spot = rng.choice(beside)
        seats[spot] = cid
        spots.remove(spot)
        minions.remove(cid)
        left.remove(cid)
    rng.shuffle(minions)
    for spot, cid in zip(spots, minions, strict=True):
        seats[spot] = cid
        left.remove(cid)


# -- what the players see ------------------------------------------------------------------------

def _false_cards(table: _Table, rng: Rng, seated: list[str], draw: _Draw) -> dict[int, str]:
    """Seat index -> the character on the card, for each seat whose card lies: never a character in
    play, never one shown to someone else, never one that is itself always shown a false card, and
    never one that needs a character not in play (a Huntsman without the Damsel)."""
    in_play = set(seated) | set(draw.chosen)
    taken = set(in_play)
    shown: dict[int, str] = {}
    for i, cid in enumerate(seated):
        kind = table.change(cid).false_card
        if kind is None:
            continue
        options = [c for c in table.script if table.team(c) in FALSE_CARD_TEAMS[kind] and c not in taken
                   and table.change(c).false_card is None
                   and all(r in in_play for r in table.change(c).requires)]
        if not options:
            raise SetupConflict(f"No {kind} character of the script is left to show the {table.name(cid)}.")
        shown[i] = rng.choice(options)
        taken.add(shown[i])
    return shown


def _evil_townsfolk(table: _Table, rng: Rng, seated: list[str], draw: _Draw) -> tuple[set[int], list[str]]:
    """Seats of Townsfolk dealt evil (the Bounty Hunter's), never the changing character itself."""
    turned: set[int] = set()
    notes: list[str] = []
    for cid, change in table.changes(seated):
        if not change.evil_townsfolk:
            continue
        if draw.no_evil:
            raise SetupConflict(f"The {table.name(draw.no_evil)} means no evil players, so the "
                                f"{table.name(cid)}'s evil Townsfolk cannot be dealt.")
        options = [i for i, c in enumerate(seated) if table.team(c) == "townsfolk" and c != cid
                   and i not in turned]
        if len(options) < change.evil_townsfolk:
            raise SetupConflict(f"The {table.name(cid)} needs another Townsfolk in play to make evil.")
        for i in rng.sample(options, change.evil_townsfolk):
            turned.add(i)
            notes.append(f"The {table.name(cid)} makes a Townsfolk evil: {table.players[i]} (the "
                         f"{table.name(seated[i])}) is dealt evil; tell them so.")
    return turned, notes


def _bluffs(table: _Table, rng: Rng, taken: set[str]) -> tuple[str, ...]:
    """Up to three good characters of the script, neither in play nor shown, and never one always
    shown a false card (a Demon claiming the Drunk claims what nobody believes)."""
    options = [c for c in table.script if table.team(c) in GOOD_TEAMS and c not in taken
               and table.change(c).false_card is None]
    return tuple(rng.sample(options, min(BLUFFS, len(options))))


def _notes(table: _Table, draw: _Draw, seated: list[str]) -> list[str]:
    """Sentences for the Storytellers: what the deal did that they must act on, or could not do."""
    notes: list[str] = []
    in_play = list(dict.fromkeys([*draw.chosen, *seated]))
    for cid, change in table.changes(in_play):
        who = table.name(cid)
        if change.no_token:
            notes.append(f"{who} is in play but dealt to nobody: each night the Minions choose who "
                         f"babysits {who}.")
        if change.minions_made_in_play:
            notes.append(f"No Minion is dealt: on the first night the {who} chooses which players become "
                         "which Minions.")
        if change.demons < 0 and not change.no_token:
            notes.append(f"No Demon is dealt (the {who}): the {who} gets the bluffs.")
        if change.majority:
            notes.append(f"{draw.counts.demons} players are {who}.")
        if change.no_evil:
            notes.append(f"No evil character is dealt (the {who}): the Storytellers may break the rules.")
        if change.evil_line:
            notes.append(f"The evil players sit in a line with the {who} in the middle.")
        if change.storyteller_assigns:
            notes.append(f"{who}: the Storytellers assign the characters; this random deal is a "
                         "suggestion to change by hand.")
        if change.hidden:
            notes.append(f"{who}: players are not told their character or alignment; tell each when "
                         "they die.")
        if change.duplicates:
            notes.append(f"{who}: {change.duplicates} characters may be dealt more than once; this deal "
                         "deals each once, so add copies by hand.")
    for cid in table.script:
        own = table.homebrew.get(cid)
        if own and own.setup and (cid in in_play or own.team in SCRIPT_WIDE_TEAMS):
            notes.append(f"The {own.name} is homebrew with a set-up change the deal does not know: "
                         "apply it by hand.")
    return notes


def _drunk_copy(table: _Table, rng: Rng, seated: list[str]) -> list[str]:
    """With extra copies of a character (the Village Idiot), the one dealt drunk, named for the
    Storytellers: marking it (its Drunk reminder) is the game's job."""
    notes: list[str] = []
    for cid in dict.fromkeys(seated):
        change = table.change(cid)
        copies = [table.players[i] for i, c in enumerate(seated) if c == cid]
        if len(copies) < 2 or not change.drunk_copies:
            continue
        drunk = rng.sample(copies, change.drunk_copies)
        notes.append(f"{len(copies)} players are the {table.name(cid)} ({', '.join(copies)}); "
                     f"{', '.join(drunk)} {'is' if len(drunk) == 1 else 'are'} drunk: mark "
                     f"{'them' if len(drunk) > 1 else 'that player'} with the {table.name(cid)}'s Drunk "
                     "reminder.")
    return notes
