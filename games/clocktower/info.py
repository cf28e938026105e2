"""What each player is told when the characters go out, and the Storyteller's grimoire, as text.

Pure functions of the state: the bot can show the same words again (``/game hand``) and a test can
check that nobody learns more than the rulebook gives them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .characters import Characters
from .snv_setup import twin_lines
from .state import ClocktowerState, Seat

TEAM_NAMES = {"townsfolk": "Townsfolk", "outsider": "Outsider", "minion": "Minion", "demon": "Demon",
              "traveller": "Traveller", "fabled": "Fabled"}


def names(state: ClocktowerState, players: list[str] | tuple[str, ...]) -> str:
    """"Alice (seat 1), Bob (seat 4)" in circle order (so no list order gives a secret away)."""
    order = {s.player: i for i, s in enumerate(state.seats)}
    ordered = sorted(players, key=lambda p: order.get(p, len(order)))
    return ", ".join(state.label(p) for p in ordered) or "nobody"


def card(chars: Characters, seat: Seat) -> str:
    """The character card a player holds: what they are *shown*, never more."""
    shown = chars[seat.shown]
    lines = [f"You are the **{shown.name}** ({TEAM_NAMES[shown.team]}).", f"> {shown.ability}"]
    if seat.traveller:
        lines.append(f"You are **{seat.alignment}**. Your character is public; your alignment is not.")
    elif shown.team in ("townsfolk", "outsider"):
        lines.append("You are **good**.")
    else:
        lines.append("You are **evil**.")
    return "\n".join(lines)


def _shown_as_demon(state: ClocktowerState, chars: Characters) -> list[str]:
    """Who the Minions are shown as the Demon: the Demon, and the Magician (its ability)."""
    return [s.player for s in state.seats if not s.traveller
            and (chars[s.character].team == "demon" or s.character == "magician")]


def evil_lines(state: ClocktowerState, chars: Characters, player: str) -> list[str]:
    """The evil team's first-night information for ``player`` (empty for the good, the Marionette
    and anyone else who learns nothing). The Magician changes it: the Demon sees the Magician among
    its Minions, and the Minions see two players as the Demon."""
    seat = state.seat_of(player)
    character = chars[seat.character]
    magician = bool(state.by_character("magician"))
    if seat.traveller:
        if seat.alignment != "evil":
            return []
        demons = [s.player for s in state.seats if chars[s.character].team == "demon"]
        return [f"The Demon is {names(state, demons)}."]
    if seat.character == "lunatic" and state.lunatic is not None:
        return [f"Your Minions: {names(state, state.lunatic.minions)}.",
                f"Three good characters not in play, to bluff as: {_characters(chars, state.lunatic.bluffs)}."]
    if character.team == "demon":
        minions = [s.player for s in state.seats if not s.traveller and chars[s.character].team == "minion"]
        if magician:
            minions += [s.player for s in state.by_character("magician")]
        lines = [f"Your Minions: {names(state, minions)}."]
        for marionette in state.by_character("marionette"):
            lines.append(f"{state.label(marionette.player)} is the Marionette: they think they are good.")
        for lunatic in state.by_character("lunatic"):
            lines.append(f"{state.label(lunatic.player)} is the Lunatic: they think they are the Demon.")
        lines.append(f"Three good characters not in play, to bluff as: {_characters(chars, state.bluffs)}.")
        return lines
    if character.team == "minion" and seat.character != "marionette":
        demons = _shown_as_demon(state, chars)
        if len(demons) > 1:
            lines = [f"The Demon is one of {names(state, demons)}: both are shown to you as the Demon."]
        else:
            lines = [f"The Demon is {names(state, demons)}."]
        others = [s.player for s in state.seats if not s.traveller and s.player != player
                  and chars[s.character].team == "minion"
                  and (s.character != "marionette" or state.settings.minions_learn_marionette)]
        if others:
            lines.append(f"Your fellow Minions: {names(state, others)}.")
        if state.settings.minions_learn_marionette:
            for marionette in state.by_character("marionette"):
                lines.append(f"{state.label(marionette.player)} is the Marionette: they think they are good.")
        return lines
    return []


def deal_message(state: ClocktowerState, chars: Characters, player: str) -> str:
    seat = state.seat_of(player)
    parts = [f"**Seat {seat.seat}.** " + card(chars, seat)]
    lines = evil_lines(state, chars, player) + twin_lines(state, chars, player)
    if lines:
        parts.append("\n".join(f"• {line}" for line in lines))
    return "\n\n".join(parts)


def _characters(chars: Characters, ids: tuple[str, ...] | list[str]) -> str:
    return ", ".join(chars[c].name for c in ids) or "none"


#: a seat whose once-per-game ability is spent (the Seamstress's choice, the Courtier's, the Judge's
#: ruling, the true Slayer's shot)
USED = "Ability used"
#: what the grimoire shows of a seat beyond its tokens, by player (``reveal.grimoire_marks``)
Marks = Mapping[str, list[str]]


def seat_tokens(state: ClocktowerState, known: Characters, player: str, marks: Marks | None = None) -> list[str]:
    """What a seat carries on the grimoire besides its character, as the grimoire, the picture, the
    night sheet and the reveal show it: its gained ability, whether its once-per-game ability is
    spent, each reminder token ("Grandchild (Grandmother)"; "(Storyteller)" for their notes), then
    the ``marks`` the rules derive ("Poisoned (No Dashii)")."""
    seat = state.seat_of(player)
    found = [f"Ability: {name_of(known, seat.ability)}"] if seat.ability else []
    if player in state.used_once or player in state.judged_by or (seat.has("slayer") and player in state.slayer_shots):
        found.append(USED)
    found += [f"{r.token} ({name_of(known, r.source) if r.source else 'Storyteller'})"
              for r in state.reminders if r.player == player]
    return found + list((marks or {}).get(player, ()))


def name_of(known: Characters, cid: str) -> str:
    """A character's name, or its id when the game does not know it."""
    return known[cid].name if cid in known else cid


def _seat_line(state: ClocktowerState, chars: Characters, seat: Seat, marks: Marks | None = None) -> str:
    character = chars[seat.character]
    line = (f"{seat.seat} · **{state.name(seat.player)}**: {character.name} "
            f"({TEAM_NAMES[character.team]}, {seat.alignment})")
    if seat.shown != seat.character:
        line += f", thinks they are the {chars[seat.shown].name}"
    if not seat.alive:
        line += " · 💀 dead" + (", vote token left" if seat.vote_token else ", vote spent")
    tokens = seat_tokens(state, chars, seat.player, marks)
    if tokens:
        line += " · " + ", ".join(tokens)
    return line


def phase_name(state: ClocktowerState) -> str:
    if state.phase == "setup":
        return "the deal (not sent yet)"
    if state.phase == "over":
        when = f"night {state.night}" if state.night > state.day else f"day {state.day}"
        return f"Game over ({when})"
    return f"{state.phase.capitalize()} {state.night if state.phase == 'night' else state.day}"


def grimoire_text(state: ClocktowerState, chars: Characters, marks: Marks | None = None) -> str:
    lines = [f"**Grimoire** · {phase_name(state)} · script: {state.script.name}"]
    if state.phase == "setup":
        lines.append(f"Deal {state.deals}. Nothing has been sent: `/st redeal` deals again at random, "
                     "`/st begin` sends every player their character.")
    lines += [_seat_line(state, chars, seat, marks) for seat in state.seats]
    lines.append(f"Demon bluffs: {_characters(chars, state.bluffs)}")
    if state.lunatic is not None:
        lines.append(f"The Lunatic is shown as Minions: {names(state, state.lunatic.minions)}; "
                     f"as bluffs: {_characters(chars, state.lunatic.bluffs)}")
    lines.append(f"Fabled: {_characters(chars, state.fabled)}")
    if state.dawn_deaths or state.dawn_revivals:
        lines.append(f"To announce at dawn: deaths {names(state, state.dawn_deaths)}; "
                     f"revived {names(state, state.dawn_revivals)}")
    if state.phase == "setup":
        lines.append(f"Pool ({len(state.pool)}): {_characters(chars, state.pool)}")
    return "\n".join(lines)


def grimoire_picture(state: ClocktowerState, chars: Characters, game_title: str = "",
                     marks: Marks | None = None) -> dict[str, Any]:
    """The grimoire as the plain data ``picture.draw_grimoire`` draws (Storytellers' eyes only)."""
    title = f"{game_title} · {phase_name(state)}" if game_title else phase_name(state)
    return {
        "title": title[:60],
        "seats": [{
            "seat": s.seat, "name": state.name(s.player), "character": chars[s.character].name,
            "team": chars[s.character].team, "alignment": s.alignment, "alive": s.alive,
            "vote_token": s.vote_token, "traveller": s.traveller,
            "shown": chars[s.shown].name if s.shown != s.character else "",
            "reminders": seat_tokens(state, chars, s.player, marks),
        } for s in state.seats],
        "fabled": [chars[f].name for f in state.fabled],
        "loric": [chars[c].name for c in state.script.characters.get("loric", ()) if c in chars],
        "bluffs": [chars[b].name for b in state.bluffs],
        # the Lunatic's false Demon information, as the grimoire text gives it
        "lunatic_minions": [f"{state.seat_of(p).seat} {state.name(p)}" for p in state.lunatic.minions
                            if state.seated(p)] if state.lunatic else [],
        "lunatic_bluffs": [chars[b].name for b in state.lunatic.bluffs if b in chars] if state.lunatic else [],
    }


def reveal_text(state: ClocktowerState, chars: Characters, marks: Marks | None = None) -> str:
    """Everything, for the end of the game: each seat's character, card, death, gained ability and
    the reminder tokens it ended with."""
    lines = []
    for seat in state.seats:
        character = chars[seat.character]
        line = f"{seat.seat} · {state.name(seat.player)}: **{character.name}** ({seat.alignment})"
        if seat.ability and seat.ability in chars:  # an Apprentice's or a Philosopher's gained ability
            line += f", with the {chars[seat.ability].name}'s ability"
        if seat.shown != seat.character:
            line += f", who thought they were the {chars[seat.shown].name}"
        if not seat.alive:
            line += " 💀"
        tokens = seat_tokens(state, chars, seat.player, marks)
        if tokens:
            line += " · " + ", ".join(tokens)
        lines.append(line)
    lines.append(f"Demon bluffs: {_characters(chars, state.bluffs)}")
    return "\n".join(lines)
