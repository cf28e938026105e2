"""Ireland Cauldron: the game a reader opens first. Its declared tables (``handlers``, ``phases``,
``secondaries``, ``primaries``) name where each rule lives: the deal (``deal.py``), the night and the
resolution queue it runs (``night.py``, over the effects in ``effects.py``), the Gaze and Yew choices
(``choices.py``), the day (``day.py``), a player leaving (``removal.py``), the end (``ending.py``);
each phase's prompt and legal actions sit beside its rules. Here: what each viewer sees and may do,
the result and the invariants. See README.md for the interpretations of the rulebook."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
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

from . import choices, day, deal, night, removal, voice
from .data import DATA, HEROES, INGREDIENT_ORDER, INGREDIENTS, MAX_PLAYERS, MIN_PLAYERS
from .effects import PRIMARIES, SECONDARIES
from .ending import end_game, revealed_counts
from .models import (
    CauldronOptions,
    CauldronSetup,
    CauldronState,
    EndDiscussion,
    GazeChoice,
    PlayCard,
    YewVote,
)
from .phases import PHASES, TIMED, timeout
from .terms import (
    BLOOD,
    KIND_LABEL,
    MILK,
    REVEAL_EVENTS,
    ing,
    ing_list,
    outcome_for,
    thistle_threshold,
)

#: a view's text is cut to this many characters
VIEW_LIMIT = 1800
#: each phase's prompt for a player (None when the phase asks nothing of them), its shared prompt (on
#: the phase message) and its legal actions, beside the phase's rules
_PROMPTS: dict[str, Callable[[CauldronState, str], Prompt | None]] = {
    "night": night.prompt, "gaze": choices.gaze_prompt, "yew": choices.yew_prompt, "day": day.prompt,
}
_SHARED = {"day": day.shared_prompt}
_LEGAL: dict[str, Callable[[CauldronState], list[Action]]] = {
    "night": night.legal_actions, "gaze": choices.gaze_legal_actions, "yew": choices.yew_legal_actions,
    "day": day.legal_actions,
}


class CauldronGame(Game):
    name = "cauldron"
    title = "Ireland Cauldron"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    Options = CauldronOptions
    Setup = CauldronSetup
    State = CauldronState
    actions = (PlayCard, GazeChoice, YewVote, EndDiscussion)

    def _setup(self, players: list[Player], options: CauldronOptions, rng: Rng,
               forced: CauldronSetup) -> Outcome:
        return deal.setup(players, options, rng, forced)

    # ================================================================== apply
    #: every action -> its handler, in the module of its phase: the night (``night.py``, with the
    #: resolution queue), the Gaze and Yew choices (``choices.py``), the day (``day.py``), a player
    #: leaving (``removal.py``), the end (``ending.py``)
    handlers: dict[str, Handler] = {
        "play": night.play,
        "gaze": choices.gaze_choice,
        "yew_vote": choices.yew_vote,
        "end_discussion": day.end_discussion,
        "phase_timeout": timeout,
        "remove_player": removal.remove,
        "end_game": end_game,
    }
    #: every phase -> its label, length, closers, prompts and timeout (``phases.py``)
    phases: dict[str, Phase] = PHASES
    #: each ingredient's secondary and primary effect, by its key (``effects.py``; a test checks
    #: every ingredient has both)
    secondaries = SECONDARIES
    primaries = PRIMARIES

    # ================================================================== reading

    def silenced(self, s: CauldronState) -> list[str]:
        return voice.silenced(s)

    def mutes_by_options(self, options: CauldronOptions) -> bool:
        return options.night_quiet

    def rules_summary(self) -> str:
        return (
            "**Ireland Cauldron** (5-10 players). You are a hero of Ireland, Good or Evil (floor(n/3) Evil), "
            "secretly. The cauldron holds 8 🥛 Milk and 8 🩸 Blood.\n"
            "**Night:** cast one ingredient from your hand of 3 (poisoned players sit out). The cards are "
            "shown shuffled: the most-cast is the **primary**, the next the **secondary** (two tied for the "
            "most: both secondary; three or more: nothing). Secondaries resolve first, then the primary.\n"
            "🕯️ Brigid: reveal 2, both Milk: one stays up (2nd: primary twice). 👁️ Gaze: see a random card, "
            "bottom or discard (2nd: peek the top). 🎶 Ceol: swap heroes (2nd: nothing). 🌿 Thistle: reveal 2, "
            "few Thistles purge Blood, many purge Milk (2nd: discard top). 🐺 Wolfbane: everyone loses a random "
            "card (2nd: blocks the primary). 🍵 Yew: vote a poison for next night (2nd: top card Blood poisons "
            "the Yew drinkers).\n"
            "**Day:** talk, then press End discussion. Draw back to 3.\n"
            "The game ends when deck + face-up cards fall to 5: more Milk, Good wins; more Blood, Evil wins."
        )

    def view(self, s: CauldronState, viewer: str | None) -> View:
        rc = revealed_counts(s)
        known_out = Counter(s.kinds[c] for c in s.out_known)
        table: dict[str, Any] = {
            "round": s.round, "phase": s.phase, "finished": s.finished,
            "deck": len(s.deck), "revealed": rc, "remaining": s.remaining(),
            "discarded": {"total": len(s.out), "milk_seen": known_out["milk"], "blood_seen": known_out["blood"]},
            "table": list(s.table), "draw_pile": len(s.draw),
            "discard_pile": {k: s.discard.count(k) for k in INGREDIENT_ORDER},
            "primary": s.primary, "secondaries": list(s.secondaries),
            "poisoned": list(s.poison), "poison_round": s.poison_round if s.poison else None,
            "players": [{"id": p.id, "name": p.name, "in_game": p.id not in s.removed} for p in s.players],
            "hero_deck": {"good": sum(h.team == "good" for h in DATA.heroes),
                          "evil": sum(h.team == "evil" for h in DATA.heroes), "spare": len(s.hero_deck),
                          "discarded": len(s.hero_discard)},
            "thistle_threshold": thistle_threshold(len(s.active())),
            "center_start": {"milk": 8, "blood": 8},
            "ingredients_start": {i.key: i.copies for i in DATA.ingredients},
            "end_remaining": s.options.end_remaining,
        }
        lines = [f"**Ireland Cauldron**, {'game over' if s.finished else f'round {s.round}, {s.phase}'}",
                 f"Cauldron: {len(s.deck)} in the deck, face up {rc['milk']} {MILK} / {rc['blood']} {BLOOD} "
                 f"({s.remaining()} left; ends at {s.options.end_remaining}). Cast out: {len(s.out)} "
                 f"({known_out['milk']} Milk and {known_out['blood']} Blood seen).",
                 f"Ingredients: {len(s.draw)} to draw, {len(s.discard)} discarded.",
                 f"At the start: 8 {MILK} + 8 {BLOOD} in the cauldron; 60 ingredients, 10 of each; "
                 f"{len(DATA.heroes)} heroes ({len(s.hero_deck)} spare now). The Thistle threshold is "
                 f"{thistle_threshold(len(s.active()))}."]
        if s.table:
            lines.append(f"On the table: {ing_list(s.table)}")
        if s.poison:
            lines.append(f"Poisoned for night {s.poison_round}: {ing_list(s.poison)}")
        data: dict[str, Any] = {"table": table}
        if s.finished or viewer == "storyteller":
            data["heroes"] = dict(s.heroes)
            data["center"] = {"deck": [s.kinds[c] for c in s.deck], "revealed": [s.kinds[c] for c in s.revealed],
                              "out": [s.kinds[c] for c in s.out]}
        if viewer == "storyteller":
            data.update(hands={k: list(v) for k, v in s.hands.items()}, chosen=dict(s.chosen),
                        played_by=dict(s.played_by), sit_out=dict(s.sit_out), hero_deck=list(s.hero_deck),
                        hero_discard=list(s.hero_discard),
                        knowledge={k: [x.model_dump() for x in v] for k, v in s.knowledge.items()},
                        gaze_pending=dict(s.gaze_pending), yew_votes=dict(s.yew_votes))
            lines.append("Heroes: " + ", ".join(f"{s.name(p)} {HEROES[h].name}" for p, h in s.heroes.items()))
        elif viewer is not None and viewer in s.heroes:
            me = self._my_view(s, viewer)
            data["me"] = me
            lines = self._my_lines(s, viewer, me) + [""] + lines
        return View(text="\n".join(lines)[:VIEW_LIMIT], data=data)

    def _my_view(self, s: CauldronState, pid: str) -> dict[str, Any]:
        hero = HEROES[s.heroes[pid]]
        return {
            "hero": hero.key, "hero_name": hero.name, "team": hero.team,
            "allies": list(s.evil_allies.get(pid, [])),
            "hand": list(s.hands.get(pid, [])), "chosen": s.chosen.get(pid),
            "played": s.played_by.get(pid),
            "poisoned_round": s.sit_out.get(pid) if s.sit_out.get(pid, 0) >= s.round else None,
            "seen": [k.model_dump() for k in s.knowledge.get(pid, [])],
            "hero_changes": [c.model_dump() for c in s.hero_changes.get(pid, [])],
            "gaze_card": (s.kinds[s.gaze_pending[pid]] if pid in s.gaze_pending else None),
            "gaze_choice": s.gaze_choices.get(pid) if pid in s.gaze_pending else None,
            "yew_vote": s.yew_votes.get(pid),
            "in_game": pid not in s.removed,
        }

    def _my_lines(self, s: CauldronState, pid: str, me: dict[str, Any]) -> list[str]:
        lines = [f"You are **{me['hero_name']}** ({'Good' if me['team'] == 'good' else 'Evil'})."]
        if me["allies"]:
            lines.append("Evil allies you learned at the start: " + ", ".join(s.name(a) for a in me["allies"]))
        for c in me["hero_changes"]:
            lines.append(f"Night {c['round']}: Ceol turned you from {HEROES[c['before']].name} into "
                         f"{HEROES[c['after']].name}.")
        lines.append(f"Your hand: {ing_list(me['hand'])}")
        if me["chosen"]:
            lines.append(f"Tonight you cast: {ing(me['chosen'])} (you can change it).")
        elif me["played"]:
            lines.append(f"This round you cast: {ing(me['played'])}.")
        if me["poisoned_round"]:
            lines.append(f"☠️ You cannot cast on night {me['poisoned_round']}.")
        seen = me["seen"]
        if len(seen) > 8:
            lines.append(f"({len(seen) - 8} earlier sightings not shown)")
            seen = seen[-8:]
        pending = {"bottom": "you chose the bottom; you can change it until every gazer has chosen",
                   "discard": "you chose to cast it out; you can change it until every gazer has chosen",
                   None: "your choice is pending"}[me["gaze_choice"]]
        for k in seen:
            how = "peeked at the top card" if k["how"] == "peek" else "gazed at a card"
            fate = {"top": "it stayed on top", "bottom": "you put it at the bottom",
                    "discarded": "you cast it out", "pending": pending}[k["fate"]]
            lines.append(f"Night {k['round']}: you {how}: {KIND_LABEL[k['kind']]} ({fate}).")
        if me["yew_vote"]:
            lines.append(f"Your vote: poison {ing(me['yew_vote'])} (you can change it until every drinker "
                         "has voted).")
        return lines

    def result(self, s: CauldronState) -> Result:
        players = []
        for p in s.players:
            hero = HEROES[s.heroes[p.id]]
            players.append(PlayerResult(id=p.id, name=p.name, role=hero.name, team=hero.team,
                                        alive=p.id not in s.removed))
        return Result(finished=s.finished, phase=s.phase, round=s.round, outcome=s.outcome,
                      winners=list(s.winners), players=players)

    def team_members(self, s: CauldronState, team: str) -> list[str]:
        return [pid for pid in s.active() if HEROES[s.heroes[pid]].team == team]

    # ================================================================== prompts & simulation

    def prompts(self, s: CauldronState, player_id: str) -> list[Prompt]:
        if s.finished or player_id in s.removed or player_id not in s.heroes:
            return []
        ask = _PROMPTS.get(s.phase)
        prompt = None if ask is None else ask(s, player_id)
        return [] if prompt is None else [prompt]

    def recap(self, s: CauldronState, records: list[Event]) -> list[Event]:
        return night.recap(s, records)

    def shared_prompts(self, s: CauldronState) -> list[Prompt]:
        """The day's End discussion button, on the day's message."""
        shared = _SHARED.get(s.phase)
        return [] if s.finished or shared is None else [shared(s)]

    def legal_actions(self, s: CauldronState) -> list[Action]:
        legal = _LEGAL.get(s.phase)
        return [] if s.finished or legal is None else legal(s)

    # ================================================================== invariants

    def secrets(self, s: CauldronState) -> list[str]:
        """Strings no public event may contain before the final reveal."""
        out = [h.name for h in DATA.heroes]
        for p in s.players:
            out += [f"{p.name} played", f"{p.name} cast", f"{p.name}'s hand", f"{p.name} is poisoned",
                    f"{p.name} sits out", f"{p.name} is good", f"{p.name} is evil"]
        out += list(s.kinds)  # center card ids: which card a gazer saw, where it went
        return out

    def check_invariants(self, s: CauldronState, events: list[Event]) -> list[str]:
        problems: list[str] = []
        ids = s.deck + s.revealed + s.out
        if len(ids) != 16 or len(set(ids)) != 16 or set(ids) != set(s.kinds):
            problems.append(f"center cards not conserved: deck {len(s.deck)} + revealed {len(s.revealed)} "
                            f"+ out {len(s.out)}")
        kinds = Counter(s.kinds.values())
        if kinds["milk"] != 8 or kinds["blood"] != 8:
            problems.append(f"center kinds changed: {dict(kinds)}")
        if not set(s.out_known) <= set(s.out):
            problems.append("a known discard is not out of the game")
        cards: dict[str, int] = dict.fromkeys(INGREDIENT_ORDER, 0)
        for pile in (s.draw, s.discard, s.table, *s.hands.values()):
            for k in pile:
                cards[k] = cards.get(k, 0) + 1
        if any(cards[k] != INGREDIENTS[k].copies for k in cards):
            problems.append(f"ingredients not conserved: {cards}")
        for pid, hand in s.hands.items():
            if len(hand) > 3:
                problems.append(f"{pid} holds {len(hand)} cards")
            if pid in s.chosen and s.chosen[pid] not in hand:
                problems.append(f"{pid} chose a card not in hand")
        heroes = list(s.heroes.values()) + s.hero_deck + s.hero_discard
        if sorted(heroes) != sorted(h.key for h in DATA.heroes):
            problems.append("heroes not conserved")
        if not s.finished and s.remaining() <= s.options.end_remaining:
            problems.append(f"game still running with {s.remaining()} cards left")
        if s.finished and s.outcome != "ended" and s.remaining() != s.options.end_remaining and s.deck:
            problems.append(f"game ended with {s.remaining()} cards left, not {s.options.end_remaining}")
        if s.finished and s.outcome in ("good", "evil"):
            milk = sum(s.kinds[c] == "milk" for c in s.deck + s.revealed)
            if outcome_for(milk, s.remaining() - milk) != s.outcome:
                problems.append("wrong winner for the final count")
        if not s.finished and s.phase not in TIMED:
            problems.append(f"unknown phase {s.phase}")
        # secrets in public events (the final reveal may name everything)
        shown = [e for e in events if e.audience.kind == "public" and e.type not in REVEAL_EVENTS]
        if not shown:
            return problems
        for secret in leaks(shown, self.secrets(s)):
            problems.append(f"secret in a public event: {secret!r}")
        pids = {p.id for p in s.players}
        for e in shown:
            if e.type == "player_removed":
                continue
            blob = json.dumps(e.data)
            if any(f'"{pid}"' in blob for pid in pids):
                problems.append(f"a player id in public event data ({e.type})")
            if any(f'"{hero}"' in blob for hero in HEROES):
                problems.append(f"a hero key in public event data ({e.type})")
        return problems
