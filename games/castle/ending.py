"""The end of the game: the ritual spell cast (what it decided, in ``rules.py``) and told, the end
screen with every score, and a game ended before the spell (a moderator, too few players left)."""

from __future__ import annotations

from games.engine import EndGame, Event, Outcome, Rng, public

from .checks import active
from .data import ARCANUM, COUNTRY, FACTION, OUTCOME, REGALIA, REGALIA_BY_ID, character_title, ritual_label
from .models import CastleState
from .rules import Spell, cast, winners
from .words import MAX_TEXT, character_reveal


def cast_spell(state: CastleState) -> list[Event]:
    """The last outcome card is face up: the spell is cast, scored, and the game is over."""
    spell = cast(state.layout, state.face_up, state.pawns, state.characters, active(state), state.rituals,
                 state.options.domination, state.options.devoured_score)
    state.spell = spell
    state.finished = True
    state.outcome = spell.outcome
    state.winners = winners(spell.scores)
    state.current = ""
    state.next_phase("game_over")
    return [spell_event(state, spell), scores_event(state, spell)]


def spell_event(state: CastleState, spell: Spell) -> Event:
    """What the spell decided: the arcana, the ritual card, the outcome, the Monster's fate, who is
    devoured, who controls each country and who claims each regalia."""
    arc = ", ".join(
        f"the {ARCANUM[a].name.lower()} is **{ARCANUM[a].active if on else ARCANUM[a].inactive}** "
        f"({spell.active_counts[a]}/9)" for a, on in spell.arcana.items())
    outcome = OUTCOME[spell.outcome]
    lines = [f"✨ **The ritual spell is cast.** {arc[0].upper()}{arc[1:]}.",
             f"It matches {ritual_label(spell.ritual)}: **{outcome.title}**. *{outcome.text}*"]
    if spell.monster == "dominated":
        lines.append(f"👑 **{state.name(spell.dominator)}** dominates the Monster!")  # type: ignore[arg-type]
    elif spell.monster == "released":
        lines.append("🐉 The Monster is **released**.")
    else:
        lines.append("🕯️ The Monster is **banished**.")
    if spell.devoured:
        lines.append("Devoured: " + ", ".join(f"**{state.name(p)}**" for p in spell.devoured) + ".")
    else:
        lines.append("Nobody is devoured.")
    ctrl = []
    for c in COUNTRY.values():
        f = spell.control[c.id]
        counts = "/".join(str(spell.country_counts[c.id][x]) for x in FACTION)
        ctrl.append(f"{c.name}: {FACTION[f].name if f else 'nobody (tie)'} ({counts})")
    lines.append("Control (Dragon/Eagle/Wolf active shrines): " + "; ".join(ctrl) + ".")
    reg = []
    for r in REGALIA:
        who = spell.pawn_on[r]
        if who is None:
            reg.append(f"{REGALIA_BY_ID[r].name}: unclaimed")
        elif spell.claims[r] is None:
            reg.append(f"{REGALIA_BY_ID[r].name}: {state.name(who)} (devoured, so lost)")
        else:
            reg.append(f"{REGALIA_BY_ID[r].name}: {state.name(who)}")
    lines.append("Regalia: " + "; ".join(reg) + ".")
    return public("spell", "\n".join(lines)[:MAX_TEXT], title="The ritual spell", pause=3.0,
                  data={"outcome": spell.outcome, "ritual": spell.ritual + 1, "monster": spell.monster,
                        "dominator": spell.dominator, "devoured": spell.devoured,
                        "control": spell.control, "claims": spell.claims})


def scores_event(state: CastleState, spell: Spell) -> Event:
    """The end screen: who wins and why, then each player by score: their character, what they
    scored and what they missed, one line each, in words."""
    ranked = sorted((p for p in state.players if p.id not in state.removed),
                    key=lambda p: -spell.scores.get(p.id, 0))
    best = spell.scores.get(state.winners[0], 0) if state.winners else 0
    names = " and ".join(f"**{state.name(w)}**" for w in state.winners)
    lines = [f"🏆 {names} win{'s' if len(state.winners) == 1 else ''} with **{best} points**."]
    if any(w in spell.devoured for w in state.winners):
        eaten = [w for w in state.winners if w in spell.devoured]
        why = ("at this table a devoured character keeps its points for countries and for feeding "
               "the Monster, and loses only its regalia (`devoured_score=countries`)."
               if state.options.devoured_score == "countries" else
               "at this table a devoured character scores nothing (`devoured_score=nothing`), and "
               "nobody scored more.")
        if all(p.id in spell.devoured for p in ranked):
            lines.append(f"The Monster devoured everyone, so the scores decide: {why}")
        else:
            who = " and ".join(f"**{state.name(w)}**" for w in eaten)
            lines.append(f"{who} {'was' if len(eaten) == 1 else 'were'} devoured and still "
                         f"win{'s' if len(state.winners) == 1 else ''}: {why}")
    for p in ranked:
        fate = " · devoured" if p.id in spell.devoured else ""
        fate = " · dominated the Monster" if p.id == spell.dominator else fate
        lines.append(f"\n**{state.name(p.id)}**, {character_title(state.characters[p.id])}: "
                     f"**{spell.scores[p.id]}**{fate}")
        met = [f"+{o.points} {o.label}" if o.points else o.label for o in spell.objectives[p.id] if o.met]
        missed = [o.label for o in spell.objectives[p.id] if not o.met]
        if met:
            lines.append("✓ " + " · ".join(met))
        if missed:
            lines.append("✗ " + " · ".join(missed))
    for p in state.players:
        if p.id in state.removed:
            lines.append(f"\n{character_reveal(state, p.id)} (left the game; no score).")
    text = "\n".join(lines)
    if len(text) > MAX_TEXT:  # very long names: keep the essentials
        lines = [lines[0]] + [
            f"• {character_reveal(state, p.id)}: **{spell.scores.get(p.id, 0)}**" for p in state.players]
        text = "\n".join(lines)[:MAX_TEXT]
    return public("game_over", text, title="Game over", image="tableau",
                  data={"scores": spell.scores, "winners": state.winners, "characters": state.characters},
                  say=say_winners(state, best))


def say_winners(state: CastleState, best: int) -> str:
    """The end said aloud: who wins, as the scores' first line says."""
    if not state.winners:
        return "The game is over."
    names = " and ".join(state.name(w) for w in state.winners)
    return f"{names} win{'s' if len(state.winners) == 1 else ''} with {best} points."


def end_without_spell(state: CastleState, reason: str) -> list[Event]:
    """The game ends before the spell (a moderator, too few players left): no winner, and every
    character and ritual card is told."""
    state.finished = True
    state.outcome = "ended"
    state.winners = []
    state.hand = []
    state.current = ""
    state.next_phase("game_over")
    lines = ["🛑 **The game was ended by a moderator.**" + (f" ({reason})" if reason else "")]
    lines += [f"• {character_reveal(state, p.id)}." for p in state.players]
    mapping = "; ".join(f"{k + 1}: {OUTCOME[o].title}" for k, o in enumerate(state.rituals))
    lines.append(f"The ritual cards held: {mapping}.")
    return [public("game_over", "\n".join(lines)[:MAX_TEXT], title="Game over", image="tableau",
                   say="The game is ended.", data={"characters": state.characters, "rituals": state.rituals})]


def end_game(state: CastleState, action: EndGame, rng: Rng) -> Outcome:
    """A moderator ends the game now."""
    return Outcome(state=state, events=end_without_spell(state, action.reason), reply="The game is over.")
