"""Turns through the Game object: setup, manipulating, advancing, errors, timers, removal, the end."""

from __future__ import annotations

import pytest
import support.castle_helpers as H

from games.castle import GAME
from games.castle.data import CHARACTER, shrine_index
from games.engine import IllegalAction, SetupError
from games.engine.run import start, step


def refused(state, action, code):
    before = state.model_dump_json()
    with pytest.raises(IllegalAction) as info:
        step(GAME, state, action, 7)
    assert info.value.code == code, info.value
    assert str(info.value)  # a sentence a player can read
    assert state.model_dump_json() == before
    return info.value


# ----- setup -----


def test_forced_setup_is_used_exactly():
    state, events = H.new_game(
        face_up=["bell-1", "candle-9"], pawns={"p2": ["book-4"]}, first_player="p3")
    assert state.layout[shrine_index("book-4")] == "crown"
    assert state.face_up[0] and state.face_up[26] and sum(state.face_up) == 2
    assert state.pawns["p2"] == [shrine_index("book-4"), None, None]
    assert state.pawns["p1"] == [None, None, None]  # 12 // 4 = 3 pawns, all in the supply
    assert state.rituals == H.OUTCOMES
    assert state.current == "p3" and state.phase == "turn"
    assert state.characters == H.CHARS4


def test_opening_events_private_characters_with_a_guide():
    state, events = H.new_game()
    privates = [e for e in events if e.audience.kind == "player"]
    assert sorted(e.audience.id for e in privates) == ["p1", "p2", "p3", "p4"]
    by = {e.audience.id: e.text for e in privates}
    assert "Wizard of the Dragon Masters from Kida" in by["p1"] and "home" in by["p1"]
    assert "Cultist of the Wolf Mages" in by["p3"] and "feeding the Monster" in by["p3"]
    assert "the Monster" in by["p4"] and "7000" in by["p4"]
    turn = events[-1]
    assert turn.type == "turn" and turn.opens_phase and turn.image == "tableau"
    assert not GAME.check_invariants(state, events)


@pytest.mark.parametrize("n,pawns", [(4, 3), (5, 2), (6, 2)])
def test_default_pawns_share_the_twelve(n, pawns):
    state, _ = H.new_game(n)
    assert all(len(v) == pawns for v in state.pawns.values())


def test_random_setup_deals_13_characters_and_starts_13_face_up():
    out = start(GAME, H.players(6), {}, 3)
    s = out.state
    assert len(set(s.characters.values())) == 6
    assert sum(s.face_up) == 13 and s.seen == s.face_up
    assert sorted(s.rituals) == sorted(H.OUTCOMES)


def test_deal_with_monster_always_deals_the_monster():
    for seed in range(20):
        s = start(GAME, H.players(4), {"deal": "with_monster"}, seed).state
        assert "monster" in s.characters.values()


def test_monster_is_sometimes_absent_by_default():
    dealt = [("monster" in start(GAME, H.players(4), {}, seed).state.characters.values()) for seed in range(40)]
    assert any(dealt) and not all(dealt)


def test_pawns_start_on_the_tableau_variant():
    s = start(GAME, H.players(5), {"pawns_start": "tableau"}, 4).state
    spots = [w for v in s.pawns.values() for w in v]
    assert None not in spots and len(set(spots)) == 10


@pytest.mark.parametrize("forced,code", [
    ({"layout": [["dragon"] * 9] * 3}, "bad_setup"),
    ({"characters": {"p1": "monster", "p2": "monster", "p3": "wolf_kida", "p4": "eagle_kida"}}, "bad_setup"),
    ({"characters": {"p1": "monster"}}, "bad_setup"),
    ({"face_up": ["lamp-3"]}, "bad_setup"),
    ({"pawns": {"p1": ["bell-1"], "p2": ["bell-1"]}}, "bad_setup"),
    ({"rituals": ["banished"] * 8}, "bad_setup"),
    ({"first_player": "zed"}, "bad_setup"),
    ({"colour": "red"}, "bad_setup"),
])
def test_bad_forced_setup_is_refused(forced, code):
    with pytest.raises(SetupError) as info:
        start(GAME, H.players(4), {}, 1, forced)
    assert info.value.code == code


def test_too_many_pawns_is_refused():
    with pytest.raises(SetupError) as info:
        start(GAME, H.players(5), {"pawns": 3}, 1)
    assert info.value.code == "too_many_pawns"


# ----- manipulating the shrines -----


def test_a_turn_that_picks_up_several_pawns():
    state, _ = H.new_game(face_up=["bell-2"], pawns={"p1": ["bell-1"]})
    out = H.act(state, {"type": "pick_up", "player": "p1", "pawns": [1, 2, 3]})
    state = out.state
    assert [h.pawn for h in state.hand] == [0, 1, 2] and state.pawns["p1"] == [None, None, None]
    assert "picks up 3 pawns" in out.events[0].text
    assert GAME.prompts(state, "p1")[0].action == "place"
    state, ev = H.play(state, [
        {"type": "place", "player": "p1", "row": "bell", "column": 2},  # face up -> down
        {"type": "place", "player": "p1", "row": "book", "column": 4},  # the crown, face up
    ])
    assert state.current == "p1" and len(state.hand) == 1
    assert state.face_up[shrine_index("bell-2")] is False
    assert ev == []  # mid-turn flips are told once, in the next turn's message
    out = H.act(state, {"type": "place", "player": "p1", "row": "candle", "column": 9})
    state = out.state
    assert state.current == "p2" and state.hand == [] and state.turns == 1
    assert sorted(state.pawns["p1"]) == sorted([shrine_index("bell-2"), shrine_index("book-4"),
                                                shrine_index("candle-9")])
    turn = out.events[-1]
    assert turn.type == "turn" and turn.image == "tableau" and turn.opens_phase
    assert "Bell 2 (Kida) down" in turn.text and "Book 4 (Marus) up (Crown)" in turn.text
    assert "Candle 9 (Sorrell) up (Eagle), a pawn on each (pawn moved from Bell 1 (Kida))." in turn.text
    assert state.phase_seq == 2


def test_picked_up_pawn_leaves_its_shrine_free():
    state, _ = H.new_game(pawns={"p1": ["bell-1"], "p2": ["bell-3"]})
    state = H.act(state, {"type": "pick_up", "player": "p1", "pawns": [1]}).state
    # bell-1 is free again: the same pawn may flip it (same_shrine option, on by default)
    state = H.act(state, {"type": "place", "player": "p1", "row": "bell", "column": 1}).state
    assert state.face_up[0] is True and state.pawns["p1"][0] == 0


def test_same_shrine_variant_forbids_returning():
    state, _ = H.new_game(options={"same_shrine": False}, pawns={"p1": ["bell-1"]})
    state = H.act(state, {"type": "pick_up", "player": "p1", "pawns": [1, 2]}).state
    refused(state, {"type": "place", "player": "p1", "row": "bell", "column": 1}, "shrine_taken")
    state = H.act(state, {"type": "place", "player": "p1", "row": "bell", "column": 2}).state
    refused(state, {"type": "place", "player": "p1", "row": "bell", "column": 1}, "shrine_taken")


def test_illegal_flips_of_shrines_with_pawns():
    state, _ = H.new_game(pawns={"p1": ["bell-1"], "p2": ["book-4"]})
    state = H.act(state, {"type": "pick_up", "player": "p1", "pawns": [2]}).state
    err = refused(state, {"type": "place", "player": "p1", "row": "book", "column": 4}, "shrine_taken")
    assert "Bob" in str(err)
    refused(state, {"type": "place", "player": "p1", "row": "bell", "column": 1}, "shrine_taken")  # own pawn


def test_out_of_order_and_malformed_actions_change_nothing():
    state, _ = H.new_game(pawns={"p1": ["bell-1"]})
    refused(state, {"type": "pick_up", "player": "p2", "pawns": [1]}, "not_your_turn")
    refused(state, {"type": "place", "player": "p1", "row": "bell", "column": 2}, "no_pawn_in_hand")
    refused(state, {"type": "pick_up", "player": "p1", "pawns": [4]}, "no_such_pawn")
    refused(state, {"type": "pick_up", "player": "p1", "pawns": [1, 1]}, "duplicate_pawn")
    refused(state, {"type": "pick_up", "player": "p1", "pawns": []}, "malformed_action")
    refused(state, {"type": "place", "player": "p1", "row": "lamp", "column": 2}, "malformed_action")
    refused(state, {"type": "advance", "player": "p1", "card": 9}, "malformed_action")
    refused(state, {"type": "fly", "player": "p1"}, "malformed_action")
    refused(state, {"type": "advance", "player": "zed", "card": 1}, "not_a_player")
    refused(state, {"type": "claim_first", "player": "p1"}, "wrong_phase")
    refused(state, {"type": "advance", "player": "p1", "card": 1, "phase_seq": 0}, "stale_phase")
    state = H.act(state, {"type": "pick_up", "player": "p1", "pawns": [1]}).state
    refused(state, {"type": "pick_up", "player": "p1", "pawns": [2]}, "mid_turn")
    refused(state, {"type": "advance", "player": "p1", "card": 1}, "mid_turn")
    refused(state, {"type": "place", "player": "p1", "row": "bell", "column": 10}, "malformed_action")


# ----- advancing and the end -----


def test_advance_and_already_revealed():
    state, _ = H.new_game()
    out = H.act(state, {"type": "advance", "player": "p1", "card": 8})
    state = out.state
    assert state.revealed[7] and state.current == "p2"
    assert "ritual 8 (bell silent, book closed, candle unlit) face up: **Released**" in out.events[0].text
    refused(state, {"type": "advance", "player": "p2", "card": 8}, "already_revealed")


def all_advances(state, start_player=1, n=4):
    actions = []
    for k in range(8):
        actions.append({"type": "advance", "player": f"p{(start_player - 1 + k) % n + 1}", "card": k + 1})
    return H.play(state, actions)


def test_the_last_outcome_card_casts_the_spell_and_ends_the_game():
    # all shrines face down: silent/closed/unlit = ritual 8 = released
    state, _ = H.new_game(pawns={"p1": ["bell-6"]})
    state, events = all_advances(state)
    assert state.finished and state.phase == "game_over"
    assert state.outcome == "released"
    assert [e.type for e in events[-2:]] == ["spell", "game_over"]
    final = events[-1]
    assert final.image == "tableau"
    for name, title in [("Alice", "Wizard of the Dragon Masters from Kida"), ("Bob", "Wizard of the Eagle Lords"),
                        ("Cara", "Cultist of the Wolf Mages"), ("Dan", "the Monster")]:
        assert f"**{name}**, " in final.text and title in final.text
    assert state.spell.scores == {"p1": 0, "p2": 0, "p3": 1000, "p4": 7000}
    assert state.winners == ["p4"]
    res = GAME.result(state)
    assert res.finished and res.outcome == "released" and res.winners == ["p4"]
    by = {p.id: p for p in res.players}
    assert by["p4"].score == 7000 and by["p4"].alive and not by["p1"].alive
    assert by["p1"].team == "dragon" and by["p4"].team == "monster" and by["p4"].role == "Monster"
    refused(state, {"type": "advance", "player": "p1", "card": 1}, "game_over")
    assert GAME.legal_actions(state) == [] and GAME.prompts(state, "p1") == []


# Every shrine face down: the spell always lands on ritual 8. Alice (Dragon wizard) holds the amulet,
# Cara (Wolf cultist) the crown, Dan (the Monster) the scepter; Bob (Eagle wizard) holds nothing.
# Nobody controls a country (0-0-0 everywhere), so only regalia, domination and feeding score.
END_CASES = {
    "banished": ([], None, {"p1": 1000, "p2": 0, "p3": 1000, "p4": 0}, ["p1", "p3"]),
    "amulet_dominates": (["p2", "p3"], "p1", {"p1": 2000, "p2": 0, "p3": 1000, "p4": 7000}, ["p4"]),
    "crown_dominates": (["p1", "p2"], "p3", {"p1": 0, "p2": 0, "p3": 2000, "p4": 7000}, ["p4"]),
    "scepter_dominates": (["p1", "p2", "p3"], "p4", {"p1": 0, "p2": 0, "p3": 1000, "p4": 7000}, ["p4"]),
    "amulet_devoured": (["p1"], None, {"p1": 0, "p2": 0, "p3": 2000, "p4": 7000}, ["p4"]),
    "crown_devoured": (["p3"], None, {"p1": 1000, "p2": 0, "p3": 1000, "p4": 7000}, ["p4"]),
    "scepter_devoured": ([], None, {"p1": 1000, "p2": 0, "p3": 1000, "p4": 0}, ["p1", "p3"]),
    "released": (["p1", "p2", "p3"], None, {"p1": 0, "p2": 0, "p3": 1000, "p4": 7000}, ["p4"]),
}


@pytest.mark.parametrize("outcome", list(END_CASES))
def test_the_end_under_every_outcome(outcome):
    devoured, dominator, scores, winners = END_CASES[outcome]
    rituals = [o for o in H.OUTCOMES if o != outcome] + [outcome]
    state, _ = H.new_game(rituals=rituals, pawns={"p1": ["bell-6"], "p3": ["book-4"], "p4": ["candle-5"]})
    state, events = all_advances(state)
    sp = state.spell
    assert state.outcome == outcome and sp.ritual == 7
    assert sorted(sp.devoured) == devoured and sp.dominator == dominator
    assert sp.scores == scores and sorted(state.winners) == winners
    res = GAME.result(state)
    assert sorted(res.winners) == winners
    assert {p.id: p.score for p in res.players} == scores
    assert {p.id: p.alive for p in res.players} == {p: p not in devoured for p in ("p1", "p2", "p3", "p4")}
    final = events[-1].text
    for pid, name in zip(("p1", "p2", "p3", "p4"), H.NAMES, strict=False):
        line = final.split(f"**{name}**, ")[1].split("\n")[0]
        assert f": **{scores[pid]}**" in line
        assert ("· devoured" in line) == (pid in devoured)
        assert ("· dominated the Monster" in line) == (pid == dominator)
    assert "✗" in final  # missed objectives are listed too
    # the first line says who wins and with how many points
    headline = final.splitlines()[0]
    assert headline.startswith("🏆 ") and f"**{max(scores.values())} points**" in headline
    assert all(f"**{dict(zip(('p1', 'p2', 'p3', 'p4'), H.NAMES, strict=False))[w]}**" in headline for w in winners)


def test_a_full_scored_game_with_domination():
    # Bell rows 1-5 up (ringing), book 1-5 up (open), candle 1-5 up (lit) -> ritual 1; put crown_dominates there
    up = [f"{r}-{c}" for r in ("bell", "book", "candle") for c in range(1, 6)]
    rituals = ["crown_dominates", "banished", "amulet_dominates", "scepter_dominates",
               "amulet_devoured", "crown_devoured", "scepter_devoured", "released"]
    state, _ = H.new_game(face_up=[u for u in up if u != "book-4"], rituals=rituals,
                          pawns={"p2": ["bell-6"]})
    # p1 picks up a pawn and flips the crown (book-4) face up: book row stays at 5 up
    state, _ = H.play(state, [
        {"type": "pick_up", "player": "p1", "pawns": [1]},
        {"type": "place", "player": "p1", "row": "book", "column": 4},
    ])
    assert sum(state.face_up[9:18]) == 5
    state, events = all_advances(state, start_player=2)
    sp = state.spell
    assert sp.outcome == "crown_dominates" and sp.dominator == "p1"
    assert sorted(sp.devoured) == ["p2", "p3"]  # everyone but the master and the Monster
    assert sp.claims == {"amulet": None, "crown": "p1", "scepter": None}
    assert sp.scores["p4"] == 7000
    # Kida (columns 1-3 all up): bell D D E, book E W D, candle W E D -> Dragon 4, Eagle 3, Wolf 2
    assert sp.country_counts["kida"] == {"dragon": 4, "eagle": 3, "wolf": 2}
    assert sp.control["kida"] == "dragon"
    assert sp.scores["p1"] == 1000 * sum(1 for f in sp.control.values() if f == "dragon") + \
        (1000 if sp.control["kida"] == "dragon" else 0) + 2000
    assert "dominates the Monster" in events[-2].text


def test_max_turns_turns_the_rest_over():
    state, events = H.ended_by_max_turns()
    assert state.finished and all(state.revealed)
    assert any(e.type == "turn_limit" for e in events)


def test_rounds_count_full_circles():
    state, _ = H.new_game()
    for k, p in enumerate(["p1", "p2", "p3", "p4", "p1"]):
        assert state.round == (1 if k < 4 else 2)
        state = H.act(state, {"type": "pick_up", "player": p, "pawns": [1]}).state
        state = H.act(state, {"type": "place", "player": p, "row": "candle", "column": k + 1}).state
    assert state.round == 2 and state.current == "p2"


# ----- first player -----


def test_first_player_claimed_by_the_table():
    state, events = H.new_game(options={"first_player": "claim"}, first_player=None)
    assert state.phase == "first" and events[-1].opens_phase
    assert GAME.phase_seconds(state) == 120
    assert [p.action for p in GAME.prompts(state, "p3")] == ["claim_first"]
    out = H.act(state, {"type": "claim_first", "player": "p3"})
    assert out.state.current == "p3" and out.state.phase == "turn" and out.state.first == "p3"
    refused(out.state, {"type": "claim_first", "player": "p2"}, "wrong_phase")
    refused(state, {"type": "claim_first"}, "not_a_player")
    refused(state, {"type": "advance", "player": "p1", "card": 1}, "wrong_phase")


def test_first_player_unclaimed_timeout_chooses():
    state, _ = H.new_game(options={"first_player": "claim"}, first_player=None)
    out = H.act(state, {"type": "phase_timeout", "phase_seq": state.phase_seq})
    assert out.state.phase == "turn" and out.state.current in {"p1", "p2", "p3", "p4"}


def test_first_player_listed_and_random():
    assert H.new_game(options={"first_player": "listed"}, first_player=None)[0].current == "p1"
    firsts = {start(GAME, H.players(4), {}, seed).state.current for seed in range(30)}
    assert len(firsts) > 1


# ----- timers -----


def test_turn_timer_option():
    state, _ = H.new_game()
    assert GAME.phase_seconds(state) is None
    assert GAME.phase_seconds(H.new_game(options={"turn_seconds": 0})[0]) is None
    assert GAME.phase_seconds(H.new_game(options={"turn_seconds": 90})[0]) == 90


def test_timeout_at_turn_start_passes_the_turn():
    state, _ = H.new_game()
    before = list(state.face_up)
    out = H.act(state, {"type": "phase_timeout", "phase_seq": state.phase_seq})
    assert out.state.current == "p2" and out.state.face_up == before and not any(out.state.revealed)
    assert "time ran out" in out.events[0].text


def test_timeout_mid_turn_returns_unplaced_pawns():
    state, _ = H.new_game(pawns={"p1": ["bell-1", "bell-2"]})
    state, _ = H.play(state, [
        {"type": "pick_up", "player": "p1", "pawns": [1, 2, 3]},
        {"type": "place", "player": "p1", "row": "bell", "column": 2},  # pawn 1 (from bell-1) onto bell-2
    ])
    out = H.act(state, {"type": "phase_timeout", "phase_seq": state.phase_seq})
    s = out.state
    # pawn 2 came from bell-2, now taken: it goes to the supply; pawn 3 came from the supply
    assert s.pawns["p1"] == [shrine_index("bell-2"), None, None]
    assert s.face_up[shrine_index("bell-2")] is True and s.current == "p2"


def test_timeout_mid_turn_returns_a_pawn_to_its_free_shrine():
    state, _ = H.new_game(pawns={"p1": ["bell-1", "bell-2"]})
    state, _ = H.play(state, [
        {"type": "pick_up", "player": "p1", "pawns": [1, 2]},
        {"type": "place", "player": "p1", "row": "book", "column": 1},  # pawn 1 goes first
    ])
    s = H.act(state, {"type": "phase_timeout", "phase_seq": state.phase_seq}).state
    assert s.pawns["p1"] == [shrine_index("book-1"), shrine_index("bell-2"), None]  # pawn 2 back home
    assert s.face_up[shrine_index("bell-2")] is False


def test_random_timeout_moves_for_the_player():
    changed = 0
    for seed in range(12):
        state, _ = H.new_game(options={"on_timeout": "random"}, seed=seed)
        s = H.act(state, {"type": "phase_timeout", "phase_seq": state.phase_seq}, seed=seed).state
        assert s.current == "p2"
        changed += (any(s.revealed) or s.face_up != state.face_up)
        assert any(s.revealed) or sum(w is not None for w in s.pawns["p1"]) == 1
    assert changed == 12


def test_stale_timeout_is_refused():
    state, _ = H.new_game()
    refused(state, {"type": "phase_timeout", "phase_seq": state.phase_seq - 1}, "stale_phase")


# ----- moderators -----


def test_remove_the_current_player_mid_turn():
    state, _ = H.new_game(pawns={"p1": ["bell-6"]})
    state = H.act(state, {"type": "pick_up", "player": "p1", "pawns": [2]}).state
    out = H.act(state, {"type": "remove_player", "target": "p1"})
    s = out.state
    assert s.removed == ["p1"] and s.pawns["p1"] == [None, None, None] and s.current == "p2"
    assert "Alice" in out.events[0].text and "Dragon" not in out.events[0].text
    refused(s, {"type": "advance", "player": "p1", "card": 1}, "removed")
    refused(s, {"type": "remove_player", "target": "p1"}, "already_removed")
    refused(s, {"type": "remove_player", "target": "zed"}, "not_a_player")
    # the turn order now skips p1
    s, _ = H.play(s, [{"type": "advance", "player": p, "card": k} for k, p in
                      [(1, "p2"), (2, "p3"), (3, "p4"), (4, "p2")]])
    assert s.current == "p3"
    assert GAME.prompts(s, "p1") == []


def test_remove_a_waiting_player_and_down_to_one_ends():
    state, _ = H.new_game()
    state, _ = H.play(state, [{"type": "remove_player", "target": "p3"},
                              {"type": "remove_player", "target": "p4"}])
    assert state.current == "p1" and not state.finished
    out = H.act(state, {"type": "remove_player", "target": "p2"})
    assert out.state.finished and out.state.outcome == "ended" and out.state.winners == []


def test_removed_player_has_no_score_at_the_end():
    state, _ = H.new_game()
    state = H.act(state, {"type": "remove_player", "target": "p4"}).state
    state, events = H.play(state, [{"type": "advance", "player": ["p1", "p2", "p3"][k % 3], "card": k + 1}
                                   for k in range(8)])
    assert "p4" not in state.spell.scores
    assert "Dan was the Monster (left the game" in events[-1].text
    assert {p.id: p.score for p in GAME.result(state).players}["p4"] is None


def test_end_game_reveals_everything_with_no_winner():
    state, _ = H.new_game()
    out = H.act(state, {"type": "end_game", "reason": "bedtime"})
    s = out.state
    assert s.finished and s.outcome == "ended" and s.winners == []
    text = out.events[-1].text
    assert "Alice was a Wizard of the Dragon Masters from Kida" in text and "bedtime" in text
    assert "1: Banished" in text
    assert GAME.result(s).outcome == "ended"


# ----- prompts and views -----


def _within_limits(prompts):
    for p in prompts:
        assert len(p.fields) <= 4
        for f in p.fields:
            assert 1 <= len(f.choices) <= 25
            assert f.max_values <= len(f.choices)
            for c in f.choices:
                assert len(c.label) <= 100 and len(c.description) <= 100 and len(c.value) <= 100


def test_only_the_current_player_has_prompts():
    state, _ = H.new_game(pawns={"p1": ["bell-1"]})
    assert [p.action for p in GAME.prompts(state, "p1")] == ["advance", "pick_up"]
    assert GAME.prompts(state, "p2") == [] and GAME.prompts(state, "zed") == []
    pick = GAME.prompts(state, "p1")[1].fields[0]
    assert pick.name == "pawns" and pick.max_values == 3
    assert pick.choices[0].label == "Pawn 1 on Bell 1 (Kida)"
    _within_limits(GAME.prompts(state, "p1"))
    out = H.act(state, {"type": "pick_up", "player": "p1", "pawns": [1, 2]})
    said = next(e.text for e in out.events if e.type == "pick_up")
    assert "picks up 2 pawns from Bell 1 (Kida) and their supply and will flip 2 shrines" in said
    state = out.state
    place = GAME.prompts(state, "p1")
    assert [p.action for p in place] == ["place"]
    # one select per row, each a whole answer: one pick flips a shrine and places a pawn
    assert [f.name for f in place[0].fields] == ["bell", "book", "candle"] and place[0].any_field
    assert {f.into for f in place[0].fields} == {"shrine"}
    assert "2 to place" in place[0].title
    # the pawns just picked up left Bell 1 (Kida), which is free again; no shrine with a pawn is listed
    assert [c.value for c in place[0].fields[1].choices][:4] == ["book-1", "book-2", "book-3", "book-4"]
    # one line an option (a phone shows the whole row): where it is, what it is, which way it flips
    assert place[0].fields[1].choices[3].label == "4 (Marus) · face down → up"
    assert not place[0].fields[1].choices[3].description
    _within_limits(place)
    # a pick's value goes straight into the action
    s = H.act(state, {"type": "place", "player": "p1", "shrine": place[0].fields[1].choices[3].value}).state
    assert s.face_up[shrine_index("book-4")]
    with pytest.raises(IllegalAction, match="There is no shrine 'tower-4': name one like book-3"):
        H.act(state, {"type": "place", "player": "p1", "shrine": "tower-4"})


def test_views_keep_secrets():
    state, _ = H.new_game(face_up=["bell-1"])
    pub = GAME.view(state, None)
    p1 = GAME.view(state, "p1")
    st = GAME.view(state, "storyteller")
    assert pub.data["tableau"]["shrines"][1]["card"] is None
    assert pub.data["tableau"]["shrines"][0]["card"] == "dragon"
    assert "character" not in pub.data and "layout" not in pub.data
    assert p1.data["character"] == "dragon_kida" and "characters" not in p1.data
    assert "Wizard of the Dragon Masters from Kida" in p1.text and "Monster" not in p1.text.split("\n")[0]
    assert "Dan: the Monster" in st.text and st.data["layout"][5] == "amulet"
    assert all(r["outcome"] is None for r in pub.data["tableau"]["rituals"])


def test_my_hand_says_where_each_pawn_is_in_few_words():
    state, _ = H.new_game(pawns={"p2": ["bell-5"]})
    assert "Your pawns: 1, 2 and 3 in your supply." in GAME.view(state, "p1").text
    assert "Your pawns: 1 on Bell 5 (Marus); 2 and 3 in your supply." in GAME.view(state, "p2").text
    # p1 picks up pawn 1: it is in their hand until placed
    state = H.play(state, [{"type": "pick_up", "player": "p1", "pawns": [1]}])[0]
    assert "Your pawns: 2 and 3 in your supply; 1 in your hand to place." in GAME.view(state, "p1").text


def test_memory_shows_what_a_face_down_shrine_was():
    state, _ = H.new_game(face_up=["bell-1"], pawns={})
    state = H.play(state, [{"type": "pick_up", "player": "p1", "pawns": [1]},
                           {"type": "place", "player": "p1", "row": "bell", "column": 1}])[0]
    pub = GAME.view(state, None).data["tableau"]
    assert pub["shrines"][0]["card"] is None and pub["shrines"][0]["was"] == "dragon"
    state2, _ = H.new_game(options={"memory": False}, face_up=["bell-1"])
    state2 = H.play(state2, [{"type": "pick_up", "player": "p1", "pawns": [1]},
                             {"type": "place", "player": "p1", "row": "bell", "column": 1}])[0]
    assert GAME.view(state2, None).data["tableau"]["shrines"][0]["was"] is None


def test_open_shrines_variant_shows_every_faction():
    state, _ = H.new_game(options={"open_shrines": True})
    assert all(s["card"] for s in GAME.view(state, None).data["tableau"]["shrines"])


def test_check_invariants_catches_a_leak():
    state, events = H.new_game()
    from games.engine import public

    bad = public("oops", "Dan is the Monster")
    assert any("secret" in p for p in GAME.check_invariants(state, [bad]))
    bad2 = public("oops", "Ritual 1 (bell ringing, book open, candle lit): Banished")
    assert any("secret" in p for p in GAME.check_invariants(state, [bad2]))


def test_rules_summary_is_short():
    assert len(GAME.rules_summary()) < 1800 and "Castle of Magic" in GAME.rules_summary()


def test_character_data_counts():
    kinds = [c.kind for c in CHARACTER.values()]
    assert kinds.count("wizard") == 9 and kinds.count("cultist") == 3 and kinds.count("monster") == 1


def test_the_channel_gets_one_picture_a_turn_with_what_changed_in_one_line():
    state, events = H.new_game(pawns={"p1": ["bell-1"]})
    assert [e.type for e in events if e.image] == ["turn"]  # the tableau once at the start, not twice
    state = H.act(state, {"type": "pick_up", "player": "p1", "pawns": [1]}).state
    out = H.act(state, {"type": "place", "player": "p1", "shrine": "book-2"})
    pictures = [e for e in out.events if e.image]
    assert [e.type for e in pictures] == ["turn"]
    lines = pictures[0].text.splitlines()
    assert len(lines) == 2 and lines[0].startswith("**") and "flipped Book 2 (Kida)" in lines[0]
    assert lines[0].endswith("(pawn moved from Bell 1 (Kida)).")  # the shrine it left is said too
    assert "your turn" in lines[1] and "My hand" in lines[1]
    # the tableau in words is still there for whoever wants it (My hand)
    assert "Bell" in GAME.view(out.state, "p2").text and "Candle" in GAME.view(out.state, "p2").text


def test_the_ritual_select_marks_the_one_the_rows_point_to_and_the_turn_line_names_the_outcome():
    state, _ = H.new_game()  # nothing face up: every arcanum off, the rows point to ritual 8
    advance = next(p for p in GAME.prompts(state, "p1") if p.action == "advance")
    marked = [c.value for c in advance.fields[0].choices if c.label.endswith("← now")]
    assert marked == ["8"]
    state, events = H.play(state, [{"type": "advance", "player": "p1", "card": 3}])
    turn = next(e for e in events if e.type == "turn")
    from games.castle.data import OUTCOME

    outcome = GAME.view(state, None).data["tableau"]["rituals"][2]["outcome"]
    assert f"**Alice** turned ritual 3 (bell ringing, book closed, candle lit) face up: **{OUTCOME[outcome].title}**." \
        in turn.text
