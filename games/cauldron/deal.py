"""The deal: the heroes (with the spare hero deck for Ceol), the sixteen cards of the cauldron and the
hands of ingredients (each dealt at random or forced, in that order), the table's welcome and each
player's hero card; then the first night."""

from __future__ import annotations

from collections import Counter

from games.engine import Event, Outcome, Player, Rng, SetupError, private, public

from .data import DATA, HEROES, INGREDIENTS, evil_count
from .models import CauldronOptions, CauldronSetup, CauldronState
from .night import open_night
from .terms import BLOOD, MILK, thistle_threshold


def setup(players: list[Player], options: CauldronOptions, rng: Rng, forced: CauldronSetup) -> Outcome:
    ids = [p.id for p in players]
    s = CauldronState(players=players, phase="setup", options=options)
    deal_heroes(s, ids, rng, forced)
    build_center(s, rng, forced)
    deal_ingredients(s, ids, rng, forced)
    s.knowledge = {pid: [] for pid in ids}
    s.hero_changes = {pid: [] for pid in ids}
    events = [welcome(len(ids), options), *(hero_card(s, pid) for pid in ids), *open_night(s, rng)]
    return Outcome(state=s, events=events)


def welcome(n: int, options: CauldronOptions) -> Event:
    return public(
        "game_start",
        f"**Ireland Cauldron** begins. {n} heroes gather round the cauldron: "
        f"{evil_count(n)} of them {'serves' if evil_count(n) == 1 else 'serve'} the dark. Sixteen cards lie in it, "
        f"8 {MILK} and 8 {BLOOD}. When only {options.end_remaining} remain in the deck and face up, "
        "more Milk saves Ireland; more Blood dooms it.",
        title="Ireland Cauldron",
        data={"players": n, "evil": evil_count(n), "center": 16,
              "end_remaining": options.end_remaining,
              "thistle_threshold": thistle_threshold(n)},
    )


def hero_card(s: CauldronState, pid: str) -> Event:
    """A player's hero, in secret (and, when the table's option says so, the Evil's allies)."""
    hero = HEROES[s.heroes[pid]]
    text = (f"Your hero is **{hero.name}** ({'Good' if hero.team == 'good' else 'Evil'}). "
            f"_{hero.legend}_")
    if hero.team == "evil" and s.options.evil_know_each_other:
        allies = s.evil_allies.get(pid, [])
        text += ("\nYour allies in the dark: " + ", ".join(
            f"**{s.name(a)}** ({HEROES[s.heroes[a]].name})" for a in allies)
            if allies else "\nYou stand alone in the dark.")
    return private(pid, "hero", text, title="Your hero",
                   data={"hero": hero.key, "team": hero.team, "allies": s.evil_allies.get(pid, [])})


def deal_heroes(s: CauldronState, ids: list[str], rng: Rng, forced: CauldronSetup) -> None:
    for pid, key in forced.heroes.items():
        if pid not in ids:
            raise SetupError(f"Forced hero for {pid!r}, who is not at the table.", code="bad_setup")
        if key not in HEROES:
            raise SetupError(f"There is no hero {key!r}.", code="bad_setup")
    taken = list(forced.heroes.values()) + list(forced.hero_deck)
    for key in forced.hero_deck:
        if key not in HEROES:
            raise SetupError(f"There is no hero {key!r}.", code="bad_setup")
    if len(set(taken)) != len(taken):
        raise SetupError("Each hero can be dealt only once.", code="bad_setup")
    heroes = dict(forced.heroes)
    free = [pid for pid in ids if pid not in heroes]
    rng.shuffle(free)
    evil_needed = max(0, evil_count(len(ids)) - sum(HEROES[k].team == "evil" for k in heroes.values()))
    pool = {team: [h.key for h in DATA.heroes if h.team == team and h.key not in taken]
            for team in ("good", "evil")}
    for team_pool in pool.values():
        rng.shuffle(team_pool)
    for i, pid in enumerate(free):
        team = "evil" if i < evil_needed else "good"
        if not pool[team]:
            raise SetupError(f"Not enough {team} heroes left to deal.", code="bad_setup")
        heroes[pid] = pool[team].pop()
    s.heroes = {pid: heroes[pid] for pid in ids}
    s.starting_heroes = dict(s.heroes)
    rest = pool["good"] + pool["evil"]
    rng.shuffle(rest)
    s.hero_deck = list(forced.hero_deck) + rest
    if not s.hero_deck:
        raise SetupError("Ceol needs at least one spare hero.", code="bad_setup")
    if s.options.evil_know_each_other:
        evil = [pid for pid in ids if HEROES[s.heroes[pid]].team == "evil"]
        s.evil_allies = {pid: [o for o in evil if o != pid] for pid in evil}


def build_center(s: CauldronState, rng: Rng, forced: CauldronSetup) -> None:
    top = list(forced.center)
    if top.count("milk") > 8 or top.count("blood") > 8:
        raise SetupError("The cauldron holds only 8 Milk and 8 Blood.", code="bad_setup")
    rest = ["milk"] * (8 - top.count("milk")) + ["blood"] * (8 - top.count("blood"))
    rng.shuffle(rest)
    order = top + rest
    s.deck = [f"cc{i + 1:02d}" for i in range(16)]
    s.kinds = {cid: kind for cid, kind in zip(s.deck, order, strict=True)}  # type: ignore[misc]


def deal_ingredients(s: CauldronState, ids: list[str], rng: Rng, forced: CauldronSetup) -> None:
    pool = Counter({i.key: i.copies for i in DATA.ingredients})
    for pid, hand in forced.hands.items():
        if pid not in ids:
            raise SetupError(f"Forced hand for {pid!r}, who is not at the table.", code="bad_setup")
        if len(hand) != 3:
            raise SetupError("A forced hand holds exactly 3 ingredients.", code="bad_setup")
    for key in [k for h in forced.hands.values() for k in h] + list(forced.draw):
        if key not in INGREDIENTS:
            raise SetupError(f"There is no ingredient {key!r}.", code="bad_setup")
        if pool[key] <= 0:
            raise SetupError(f"There are only 10 cards of {INGREDIENTS[key].name}.", code="bad_setup")
        pool[key] -= 1
    rest = list(pool.elements())
    rng.shuffle(rest)
    s.hands = {}
    for pid in ids:
        if pid in forced.hands:
            s.hands[pid] = list(forced.hands[pid])
        else:
            s.hands[pid] = [rest.pop() for _ in range(3)]
    s.draw = list(forced.draw) + rest
