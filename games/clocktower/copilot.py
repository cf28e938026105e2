"""The Storyteller's copilot: for each piece of information due tonight, the answers the rules
allow, one proposed, and why a Storyteller should look (flags).

A proposal is computed on the grimoire as it stands after the night's mechanics (``resolve.py``),
walking tonight's order by each player's card: the Drunk and the Marionette get their card's
information, flagged as theirs to choose. Misregistration widens the allowed set (the Recluse may
register as evil and as a Minion or Demon; the Spy as good and as a Townsfolk or Outsider) while
their ability works (``registration.py``: not while drunk or poisoned), and an impaired informant
allows any answer of its ability's form. Where the rule leaves the answer to the
Storyteller (the High Priestess, the Mathematician) the proposal says so.

A Storyteller's own answer is read in the ability's form (``Form``: players by seat number, name or
mention, a character, a number, a direction) and checked against the allowed set, or the rule
(``check``) where the set is too large to list; ``read_answer`` refuses the rest in words.
"""

from __future__ import annotations

import re

from .answer_forms import (
    _LISTED,
    Answer,
    Form,
    NotAllowedAnswer,
    Proposal,
    _character_form,
    _direction_form,
    _grimoire_form,
    _number_form,
    _players_form,
    _washerwoman_form,
    pair_beside,
)
from .answer_forms import (
    read_answer as read_answer,  # the copilot's callers read answers from here
)
from .asks import ask_for, first_night_for, order_for
from .bmr_information import PROPOSERS as BMR_PROPOSERS
from .bmr_information import TELLS as BMR_TELLS
from .bmr_information import TELLS_ONE as BMR_TELLS_ONE
from .bmr_information import chambermaid
from .characters import Characters
from .info import names
from .registration import alignments, characters_as, evil_count, teams
from .rules import circle_neighbours, impaired, ruled
from .snv_information import ONE_OF_MANY as SNV_ONE_OF_MANY
from .snv_information import PROPOSERS as SNV_PROPOSERS
from .snv_information import TELLS as SNV_TELLS
from .snv_information import TELLS_ONE as SNV_TELLS_ONE
from .snv_information import TELLS_YES_NO, falsify, vortox_applies
from .snv_night import barista_sober, barista_twice, keeps_ability, regains_ability
from .state import Abnormal, ClocktowerState, Seat
from .tb_information import PROPOSERS as TB_PROPOSERS
from .tb_information import TELLS as TB_TELLS
from .tb_information import TELLS_ONE as TB_TELLS_ONE
from .tb_information import fortune

# ----- who is due information tonight -----

def _informants(state: ClocktowerState, chars: Characters) -> list[Seat]:
    seats = [s for s in state.seats if (s.acting in _PROPOSERS or judged_informant(state, chars, s))
             and _order(state, s, chars) is not None]
    return sorted(seats, key=lambda s: _order(state, s, chars) or ())


def _order(state: ClocktowerState, seat: Seat, chars: Characters) -> tuple[int, int] | None:
    """Where this informant learns tonight (None: not tonight): its place in tonight's order, or, for the
    dead player the Bone Collector chose, its first night's ("you start knowing" works again, the wiki), after
    the others."""
    order = order_for(state, seat, chars)
    if seat.acting in order:
        return (0, order.index(seat.acting))
    first = chars.night_order.first_night
    if regains_ability(state, seat) and seat.acting in first:
        return (1, first.index(seat.acting))
    return None


#: an ability (or its night reminder) that gives its player information
_LEARNS = re.compile(r"\b(learns?|start knowing|you know|show (them|the player)|is told)\b", re.IGNORECASE)


def judged_informant(state: ClocktowerState, chars: Characters, seat: Seat) -> bool:
    """Whether this player's card is one the Storytellers judge and it learns something tonight."""
    if ruled(state, seat.acting) or seat.acting not in chars:
        return False
    character = chars[seat.acting]
    reminder = character.first_night_reminder if first_night_for(state, seat) else character.other_night_reminder
    return bool(_LEARNS.search(character.ability) or _LEARNS.search(reminder))


def _judged(state: ClocktowerState, chars: Characters, seat: Seat) -> Proposal:
    name = chars[seat.acting].name
    return Proposal(seat.player, seat.acting, "", None, ready=False,
                    rule=f"the bot has no rules for the {name}: answer as you judge it; nothing is checked")


def proposals(state: ClocktowerState, chars: Characters) -> list[Proposal]:
    """Tonight's information, in night order."""
    out = []
    for seat in _informants(state, chars):
        # the Ravenkeeper is woken by its death; a Waitress the visit killed still learned the character; the
        # Sage learns as the Demon kills it
        woken = seat.player in state.dawn_deaths and seat.acting in ("ravenkeeper", "waitress", "harlot", "sage") \
            or keeps_ability(state, seat)  # the Bone Collector's choice: its information is due
        if not seat.alive and not woken:
            continue
        proposer = _PROPOSERS.get(seat.acting, _judged)
        proposal = proposer(state, chars, seat)
        if proposal is None:
            continue
        if seat.character != seat.shown:
            proposal.flags.insert(0, f"is truly the {chars[seat.character].name}: any answer (your choice)")
            _free(proposal)
        else:
            why = impaired(state, seat.player)
            if woken and state.killed_tonight.get(seat.player) == "pukka" and \
                    state.settings.pukka_ravenkeeper == "poisoned":
                why = "killed by the Pukka, so poisoned when woken"
            # false "even if they are drunk or poisoned" (the wiki); true for the Barista's sober & healthy one
            if vortox_applies(state, chars, seat) and not barista_sober(state, seat.player):
                falsify(state, chars, seat, proposal)
                if why:
                    proposal.flags.insert(1, f"drunk or poisoned ({why}): false all the same, under the Vortox")
            elif why:
                proposal.flags.insert(0, f"drunk or poisoned ({why}): any answer (your choice)")
                _free(proposal)
        if barista_twice(state, seat.player):
            proposal.flags.append("Acts Twice (the Barista): their ability works twice tonight: accept two answers "
                                  "(`/st inform` twice; a third corrects the second); both are delivered")
        out.append(proposal)
    return out


def _free(proposal: Proposal) -> None:
    """Any answer of the ability's form: the informant's information is arbitrary, never its shape."""
    form = proposal.form
    if form is None and proposal.allowed is None and proposal.check is None:
        return  # already any answer (a character the Storytellers judge): its rule says so
    proposal.allowed, proposal.check = (form.every if form else None), None
    proposal.rule = f"any answer: {form.shape}" if form else "any answer"


def _empath(state: ClocktowerState, chars: Characters, seat: Seat) -> Proposal:
    found = evil_count(state, [state.seat_of(p) for p in circle_neighbours(state, seat.player)])
    return Proposal(seat.player, "empath", str(found.truth), [str(n) for n in range(found.low, found.high + 1)],
                    flags=[found.flag] if found.flag else [], form=_number_form(2, "Empath"))


def _undertaker(state: ClocktowerState, chars: Characters, seat: Seat) -> Proposal | None:
    """"Which character died by execution today": nothing when nobody was executed, or the executed
    player did not die of it (already dead; the Lleech whose host lives). On the Butcher's day two
    may have: either is allowed (the Storytellers choose), the last proposed."""
    form = _character_form(state, chars, "Undertaker", nothing=True)
    died = [(p, why) for p, why in ((state.first_executed, state.first_executed_impaired),
                                    (state.executed if state.execution_killed else "", state.executed_impaired)) if p]
    if not died:
        why = (f"{state.label(state.executed)} was executed but did not die" if state.executed else
               "there was none")
        return Proposal(seat.player, "undertaker", "nothing", ["nothing"], about=f"day {state.day}'s execution ({why})",
                        form=form, day=state.day)
    options: list[str] = []
    flags: list[str] = []
    for player, impaired_then in died:
        executed = state.seat_of(player)
        # as they registered when executed: a Recluse poisoned then is the Recluse, even if healthy now
        found = characters_as(state, chars, executed, sober=not impaired_then)
        options += [chars[c].name for c in found if chars[c].name not in options]
        flags += [f"{state.label(player)} may misregister"] if len(found) > 1 else []
    if len(died) > 1:
        flags.insert(0, f"two players died by execution today (the Butcher's day): {names(state, [p for p, _ in died])}; "
                        "the Undertaker learns one character, your choice")
    last = state.seat_of(died[-1][0])
    return Proposal(seat.player, "undertaker", chars[last.character].name, options, flags=flags,
                    about=names(state, [p for p, _ in died]), form=form, day=state.day)


def _character_of(state: ClocktowerState, chars: Characters, seat: Seat, target: str, card: str) -> Proposal:
    other = state.seat_of(target)
    options = characters_as(state, chars, other)
    flags = [f"{state.label(target)} may misregister"] if len(options) > 1 else []
    return Proposal(seat.player, card, chars[other.character].name, [chars[c].name for c in options], flags=flags,
                    about=state.label(target), form=_character_form(state, chars, chars[card].name))


def _unchosen() -> Form:
    """A woken Ravenkeeper that has not chosen: there is no player to learn the character of yet."""
    def read(text: str) -> Answer:
        raise NotAllowedAnswer("the Ravenkeeper has not chosen a player yet, and learns that player's character.")
    return Form("nothing until the Ravenkeeper chooses a player", read)


def _ravenkeeper(state: ClocktowerState, chars: Characters, seat: Seat) -> Proposal | None:
    chosen = state.night_choices.get(seat.player)
    if not chosen:
        return Proposal(seat.player, "ravenkeeper", "nothing yet: the Ravenkeeper has not chosen", None,
                        rule="waits for their choice", flags=["no choice yet"], ready=False, form=_unchosen())
    proposal = _character_of(state, chars, seat, chosen[0], "ravenkeeper")
    return proposal


def _waitress(state: ClocktowerState, chars: Characters, seat: Seat) -> Proposal | None:
    chosen = state.night_choices.get(seat.player)
    if not chosen or not state.waitress_answers.get(chosen[0]):
        return None
    return _character_of(state, chars, seat, chosen[0], seat.acting)


def _knight(state: ClocktowerState, chars: Characters, seat: Seat) -> Proposal:
    """Any 2 other players who are not the Demon. The Recluse is not the Demon, so it may be shown;
    that it might register as the Demon (while its ability works) only lets the Storyteller leave it out."""
    others = [s for s in state.seats if s is not seat and not s.traveller]
    swinging = [s for s in others if chars[s.character].team != "demon" and "demon" in teams(state, chars, s)]
    safe = [s for s in others if chars[s.character].team != "demon" and s not in swinging]
    pair = safe[:2]
    flags = [f"the {chars[swinging[0].character].name} may register as the Demon: include them at your call"] \
        if swinging else []

    def demons(answer: Answer) -> list[str]:
        return [p for p in answer.players if chars[state.seat_of(p).character].team == "demon"]

    def check(answer: Answer) -> None:
        found = demons(answer)
        if found:
            raise NotAllowedAnswer(f"{state.label(found[0])} is the Demon, and the Knight learns 2 players who "
                                   "are not the Demon.")
    return Proposal(seat.player, "knight", " and ".join(state.label(s.player) for s in pair), None,
                    rule="any 2 other players who are not the Demon", flags=flags,
                    form=_players_form(state, chars, seat, 2, "Knight"), check=check,
                    truth=lambda answer: not demons(answer))


def _juggler(state: ClocktowerState, chars: Characters, seat: Seat) -> Proposal | None:
    made = next((a for a in state.announcements if a.kind == "juggler" and a.by == seat.player), None)
    first_day = seat.joined_day + 1 if seat.traveller else 1  # "On your 1st day" (an Apprentice's: after it joined)
    if made is None or state.day != first_day:
        return None
    guesses = made.guesses
    right = sum(1 for p, c in guesses.items() if any(s.player == p and s.character == c for s in state.seats))
    # judged as the guesses were made: a Recluse poisoned then registers as the Recluse
    could = sum(1 for p, c in guesses.items() if any(
        s.player == p and c in characters_as(state, chars, s, sober=p not in made.impaired) for s in state.seats))
    flags = [f"misregistration allows {right} to {could}"] if could != right else []
    return Proposal(seat.player, "juggler", str(right), [str(n) for n in range(right, could + 1)], flags=flags,
                    form=_number_form(len(guesses), "Juggler"))


def _high_priestess(state: ClocktowerState, chars: Characters, seat: Seat) -> Proposal:
    return Proposal(seat.player, "highpriestess", "a player of your choice",
                    [state.label(s.player) for s in state.seats if s is not seat],
                    rule="the player you believe they should talk to most", flags=["your choice, by rule"],
                    ready=False, form=_players_form(state, chars, seat, 1, "High Priestess"))


#: cards whose proposal is one true answer of many
_ONE_OF_MANY = ("washerwoman", "knight", "librarian", "investigator", *SNV_ONE_OF_MANY)


def ledger(state: ClocktowerState, chars: Characters, seat: Seat) -> list[Abnormal]:
    """The Mathematician's ledger: abilities that worked abnormally since dawn, as far as the bot
    can see (the day's failed abilities, tonight's steps, false information accepted for a player
    who wakes earlier tonight, the Djinn's Lunatic jinx, the Marionette beside the Recluse)."""
    found = [a for a in state.abnormal if a.player != seat.player]
    order = order_for(state, seat, chars)
    mine = order.index(seat.acting) if seat.acting in order else len(order)
    for player, accepted in [*state.accepted_first.items(), *state.accepted.items()]:  # (Acts Twice: both)
        if accepted.false and accepted.card in order and order.index(accepted.card) < mine:
            # a pair's proposal (the Washerwoman's, the Knight's...) is one true answer of many, not "the truth"
            truth = (", false on the grimoire" if accepted.card in _ONE_OF_MANY else
                     f" (the truth: {accepted.proposed})")
            found.append(Abnormal(player=player, why=f"the {chars[accepted.card].name} was told "
                                                     f"{accepted.answer}{truth}"))
    demons = [s for s in state.seats if chars[s.character].team == "demon"]
    if "djinn" in state.fabled:
        attacked = [set(state.night_choices.get(d.player) or ()) for d in demons]
        for lunatic in state.by_character("lunatic"):
            chose = set(state.night_choices.get(lunatic.player) or ())
            if chose and chose not in attacked:
                found.append(Abnormal(player=lunatic.player, why="the Lunatic attacked other players than the "
                                                                 "Demon (the Djinn's jinx)"))
    if state.night == 1 or state.settings.marionette_recluse_counts == "every_night":
        for marionette in state.by_character("marionette"):
            at = state.seats.index(marionette)
            beside = {state.seats[(at + k) % len(state.seats)].character for k in (-1, 1)}
            if "recluse" in beside and not beside & {d.character for d in demons}:
                found.append(Abnormal(player=marionette.player, why="the Marionette neighbours the Recluse "
                                                                    "instead of the Demon"))
    return found


def _mathematician(state: ClocktowerState, chars: Characters, seat: Seat) -> Proposal:
    found = ledger(state, chars, seat)
    count = len({a.player for a in found})
    lines = "; ".join(f"{state.label(a.player)}: {a.why}" for a in found) or "nothing recorded"
    return Proposal(seat.player, "mathematician", str(count), [str(n) for n in range(len(state.seats))],
                    rule="players whose abilities worked abnormally since dawn",
                    form=_number_form(len(state.seats), "Mathematician"),
                    flags=[f"the ledger since dawn: {lines}", "confirm or change the count: what the bot cannot "
                           "see (the High Priestess's subjective answer, a Storyteller's call) is yours to add"])


def _washerwoman(state: ClocktowerState, chars: Characters, seat: Seat) -> Proposal:
    """2 other players, at least one of whom is (or may register as: the Spy) the Townsfolk named."""
    def check(answer: Answer) -> None:
        if not any(answer.character in characters_as(state, chars, state.seat_of(p)) for p in answer.players):
            a, b = (state.label(p) for p in answer.players)
            raise NotAllowedAnswer(f"{a} and {b} are both not the {chars[answer.character].name}, and at least "
                                   "one of the two must be.")

    def truth(answer: Answer) -> bool:
        return any(state.seat_of(p).character == answer.character for p in answer.players)

    form = _washerwoman_form(state, chars, seat)
    townsfolk = [s for s in state.seats if s is not seat and not s.traveller and chars[s.character].team == "townsfolk"]
    if not townsfolk:
        stand_in = [s for s in state.seats if s is not seat and "townsfolk" in teams(state, chars, s)]
        return Proposal(seat.player, "washerwoman", "no Townsfolk in play to show", None,
                        rule="2 other players, one of whom may register as the named Townsfolk",
                        flags=["no other Townsfolk is in play: only one who may register as one (a Spy) can be shown"
                               if stand_in else "no other Townsfolk is in play and nobody may register as one: "
                               "nobody can be shown (your own words, with `/st tell`)"],
                        ready=False, form=form, check=check, truth=truth)
    shown = townsfolk[0]
    pair = pair_beside(state, seat, shown)
    flags = [f"the {chars[s.character].name} may register as a Townsfolk: you may show them instead"
             for s in state.seats if s is not seat and chars[s.character].team != "townsfolk"
             and "townsfolk" in teams(state, chars, s)][:1]
    return Proposal(seat.player, "washerwoman",
                    f"{state.label(pair[0].player)} or {state.label(pair[1].player)} is the "
                    f"{chars[shown.character].name}", None,
                    rule="2 other players, one of whom is the named Townsfolk", flags=flags, form=form, check=check,
                    truth=truth)


def _closest_evil(state: ClocktowerState, seat: Seat, evil: set[str]) -> str:
    """"clockwise" (rising seat numbers), "anticlockwise", or "equidistant"."""
    seats = state.seats
    at = seats.index(seat)
    distance: dict[str, int] = {}
    for name, step in (("clockwise", 1), ("anticlockwise", -1)):
        distance[name] = next((k for k in range(1, len(seats)) if seats[(at + step * k) % len(seats)].player in evil),
                              len(seats))
    if distance["clockwise"] == distance["anticlockwise"]:
        return "equidistant"
    return min(distance, key=lambda name: distance[name])


def _shugenja(state: ClocktowerState, chars: Characters, seat: Seat) -> Proposal:
    others = [s for s in state.seats if s is not seat]
    fixed = {s.player for s in others if alignments(state, s) == {"evil"}}
    swinging = [s for s in others if len(alignments(state, s)) > 1]
    answers: set[str] = set()
    for mask in range(1 << len(swinging)):
        evil = fixed | {s.player for i, s in enumerate(swinging) if mask >> i & 1}
        found = _closest_evil(state, seat, evil)
        answers |= {"clockwise", "anticlockwise"} if found == "equidistant" else {found}
    truth = _closest_evil(state, seat, {s.player for s in state.seats if s is not seat and s.alignment == "evil"})
    flags = []
    if truth == "equidistant":
        flags.append("equidistant: the rule leaves the direction to you")
        truth = "clockwise"
    elif len(answers) > 1:
        flags.append("a Recluse or Spy may misregister: either direction")
    return Proposal(seat.player, "shugenja", truth, sorted(answers), flags=flags, form=_direction_form())


def spy_jinxed(state: ClocktowerState) -> bool:
    """The Djinn's jinx: with a Magician in play, the Spy's grimoire loses the Demon's and the
    Magician's tokens (and the "Is the Marionette" reminder)."""
    return "djinn" in state.fabled and any(s.character == "magician" for s in state.seats)


def spy_grimoire(state: ClocktowerState, chars: Characters) -> str:
    """The grimoire as the Spy sees it tonight. Under the jinx the Marionette shows as the card it
    believes it is, with nothing that marks it (its "Is the Marionette" token is removed)."""
    hidden = spy_jinxed(state)
    lines = ["The Grimoire:"]
    for s in state.seats:
        removed = hidden and (chars[s.character].team == "demon" or s.character == "magician")
        unmarked = hidden and s.character == "marionette"
        character = ("(token removed)" if removed else chars[s.shown].name if unmarked else
                     chars[s.character].name)
        tokens = [r.token for r in state.reminders if r.player == s.player
                  and not (hidden and r.token.lower() == "is the marionette")]
        status = "" if s.alive else ", dead"
        line = f"{s.seat} · {state.name(s.player)}: {character}{status}"
        if s.shown != s.character and not removed and not unmarked:
            line += f" (thinks they are the {chars[s.shown].name})"
        lines.append(line + (f" [{', '.join(tokens)}]" if tokens else ""))
    lines.append("Demon bluffs: " + (", ".join(chars[b].name for b in state.bluffs) or "none"))
    return "\n".join(lines)


def _spy(state: ClocktowerState, chars: Characters, seat: Seat) -> Proposal:
    flags = (["the Djinn's jinx: the Demon's and the Magician's tokens are removed, and the Marionette shows as "
              "its card"] if spy_jinxed(state) else [])
    return Proposal(seat.player, "spy", "the grimoire", ["the grimoire"], rule="the whole grimoire, as it stands",
                    flags=flags, form=_grimoire_form())


def _woke(state: ClocktowerState, chars: Characters, seat: Seat) -> bool:
    """Whether a player wakes tonight due to their ability, as the bot runs the night: asked to choose,
    or due information by their card (the Chambermaid's count)."""
    if ask_for(state, seat, chars) is not None:
        return True
    if not (seat.alive or seat.player in state.dawn_deaths) or seat.acting not in order_for(state, seat, chars):
        return False
    proposer = _PROPOSERS.get(seat.acting)
    if proposer is None:
        return judged_informant(state, chars, seat)
    return seat.acting != "chambermaid" and proposer(state, chars, seat) is not None


def _chambermaid(state: ClocktowerState, chars: Characters, seat: Seat) -> Proposal:
    return chambermaid(state, chars, seat, lambda other: _woke(state, chars, other))


_PROPOSERS = {"spy": _spy, "washerwoman": _washerwoman, "shugenja": _shugenja, "empath": _empath, "undertaker": _undertaker, "ravenkeeper": _ravenkeeper, "waitress": _waitress, "harlot": _waitress,
              "knight": _knight, "juggler": _juggler, "highpriestess": _high_priestess,
              "mathematician": _mathematician, **TB_PROPOSERS, **SNV_PROPOSERS,
              "chambermaid": _chambermaid, **BMR_PROPOSERS}


#: how each card's information reads to the player ({answer}, {about}, {day}); the Undertaker's is
#: read the morning after, so it names the day
TELLS = {
    "washerwoman": "You learn: {answer}.",
    "shugenja": "Your closest evil player is {answer}.",
    "empath": "{answer} of your living neighbours are evil.",
    "undertaker": "The player who died by execution on day {day} was the {answer}.",
    "ravenkeeper": "{about} is the {answer}.",
    "waitress": "{about} is the {answer}.",
    "harlot": "{about} is the {answer}.",
    "knight": "{answer} are not the Demon.",
    "juggler": "{answer} of your guesses were correct.",
    "highpriestess": "The player you should talk to most: {answer}.",
    "mathematician": "{answer} players' abilities worked abnormally since dawn.",
    "spy": "{answer}",
    **TB_TELLS,
    **SNV_TELLS,
    **BMR_TELLS,
}
#: the counts' words for exactly 1
TELLS_ONE = {
    "empath": "1 of your living neighbours is evil.",
    "juggler": "1 of your guesses was correct.",
    "mathematician": "1 player's ability worked abnormally since dawn.",
    **TB_TELLS_ONE,
    **SNV_TELLS_ONE,
    **BMR_TELLS_ONE,
}


def told(proposal: Proposal, answer: Answer) -> str:
    """The player's message for an answer read by ``read_answer``."""
    if proposal.character == "undertaker" and answer.text == "nothing":
        return f"Nobody died by execution on day {proposal.day}."
    if proposal.character == "fortuneteller":
        return fortune(proposal.about, answer.text)
    if answer.text in TELLS_YES_NO.get(proposal.character, {}):
        return TELLS_YES_NO[proposal.character][answer.text].format(about=proposal.about, day=proposal.day)
    if answer.text == "1" and proposal.character in TELLS_ONE:
        return TELLS_ONE[proposal.character]
    about = proposal.about or "That player"
    return TELLS.get(proposal.character, "{answer}").format(answer=answer.text, about=about, day=proposal.day)


def as_data(found: list[Proposal]) -> list[dict]:
    return [{"player": p.player, "character": p.character, "answer": p.answer, "allowed": p.allowed,
             "flags": list(p.flags), "ready": p.ready} for p in found]


def proposals_text(state: ClocktowerState, chars: Characters, found: list[Proposal]) -> str:
    lines = []
    for p in found:
        seat = state.seat_of(p.player)
        if p.allowed is not None and (len(p.allowed) <= _LISTED or not p.rule):
            allowed = ", ".join(p.allowed) or "any answer"
        else:
            allowed = p.rule or "any answer"
        about = f" about {p.about}" if p.about else ""
        line = f"• {state.label(p.player)}, the {chars[seat.acting].name}{about}: **{p.answer}** (allowed: {allowed})"
        lines += [line, *(f"  ⚑ {flag}" for flag in p.flags)]
    return "\n".join(lines)
