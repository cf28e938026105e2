"""The Storyteller's copilot: for each piece of information due tonight, the answers the rules
allow, one proposed, and why a Storyteller should look (flags).

A proposal is computed on the grimoire as it stands after the night's mechanics (``resolve.py``),
walking tonight's order by each player's card: the Drunk and the Marionette get their card's
information, flagged as theirs to choose. Misregistration widens the allowed set (the Recluse may
register as evil and as a Minion or Demon; the Spy as good and as a Townsfolk or Outsider), and an
impaired informant allows any answer. Where the rule leaves the answer to the Storyteller (the
High Priestess, the Mathematician) the proposal says so.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .characters import Characters
from .night import order_for
from .state import Abnormal, ClocktowerState, Seat
from .talk import circle_neighbours, impaired


@dataclass
class Proposal:
    player: str
    #: the card the information is for (the player's shown character)
    character: str
    #: the proposed answer, in words
    answer: str
    #: every answer the rules allow, in words (None when there are too many to list: ``rule`` says)
    allowed: list[str] | None = None
    rule: str = ""
    flags: list[str] = field(default_factory=list)
    #: whom the information is about, in words ("" when it is not about one player)
    about: str = ""
    #: whether ``answer`` can be sent as it is (not when it waits for a choice or the Storyteller's words)
    ready: bool = True


# ----- registration -----

def alignments(seat: Seat) -> set[str]:
    """The alignments a player may register as."""
    found = {seat.alignment}
    if seat.character == "recluse":
        found.add("evil")
    if seat.character == "spy":
        found.add("good")
    return found


def characters_as(state: ClocktowerState, chars: Characters, seat: Seat) -> list[str]:
    """The characters a player may register as (the true one first)."""
    found = [seat.character]
    on_script = state.script.all_ids()
    teams = {"recluse": ("minion", "demon"), "spy": ("townsfolk", "outsider")}.get(seat.character, ())
    found += [c for c in on_script if c not in found and chars[c].team in teams]
    return found


# ----- who is due information tonight -----

def _informants(state: ClocktowerState, chars: Characters) -> list[Seat]:
    seats = [s for s in state.seats if s.acting in _PROPOSERS and s.acting in order_for(state, s, chars)]
    return sorted(seats, key=lambda s: order_for(state, s, chars).index(s.acting))


def proposals(state: ClocktowerState, chars: Characters) -> list[Proposal]:
    """Tonight's information, in night order."""
    out = []
    for seat in _informants(state, chars):
        # the Ravenkeeper is woken by its death; a Waitress the visit killed still learned the character
        woken = seat.player in state.dawn_deaths and seat.acting in ("ravenkeeper", "waitress")
        if not seat.alive and not woken:
            continue
        proposal = _PROPOSERS[seat.acting](state, chars, seat)
        if proposal is None:
            continue
        if seat.character != seat.shown:
            proposal.flags.insert(0, f"is truly the {chars[seat.character].name}: any answer (your choice)")
            proposal.allowed, proposal.rule = None, "any answer"
        else:
            why = impaired(state, seat.player)
            if woken and state.killed_tonight.get(seat.player) == "pukka" and \
                    state.settings.pukka_ravenkeeper == "poisoned":
                why = "killed by the Pukka, so poisoned when woken"
            if why:
                proposal.flags.insert(0, f"drunk or poisoned ({why}): any answer (your choice)")
                proposal.allowed, proposal.rule = None, "any answer"
        out.append(proposal)
    return out


def _empath(state: ClocktowerState, chars: Characters, seat: Seat) -> Proposal:
    near = [state.seat_of(p) for p in circle_neighbours(state, seat.player)]
    truth = sum(1 for s in near if s.alignment == "evil")
    low = sum(1 for s in near if alignments(s) == {"evil"})
    high = sum(1 for s in near if "evil" in alignments(s))
    flags = []
    if low != high:
        odd = [state.label(s.player) for s in near if len(alignments(s)) > 1]
        flags.append(f"{', '.join(odd)} may misregister: {low} to {high}")
    return Proposal(seat.player, "empath", str(truth), [str(n) for n in range(low, high + 1)], flags=flags)


def _undertaker(state: ClocktowerState, chars: Characters, seat: Seat) -> Proposal | None:
    if not state.executed:
        return Proposal(seat.player, "undertaker", "nothing", ["nothing"], about="today's execution (there was none)")
    executed = state.seat_of(state.executed)
    options = characters_as(state, chars, executed)
    flags = [f"{state.label(executed.player)} may misregister"] if len(options) > 1 else []
    return Proposal(seat.player, "undertaker", chars[executed.character].name, [chars[c].name for c in options],
                    flags=flags, about=state.label(executed.player))


def _character_of(state: ClocktowerState, chars: Characters, seat: Seat, target: str, card: str) -> Proposal:
    other = state.seat_of(target)
    options = characters_as(state, chars, other)
    flags = [f"{state.label(target)} may misregister"] if len(options) > 1 else []
    return Proposal(seat.player, card, chars[other.character].name, [chars[c].name for c in options], flags=flags,
                    about=state.label(target))


def _ravenkeeper(state: ClocktowerState, chars: Characters, seat: Seat) -> Proposal | None:
    chosen = state.night_choices.get(seat.player)
    if not chosen:
        return Proposal(seat.player, "ravenkeeper", "nothing yet: the Ravenkeeper has not chosen", None,
                        rule="waits for their choice", flags=["no choice yet"], ready=False)
    proposal = _character_of(state, chars, seat, chosen[0], "ravenkeeper")
    return proposal


def _waitress(state: ClocktowerState, chars: Characters, seat: Seat) -> Proposal | None:
    chosen = state.night_choices.get(seat.player)
    if not chosen or not state.waitress_answers.get(chosen[0]):
        return None
    return _character_of(state, chars, seat, chosen[0], "waitress")


def _knight(state: ClocktowerState, chars: Characters, seat: Seat) -> Proposal:
    others = [s for s in state.seats if s is not seat and not s.traveller]
    safe = [s for s in others if chars[s.character].team != "demon" and s.character != "recluse"]
    pair = safe[:2]
    flags = ["the Recluse may register as the Demon: include them at your call"] if any(
        s.character == "recluse" for s in others) else []
    return Proposal(seat.player, "knight", " and ".join(state.label(s.player) for s in pair), None,
                    rule="any 2 players who are not the Demon", flags=flags)


def _juggler(state: ClocktowerState, chars: Characters, seat: Seat) -> Proposal | None:
    guesses = next((a.guesses for a in state.announcements if a.kind == "juggler" and a.by == seat.player), None)
    first_day = seat.joined_day + 1 if seat.traveller else 1  # "On your 1st day" (an Apprentice's: after it joined)
    if guesses is None or state.day != first_day:
        return None
    right = sum(1 for p, c in guesses.items() if any(s.player == p and s.character == c for s in state.seats))
    could = sum(1 for p, c in guesses.items() if any(s.player == p and c in characters_as(state, chars, s)
                                                    for s in state.seats))
    flags = [f"misregistration allows {right} to {could}"] if could != right else []
    return Proposal(seat.player, "juggler", str(right), [str(n) for n in range(right, could + 1)], flags=flags)


def _high_priestess(state: ClocktowerState, chars: Characters, seat: Seat) -> Proposal:
    return Proposal(seat.player, "highpriestess", "a player of your choice",
                    [state.label(s.player) for s in state.seats if s is not seat],
                    rule="the player you believe they should talk to most", flags=["your choice, by rule"],
                    ready=False)


def ledger(state: ClocktowerState, chars: Characters, seat: Seat) -> list[Abnormal]:
    """The Mathematician's ledger: abilities that worked abnormally since dawn, as far as the bot
    can see (the day's failed abilities, tonight's steps, false information accepted for a player
    who wakes earlier tonight, the Djinn's Lunatic jinx, the Marionette beside the Recluse)."""
    found = [a for a in state.abnormal if a.player != seat.player]
    order = order_for(state, seat, chars)
    mine = order.index(seat.acting) if seat.acting in order else len(order)
    for player, accepted in state.accepted.items():
        if accepted.false and accepted.card in order and order.index(accepted.card) < mine:
            found.append(Abnormal(player=player, why=f"the {chars[accepted.card].name} was told {accepted.answer} "
                                                     f"(the truth: {accepted.proposed})"))
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
                    flags=[f"the ledger since dawn: {lines}", "confirm or change the count: what the bot cannot "
                           "see (the High Priestess's subjective answer, a Storyteller's call) is yours to add"])


def _washerwoman(state: ClocktowerState, chars: Characters, seat: Seat) -> Proposal:
    townsfolk = [s for s in state.seats if s is not seat and not s.traveller and chars[s.character].team == "townsfolk"]
    if not townsfolk:
        return Proposal(seat.player, "washerwoman", "no Townsfolk in play to show", None, rule="your choice",
                        flags=["no other Townsfolk is in play"], ready=False)
    shown = townsfolk[0]
    at = state.seats.index(shown)
    other = next(state.seats[(at + k) % len(state.seats)] for k in range(1, len(state.seats))
                 if state.seats[(at + k) % len(state.seats)] not in (seat, shown))
    pair = sorted([shown, other], key=lambda s: s.seat)
    flags = ["the Spy may register as a Townsfolk: you may show them instead"] if any(
        s.character == "spy" for s in state.seats) else []
    return Proposal(seat.player, "washerwoman",
                    f"{state.label(pair[0].player)} or {state.label(pair[1].player)} is the "
                    f"{chars[shown.character].name}", None,
                    rule="2 players, one of whom is the named Townsfolk", flags=flags)


def _closest_evil(state: ClocktowerState, seat: Seat, evil: set[str]) -> str:
    """"clockwise" (rising seat numbers), "anticlockwise", or "equidistant"."""
    seats = state.seats
    at = seats.index(seat)
    distance = {}
    for name, step in (("clockwise", 1), ("anticlockwise", -1)):
        distance[name] = next((k for k in range(1, len(seats)) if seats[(at + step * k) % len(seats)].player in evil),
                              len(seats))
    if distance["clockwise"] == distance["anticlockwise"]:
        return "equidistant"
    return min(distance, key=distance.get)


def _shugenja(state: ClocktowerState, chars: Characters, seat: Seat) -> Proposal:
    fixed = {s.player for s in state.seats if s is not seat and s.alignment == "evil"
             and s.character not in ("recluse", "spy")}
    swinging = [s for s in state.seats if s is not seat and s.character in ("recluse", "spy")]
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
    return Proposal(seat.player, "shugenja", truth, sorted(answers), flags=flags)


def spy_jinxed(state: ClocktowerState) -> bool:
    """The Djinn's jinx: with a Magician in play, the Spy's grimoire loses the Demon's and the
    Magician's tokens (and the "Is the Marionette" reminder)."""
    return "djinn" in state.fabled and any(s.character == "magician" for s in state.seats)


def spy_grimoire(state: ClocktowerState, chars: Characters) -> str:
    """The grimoire as the Spy sees it tonight."""
    hidden = spy_jinxed(state)
    lines = ["The Grimoire:"]
    for s in state.seats:
        removed = hidden and (chars[s.character].team == "demon" or s.character == "magician")
        character = "(token removed)" if removed else chars[s.character].name
        tokens = [r.token for r in state.reminders if r.player == s.player
                  and not (hidden and r.token.lower() == "is the marionette")]
        status = "" if s.alive else ", dead"
        line = f"{s.seat} · {state.name(s.player)}: {character}{status}"
        if s.shown != s.character and not removed:
            line += f" (thinks they are the {chars[s.shown].name})"
        lines.append(line + (f" [{', '.join(tokens)}]" if tokens else ""))
    lines.append("Demon bluffs: " + (", ".join(chars[b].name for b in state.bluffs) or "none"))
    return "\n".join(lines)


def _spy(state: ClocktowerState, chars: Characters, seat: Seat) -> Proposal:
    flags = ["the Djinn's jinx: the Demon's and the Magician's tokens are removed"] if spy_jinxed(state) else []
    return Proposal(seat.player, "spy", "the grimoire", None, rule="the whole grimoire, as it stands", flags=flags)


_PROPOSERS = {"spy": _spy, "washerwoman": _washerwoman, "shugenja": _shugenja, "empath": _empath, "undertaker": _undertaker, "ravenkeeper": _ravenkeeper, "waitress": _waitress,
              "knight": _knight, "juggler": _juggler, "highpriestess": _high_priestess,
              "mathematician": _mathematician}


#: how each card's information reads to the player ({answer}, {about})
TELLS = {
    "washerwoman": "You learn: {answer}.",
    "shugenja": "Your closest evil player is {answer}.",
    "empath": "{answer} of your living neighbours are evil.",
    "undertaker": "Today's executed player was the {answer}.",
    "ravenkeeper": "{about} is the {answer}.",
    "waitress": "{about} is the {answer}.",
    "knight": "{answer} are not the Demon.",
    "juggler": "{answer} of your guesses were correct.",
    "highpriestess": "The player you should talk to most: {answer}.",
    "mathematician": "{answer} players' abilities worked abnormally since dawn.",
    "spy": "{answer}",
}
class NotAllowedAnswer(ValueError):
    """An answer outside the set the rules allow, in a sentence for the Storyteller."""


def told(proposal: Proposal, answer: str, chars: Characters) -> str:
    """The player's message for an answer, checked against what the rules allow."""
    if proposal.allowed is not None and answer not in proposal.allowed:
        raise NotAllowedAnswer(f"{answer!r} is not an answer the rules allow here: "
                               f"{', '.join(proposal.allowed)}.")
    if proposal.character == "undertaker" and answer == "nothing":
        return "Nobody was executed today."
    about = proposal.about or "That player"
    return TELLS[proposal.character].format(answer=answer, about=about)


def as_data(found: list[Proposal]) -> list[dict]:
    return [{"player": p.player, "character": p.character, "answer": p.answer, "allowed": p.allowed,
             "flags": list(p.flags), "ready": p.ready} for p in found]


def proposals_text(state: ClocktowerState, chars: Characters, found: list[Proposal]) -> str:
    lines = []
    for p in found:
        seat = state.seat_of(p.player)
        allowed = (", ".join(p.allowed) if p.allowed is not None else p.rule) or "any answer"
        about = f" about {p.about}" if p.about else ""
        line = f"• {state.label(p.player)}, the {chars[seat.acting].name}{about}: **{p.answer}** (allowed: {allowed})"
        lines += [line, *(f"  ⚑ {flag}" for flag in p.flags)]
    return "\n".join(lines)
