"""The end of a round (Phase 5, Infection Spread), the wins, the chronicle of the rounds (a line each on
the table's view) and the final reveal with its full chronicle."""

from __future__ import annotations

from typing import Any

from games.engine import EndGame, Event, Outcome, Rng, private, public

from . import records, voice
from . import ritual as rit
from .choosing import open_choosing
from .circle import alive, ingredient_label, team
from .data import load
from .models import RitualState
from .words import round_word


def end_round(state: RitualState, rng: Rng) -> list[Event]:
    """Phase 5, Infection Spread, then the next round (or the end)."""
    nar = load().narration.infection
    last = records.decode(state.history[-1])["quality"] if state.history else rit.TAINTED
    if last == rit.TAINTED:
        state.infection += 1
    elif last == rit.BACKFIRED:
        state.infection += state.options.infection_per_backfire
    lines = [nar["clean"] if last == rit.PURE else nar["spread"]]
    if state.round == 3 and state.infection >= 3 and not state.moon_risen:
        state.moon = True
        state.moon_risen = True
        lines.append(nar["moon"])
    if state.round >= 3 and state.infection >= 5 and not state.hunger:
        # from the next ritual (round 4+) any backfire may claim a spite victim
        state.hunger = True
        lines.append(nar["hunger"])
    events = [public("infection", "\n".join(lines), title="Infection Spread", pause=2.0)]
    state.round += 1
    rev = [p for p in alive(state) if state.roles[p] == "revenant"]
    if rev and state.round >= 5 and state.deaths >= 3 and not state.revenant_won:
        state.revenant_won = True
        if state.options.revenant_ends_game:
            return events + finish(
                state, "Neutral", rev,
                f"👻 **{state.name(rev[0])} was the Revenant**, and has seen enough death. "
                "Their spirit finds closure, and the circle breaks. **The Revenant wins alone.**")
        events.append(private(rev[0], "revenant_closure",
                              "👻 You have survived to Round Five and seen enough death: your win is sealed. "
                              "Play on; the Coven and the Corrupted still fight for theirs."))
    if state.round > state.options.max_rounds:
        return events + finish(state, "draw", [],
                               "⌛ The moon has turned too many times. Exhausted, the coven disbands with the "
                               "Hollow neither fed nor banished. **The game is a draw.**")
    return events + open_choosing(state, rng)


def check_win(state: RitualState) -> list[Event]:
    """The end of the game if a side has won (``state.finished`` then holds); no events otherwise."""
    living = alive(state)
    corrupted = sum(1 for p in living if team(state, p) == "corrupted")
    coven = sum(1 for p in living if team(state, p) == "coven")
    everyone = state.roles
    coven_ids = [p for p in everyone if team(state, p) == "coven"]
    corrupted_ids = [p for p in everyone if team(state, p) == "corrupted"]
    if corrupted == 0 and coven == 0:
        return finish(state, "draw", [],
                      "⚖️ The last loyal witch and the last Corrupted witch fall together. "
                      "No one is left to finish the rite. **The game is a draw.**")
    if corrupted == 0 and state.backfired >= 3:
        return finish(state, "draw", [],
                      "⚖️ The Hollow feeds for the third time, but it devours its last servant with "
                      "its meal. Coven and Hollow destroy each other. **The game is a draw.**")
    if state.backfired >= 3:
        return finish(state, "Corrupted", corrupted_ids,
                      "🔴 Three rituals have backfired. The Hollow has fed enough, and it rises through "
                      "the cauldron. **The Corrupted win.**")
    if state.pure >= 5:
        return finish(state, "Coven", coven_ids,
                      "🛡️ Five pure rituals: balance is restored and the Hollow is sealed away. "
                      "**The Coven wins.**")
    if corrupted == 0:
        return finish(state, "Coven", coven_ids,
                      "🛡️ The last Corrupted witch is gone; the Hollow loses its grip on the circle. "
                      "**The Coven wins.**")
    if corrupted >= coven:
        return finish(state, "Corrupted", corrupted_ids,
                      "🔴 The Corrupted now equal the loyal witches. The circle is theirs. "
                      "**The Corrupted win.**")
    return []


def finish(state: RitualState, outcome: str, winners: list[str], text: str) -> list[Event]:
    winners = list(winners)
    if state.revenant_won:
        for p, r in state.roles.items():
            if r == "revenant" and p not in winners:
                winners.append(p)
    state.finished = True
    state.outcome = outcome
    state.winners = winners
    state.votes = {}
    voice.close_turns(state)
    state.next_phase("game_over")
    return reveal(state, text)


def end_game(state: RitualState, action: EndGame, rng: Rng) -> Outcome:
    reason = f" ({action.reason})" if action.reason else ""
    events = finish(state, "ended", [],
                    f"🕯️ A moderator snuffs out the candles{reason}. **The game is ended**, with no winner.")
    state.winners = []
    return Outcome(state=state, events=events, reply="The game is ended.")


def all_records(state: RitualState) -> list[dict[str, Any]]:
    """The hidden record of every ritual so far, decoded (see records.py)."""
    return [records.decode(r) for r in state.history]


def chronicle(state: RitualState) -> list[str]:
    """What the table saw of each round, one line each (no attribution, no numbers)."""
    lines = []
    for rec in all_records(state):
        ings = ", ".join(ingredient_label(i) for i in sorted(rec["offerings"].values())) or "nothing"
        line = (f"**Round {round_word(rec['round'])}**: {state.name(rec['performer'])} performed; "
                f"{ings}; **{rec['quality']}**")
        if rec["deaths"]:
            line += "; died: " + ", ".join(state.name(d) for d in rec["deaths"])
        for v in rec["visions"]:
            if v["shown"]:
                line += f"; vision: {' & '.join(state.name(t) for t in v['targets'])} showed {v['shown']}"
        if rec["burned"]:
            line += f"; burned: {state.name(rec['burned'])}"
        lines.append(line)
    return lines


def reveal(state: RitualState, text: str) -> list[Event]:
    data = load()
    lines = [text, "", "**The witches were:**"]
    for p in state.players:
        role = data.roles[state.roles[p.id]]
        fate = "🏳️ left" if p.id in state.removed else ("💀 dead" if p.id in state.dead else "alive")
        star = " 🏆" if p.id in state.winners else ""
        lines.append(f"{role.icon} **{p.name}**, the {role.name} ({data.teams[role.team].name}), {fate}{star}")
    events = [public("game_over", "\n".join(lines), title="The Ritual is over",
                     data={"outcome": state.outcome, "winners": state.winners,
                           "roles": dict(state.roles)}, pause=3.0,
                     say=voice.SAY_END.get(state.outcome, "The game is over."))]
    blocks = [recap_block(state, rec) for rec in all_records(state)]
    chunk = "📜 **The full chronicle** (hidden corruption: under 20 PURE, over 50 BACKFIRED)"
    for block in blocks:
        if len(chunk) + len(block) + 2 > 1700:
            events.append(public("recap", chunk, title="Chronicle", data={"final": True}))
            chunk = ""
        chunk = (chunk + "\n\n" + block) if chunk else block
    if blocks:
        events.append(public("recap", chunk, title="Chronicle", data={"final": True}))
    return events


def recap_block(state: RitualState, rec: dict[str, Any]) -> str:
    head = (f"**Round {rec['round']}**: Performer {state.name(rec['performer'])}; "
            f"corruption {rec['corruption']}% → {rec['quality']}")
    extras = []
    if rec["dominant"]:
        extras.append(f"{rec['dominant']} dominant")
    if rec["intensity"] != "normal":
        extras.append(rec["intensity"])
    if rec["moon"]:
        extras.append("Purging Moon")
    if rec["warded"]:
        extras.append("wards stopped a backfire")
    if extras:
        head += " (" + ", ".join(extras) + ")"
    lines = [head]
    lines.extend(offer_line(state, pid, iid, pid in rec["idle"]) for pid, iid in rec["offerings"].items())
    fates = []
    if rec["deaths"]:
        fates.append("died: " + ", ".join(state.name(d) for d in rec["deaths"]))
    if rec["burned"]:
        fates.append(f"burned: {state.name(rec['burned'])}")
    if fates:
        lines.append("  " + "; ".join(fates))
    return "\n".join(lines)


def offer_line(state: RitualState, pid: str, iid: str, idle: bool = False) -> str:
    ing = load().ingredients[iid]
    return (f"• {state.name(pid)} offered {ing.icon} {ing.name} ({ing.weight:+d})"
            + (" (timer ran out)" if idle else ""))
