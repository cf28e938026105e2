"""The copilot's rules for Trouble Brewing's information characters: the Librarian, the Investigator,
the Chef and the Fortune Teller (its red herring from ``setup_tokens.py``).

Each proposer gives the true answer (or one true answer of many) and the answers the rules allow,
widened by the Spy's and the Recluse's misregistration while their ability works
(``registration.py``). ``copilot.py`` lists them in its ``_PROPOSERS``; its ``proposals`` frees the
answer of a Drunk or impaired informant as for every card.
"""

from __future__ import annotations

from collections.abc import Callable

from .answer_forms import (
    Answer,
    Form,
    NotAllowedAnswer,
    Proposal,
    _named,
    _number_form,
    _other_players,
    pair_beside,
)
from .characters import Characters, normalise_id
from .registration import alignments, characters_as, teams
from .setup_tokens import RED_HERRING, red_herring
from .state import ClocktowerState, Seat

#: the Librarian's "(Or that zero are in play.)", as the player is told it
NO_OUTSIDERS = "no Outsiders are in play"
_ZERO = frozenset({"0", "zero", "none", "nothing", "nooutsiders", "nooutsidersinplay", "nooutsidersareinplay",
                   "zeroareinplay", "zerooutsiders"})
_KIND = {"outsider": "Outsider", "minion": "Minion"}
_A_KIND = {"outsider": "an Outsider", "minion": "a Minion"}


# ----- the Librarian and the Investigator: "1 of 2 players is a particular <kind>" -----

def _pair_form(state: ClocktowerState, chars: Characters, seat: Seat, team: str, card: str, zero: bool) -> Form:
    """2 other players and a character of ``team`` on the script ("3 or 5 is the Butler"), or, for the
    Librarian, "zero"."""
    kind = _KIND[team]
    on_script = tuple(c for c in state.script.all_ids() if chars[c].team != "fabled")

    def read(text: str) -> Answer:
        if zero and normalise_id(text) in _ZERO:
            return Answer(NO_OUTSIDERS)
        players, named = _named(state, chars, text, on_script)
        pair = _other_players(state, seat, players, 2, card)
        if len(named) != 1:
            raise NotAllowedAnswer(f"the {card} is shown one {kind} on the script, and this names "
                                   f"{len(named)} characters.")
        if chars[named[0]].team != team:
            raise NotAllowedAnswer(f"the {card} is shown {_A_KIND[team]}, and the {chars[named[0]].name} is not one.")
        return Answer(f"{state.label(pair[0])} or {state.label(pair[1])} is the {chars[named[0]].name}",
                      players=tuple(pair), character=named[0])
    example = "'3 or 5 is the Butler'" if team == "outsider" else "'3 or 5 is the Poisoner'"
    return Form(f"2 other players and {_A_KIND[team]}, e.g. {example}" + (", or 'zero'" if zero else ""), read)


def _pair_check(state: ClocktowerState, chars: Characters, card: str,
                zero_allowed: bool) -> Callable[[Answer], None]:
    def check(answer: Answer) -> None:
        if not answer.players:
            if not zero_allowed:
                raise NotAllowedAnswer(f"an Outsider is in play, so the {card} learns one, not zero.")
            return
        if not any(answer.character in characters_as(state, chars, state.seat_of(p)) for p in answer.players):
            a, b = (state.label(p) for p in answer.players)
            raise NotAllowedAnswer(f"{a} and {b} are both not the {chars[answer.character].name} (nor may register "
                                   "as it), and at least one of the two must be.")
    return check


def _one_of_two(state: ClocktowerState, chars: Characters, seat: Seat, team: str, card: str) -> Proposal:
    """The Librarian's (``team`` "outsider") or the Investigator's ("minion") proposal."""
    kind = _KIND[team]
    librarian = team == "outsider"
    others = [s for s in state.seats if s is not seat and not s.traveller]
    # the Recluse registers as an Outsider unless the Storyteller makes it a Minion or Demon
    zero_allowed = librarian and not any(teams(state, chars, s) == {"outsider"} for s in state.seats)
    form = _pair_form(state, chars, seat, team, card, zero=librarian)
    check = _pair_check(state, chars, card, zero_allowed)
    true_ones = [s for s in others if chars[s.character].team == team]

    def truth(answer: Answer) -> bool:
        if not answer.players:
            return not any(chars[s.character].team == team for s in state.seats if not s.traveller)
        return any(state.seat_of(p).character == answer.character for p in answer.players)

    flags = []
    for s in others:
        name = chars[s.character].name
        if chars[s.character].team != team and team in teams(state, chars, s):
            flags.append(f"the {name} may register as {_A_KIND[team]}: you may show them as one")
        elif librarian and chars[s.character].team == team and len(teams(state, chars, s)) > 1:
            flags.append(f"the {name} may register as a Minion or Demon: 'zero' is then your call"
                         if zero_allowed else f"the {name} may register as a Minion or Demon")
    rule = f"2 other players, one of whom is (or may register as) the named {kind}" + \
        (", or zero when none is in play" if librarian else "")
    if not true_ones:
        if librarian:
            return Proposal(seat.player, card.lower(), NO_OUTSIDERS, None, rule=rule, flags=flags, form=form,
                            check=check, truth=truth)
        return Proposal(seat.player, card.lower(), f"no {kind} in play to show", None, rule=rule,
                        flags=[*flags, f"no other {kind} is in play: only one who may register as one can be shown"],
                        ready=False, form=form, check=check, truth=truth)
    shown = true_ones[0]
    pair = pair_beside(state, seat, shown)
    answer = f"{state.label(pair[0].player)} or {state.label(pair[1].player)} is the {chars[shown.character].name}"
    return Proposal(seat.player, card.lower(), answer, None, rule=rule, flags=flags, form=form, check=check,
                    truth=truth)


def _librarian(state: ClocktowerState, chars: Characters, seat: Seat) -> Proposal:
    return _one_of_two(state, chars, seat, "outsider", "Librarian")


def _investigator(state: ClocktowerState, chars: Characters, seat: Seat) -> Proposal:
    return _one_of_two(state, chars, seat, "minion", "Investigator")


# ----- the Chef -----

def evil_pairs(state: ClocktowerState, evil: set[str]) -> int:
    """How many pairs of neighbours around the whole circle (the dead and the Travellers too) are both
    in ``evil``: three in a row are two pairs."""
    circle = sorted(state.seats, key=lambda s: s.seat)
    if len(circle) < 2:
        return 0
    pairs = list(zip(circle, circle[1:] + circle[:1], strict=True))
    if len(circle) == 2:
        pairs = pairs[:1]
    return sum(1 for a, b in pairs if a.player in evil and b.player in evil)


def _chef(state: ClocktowerState, chars: Characters, seat: Seat) -> Proposal:
    fixed = {s.player for s in state.seats if alignments(state, s) == {"evil"}}
    swinging = [s for s in state.seats if len(alignments(state, s)) > 1]
    counts = {evil_pairs(state, fixed | {s.player for i, s in enumerate(swinging) if mask >> i & 1})
              for mask in range(1 << len(swinging))}
    truth = evil_pairs(state, {s.player for s in state.seats if s.alignment == "evil"})
    flags = []
    if len(counts) > 1:
        odd = ", ".join(state.label(s.player) for s in swinging)
        flags.append(f"{odd} may misregister: {min(counts)} to {max(counts)}")
    return Proposal(seat.player, "chef", str(truth), [str(n) for n in sorted(counts)], flags=flags,
                    form=_number_form(len(state.seats), "Chef"))


# ----- the Fortune Teller -----

def _yes_no_form() -> Form:
    def read(text: str) -> Answer:
        key = normalise_id(text)
        if key in ("yes", "no"):
            return Answer(key)
        raise NotAllowedAnswer("the Fortune Teller's answer is yes or no.")
    return Form("yes or no", read, ["no", "yes"])


def _not_chosen() -> Form:
    def read(text: str) -> Answer:
        raise NotAllowedAnswer("the Fortune Teller has not chosen 2 players yet, and learns about those two.")
    return Form("nothing until the Fortune Teller chooses 2 players", read)


def _fortune_teller(state: ClocktowerState, chars: Characters, seat: Seat) -> Proposal:
    """"yes" if either chosen player is the Demon (alive or dead) or the red herring; the Recluse
    may register as the Demon (while its ability works), which allows "yes" too."""
    herring = red_herring(state)
    flags = [] if herring else [f"no red herring on the grimoire: put the Fortune Teller's {RED_HERRING!r} "
                                "token on a good player (they may be the Fortune Teller)"]
    chosen = state.night_choices.get(seat.player) or []
    if len(chosen) != 2:
        return Proposal(seat.player, "fortuneteller", "nothing yet: the Fortune Teller has not chosen", None,
                        rule="waits for their choice", flags=["no choice yet", *flags], ready=False,
                        form=_not_chosen())
    picked = [state.seat_of(p) for p in chosen]
    sure = any(chars[s.character].team == "demon" or s.player == herring for s in picked)
    swinging = [s for s in picked if chars[s.character].team != "demon" and "demon" in teams(state, chars, s)]
    answers = {"yes" if sure else "no"} | ({"yes"} if swinging else set())
    if not sure and swinging:
        flags.append(f"the {chars[swinging[0].character].name} may register as the Demon: 'yes' at your call")
    about = " or ".join(state.label(p) for p in chosen)
    return Proposal(seat.player, "fortuneteller", "yes" if sure else "no", sorted(answers), flags=flags,
                    about=about, form=_yes_no_form())


PROPOSERS = {"librarian": _librarian, "investigator": _investigator, "chef": _chef,
             "fortuneteller": _fortune_teller}

TELLS = {
    "librarian": "You learn: {answer}.",
    "investigator": "You learn: {answer}.",
    "chef": "{answer} pairs of evil players sit next to each other.",
}
TELLS_ONE = {"chef": "1 pair of evil players sits next to each other."}


def fortune(about: str, answer: str) -> str:
    """The Fortune Teller's message: the two players and yes or no."""
    return f"Is either {about} a Demon? {answer.capitalize()}."
