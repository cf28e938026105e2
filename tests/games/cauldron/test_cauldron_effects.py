"""Every ingredient as primary and as secondary, the blocker variants and the Thistle threshold."""

from __future__ import annotations

import pytest
import support.cauldron_helpers as h

from games.cauldron import GAME, thistle_threshold
from games.cauldron.data import DATA
from games.engine import ScriptedRng


def _ok(state, events):
    assert GAME.check_invariants(state, events) == []


# ----------------------------------------------------------------- Brigid's Blessing


def test_brigid_primary_two_milk_reveals_one_and_bottoms_the_other():
    state, events = h.round_with(["brigid", "brigid", "brigid", "ceol", "ceol"], center=["milk", "milk", "blood"])
    _ok(state, events)
    assert state.revealed == ["cc01"]
    assert state.deck[0] == "cc03" and state.deck[-1] == "cc02"
    assert state.remaining() == 16
    eff = [e for e in h.effects(events) if e["ingredient"] == "brigid"]
    assert eff[0]["role"] == "primary" and eff[0]["shown"] == ["milk", "milk"]
    assert state.phase == "day"


@pytest.mark.parametrize("top", [["milk", "blood"], ["blood", "milk"], ["blood", "blood"]])
def test_brigid_primary_otherwise_returns_both_to_the_bottom(top):
    state, events = h.round_with(["brigid"] * 3 + ["ceol"] * 2, center=[*top, "milk"])
    _ok(state, events)
    assert state.revealed == []
    assert state.deck[-2:] == ["cc01", "cc02"]
    assert state.deck[0] == "cc03"


def test_brigid_secondary_repeats_the_primary():
    # Thistle primary (3 > threshold 2 at five players: Milk purged) happens twice.
    state, events = h.round_with(["thistle"] * 3 + ["brigid"] * 2, center=["milk", "milk", "milk", "blood"])
    _ok(state, events)
    thistles = [e for e in h.effects(events) if e["ingredient"] == "thistle"]
    assert [e["rep"] for e in thistles] == [1, 2]
    assert state.out == ["cc01", "cc02", "cc03"]
    assert "cc04" in state.deck


def test_brigid_secondary_does_not_repeat_ceol():
    state, events = h.round_with(["ceol"] * 3 + ["brigid"] * 2)
    assert len([e for e in h.effects(events) if e["ingredient"] == "ceol"]) == 1
    brigid = [e for e in events if e.type == "effect" and e.data["ingredient"] == "brigid"][0]
    assert "not repeated" in brigid.text


def test_brigid_secondary_repeats_gaze_as_two_choice_phases():
    state, events = h.round_with(["gaze"] * 3 + ["brigid"] * 2, center=["blood"] * 3)
    assert state.phase == "gaze"
    first = state.phase_seq
    for pid in ["p1", "p2", "p3"]:
        state = h.act(state, {"type": "gaze", "player": pid, "choice": "bottom"}).state
    assert state.phase == "gaze" and state.phase_seq == first + 1
    for pid in ["p1", "p2", "p3"]:
        state = h.act(state, {"type": "gaze", "player": pid, "choice": "discard"}).state
    assert state.phase == "day"
    assert len(state.out) == 3
    assert all(len(state.knowledge[p]) == 2 for p in ["p1", "p2", "p3"])


def test_brigid_secondary_repeats_yew_with_a_second_poison():
    state, _ = h.round_with(["yew"] * 3 + ["brigid"] * 2)
    assert state.phase == "yew"
    for pid in ["p1", "p2", "p3"]:
        state = h.act(state, {"type": "yew_vote", "player": pid, "target": "gaze"}).state
    assert state.phase == "yew" and "gaze" not in state.yew_options
    for pid in ["p1", "p2", "p3"]:
        state = h.act(state, {"type": "yew_vote", "player": pid, "target": "thistle"}).state
    assert state.phase == "day"
    assert state.poison == ["gaze", "thistle"] and state.poison_round == 2


# ----------------------------------------------------------------- Cailleach's Gaze


def test_gaze_primary_each_caster_sees_a_card_and_chooses():
    rng = ScriptedRng(choices=[0, 0, 0])  # each gazer takes the first hidden card left
    state, events = h.round_with(["gaze"] * 3 + ["ceol"] * 2, center=["milk", "blood", "milk"], rng=rng)
    assert state.phase == "gaze"
    assert state.gaze_pending == {"p1": "cc01", "p2": "cc02", "p3": "cc03"}
    private = {e.audience.id: e.data["kind"] for e in events if e.type == "gaze"}
    assert private == {"p1": "milk", "p2": "blood", "p3": "milk"}
    assert [e.opens_phase for e in events if e.type == "gaze_open"] == [True]
    prompt = GAME.prompts(state, "p2")[0]
    assert prompt.action == "gaze" and "Blood" in prompt.text
    assert GAME.prompts(state, "p4") == []
    state = h.act(state, {"type": "gaze", "player": "p1", "choice": "discard"}).state
    out = h.act(state, {"type": "gaze", "player": "p1", "choice": "bottom"})  # changed their mind
    assert "change" in out.reply
    state = out.state
    state = h.act(state, {"type": "gaze", "player": "p2", "choice": "discard"}).state
    out = h.act(state, {"type": "gaze", "player": "p3", "choice": "bottom"})
    state = out.state
    _ok(state, out.events)
    assert state.phase == "day"
    assert state.out == ["cc02"]
    assert state.deck[-2:] == ["cc01", "cc03"]
    assert state.out_known == []  # no one else saw it
    gaze = [e for e in h.effects(out.events) if e["ingredient"] == "gaze"][0]
    assert gaze["bottom"] == 2 and gaze["discarded"] == 1
    assert [k.fate for k in state.knowledge["p2"]] == ["discarded"]
    assert [k.fate for k in state.knowledge["p1"]] == ["bottom"]


def test_gaze_timeout_sends_undecided_cards_to_the_bottom():
    rng = ScriptedRng(choices=[0, 0, 0])
    state, _ = h.round_with(["gaze"] * 3 + ["ceol"] * 2, rng=rng)
    state = h.act(state, {"type": "gaze", "player": "p1", "choice": "discard"}).state
    out = h.timeout(state)
    assert out.state.phase == "day"
    assert out.state.out == ["cc01"]
    assert out.state.deck[-2:] == ["cc02", "cc03"]


def test_gaze_with_more_gazers_than_hidden_cards():
    out = h.new_game(5, hands=h.hands_for(["gaze"] * 3 + ["ceol"] * 2))
    state = out.state
    state.deck, state.revealed = state.deck[:2], state.deck[2:]  # only 2 hidden cards left
    state, events = h.play_all(state, dict(zip(h.pids(5), ["gaze"] * 3 + ["ceol"] * 2, strict=True)))
    _ok(state, events)
    assert len(state.gaze_pending) == 2
    assert len({*state.gaze_pending.values()}) == 2
    assert len([e for e in events if e.type == "gaze_none"]) == 1


def test_gaze_secondary_peeks_the_top_card_privately():
    state, events = h.round_with(["ceol"] * 3 + ["gaze"] * 2, center=["blood", "milk"])
    _ok(state, events)
    peeks = [e for e in events if e.type == "peek"]
    assert {e.audience.id for e in peeks} == {"p4", "p5"}
    assert all(e.data["kind"] == "blood" for e in peeks)
    assert state.deck[0] == "cc01" and len(state.deck) == 16
    assert state.knowledge["p4"][0].how == "peek" and state.knowledge["p4"][0].fate == "top"
    assert state.knowledge["p1"] == []
    view = GAME.view(state, "p4")
    assert "peeked at the top card" in view.text and "Blood" in view.text


# ----------------------------------------------------------------- Ceol of the Midnight Cairn


@pytest.mark.parametrize("seed", range(6))
def test_ceol_primary_swaps_heroes_among_casters_and_one_spare(seed):
    import random

    before = h.default_heroes(5)
    state, events = h.round_with(["ceol"] * 3 + ["gaze"] * 2, hero_deck=["dullahan"], rng=random.Random(seed))
    _ok(state, events)
    pool = {before["p1"], before["p2"], before["p3"], "dullahan"}
    after = {state.heroes[p] for p in ["p1", "p2", "p3"]}
    assert after < pool
    leftover = (pool - after).pop()
    assert leftover in state.hero_deck and len(state.hero_deck) == 16 - 5
    assert state.heroes["p4"] == before["p4"] and state.heroes["p5"] == before["p5"]
    news = {e.audience.id: e.data for e in events if e.type == "new_hero"}
    assert set(news) == {"p1", "p2", "p3"}
    for pid, data in news.items():
        assert data["hero"] == state.heroes[pid]
        assert data["changed"] == (state.heroes[pid] != before[pid])
        assert GAME.view(state, pid).data["me"]["hero"] == state.heroes[pid]


def test_ceol_changes_someone_for_some_shuffle():
    import random

    changed = 0
    for seed in range(10):
        state, _ = h.round_with(["ceol"] * 3 + ["gaze"] * 2, rng=random.Random(seed))
        changed += sum(state.heroes[p] != h.default_heroes(5)[p] for p in ["p1", "p2", "p3"])
        assert GAME.result(state).players[0].role  # result names the current hero
    assert changed > 0


def test_ceol_with_a_single_singer_and_the_night_timing_out():
    state, events = h.round_with(["ceol"], n=5, hero_deck=["dullahan"], options={"night_timeout": "nothing"})
    assert state.table == ["ceol"]
    assert state.heroes["p1"] in ("balor", "dullahan")
    assert {"balor", "dullahan"} - {state.heroes["p1"]} <= set(state.hero_deck)
    if state.heroes["p1"] == "dullahan":
        assert state.hero_changes["p1"][0].after == "dullahan"


def test_ceol_leftover_discard_option_puts_the_leftover_out():
    before = h.default_heroes(5)
    state, events = h.round_with(["ceol"] * 3 + ["gaze"] * 2, hero_deck=["dullahan"],
                                 options={"ceol_leftover": "discard"})
    _ok(state, events)
    pool = {before["p1"], before["p2"], before["p3"], "dullahan"}
    assert len(state.hero_discard) == 1 and state.hero_discard[0] in pool
    assert state.hero_discard[0] not in state.hero_deck and len(state.hero_deck) == 16 - 5 - 1
    assert {state.heroes[p] for p in ["p1", "p2", "p3"]} == pool - set(state.hero_discard)
    ceol = [e for e in events if e.type == "effect" and e.data["ingredient"] == "ceol"][0]
    assert "discarded" in ceol.text and ceol.data["spare"] is True
    assert not any(hero.name in ceol.text for hero in DATA.heroes)
    assert GAME.view(state, None).data["table"]["hero_deck"]["discarded"] == 1


def test_ceol_with_an_empty_hero_deck_shuffles_the_singers_only():
    plays = ["ceol"] * 3 + ["gaze"] * 2
    out = h.new_game(5, hands=h.hands_for(plays), options={"ceol_leftover": "discard"})
    state = out.state
    state.hero_discard, state.hero_deck = list(state.hero_deck), []
    before = dict(state.heroes)
    state, events = h.play_all(state, dict(zip(h.pids(5), plays, strict=True)))
    _ok(state, events)
    assert state.primary == "ceol"
    assert {state.heroes[p] for p in ["p1", "p2", "p3"]} == {before[p] for p in ["p1", "p2", "p3"]}
    ceol = [e for e in events if e.type == "effect" and e.data["ingredient"] == "ceol"][0]
    assert ceol.data["spare"] is False and "hero deck is empty" in ceol.text
    assert state.hero_deck == [] and len(state.hero_discard) == 16 - 5


def test_a_lone_singer_keeps_their_hero_when_the_hero_deck_is_empty():
    out = h.new_game(5, hands=h.hands_for(["ceol"] * 5), options={"ceol_leftover": "discard",
                                                                  "night_timeout": "nothing"})
    state = out.state
    state.hero_discard, state.hero_deck = list(state.hero_deck), []
    state = h.act(state, {"type": "play", "player": "p2", "card": "ceol"}).state
    r = h.timeout(state)
    _ok(r.state, r.events)
    assert r.state.primary == "ceol" and r.state.heroes == h.default_heroes(5)
    news = [e for e in r.events if e.type == "new_hero"]
    assert [(e.audience.id, e.data["changed"]) for e in news] == [("p2", False)]


def test_ceol_secondary_does_nothing():
    state, events = h.round_with(["brigid"] * 3 + ["ceol"] * 2, center=["blood", "milk"])
    assert state.heroes == h.default_heroes(5)
    ceol = [e for e in h.effects(events) if e["ingredient"] == "ceol"]
    assert ceol[0]["role"] == "secondary"
    assert not [e for e in events if e.type == "new_hero"]


# ----------------------------------------------------------------- Faerie Thistle


@pytest.mark.parametrize("n", range(5, 11))
def test_thistle_threshold_formula(n):
    assert thistle_threshold(n) == max(2, (n - 1) // 2)
    assert thistle_threshold(n) == {5: 2, 6: 2, 7: 3, 8: 3, 9: 4, 10: 4}[n]


@pytest.mark.parametrize("n", range(5, 11))
def test_thistle_at_the_threshold_purges_blood(n):
    t = thistle_threshold(n)
    state, events = h.round_with(["thistle"] * t, n=n, center=["blood", "milk"],
                                 options={"night_timeout": "nothing"})
    _ok(state, events)
    assert state.out == ["cc01"] and state.out_known == ["cc01"]
    assert "cc02" in state.deck and len(state.deck) == 15
    eff = [e for e in h.effects(events) if e["ingredient"] == "thistle"][0]
    assert eff["thistles"] == t and eff["threshold"] == t and eff["discarded"] == 1


@pytest.mark.parametrize("n", range(5, 11))
def test_thistle_above_the_threshold_purges_milk(n):
    t = thistle_threshold(n)
    state, events = h.round_with(["thistle"] * (t + 1), n=n, center=["blood", "milk"],
                                 options={"night_timeout": "nothing"})
    _ok(state, events)
    assert state.out == ["cc02"]
    assert "cc01" in state.deck


def test_thistle_primary_both_purged():
    state, _ = h.round_with(["thistle"] * 2, n=5, center=["blood", "blood"], options={"night_timeout": "nothing"})
    assert state.out == ["cc01", "cc02"] and state.remaining() == 14


def test_thistle_secondary_discards_the_top_card_unseen():
    state, events = h.round_with(["ceol"] * 3 + ["thistle"] * 2, center=["milk"])
    _ok(state, events)
    assert state.out == ["cc01"] and state.out_known == []
    thistle = [e for e in events if e.type == "effect" and e.data["ingredient"] == "thistle"][0]
    assert "Milk" not in thistle.text and "top" not in thistle.data and "shown" not in thistle.data
    assert any(e.type == "new_hero" for e in events)  # Ceol was not blocked by default


# ----------------------------------------------------------------- Wolfbane Root and the blockers


def test_wolfbane_primary_everyone_discards_a_random_card():
    state, events = h.round_with(["wolfbane"] * 3 + ["ceol"] * 2)
    _ok(state, events)
    assert all(len(state.hands[p]) == 1 for p in h.pids(5))
    assert len(state.discard) == 5
    assert len([e for e in events if e.type == "wolfbane"]) == 5
    eff = [e for e in h.effects(events) if e["ingredient"] == "wolfbane"][0]
    assert sorted(eff["lost"]) == sorted(state.discard)


@pytest.mark.parametrize(("blocker", "secondary", "blocked"), [
    ("wolfbane", "wolfbane", True), ("wolfbane", "thistle", False),
    ("thistle", "wolfbane", False), ("thistle", "thistle", True),
    ("both", "wolfbane", True), ("both", "thistle", True),
])
def test_blocker_option(blocker, secondary, blocked):
    state, events = h.round_with(["brigid"] * 3 + [secondary] * 2, center=["milk", "milk", "milk"],
                                 options={"blocker": blocker})
    _ok(state, events)
    brigid_primary = [e for e in h.effects(events) if e["ingredient"] == "brigid"]
    assert (brigid_primary == []) is blocked
    assert (state.revealed == []) is blocked
    if secondary == "thistle":
        assert state.out == ["cc01"]  # the Thistle secondary always discards the top card


def test_wolfbane_secondary_without_primary_blocks_nothing():
    state, events = h.round_with(["wolfbane", "wolfbane", "brigid", "brigid", "ceol"], center=["milk", "milk"])
    assert state.primary is None and state.secondaries == ["brigid", "wolfbane"]
    texts = " ".join(e.text for e in events if e.type == "effect")
    assert "no primary to block" in texts and "no primary to repeat" in texts


# ----------------------------------------------------------------- Yew's Quiet Draught


def test_yew_primary_vote_majority_poisons_for_the_next_round():
    state, events = h.round_with(["yew"] * 3 + ["ceol"] * 2)
    assert state.phase == "yew" and state.yew_voters == ["p1", "p2", "p3"]
    prompt = GAME.prompts(state, "p1")[0]
    assert prompt.vote and prompt.fields[0].name == "target"
    assert [c.value for c in prompt.fields[0].choices] == ["brigid", "gaze", "ceol", "thistle", "wolfbane"]
    assert GAME.prompts(state, "p4") == []
    state = h.act(state, {"type": "yew_vote", "player": "p1", "target": "gaze"}).state
    state = h.act(state, {"type": "yew_vote", "player": "p2", "target": "gaze"}).state
    out = h.act(state, {"type": "yew_vote", "player": "p3", "target": "brigid"})
    _ok(out.state, out.events)
    assert out.state.poison == ["gaze"] and out.state.poison_round == 2
    assert out.state.phase == "day"


def test_yew_vote_tie_is_drawn_at_random():
    state, _ = h.round_with(["yew"] * 3 + ["ceol"] * 2)
    for pid, target in zip(["p1", "p2"], ["brigid", "gaze"], strict=True):
        state = h.act(state, {"type": "yew_vote", "player": pid, "target": target}).state
    results = set()
    for pick in (0, 1, 2):
        out = h.act(state, {"type": "yew_vote", "player": "p3", "target": "ceol"}, ScriptedRng(choices=[pick]))
        results.add(out.state.poison[0])
        eff = [e for e in h.effects(out.events) if e["ingredient"] == "yew"][0]
        assert eff["tied"] == ["brigid", "gaze", "ceol"]
    assert results == {"brigid", "gaze", "ceol"}


def test_yew_vote_timeout_without_votes_poisons_nothing():
    state, _ = h.round_with(["yew"] * 3 + ["ceol"] * 2)
    out = h.timeout(state)
    assert out.state.poison == [] and out.state.phase == "day"


def test_yew_vote_timeout_counts_the_votes_cast():
    state, _ = h.round_with(["yew"] * 3 + ["ceol"] * 2)
    state = h.act(state, {"type": "yew_vote", "player": "p2", "target": "wolfbane"}).state
    out = h.timeout(state)
    assert out.state.poison == ["wolfbane"]


def test_poison_timing_across_rounds():
    state, _ = h.round_with(["yew"] * 3 + ["ceol", "ceol"],
                            draw=["brigid", "brigid", "brigid", "gaze", "brigid"])
    for pid in ["p1", "p2", "p3"]:
        state = h.act(state, {"type": "yew_vote", "player": pid, "target": "gaze"}).state
    state, events = h.end_day(state)
    assert state.round == 2 and state.phase == "night"
    night = [e for e in events if e.type == "night"][0]
    assert night.data["poisoned_ingredients"] == ["gaze"]
    # night 2: p4 casts the poisoned Gaze, the others do not
    plays = {pid: h.pick(state, pid, avoid=("gaze",)) for pid in ["p1", "p2", "p3", "p5"]}
    plays["p4"] = "gaze"
    state, events = h.play_all(state, plays)
    assert state.sit_out == {"p4": 3}
    assert [e.audience.id for e in events if e.type == "poisoned"] == ["p4"]
    assert state.poison == []  # the status lasted one round
    state, _ = h.end_day(h.timeout(state).state if state.phase != "day" else state)
    # night 3: p4 cannot cast; casting Gaze is harmless now
    assert state.round == 3 and state.phase == "night"
    assert GAME.prompts(state, "p4") == []
    assert len(state.hands["p4"]) == 3
    before = state.model_dump()
    from games.engine import IllegalAction

    with pytest.raises(IllegalAction) as err:
        h.act(state, {"type": "play", "player": "p4", "card": state.hands["p4"][0]})
    assert err.value.code == "poisoned" and state.model_dump() == before
    plays = {pid: h.pick(state, pid) for pid in ["p1", "p2", "p3", "p5"]}
    if "gaze" in state.hands["p5"]:
        plays["p5"] = "gaze"
    state, events = h.play_all(state, plays)  # closes without p4
    assert len(state.table) == 4 and "p4" not in state.played_by
    assert all(r != 4 for r in state.sit_out.values())
    while state.phase != "night":
        state = h.timeout(state).state
    assert state.round == 4 and GAME.prompts(state, "p4")[0].action == "play"


def test_yew_secondary_blood_poisons_the_drinkers_next_round():
    state, events = h.round_with(["ceol"] * 3 + ["yew"] * 2, center=["blood"])
    _ok(state, events)
    assert state.sit_out == {"p4": 2, "p5": 2}
    assert state.deck[0] == "cc01" and len(state.deck) == 16
    eff = [e for e in h.effects(events) if e["ingredient"] == "yew"][0]
    assert eff["top"] == "blood" and eff["poisoned"] == 2
    state, events = h.end_day(state)
    night = [e for e in events if e.type == "night"][0]
    assert night.data["casting"] == 3 and night.data["poisoned_players"] == 2
    assert {e.audience.id for e in events if e.type == "sit_out"} == {"p4", "p5"}


def test_yew_secondary_milk_is_safe():
    state, events = h.round_with(["ceol"] * 3 + ["yew"] * 2, center=["milk"])
    assert state.sit_out == {}
    assert [e for e in h.effects(events) if e["ingredient"] == "yew"][0]["top"] == "milk"


def test_wolfbane_reaches_a_poisoned_player_with_a_full_hand():
    out = h.new_game(5, hands=h.hands_for(["wolfbane"] * 3 + ["gaze", "ceol"]))
    state = out.state
    state.sit_out = {"p4": 1}  # p4 is poisoned tonight
    state, events = h.play_all(state, {"p1": "wolfbane", "p2": "wolfbane", "p3": "wolfbane", "p5": "ceol"})
    _ok(state, events)
    assert state.primary == "wolfbane" and "p4" not in state.played_by
    assert len(state.hands["p4"]) == 2  # sat out with 3 cards, lost one at random
    assert all(len(state.hands[p]) == 1 for p in ["p1", "p2", "p3", "p5"])
