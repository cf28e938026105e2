"""The deal of any official script: legal counts, every set-up change, false cards, seats, refusals."""

import json
import random
from collections import Counter
from pathlib import Path

import pytest

from games.clocktower.catalogue import TeamCounts, legal_counts, load
from games.clocktower.deal import Deal, DealError
from games.clocktower.deal_any import Homebrew, deal_script

CAT = load()
DEALT = ("townsfolk", "outsider", "minion", "demon")
REFERENCE = Path(__file__).parent / "reference" / "wc25"
COPIES = {"legion", "villageidiot"}
FALSE_TEAMS = {"drunk": {"townsfolk"}, "lunatic": {"demon"}, "marionette": {"townsfolk", "outsider"}}


def edition(name):
    return [r.id for r in CAT.records.values() if r.edition == name and r.team in DEALT]


def read(path):
    """A wc25 script's ids, and its homebrew character objects as the deal takes them."""
    entries = [e for e in json.loads(path.read_text()) if e != "_meta" and not
               (isinstance(e, dict) and e.get("id") == "_meta")]
    own = tuple(Homebrew(id=e["id"], name=e["name"], team=e["team"], setup=e.get("setup", False),
                         duplicates={"name": "bag-duplicate", "type": "selection"} in e.get("special", []))
                for e in entries if isinstance(e, dict))
    return [e if isinstance(e, str) else e["id"] for e in entries], own


READ = {p.name.split(".")[0]: read(p) for p in sorted(REFERENCE.glob("*.json"))}
READ |= {"tb": (edition("tb"), ()), "bmr": (edition("bmr"), ()), "snv": (edition("snv"), ())}
SCRIPTS = {name: ids for name, (ids, _) in READ.items()}
HOMEBREW = {h.id: h for _, own in READ.values() for h in own}
TB = SCRIPTS["tb"]


def team_of(cid):
    return HOMEBREW[cid].team if cid in HOMEBREW else CAT.records[cid].team


def of_team(script, *teams):
    return [c for c in script if team_of(c) in teams]


def dealable(script):
    return of_team(script, *DEALT)


def seats(n):
    return [f"p{i}" for i in range(n)]


def deal(n, pool, seed=0, script=TB):
    own = [HOMEBREW[c] for c in script if c in HOMEBREW]
    return deal_script(seats(n), pool, random.Random(seed), script=script, homebrew=own)


def team_counts(d: Deal) -> TeamCounts:
    c = Counter(s.team for s in d.seats)
    return TeamCounts(townsfolk=c["townsfolk"], outsiders=c["outsider"], minions=c["minion"], demons=c["demon"])


def in_play(d: Deal, script):
    """The characters in play, with Lil' Monsta (in play, dealt to nobody) when the notes say so."""
    ids = set(d.in_play)
    if "lilmonsta" in script and any(n.startswith("Lil' Monsta is in play") for n in d.notes):
        ids.add("lilmonsta")
    return ids


def neighbours(d: Deal, i):
    n = len(d.seats)
    return d.seats[(i - 1) % n], d.seats[(i + 1) % n]


def check(d: Deal, script, n):
    """Every rule a deal of any script keeps."""
    assert len(d.seats) == n and d.players == tuple(seats(n))
    playing = in_play(d, script)
    assert playing <= set(script)
    # the team count is one the rules allow for what is in play (the homebrew characters change none)
    official = [c for c in script if c not in HOMEBREW]
    assert team_counts(d) in legal_counts(official, n, sorted(playing - set(HOMEBREW)))
    # no character twice, but Legion's and the Village Idiot's copies
    twice = [c for c, k in Counter(s.character for s in d.seats).items() if k > 1]
    assert set(twice) <= COPIES | {h.id for h in HOMEBREW.values() if h.duplicates}, twice
    # false cards and bluffs: never in play, never shown twice
    shown = []
    for s in d.seats:
        assert s.team == team_of(s.character)
        if s.character in FALSE_TEAMS:
            assert s.shown not in playing and team_of(s.shown) in FALSE_TEAMS[s.character]
            assert s.shown in script
            shown.append(s.shown)
        else:
            assert s.shown == s.character
    assert len(shown) == len(set(shown))
    assert len(set(d.bluffs)) == len(d.bluffs) <= 3
    for b in d.bluffs:
        assert b in script and b not in playing and b not in shown
        assert team_of(b) in ("townsfolk", "outsider")
    # the Marionette beside the Demon; alignments by team, but the Bounty Hunter's one evil Townsfolk
    for i, s in enumerate(d.seats):
        if s.character == "marionette":
            assert "demon" in {x.team for x in neighbours(d, i)}
    evil_townsfolk = [s for s in d.seats if s.team == "townsfolk" and s.alignment == "evil"]
    assert len(evil_townsfolk) == (1 if "bountyhunter" in playing and evil_side(d) else 0)
    assert all(s.character != "bountyhunter" for s in evil_townsfolk)
    for s in d.seats:
        if s.team in ("minion", "demon"):
            assert s.alignment == "evil"
        elif s.team == "outsider":
            assert s.alignment == "good"


def evil_side(d: Deal) -> bool:
    return any(s.team in ("minion", "demon") for s in d.seats)


# -- every script, many seeds --------------------------------------------------------------------

def test_the_scripts_are_the_sixteen_of_wc25_and_the_three_editions():
    assert len(SCRIPTS) == 19
    assert [len(SCRIPTS[e]) for e in ("tb", "bmr", "snv")] == [22, 25, 25]


@pytest.mark.parametrize("name", sorted(SCRIPTS))
@pytest.mark.parametrize("n", [5, 7, 11, 15])
def test_every_script_deals_legally(name, n):
    script = SCRIPTS[name]
    for seed in range(40):
        check(deal(n, dealable(script), seed, script), script, n)


def test_the_same_seed_gives_the_same_deal_and_another_seed_another():
    script = SCRIPTS["seat7"]
    first = [deal(11, dealable(script), seed, script) for seed in range(5)]
    again = [deal(11, dealable(script), seed, script) for seed in range(5)]
    assert first == again
    assert len({d.model_dump_json() for d in first}) == 5


# -- each set-up change, with a pool that forces it ----------------------------------------------

def pool(minions=None, demons=None, townsfolk=None, outsiders=None, script=TB):
    return [*(of_team(script, "townsfolk") if townsfolk is None else townsfolk),
            *(of_team(script, "outsider") if outsiders is None else outsiders),
            *(of_team(script, "minion") if minions is None else minions),
            *(of_team(script, "demon") if demons is None else demons)]


def counts_seen(n, the_pool, script=TB, seeds=200):
    seen = Counter()
    for seed in range(seeds):
        d = deal(n, the_pool, seed, script)
        check(d, script, n)
        seen[team_counts(d).outsiders] += 1
    return seen


def test_baron_adds_two_outsiders():
    for seed in range(30):
        d = deal(8, pool(minions=["baron"]), seed)
        assert team_counts(d) == TeamCounts(townsfolk=3, outsiders=3, minions=1, demons=1)


def test_godfather_adds_or_removes_one_outsider_evenly():
    script = [*TB, "godfather"]
    seen = counts_seen(8, pool(minions=["godfather"], script=script), script, seeds=400)
    assert set(seen) == {0, 2}
    assert 150 < seen[0] < 250  # both counts drawn alike, not the smaller one first


def test_fang_gu_adds_one_and_vigormortis_removes_one():
    script = [*TB, "fanggu", "vigormortis"]
    assert set(counts_seen(9, pool(minions=["poisoner"], demons=["fanggu"], script=script), script, 30)) == {3}
    assert set(counts_seen(9, pool(minions=["poisoner"], demons=["vigormortis"], script=script), script, 30)) == {1}


def test_balloonist_in_play_may_add_an_outsider():
    script = [*TB, "balloonist"]
    # five Townsfolk for five seats: the Balloonist is always dealt
    five = ["balloonist", "chef", "empath", "monk", "slayer"]
    seen = counts_seen(7, pool(townsfolk=five, minions=["poisoner"], script=script), script, 200)
    assert set(seen) == {0, 1}
    assert seen[1] > 50


def test_hermit_in_play_may_remove_an_outsider():
    script = [*TB, "hermit"]
    seen = counts_seen(9, pool(outsiders=["hermit", "saint", "recluse"], minions=["poisoner"], script=script),
                       script, 200)
    assert set(seen) == {1, 2}


def test_sentinel_on_the_script_allows_one_more_or_fewer_outsider():
    script = [*TB, "sentinel"]
    seen = counts_seen(8, pool(minions=["poisoner"], script=script), script, 300)
    assert set(seen) == {0, 1, 2}
    assert min(seen.values()) > 60


def test_xaan_draws_every_outsider_count_alike():
    script = [*TB, "xaan", "hermit", "damsel", "klutz"]
    seen = counts_seen(7, pool(minions=["xaan"], script=script), script, 600)
    assert set(seen) == {0, 1, 2, 3, 4, 5}
    assert min(seen.values()) > 60  # about 100 each: no lean toward few Outsiders


def test_kazali_deals_no_minion():
    script = [*TB, "kazali"]
    for seed in range(30):
        d = deal(11, pool(demons=["kazali"], script=script), seed, script)
        check(d, script, 11)
        assert team_counts(d).minions == 0 and d.demon_player
        assert any("Kazali chooses which players become which Minions" in n for n in d.notes)


@pytest.mark.parametrize("n", [5, 7, 10, 13, 15])
def test_lord_of_typhon_sits_in_the_middle_of_the_evil_line(n):
    script = [*TB, "lordoftyphon", "marionette", "xaan", "hermit", "damsel", "klutz"]
    for seed in range(30):
        d = deal(n, pool(demons=["lordoftyphon"], script=script), seed, script)
        check(d, script, n)
        evil = [i for i, s in enumerate(d.seats) if s.team in ("minion", "demon")]
        assert len(evil) == CAT.counts[n].minions + 2
        lord = next(i for i, s in enumerate(d.seats) if s.character == "lordoftyphon")
        # the evil seats are consecutive around the circle, the Lord with a Minion either side
        left = right = 0
        while d.seats[(lord - left - 1) % n].team == "minion":
            left += 1
        while d.seats[(lord + right + 1) % n].team == "minion":
            right += 1
        assert left + right + 1 == len(evil) and left >= 1 and right >= 1 and abs(left - right) <= 1


def test_lil_monsta_is_dealt_to_nobody_and_adds_a_minion():
    script = [*TB, "lilmonsta"]
    for seed in range(30):
        d = deal(7, pool(minions=["poisoner", "spy", "scarletwoman"], demons=["lilmonsta"], script=script), seed,
                 script)
        check(d, script, 7)
        assert team_counts(d) == TeamCounts(townsfolk=5, outsiders=0, minions=2, demons=0)
        assert "lilmonsta" not in d.in_play
        assert any("dealt to nobody" in n for n in d.notes)


def test_summoner_means_no_demon_dealt():
    script = [*TB, "summoner"]
    for seed in range(30):
        d = deal(7, pool(minions=["summoner"], demons=[], script=script), seed, script)
        check(d, script, 7)
        assert team_counts(d) == TeamCounts(townsfolk=6, outsiders=0, minions=1, demons=0)
        assert len(d.bluffs) == 3 and any("the Summoner gets the bluffs" in n for n in d.notes)


def test_summoner_in_a_pool_with_demons_is_dealt_sometimes_and_then_alone():
    script = [*TB, "summoner"]
    summoned = 0
    for seed in range(200):
        d = deal(7, pool(script=script), seed, script)
        check(d, script, 7)
        if "summoner" in d.in_play:
            summoned += 1
            assert team_counts(d).demons == 0
    assert summoned > 10


def test_legion_fills_most_seats_and_no_minion():
    script = [*TB, "legion"]
    seen = set()
    for seed in range(60):
        d = deal(9, pool(demons=["legion"], script=script), seed, script)
        check(d, script, 9)
        legion = [s for s in d.seats if s.team == "demon"]
        assert all(s.character == "legion" and s.alignment == "evil" for s in legion)
        assert 9 // 2 < len(legion) <= 7 and team_counts(d).minions == 0
        seen.add(len(legion))
    assert seen == {5, 6, 7}


def test_atheist_means_no_evil_dealt():
    script = [*TB, "atheist"]
    for seed in range(30):
        d = deal(8, pool(minions=[], demons=[], script=script), seed, script)
        check(d, script, 8)
        assert "atheist" in d.in_play and not d.evil_players and d.bluffs == ()
    # in a pool with evil, the Atheist game comes up as often as the Atheist would be drawn
    games = sum(not deal(8, pool(script=script), seed, script).evil_players for seed in range(300))
    assert 60 < games < 180  # 5 Townsfolk seats of 14 Townsfolk: about 107


def test_bounty_hunter_makes_one_other_townsfolk_evil():
    script = [*TB, "bountyhunter"]
    five = ["bountyhunter", "chef", "empath", "monk", "slayer"]
    for seed in range(30):
        d = deal(7, pool(townsfolk=five, minions=["poisoner"], script=script), seed, script)
        check(d, script, 7)
        evil_townsfolk = [s for s in d.seats if s.team == "townsfolk" and s.alignment == "evil"]
        assert len(evil_townsfolk) == 1 and evil_townsfolk[0].character != "bountyhunter"
        assert any(evil_townsfolk[0].player in n and "dealt evil" in n for n in d.notes)


def test_village_idiot_copies_one_of_them_drunk():
    script = [*TB, "villageidiot"]
    copies = Counter()
    for seed in range(120):
        d = deal(7, pool(townsfolk=["villageidiot", "chef", "empath", "monk", "slayer"], minions=["poisoner"],
                         script=script), seed, script)
        check(d, script, 7)
        idiots = [s.player for s in d.seats if s.character == "villageidiot"]
        copies[len(idiots)] += 1
        drunk = [n for n in d.notes if "Drunk reminder" in n]
        if len(idiots) > 1:
            assert len(drunk) == 1
            named = drunk[0].split("; ")[1].split(" is drunk")[0]
            assert named in idiots
        else:
            assert not drunk
    assert set(copies) == {1, 2, 3}


def test_village_idiot_fills_seats_the_pool_cannot():
    script = [*TB, "villageidiot"]
    d = deal(7, pool(townsfolk=["villageidiot", "chef", "empath"], minions=["poisoner"], script=script),
             0, script)
    check(d, script, 7)
    assert [s.character for s in d.seats].count("villageidiot") == 3


def test_huntsman_brings_the_damsel_from_the_script():
    script = [*TB, "huntsman", "damsel"]
    five = ["huntsman", "chef", "empath", "monk", "slayer"]
    for seed in range(30):
        d = deal(7, pool(townsfolk=five, outsiders=["saint"], minions=["poisoner"], script=script), seed, script)
        check(d, script, 7)
        assert {"huntsman", "damsel"} <= d.in_play
    # with an Outsider seat already, the Damsel takes it or comes as one more Outsider, alike
    seen = counts_seen(8, pool(townsfolk=five, outsiders=["saint"], minions=["poisoner"], script=script), script)
    assert set(seen) == {1, 2} and min(seen.values()) > 50


def test_choirboy_brings_the_king_from_the_script():
    script = [*TB, "choirboy", "king"]
    for seed in range(30):
        d = deal(7, pool(townsfolk=["choirboy", "chef", "empath", "monk", "slayer"], minions=["poisoner"],
                         script=script), seed, script)
        check(d, script, 7)
        assert {"choirboy", "king"} <= d.in_play


def test_a_requirement_off_the_script_is_explained():
    script = [*TB, "choirboy"]
    with pytest.raises(DealError, match="The Choirboy needs the King in play, who is not on the script"):
        deal(7, pool(townsfolk=["choirboy", "chef", "empath", "monk", "slayer"], minions=["poisoner"],
                     script=script), 0, script)


def test_drunk_lunatic_and_marionette_are_shown_false_cards():
    script = [*TB, "lunatic", "marionette", "nodashii", "vortox"]
    for seed in range(60):
        d = deal(9, pool(outsiders=["drunk", "lunatic"], minions=["marionette"], script=script), seed, script)
        check(d, script, 9)
        assert {"drunk", "lunatic", "marionette"} <= d.in_play
        for s in d.seats:
            if s.character in FALSE_TEAMS:
                assert s.shown != s.character


def test_the_marionette_cannot_sit_beside_a_demon_nobody_is_dealt():
    script = [*TB, "summoner", "marionette"]
    with pytest.raises(DealError, match="Marionette sits beside the Demon, and no Demon is dealt"):
        deal(10, pool(minions=["summoner", "marionette"], demons=[], script=script), 0, script)


def test_the_heretic_and_the_baron_are_never_in_play_together():
    script = [*TB, "heretic"]
    with pytest.raises(DealError, match="The Heretic and the Baron cannot both be in play"):
        deal(7, pool(outsiders=["heretic", "saint"], minions=["baron"], script=script), 0, script)
    for seed in range(60):
        d = deal(9, pool(outsiders=["heretic", "saint", "recluse", "butler", "drunk"], script=script), seed, script)
        check(d, script, 9)
        assert not {"heretic", "baron"} <= d.in_play


@pytest.mark.parametrize(("loric", "words"), [("gardener", "Storytellers assign the characters"),
                                              ("tor", "not told their character or alignment"),
                                              ("pope", "may be dealt more than once")])
def test_loric_the_deal_cannot_apply_is_said_in_the_notes(loric, words):
    d = deal(8, pool(), 0, [*TB, loric])
    check(d, [*TB, loric], 8)
    assert any(words in n for n in d.notes)


# -- refusals ------------------------------------------------------------------------------------

def test_a_pool_that_cannot_deal_is_explained():
    with pytest.raises(DealError, match=r"The pool needs 2 Outsiders with the Baron but has 1: Saint.*deal by hand, narrow the pool \(`/st pool`\)"):
        deal(7, pool(outsiders=["saint"], minions=["baron"]))
    with pytest.raises(DealError, match="The pool has no Demon"):
        deal(7, pool(demons=[]))
    with pytest.raises(DealError, match="No demon character of the script is left to show the Lunatic"):
        deal(8, pool(outsiders=["lunatic"], minions=["poisoner"], script=[*TB, "lunatic"]), 0, [*TB, "lunatic"])


@pytest.mark.parametrize(("n", "the_pool", "script", "words"), [
    (4, TB, TB, "5 to 15 seated players, not 4"),
    (16, TB, TB, "5 to 15 seated players, not 16"),
    (7, [*TB, "actor"], TB, "The pool names 'actor', which is not an official character"),
    (7, [*TB, "thief"], [*TB, "thief"], "The Thief is a Traveller and is never dealt"),
    (7, [*TB, "sentinel"], [*TB, "sentinel"], "The Sentinel is a Fabled"),
    (7, [*TB, "tor"], [*TB, "tor"], "The Tor is a Loric"),
    (7, [*TB, "vortox"], TB, "The pool names the Vortox, which is not on the script"),
    (7, TB, [*TB, "critic"], "The script names 'critic'"),
])
def test_bad_input_is_refused_in_words(n, the_pool, script, words):
    with pytest.raises(DealError, match=words):
        deal(n, the_pool, 0, script)


def test_a_player_in_two_seats_is_refused():
    with pytest.raises(DealError, match="The player p1 sits in two seats"):
        deal_script(["p0", "p1", "p2", "p1", "p4", "p5", "p6"], TB, random.Random(0), script=TB)


def test_older_spellings_read_as_official_ids():
    d = deal_script(seats(7), ["Scarlet Woman", "imp", *of_team(TB, "townsfolk", "outsider")], random.Random(0),
                    script=[*TB, "scarlet_woman"])
    check(d, TB, 7)
    assert "scarletwoman" in d.in_play


# -- homebrew characters -------------------------------------------------------------------------

def test_a_homebrew_minion_marked_bag_duplicate_fills_every_minion_seat():
    script = SCRIPTS["witchhunt"]
    assert HOMEBREW["witchhunt-witch"].duplicates and of_team(script, "minion") == ["witchhunt-witch"]
    for n in (5, 11, 15):
        d = deal(n, dealable(script), 0, script)
        minions = [s for s in d.seats if s.team == "minion"]
        # Lil' Monsta is the script's only Demon: one Minion more, all of them Witches
        assert len(minions) == CAT.counts[n].minions + 1
        assert {s.character for s in minions} == {"witchhunt-witch"}
        assert all(s.alignment == "evil" for s in minions)


def test_a_homebrew_set_up_change_is_left_to_the_storytellers():
    script = SCRIPTS["stowedaway"]
    five = ["stowedaway-scapegoat", *of_team(script, "townsfolk")[:4]]
    assert "stowedaway-scapegoat" not in five[1:] and HOMEBREW["stowedaway-scapegoat"].setup
    d = deal(7, pool(townsfolk=five, outsiders=[], minions=of_team(script, "minion")[:1],
                     demons=of_team(script, "demon")[:1], script=script), 0, script)
    assert "stowedaway-scapegoat" in d.in_play
    assert any("Scapegoat is homebrew with a set-up change the deal does not know" in n for n in d.notes)


def test_a_homebrew_fabled_in_the_pool_is_refused():
    script = SCRIPTS["offwizard"]
    with pytest.raises(DealError, match="is a Fabled and is never dealt"):
        deal(7, [*dealable(script), "offwizard-offwizard"], 0, script)
