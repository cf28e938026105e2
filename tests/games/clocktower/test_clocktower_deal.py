"""Clocktower deal: composition, the Baron's +2 Outsiders, false cards, the Marionette's seat, bluffs, refusals."""

import random
from collections import Counter

import pytest

from games.clocktower import Deal, DealError, composition, deal, load
from games.engine import SetupError

CHARS = load()
TEAMS = ("townsfolk", "outsider", "minion", "demon")
FULL = [c.id for team in TEAMS for c in CHARS.by_team(team)]
GOOD = {c.id for c in CHARS.characters.values() if c.team in ("townsfolk", "outsider")}
TOWNSFOLK = [c.id for c in CHARS.by_team("townsfolk")]
OUTSIDERS = [c.id for c in CHARS.by_team("outsider")]
DEMONS = [c.id for c in CHARS.by_team("demon")]
FALSE_CARDS = {"drunk": {"townsfolk"}, "lunatic": {"demon"}, "marionette": {"townsfolk", "outsider"}}
DEALS = 1000
COUNTS = range(7, 16)


def seats(n):
    return [f"p{i}" for i in range(n)]


def minions_for(n, first, others):
    """A pool whose Minions force ``first`` in play: exactly as many Minions as the game needs."""
    return [first, *others][: composition()[n].minions]


def pool_with_minions(minions):
    return [*TOWNSFOLK, *OUTSIDERS, *minions, *DEMONS]


def team(cid):
    return CHARS[cid].team


def neighbours(d: Deal, player):
    return set(d.neighbours(player))


def check(d: Deal, n, pool, option="demon"):
    """Every rule a deal must keep."""
    assert d.players == tuple(seats(n))
    in_play = [s.character for s in d.seats]
    assert len(set(in_play)) == n, "a character is dealt twice"
    assert set(in_play) <= set(pool)

    wanted = composition()[n].counts()
    if "baron" in in_play:
        wanted["outsider"] += 2
        wanted["townsfolk"] -= 2
    assert Counter(team(c) for c in in_play) == Counter({t: k for t, k in wanted.items() if k})

    for s in d.seats:
        assert s.team == team(s.character)
        assert s.alignment == ("evil" if s.team in ("minion", "demon") else "good")
    assert d.demon_player == next(s.player for s in d.seats if s.team == "demon")
    assert set(d.minion_players) == {s.player for s in d.seats if s.team == "minion"}

    shown = [s.shown for s in d.seats if s.shown != s.character]
    for s in d.seats:
        if s.character in FALSE_CARDS:
            assert team(s.shown) in FALSE_CARDS[s.character]
            assert s.shown not in in_play
            assert s.shown not in FALSE_CARDS
        else:
            assert s.shown == s.character
    assert len(set(shown)) == len(shown)
    assert {s.character for s in d.seats if s.shown != s.character} <= set(FALSE_CARDS)

    marionette = d.player_of("marionette")
    if marionette:
        anchors = {d.demon_player}
        if option == "demon_or_recluse" and d.player_of("recluse"):
            anchors.add(d.player_of("recluse"))
        assert neighbours(d, marionette) & anchors

    assert len(d.bluffs) == len(set(d.bluffs)) == 3
    for bluff in d.bluffs:
        assert bluff in GOOD and bluff not in in_play and bluff not in shown


@pytest.mark.parametrize("n", COUNTS)
def test_full_pool(n):
    seen = Counter()
    for seed in range(DEALS):
        d = deal(seats(n), FULL, random.Random(seed))
        check(d, n, FULL)
        seen.update(s.character for s in d.seats)
    assert set(seen) == set(FULL), "some character of the full pool is never dealt"


@pytest.mark.parametrize("n", COUNTS)
def test_baron_forced(n):
    pool = pool_with_minions(minions_for(n, "baron", ["marionette", "spy"]))
    for seed in range(DEALS):
        d = deal(seats(n), pool, random.Random(seed))
        assert d.player_of("baron")
        check(d, n, pool)


@pytest.mark.parametrize("n", COUNTS)
def test_marionette_forced(n):
    pool = pool_with_minions(minions_for(n, "marionette", ["goblin", "spy"]))
    by_recluse_only = 0
    for seed in range(DEALS):
        option = "demon" if seed % 2 else "demon_or_recluse"
        d = deal(seats(n), pool, random.Random(seed), marionette_neighbours=option)
        check(d, n, pool, option)
        marionette = d.player_of("marionette")
        if option == "demon":
            assert d.demon_player in neighbours(d, marionette)
        elif d.demon_player not in neighbours(d, marionette):
            assert d.player_of("recluse") in neighbours(d, marionette)
            by_recluse_only += 1
    if composition()[n].outsiders:  # at 7, 10 and 13 players no Outsider (so no Recluse) is in play
        assert by_recluse_only, "the option never seats the Marionette by the Recluse alone"
    else:
        assert by_recluse_only == 0


def test_the_same_seed_gives_the_same_deal():
    for seed in range(20):
        assert deal(seats(12), FULL, random.Random(seed)) == deal(seats(12), FULL, random.Random(seed))
    assert len({deal(seats(12), FULL, random.Random(seed)) for seed in range(20)}) > 1


def test_pool_order_duplicates_and_aliases_are_harmless():
    pool = [*FULL, *FULL, "High Priestess"]
    d = deal(seats(9), pool, random.Random(1))
    check(d, 9, FULL)


def test_a_baron_the_pool_cannot_complete_is_never_drawn():
    pool = [*TOWNSFOLK, "drunk", "baron", "spy", "po"]
    for seed in range(50):
        d = deal(seats(8), pool, random.Random(seed))
        assert d.player_of("spy") and not d.player_of("baron")


@pytest.mark.parametrize(("n", "message"), [
    (6, "Her Royal Highness Register is for 7 to 15 players, not 6."),
    (16, "Her Royal Highness Register is for 7 to 15 players, not 16."),
])
def test_refuses_player_counts(n, message):
    with pytest.raises(DealError) as err:
        deal(seats(n), FULL, random.Random(0))
    assert str(err.value) == message
    assert isinstance(err.value, SetupError) and err.value.code == "bad_deal"


@pytest.mark.parametrize(("pool", "message"), [
    ([*FULL, "thief"], "The Thief is a Traveller and is never dealt to a player; take it out of the pool."),
    ([*FULL, "djinn"], "The Djinn is a Fabled and is never dealt to a player; take it out of the pool."),
    ([*FULL, "imp"], "The pool names 'imp', which is not a character of this script."),
    ([*TOWNSFOLK, "drunk", "baron", "po"], "The pool needs 2 Outsiders (the Baron adds 2) but has 1: Drunk."),
    ([*TOWNSFOLK, *OUTSIDERS, "baron"], "The pool needs 1 Demon but has none."),
    ([*TOWNSFOLK, *OUTSIDERS, "po"], "The pool needs 1 Minion but has none."),
    (["washerwoman", "knight", "baron", "po", *OUTSIDERS],
     "The pool needs 3 Townsfolk (the Baron removes 2) but has 2: Washerwoman, Knight."),
    (["washerwoman", "knight", "spy", "po", *OUTSIDERS],
     "The pool needs 5 Townsfolk but has 2: Washerwoman, Knight."),
])
def test_refuses_pools(pool, message):
    with pytest.raises(DealError) as err:
        deal(seats(7), pool, random.Random(0))
    assert str(err.value) == message


def test_refuses_bad_seats_and_options():
    with pytest.raises(DealError, match="The player p1 sits in two seats."):
        deal(["p0", "p1", "p2", "p1", "p4", "p5", "p6"], FULL, random.Random(0))
    with pytest.raises(DealError, match="may neighbour"):
        deal(seats(7), FULL, random.Random(0), marionette_neighbours="recluse")
