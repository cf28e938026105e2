"""Castle of Magic: the game a reader opens first. Its declared tables (``handlers``, ``phases``)
name where each rule lives: the deal (``deal.py``), the first-player claim (``first.py``), a turn
and its moves (``turn.py``, over ``shrines.py`` for manipulating the shrines and ``outcomes.py``
for advancing the ritual), the spell and the end (``ending.py``, over the scoring in ``rules.py``),
a player leaving (``removal.py``); the picture is ``tableau.py`` and ``render.py``. Here: what
each viewer sees and may do, the result and the invariants."""

from __future__ import annotations

from typing import Any

from games.engine import (
    Action,
    Event,
    Game,
    Handler,
    Outcome,
    Phase,
    Player,
    PlayerResult,
    Prompt,
    Result,
    Rng,
    View,
    leaks,
)

from . import deal, ending, first, removal, shrines, turn
from .checks import active
from .data import CHARACTER, N_PAWNS, N_SHRINES, OUTCOME, SHRINE_DECK, character_title
from .models import Advance, CastleOptions, CastleSetup, CastleState, ClaimFirst, PickUp, Place
from .outcomes import advance_prompt, face_down
from .phases import PHASES, timeout
from .tableau import public_tableau, ritual_reveal_line, tableau_text
from .words import MAX_TEXT, guide, pawns_line, role


def _secrets(state: CastleState) -> list[str]:
    """Strings that must not appear in a public event before the game ends."""
    out = []
    for p in state.players:
        title = character_title(state.characters[p.id])
        out += [f"{p.name} is {title}", f"{p.name} was {title}", f"**{p.name}**, {title}",
                f'"{p.id}": "{state.characters[p.id]}"']
    for k, outcome in enumerate(state.rituals):
        if not state.revealed[k]:
            out.append(ritual_reveal_line(k, outcome))
    return out


class CastleGame(Game):
    name = "castle"
    title = "Castle of Magic"
    min_players = 4
    max_players = 6
    Options = CastleOptions
    Setup = CastleSetup
    State = CastleState
    actions = (ClaimFirst, PickUp, Place, Advance)
    handlers: dict[str, Handler] = {
        "claim_first": first.claim_first,
        "pick_up": turn.pick_up,
        "place": turn.place,
        "advance": turn.advance,
        "phase_timeout": timeout,
        "remove_player": removal.remove,
        "end_game": ending.end_game,
    }
    phases: dict[str, Phase] = PHASES

    def _setup(self, players: list[Player], options: CastleOptions, rng: Rng,
               forced: CastleSetup) -> Outcome:
        return deal.setup(players, options, rng, forced)

    def reminder_seconds(self, state: CastleState) -> float | None:
        return turn.reminder_seconds(state)

    def remind(self, state: CastleState) -> list[Event]:
        return turn.remind(state)

    # ----- what each viewer sees -----
    def view(self, state: CastleState, viewer: str | None) -> View:
        pub = public_tableau(state)
        data: dict[str, Any] = {"phase": state.phase, "round": state.round, "turns": state.turns,
                                "current": state.current, "tableau": pub}
        lines: list[str] = []
        if viewer == "storyteller":
            data.update(layout=state.layout, rituals=state.rituals, characters=state.characters,
                        pawns=state.pawns, face_up=state.face_up)
            lines.append("**Storyteller view.** " + "; ".join(
                f"{p.name}: {character_title(state.characters[p.id])}" for p in state.players))
            lines.append("Rituals: " + "; ".join(f"{k + 1} {OUTCOME[o].title}" for k, o in enumerate(state.rituals)))
            lines.append(tableau_text(public_tableau(state, reveal=True)))
        elif viewer is not None and viewer in state.characters:
            cid = state.characters[viewer]
            data.update(character=cid, pawns=state.pawns[viewer], hand=[h.pawn + 1 for h in state.hand]
                        if viewer == state.current else [])
            lines.append(f"You are **{character_title(cid)}**.\n{guide(cid)}")
            if viewer in state.removed:
                lines.append("You have left this game.")
            else:
                in_hand = {h.pawn for h in state.hand} if viewer == state.current else set()
                lines.append(pawns_line(state.pawns[viewer], in_hand))
            lines.append(tableau_text(pub))
        else:
            lines.append(tableau_text(pub))
        if state.phase == "turn":
            lines.append(f"It is **{state.name(state.current)}**'s turn.")
        elif state.finished:
            lines.append(f"The game is over ({state.outcome}).")
        return View(text="\n\n".join(lines), data=data)

    def result(self, state: CastleState) -> Result:
        spell = state.spell
        players = []
        for p in state.players:
            c = CHARACTER[state.characters[p.id]]
            devoured = spell is not None and p.id in spell.devoured
            players.append(PlayerResult(
                id=p.id, name=p.name, role=role(state.characters[p.id]),
                team=c.faction or "monster", alive=p.id not in state.removed and not devoured,
                score=spell.scores.get(p.id) if spell is not None else None,
            ))
        return Result(finished=state.finished, phase=state.phase, round=state.round, outcome=state.outcome,
                      winners=list(state.winners), players=players)

    def prompts(self, state: CastleState, player_id: str) -> list[Prompt]:
        if state.finished or player_id in state.removed or player_id not in state.characters:
            return []
        if state.phase == "first":
            return [first.claim_prompt()]
        if state.phase != "turn" or player_id != state.current:
            return []
        if state.hand:
            return [shrines.place_prompt(state)]
        return [advance_prompt(state), shrines.pick_up_prompt(state, player_id)]

    def legal_actions(self, state: CastleState) -> list[Action]:
        if state.finished:
            return []
        if state.phase == "first":
            return [ClaimFirst(player=p) for p in active(state)]
        if state.phase != "turn":
            return []
        pid = state.current
        if state.hand:
            return list(shrines.places(state, pid))
        return [*shrines.pick_ups(state, pid), *(Advance(player=pid, card=k + 1) for k in face_down(state))]

    def check_invariants(self, state: CastleState, events: list[Event]) -> list[str]:
        problems: list[str] = []
        if sorted(state.layout) != sorted(SHRINE_DECK):
            problems.append("the shrine cards are not 8 per faction and the 3 regalia")
        if len(state.face_up) != N_SHRINES or len(state.seen) != N_SHRINES:
            problems.append("the tableau is not 27 shrines")
        if any(up and not seen for up, seen in zip(state.face_up, state.seen, strict=False)):
            problems.append("a face-up shrine is not marked seen")
        total = sum(len(v) for v in state.pawns.values())
        if total > N_PAWNS:
            problems.append(f"{total} pawns in play, more than {N_PAWNS}")
        spots = [w for pid, v in state.pawns.items() for w in v if w is not None]
        if len(spots) != len(set(spots)):
            problems.append("two pawns share a shrine")
        for pid in state.removed:
            if any(w is not None for w in state.pawns[pid]):
                problems.append(f"removed player {pid} still has a pawn on the tableau")
        if state.hand:
            if state.phase != "turn":
                problems.append("pawns in hand outside a turn")
            elif any(state.pawns[state.current][h.pawn] is not None for h in state.hand):
                problems.append("a pawn in hand is also on the tableau")
        if sorted(state.rituals) != sorted(OUTCOME):
            problems.append("the ritual cards do not hold the eight outcomes")
        if state.finished:
            if state.outcome != "ended" and (not all(state.revealed) or state.spell is None):
                problems.append("the game finished before the spell was cast")
            if state.spell is not None and state.spell.outcome != state.rituals[state.spell.ritual]:
                problems.append("the spell's outcome is not the one on its ritual card")
        else:
            if all(state.revealed):
                problems.append("every outcome is face up but the spell was not cast")
            if state.phase == "turn" and (state.current not in active(state)):
                problems.append("the current player is not at the table")
            pub = public_tableau(state)
            for s, card, up in zip(pub["shrines"], state.layout, state.face_up, strict=True):
                if not up and not state.options.open_shrines and s["card"] is not None:
                    problems.append(f"the public tableau shows face-down {s['id']}")
                if s["was"] is not None and s["was"] != card:
                    problems.append(f"the public tableau misremembers {s['id']}")
            for r, shown in zip(pub["rituals"], state.revealed, strict=True):
                if not shown and r["outcome"] is not None:
                    problems.append(f"the public tableau shows unrevealed ritual {r['card']}")
            found = leaks(events, _secrets(state))
            problems += [f"secret in a public event: {s}" for s in found]
            for e in events:
                if e.audience.kind == "public" and ("layout" in e.data or "rituals" in e.data
                                                    or "characters" in e.data):
                    problems.append(f"public event {e.type} carries hidden data")
        for e in events:
            if len(e.text) > MAX_TEXT:
                problems.append(f"event {e.type} is {len(e.text)} characters long")
        return problems

    def picture(self, state: CastleState, image: str) -> dict | None:
        if image != "tableau":
            return None
        from .render import tableau_picture

        return tableau_picture(state)

    def draw(self, picture: dict) -> bytes | None:
        from .render import draw_picture

        return draw_picture(picture)

    def rules_summary(self) -> str:
        return (
            "**Castle of Magic** (4-6 players). You secretly are a wizard (a faction and a home "
            "country), a cultist (a faction) or the Monster.\n"
            "27 shrines lie in 3 rows (bell, book, candle) x 9 columns (Kida, Marus, Sorrell). Face up = active.\n"
            "**Your turn**, one of:\n"
            "• *Manipulate the shrines*: pick up at least one of your pawns (from your supply or the "
            "tableau); for each, flip a shrine without a pawn and put the pawn on it.\n"
            "• *Advance the ritual*: turn one face-down outcome card face up.\n"
            "When the last outcome card is face up the **ritual spell** is cast: each arcanum is on "
            "if most of its row is active; the ritual card with that combination gives the outcome "
            "(banished, released, a regalia holder dominates or is devoured).\n"
            "**Scoring**: 1000 per country your faction controls (most active shrines; ties: nobody); "
            "wizards +1000 for their home country, +1000 for dominating; +1000 per regalia claimed (your "
            "pawn on its shrine; not if devoured); cultists +1000 if anyone is devoured; the Monster "
            "scores 7000 if it devours a wizard or cultist. Highest score wins."
        )



GAME = CastleGame()
