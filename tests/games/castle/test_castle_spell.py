"""The ritual spell: arcana, the eight outcomes, control, regalia claims and scoring."""

from __future__ import annotations

import pytest

from games.castle.data import RITUALS, ROWS, SHRINE_DECK, ritual_label, shrine_index
from games.castle.rules import (
    MONSTER_POINTS,
    arcana_of,
    cast,
    control_of,
    country_counts,
    ritual_index,
    winners,
)

# a layout with the regalia in known places: amulet bell-6, crown book-4, scepter candle-5
LAYOUT = [
    "dragon", "dragon", "eagle", "wolf", "eagle", "amulet", "dragon", "wolf", "eagle",
    "eagle", "wolf", "dragon", "crown", "dragon", "wolf", "eagle", "dragon", "wolf",
    "wolf", "eagle", "dragon", "wolf", "scepter", "eagle", "dragon", "wolf", "eagle",
]
AMULET, CROWN, SCEPTER = shrine_index("bell-6"), shrine_index("book-4"), shrine_index("candle-5")
PLAYERS = ["w", "c", "m", "x"]
CHARS = {"w": "dragon_kida", "c": "wolf_cultist", "m": "monster", "x": "eagle_sorrell"}
ALL_DOWN = [False] * 27


def face_up_for(bell: bool, book: bool, candle: bool) -> list[bool]:
    """Rows with 5 of 9 active (on) or 4 of 9 (off); columns 1-5 vs 1-4."""
    up = [False] * 27
    for r, on in enumerate((bell, book, candle)):
        for c in range(5 if on else 4):
            up[r * 9 + c] = True
    return up


def run(outcome: str, pawns: dict, face=None, chars=CHARS, players=PLAYERS, **kw):
    face = face if face is not None else face_up_for(True, True, True)
    idx = ritual_index(arcana_of(face))
    rituals = [o for o in ["banished", "amulet_dominates", "crown_dominates", "scepter_dominates",
                           "amulet_devoured", "crown_devoured", "scepter_devoured", "released"]
               if o != outcome]
    rituals.insert(idx, outcome)
    full = {p: pawns.get(p, [None, None]) for p in players}
    return cast(LAYOUT, face, full, chars, players, rituals, **kw)


def test_layout_is_the_shrine_deck():
    assert sorted(LAYOUT) == sorted(SHRINE_DECK)


@pytest.mark.parametrize("bell,book,candle", RITUALS)
def test_each_arcanum_follows_its_row_majority(bell, book, candle):
    face = face_up_for(bell, book, candle)
    assert arcana_of(face) == {"bell": bell, "book": book, "candle": candle}
    assert RITUALS[ritual_index(arcana_of(face))] == (bell, book, candle)


def test_four_of_nine_is_not_a_majority_and_book_can_be_closed():
    face = face_up_for(True, False, True)
    assert sum(face[9:18]) == 4
    assert arcana_of(face)["book"] is False
    assert "book closed" in ritual_label(ritual_index(arcana_of(face)))


def test_the_ritual_cards_are_eight_distinct_combinations():
    assert len(set(RITUALS)) == 8
    assert ritual_label(0) == "Ritual 1 (bell ringing, book open, candle lit)"
    assert ritual_label(7) == "Ritual 8 (bell silent, book closed, candle unlit)"


def test_the_spell_reads_the_outcome_on_the_matching_ritual_card():
    face = face_up_for(False, True, False)  # silent, open, unlit = ritual 6
    rituals = ["banished", "amulet_dominates", "crown_dominates", "scepter_dominates",
               "amulet_devoured", "released", "scepter_devoured", "crown_devoured"]
    spell = cast(LAYOUT, face, {p: [None] for p in PLAYERS}, CHARS, PLAYERS, rituals)
    assert spell.ritual == 5
    assert spell.outcome == "released"


# ----- the eight outcomes -----

CLAIMS = {"w": [AMULET, None], "c": [CROWN, None], "x": [SCEPTER, None]}


def test_banished_outright():
    s = run("banished", CLAIMS)
    assert s.monster == "banished" and s.devoured == [] and s.dominator is None
    assert s.claims == {"amulet": "w", "crown": "c", "scepter": "x"}


@pytest.mark.parametrize("regalia,holder", [("amulet", "w"), ("crown", "c"), ("scepter", "x")])
def test_domination_by_the_holder_then_the_rampage_spares_the_master(regalia, holder):
    s = run(f"{regalia}_dominates", CLAIMS)
    assert s.monster == "dominated" and s.dominator == holder
    assert sorted(s.devoured) == sorted(p for p in ("w", "c", "x") if p != holder)
    assert "m" not in s.devoured  # the Monster cannot devour itself
    assert s.claims[regalia] == holder
    assert [r for r, who in s.claims.items() if who is not None] == [regalia]


@pytest.mark.parametrize("regalia", ["amulet", "crown", "scepter"])
def test_domination_with_nobody_on_the_regalia_releases_the_monster(regalia):
    s = run(f"{regalia}_dominates", {})
    assert s.monster == "released" and s.dominator is None
    assert sorted(s.devoured) == ["c", "w", "x"]


def test_domination_variant_no_rampage():
    s = run("crown_dominates", CLAIMS, domination="no_rampage")
    assert s.dominator == "c" and s.devoured == []
    assert s.claims == {"amulet": "w", "crown": "c", "scepter": "x"}


@pytest.mark.parametrize("regalia,holder", [("amulet", "w"), ("crown", "c"), ("scepter", "x")])
def test_the_holder_is_devoured_then_the_monster_is_banished(regalia, holder):
    s = run(f"{regalia}_devoured", CLAIMS)
    assert s.monster == "banished" and s.devoured == [holder]
    assert s.claims[regalia] is None and s.pawn_on[regalia] == holder
    others = [r for r in ("amulet", "crown", "scepter") if r != regalia]
    assert all(s.claims[r] is not None for r in others)


@pytest.mark.parametrize("regalia", ["amulet", "crown", "scepter"])
def test_nobody_is_devoured_when_nobody_holds_that_regalia(regalia):
    s = run(f"{regalia}_devoured", {})
    assert s.devoured == [] and s.monster == "banished"


def test_the_monster_cannot_devour_itself():
    s = run("amulet_devoured", {"m": [AMULET, None]})
    assert s.devoured == []
    assert s.claims["amulet"] == "m"
    assert s.scores["m"] == 0  # no devouring, and no points for regalia


def test_released_devours_everyone_but_the_monster():
    s = run("released", CLAIMS | {"m": [None, None]})
    assert s.monster == "released"
    assert sorted(s.devoured) == ["c", "w", "x"]
    assert all(who is None for who in s.claims.values())


# regalia claims under every outcome: w on the amulet, c on the crown, m (the Monster) on the scepter
EXPECTED_CLAIMS = {
    "banished": {"amulet": "w", "crown": "c", "scepter": "m"},
    "amulet_dominates": {"amulet": "w", "crown": None, "scepter": "m"},
    "crown_dominates": {"amulet": None, "crown": "c", "scepter": "m"},
    "scepter_dominates": {"amulet": None, "crown": None, "scepter": "m"},
    "amulet_devoured": {"amulet": None, "crown": "c", "scepter": "m"},
    "crown_devoured": {"amulet": "w", "crown": None, "scepter": "m"},
    "scepter_devoured": {"amulet": "w", "crown": "c", "scepter": "m"},
    "released": {"amulet": None, "crown": None, "scepter": "m"},
}


@pytest.mark.parametrize("outcome", list(EXPECTED_CLAIMS))
def test_regalia_claims_under_every_outcome(outcome):
    s = run(outcome, {"w": [AMULET, None], "c": [CROWN, None], "m": [SCEPTER, None]})
    assert s.claims == EXPECTED_CLAIMS[outcome]
    assert s.pawn_on == {"amulet": "w", "crown": "c", "scepter": "m"}


def test_face_down_regalia_is_claimed_too():
    face = face_up_for(True, True, True)
    assert face[AMULET] is False  # column 6 is never up in face_up_for
    s = run("banished", {"w": [AMULET, None]}, face=face)
    assert s.claims["amulet"] == "w"
    assert s.scores["w"] >= 1000


def test_removed_players_claim_nothing_and_are_not_devoured():
    s = run("released", {"w": [AMULET, None]}, players=["c", "m", "x"])
    assert s.pawn_on["amulet"] is None
    assert "w" not in s.devoured and "w" not in s.scores


# ----- country control -----


def test_control_most_active_shrines_and_ties_mean_nobody():
    assert control_of({"kida": {"dragon": 3, "eagle": 1, "wolf": 1},
                       "marus": {"dragon": 2, "eagle": 2, "wolf": 1},
                       "sorrell": {"dragon": 0, "eagle": 0, "wolf": 0}}) == \
        {"kida": "dragon", "marus": None, "sorrell": None}
    assert control_of({"kida": {"dragon": 2, "eagle": 2, "wolf": 2},
                       "marus": {"dragon": 0, "eagle": 1, "wolf": 0},
                       "sorrell": {"dragon": 1, "eagle": 3, "wolf": 3}}) == \
        {"kida": None, "marus": "eagle", "sorrell": None}


def test_only_face_up_faction_shrines_count():
    up = [False] * 27
    for sid in ("bell-1", "bell-2", "book-1", "bell-6", "book-4", "candle-5"):
        up[shrine_index(sid)] = True  # Kida: 2 dragon + 1 eagle; the three regalia count for nobody
    counts = country_counts(LAYOUT, up)
    assert counts["kida"] == {"dragon": 2, "eagle": 1, "wolf": 0}
    assert counts["marus"] == {"dragon": 0, "eagle": 0, "wolf": 0}
    assert control_of(counts) == {"kida": "dragon", "marus": None, "sorrell": None}


# ----- scoring by character type -----


def control_face() -> list[bool]:
    """Dragon controls Kida (bell-1,2), Eagle Sorrell (bell-9, book-7), Marus tied (wolf bell-4 v eagle bell-5)."""
    up = [False] * 27
    for sid in ("bell-1", "bell-2", "bell-4", "bell-5", "bell-9", "book-7"):
        up[shrine_index(sid)] = True
    return up


def test_wizard_scoring_every_line():
    face = control_face()
    s = run("amulet_dominates", {"w": [AMULET, None]}, face=face, domination="no_rampage")
    assert s.control == {"kida": "dragon", "marus": None, "sorrell": "eagle"}
    # w: Dragon wizard from Kida: Kida 1000 + home 1000 + amulet 1000 + dominating 1000
    assert s.scores["w"] == 4000
    # x: Eagle wizard from Sorrell: Sorrell 1000 + home 1000
    assert s.scores["x"] == 2000
    met = {o.label for o in s.objectives["w"] if o.met}
    assert "Dominate the Monster" in met and "Claims the Amulet" in met


def test_wizard_away_from_home_scores_only_the_country():
    chars = dict(CHARS, x="eagle_kida")
    s = run("banished", {}, face=control_face(), chars=chars)
    assert s.scores["x"] == 1000  # Eagle control Sorrell; home Kida is Dragon's


def test_cultist_scoring_countries_regalia_and_feeding():
    face = control_face()
    chars = dict(CHARS, c="eagle_cultist")
    fed = run("amulet_devoured", {"c": [CROWN, None], "w": [AMULET, None]}, face=face, chars=chars)
    assert fed.devoured == ["w"]
    assert fed.scores["c"] == 1000 + 1000 + 1000  # Sorrell, crown, feeding
    hungry = run("banished", {"c": [CROWN, None]}, face=face, chars=chars)
    assert hungry.scores["c"] == 2000  # no feeding
    # a cultist who is devoured still fed the Monster, but loses the regalia
    eaten = run("crown_devoured", {"c": [CROWN, None]}, face=face, chars=chars)
    assert eaten.devoured == ["c"] and eaten.scores["c"] == 2000


def test_cultist_does_not_score_domination():
    s = run("crown_dominates", {"c": [CROWN, None]}, domination="no_rampage")
    assert s.dominator == "c"
    assert s.scores["c"] == 1000 + sum(1000 for f in s.control.values() if f == "wolf")


def test_monster_scores_7000_for_devouring_a_wizard_or_cultist():
    assert run("released", {}).scores["m"] == MONSTER_POINTS
    assert run("crown_devoured", {"x": [CROWN, None]}).scores["m"] == MONSTER_POINTS
    assert run("banished", {"m": [AMULET, None]}).scores["m"] == 0
    dominated = run("amulet_dominates", {"m": [AMULET, None]})
    assert dominated.dominator == "m" and dominated.scores["m"] == MONSTER_POINTS


def test_devoured_wizard_keeps_country_points_but_not_regalia():
    face = control_face()
    s = run("amulet_devoured", {"w": [AMULET, CROWN]}, face=face)
    assert s.devoured == ["w"]
    assert s.claims == {"amulet": None, "crown": None, "scepter": None}
    assert s.scores["w"] == 2000  # Kida + home


def test_devoured_score_variant_nothing():
    s = run("amulet_devoured", {"w": [AMULET, None]}, face=control_face(), devoured_score="nothing")
    assert s.scores["w"] == 0
    assert s.scores["x"] == 2000


def test_winners_are_all_the_highest_scores():
    assert winners({"a": 2000, "b": 3000, "c": 3000}) == ["b", "c"]
    assert winners({"a": 0, "b": 0}) == ["a", "b"]
    assert winners({}) == []


def test_rows_are_bell_book_candle_and_all_down_is_the_last_ritual():
    assert ROWS == ("bell", "book", "candle")
    assert arcana_of(ALL_DOWN) == {"bell": False, "book": False, "candle": False}
    assert ritual_index(arcana_of(ALL_DOWN)) == 7
    assert ritual_index(arcana_of([True] * 27)) == 0


def test_the_end_screen_says_why_a_devoured_character_still_wins():
    """A devoured winner reads like a mistake unless the end screen says why: the line under the
    winner explains the table's devoured_score, for one devoured winner and when all are devoured."""
    import support.castle_helpers as H

    from games.castle.ending import scores_event
    from games.castle.rules import Spell

    state, _ = H.new_game()
    players = ["p1", "p2", "p3", "p4"]

    def screen(devoured, scores, winners):
        state.winners = winners
        spell = Spell.model_construct(devoured=devoured, dominator=None, scores=scores,
                                      objectives={p: [] for p in players})
        return scores_event(state, spell).text.splitlines()

    lines = screen(["p1"], {"p1": 2000, "p2": 1000, "p3": 0, "p4": 0}, ["p1"])
    assert lines[0].startswith("🏆 **") and "2000 points" in lines[0]
    assert "was devoured and still wins" in lines[1] and "devoured_score=countries" in lines[1]
    lines = screen(players, {"p1": 1000, "p2": 3000, "p3": 0, "p4": 0}, ["p2"])
    assert lines[1].startswith("The Monster devoured everyone, so the scores decide")
    lines = screen(["p3"], {"p1": 1000, "p2": 3000, "p3": 0, "p4": 0}, ["p2"])  # the winner was spared
    assert not any("still win" in line or "devoured everyone" in line for line in lines)
    assert any("· devoured" in line for line in lines)  # p3's own line still says it
    # where a devoured character scores nothing, the line says that instead
    state.options = state.options.model_copy(update={"devoured_score": "nothing"})
    lines = screen(players, {p: 0 for p in players}, players)
    assert "scores nothing (`devoured_score=nothing`)" in lines[1] and "keeps its points" not in lines[1]
