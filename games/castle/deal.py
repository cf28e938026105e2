"""The deal: characters, the tableau of shrines, the pawns and the outcome cards on the ritual
cards (dealt at random or forced, drawn in that order), the table's welcome and each player's
character card; then the first turn, or the first-player claim."""

from __future__ import annotations

from games.engine import Event, Outcome, Player, Rng, SetupError, private, public

from .data import (
    CARDS,
    CHARACTER,
    N_COLUMNS,
    N_PAWNS,
    N_SHRINES,
    OUTCOME,
    SHRINE_DECK,
    character_title,
    shrine_index,
)
from .models import CastleOptions, CastleSetup, CastleState
from .turn import begin
from .words import guide


def setup(players: list[Player], options: CastleOptions, rng: Rng, forced: CastleSetup) -> Outcome:
    n = len(players)
    ids = [p.id for p in players]
    n_pawns = options.pawns if options.pawns is not None else N_PAWNS // n
    if n_pawns * n > N_PAWNS:
        raise SetupError(f"There are only {N_PAWNS} pawns: at most {N_PAWNS // n} each for {n} players.",
                         code="too_many_pawns")

    chars = deal_characters(ids, options, rng, forced)
    layout, face_up = lay_tableau(options, rng, forced)
    pawns = place_pawns(ids, n_pawns, options, rng, forced)
    rituals = lay_rituals(rng, forced)

    state = CastleState(
        players=players, phase="setup", options=options, layout=layout, face_up=face_up,
        seen=list(face_up), characters=chars, pawns=pawns, rituals=rituals, revealed=[False] * 8,
        round=0,
    )
    if forced.first_player is not None and forced.first_player not in ids:
        raise SetupError("The forced first player is not at the table.", code="bad_setup")

    events = opening(players, chars, n_pawns)

    if forced.first_player is not None or options.first_player != "claim":
        if forced.first_player is not None:
            first = forced.first_player
        elif options.first_player == "listed":
            first = ids[0]
        else:
            first = rng.choice(ids)
        events += begin(state, first, "")
    else:
        state.next_phase("first")
        events.append(public(
            "first_player",
            "🎩 Who at this table most recently performed a magic trick? That player presses "
            "**I go first**. (If nobody claims it before the timer, the castle chooses.)",
            opens_phase=True,
        ))
    return Outcome(state=state, events=events)


def deal_characters(ids: list[str], options: CastleOptions, rng: Rng, forced: CastleSetup) -> dict[str, str]:
    """Each player's character card (with the Monster always dealt, at ``deal="with_monster"``)."""
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


def lay_tableau(options: CastleOptions, rng: Rng, forced: CastleSetup) -> tuple[list[str], list[bool]]:
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


def place_pawns(ids: list[str], n_pawns: int, options: CastleOptions, rng: Rng,
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


def lay_rituals(rng: Rng, forced: CastleSetup) -> list[str]:
    """The outcome card on each ritual card, face down."""
    if forced.rituals is not None:
        if sorted(forced.rituals) != sorted(OUTCOME):
            raise SetupError("Forced rituals must list each of the eight outcomes once.", code="bad_setup")
        rituals = list(forced.rituals)
    else:
        rituals = list(OUTCOME)
        rng.shuffle(rituals)
    return rituals


def opening(players: list[Player], chars: dict[str, str], n_pawns: int) -> list[Event]:
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
            f"cast:\n{guide(cid)}\n\nOn your turn: pick up pawns and flip a shrine for each, or turn "
            "one outcome card face up. The spell is cast when the last outcome card is face up.",
            title="Your character", data={"character": cid},
        ))
    return events
