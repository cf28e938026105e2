"""The Storyteller's answers to information, as the copilot reads them: a proposal (``Proposal``), the
ability's answer shape (``Form``: players by seat number, name or mention, a character, a number, a
direction) and ``read_answer``, which refuses in words what the rules do not allow. The bottom of the
copilot: the proposers (``copilot.py``, ``tb_information.py``) build on it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from .characters import Characters, normalise_id
from .state import ClocktowerState, Seat


class NotAllowedAnswer(ValueError):
    """An answer outside the set the rules allow, in a sentence for the Storyteller."""


@dataclass(frozen=True)
class Answer:
    """A Storyteller's answer as read: its words for the player, and what they name."""

    text: str
    players: tuple[str, ...] = ()
    character: str = ""


@dataclass
class Form:
    """The shape of an ability's answer (two players, a number from 0 to 2, a character on the
    script...): ``read`` turns the Storyteller's words into an ``Answer`` or raises
    ``NotAllowedAnswer`` saying what was expected."""

    #: what an answer looks like, for the Storyteller's form and the refusals
    shape: str
    read: Callable[[str], Answer]
    #: every answer of this shape, when short enough to list (an impaired informant's one-tap choices)
    every: list[str] | None = None


@dataclass
class Proposal:
    player: str
    #: the card the information is for (the player's shown character)
    character: str
    #: the proposed answer, in words
    answer: str
    #: every answer the rules allow, in words (None when there are too many to list: ``rule`` says,
    #: and ``check`` decides)
    allowed: list[str] | None = None
    rule: str = ""
    flags: list[str] = field(default_factory=list)
    #: whom the information is about, in words ("" when it is not about one player)
    about: str = ""
    #: whether ``answer`` can be sent as it is (not when it waits for a choice or the Storyteller's words)
    ready: bool = True
    #: the ability's answer shape (None: any words)
    form: Form | None = None
    #: the rule over a read answer where ``allowed`` cannot list it (the Washerwoman's, the Knight's)
    check: Callable[[Answer], None] | None = None
    #: whether a read answer is true on the grimoire, where that is not "equals the proposal"
    truth: Callable[[Answer], bool] | None = None
    #: the day the information is about (the Undertaker's execution)
    day: int = 0
    #: what accepting an answer records on the grimoire (the Grandmother's grandchild token follows it)
    on_accept: Callable[[Answer], None] | None = None


# ----- reading the Storyteller's answer -----

#: words an answer may hold besides what it names ("3 or 5 is the Chef", "Alice and Bob are not the Demon")
_FILLER = frozenset({"or", "and", "is", "are", "the", "a", "one", "of", "not", "demon", "seat", "seats", "player",
                     "players", "both", "either"})
_NOTHING = frozenset({"nothing", "nobody", "noone", "none"})
#: the longest allowed set the Storytellers' words list (longer ones are named by their rule)
_LISTED = 17


def _word(name: str) -> str:
    """A pattern for ``name`` as a whole word or phrase, any case."""
    return rf"(?<!\w){re.escape(name)}(?!\w)"


def _always(value: str) -> Callable[[re.Match[str]], str]:
    """A reading of a match that always gives ``value`` (a seat's player, a character's id)."""
    return lambda match: value


def _named(state: ClocktowerState, chars: Characters, text: str,
           characters: tuple[str, ...] = ()) -> tuple[list[str], list[str]]:
    """The players (seated; by mention, "Name (seat 3)", seat number or name) and the characters
    (of ``characters``, by name) that ``text`` names, each in the order written. Anything else in
    it, beyond a few linking words, is refused."""
    found: list[tuple[int, str, str]] = []  # (where, "player" or "character", id)
    rest = text

    def take(pattern: str, kind: str, what: Callable[[re.Match[str]], str]) -> None:
        nonlocal rest
        for match in re.finditer(pattern, rest, flags=re.IGNORECASE):
            found.append((match.start(), kind, what(match)))
        rest = re.sub(pattern, lambda m: " " * len(m.group(0)), rest, flags=re.IGNORECASE)

    by_seat = {str(s.seat): s.player for s in state.seats}
    seated = {s.player for s in state.seats}
    #: players whose name is a bare number, which reads as a seat first
    named_by_number = {state.name(s.player).strip(): s.player for s in state.seats
                       if state.name(s.player).strip().isdigit()}

    def mentioned(match: re.Match[str]) -> str:
        if match[1] not in seated:
            raise NotAllowedAnswer(f"{match[0]} is not a player seated in this game.")
        return match[1]

    def seat_numbered(match: re.Match[str]) -> str:
        if match[1] in named_by_number and named_by_number[match[1]] != by_seat.get(match[1]):
            raise NotAllowedAnswer(f"{match[1]!r} is a seat number and a player's name: write the player as "
                                   "'Name (seat N)' or by mention.")
        if match[1] not in by_seat:
            raise NotAllowedAnswer(f"nobody sits in seat {match[1]}.")
        return by_seat[match[1]]

    take(r"<@!?(\d+)>", "player", mentioned)
    for seat in sorted(state.seats, key=lambda s: -len(state.label(s.player))):
        take(_word(state.label(seat.player)), "player", _always(seat.player))
    for cid in sorted(characters, key=lambda c: -len(chars[c].name)):
        take(_word(chars[cid].name), "character", _always(cid))
    take(r"(?:(?<!\w)seat\s*|#)?(?<!\w)(\d+)(?!\w)", "player", seat_numbered)
    for seat in sorted(state.seats, key=lambda s: -len(state.name(s.player))):
        if state.name(seat.player).strip():
            take(_word(state.name(seat.player)), "player", _always(seat.player))
    unread = [w for w in re.findall(r"\w+", rest) if w.lower() not in _FILLER]
    if unread:
        kinds = "a seated player or a character" if characters else "a seated player"
        raise NotAllowedAnswer(f"{unread[0]!r} is not {kinds} (name players by seat number, name or mention).")
    found.sort()
    return ([i for _, kind, i in found if kind == "player"], [i for _, kind, i in found if kind == "character"])


def pair_beside(state: ClocktowerState, informant: Seat, shown: Seat) -> list[Seat]:
    """The two players a "one of them is X" answer proposes: ``shown`` and the next player after it
    in the circle who is neither it nor the informant, in seat order (the Washerwoman's, the
    Librarian's, the Investigator's)."""
    at = state.seats.index(shown)
    other = next(state.seats[(at + k) % len(state.seats)] for k in range(1, len(state.seats))
                 if state.seats[(at + k) % len(state.seats)] not in (informant, shown))
    return sorted([shown, other], key=lambda s: s.seat)


def _other_players(state: ClocktowerState, seat: Seat, players: list[str], count: int, card: str) -> list[str]:
    """``count`` distinct players other than the informant, in seat order."""
    if len(players) != count:
        want = "one other player" if count == 1 else f"{count} other players"
        raise NotAllowedAnswer(f"the {card} is shown {want}, and this names {len(players)}.")
    if len(set(players)) != count:
        raise NotAllowedAnswer(f"the {card}'s {count} players must be different, and this names one twice.")
    if seat.player in players:
        raise NotAllowedAnswer(f"the {card} is shown other players, not {state.label(seat.player)} themselves.")
    order = [s.player for s in state.seats]
    return sorted(players, key=order.index)


def _players_form(state: ClocktowerState, chars: Characters, seat: Seat, count: int, card: str) -> Form:
    shape = ("one other player (a seat number, name or mention)" if count == 1 else
             f"{count} other players, e.g. '3 and 5' (seat numbers, names or mentions)")

    def read(text: str) -> Answer:
        players, _ = _named(state, chars, text)
        pair = _other_players(state, seat, players, count, card)
        return Answer(" and ".join(state.label(p) for p in pair), players=tuple(pair))
    every = [state.label(s.player) for s in state.seats if s is not seat] if count == 1 else None
    return Form(shape, read, every)


def _washerwoman_form(state: ClocktowerState, chars: Characters, seat: Seat) -> Form:
    on_script = tuple(c for c in state.script.all_ids() if chars[c].team != "fabled")

    def read(text: str) -> Answer:
        players, named = _named(state, chars, text, on_script)
        pair = _other_players(state, seat, players, 2, "Washerwoman")
        if len(named) != 1:
            raise NotAllowedAnswer(f"the Washerwoman is shown one Townsfolk on the script, and this names "
                                   f"{len(named)} characters.")
        if chars[named[0]].team != "townsfolk":
            raise NotAllowedAnswer(f"the Washerwoman is shown a Townsfolk, and the {chars[named[0]].name} is not one.")
        return Answer(f"{state.label(pair[0])} or {state.label(pair[1])} is the {chars[named[0]].name}",
                      players=tuple(pair), character=named[0])
    return Form("2 other players and a Townsfolk, e.g. '3 or 5 is the Empath'", read)


def _number_form(most: int, card: str) -> Form:
    def read(text: str) -> Answer:
        words = text.strip()
        if not re.fullmatch(r"[0-9]{1,3}", words) or int(words) > most:
            raise NotAllowedAnswer(f"the {card}'s answer is a number from 0 to {most}.")
        return Answer(str(int(words)))
    return Form(f"a number from 0 to {most}", read, [str(n) for n in range(most + 1)])


def _character_form(state: ClocktowerState, chars: Characters, card: str, nothing: bool = False) -> Form:
    """A character on the script (its Travellers too), or "nothing" where there may be nothing to learn."""
    ids = [c for c in state.script.all_ids() if chars[c].team != "fabled"]
    shape = "a character on the script" + (", or 'nothing'" if nothing else "")

    def read(text: str) -> Answer:
        key = normalise_id(text)
        if nothing and key in _NOTHING:
            return Answer("nothing")
        # the script's own characters first, by name (a homebrew "beautifulhouse-amnesiac" is the Amnesiac)
        found = next((chars[c] for c in ids if key in (c, normalise_id(chars[c].name))), None) if key else None
        found = found or (chars.resolve(key) if key else None)
        if found is None or found.id not in ids:
            raise NotAllowedAnswer(f"the {card}'s answer is {shape}.")
        return Answer(found.name, character=found.id)
    return Form(shape, read, [chars[c].name for c in ids] + (["nothing"] if nothing else []))


def _direction_form() -> Form:
    def read(text: str) -> Answer:
        key = normalise_id(text)
        if key in ("clockwise", "anticlockwise"):
            return Answer(key)
        if key == "counterclockwise":
            return Answer("anticlockwise")
        raise NotAllowedAnswer("the Shugenja's answer is clockwise or anticlockwise.")
    return Form("clockwise or anticlockwise", read, ["anticlockwise", "clockwise"])


def _grimoire_form() -> Form:
    def read(text: str) -> Answer:
        return Answer("the grimoire" if normalise_id(text) in ("grimoire", "thegrimoire") else text.strip())
    return Form("the grimoire (an impaired Spy: your own words)", read)


def read_answer(proposal: Proposal, text: str) -> Answer:
    """The Storyteller's words read as an answer of the ability's form, inside what the rules allow;
    else ``NotAllowedAnswer``, saying why."""
    try:
        answer = proposal.form.read(text) if proposal.form is not None else Answer(text.strip())
        if proposal.allowed is not None and answer.text not in proposal.allowed:
            listed = len(proposal.allowed) <= _LISTED or not proposal.rule
            raise NotAllowedAnswer((", ".join(proposal.allowed) if listed else proposal.rule) + ".")
        if proposal.check is not None:
            proposal.check(answer)
    except NotAllowedAnswer as exc:
        raise NotAllowedAnswer(f"{text.strip()!r} is not an answer the rules allow here: {exc}") from None
    return answer
