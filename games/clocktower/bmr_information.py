"""The copilot's rules for Bad Moon Rising's information: the Grandmother (and her grandchild token),
the Chambermaid and the Godfather's first night.

As ``tb_information.py``: each proposer gives the true answer and the answers the rules allow,
widened by misregistration while it works (``registration.py``); ``copilot.py`` lists them in its
``_PROPOSERS`` and frees the answer of a Drunk or impaired informant. The Gambler's death is
resolve's (``resolve._gambler``), applied at the lock; what the Exorcist tells the Demon is
``bmr_exorcist.py``.
"""

from __future__ import annotations

from collections.abc import Callable

from games.engine import Rng

from .answer_forms import Answer, Form, NotAllowedAnswer, Proposal, _named, _number_form
from .asks import first_night_for, order_for
from .characters import Characters, normalise_id
from .registration import alignments, characters_as, teams
from .state import ClocktowerState, Reminder, Seat

#: the Grandmother's token, as the official records spell it
GRANDCHILD = "Grandchild"
#: the Godfather's answer when no Outsider is in play
NO_OUTSIDERS = "no Outsiders are in play"
_ZERO = frozenset({"0", "zero", "none", "nothing", "no", "nooutsiders", "nooutsidersareinplay", "nooutsidersinplay"})
_GOOD_TEAMS = ("townsfolk", "outsider")


# ----- the Grandmother -----

def grandchild(state: ClocktowerState) -> str | None:
    """The player the Grandmother's "Grandchild" token is on, or None."""
    return next((r.player for r in state.reminders
                 if r.source == "grandmother" and r.token.lower() == GRANDCHILD.lower()), None)


def place_grandchild(state: ClocktowerState, chars: Characters, rng: Rng) -> str | None:
    """"When preparing the first night, choose a Grandchild by marking any good character": with a
    Grandmother in play (or a Drunk who believes they are one), a random good Townsfolk or Outsider
    other than the Grandmother, never a Traveller. A token already placed stays."""
    placed = grandchild(state)
    if placed is not None:
        return placed
    grandmothers = [s.player for s in state.seats if "grandmother" in (s.character, s.shown)]
    if not grandmothers:
        return None
    good = [s.player for s in state.seats if s.alignment == "good" and not s.traveller
            and s.player not in grandmothers and chars[s.character].team in _GOOD_TEAMS]
    if not good:
        return None
    chosen = rng.choice(good)
    state.reminders.append(Reminder(player=chosen, token=GRANDCHILD, source="grandmother"))
    return chosen


def move_grandchild(state: ClocktowerState, player: str) -> None:
    """The Storytellers showed another grandchild: the token follows what they judged."""
    state.reminders = [r for r in state.reminders
                       if not (r.source == "grandmother" and r.token.lower() == GRANDCHILD.lower())]
    state.reminders.append(Reminder(player=player, token=GRANDCHILD, source="grandmother"))


def _good_shown(state: ClocktowerState, chars: Characters, target: Seat) -> list[str]:
    """The characters a player may be shown as to the Grandmother: a good Townsfolk or Outsider they
    are or may register as (none when they cannot register as good)."""
    if "good" not in alignments(state, target):
        return []
    return [c for c in characters_as(state, chars, target) if chars[c].team in _GOOD_TEAMS
            and (c != target.character or target.alignment == "good")]


def _grandmother_form(state: ClocktowerState, chars: Characters, seat: Seat) -> Form:
    on_script = tuple(c for c in state.script.all_ids() if chars[c].team in _GOOD_TEAMS)

    def read(text: str) -> Answer:
        players, named = _named(state, chars, text, on_script)
        if len(players) != 1 or len(named) != 1:
            raise NotAllowedAnswer("the Grandmother is shown one other player and their character (a Townsfolk "
                                   "or Outsider on the script).")
        if players[0] == seat.player:
            raise NotAllowedAnswer("the Grandmother's grandchild is another player.")
        return Answer(f"{state.label(players[0])} is the {chars[named[0]].name}", players=(players[0],),
                      character=named[0])
    return Form("one other player and their character, e.g. '3 is the Professor'", read)


def _grandmother(state: ClocktowerState, chars: Characters, seat: Seat) -> Proposal | None:
    if not first_night_for(state, seat):
        return None  # later nights: her death with the grandchild's (the night's mechanics)
    form = _grandmother_form(state, chars, seat)

    def check(answer: Answer) -> None:
        target = state.seat_of(answer.players[0])
        if answer.character not in _good_shown(state, chars, target):
            raise NotAllowedAnswer(f"{state.label(target.player)} is not a good "
                                   f"{chars[answer.character].name} (nor may register as one): the "
                                   "grandchild is a good player shown as their character.")

    def truth(answer: Answer) -> bool:
        target = state.seat_of(answer.players[0])
        return target.alignment == "good" and target.character == answer.character

    flags = [f"the {chars[s.character].name} may register as a good Townsfolk or Outsider: you may show "
             "them as the grandchild" for s in state.seats
             if s is not seat and s.alignment != "good" and _good_shown(state, chars, s)][:1]
    rule = "one good player and their character (a Townsfolk or Outsider); the token follows your answer"
    child = grandchild(state)
    if child is None or child == seat.player:
        return Proposal(seat.player, "grandmother", "no grandchild on the grimoire", None, rule=rule,
                        flags=[*flags, f"no {GRANDCHILD!r} token: answer with a good player and their "
                               "character, and the token goes on them"], ready=False, form=form, check=check,
                        truth=truth, on_accept=lambda answer: move_grandchild(state, answer.players[0]))
    target = state.seat_of(child)
    return Proposal(seat.player, "grandmother", f"{state.label(child)} is the {chars[target.character].name}",
                    None, rule=rule, flags=flags, form=form, check=check, truth=truth,
                    on_accept=lambda answer: move_grandchild(state, answer.players[0]))


# ----- the Chambermaid -----

def _not_chosen() -> Form:
    def read(text: str) -> Answer:
        raise NotAllowedAnswer("the Chambermaid has not chosen 2 players yet, and learns about those two.")
    return Form("nothing until the Chambermaid chooses 2 players", read)


def chambermaid(state: ClocktowerState, chars: Characters, seat: Seat,
                woke: Callable[[Seat], bool]) -> Proposal:
    """How many of the 2 chosen woke tonight due to their own ability, before the Chambermaid's step:
    ``woke`` says whether a player was woken to choose or learn by their card tonight (the copilot's
    and the night asks' own reading); a drunk or poisoned player who woke counts."""
    chosen = state.night_choices.get(seat.player) or []
    if len(chosen) != 2:
        return Proposal(seat.player, "chambermaid", "nothing yet: the Chambermaid has not chosen", None,
                        rule="waits for their choice", flags=["no choice yet"], ready=False, form=_not_chosen())
    mine = order_for(state, seat, chars)
    at = mine.index(seat.acting) if seat.acting in mine else len(mine)
    count = 0
    flags = []
    for player in chosen:
        other = state.seat_of(player)
        order = order_for(state, other, chars)
        if not woke(other):
            continue
        if other.acting in order and order.index(other.acting) > at:
            flags.append(f"{state.label(player)} wakes after the Chambermaid tonight: not counted")
            continue
        count += 1
    about = " and ".join(state.label(p) for p in chosen)
    return Proposal(seat.player, "chambermaid", str(count), [str(count)], flags=flags, about=about,
                    form=_number_form(2, "Chambermaid"))


# ----- the Godfather's first night -----

def _godfather_form(state: ClocktowerState, chars: Characters) -> Form:
    outsiders = tuple(c for c in state.script.all_ids() if chars[c].team == "outsider")

    def read(text: str) -> Answer:
        if normalise_id(text) in _ZERO:
            return Answer(NO_OUTSIDERS)
        players, named = _named(state, chars, text, outsiders)
        if players:
            raise NotAllowedAnswer("the Godfather is shown Outsider characters, not players.")
        if not named:
            raise NotAllowedAnswer("the Godfather is shown the Outsiders in play, or that none are.")
        unique = sorted(set(named), key=named.index)
        return Answer(_outsider_words(chars, unique), character=",".join(unique))
    return Form("the Outsider characters in play, e.g. 'the Goon and the Tinker', or 'none'", read)


def _outsider_words(chars: Characters, ids: list[str]) -> str:
    names = [f"the {chars[c].name}" for c in ids]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _covered(extra: list[str], options: list[set[str]]) -> bool:
    """Whether each of ``extra`` can be a different one of the swinging players' registrations."""
    if not extra:
        return True
    first, rest = extra[0], extra[1:]
    return any(first in opts and _covered(rest, options[:i] + options[i + 1:]) for i, opts in enumerate(options))


def _godfather(state: ClocktowerState, chars: Characters, seat: Seat) -> Proposal | None:
    if not first_night_for(state, seat):
        return None  # later nights: its kill if an Outsider died today (the night's mechanics)
    players = [s for s in state.seats if not s.traveller]
    true_ones = list(dict.fromkeys(s.character for s in players if chars[s.character].team == "outsider"))
    # who must be shown (registers only as an Outsider) and who may be (the Spy; a Recluse that may not)
    must = {s.character for s in players if teams(state, chars, s) == {"outsider"}}
    swinging = [s for s in players if "outsider" in teams(state, chars, s) and teams(state, chars, s) != {"outsider"}]
    options = [{c for c in characters_as(state, chars, s) if chars[c].team == "outsider"} for s in swinging]

    def check(answer: Answer) -> None:
        named = [c for c in answer.character.split(",") if c]
        missing = sorted(must - set(named))
        if missing:
            raise NotAllowedAnswer(f"the {chars[missing[0]].name} is in play, and the Godfather learns every "
                                   "Outsider in play.")
        if not _covered([c for c in named if c not in must], options):
            raise NotAllowedAnswer("that names an Outsider nobody in play is (nor may register as).")

    flags = [f"the {chars[s.character].name} may register as an Outsider (or not): your call" for s in swinging]
    answer = _outsider_words(chars, true_ones) if true_ones else NO_OUTSIDERS
    return Proposal(seat.player, "godfather", answer, None, rule="every Outsider in play (misregistration "
                    "may add or leave one out)", flags=flags, form=_godfather_form(state, chars), check=check,
                    truth=lambda a: set(a.character.split(",")) - {""} == set(true_ones))


PROPOSERS = {"grandmother": _grandmother, "godfather": _godfather}

TELLS = {
    "grandmother": "Your grandchild: {answer}.",
    "chambermaid": "{answer} of the 2 players you chose woke tonight due to their ability.",
    "godfather": "The Outsiders in play: {answer}.",
}
TELLS_ONE = {"chambermaid": "1 of the 2 players you chose woke tonight due to their ability."}
