"""The Ritual: the game a reader opens first. Its declared tables (``handlers``, ``phases``) name
where each rule lives: the deal (``deal.py``), the Choosing (``choosing.py``), the Offering and the
ritual it runs (``offering.py``), the Council (``council.py``), the round's end and the wins
(``ending.py``, with the chronicle of the rounds), a witch leaving (``removal.py``), the voice table
(``voice.py``); each voting phase's prompts and legal actions sit beside its rules. Here: what each
viewer sees and may do, the result and the invariants."""

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
    SpeakingTurn,
    TurnOver,
    View,
    leaks,
)

from . import choosing, circle, council, deal, ending, offering, records, removal, voice
from . import ritual as rit
from .circle import NONE, alive, ingredient_label, team
from .data import Data, load
from .models import (
    Offer,
    RitualOptions,
    RitualSetup,
    RitualState,
    VoteBurn,
    VotePerformer,
)
from .phases import PHASES, TIMED, timeout

#: a player's view is cut to this many characters (the table's and the storyteller's are not)
VIEW_LIMIT = 1900
_LEGAL_CACHE: dict[tuple, list[Action]] = {}
#: each voting phase's prompt, its shared prompt (on the phase message) and its legal actions, beside
#: the phase's rules
_PROMPTS = {"choosing": choosing.prompt, "offering": offering.prompt, "council": council.prompt}
_SHARED = {"choosing": choosing.shared_prompt, "council": council.shared_prompt}
_LEGAL = {"choosing": choosing.legal_actions, "offering": offering.legal_actions,
          "council": council.legal_actions}


def _table(state: RitualState) -> dict[str, Any]:
    """What everyone may see, as data (the roles and the history once the game is over)."""
    living = alive(state)
    table: dict[str, Any] = {
        "phase": state.phase, "round": state.round, "performer": state.performer,
        "alive": living, "dead": list(state.dead), "removed": list(state.removed),
        "pure_rituals": state.pure, "backfired_rituals": state.backfired,
        "purging_moon": state.moon, "warded": state.warded, "chronicle": ending.chronicle(state),
        "finished": state.finished, "outcome": state.outcome, "winners": list(state.winners),
    }
    acted = state.offerings if state.phase == "offering" else state.votes
    table["acted"] = [p for p in living if p in acted]
    if state.finished:
        table["roles"] = dict(state.roles)
        table["history"] = ending.all_records(state)
        table["infection"] = state.infection
    return table


def _table_lines(state: RitualState) -> list[str]:
    lines = [f"**The Ritual**, round {state.round}, {state.phase.replace('_', ' ')}"]
    if state.performer:
        lines.append(f"🪑 Performer: **{state.name(state.performer)}**")
    lines.append("Alive: " + ", ".join(state.name(p) for p in alive(state)))
    if state.dead:
        lines.append("Dead: " + ", ".join(state.name(p) for p in state.dead))
    lines.append(f"Pure rituals: {state.pure} of 5 · Backfires: {state.backfired} of 3")
    return lines


def _storyteller_data(state: RitualState) -> dict[str, Any]:
    return {"roles": dict(state.roles), "offerings": dict(state.offerings), "votes": dict(state.votes),
            "infection": state.infection, "history": ending.all_records(state),
            "revenant_won": state.revenant_won, "moon_risen": state.moon_risen, "hunger": state.hunger}


def _storyteller_lines(state: RitualState) -> list[str]:
    roles = load().roles
    lines = [f"Infection: {state.infection}"]
    for p in state.players:
        lines.append(f"• {p.name}: {roles[state.roles[p.id]].name}"
                     + (f", offers {ingredient_label(state.offerings[p.id])}" if p.id in state.offerings else ""))
    return lines


def _seat(state: RitualState, viewer: str) -> tuple[dict[str, Any], list[str], list[str]]:
    """A witch's own part of the view: its data, the lines under the title (role and pool) and the
    lines after the table's (this phase's choice, the fellow Corrupted, the Hollow's whisper)."""
    data = load()
    role = data.roles[state.roles[viewer]]
    side = data.teams[role.team]
    me: dict[str, Any] = {"role": role.id, "team": role.team, "pool": list(role.pool),
                          "alive": state.is_alive(viewer)}
    head = [f"🎴 You are the **{role.name}** {role.icon} ({side.name}). Goal: {side.goal}",
            "Your ingredients: " + ", ".join(ingredient_label(i) for i in role.pool)]
    tail = []
    if state.phase == "offering" and viewer in state.offerings:
        me["offering"] = state.offerings[viewer]
        tail.append(f"Your offering: {ingredient_label(state.offerings[viewer])}")
    if state.phase in ("choosing", "council") and viewer in state.votes:
        me["vote"] = state.votes[viewer]
        tail.append(f"Your vote: {'no one' if state.votes[viewer] == NONE else state.name(state.votes[viewer])}")
    if role.team == "corrupted":
        mates = [p for p in state.roles if p != viewer and team(state, p) == "corrupted"]
        if state.options.corrupted_know_each_other:
            me["teammates"] = mates
            if mates:
                tail.append("Fellow Corrupted: " + ", ".join(state.name(m) for m in mates))
        if state.phase == "offering" and viewer in state.offerings and state.is_alive(viewer):
            ev = offering.whisper(state, viewer)
            if ev is not None:
                me["whisper"] = ev.data
                tail.append(ev.text)
    if role.team == "neutral":
        me["revenant_won"] = state.revenant_won
    return me, head, tail


class RitualGame(Game):
    name = "ritual"
    title = "The Ritual"
    min_players = 3
    max_players = 9
    Options = RitualOptions
    Setup = RitualSetup
    State = RitualState
    actions = (VotePerformer, Offer, VoteBurn, TurnOver)
    handlers: dict[str, Handler] = {
        "vote_performer": choosing.vote_performer,
        "offer": offering.offer,
        "vote_burn": council.vote_burn,
        "turn_over": choosing.turn_over,
        "phase_timeout": timeout,
        "remove_player": removal.remove,
        "end_game": ending.end_game,
    }
    phases: dict[str, Phase] = PHASES

    @property
    def data(self) -> Data:
        return load()

    def _setup(self, players: list[Player], options: RitualOptions, rng: Rng, forced: RitualSetup) -> Outcome:
        return deal.setup(players, options, rng, forced)

    # ------------------------------------------------------------------ protocol
    def silenced(self, state: RitualState) -> list[str]:
        return voice.silenced(state)

    def mutes_by_options(self, options: RitualOptions) -> bool:
        return options.speaking_turns or options.mute_dead

    def speaking_turn(self, state: RitualState) -> SpeakingTurn | None:
        return voice.speaking_turn(state)

    def shared_prompts(self, state: RitualState) -> list[Prompt]:
        """The Choosing's and the Council's votes on the phase message: every witch votes among the
        same players (the Council's own-name pick is refused for that witch)."""
        shared = _SHARED.get(state.phase)
        return [] if state.finished or shared is None else [shared(state)]

    def prompts(self, state: RitualState, player_id: str) -> list[Prompt]:
        if state.finished or player_id not in state.roles or not state.is_alive(player_id):
            return []
        ask = _PROMPTS.get(state.phase)
        return [] if ask is None else [ask(state, player_id)]

    def legal_actions(self, state: RitualState) -> list[Action]:
        """Every legal action now. The list depends only on the phase, the living, the wards and
        the options, never on the votes cast, so it is cached (the simulator asks at every step)."""
        if state.finished:
            return []
        living = alive(state)
        key = (state.phase, tuple(living), state.warded, state.options.allow_spare,
               tuple(state.roles[p] for p in living) if state.phase == "offering" else ())
        cached = _LEGAL_CACHE.get(key)
        if cached is None:
            if len(_LEGAL_CACHE) > 512:
                _LEGAL_CACHE.clear()
            legal = _LEGAL.get(state.phase)
            cached = _LEGAL_CACHE[key] = [] if legal is None else legal(state, living)
        turn = voice.speaking_turn(state)
        if turn is None:
            return list(cached)
        return [*cached, TurnOver(phase_seq=state.phase_seq, turn=turn.index)]

    def team_members(self, state: RitualState, team: str) -> list[str]:
        return [p for p in state.roles if circle.team(state, p) == team.lower()]

    def view(self, state: RitualState, viewer: str | None) -> View:
        """The table's view: what everyone sees, then the storyteller's or the viewer's own part;
        the last three lines of the chronicle close it."""
        table = _table(state)
        lines = _table_lines(state)
        if viewer == "storyteller":
            table.update(_storyteller_data(state))
            return View(text="\n".join(lines + _storyteller_lines(state)), data=table)
        if viewer is None or viewer not in state.roles:
            return View(text="\n".join(lines + table["chronicle"][-3:]), data=table)
        table["me"], head, tail = _seat(state, viewer)
        lines = [lines[0], *head, *lines[1:], *tail, *table["chronicle"][-3:]]
        return View(text="\n".join(lines)[:VIEW_LIMIT], data=table)

    def result(self, state: RitualState) -> Result:
        data = self.data
        players = []
        for p in state.players:
            role = data.roles[state.roles[p.id]]
            players.append(PlayerResult(id=p.id, name=p.name, role=role.name, team=data.teams[role.team].name,
                                        alive=state.is_alive(p.id)))
        return Result(finished=state.finished, phase=state.phase, round=state.round, outcome=state.outcome,
                      winners=list(state.winners), players=players)

    # ------------------------------------------------------------------ invariants
    def secrets(self, state: RitualState) -> list[str]:
        """Strings that must not appear in a public event before the game ends."""
        data = self.data
        out = []
        opts = state.options
        for p in state.players:
            if opts.reveal_on_death and p.id in state.dead:
                continue
            role = data.roles[state.roles[p.id]].name
            out += [f"{p.name} is the {role}", f"{p.name} was the {role}", f"{p.name}, the {role}",
                    f"**{p.name}**, the {role}"]
        for rec in ending.all_records(state):
            for pid, iid in rec["offerings"].items():
                out.append(ending.offer_line(state, pid, iid))
            out.append(f"corruption {rec['corruption']}%")
        for pid, iid in state.offerings.items():
            out.append(ending.offer_line(state, pid, iid))
        return out

    def check_invariants(self, state: RitualState, events: list[Event]) -> list[str]:
        problems: list[str] = []
        data = self.data
        ids = [p.id for p in state.players]
        if set(state.roles) != set(ids):
            problems.append("every player must hold exactly one role")
        if len(set(state.dead)) != len(state.dead) or set(state.dead) & set(state.removed):
            problems.append("a player died or left twice")
        if state.deaths != len(state.dead):
            problems.append("the death counter disagrees with the dead")
        if state.pure + state.backfired > len(state.history):
            problems.append("more PURE/BACKFIRED rituals than rituals")
        if state.pure > 5 or state.backfired > 3:
            problems.append("the ritual counters ran past a win")
        for rec in [records.decode(state.history[-1])] if state.history else []:  # earlier ones were checked
            ritual_deaths = [d for d in rec["deaths"] if d != rec["spite"]]
            if len(ritual_deaths) > 1 or (ritual_deaths and rec["burned"]):
                problems.append(f"more than one death in round {rec['round']} (spite deaths aside)")
            if rec["quality"] == rit.PURE and rec["dominant"] == "corruption":
                problems.append("a PURE ritual with Corruption dominant")
        for p, i in state.offerings.items():
            if i not in data.roles[state.roles[p]].pool:
                problems.append(f"{p} offered an ingredient outside their pool")
        if not state.finished:
            living = alive(state)
            for voter, target in state.votes.items():
                if voter not in living or (target != NONE and target not in living):
                    problems.append("a vote by or for someone out of the circle")
            if state.phase not in TIMED:
                problems.append(f"unknown phase {state.phase}")
        elif state.phase != "game_over":
            problems.append("a finished game must be in game_over")
        # everything said before the final reveal must keep the secrets
        before: list[Event] = []
        for e in events:
            if e.type == "game_over":
                break
            before.append(e)
        for e in before:
            if e.audience.kind == "public" and (
                    "%" in e.text or "weight" in e.data or "corruption" in e.data or "offerings" in e.data):
                problems.append(f"a hidden number in public event {e.type}")
        if any(e.audience.kind == "public" for e in before):
            problems += [f"secret in a public event: {s}" for s in leaks(before, self.secrets(state))]
        for e in events:
            if len(e.text) > 1800 or len(e.title) > 256:
                problems.append(f"event {e.type} is too long")
        problems += voice.invariants(state, events)
        # private events reach only their owner's own secrets (plus teammates for the Corrupted)
        for e in events:
            if e.audience.kind == "player" and e.type == "hollow_whisper" and \
                    team(state, e.audience.id) != "corrupted":
                problems.append("a whisper reached a witch outside the Corrupted")
        return problems

    def rules_summary(self) -> str:
        return (
            "**The Ritual** (3-9 players). The **Coven** (Guardian, Seer, Chronicler) win by burning every "
            "Corrupted witch or completing five PURE rituals. The **Corrupted** (Hollow Servant, Harbinger, "
            "Deceiver) win at parity with the Coven or when three rituals BACKFIRE. At 7+ an optional "
            "**Revenant** wins alone by being alive at round five after three deaths.\n"
            "Each round: **The Choosing** (secret vote for the Performer in the 13th Chair), **The Offering** "
            "(everyone secretly offers one ingredient of their pool; Corrupted who have offered see their "
            "teammates' choices), **The Ritual Unfolds** (ingredients revealed in random order, never who "
            "offered them; the most common domain dominates; a hidden corruption level makes it PURE, "
            "TAINTED or BACKFIRED, and a backfire kills the Performer), **The Council** (only if nobody died: "
            "secret vote to burn a witch; a tie burns no one), then the Hollow's infection spreads.\n"
            "Domains: 🛡️ Protection keeps the Performer alive, 👁️ Divination shows visions of light or "
            "shadow, 🔴 Corruption feeds the Hollow, 🌫️ Misdirection scrambles visions, ⚡ Amplification "
            "pushes to extremes, 🚫 Suppression dampens them.\n"
            "You may change a choice until the phase closes; it closes early once every living witch has acted."
        )
