"""The Ritual: the rules, phases and narration."""

from __future__ import annotations

from functools import cached_property
from typing import Any, Literal

from games.engine import (
    NO_ONE,
    Action,
    Choice,
    EndGame,
    Event,
    Game,
    Handler,
    IllegalAction,
    Outcome,
    PhaseTimeout,
    Player,
    PlayerResult,
    Prompt,
    PromptField,
    RemovePlayer,
    Result,
    Rng,
    SetupError,
    SpeakingTurn,
    TurnOver,
    View,
    leaks,
    private,
    public,
)

from . import records, voice
from . import ritual as rit
from .data import Data, load
from .models import (
    CORRUPTED_BY_COUNT,
    Offer,
    RitualOptions,
    RitualSetup,
    RitualState,
    VoteBurn,
    VotePerformer,
)

ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
            "tenth", "eleventh", "twelfth")
NONE = NO_ONE  # the Council's "burn no one"
TIMED = {"choosing": "choosing_seconds", "offering": "offering_seconds", "council": "council_seconds"}
LIGHT, SHADOW = "light", "shadow"
_LEGAL_CACHE: dict[tuple, list[Action]] = {}


def ordinal(n: int) -> str:
    return ORDINALS[n - 1] if 1 <= n <= len(ORDINALS) else f"{n}th"


CARDINALS = ("Zero", "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten",
             "Eleven", "Twelve", "Thirteen", "Fourteen", "Fifteen", "Sixteen", "Seventeen", "Eighteen",
             "Nineteen", "Twenty", "Twenty-One", "Twenty-Two", "Twenty-Three", "Twenty-Four",
             "Twenty-Five", "Twenty-Six", "Twenty-Seven", "Twenty-Eight", "Twenty-Nine", "Thirty")


def round_word(n: int) -> str:
    return CARDINALS[n] if 0 <= n < len(CARDINALS) else str(n)


class RitualGame(Game):
    name = "ritual"
    title = "The Ritual"
    min_players = 3
    max_players = 9
    Options = RitualOptions
    Setup = RitualSetup
    State = RitualState
    actions = (VotePerformer, Offer, VoteBurn, TurnOver)

    @property
    def data(self) -> Data:
        return load()

    # ------------------------------------------------------------------ helpers
    def team(self, state: RitualState, pid: str) -> str:
        return self.data.roles[state.roles[pid]].team

    @staticmethod
    def alive(state: RitualState) -> list[str]:
        gone = set(state.dead) | set(state.removed)
        return [p.id for p in state.players if p.id not in gone]

    @staticmethod
    def is_alive(state: RitualState, pid: str) -> bool:
        return state.is_alive(pid)

    def living_corrupted(self, state: RitualState) -> list[str]:
        return [p for p in self.alive(state) if self.team(state, p) == "corrupted"]

    def _line(self, lines: tuple[str, ...] | list[str], state: RitualState, salt: int = 0) -> str:
        """A narration variant, chosen without spending randomness (replays stay simple)."""
        return lines[(state.round * 7 + state.phase_seq + salt) % len(lines)]

    def ingredient_label(self, iid: str) -> str:
        ing = self.data.ingredients[iid]
        return f"{ing.icon} {ing.name}"

    # ------------------------------------------------------------------ setup
    def _setup(self, players: list[Player], options: RitualOptions, rng: Rng, forced: RitualSetup) -> Outcome:
        data = self.data
        n = len(players)
        ids = [p.id for p in players]
        if forced.roles:
            if set(forced.roles) != set(ids):
                raise SetupError("Forced roles must name every player exactly once.", code="bad_setup")
            for rid in forced.roles.values():
                if rid not in data.roles:
                    raise SetupError(f"There is no role {rid!r}.", code="bad_setup")
            roles = dict(forced.roles)
            teams = [data.roles[r].team for r in roles.values()]
            k, coven = teams.count("corrupted"), teams.count("coven")
            if k < 1 or k >= coven:
                raise SetupError(
                    "A game needs at least one Corrupted witch, and fewer Corrupted than Coven witches.",
                    code="bad_setup")
        else:
            revenant = options.revenant and n >= 7
            k = options.corrupted_count or CORRUPTED_BY_COUNT[n]
            coven = n - k - (1 if revenant else 0)
            if k >= coven:
                raise SetupError(
                    f"{k} Corrupted witches are too many for {n} players: they must be fewer than the Coven.",
                    code="bad_option")
            corrupted = [r.id for r in data.roles.values() if r.team == "corrupted"]
            rng.shuffle(corrupted)
            loyal = [r.id for r in data.roles.values() if r.team == "coven"]
            rng.shuffle(loyal)
            deck = corrupted[:k] + [loyal[i % len(loyal)] for i in range(coven)]
            if revenant:
                deck.append("revenant")
            rng.shuffle(deck)
            roles = dict(zip(ids, deck, strict=True))
        state = RitualState(players=players, phase="setup", round=1, options=options, roles=roles,
                            performed=dict.fromkeys(ids, 0))
        events: list[Event] = []
        n_corrupted = sum(1 for r in roles.values() if data.roles[r].team == "corrupted")
        has_revenant = any(data.roles[r].team == "neutral" for r in roles.values())
        events.append(public(
            "game_started",
            f"🕯️ **The Ritual begins.** {round_word(n)} witches take their places around the cauldron. "
            f"The Hollow has crept into the circle: {self._count_words(n_corrupted)} among you now "
            f"feed{'s' if n_corrupted == 1 else ''} it."
            + (" A restless spirit haunts the circle too, seeking an ending of its own." if has_revenant else "")
            + "\nCheck your role card (DM or **My hand**).",
            title="The Ritual",
        ))
        for p in players:
            events.append(self._role_card(state, p.id))
        self._open_choosing(state, rng, events)
        return Outcome(state=state, events=events)

    @staticmethod
    def _count_words(n: int) -> str:
        return ("no one", "one witch", "two witches", "three witches")[n] if n <= 3 else f"{n} witches"

    def _role_card(self, state: RitualState, pid: str) -> Event:
        data = self.data
        role = data.roles[state.roles[pid]]
        team = data.teams[role.team]
        lines = [f"🎴 **You are the {role.name}** {role.icon} ({team.icon} {team.name})", f"*{role.description}*", "",
                 "**Your ingredients:**"]
        for iid in role.pool:
            ing = data.ingredients[iid]
            lines.append(f"{ing.icon} **{ing.name}**: {ing.flavour}")
        lines += ["", f"**Goal:** {team.goal}"]
        mates: list[str] = []
        if role.team == "corrupted":
            mates = [p for p in state.roles if p != pid and self.team(state, p) == "corrupted"]
            if not mates:
                lines.append("You feed the Hollow alone.")
            elif state.options.corrupted_know_each_other:
                lines.append("**Your fellow Corrupted:** " + ", ".join(
                    f"{state.name(m)} ({data.roles[state.roles[m]].name})" for m in mates))
            else:
                lines.append("Others feed the Hollow too, but you do not know their faces. Once you have "
                             "offered, the Hollow will whisper their offerings to you.")
            if mates:
                lines.append("Once you have offered, you see your teammates' offerings: a strong corruption "
                             "ingredient signals *sabotage*, a milder one signals *lie low*.")
        return private(pid, "role_card", "\n".join(lines), title="Your role",
                       data={"role": role.id, "team": role.team, "pool": list(role.pool),
                             "teammates": mates if state.options.corrupted_know_each_other else []})

    # ------------------------------------------------------------------ phases
    def _open_choosing(self, state: RitualState, rng: Rng, events: list[Event]) -> None:
        state.next_phase("choosing")
        state.votes = {}
        state.offerings = {}
        state.performer = ""
        state.warded = ""
        voice.open_turns(state, self.alive(state), rng)
        events.append(public(
            "choosing_opened",
            f"🪑 **Round {round_word(state.round)}: The Choosing.** Who will sit in the 13th Chair? "
            "Discuss, then cast your secret vote for this round's Performer."
            + (voice.turns_intro(state) if state.speakers else ""),
            title="The Choosing", opens_phase=True, data={"round": state.round}, say=voice.say_choosing(state),
        ))
        if state.speakers:
            events.append(voice.turn_event(state))

    def _close_choosing(self, state: RitualState, rng: Rng, events: list[Event]) -> None:
        living = self.alive(state)
        tally: dict[str, int] = {}
        for target in state.votes.values():
            tally[target] = tally.get(target, 0) + 1
        if tally:
            top = max(tally.values())
            leaders = [p for p in living if tally.get(p) == top]
        else:
            leaders = list(living)
        tie = len(leaders) > 1
        if tie and state.options.performer_tie == "fewest_then_random":
            least = min(state.performed.get(p, 0) for p in leaders)
            leaders = [p for p in leaders if state.performed.get(p, 0) == least]
        performer = leaders[0] if len(leaders) == 1 else rng.choice(leaders)
        state.performer = performer
        state.performed[performer] = state.performed.get(performer, 0) + 1
        voice.close_turns(state)
        name = state.name(performer)
        if not tally:
            how = "No one voted; fate itself chooses."
        elif tie:
            how = "The votes are split; the Chair chooses for itself."
        else:
            how = "The coven has chosen."
        # the line pings the Performer (``notify``): that is how they learn it, with no DM of its own
        events.append(public(
            "performer_chosen", f"🪑 {how} **{name}** takes the 13th Chair as this round's Performer: "
            "if the ritual backfires, the Hollow comes for them. They offer an ingredient like everyone else.",
            title="The 13th Chair", data={"performer": performer, "tie": tie}, pause=2.0, notify=[performer],
            say=f"{name} takes the thirteenth chair.",
        ))
        state.votes = {}
        state.next_phase("offering")
        events.append(public(
            "offering_opened",
            f"🧪 **The Offering.** Each witch secretly places one ingredient into the cauldron for "
            f"**{name}**'s ritual.",
            title="The Offering", opens_phase=True, data={"performer": performer},
            say=voice.say_offering(state, name),
        ))

    def _close_offering(self, state: RitualState, rng: Rng, events: list[Event]) -> None:
        data = self.data
        living = self.alive(state)
        idle: list[str] = []
        if state.options.idle_offering == "random":
            for p in living:
                if p not in state.offerings:
                    state.offerings[p] = rng.choice(data.roles[state.roles[p]].pool)
                    idle.append(p)
        offered = [(p, state.offerings[p]) for p in living if p in state.offerings]
        moon = state.moon
        opts = state.options
        reading = rit.read(data, [i for _, i in offered], moon=moon, amplify_tainted=opts.amplify_tainted,
                           amp_and_sup=opts.amp_and_sup)
        state.moon = False
        performer = state.performer
        pname = state.name(performer)
        q = reading.quality
        record: dict[str, Any] = {
            "round": state.round, "performer": performer, "offerings": dict(offered), "idle": idle,
            "corruption": reading.corruption, "dominant": reading.dominant, "base": reading.base_quality,
            "quality": q, "intensity": reading.intensity, "moon": moon, "warded": reading.warded,
            "deaths": [], "spite": "", "visions": [], "burned": "",
        }
        nar = data.narration
        if performer and self.is_alive(state, performer):
            opening = f"🔥 **The Ritual Unfolds.** {pname} raises the ladle in the 13th Chair."
        else:
            opening = "🔥 **The Ritual Unfolds.** The 13th Chair stands empty, but the rite goes on."
        if moon:
            opening += "\n" + nar.moon
        events.append(public("ritual_started", opening, title="The Ritual Unfolds", pause=2.0))
        reveal_at = len(events)  # the ingredients go here, in an order drawn last (see below)
        if not offered:
            events.append(public("cauldron_reaction", nar.empty, pause=3.0))
        else:
            reaction = self._line(getattr(nar.reaction, q), state)
            if reading.intensity != "normal":
                reaction += "\n" + nar.intensity[reading.intensity]  # type: ignore[index]  # keys checked at load
            events.append(public("cauldron_reaction", reaction, pause=3.0))
        self._verdict(state, reading, pname, events)
        died = self._ritual_deaths(state, reading, living, rng, record, events)
        candidates = [p for p in living if p != performer]
        # ----- visions
        visions = self._visions(state, reading, candidates, rng)
        record["visions"] = visions
        for v in visions:
            events.append(public("vision", v.pop("text"), data={"targets": v["targets"]}, pause=2.0))
        if not died:  # a backfire kills no one only when the Performer has left the circle
            events.append(public("no_death", nar.death["nobody"], pause=1.0, say="No one dies."))
        if reading.dominant == "protection" and q == rit.PURE and reading.intensity != "muted" \
                and performer and self.is_alive(state, performer) and state.options.wards_shield_council:
            state.warded = performer
        # The reveal order is drawn after every other draw of the ritual, so a test's scripted
        # randomness (spite, visions) is not spent by the shuffle.
        order = [i for _, i in offered]
        rng.shuffle(order)
        reveals = []
        for k, iid in enumerate(order):
            ing = data.ingredients[iid]
            reveals.append(public(
                "ingredient_revealed",
                self._line(nar.reveal, state, k).format(icon=ing.icon, name=ing.name),
                data={"ingredient": iid, "name": ing.name, "icon": ing.icon}, pause=2.5,
            ))
        events[reveal_at:reveal_at] = reveals
        state.history.append(records.encode(record))
        if self._check_win(state, events):
            return
        if died:
            self._end_round(state, rng, events)
        else:
            self._open_council(state, events)

    def _verdict(self, state: RitualState, reading: rit.Reading, pname: str, events: list[Event]) -> None:
        """The ritual's outcome: pure, tainted or backfired, counted and told."""
        nar = self.data.narration
        q = reading.quality
        if q == rit.PURE:
            state.pure += 1
            verdict = f"✨ **The ritual is PURE**: the coven's {ordinal(state.pure)} pure ritual."
        elif q == rit.BACKFIRED:
            state.backfired += 1
            verdict = f"💥 **The ritual BACKFIRES**: the Hollow has fed for the {ordinal(state.backfired)} time."
        else:
            verdict = "🌘 **The ritual is TAINTED.**"
        body = ""
        if reading.dominant:
            shown_q = rit.BACKFIRED if reading.warded else q  # the wards broke a backfire
            templates = nar.outcome[reading.dominant]  # type: ignore[index]  # keys checked at load
            body = self._line(getattr(templates, shown_q), state).format(performer=pname) + "\n"
        events.append(public("ritual_outcome", body + verdict, data={"quality": q}, pause=3.0,
                             say=voice.SAY_QUALITY[q]))

    def _ritual_deaths(self, state: RitualState, reading: rit.Reading, living: list[str], rng: Rng,
                       record: dict[str, Any], events: list[Event]) -> list[str]:
        """Who a backfire kills: the Performer (or a witch astray), and perhaps one more out of spite."""
        nar = self.data.narration
        q = reading.quality
        performer = state.performer
        pname = state.name(performer)
        died: list[str] = []
        if q == rit.BACKFIRED:
            if reading.dominant == "misdirection":
                victim = rng.choice(living)
                self._kill(state, victim)
                died.append(victim)
                kind: Literal["performer", "astray"] = "performer" if victim == performer else "astray"
                events.append(public("death", nar.death[kind].format(victim=state.name(victim)),
                                     data={"player": victim, "cause": "ritual"}, pause=2.0,
                                     say=f"{state.name(victim)} is dead."))
            elif performer and self.is_alive(state, performer):
                self._kill(state, performer)
                died.append(performer)
                events.append(public("death", nar.death["performer"].format(victim=pname),
                                     data={"player": performer, "cause": "ritual"}, pause=2.0,
                                     say=f"{pname} is dead."))
            chance = 0.0
            if reading.dominant in ("corruption", "misdirection"):
                chance = 0.25
            if state.round >= 4 and state.infection >= 5:
                chance = 0.5
            if chance:
                pool = [p for p in self.alive(state) if self.team(state, p) != "corrupted"]
                if pool and rng.random() < chance:
                    victim = pool[0] if len(pool) == 1 else rng.choice(pool)
                    self._kill(state, victim)
                    died.append(victim)
                    record["spite"] = victim
                    events.append(public("death", nar.death["spite"].format(victim=state.name(victim)),
                                         data={"player": victim, "cause": "spite"}, pause=2.0,
                                         say=f"{state.name(victim)} is dead too."))
        for victim in died:
            if state.options.reveal_on_death:
                events.append(self._role_reveal(state, victim))
        record["deaths"] = died
        return died

    def _visions(self, state: RitualState, reading: rit.Reading, candidates: list[str],
                 rng: Rng) -> list[dict[str, Any]]:
        """The ritual's visions (Divination, and Misdirection's false ones). Draw order of randomness:
        target(s) by ``choice``, then one ``random()`` per scrambled clue."""
        nar = self.data.narration.vision
        q = reading.quality
        out: list[dict[str, Any]] = []
        pool = [p for p in candidates if self.is_alive(state, p)]

        def truth(pid: str) -> str:
            return SHADOW if self.team(state, pid) == "corrupted" else LIGHT

        def flip(a: str) -> str:
            return LIGHT if a == SHADOW else SHADOW

        def scramble(a: str) -> str:
            if state.options.misdirection == "invert":
                return flip(a)
            return a if rng.random() < 0.5 else flip(a)

        if reading.dominant == "divination":
            if q == rit.TAINTED and reading.intensity == "muted":
                return [{"text": nar["closed"], "targets": [], "shown": "", "true": ""}]
            if not pool:
                return [{"text": nar["closed"], "targets": [], "shown": "", "true": ""}]
            first = rng.choice(pool)
            if q == rit.PURE and reading.intensity == "muted" and len(pool) >= 2:
                second = rng.choice([p for p in pool if p != first])
                real = SHADOW if SHADOW in (truth(first), truth(second)) else LIGHT
                shown = scramble(real) if reading.misdirected else real
                text = nar["pair_shadow" if shown == SHADOW else "pair_light"].format(
                    a=state.name(first), b=state.name(second))
                return [{"text": text, "targets": [first, second], "shown": shown, "true": real}]
            targets = [first]
            if q == rit.PURE and reading.intensity == "vivid" and len(pool) >= 2:
                targets.append(rng.choice([p for p in pool if p != first]))
            for t in targets:
                real = truth(t)
                if q == rit.PURE:
                    shown = scramble(real) if reading.misdirected else real
                elif q == rit.BACKFIRED:
                    shown = flip(real)
                else:
                    shown = ""
                text = nar[shown or "uncertain"].format(target=state.name(t))  # type: ignore[index]  # keys checked at load
                out.append({"text": text, "targets": [t], "shown": shown, "true": real})
        elif reading.dominant == "misdirection" and q == rit.TAINTED and pool:
            t = rng.choice(pool)
            shown = LIGHT if rng.random() < 0.5 else SHADOW
            text = nar[shown].format(target=state.name(t))  # type: ignore[index]  # keys checked at load
            out.append({"text": text, "targets": [t], "shown": shown, "true": truth(t)})
        return out

    def chronicle(self, state: RitualState) -> list[str]:
        """What the table saw of each round, one line each (no attribution, no numbers)."""
        lines = []
        for rec in self.records(state):
            ings = ", ".join(self.ingredient_label(i) for i in sorted(rec["offerings"].values())) or "nothing"
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

    @staticmethod
    def records(state: RitualState) -> list[dict[str, Any]]:
        """The hidden record of every ritual so far, decoded (see records.py)."""
        return [records.decode(r) for r in state.history]

    def _kill(self, state: RitualState, pid: str) -> None:
        state.dead.append(pid)
        state.deaths += 1
        state.votes.pop(pid, None)

    def _role_reveal(self, state: RitualState, pid: str) -> Event:
        role = self.data.roles[state.roles[pid]]
        return public("role_revealed", f"🎴 {state.name(pid)} was the **{role.name}** {role.icon}.",
                      data={"player": pid, "role": role.id, "team": role.team})

    def _open_council(self, state: RitualState, events: list[Event]) -> None:
        state.next_phase("council")
        state.votes = {}
        survived = " The Performer survived." if state.performer and self.is_alive(state, state.performer) else ""
        text = (f"⚖️ **The Council.**{survived} Discuss what the ritual revealed, then "
                "secretly vote to burn one witch")
        text += ", or to burn no one." if state.options.allow_spare else "."
        text += " A tie burns no one."
        if state.warded:
            text += f"\n🛡️ The wards shield **{state.name(state.warded)}**: they cannot be burned this round."
        events.append(public("council_opened", text, title="The Council", opens_phase=True,
                             data={"warded": state.warded}, say=voice.say_council(state)))

    def _close_council(self, state: RitualState, rng: Rng, events: list[Event]) -> None:
        nar = self.data.narration.council
        tally: dict[str, int] = {}
        for target in state.votes.values():
            tally[target] = tally.get(target, 0) + 1
        state.votes = {}
        burned = ""
        if not tally:
            events.append(public("council_result", nar["empty"], data={"burned": ""}, pause=2.0,
                                 say="No one burns."))
        else:
            top = max(tally.values())
            leaders = [t for t, c in tally.items() if c == top]
            if len(leaders) > 1:
                events.append(public("council_result", nar["tie"], data={"burned": "", "tie": True}, pause=2.0,
                                     say="The Council cannot agree. No one burns."))
            elif leaders[0] == NONE:
                events.append(public("council_result", nar["spare"], data={"burned": ""}, pause=2.0,
                                     say="No one burns."))
            else:
                burned = leaders[0]
                self._kill(state, burned)
                events.append(public("council_result", nar["burn"].format(victim=state.name(burned)),
                                     data={"burned": burned}, pause=3.0, say=f"{state.name(burned)} burns."))
                if state.options.reveal_on_death:
                    events.append(self._role_reveal(state, burned))
        if state.history and burned:
            rec = records.decode(state.history[-1])
            rec["burned"] = burned
            state.history[-1] = records.encode(rec)
        if self._check_win(state, events):
            return
        self._end_round(state, rng, events)

    def _end_round(self, state: RitualState, rng: Rng, events: list[Event]) -> None:
        """Phase 5, Infection Spread, then the next round (or the end)."""
        nar = self.data.narration.infection
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
        events.append(public("infection", "\n".join(lines), title="Infection Spread", pause=2.0))
        state.round += 1
        rev = [p for p in self.alive(state) if state.roles[p] == "revenant"]
        if rev and state.round >= 5 and state.deaths >= 3 and not state.revenant_won:
            state.revenant_won = True
            if state.options.revenant_ends_game:
                self._finish(state, "Neutral", rev, events,
                             f"👻 **{state.name(rev[0])} was the Revenant**, and has seen enough death. "
                             "Their spirit finds closure, and the circle breaks. **The Revenant wins alone.**")
                return
            events.append(private(rev[0], "revenant_closure",
                                  "👻 You have survived to Round Five and seen enough death: your win is sealed. "
                                  "Play on; the Coven and the Corrupted still fight for theirs."))
        if state.round > state.options.max_rounds:
            self._finish(state, "draw", [], events,
                         "⌛ The moon has turned too many times. Exhausted, the coven disbands with the "
                         "Hollow neither fed nor banished. **The game is a draw.**")
            return
        self._open_choosing(state, rng, events)

    # ------------------------------------------------------------------ winning
    def _check_win(self, state: RitualState, events: list[Event]) -> bool:
        living = self.alive(state)
        corrupted = sum(1 for p in living if self.team(state, p) == "corrupted")
        coven = sum(1 for p in living if self.team(state, p) == "coven")
        everyone = state.roles
        coven_ids = [p for p in everyone if self.team(state, p) == "coven"]
        corrupted_ids = [p for p in everyone if self.team(state, p) == "corrupted"]
        if corrupted == 0 and coven == 0:
            self._finish(state, "draw", [], events,
                         "⚖️ The last loyal witch and the last Corrupted witch fall together. "
                         "No one is left to finish the rite. **The game is a draw.**")
        elif corrupted == 0 and state.backfired >= 3:
            self._finish(state, "draw", [], events,
                         "⚖️ The Hollow feeds for the third time, but it devours its last servant with "
                         "its meal. Coven and Hollow destroy each other. **The game is a draw.**")
        elif state.backfired >= 3:
            self._finish(state, "Corrupted", corrupted_ids, events,
                         "🔴 Three rituals have backfired. The Hollow has fed enough, and it rises through "
                         "the cauldron. **The Corrupted win.**")
        elif state.pure >= 5:
            self._finish(state, "Coven", coven_ids, events,
                         "🛡️ Five pure rituals: balance is restored and the Hollow is sealed away. "
                         "**The Coven wins.**")
        elif corrupted == 0:
            self._finish(state, "Coven", coven_ids, events,
                         "🛡️ The last Corrupted witch is gone; the Hollow loses its grip on the circle. "
                         "**The Coven wins.**")
        elif corrupted >= coven:
            self._finish(state, "Corrupted", corrupted_ids, events,
                         "🔴 The Corrupted now equal the loyal witches. The circle is theirs. "
                         "**The Corrupted win.**")
        return state.finished

    def _finish(self, state: RitualState, outcome: str, winners: list[str], events: list[Event],
                text: str) -> None:
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
        events.extend(self._reveal(state, text))

    def _reveal(self, state: RitualState, text: str) -> list[Event]:
        data = self.data
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
        blocks = [self._recap_block(state, rec) for rec in self.records(state)]
        chunk = "📜 **The full chronicle** (hidden corruption: under 20 PURE, over 50 BACKFIRED)"
        for block in blocks:
            if len(chunk) + len(block) + 2 > 1700:
                events.append(public("recap", chunk, title="Chronicle", data={"final": True}))
                chunk = ""
            chunk = (chunk + "\n\n" + block) if chunk else block
        if blocks:
            events.append(public("recap", chunk, title="Chronicle", data={"final": True}))
        return events

    def _recap_block(self, state: RitualState, rec: dict[str, Any]) -> str:
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
        lines.extend(self._offer_line(state, pid, iid, pid in rec["idle"]) for pid, iid in rec["offerings"].items())
        fates = []
        if rec["deaths"]:
            fates.append("died: " + ", ".join(state.name(d) for d in rec["deaths"]))
        if rec["burned"]:
            fates.append(f"burned: {state.name(rec['burned'])}")
        if fates:
            lines.append("  " + "; ".join(fates))
        return "\n".join(lines)

    def _offer_line(self, state: RitualState, pid: str, iid: str, idle: bool = False) -> str:
        ing = self.data.ingredients[iid]
        return (f"• {state.name(pid)} offered {ing.icon} {ing.name} ({ing.weight:+d})"
                + (" (timer ran out)" if idle else ""))

    # ------------------------------------------------------------------ actions
    @cached_property
    def handlers(self) -> dict[str, Handler]:  # type: ignore[override]  # a table per instance
        return {
            "vote_performer": self._vote_performer,
            "offer": self._offer,
            "vote_burn": self._vote_burn,
            "turn_over": self._turn_over,
            "phase_timeout": self._timeout,
            "remove_player": self._remove,
            "end_game": self._end_game,
        }

    def _check_acting(self, state: RitualState, action: Action) -> None:
        """A witch's action: by a player still in the circle."""
        if not action.player:
            raise IllegalAction("Say which player is acting.", code="no_player")
        if not self.is_alive(state, action.player):
            if action.player in state.removed:
                raise IllegalAction("You have left this game and can no longer act.", code="dead_player")
            raise IllegalAction("You are dead: the dead cannot vote or offer ingredients.", code="dead_player")

    def _timeout(self, state: RitualState, action: PhaseTimeout, rng: Rng) -> Outcome:
        events: list[Event] = []
        self._close_phase(state, rng, events)
        return Outcome(state=state, events=events, reply="The phase is closed.")

    def _end_game(self, state: RitualState, action: EndGame, rng: Rng) -> Outcome:
        events: list[Event] = []
        reason = f" ({action.reason})" if action.reason else ""
        self._finish(state, "ended", [], events,
                     f"🕯️ A moderator snuffs out the candles{reason}. **The game is ended**, with no winner.")
        state.winners = []
        return Outcome(state=state, events=events, reply="The game is ended.")

    def _close_phase(self, state: RitualState, rng: Rng, events: list[Event]) -> None:
        if state.phase == "choosing":
            self._close_choosing(state, rng, events)
        elif state.phase == "offering":
            self._close_offering(state, rng, events)
        elif state.phase == "council":
            self._close_council(state, rng, events)
        else:  # pragma: no cover - every phase of a running game is one of the three
            raise IllegalAction("There is no phase to close.", code="wrong_phase")

    def _all_acted(self, state: RitualState, book: dict[str, str]) -> bool:
        return all(p in book for p in self.alive(state))

    def _living_target(self, state: RitualState, target: str) -> str:
        for p in state.players:
            if p.id == target or p.name.lower() == target.lower():
                if not self.is_alive(state, p.id):
                    raise IllegalAction(f"{p.name} is no longer in the circle.", code="target_dead")
                return p.id
        raise IllegalAction(f"There is no witch called {target!r} at this table.", code="unknown_target")

    def _vote_performer(self, state: RitualState, action: VotePerformer, rng: Rng) -> Outcome:
        self._check_acting(state, action)
        events: list[Event] = []
        if state.phase != "choosing":
            raise IllegalAction("The Performer vote is only open during The Choosing.", code="wrong_phase")
        target = self._living_target(state, action.target)
        changed = action.player in state.votes
        state.votes[action.player] = target
        reply = (f"Your vote for {state.name(target)} to sit in the 13th Chair is "
                 f"{'changed' if changed else 'in'}; you can change it until the phase closes.")
        if voice.turns_running(state):
            reply += " The vote closes after the last speaking turn."
        if self._all_acted(state, state.votes) and not voice.turns_running(state):
            self._close_choosing(state, rng, events)
            reply = f"Your vote for {state.name(target)} is in. Everyone has voted: the Choosing is over."
        return Outcome(state=state, events=events, reply=reply)

    def _offer(self, state: RitualState, action: Offer, rng: Rng) -> Outcome:
        self._check_acting(state, action)
        events: list[Event] = []
        if state.phase != "offering":
            raise IllegalAction("You can only offer an ingredient during The Offering.", code="wrong_phase")
        data = self.data
        pool = data.roles[state.roles[action.player]].pool
        iid = action.ingredient
        if iid not in pool:
            for cand in pool:
                if data.ingredients[cand].name.lower() == iid.lower():
                    iid = cand
                    break
            else:
                names = ", ".join(data.ingredients[i].name for i in pool)
                raise IllegalAction(f"That ingredient is not in your pool. You can offer: {names}.",
                                    code="not_your_ingredient")
        first = action.player not in state.offerings
        state.offerings[action.player] = iid
        label = self.ingredient_label(iid)
        reply = (f"You offer {label}; you can change it until the Offering closes." if first
                 else f"You now offer {label} instead; you can change it until the Offering closes.")
        if self.team(state, action.player) == "corrupted":
            for mate in self.living_corrupted(state):
                if mate in state.offerings and (mate != action.player or first):
                    ev = self._whisper(state, mate)
                    if ev is not None:
                        events.append(ev)
        if self._all_acted(state, state.offerings):
            self._close_offering(state, rng, events)
            reply = f"You offer {label}. Every witch has offered: the ritual begins."
        return Outcome(state=state, events=events, reply=reply)

    def _teammate_selections(self, state: RitualState, pid: str) -> dict[str, str | None]:
        return {m: state.offerings.get(m) for m in self.living_corrupted(state) if m != pid}

    def _whisper(self, state: RitualState, pid: str) -> Event | None:
        sel = self._teammate_selections(state, pid)
        if not sel:
            return None
        if state.options.corrupted_know_each_other:
            parts = [f"**{state.name(m)}** offers {self.ingredient_label(i)}" if i else
                     f"**{state.name(m)}** has not chosen yet" for m, i in sel.items()]
            payload: dict[str, Any] = {"teammates": sel}
        else:
            chosen = sorted(i for i in sel.values() if i)
            waiting = sum(1 for i in sel.values() if not i)
            parts = [f"another channel offers {self.ingredient_label(i)}" for i in chosen]
            if waiting:
                parts.append("one channel is still silent" if waiting == 1 else f"{waiting} channels are still silent")
            payload = {"selections": chosen, "waiting": waiting}
        # each whisper restates the whole coordination window of this Offering: the bot may send
        # only the newest of a quick burst of changes (``slot`` on a private event)
        return private(pid, "hollow_whisper", "🩸 The Hollow whispers: " + "; ".join(parts) + ".", data=payload,
                       slot=f"hollow:{state.phase_seq}")

    def _vote_burn(self, state: RitualState, action: VoteBurn, rng: Rng) -> Outcome:
        self._check_acting(state, action)
        events: list[Event] = []
        if state.phase != "council":
            raise IllegalAction("The burn vote is only open during The Council.", code="wrong_phase")
        if action.target.lower() in (NONE, "no one", "nobody", "spare"):
            if not state.options.allow_spare:
                raise IllegalAction("This table plays without a 'burn no one' choice: name a witch.",
                                    code="no_spare")
            target = NONE
        else:
            target = self._living_target(state, action.target)
            if target == action.player:
                raise IllegalAction("You cannot vote to burn yourself.", code="self_burn")
            if target == state.warded:
                raise IllegalAction(f"The wards shield {state.name(target)} this round: choose someone else.",
                                    code="warded")
        changed = action.player in state.votes
        state.votes[action.player] = target
        what = "to burn no one" if target == NONE else f"to burn {state.name(target)}"
        reply = f"Your vote {what} is {'changed' if changed else 'in'}; you can change it until the Council closes."
        if self._all_acted(state, state.votes):
            self._close_council(state, rng, events)
            reply = f"Your vote {what} is in. Everyone has voted: the Council is over."
        return Outcome(state=state, events=events, reply=reply)

    def _remove(self, state: RitualState, action: RemovePlayer, rng: Rng) -> Outcome:
        events: list[Event] = []
        pid = None
        for p in state.players:
            if action.target in (p.id, p.name):
                pid = p.id
        if pid is None:
            raise IllegalAction(f"There is no player {action.target!r} in this game.", code="unknown_target")
        if not self.is_alive(state, pid):
            raise IllegalAction(f"{state.name(pid)} is already out of the game.", code="target_dead")
        state.removed.append(pid)
        state.votes.pop(pid, None)
        state.offerings.pop(pid, None)
        for voter in [v for v, t in state.votes.items() if t == pid]:
            del state.votes[voter]  # they vote again
        if state.warded == pid:
            state.warded = ""
        events.append(public("player_removed", f"🚪 **{state.name(pid)}** has left the circle.",
                             data={"player": pid}))
        if not self._check_win(state, events):
            if state.phase == "offering":
                if self._all_acted(state, state.offerings):
                    self._close_offering(state, rng, events)
                elif self.team(state, pid) == "corrupted":
                    for mate in self.living_corrupted(state):
                        if mate in state.offerings:
                            ev = self._whisper(state, mate)
                            if ev is not None:
                                events.append(ev)
            elif state.phase == "choosing":
                self._choosing_after_removal(state, pid, rng, events)
            elif state.phase == "council" and state.votes and self._all_acted(state, state.votes):
                self._close_council(state, rng, events)
        return Outcome(state=state, events=events, reply=f"{state.name(pid)} is removed from the game.")

    def _choosing_after_removal(self, state: RitualState, pid: str, rng: Rng, events: list[Event]) -> None:
        """A witch left during the Choosing: the floor moves on if it was theirs; the vote closes
        once everyone left has voted and no turn remains."""
        speaking = voice.turns_running(state) and state.speakers[state.turn] == pid
        if speaking:
            voice.skip_gone(state)
        if state.votes and self._all_acted(state, state.votes) and not voice.turns_running(state):
            if speaking:
                events.append(voice.turns_done_event(state))  # (the line is the Choosing's)
            self._close_choosing(state, rng, events)
        elif speaking:
            events.append(voice.turn_event(state) if voice.turns_running(state) else voice.floor_open_event(state))

    def _turn_over(self, state: RitualState, action: TurnOver, rng: Rng) -> Outcome:
        """A speaking turn's seconds passed (or a moderator skipped it): the next living witch has the
        floor; after the last turn everyone may speak, and the vote closes if everyone has voted."""
        turn = voice.speaking_turn(state)
        if turn is None or action.phase_seq != state.phase_seq or action.turn != turn.index:
            raise IllegalAction("That speaking turn is not the one running now: nothing changed.", code="stale_turn")
        events: list[Event] = []
        state.turn += 1
        voice.skip_gone(state)
        if voice.turns_running(state):
            events.append(voice.turn_event(state))
        elif state.votes and self._all_acted(state, state.votes):
            events.append(voice.turns_done_event(state))  # (before the close: the line is the Choosing's)
            self._close_choosing(state, rng, events)
        else:
            events.append(voice.floor_open_event(state))
        return Outcome(state=state, events=events, reply=f"{state.name(turn.speaker)}'s turn is over.")

    # ------------------------------------------------------------------ protocol
    def phase_seconds(self, state: RitualState) -> float | None:
        if state.phase == "choosing" and not state.finished:
            return float(voice.choosing_seconds(state))
        key = TIMED.get(state.phase)
        return float(getattr(state.options, key)) if key and not state.finished else None

    def silenced(self, state: RitualState) -> list[str]:
        return voice.silenced(state)

    def mutes_by_options(self, options: RitualOptions) -> bool:
        return options.speaking_turns or options.mute_dead

    def speaking_turn(self, state: RitualState) -> SpeakingTurn | None:
        return voice.speaking_turn(state)

    def phase_label(self, state: RitualState) -> str:
        return {"choosing": "the Choosing", "offering": "the Offering", "council": "the Council"}.get(
            state.phase, f"the {state.phase}")

    def shared_prompts(self, state: RitualState) -> list[Prompt]:
        """The Choosing's and the Council's votes on the phase message: every witch votes among the
        same players (the Council's own-name pick is refused for that witch)."""
        if state.finished or state.phase not in ("choosing", "council"):
            return []
        if state.phase == "choosing":
            return [Prompt(action="vote_performer", title="Choose the Performer", vote=True,
                           fields=[PromptField(name="target", placeholder="Vote for the Performer (secret)",
                                               choices=self._performer_choices(state, ""))])]
        return [Prompt(action="vote_burn", title="Vote to burn", vote=True,
                       fields=[PromptField(name="target", placeholder="Vote to burn (secret)",
                                           choices=self._burn_choices(state, ""))])]

    def _performer_choices(self, state: RitualState, voter: str) -> list[Choice]:
        return [Choice(value=p, label=state.name(p)[:100], description="That's you" if p == voter else "")
                for p in self.alive(state)]

    def _burn_choices(self, state: RitualState, voter: str) -> list[Choice]:
        """Who may be burned, for ``voter`` (not themselves), or for everyone (``voter`` "")."""
        choices = [Choice(value=p, label=state.name(p)[:100]) for p in self.alive(state)
                   if p != voter and p != state.warded]
        if state.options.allow_spare:
            choices.append(Choice(value=NONE, label="Burn no one", emoji="🕯️"))
        return choices

    def prompts(self, state: RitualState, player_id: str) -> list[Prompt]:
        if state.finished or player_id not in state.roles or not self.is_alive(state, player_id):
            return []
        if state.phase == "choosing":
            current = state.votes.get(player_id)
            return [Prompt(
                action="vote_performer", title="Choose the Performer", vote=True,
                text="Who sits in the 13th Chair this round?" + (
                    f" Your vote: **{state.name(current)}** (you can change it)." if current else ""),
                fields=[PromptField(name="target", placeholder="Vote for the Performer",
                                    choices=self._performer_choices(state, player_id))],
            )]
        if state.phase == "offering":
            data = self.data
            current = state.offerings.get(player_id)
            return [Prompt(
                action="offer", title="Offer an ingredient",
                text=f"Your offering for {state.name(state.performer)}'s ritual." + (
                    f" Now: **{self.ingredient_label(current)}** (you can change it)." if current else ""),
                fields=[PromptField(name="ingredient", placeholder="Choose your ingredient", choices=[
                    Choice(value=i, label=data.ingredients[i].name, description=data.ingredients[i].flavour,
                           emoji=data.ingredients[i].icon)
                    for i in data.roles[state.roles[player_id]].pool])],
            )]
        if state.phase == "council":
            current = state.votes.get(player_id)
            choices = self._burn_choices(state, player_id)
            shown = ("no one" if current == NONE else state.name(current)) if current else ""
            return [Prompt(
                action="vote_burn", title="Vote to burn", vote=True,
                text="Who should burn? A tie burns no one." + (
                    f" Your vote: **{shown}** (you can change it)." if shown else ""),
                fields=[PromptField(name="target", placeholder="Vote to burn", choices=choices)],
            )]
        return []

    def legal_actions(self, state: RitualState) -> list[Action]:
        """Every legal action now. The list depends only on the phase, the living, the wards and
        the options, never on the votes cast, so it is cached (the simulator asks at every step)."""
        if state.finished:
            return []
        living = self.alive(state)
        key = (state.phase, tuple(living), state.warded, state.options.allow_spare,
               tuple(state.roles[p] for p in living) if state.phase == "offering" else ())
        cached = _LEGAL_CACHE.get(key)
        if cached is None:
            if len(_LEGAL_CACHE) > 512:
                _LEGAL_CACHE.clear()
            cached = _LEGAL_CACHE[key] = self._legal_actions(state, living)
        turn = voice.speaking_turn(state)
        if turn is None:
            return list(cached)
        return [*cached, TurnOver(phase_seq=state.phase_seq, turn=turn.index)]

    def _legal_actions(self, state: RitualState, living: list[str]) -> list[Action]:
        acts: list[Action] = []
        if state.phase == "choosing":
            for p in living:
                acts.extend(VotePerformer.model_construct(player=p, target=t) for t in living)
        elif state.phase == "offering":
            for p in living:
                acts.extend(Offer.model_construct(player=p, ingredient=i) for i in self.data.roles[state.roles[p]].pool)
        elif state.phase == "council":
            for p in living:
                targets = [t for t in living if t != p and t != state.warded]
                if state.options.allow_spare:
                    targets.append(NONE)
                acts.extend(VoteBurn.model_construct(player=p, target=t) for t in targets)
        return acts

    def team_members(self, state: RitualState, team: str) -> list[str]:
        return [p for p in state.roles if self.team(state, p) == team.lower()]

    def view(self, state: RitualState, viewer: str | None) -> View:
        data = self.data
        living = self.alive(state)
        table: dict[str, Any] = {
            "phase": state.phase, "round": state.round, "performer": state.performer,
            "alive": living, "dead": list(state.dead), "removed": list(state.removed),
            "pure_rituals": state.pure, "backfired_rituals": state.backfired,
            "purging_moon": state.moon, "warded": state.warded, "chronicle": self.chronicle(state),
            "finished": state.finished, "outcome": state.outcome, "winners": list(state.winners),
        }
        acted = state.offerings if state.phase == "offering" else state.votes
        table["acted"] = [p for p in living if p in acted]
        lines = [f"**The Ritual**, round {state.round}, {state.phase.replace('_', ' ')}"]
        if state.performer:
            lines.append(f"🪑 Performer: **{state.name(state.performer)}**")
        lines.append("Alive: " + ", ".join(state.name(p) for p in living))
        if state.dead:
            lines.append("Dead: " + ", ".join(state.name(p) for p in state.dead))
        lines.append(f"Pure rituals: {state.pure} of 5 · Backfires: {state.backfired} of 3")
        if state.finished:
            table["roles"] = dict(state.roles)
            table["history"] = self.records(state)
            table["infection"] = state.infection
        if viewer == "storyteller":
            table.update(roles=dict(state.roles), offerings=dict(state.offerings), votes=dict(state.votes),
                         infection=state.infection, history=self.records(state),
                         revenant_won=state.revenant_won, moon_risen=state.moon_risen, hunger=state.hunger)
            lines.append(f"Infection: {state.infection}")
            for p in state.players:
                lines.append(f"• {p.name}: {data.roles[state.roles[p.id]].name}"
                             + (f", offers {self.ingredient_label(state.offerings[p.id])}"
                                if p.id in state.offerings else ""))
            return View(text="\n".join(lines), data=table)
        if viewer is None or viewer not in state.roles:
            lines.extend(table["chronicle"][-3:])
            return View(text="\n".join(lines), data=table)
        role = data.roles[state.roles[viewer]]
        team = data.teams[role.team]
        me: dict[str, Any] = {"role": role.id, "team": role.team, "pool": list(role.pool),
                              "alive": self.is_alive(state, viewer)}
        lines.insert(1, f"🎴 You are the **{role.name}** {role.icon} ({team.name}). Goal: {team.goal}")
        lines.insert(2, "Your ingredients: " + ", ".join(self.ingredient_label(i) for i in role.pool))
        if state.phase == "offering" and viewer in state.offerings:
            me["offering"] = state.offerings[viewer]
            lines.append(f"Your offering: {self.ingredient_label(state.offerings[viewer])}")
        if state.phase in ("choosing", "council") and viewer in state.votes:
            me["vote"] = state.votes[viewer]
            lines.append(f"Your vote: {'no one' if state.votes[viewer] == NONE else state.name(state.votes[viewer])}")
        if role.team == "corrupted":
            mates = [p for p in state.roles if p != viewer and self.team(state, p) == "corrupted"]
            if state.options.corrupted_know_each_other:
                me["teammates"] = mates
                if mates:
                    lines.append("Fellow Corrupted: " + ", ".join(state.name(m) for m in mates))
            if state.phase == "offering" and viewer in state.offerings and self.is_alive(state, viewer):
                ev = self._whisper(state, viewer)
                if ev is not None:
                    me["whisper"] = ev.data
                    lines.append(ev.text)
        if role.team == "neutral":
            me["revenant_won"] = state.revenant_won
        table["me"] = me
        lines.extend(table["chronicle"][-3:])
        return View(text="\n".join(lines)[:1900], data=table)

    def result(self, state: RitualState) -> Result:
        data = self.data
        players = []
        for p in state.players:
            role = data.roles[state.roles[p.id]]
            players.append(PlayerResult(id=p.id, name=p.name, role=role.name, team=data.teams[role.team].name,
                                        alive=self.is_alive(state, p.id)))
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
        for rec in self.records(state):
            for pid, iid in rec["offerings"].items():
                out.append(self._offer_line(state, pid, iid))
            out.append(f"corruption {rec['corruption']}%")
        for pid, iid in state.offerings.items():
            out.append(self._offer_line(state, pid, iid))
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
            living = self.alive(state)
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
                    self.team(state, e.audience.id) != "corrupted":
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
