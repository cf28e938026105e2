"""The Gossip (Bad Moon Rising): "Each day, you may make a public statement. Tonight, if it was true,
a player dies."

Anyone may make a Gossip's statement in the announcements (a bluff as much as the real one), once a
day each; only a living, working Gossip's counts. Whether it was true is the Storytellers' judgement:
at dusk their night sheet asks, and if it was, they kill the player they pick tonight (``/st kill``,
told at dawn as any night death).
"""

from __future__ import annotations

from games.engine import Outcome, Rng

from .actions import GossipStatement
from .rules import illegal, impaired
from .snv_night import holds_regained, regains_ability
from .state import Announcement, ClocktowerState
from .talk import announced, announcing


def gossip_statement(state: ClocktowerState, action: GossipStatement, rng: Rng) -> Outcome:
    seat = announcing(state, action, action.place)
    if not seat.alive and not holds_regained(state, seat):  # (the Bone Collector's choice: until dusk)
        raise illegal("You are dead: the dead make no Gossip's statement.", "dead")
    if any(a.kind == "gossip" and a.by == seat.player for a in state.announcements):
        raise illegal("You have made today's Gossip's statement: one a day.", "stated_today")
    said = " ".join(action.statement.split())
    why = impaired(state, seat.player) or ("" if seat.alive or regains_ability(state, seat) else "no ability") \
        if seat.has("gossip") else ""
    return announced(state, Announcement(kind="gossip", by=seat.player, statement=said,
                                         impaired=[seat.player] if why else [], regained=not seat.alive),
                     f"states, as the Gossip: “{said}”")


def gossip_notes(state: ClocktowerState) -> list[str]:
    """At dusk, the Storytellers' question for each statement of a living Gossip today."""
    lines = []
    for made in state.announcements:
        if made.kind != "gossip" or not state.seated(made.by):
            continue
        seat = state.seat_of(made.by)
        if not seat.has("gossip") or seat.traveller:
            continue
        who = f"the Gossip, {state.label(seat.player)}"
        if made.impaired:
            lines.append(f"• **The Gossip**: {who}, was drunk or poisoned when stating “{made.statement}”: "
                         "nobody dies of it.")
        elif made.regained:
            lines.append(f"• **The Gossip**: {who}, dead, stated “{made.statement}” with the ability the Bone "
                         "Collector gave back until dusk. **Was it true?** The death it brings is tonight, after "
                         "dusk: yours to rule. If you rule it kills, `/st kill` a player of your choice (told at dawn).")
        elif not seat.alive:
            lines.append(f"• **The Gossip**: {who}, stated “{made.statement}” and has died since: "
                         "nobody dies of it.")
        else:
            lines.append(f"• **The Gossip**: {who}, stated “{made.statement}”. **Was it true?** If so, a "
                         "player of your choice dies tonight: `/st kill` them (told at dawn). If not, nothing "
                         "happens.")
    return lines
