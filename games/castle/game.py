"""Castle of Magic: the Game object (state, actions, turns, narration)."""

from __future__ import annotations

from functools import cached_property
from itertools import combinations
from typing import Any

from games.engine import (
    Action,
    Choice,
    EndGame,
    Event,
    Game,
    Handler,
    IllegalAction,
    Outcome,
    Phase,
    PhaseTimeout,
    Player,
    PlayerResult,
    Prompt,
    PromptField,
    RemovePlayer,
    Result,
    Rng,
    SetupError,
    View,
    close_on_timeout,
    leaks,
    private,
    public,
)

from .data import (
    ARCANUM,
    CARDS,
    CHARACTER,
    COUNTRY,
    FACTION,
    N_COLUMNS,
    N_PAWNS,
    N_SHRINES,
    OUTCOME,
    REGALIA,
    REGALIA_BY_ID,
    ROWS,
    SHRINE_DECK,
    character_title,
    country_of_column,
    ritual_label,
    shrine_id,
    shrine_index,
    shrine_name,
)
from .models import Advance, CastleOptions, CastleSetup, CastleState, ClaimFirst, HandPawn, PickUp, Place
from .rules import Spell, arcana_of, cast, pawn_owners, ritual_index, winners
from .tableau import public_tableau, ritual_reveal_line, short_card, tableau_text

MAX_TEXT = 1800


# ----------------------------------------------------------------------------- helpers


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'s' if n != 1 else ''}"


def _from_where(from_supply: int, shrines: list[str]) -> str:
    """"from their supply", "from Bell 5 (Marus)", "from Bell 5 (Marus) and their supply"."""
    parts = list(shrines)
    if from_supply:
        parts.append("their supply")
    if len(parts) > 2:
        return "from " + ", ".join(parts[:-1]) + " and " + parts[-1]
    return "from " + " and ".join(parts)


def _pawn_label(state: CastleState, where: int | None) -> str:
    return "in your supply" if where is None else f"on {shrine_name(where)}"


def _pawns_line(pawns: list[int | None], in_hand: set[int]) -> str:
    """'Your pawns: 1 on Bell 5 (Marus); 2 and 3 in your supply.' (numbered as in the bot's menus)"""
    placed = [f"{k + 1} on {shrine_name(w)}" for k, w in enumerate(pawns) if w is not None and k not in in_hand]
    supply = [str(k + 1) for k, w in enumerate(pawns) if w is None and k not in in_hand]
    parts = placed
    if supply:
        numbers = supply[0] if len(supply) == 1 else ", ".join(supply[:-1]) + " and " + supply[-1]
        parts = [*placed, f"{numbers} in your supply"]
    if in_hand:
        parts.append(f"{len(in_hand)} in your hand to place")
    return "Your pawns: " + ("; ".join(parts) or "none") + "."


def _active(state: CastleState) -> list[str]:
    return [p.id for p in state.players if p.id not in state.removed]


def _occupied(state: CastleState) -> dict[int, str]:
    return pawn_owners(state.pawns, _active(state))


def _guide(char_id: str) -> str:
    c = CHARACTER[char_id]
    if c.kind == "monster":
        return ("You score **7000** if the ritual spell makes the Monster devour at least one wizard or "
                "cultist (an outcome that releases the Monster, a domination with a rampage, or a "
                "regalia holder devoured). You may claim regalia, for no points. You play the shrines "
                "and the ritual exactly like a wizard; nobody knows what you are.")
    fname = FACTION[c.faction].name  # type: ignore[index]
    lines = [f"• **1000** for each country the {fname} control (most active shrines there; a tie: nobody)."]
    if c.kind == "wizard":
        home = COUNTRY[c.country].name  # type: ignore[index]
        lines.append(f"• **1000** more if the {fname} control your home, **{home}**.")
    lines.append("• **1000** for each piece of regalia you claim (your pawn on its shrine at the end, "
                 "face up or down), unless you are devoured.")
    if c.kind == "wizard":
        lines.append("• **1000** for dominating the Monster (claim the regalia that the outcome names).")
    else:
        lines.append("• **1000** for feeding the Monster: the outcome devours at least one character.")
    return "\n".join(lines)


def _role(char_id: str) -> str:
    title = character_title(char_id)
    return title[2:] if title.startswith("a ") else title[4:].capitalize()


def _character_reveal(state: CastleState, pid: str) -> str:
    return f"{state.name(pid)} was {character_title(state.characters[pid])}"


def _secrets(state: CastleState) -> list[str]:
    out = []
    for p in state.players:
        title = character_title(state.characters[p.id])
        out += [f"{p.name} is {title}", f"{p.name} was {title}", f"**{p.name}**, {title}",
                f'"{p.id}": "{state.characters[p.id]}"']
    for k, outcome in enumerate(state.rituals):
        if not state.revealed[k]:
            out.append(ritual_reveal_line(k, outcome))
    return out


# ----------------------------------------------------------------------------- the game


class CastleGame(Game):
    name = "castle"
    title = "Castle of Magic"
    min_players = 4
    max_players = 6
    Options = CastleOptions
    Setup = CastleSetup
    State = CastleState
    actions = (ClaimFirst, PickUp, Place, Advance)

    # ----- setup -----
    def _setup(self, players: list[Player], options: CastleOptions, rng: Rng,
               forced: CastleSetup) -> Outcome:
        n = len(players)
        ids = [p.id for p in players]
        n_pawns = options.pawns if options.pawns is not None else N_PAWNS // n
        if n_pawns * n > N_PAWNS:
            raise SetupError(f"There are only {N_PAWNS} pawns: at most {N_PAWNS // n} each for {n} players.",
                             code="too_many_pawns")

        chars = self._deal_characters(ids, options, rng, forced)
        layout, face_up = self._lay_tableau(options, rng, forced)
        pawns = self._place_pawns(ids, n_pawns, options, rng, forced)
        rituals = self._lay_rituals(rng, forced)

        state = CastleState(
            players=players, phase="setup", options=options, layout=layout, face_up=face_up,
            seen=list(face_up), characters=chars, pawns=pawns, rituals=rituals, revealed=[False] * 8,
            round=0,
        )
        if forced.first_player is not None and forced.first_player not in ids:
            raise SetupError("The forced first player is not at the table.", code="bad_setup")

        events = self._opening(players, chars, n_pawns)

        if forced.first_player is not None or options.first_player != "claim":
            if forced.first_player is not None:
                first = forced.first_player
            elif options.first_player == "listed":
                first = ids[0]
            else:
                first = rng.choice(ids)
            events += self._begin(state, first, "")
        else:
            state.next_phase("first")
            events.append(public(
                "first_player",
                "🎩 Who at this table most recently performed a magic trick? That player presses "
                "**I go first**. (If nobody claims it before the timer, the castle chooses.)",
                opens_phase=True,
            ))
        return Outcome(state=state, events=events)

    # ----- setup, by part (the draws keep their order: characters, shrines, pawns, rituals) -----
    def _deal_characters(self, ids: list[str], options: CastleOptions, rng: Rng,
                         forced: CastleSetup) -> dict[str, str]:
        n = len(ids)
        if forced.characters is not None:
            chars = dict(forced.characters)
            if sorted(chars) != sorted(ids):
                raise SetupError("Forced characters must name every player exactly once.", code="bad_setup")
            if any(c not in CHARACTER for c in chars.values()) or len(set(chars.values())) != n:
                raise SetupError("Forced characters must be distinct character cards.", code="bad_setup")
        else:
            deck = [c.id for c in CARDS.characters]
            if options.deal == "with_monster":
                rest = [c for c in deck if c != "monster"]
                rng.shuffle(rest)
                dealt = ["monster", *rest[: n - 1]]
                rng.shuffle(dealt)
            else:
                rng.shuffle(deck)
                dealt = deck[:n]
            chars = dict(zip(ids, dealt, strict=True))
        return chars

    def _lay_tableau(self, options: CastleOptions, rng: Rng,
                     forced: CastleSetup) -> tuple[list[str], list[bool]]:
        """The 27 shrine cards in their rows, and which start face up."""
        if forced.layout is not None:
            layout = [card for row in forced.layout for card in row]
            if len(forced.layout) != 3 or any(len(r) != N_COLUMNS for r in forced.layout) \
                    or sorted(layout) != sorted(SHRINE_DECK):
                raise SetupError("A forced layout is 3 rows of 9 cards: 8 of each faction and the 3 regalia.",
                                 code="bad_setup")
        else:
            layout = list(SHRINE_DECK)
            rng.shuffle(layout)
        if forced.face_up is not None:
            try:
                up_idx = {shrine_index(s) for s in forced.face_up}
            except KeyError as exc:
                raise SetupError(f"Unknown shrine {exc.args[0]!r} (use bell-1 .. candle-9).",
                                 code="bad_setup") from None
        else:
            up_idx = set(rng.sample(range(N_SHRINES), options.start_face_up))
        face_up = [i in up_idx for i in range(N_SHRINES)]
        return layout, face_up

    def _place_pawns(self, ids: list[str], n_pawns: int, options: CastleOptions, rng: Rng,
                     forced: CastleSetup) -> dict[str, list[int | None]]:
        """Each player's pawns: the shrine each stands on (None: in the supply)."""
        pawns: dict[str, list[int | None]] = {pid: [None] * n_pawns for pid in ids}
        if forced.pawns is not None:
            taken: set[int] = set()
            for pid, where in forced.pawns.items():
                if pid not in pawns or len(where) > n_pawns:
                    raise SetupError("Forced pawns must name players, with no more than their pawns.",
                                     code="bad_setup")
                for k, sid in enumerate(where):
                    try:
                        idx = shrine_index(sid)
                    except KeyError:
                        raise SetupError(f"Unknown shrine {sid!r}.", code="bad_setup") from None
                    if idx in taken:
                        raise SetupError(f"Two pawns cannot share {sid}.", code="bad_setup")
                    taken.add(idx)
                    pawns[pid][k] = idx
        elif options.pawns_start == "tableau":
            spots = rng.sample(range(N_SHRINES), n_pawns * len(ids))
            for j, pid in enumerate(ids):
                pawns[pid] = list(spots[j * n_pawns:(j + 1) * n_pawns])
        return pawns

    def _lay_rituals(self, rng: Rng, forced: CastleSetup) -> list[str]:
        """The outcome card on each ritual card, face down."""
        if forced.rituals is not None:
            if sorted(forced.rituals) != sorted(OUTCOME):
                raise SetupError("Forced rituals must list each of the eight outcomes once.", code="bad_setup")
            rituals = list(forced.rituals)
        else:
            rituals = list(OUTCOME)
            rng.shuffle(rituals)
        return rituals

    def _opening(self, players: list[Player], chars: dict[str, str], n_pawns: int) -> list[Event]:
        """The table's welcome and each player's character card."""
        ids = [p.id for p in players]
        events: list[Event] = []
        seats = ", ".join(
            f"{p.name} ({CARDS.player_colour_names[i]})" for i, p in enumerate(players)
        )
        events.append(public(
            "setup",
            "🏰 **Castle of Magic.** Twenty-seven shrines stand in three rows (bell, book, candle) "
            "across Kida, Marus and Sorrell; eight outcome cards lie face down on the ritual cards. "
            f"Each of you holds {n_pawns} pawn{'s' if n_pawns > 1 else ''}. Seats and colours, in turn "
            f"order: {seats}. Your character is in your DMs (or **My hand**).",
            title="Castle of Magic", data={"pawns_each": n_pawns},
        ))
        for pid in ids:
            cid = chars[pid]
            events.append(private(
                pid, "character",
                f"You are **{character_title(cid)}**.\n\nWhat scores for you when the ritual spell is "
                f"cast:\n{_guide(cid)}\n\nOn your turn: pick up pawns and flip a shrine for each, or turn "
                "one outcome card face up. The spell is cast when the last outcome card is face up.",
                title="Your character", data={"character": cid},
            ))
        return events

    def _begin(self, state: CastleState, first: str, how: str) -> list[Event]:
        state.first = first
        state.round = 1
        state.current = first
        state.next_phase("turn")
        lead = (how + "\n\n") if how else ""
        return [self._turn_event(state, f"{lead}**{state.name(first)}** takes the first turn.")]

    def _turn_event(self, state: CastleState, summary: str, move: dict[str, Any] | None = None) -> Event:
        """The turn message: the last move in one line (``move``: its data), the picture, who plays next."""
        text = (f"{summary}\n➡️ **{state.name(state.current)}**, your turn: manipulate the shrines or advance "
                "the ritual. (The picture in words: **My hand**.)")
        data: dict[str, Any] = {"current": state.current, "turn": state.turns + 1}
        if move:
            data["move"] = move
        return public("turn", text[:MAX_TEXT], title=f"Turn {state.turns + 1}", image="tableau",
                      opens_phase=True, data=data, notify=[state.current], say=f"{state.name(state.current)}'s turn.")

    def reminder_seconds(self, state: CastleState) -> float | None:
        """A turn with no timer calls its player again after ``nudge_seconds`` of quiet."""
        if state.finished or state.phase != "turn" or state.options.turn_seconds:
            return None
        return float(state.options.nudge_seconds) if state.options.nudge_seconds else None

    def remind(self, state: CastleState) -> list[Event]:
        if self.reminder_seconds(state) is None:
            return []
        text = (f"⏰ **{state.name(state.current)}**, the table is waiting for your turn: "
                "**Make my choice** under your turn's message.\n_Turns have no timer in this game (the "
                "rulebook's way): a moderator can pass this turn with `/mod skip`, and the host can give the "
                "next game a turn timer with `/game new` options `turn_seconds=120`._")
        return [public("nudge", text, notify=[state.current])]

    # ----- actions -----
    @cached_property
    def handlers(self) -> dict[str, Handler]:  # type: ignore[override]  # a table per instance
        return {
            "claim_first": self._claim_first,
            "pick_up": self._pick_up,
            "place": self._place,
            "advance": self._advance,
            "phase_timeout": self._timeout,
            "remove_player": self._remove,
            "end_game": self._moderator_ends,
        }

    def _check_seated(self, state: CastleState, action: Action) -> None:
        if action.player not in state.characters:
            raise IllegalAction("Only a player at this table can do that.", code="not_a_player")

    def _check_turn(self, state: CastleState, action: Action) -> None:
        """A turn's action: by the player whose turn it is, during the turns."""
        self._check_seated(state, action)
        if state.phase != "turn":
            raise IllegalAction("It is not time to take turns.", code="wrong_phase")
        self._check_present(state, action.player)
        if action.player != state.current:
            raise IllegalAction(f"It is {state.name(state.current)}'s turn, not yours.", code="not_your_turn")

    def _claim_first(self, state: CastleState, action: ClaimFirst, rng: Rng) -> Outcome:
        self._check_seated(state, action)
        if state.phase != "first":
            raise IllegalAction("The first player has already been chosen.", code="wrong_phase")
        self._check_present(state, action.player)
        events = self._begin(state, action.player,
                             f"🎩 {state.name(action.player)} performed the most recent magic trick.")
        return Outcome(state=state, events=events, reply="You go first.")

    def _check_present(self, state: CastleState, pid: str) -> None:
        if pid in state.removed:
            raise IllegalAction("You have left this game.", code="removed")

    def _pick_up(self, state: CastleState, action: PickUp, rng: Rng) -> Outcome:
        self._check_turn(state, action)
        pid = action.player
        if state.hand:
            raise IllegalAction("You have already picked up pawns: place them first.", code="mid_turn")
        mine = state.pawns[pid]
        if len(set(action.pawns)) != len(action.pawns):
            raise IllegalAction("Name each pawn only once.", code="duplicate_pawn")
        bad = [k for k in action.pawns if not 1 <= k <= len(mine)]
        if bad:
            raise IllegalAction(f"You have pawns 1 to {len(mine)}; there is no pawn {bad[0]}.", code="no_such_pawn")
        shrines = []
        for k in sorted(action.pawns):
            origin = mine[k - 1]
            state.hand.append(HandPawn(pawn=k - 1, origin=origin))
            mine[k - 1] = None
            if origin is not None:
                state.vacated.append(origin)
                shrines.append(shrine_name(origin))
        n = len(action.pawns)
        text = (f"✋ **{state.name(pid)}** picks up {_count(n, 'pawn')} {_from_where(n - len(shrines), shrines)} "
                f"and will flip {'a shrine' if n == 1 else f'{n} shrines'}.")
        return Outcome(state=state, events=[public("pick_up", text, data={"player": pid, "count": n})],
                       reply=f"You picked up {_count(n, 'pawn')}: choose {'its' if n == 1 else 'the first'} "
                             "shrine below.")

    def _free(self, state: CastleState, idx: int, occupied: dict[int, str] | None = None) -> str | None:
        """Why a pawn cannot go on shrine ``idx`` now (None: it can)."""
        if occupied is None:
            occupied = _occupied(state)
        if idx in occupied:
            return (f"{shrine_name(idx)} has {state.name(occupied[idx])}'s pawn on it: "
                    "you may only flip a shrine without a pawn.")
        if not state.options.same_shrine and idx in state.vacated:
            return f"At this table no pawn may go back on {shrine_name(idx)}: a pawn left it this turn."
        return None

    def _place(self, state: CastleState, action: Place, rng: Rng) -> Outcome:
        self._check_turn(state, action)
        if not state.hand:
            raise IllegalAction("Pick up at least one of your pawns first (or advance the ritual).",
                                code="no_pawn_in_hand")
        idx = action.index()
        why = self._free(state, idx)
        if why:
            raise IllegalAction(why, code="shrine_taken")
        self._flip(state, state.current, idx)
        left = len(state.hand)
        if left:  # the table hears of the flips once, in the next turn's message
            return Outcome(state=state, events=[],
                           reply=f"Flipped {shrine_name(idx)}. {left} more pawn{'s' if left > 1 else ''} to place.")
        events = self._end_turn(state, rng, self._turn_summary(state), move=self._flips_data(state))
        return Outcome(state=state, events=events, reply=f"Flipped {shrine_name(idx)}. Your turn is done.")

    def _flip(self, state: CastleState, pid: str, idx: int) -> None:
        """Flip shrine ``idx`` and put the next pawn in hand on it (told in the turn's summary)."""
        held = state.hand.pop(0)
        state.face_up[idx] = not state.face_up[idx]
        if state.face_up[idx]:
            state.seen[idx] = True
        state.pawns[pid][held.pawn] = idx
        state.flips.append(idx)

    def _turn_summary(self, state: CastleState) -> str:
        """The manipulation in one line: every flip (a card turned face up is named) and every pawn."""
        pid = state.current
        if not state.flips:
            return f"**{state.name(pid)}** did nothing this turn."
        parts = [f"{shrine_name(i)} {'up (' + short_card(state.layout[i]) + ')' if state.face_up[i] else 'down'}"
                 for i in state.flips]
        pawns = " and put a pawn on it" if len(parts) == 1 else ", a pawn on each"
        moved = [shrine_name(i) for i in state.vacated]
        tail = f" (pawn{'s' if len(moved) > 1 else ''} moved from {', '.join(moved)})" if moved else ""
        return f"**{state.name(pid)}** flipped " + "; ".join(parts) + pawns + tail + "."

    @staticmethod
    def _flips_data(state: CastleState) -> dict[str, Any]:
        return {"player": state.current,
                "flips": [{"shrine": i, "face_up": state.face_up[i]} for i in state.flips]}

    def _advance(self, state: CastleState, action: Advance, rng: Rng) -> Outcome:
        self._check_turn(state, action)
        if state.hand:
            raise IllegalAction("You are manipulating the shrines this turn: place your pawns.", code="mid_turn")
        k = action.card - 1
        if state.revealed[k]:
            raise IllegalAction(f"The outcome on ritual card {action.card} is already face up.",
                                code="already_revealed")
        told = self._reveal(state, k, action.player)
        events = self._end_turn(state, rng, self._reveal_summary(state, k, action.player), told=told,
                                move=dict(told.data, player=action.player))
        return Outcome(state=state, events=events,
                       reply=f"You turned the outcome on ritual card {action.card} face up.")

    def _reveal(self, state: CastleState, k: int, pid: str | None) -> Event:
        state.revealed[k] = True
        left = state.revealed.count(False)
        who = f"**{state.name(pid)}** turns" if pid else "The castle turns"
        tail = f"{left} outcome card{'s' if left != 1 else ''} still face down." if left else \
            "That was the last one: **the ritual spell is cast!**"
        outcome = OUTCOME[state.rituals[k]]
        return public("advance", f"📜 {who} over an outcome card. {ritual_reveal_line(k, state.rituals[k])}: "
                                 f"*{outcome.text}* {tail}",
                      data={"card": k + 1, "outcome": state.rituals[k]}, pause=2.0)

    def _reveal_summary(self, state: CastleState, k: int, pid: str) -> str:
        """The ``advance`` line's facts, for the turn message that carries them instead."""
        outcome = OUTCOME[state.rituals[k]]
        left = state.revealed.count(False)
        label = ritual_label(k).replace("Ritual", "ritual", 1)
        return (f"**{state.name(pid)}** turned {label} face up: **{outcome.title}**. *{outcome.text}* "
                f"{left} outcome card{'s' if left != 1 else ''} still face down.")

    def _end_turn(self, state: CastleState, rng: Rng, summary: str, told: Event | None = None,
                  move: dict[str, Any] | None = None) -> list[Event]:
        """End the turn; the next turn's message tells the move (``summary``) once. ``told`` is the
        move's own line (an ``advance``): it is sent only if the game ends here, with no turn message."""
        state.turns += 1
        state.hand = []
        state.flips = []
        state.vacated = []
        if all(state.revealed):  # only a reveal ends the game this way: ``told`` is that last reveal
            return ([told] if told else []) + self._cast(state)
        if state.options.max_turns is not None and state.turns >= state.options.max_turns:
            lead = "" if told else summary + "\n"  # no turn message follows: the move is told here
            events = [told] if told else []
            events.append(public("turn_limit", f"{lead}⏳ {state.options.max_turns} turns have passed: the ritual "
                                               "completes itself.",
                                 data={"turns": state.turns, **({"move": move} if move else {})}))
            for k in range(8):
                if not state.revealed[k]:
                    events.append(self._reveal(state, k, None))
            return events + self._cast(state)
        active = _active(state)
        order = [p.id for p in state.players]
        seat = order.index(state.current)
        nxt = state.current
        for step in range(1, len(order) + 1):
            cand = order[(seat + step) % len(order)]
            if cand in active:
                nxt = cand
                break
        if self._wrapped(order, state.first, seat, order.index(nxt)):
            state.round += 1  # the turn reaches (or passes) the first player's seat: a new round
        state.current = nxt
        state.next_phase("turn")
        return [self._turn_event(state, summary, move)]

    @staticmethod
    def _wrapped(order: list[str], first: str, seat: int, nxt: int) -> bool:
        """True when going from seat ``seat`` to seat ``nxt`` (clockwise) reaches or passes the first seat."""
        f = order.index(first)
        n = len(order)
        dist_next = (nxt - seat) % n or n
        dist_first = (f - seat) % n or n
        return dist_first <= dist_next

    # ----- the end -----
    def _cast(self, state: CastleState) -> list[Event]:
        active = _active(state)
        spell = cast(state.layout, state.face_up, state.pawns, state.characters, active, state.rituals,
                     state.options.domination, state.options.devoured_score)
        state.spell = spell
        state.finished = True
        state.outcome = spell.outcome
        state.winners = winners(spell.scores)
        state.current = ""
        state.next_phase("game_over")
        return [self._spell_event(state, spell), self._scores_event(state, spell)]

    def _spell_event(self, state: CastleState, spell: Spell) -> Event:
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

    def _scores_event(self, state: CastleState, spell: Spell) -> Event:
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
                lines.append(f"\n{_character_reveal(state, p.id)} (left the game; no score).")
        text = "\n".join(lines)
        if len(text) > MAX_TEXT:  # very long names: keep the essentials
            lines = [lines[0]] + [
                f"• {_character_reveal(state, p.id)}: **{spell.scores.get(p.id, 0)}**" for p in state.players]
            text = "\n".join(lines)[:MAX_TEXT]
        return public("game_over", text, title="Game over", image="tableau",
                      data={"scores": spell.scores, "winners": state.winners, "characters": state.characters},
                      say=self._say_winners(state, best))

    @staticmethod
    def _say_winners(state: CastleState, best: int) -> str:
        """The end said aloud: who wins, as the scores' first line says."""
        if not state.winners:
            return "The game is over."
        names = " and ".join(state.name(w) for w in state.winners)
        return f"{names} win{'s' if len(state.winners) == 1 else ''} with {best} points."

    def _moderator_ends(self, state: CastleState, action: EndGame, rng: Rng) -> Outcome:
        return self._end_game(state, action.reason)

    def _end_game(self, state: CastleState, reason: str) -> Outcome:
        state.finished = True
        state.outcome = "ended"
        state.winners = []
        state.hand = []
        state.current = ""
        state.next_phase("game_over")
        lines = ["🛑 **The game was ended by a moderator.**" + (f" ({reason})" if reason else "")]
        lines += [f"• {_character_reveal(state, p.id)}." for p in state.players]
        mapping = "; ".join(f"{k + 1}: {OUTCOME[o].title}" for k, o in enumerate(state.rituals))
        lines.append(f"The ritual cards held: {mapping}.")
        return Outcome(state=state, events=[public("game_over", "\n".join(lines)[:MAX_TEXT], title="Game over",
                                                   image="tableau", say="The game is ended.",
                                                   data={"characters": state.characters,
                                                         "rituals": state.rituals})],
                       reply="The game is over.")

    def _remove(self, state: CastleState, action: RemovePlayer, rng: Rng) -> Outcome:
        target = action.target
        if target not in {p.id for p in state.players}:
            raise IllegalAction("That player is not in this game.", code="not_a_player")
        if target in state.removed:
            raise IllegalAction(f"{state.name(target)} has already left.", code="already_removed")
        was_current = state.phase == "turn" and state.current == target
        state.removed.append(target)
        state.pawns[target] = [None] * len(state.pawns[target])
        if was_current:
            state.hand = []
        events = [public("player_removed",
                         f"🚪 **{state.name(target)}** leaves the castle; their pawns leave the tableau. "
                         "Their character stays secret until the end.", data={"player": target})]
        if len(_active(state)) < 2:
            out = self._end_game(state, "too few players remain")
            return Outcome(state=out.state, events=events + out.events, reply="Player removed; the game is over.")
        if was_current:
            summary = f"**{state.name(target)}** left the game."
            if state.flips:  # flips made before leaving stand, and are told once here
                summary = self._turn_summary(state)[:-1] + ", then left the game."
            events += self._end_turn(state, rng, summary, move=self._flips_data(state) if state.flips else None)
        else:
            events[0].image = "tableau"
        return Outcome(state=state, events=events, reply=f"{state.name(target)} was removed.")

    @cached_property
    def phases(self) -> dict[str, Phase]:  # type: ignore[override]  # a table per instance
        """The first-player claim (when the table plays it), then one turn after another; a turn has
        a timer only when the table gave it one (a moderator's skip times it out otherwise)."""
        return {
            "first": Phase("the first-player claim", seconds="claim_seconds", closes=("deadline", "move"),
                           prompts=("claim_first",), on_timeout=self._first_timeout),
            "turn": Phase(lambda state: f"{state.name(state.current)}'s turn", seconds="turn_seconds",
                          closes=("deadline", "move"), prompts=("advance", "pick_up", "place"),
                          on_timeout=self._turn_timeout),
            "game_over": Phase("the game over"),
        }

    def _timeout(self, state: CastleState, action: PhaseTimeout, rng: Rng) -> Outcome:
        return Outcome(state=state, events=close_on_timeout(self.phases, state, rng))

    def _first_timeout(self, state: CastleState, rng: Rng) -> list[Event]:
        first = rng.choice(_active(state))
        return self._begin(state, first, "🎩 Nobody claimed the first turn; the castle chooses.")

    def _turn_timeout(self, state: CastleState, rng: Rng) -> list[Event]:
        pid = state.current
        events: list[Event] = []
        if state.options.on_timeout == "random":
            if not state.hand:
                if rng.random() < 0.5:
                    down = [k for k in range(8) if not state.revealed[k]]
                    k = rng.choice(down)
                    events.append(public("timeout", f"⌛ {state.name(pid)}'s time ran out: the castle "
                                                    "advances the ritual for them."))
                    told = self._reveal(state, k, pid)
                    events += self._end_turn(state, rng, self._reveal_summary(state, k, pid) + " (time ran out)",
                                             told=told, move=dict(told.data, player=pid))
                    return events
                k = rng.randrange(len(state.pawns[pid]))
                origin = state.pawns[pid][k]
                state.hand.append(HandPawn(pawn=k, origin=origin))
                state.pawns[pid][k] = None
                if origin is not None:
                    state.vacated.append(origin)
            events.append(public("timeout", f"⌛ {state.name(pid)}'s time ran out: the castle places their "
                                            "pawns at random."))
            while state.hand:
                occ = _occupied(state)
                free = [i for i in range(N_SHRINES) if self._free(state, i, occ) is None]
                self._flip(state, pid, rng.choice(free))
            events += self._end_turn(state, rng, self._turn_summary(state) + " (time ran out)",
                                     move=self._flips_data(state))
            return events
        # "pass": pawns still in hand go back where they came from (the supply if that shrine is taken)
        occupied = _occupied(state)
        back = 0
        for held in state.hand:
            home = held.origin if held.origin is not None and held.origin not in occupied else None
            state.pawns[pid][held.pawn] = home
            if home is not None:
                occupied[home] = pid
            back += 1
        state.hand = []
        msg = f"⌛ {state.name(pid)}'s time ran out; the turn passes."
        if back:
            msg += (f" {back} unplaced pawn{'s go' if back > 1 else ' goes'} back where "
                    f"{'they' if back > 1 else 'it'} came from (or to the supply, if a pawn now stands there).")
        events.append(public("timeout", msg, data={"player": pid}))
        summary = self._turn_summary(state) if state.flips else f"**{state.name(pid)}**'s time ran out."
        events += self._end_turn(state, rng, summary, move=self._flips_data(state) if state.flips else None)
        return events

    # ----- queries -----
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
            lines.append(f"You are **{character_title(cid)}**.\n{_guide(cid)}")
            if viewer in state.removed:
                lines.append("You have left this game.")
            else:
                in_hand = {h.pawn for h in state.hand} if viewer == state.current else set()
                lines.append(_pawns_line(state.pawns[viewer], in_hand))
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
                id=p.id, name=p.name, role=_role(state.characters[p.id]),
                team=c.faction or "monster", alive=p.id not in state.removed and not devoured,
                score=spell.scores.get(p.id) if spell is not None else None,
            ))
        return Result(finished=state.finished, phase=state.phase, round=state.round, outcome=state.outcome,
                      winners=list(state.winners), players=players)

    def prompts(self, state: CastleState, player_id: str) -> list[Prompt]:
        if state.finished or player_id in state.removed or player_id not in state.characters:
            return []
        if state.phase == "first":
            return [Prompt(action="claim_first", title="Who goes first?",
                           text="Press if you performed a magic trick more recently than anyone here.",
                           submit_label="I go first")]
        if state.phase != "turn" or player_id != state.current:
            return []
        if state.hand:
            return [self._place_prompt(state)]
        mine = state.pawns[player_id]
        pawn_choices = [Choice(value=str(k + 1), label=f"Pawn {k + 1} {_pawn_label(state, w)}"[:100])
                        for k, w in enumerate(mine)]
        down = [k for k in range(8) if not state.revealed[k]]
        now = ritual_index(arcana_of(state.face_up))  # the one the rows point to
        return [
            Prompt(
                action="advance", title="Advance the ritual",
                text="Turn one face-down outcome card face up. When the last one is face up, the spell is cast.",
                fields=[PromptField(name="card", placeholder="Ritual card to turn face up",
                                    choices=[Choice(value=str(k + 1),
                                                    label=(ritual_label(k) + (" ← now" if k == now else ""))[:100])
                                             for k in down])],
                submit_label="Turn it face up",
            ),
            Prompt(
                action="pick_up", title="Manipulate the shrines",
                text="Pick up one or more of your pawns. Then, for each, you flip a shrine that has no pawn "
                     "and put the pawn on it.",
                fields=[PromptField(name="pawns", placeholder="Pawns to pick up…",
                                    choices=pawn_choices, min_values=1, max_values=len(pawn_choices))],
            ),
        ]

    def _place_prompt(self, state: CastleState) -> Prompt:
        """One select per row (arcanum) of its free shrines: one pick flips a shrine and places a pawn."""
        pub = public_tableau(state)
        occ = _occupied(state)
        fields = []
        for r, arc in enumerate(ROWS):
            a = pub["arcana"][arc]
            choices = []
            for c in range(N_COLUMNS):
                idx = r * N_COLUMNS + c
                if self._free(state, idx, occ) is not None:
                    continue
                s = pub["shrines"][idx]
                if s["card"]:
                    now = f"face up: {short_card(s['card'])}" if s["face_up"] else f"face down (shows {short_card(s['card'])})"
                else:
                    now = f"face down (was {short_card(s['was'])})" if s["was"] else "face down"
                country = COUNTRY[country_of_column(c + 1)].name
                # one line an option, so a phone shows the whole row's choices: "4 (Marus) · face down → up"
                to = "down" if s["face_up"] else "up"
                choices.append(Choice(value=shrine_id(idx), label=f"{c + 1} ({country}) · {now} → {to}"[:100]))
            if choices:
                fields.append(PromptField(name=arc, into="shrine", choices=choices,
                                          placeholder=f"{ARCANUM[arc].name} row ({a['state']}, {a['active']}/9 up)…"[:150]))
        left = len(state.hand)
        return Prompt(
            action="place", title=f"Flip a shrine and place a pawn ({left} to place)",
            text="Pick a shrine in any row: it flips over and your pawn goes on it. Shrines with a pawn "
                 "on them are not listed.",
            fields=fields, any_field=True,
        )

    def legal_actions(self, state: CastleState) -> list[Action]:
        if state.finished:
            return []
        if state.phase == "first":
            return [ClaimFirst(player=p) for p in _active(state)]
        if state.phase != "turn":
            return []
        pid = state.current
        if state.hand:
            out: list[Action] = []
            occ = _occupied(state)
            for i in range(N_SHRINES):
                if self._free(state, i, occ) is None:
                    out.append(Place(player=pid, shrine=shrine_id(i)))
            return out
        n = len(state.pawns[pid])
        acts: list[Action] = [PickUp(player=pid, pawns=list(c))
                              for size in range(1, n + 1) for c in combinations(range(1, n + 1), size)]
        acts += [Advance(player=pid, card=k + 1) for k in range(8) if not state.revealed[k]]
        return acts

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
            if state.phase == "turn" and (state.current not in _active(state)):
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
