"""Setup, data, ranking and tie rules, night/day flow, the end condition, removal, errors, views."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
import support.cauldron_helpers as h

from games.cauldron import GAME, outcome_for, rank
from games.cauldron.data import DATA, DATA_DIR, evil_count, load, parse
from games.engine import DataError, IllegalAction, ScriptedRng, SetupError


def _ok(state, events):
    assert GAME.check_invariants(state, events) == []


# ----------------------------------------------------------------- data


def test_every_data_entry_loads():
    data = load()
    assert [i.key for i in data.ingredients] == ["brigid", "gaze", "ceol", "thistle", "wolfbane", "yew"]
    assert all(i.copies == 10 for i in data.ingredients)
    for i in data.ingredients:
        assert len(i.short) <= 100 and len(i.name) <= 100
    teams = Counter(hero.team for hero in data.heroes)
    assert teams == {"good": 10, "evil": 6}
    for hero in data.heroes:
        assert data.hero(hero.key) == hero and hero.legend


@pytest.mark.parametrize("n", range(5, 11))
def test_hero_deck_covers_every_table(n):
    teams = Counter(hero.team for hero in DATA.heroes)
    assert teams["evil"] >= evil_count(n) and teams["good"] >= n - evil_count(n)
    assert len(DATA.heroes) - n >= 1  # Ceol always has a spare


def _raw():
    return {"ingredients": json.loads((DATA_DIR / "ingredients.json").read_text()),
            "heroes": json.loads((DATA_DIR / "heroes.json").read_text())}


@pytest.mark.parametrize("breakage", ["dup_hero", "few_evil", "long_short", "wrong_set", "bad_team"])
def test_bad_data_raises_data_error(breakage):
    raw = _raw()
    if breakage == "dup_hero":
        raw["heroes"].append(dict(raw["heroes"][0]))
    elif breakage == "few_evil":
        raw["heroes"] = [x for x in raw["heroes"] if x["team"] == "good"] + [raw["heroes"][-1]]
    elif breakage == "long_short":
        raw["ingredients"][0]["short"] = "x" * 101
    elif breakage == "wrong_set":
        raw["ingredients"] = raw["ingredients"][:5]
    else:
        raw["heroes"][0]["team"] = "neutral"
    with pytest.raises(DataError):
        parse(raw)


def test_unreadable_data_dir_raises_data_error(tmp_path):
    with pytest.raises(DataError):
        load(tmp_path)


# ----------------------------------------------------------------- setup


@pytest.mark.parametrize("n", range(5, 11))
def test_random_setup_deals_floor_third_evil(n):
    for seed in range(5):
        out = GAME.setup(h.players(n), {}, random.Random(seed))
        s = out.state
        _ok(s, out.events)
        teams = Counter(DATA.hero(k).team for k in s.heroes.values())
        assert teams["evil"] == evil_count(n)
        assert len(s.hero_deck) == 16 - n
        assert all(len(hand) == 3 for hand in s.hands.values())
        assert len(s.draw) == 60 - 3 * n
        assert Counter(s.kinds.values()) == {"milk": 8, "blood": 8}
        assert s.phase == "night" and s.round == 1
        night = [e for e in out.events if e.type == "night"][0]
        assert night.opens_phase
        heroes = {e.audience.id: e.data["hero"] for e in out.events if e.type == "hero"}
        assert heroes == s.heroes


def test_evil_heroes_learn_each_other_by_default():
    out = h.new_game(7, heroes=None, seed=3)
    s = out.state
    evil = sorted(p for p, k in s.heroes.items() if DATA.hero(k).team == "evil")
    assert len(evil) == 2
    cards = {e.audience.id: e for e in out.events if e.type == "hero"}
    assert cards[evil[0]].data["allies"] == [evil[1]]
    assert s.name(evil[1]) in cards[evil[0]].text
    good = next(p for p in s.heroes if p not in evil)
    assert cards[good].data["allies"] == [] and "allies" not in cards[good].text
    assert GAME.view(s, evil[0]).data["me"]["allies"] == [evil[1]]


def test_evil_learn_nothing_with_the_option_off():
    out = h.new_game(7, heroes=None, seed=3, options={"evil_know_each_other": False})
    assert all(e.data["allies"] == [] for e in out.events if e.type == "hero")
    assert out.state.evil_allies == {}


def test_lone_evil_is_told_so():
    out = h.new_game(5)
    card = [e for e in out.events if e.type == "hero" and e.audience.id == "p1"][0]
    assert "alone" in card.text


@pytest.mark.parametrize("forced", [
    {"heroes": {"p9": "balor"}}, {"heroes": {"p1": "nobody"}}, {"heroes": {"p1": "balor", "p2": "balor"}},
    {"center": ["milk"] * 9}, {"hands": {"p1": ["brigid"]}}, {"hands": {"p1": ["mead", "gaze", "ceol"]}},
    {"draw": ["brigid"] * 11}, {"hero_deck": ["balor"], "heroes": {"p1": "balor"}}, {"colour": "red"},
])
def test_bad_forced_setup_is_refused(forced):
    with pytest.raises(SetupError):
        GAME.setup(h.players(5), {}, random.Random(0), forced)


def test_bad_options_and_player_counts_are_refused():
    with pytest.raises(SetupError):
        GAME.setup(h.players(5), {"night_seconds": 1}, random.Random(0))
    with pytest.raises(SetupError):
        GAME.setup(h.players(5), {"blocker": "yew"}, random.Random(0))
    for n in (4, 11):
        players = h.players(10) + [h.players(1)[0].model_copy(update={"id": "p11"})]
        with pytest.raises(SetupError):
            GAME.setup(players[:n], {}, random.Random(0))


def test_forced_setup_is_applied():
    out = h.new_game(5, hands=h.hands_for(["ceol"] * 5), center=["blood", "milk"], draw=["yew", "yew"],
                     hero_deck=["dullahan"])
    s = out.state
    assert s.hands["p1"][0] == "ceol" and s.draw[:2] == ["yew", "yew"]
    assert h.kinds(s, s.deck[:2]) == ["blood", "milk"] and s.hero_deck[0] == "dullahan"
    assert s.heroes == h.default_heroes(5)


# ----------------------------------------------------------------- ranking and ties


def test_rank_single_primary_and_secondary():
    assert rank(Counter({"brigid": 3, "gaze": 2}), random.Random(0)) == ("brigid", ["gaze"], "")


def test_rank_only_one_ingredient_has_no_secondary():
    assert rank(Counter({"yew": 4}), random.Random(0)) == ("yew", [], "")
    assert rank(Counter(), random.Random(0)) == (None, [], "")


def test_rank_secondary_tie_is_random():
    seen = set()
    for pick in range(3):
        primary, sec, note = rank(Counter({"ceol": 3, "gaze": 1, "yew": 1, "thistle": 1}), ScriptedRng(choices=[pick]))
        assert primary == "ceol" and note == "secondary_random"
        seen.add(sec[0])
    assert seen == {"gaze", "thistle", "yew"}


def test_rank_primary_tie_makes_both_secondary():
    assert rank(Counter({"thistle": 2, "brigid": 2, "ceol": 1}), random.Random(0)) == \
        (None, ["brigid", "thistle"], "primary_tie")


def test_rank_three_way_tie_ignores_everything():
    assert rank(Counter({"thistle": 2, "brigid": 2, "ceol": 2}), random.Random(0)) == (None, [], "no_effects")
    assert rank(Counter({k: 1 for k in h.ORDER[:5]}), random.Random(0)) == (None, [], "no_effects")


def test_secondary_tie_in_play_follows_the_draw():
    out_gaze, ev = h.round_with(["ceol"] * 3 + ["gaze", "thistle"], rng=ScriptedRng(choices=[0]))
    assert out_gaze.secondaries == ["gaze"] and out_gaze.out == []
    out_thistle, ev2 = h.round_with(["ceol"] * 3 + ["gaze", "thistle"], rng=ScriptedRng(choices=[1]))
    assert out_thistle.secondaries == ["thistle"] and out_thistle.out == ["cc01"]
    reveal = [e for e in ev2 if e.type == "reveal"][0]
    assert reveal.data["tie"] == "secondary_random" and "random" in reveal.text


def test_primary_tie_in_play_resolves_both_secondaries():
    state, events = h.round_with(["brigid", "brigid", "thistle", "thistle", "ceol"], center=["milk", "milk"])
    _ok(state, events)
    assert state.primary is None and state.secondaries == ["brigid", "thistle"]
    assert state.out == ["cc01"] and state.revealed == []
    assert [e["ingredient"] for e in h.effects(events)] == ["brigid", "thistle"]


def test_three_way_tie_in_play_changes_nothing():
    state, events = h.round_with(["brigid", "gaze", "ceol", "thistle", "wolfbane"])
    _ok(state, events)
    assert h.effects(events) == [] and len(state.deck) == 16
    reveal = [e for e in events if e.type == "reveal"][0]
    assert reveal.data["tie"] == "no_effects"


def test_reveal_shows_the_cards_shuffled_without_owners():
    state, events = h.round_with(["brigid"] * 3 + ["ceol"] * 2)
    reveal = [e for e in events if e.type == "reveal"][0]
    assert reveal.audience.kind == "public" and reveal.pause > 0
    assert sorted(reveal.data["played"]) == sorted(["brigid"] * 3 + ["ceol"] * 2)
    assert reveal.data["primary"] == "brigid" and reveal.data["secondaries"] == ["ceol"]
    for p in state.players:
        assert p.name not in reveal.text and p.id not in json.dumps(reveal.data)


# ----------------------------------------------------------------- night and day flow


def test_players_can_change_their_card_until_the_night_closes():
    out = h.new_game(5, hands=h.hands_for(["brigid"] * 5))
    s = out.state
    r = h.act(s, {"type": "play", "player": "p1", "card": "brigid"})
    assert "change" in r.reply
    r = h.act(r.state, {"type": "play", "player": "p1", "card": s.hands["p1"][1]})
    assert r.state.chosen["p1"] == s.hands["p1"][1] and "changed" in r.reply
    assert "(you can change it)" in GAME.prompts(r.state, "p1")[0].text


@pytest.mark.parametrize("mode", ["random", "nothing"])
def test_night_timeout(mode):
    out = h.new_game(5, options={"night_timeout": mode})
    s = h.act(out.state, {"type": "play", "player": "p1", "card": out.state.hands["p1"][0]}).state
    r = h.timeout(s)
    _ok(r.state, r.events)
    if mode == "random":
        assert len(r.state.table) == 5
        assert {e.audience.id for e in r.events if e.type == "auto_cast"} == {"p2", "p3", "p4", "p5"}
    else:
        assert r.state.table == [out.state.hands["p1"][0]]
        assert all(len(r.state.hands[p]) == 3 for p in ["p2", "p3", "p4", "p5"])


def test_day_ends_when_everyone_pressed():
    state, _ = h.round_with(["ceol"] * 5)
    assert state.phase == "day"
    prompt = GAME.prompts(state, "p1")[0]
    assert prompt.action == "end_discussion" and prompt.fields == [] and prompt.submit_label == "End discussion"
    for pid in h.pids(4):
        r = h.act(state, {"type": "end_discussion", "player": pid})
        state = r.state
        assert state.phase == "day"
    assert GAME.prompts(state, "p1") == []
    with pytest.raises(IllegalAction) as err:
        h.act(state, {"type": "end_discussion", "player": "p1"})
    assert err.value.code == "already_done"
    r = h.act(state, {"type": "end_discussion", "player": "p5"})
    assert r.state.phase == "night" and r.state.round == 2
    assert r.state.discard == ["ceol"] * 5 and r.state.table == []
    assert all(len(hand) == 3 for hand in r.state.hands.values())
    _ok(r.state, r.events)


def test_day_timeout_starts_the_night():
    state, _ = h.round_with(["ceol"] * 5)
    r = h.timeout(state)
    assert r.state.phase == "night" and r.state.round == 2


def test_table_stays_visible_all_day():
    state, _ = h.round_with(["ceol"] * 3 + ["gaze"] * 2)
    public = GAME.view(state, None)
    assert sorted(public.data["table"]["table"]) == sorted(["ceol"] * 3 + ["gaze"] * 2)
    assert "On the table" in public.text


def test_reshuffle_when_the_draw_pile_runs_dry():
    out = h.new_game(5)
    s = out.state
    s.discard, s.draw = s.draw[2:], s.draw[:2]
    s, events = h.play_all(s, {p: s.hands[p][0] for p in h.pids(5)})
    s, events = h.end_day(s) if s.phase == "day" else (s, events)
    while s.phase != "night":
        r = h.timeout(s)
        s, events = r.state, events + r.events
    assert any(e.type == "reshuffle" for e in events)
    assert all(len(hand) == 3 for hand in s.hands.values())
    assert s.discard == []
    _ok(s, [])


def test_stale_and_wrong_phase_actions_change_nothing():
    out = h.new_game(5)
    s = out.state
    before = s.model_dump()
    cases = [
        ({"type": "end_discussion", "player": "p1"}, "wrong_phase"),
        ({"type": "gaze", "player": "p1", "choice": "bottom"}, "wrong_phase"),
        ({"type": "yew_vote", "player": "p1", "target": "gaze"}, "wrong_phase"),
        ({"type": "play", "player": "p1", "card": "mead"}, "unknown_card"),
        ({"type": "play", "player": "p9", "card": "gaze"}, "not_a_player"),
        ({"type": "play", "player": "p1"}, "malformed_action"),
        ({"type": "dance", "player": "p1"}, "malformed_action"),
        ({"type": "play", "card": "gaze"}, "not_a_player"),
        ({"type": "play", "player": "p1", "card": s.hands["p1"][0], "phase_seq": s.phase_seq - 1}, "stale_phase"),
        ({"type": "phase_timeout", "phase_seq": s.phase_seq + 3}, "stale_phase"),
        ({"type": "remove_player", "target": "p9"}, "not_a_player"),
    ]
    missing = next(k for k in h.ORDER if k not in s.hands["p1"])
    cases.append(({"type": "play", "player": "p1", "card": missing}, "not_in_hand"))
    for action, code in cases:
        with pytest.raises(IllegalAction) as err:
            h.act(s, action)
        assert err.value.code == code, action
        assert str(err.value)
        assert s.model_dump() == before


def test_choice_errors():
    state, _ = h.round_with(["yew"] * 3 + ["ceol"] * 2)
    with pytest.raises(IllegalAction) as err:
        h.act(state, {"type": "yew_vote", "player": "p4", "target": "gaze"})
    assert err.value.code == "not_a_voter"
    with pytest.raises(IllegalAction) as err:
        h.act(state, {"type": "yew_vote", "player": "p1", "target": "yew"})
    assert err.value.code == "bad_target"
    state, _ = h.round_with(["gaze"] * 3 + ["ceol"] * 2)
    with pytest.raises(IllegalAction) as err:
        h.act(state, {"type": "gaze", "player": "p5", "choice": "bottom"})
    assert err.value.code == "no_pending_choice"
    with pytest.raises(IllegalAction) as err:
        h.act(state, {"type": "gaze", "player": "p1", "choice": "eat"})
    assert err.value.code == "malformed_action"


# ----------------------------------------------------------------- the end


def _near_end(rest: list[str], plays: list[str], options=None, n=5):
    """A game whose deck is down to ``rest`` (top first) before the first night resolves."""
    milk_out = 8 - rest.count("milk")
    blood_out = 8 - rest.count("blood")
    center = rest + ["milk"] * milk_out + ["blood"] * blood_out
    out = h.new_game(n, hands=h.hands_for(plays, n), center=center, options=options)
    s = out.state
    s.out = s.deck[len(rest):]
    s.deck = s.deck[:len(rest)]
    assert GAME.check_invariants(s, []) == []
    return s


def test_game_ends_exactly_at_five_good_wins():
    s = _near_end(["blood", "blood", "milk", "milk", "milk", "blood"], ["thistle"] * 2 + ["ceol"] * 3,
                  options={"night_timeout": "nothing"})
    r = h.act(s, {"type": "play", "player": "p1", "card": "thistle"})
    r = h.act(r.state, {"type": "play", "player": "p2", "card": "thistle"})
    r = h.timeout(r.state)
    s = r.state
    _ok(s, r.events)
    assert s.finished and s.phase == "game_over" and s.remaining() == 5
    assert s.outcome == "good"  # 3 Milk, 2 Blood: the second Blood was spared by the end
    assert s.winners == [p for p in h.pids(5) if p != "p1"]
    over = [e for e in r.events if e.type == "game_over"]
    assert len(over) == 1 and "Balor" in over[0].text and over[0].data["milk"] == 3
    res = GAME.result(s)
    assert res.finished and res.outcome == "good" and res.players[0].team == "evil"
    assert [e.type for e in r.events].index("game_over") > [e.type for e in r.events].index("effect")


def test_game_ends_exactly_at_five_evil_wins():
    s = _near_end(["milk", "milk", "blood", "blood", "blood", "milk"], ["thistle"] * 3 + ["ceol"] * 2)
    s, events = h.play_all(s, dict(zip(h.pids(5), ["thistle"] * 3 + ["ceol"] * 2, strict=True)))
    _ok(s, events)
    assert s.finished and s.remaining() == 5 and s.outcome == "evil" and s.winners == ["p1"]
    assert [e.type for e in events].count("game_over") == 1


def test_game_end_stops_the_rest_of_the_round():
    # Thistle secondary ends it: the Ceol primary never happens.
    s = _near_end(["milk"] * 6, ["ceol"] * 3 + ["thistle"] * 2)
    s, events = h.play_all(s, dict(zip(h.pids(5), ["ceol"] * 3 + ["thistle"] * 2, strict=True)))
    assert s.finished and s.outcome == "good"
    assert not [e for e in events if e.type == "new_hero"]
    assert s.heroes == h.default_heroes(5)


def test_gaze_discards_stop_at_the_end():
    s = _near_end(["milk", "blood", "blood", "milk", "milk", "milk"], ["gaze"] * 3 + ["ceol"] * 2)
    s, _ = h.play_all(s, dict(zip(h.pids(5), ["gaze"] * 3 + ["ceol"] * 2, strict=True)),
                      ScriptedRng(choices=[1, 1, 1]))
    assert s.phase == "gaze"
    for pid in ["p1", "p2", "p3"]:
        r = h.act(s, {"type": "gaze", "player": pid, "choice": "discard"})
        s = r.state
    _ok(s, r.events)
    assert s.finished and s.remaining() == 5 and len(s.out) == 11
    assert s.outcome == "good"


def test_draw_when_milk_equals_blood():
    s = _near_end(["blood", "milk", "milk", "blood", "blood"], ["thistle"] * 2 + ["ceol"] * 3,
                  options={"end_remaining": 4, "night_timeout": "nothing"})
    s = h.act(s, {"type": "play", "player": "p1", "card": "thistle"}).state
    r = h.timeout(s)
    assert r.state.finished and r.state.outcome == "draw" and r.state.winners == []
    assert "draw" in [e for e in r.events if e.type == "game_over"][0].text


def test_game_ends_when_the_deck_empties_with_too_many_face_up():
    # 6 Milk face up can never fall to 5: the game ends when the last hidden card is discarded.
    out = h.new_game(5, hands=h.hands_for(["thistle"] * 2 + ["ceol"] * 3),
                     center=["blood", "blood"] + ["milk"] * 6, options={"night_timeout": "nothing"})
    s = out.state
    s.deck, s.revealed, s.out = s.deck[:2], s.deck[2:8], s.deck[8:]
    _ok(s, [])
    s, events = h.play_all(s, {"p1": "thistle"})
    r = h.timeout(s)
    s = r.state
    _ok(s, r.events)
    assert s.finished and s.deck == [] and s.remaining() == 6
    assert s.outcome == "good" and "p1" not in s.winners
    over = [e for e in r.events if e.type == "game_over"]
    assert len(over) == 1 and "deck is empty" in over[0].text and over[0].data["milk"] == 6


def test_game_goes_on_while_hidden_cards_remain_with_too_many_face_up():
    out = h.new_game(5, hands=h.hands_for(["thistle"] * 2 + ["ceol"] * 3),
                     center=["blood", "milk", "blood"] + ["milk"] * 6, options={"night_timeout": "nothing"})
    s = out.state
    s.deck, s.revealed, s.out = s.deck[:3], s.deck[3:9], s.deck[9:]
    s = h.act(s, {"type": "play", "player": "p1", "card": "thistle"}).state
    r = h.timeout(s)
    _ok(r.state, r.events)
    assert not r.state.finished and r.state.phase == "day"
    assert len(r.state.deck) == 2 and r.state.remaining() == 8


def test_outcome_for():
    assert outcome_for(3, 2) == "good" and outcome_for(2, 3) == "evil" and outcome_for(2, 2) == "draw"


def test_end_game_by_moderator():
    out = h.new_game(5)
    r = h.act(out.state, {"type": "end_game", "reason": "bedtime"})
    s = r.state
    assert s.finished and s.outcome == "ended" and s.winners == []
    over = r.events[-1]
    assert over.type == "game_over" and "bedtime" in over.text and over.data["heroes"]["p1"] == "balor"
    with pytest.raises(IllegalAction) as err:
        h.act(s, {"type": "end_discussion", "player": "p1"})
    assert err.value.code == "game_over"
    assert GAME.prompts(s, "p1") == [] and GAME.legal_actions(s) == []
    assert GAME.phase_seconds(s) is None


# ----------------------------------------------------------------- removal


def test_remove_during_night_closes_it_when_the_rest_have_cast():
    out = h.new_game(5)
    s, _ = h.play_all(out.state, {p: out.state.hands[p][0] for p in h.pids(4)})
    r = h.act(s, {"type": "remove_player", "target": "p5"})
    s = r.state
    _ok(s, r.events)
    assert s.phase != "night" and len(s.table) == 4 and s.hands["p5"] == []
    assert "p5" in s.removed
    with pytest.raises(IllegalAction) as err:
        h.act(s, {"type": "end_discussion", "player": "p5"})
    assert err.value.code in ("not_in_game", "wrong_phase")
    res = GAME.result(s)
    assert [p.alive for p in res.players] == [True] * 4 + [False]
    with pytest.raises(IllegalAction):
        h.act(s, {"type": "remove_player", "target": "p5"})


def test_remove_during_day_and_choices():
    state, _ = h.round_with(["ceol"] * 5)
    for pid in h.pids(4):
        state = h.act(state, {"type": "end_discussion", "player": pid}).state
    r = h.act(state, {"type": "remove_player", "target": "p5"})
    assert r.state.phase == "night"
    with pytest.raises(IllegalAction) as err:
        h.act(r.state, {"type": "play", "player": "p5", "card": "gaze"})
    assert err.value.code == "not_in_game"
    state, _ = h.round_with(["gaze"] * 3 + ["ceol"] * 2, rng=ScriptedRng(choices=[0, 0, 0]))
    state = h.act(state, {"type": "gaze", "player": "p1", "choice": "discard"}).state
    state = h.act(state, {"type": "gaze", "player": "p2", "choice": "discard"}).state
    r = h.act(state, {"type": "remove_player", "target": "p3"})
    _ok(r.state, r.events)
    assert r.state.phase == "day" and r.state.out == ["cc01", "cc02"] and "cc03" in r.state.deck
    state, _ = h.round_with(["yew"] * 3 + ["ceol"] * 2)
    state = h.act(state, {"type": "yew_vote", "player": "p1", "target": "gaze"}).state
    state = h.act(state, {"type": "yew_vote", "player": "p2", "target": "gaze"}).state
    r = h.act(state, {"type": "remove_player", "target": "p3"})
    assert r.state.phase == "day" and r.state.poison == ["gaze"]


def test_removing_everyone_ends_the_game():
    s = h.new_game(5).state
    for pid in h.pids(5):
        s = h.act(s, {"type": "remove_player", "target": pid}).state
    assert s.finished and s.outcome == "ended"


def test_removed_players_still_win_with_their_team():
    s = _near_end(["milk"] * 6, ["ceol"] * 3 + ["thistle"] * 2)
    s = h.act(s, {"type": "remove_player", "target": "p2"}).state
    s, _ = h.play_all(s, {"p1": "ceol", "p3": "ceol", "p4": "thistle", "p5": "thistle"})
    assert s.outcome == "good" and "p2" in s.winners


# ----------------------------------------------------------------- views and prompts


def test_views_keep_secrets():
    state, _ = h.round_with(["gaze"] * 3 + ["ceol"] * 2, rng=ScriptedRng(choices=[0, 0, 0]))
    hero_names = {hero.name for hero in DATA.heroes}
    public = GAME.view(state, None)
    blob = public.text + json.dumps(public.data)
    assert not any(name in blob for name in hero_names)
    assert "hands" not in public.data and "played_by" not in public.data
    mine = GAME.view(state, "p2")
    assert "Cú Chulainn" in mine.text
    assert mine.data["me"]["gaze_card"] == state.kinds[state.gaze_pending["p2"]]
    others = hero_names - {"Cú Chulainn"}
    assert not any(name in mine.text + json.dumps(mine.data) for name in others)
    assert mine.data["me"]["played"] == "gaze"
    assert "p1" not in json.dumps(mine.data["me"])
    st = GAME.view(state, "storyteller")
    assert st.data["played_by"]["p1"] == "gaze" and st.data["heroes"]["p1"] == "balor"
    assert len(mine.text) <= 1800


def test_my_hand_shows_what_i_gazed_at_and_my_hero_after_ceol():
    state, _ = h.round_with(["gaze"] * 3 + ["ceol"] * 2, center=["blood", "milk", "milk"],
                            rng=ScriptedRng(choices=[0, 0, 0]))
    state = h.act(state, {"type": "gaze", "player": "p1", "choice": "discard"}).state
    mine = GAME.view(state, "p1")
    assert "gazed at a card: 🩸 Blood (you chose to cast it out;" in mine.text
    assert mine.data["me"]["gaze_choice"] == "discard"
    assert "Milk (your choice is pending)" in GAME.view(state, "p2").text
    assert GAME.view(state, "p2").data["me"]["gaze_choice"] is None
    assert GAME.view(state, "p4").data["me"]["seen"] == []
    for pid in ("p2", "p3"):
        state = h.act(state, {"type": "gaze", "player": pid, "choice": "bottom"}).state
    assert "Blood (you cast it out)" in GAME.view(state, "p1").text
    assert [k["fate"] for k in GAME.view(state, "p2").data["me"]["seen"]] == ["bottom"]
    for seed in range(20):  # find a shuffle in which p1's hero changes
        state, _ = h.round_with(["ceol"] * 3 + ["gaze"] * 2, hero_deck=["dullahan"], rng=random.Random(seed))
        if state.heroes["p1"] != "balor":
            break
    new = DATA.hero(state.heroes["p1"])
    mine = GAME.view(state, "p1")
    assert mine.text.startswith(f"You are **{new.name}**")
    assert "Ceol turned you from Balor of the Evil Eye into " + new.name in mine.text
    assert mine.data["me"]["team"] == new.team
    assert "Ceol turned you" not in GAME.view(state, "p4").text


def test_my_hand_shows_my_own_yew_vote_only():
    state, _ = h.round_with(["yew"] * 3 + ["ceol"] * 2)
    state = h.act(state, {"type": "yew_vote", "player": "p1", "target": "thistle"}).state
    assert "Your vote: poison 🌿 Faerie Thistle" in GAME.view(state, "p1").text
    assert GAME.view(state, "p1").data["me"]["yew_vote"] == "thistle"
    for viewer in ("p2", "p4", None):
        view = GAME.view(state, viewer)
        assert "Your vote" not in view.text and "yew_votes" not in view.data
        assert view.data.get("me", {}).get("yew_vote") is None


def test_a_wrong_phase_refusal_reads_as_a_sentence():
    state, _ = h.round_with(["yew"] * 3 + ["ceol"] * 2)
    for action, now in [({"type": "play", "player": "p1", "card": "gaze"}, "the Yew vote"),
                        ({"type": "end_discussion", "player": "p1"}, "the Yew vote"),
                        ({"type": "gaze", "player": "p1", "choice": "bottom"}, "the Yew vote")]:
        with pytest.raises(IllegalAction) as err:
            h.act(state, action)
        assert err.value.code == "wrong_phase" and str(err.value).endswith(f"it is {now}.")
    state, _ = h.round_with(["gaze"] * 3 + ["ceol"] * 2)
    with pytest.raises(IllegalAction) as err:
        h.act(state, {"type": "yew_vote", "player": "p1", "target": "gaze"})
    assert str(err.value) == "Voting to poison is not possible now: it is the Cailleach's Gaze choice."


def test_the_view_shows_the_starting_composition_and_the_threshold():
    for n in (5, 7, 9):
        view = GAME.view(h.new_game(n).state, None)
        assert view.data["table"]["center_start"] == {"milk": 8, "blood": 8}
        assert sum(view.data["table"]["ingredients_start"].values()) == 60
        assert view.data["table"]["thistle_threshold"] == max(2, (n - 1) // 2)
        assert f"The Thistle threshold is {max(2, (n - 1) // 2)}." in view.text
        assert f"({16 - n} spare now)" in view.text


def test_night_prompt_shape():
    out = h.new_game(5, hands={"p1": ["gaze", "gaze", "yew"], **{p: ["ceol", "brigid", "thistle"]
                                                                  for p in h.pids(5)[1:]}})
    prompt = GAME.prompts(out.state, "p1")[0]
    assert prompt.action == "play" and len(prompt.fields) == 1
    field = prompt.fields[0]
    assert field.name == "card"
    assert [c.value for c in field.choices] == ["gaze", "yew"]
    assert field.choices[0].label == "Cailleach's Gaze ×2"
    assert all(len(c.label) <= 100 and len(c.description) <= 100 for c in field.choices)
    assert GAME.phase_seconds(out.state) == 30


def test_phase_seconds_follow_the_options():
    opts = {"night_seconds": 40, "day_seconds": 90, "choice_seconds": 15}
    state, _ = h.round_with(["gaze"] * 3 + ["ceol"] * 2, options=opts)
    assert state.phase == "gaze" and GAME.phase_seconds(state) == 15
    state = h.timeout(state).state
    assert GAME.phase_seconds(state) == 90
    state = h.timeout(state).state
    assert GAME.phase_seconds(state) == 40


def test_rules_summary_fits():
    text = GAME.rules_summary()
    assert len(text) < 1800 and "Thistle" in text


def test_game_over_text_fits_discord():
    out = h.new_game(10)
    r = h.act(out.state, {"type": "end_game"})
    assert len(r.events[-1].text) < 1800


def test_a_night_where_everyone_is_poisoned_passes_at_once():
    state, _ = h.round_with(["ceol"] * 5)
    state.sit_out = {p: 2 for p in h.pids(5)}
    state, events = h.end_day(state)
    assert state.phase == "day" and state.round == 2 and state.table == []
    night = [e for e in events if e.type == "night"][0]
    assert not night.opens_phase and night.data["casting"] == 0
    assert "Nothing falls" in [e for e in events if e.type == "reveal"][0].text
    state, _ = h.end_day(state)
    assert state.phase == "night" and state.round == 3 and state.sit_out == {}


def test_a_removed_gazer_has_no_legal_choice_left():
    state, _ = h.round_with(["gaze"] * 3 + ["ceol"] * 2)
    state = h.act(state, {"type": "remove_player", "target": "p1"}).state
    assert state.phase == "gaze"
    assert {a.player for a in GAME.legal_actions(state)} == {"p2", "p3"}
    assert GAME.prompts(state, "p1") == []
    for action in GAME.legal_actions(state):
        h.act(state, action.model_dump())  # every one is accepted


def test_a_long_memory_still_fits_the_hand_view():
    from games.cauldron.models import Knowledge

    state, _ = h.round_with(["ceol"] * 3 + ["gaze"] * 2)
    state.knowledge["p4"] = [Knowledge(round=r, how="peek", card="cc01", kind="milk") for r in range(1, 60)]
    view = GAME.view(state, "p4")
    assert len(view.text) <= 1800 and "earlier sightings" in view.text and "Night 59" in view.text
    assert len(view.data["me"]["seen"]) == 59
