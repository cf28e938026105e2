"""The copilot's rules for Sects & Violets' information characters: the Clockmaker, the Dreamer, the
Flowergirl, the Town Crier, the Oracle, the Seamstress and the Sage; and the Vortox, under which every
Townsfolk's information is false (``vortox``).

Each proposer gives the true answer (or one true answer of many) and the answers the rules allow,
widened by misregistration while it works (``registration.py``). ``copilot.py`` lists them in its
``_PROPOSERS``; its ``proposals`` frees the answer of an impaired informant, then turns a working
Vortox's Townsfolk answers false.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import combinations, product

from .answer_forms import (
    Answer,
    Form,
    NotAllowedAnswer,
    Proposal,
    _named,
    _players_form,
    pair_beside,
)
from .characters import Characters, normalise_id
from .registration import alignments, characters_as, evil_count, teams
from .rules import impaired
from .state import ClocktowerState, Seat

_GOOD = ("townsfolk", "outsider")
_EVIL = ("minion", "demon")


def _yes_no(card: str) -> Form:
    def read(text: str) -> Answer:
        key = normalise_id(text)
        if key in ("yes", "no"):
            return Answer(key)
        raise NotAllowedAnswer(f"the {card}'s answer is yes or no.")
    return Form("yes or no", read, ["no", "yes"])


def _truth_is(value: str) -> Callable[[Answer], bool]:
    return lambda answer: answer.text == value


# ----- the Clockmaker: "how many steps from the Demon to its nearest Minion" -----

def steps(state: ClocktowerState, demons: set[str], minions: set[str]) -> int | None:
    """The fewest steps around the circle (every seat counts, the dead and the Travellers too) from a
    player in ``demons`` to one in ``minions``; None when either is empty."""
    seats = state.seats
    found = [min((i - j) % len(seats), (j - i) % len(seats))
             for i, d in enumerate(seats) if d.player in demons
             for j, m in enumerate(seats) if m.player in minions and m.player != d.player]
    return min(found) if found else None


def _steps_form(most: int) -> Form:
    def read(text: str) -> Answer:
        words = text.strip()
        if not words.isascii() or not words.isdigit() or not 1 <= int(words) <= most:
            raise NotAllowedAnswer(f"the Clockmaker's answer is a number of steps from 1 to {most}.")
        return Answer(str(int(words)))
    return Form(f"a number of steps from 1 to {most}", read, [str(n) for n in range(1, most + 1)])


def _clockmaker(state: ClocktowerState, chars: Characters, seat: Seat) -> Proposal:
    """Every way the players may register (the Recluse as a Minion or the Demon, the Spy as good)
    gives a count; evil Travellers are not Minions (the wiki), and every seat is a step."""
    options = [sorted(teams(state, chars, s) & {"minion", "demon"} | ({"other"} if teams(state, chars, s) - {
        "minion", "demon"} else set())) for s in state.seats]
    counts: set[int] = set()
    for pick in product(*options):
        demons = {s.player for s, t in zip(state.seats, pick, strict=True) if t == "demon"}
        minions = {s.player for s, t in zip(state.seats, pick, strict=True) if t == "minion"}
        found = steps(state, demons, minions)
        if found is not None:
            counts.add(found)
    truth = steps(state, {s.player for s in state.seats if chars[s.character].team == "demon"},
                  {s.player for s in state.seats if chars[s.character].team == "minion"})
    form = _steps_form(max(1, len(state.seats) // 2))
    if truth is None:
        return Proposal(seat.player, "clockmaker", "no Demon and Minion to count between", form.every, form=form,
                        rule="any number of steps", ready=False,
                        flags=["no Demon or no Minion is in play: the number is yours to choose"])
    flags = []
    if len(counts) > 1:
        odd = [state.label(s.player) for s, o in zip(state.seats, options, strict=True) if len(o) > 1]
        flags.append(f"{', '.join(odd)} may misregister: {min(counts)} to {max(counts)} steps")
    return Proposal(seat.player, "clockmaker", str(truth), [str(n) for n in sorted(counts)], flags=flags, form=form,
                    truth=_truth_is(str(truth)))


# ----- the Dreamer: "1 good & 1 evil character, 1 of which is correct" -----

def _dreamer_form(state: ClocktowerState, chars: Characters) -> Form:
    on_script = tuple(c for c in state.script.all_ids() if chars[c].team in _GOOD + _EVIL)

    def read(text: str) -> Answer:
        players, named = _named(state, chars, text, on_script)
        if players or len(named) != 2 or len(set(named)) != 2:
            raise NotAllowedAnswer("the Dreamer learns 2 characters on the script, 1 good and 1 evil, e.g. "
                                   "'Sage or Vortox'.")
        good = [c for c in named if chars[c].team in _GOOD]
        evil = [c for c in named if chars[c].team in _EVIL]
        if len(good) != 1 or len(evil) != 1:
            raise NotAllowedAnswer("the Dreamer learns 1 good character (a Townsfolk or Outsider) and 1 evil "
                                   "character (a Minion or Demon).")
        return Answer(f"the {chars[good[0]].name} or the {chars[evil[0]].name}", character=f"{good[0]} {evil[0]}")
    return Form("a good and an evil character on the script, e.g. 'Sage or Vortox'", read)


def _not_chosen(card: str, what: str) -> Form:
    def read(text: str) -> Answer:
        raise NotAllowedAnswer(f"the {card} has not chosen yet, and learns about {what}.")
    return Form(f"nothing until the {card} chooses", read)


def _dreamer(state: ClocktowerState, chars: Characters, seat: Seat) -> Proposal:
    chosen = state.night_choices.get(seat.player) or []
    if len(chosen) != 1 or not state.seated(chosen[0]):
        return Proposal(seat.player, "dreamer", "nothing yet: the Dreamer has not chosen", None,
                        rule="waits for their choice", flags=["no choice yet"], ready=False,
                        form=_not_chosen("Dreamer", "the player they choose"))
    target = state.seat_of(chosen[0])
    registers = characters_as(state, chars, target)

    def pair(answer: Answer) -> list[str]:
        return answer.character.split()

    def check(answer: Answer) -> None:
        if not set(pair(answer)) & set(registers):
            raise NotAllowedAnswer(f"{state.label(target.player)} is neither (nor may register as either), and one "
                                   "of the two must be correct.")
    true = target.character
    wrong_team = _EVIL if chars[true].team in _GOOD else _GOOD
    wrong = next((c for c in state.script.all_ids() if chars[c].team in wrong_team), "")
    good, evil = (true, wrong) if chars[true].team in _GOOD else (wrong, true)
    flags = [f"{state.label(target.player)} may misregister"] if len(registers) > 1 else []
    if chars[true].team not in _GOOD + _EVIL or not wrong:
        return Proposal(seat.player, "dreamer", "", None, rule="a good and an evil character, 1 of which is correct",
                        flags=[*flags, f"{state.label(target.player)} is the {chars[true].name}: your words"],
                        ready=False, about=state.label(target.player), form=_dreamer_form(state, chars), check=check)
    return Proposal(seat.player, "dreamer", f"the {chars[good].name} or the {chars[evil].name}", None,
                    rule="a good and an evil character on the script, 1 of which is (or may register as) theirs",
                    flags=flags, about=state.label(target.player), form=_dreamer_form(state, chars), check=check,
                    truth=lambda answer: true in pair(answer))


# ----- the Flowergirl and the Town Crier: what the day did -----

def _flowergirl(state: ClocktowerState, chars: Characters, seat: Seat) -> Proposal:
    """"if a Demon voted today": a vote standing on a nomination when the day closed (votes move
    here, as a hand is raised or lowered until the clock passes)."""
    nominees = {n.nominee for n in state.nominations}
    voters = [state.seat_of(v) for v, target in state.votes.items() if target in nominees and state.seated(v)]
    sure = any(chars[s.character].team == "demon" for s in voters)
    could = [s for s in voters if chars[s.character].team != "demon" and "demon" in teams(state, chars, s)]
    answers = {"yes" if sure else "no"} | ({"yes"} if could else set())
    flags = [f"{state.label(could[0].player)} voted and may register as the Demon: 'yes' at your call"] \
        if could and not sure else []
    truth = "yes" if sure else "no"
    return Proposal(seat.player, "flowergirl", truth, sorted(answers), flags=flags, form=_yes_no("Flowergirl"),
                    day=state.day, truth=_truth_is(truth))


def _town_crier(state: ClocktowerState, chars: Characters, seat: Seat) -> Proposal:
    """"if a Minion nominated today": nominations only (an exile is not one, the wiki)."""
    nominators = [state.seat_of(n.nominator) for n in state.nominations if state.seated(n.nominator)]
    sure = any(chars[s.character].team == "minion" for s in nominators)
    ways = product(*({t == "minion" for t in teams(state, chars, s)} for s in nominators))
    answers = {"yes" if any(way) else "no" for way in ways}
    truth = "yes" if sure else "no"
    flags = ["a nominator may misregister: either answer"] if len(answers) > 1 else []
    return Proposal(seat.player, "towncrier", truth, sorted(answers), flags=flags, form=_yes_no("Town Crier"),
                    day=state.day, truth=_truth_is(truth))


# ----- the Oracle: "how many dead players are evil" -----

def _oracle(state: ClocktowerState, chars: Characters, seat: Seat) -> Proposal:
    found = evil_count(state, [s for s in state.seats if not s.alive])
    truth, low, high, flags = found.truth, found.low, found.high, [found.flag] if found.flag else []
    most = len(state.seats)
    every = [str(n) for n in range(most + 1)]

    def read(text: str) -> Answer:
        words = text.strip()
        if words not in every:
            raise NotAllowedAnswer(f"the Oracle's answer is a number from 0 to {most}.")
        return Answer(words)
    return Proposal(seat.player, "oracle", str(truth), [str(n) for n in range(low, high + 1)], flags=flags,
                    form=Form(f"a number from 0 to {most}", read, every), truth=_truth_is(str(truth)))


# ----- the Seamstress: "2 players (not yourself): you learn if they are the same alignment" -----

def _seamstress(state: ClocktowerState, chars: Characters, seat: Seat) -> Proposal | None:
    chosen = [p for p in state.night_choices.get(seat.player) or [] if state.seated(p)]
    if len(chosen) != 2:
        return None  # "might choose": nothing to learn without 2 players
    a, b = (state.seat_of(p) for p in chosen)
    truth = "yes" if a.alignment == b.alignment else "no"
    answers = {"yes" if x == y else "no" for x in alignments(state, a) for y in alignments(state, b)}
    flags = ["a chosen player may misregister: either answer"] if len(answers) > 1 else []
    about = " and ".join(state.label(p) for p in sorted(chosen, key=[s.player for s in state.seats].index))
    return Proposal(seat.player, "seamstress", truth, sorted(answers), flags=flags, about=about,
                    form=_yes_no("Seamstress"), truth=_truth_is(truth))


# ----- the Sage: "If the Demon kills you, you learn that it is 1 of 2 players" -----

def _sage(state: ClocktowerState, chars: Characters, seat: Seat) -> Proposal | None:
    if seat.player not in state.dawn_deaths:
        return None
    source = state.killed_tonight.get(seat.player, "")
    flags = []
    if source and chars[source].team == "demon":
        killers = [s for s in state.seats if s.character == source]
    elif source:
        return None  # killed by another ability (the wiki: the Pit-Hag's arbitrary deaths): nothing to learn
    else:
        killers = [s for s in state.seats if chars[s.character].team == "demon"]
        flags.append("killed by your hand tonight: the Sage learns only if the Demon killed them; send this "
                     "only if so")
    if not killers:
        return None
    killer_ids = {s.player for s in killers}

    def check(answer: Answer) -> None:
        if not set(answer.players) & killer_ids:
            a, b = (state.label(p) for p in answer.players)
            raise NotAllowedAnswer(f"neither {a} nor {b} is the Demon who killed the Sage, and one of the two must be.")
    pair = pair_beside(state, seat, killers[0])
    return Proposal(seat.player, "sage", " and ".join(state.label(s.player) for s in pair), None,
                    rule="2 other players, one of whom is the Demon who killed them", flags=flags,
                    form=_players_form(state, chars, seat, 2, "Sage"), check=check,
                    truth=lambda answer: bool(set(answer.players) & killer_ids))


# ----- the Vortox: "Townsfolk abilities yield false info" -----

def vortox_working(state: ClocktowerState) -> str:
    """The living Vortox whose ability works ("" when none): its player, named."""
    for vortox in state.by_character("vortox"):
        if vortox.alive and not impaired(state, vortox.player):
            return state.label(vortox.player)
    return ""


def _candidates(state: ClocktowerState, chars: Characters, seat: Seat, shape: str) -> Iterator[str]:
    """Answers of the form ``shape`` names, to try for a false one (players by seat, the script's
    characters by name): two characters, two players and a character, or two players."""
    others = [str(s.seat) for s in state.seats if s is not seat]
    ids = [c for c in state.script.all_ids() if chars[c].team in _GOOD + _EVIL]
    if "character" in shape and "player" not in shape:  # the Dreamer's: a good and an evil character
        good = [chars[c].name for c in ids if chars[c].team in _GOOD]
        evil = [chars[c].name for c in ids if chars[c].team in _EVIL]
        yield from (f"{x} or {y}" for x, y in product(good, evil))
    elif any(kind in shape for kind in ("Townsfolk", "Outsider", "Minion")):  # "3 or 5 is the Chef"
        names = [chars[c].name for c in ids]
        yield from (f"{a} or {b} is the {name}" for name, (a, b) in product(names, combinations(others, 2)))
    else:
        yield from (f"{a} and {b}" for a, b in combinations(others, 2))


def falsify(state: ClocktowerState, chars: Characters, seat: Seat, proposal: Proposal) -> None:
    """A working Vortox: the Townsfolk's allowed answers become the false ones (those its rules would
    refuse), and the proposal one of them. Where no answer of the form is false, it says so."""
    who = vortox_working(state)
    note = f"the Vortox ({who}): Townsfolk information is false"
    if proposal.allowed == ["nothing"]:  # the Undertaker after no execution: nothing is learned, nothing to falsify
        proposal.flags.insert(0, f"{note}, but there is nothing to learn tonight")
        return
    if proposal.allowed is not None and proposal.form is not None and proposal.form.every is not None:
        # the Mathematician's allowed counts are every count (the Storytellers confirm): false is any but its own
        true = [proposal.answer] if proposal.character == "mathematician" else proposal.allowed
        false = [a for a in proposal.form.every if a not in true]
        if not false:
            proposal.flags.insert(0, f"{note}, and no answer of the form is false here: any answer (your call)")
            proposal.allowed, proposal.check = list(proposal.form.every), None
            return
        proposal.allowed = false
        proposal.answer = false[0]
        proposal.rule = f"a false answer: {proposal.form.shape}"
        proposal.flags.insert(0, note)
        return
    original, form = proposal.check, proposal.form
    if original is None or form is None:
        proposal.flags.insert(0, f"{note}: your words must be false")
        return

    def check(answer: Answer) -> None:
        try:
            original(answer)
        except NotAllowedAnswer:
            return
        raise NotAllowedAnswer("the Vortox makes every Townsfolk's information false, and this is true.")
    proposal.check = check
    proposal.rule = f"a false answer (under the Vortox): {form.shape}"
    proposal.flags.insert(0, note)
    if not proposal.ready and not proposal.answer:
        return
    for text in _candidates(state, chars, seat, form.shape):
        try:
            answer = form.read(text)
            check(answer)
        except NotAllowedAnswer:
            continue
        proposal.answer, proposal.ready = answer.text, True
        return
    proposal.answer, proposal.ready = "no false answer found: your words", False


def vortox_applies(state: ClocktowerState, chars: Characters, seat: Seat) -> bool:
    """Whether this informant's information comes from a Townsfolk ability under a working Vortox."""
    return bool(vortox_working(state)) and chars[seat.acting].team == "townsfolk"


PROPOSERS = {"clockmaker": _clockmaker, "dreamer": _dreamer, "flowergirl": _flowergirl, "towncrier": _town_crier,
             "oracle": _oracle, "seamstress": _seamstress, "sage": _sage}

TELLS = {
    "clockmaker": "The Demon is {answer} steps from its nearest Minion.",
    "dreamer": "{about} is {answer}.",
    "oracle": "{answer} dead players are evil.",
    "sage": "The Demon who killed you is one of {answer}.",
}
TELLS_ONE = {"clockmaker": "The Demon is 1 step from its nearest Minion.", "oracle": "1 dead player is evil."}
#: the yes-or-no answers, in the player's words ({about}, {day})
TELLS_YES_NO = {
    "flowergirl": {"yes": "A Demon voted on day {day}.", "no": "No Demon voted on day {day}."},
    "towncrier": {"yes": "A Minion nominated on day {day}.", "no": "No Minion nominated on day {day}."},
    "seamstress": {"yes": "{about} are of the same alignment.", "no": "{about} are not of the same alignment."},
}
#: cards whose proposal is one true answer of many (the Mathematician's ledger says "false on the grimoire")
ONE_OF_MANY = ("dreamer", "sage")
