"""Issue 29, item 12: each move is told once in the channel, in the turn message with the picture."""

from __future__ import annotations

import support.castle_helpers as H

from games.castle.data import OUTCOME, shrine_index, shrine_name


def naming(events, words: str) -> list:
    """The public lines that name ``words`` (case-insensitive)."""
    return [e for e in events if e.audience.kind == "public" and words.lower() in e.text.lower()]


def test_a_two_pawn_manipulation_is_one_line_in_the_turn_message():
    state, _ = H.new_game(face_up=["bell-2"], pawns={"p1": ["bell-1"]})
    state, events = H.play(state, [
        {"type": "pick_up", "player": "p1", "pawns": [1, 2]},
        {"type": "place", "player": "p1", "row": "bell", "column": 2},  # face up -> down
        {"type": "place", "player": "p1", "row": "book", "column": 4},  # the crown, face up
    ])
    assert state.current == "p2"
    for shrine in ("Bell 2 (Kida)", "Book 4 (Marus)"):
        told = naming(events, shrine)
        assert [e.type for e in told] == ["turn"], shrine
        assert told[0].image == "tableau"
    line = naming(events, "Book 4 (Marus)")[0].text.splitlines()[0]
    # every fact the flip lines told: who, which shrine, which way, the card turned up, the pawns
    assert line == ("**Alice** flipped Bell 2 (Kida) down; Book 4 (Marus) up (Crown), a pawn on each "
                    "(pawn moved from Bell 1 (Kida)).")
    move = naming(events, "Book 4 (Marus)")[0].data["move"]
    assert move["flips"] == [{"shrine": shrine_index("bell-2"), "face_up": False},
                             {"shrine": shrine_index("book-4"), "face_up": True}]


def test_an_advance_is_one_line_in_the_turn_message():
    state, _ = H.new_game()
    state, events = H.play(state, [{"type": "advance", "player": "p1", "card": 3}])
    told = naming(events, "ritual 3")
    assert [e.type for e in told] == ["turn"] and told[0].image == "tableau"
    outcome = OUTCOME[state.rituals[2]]
    line = told[0].text.splitlines()[0]
    assert line == (f"**Alice** turned ritual 3 (bell ringing, book closed, candle lit) face up: "
                    f"**{outcome.title}**. *{outcome.text}* 7 outcome cards still face down.")
    assert told[0].data["move"] == {"card": 3, "outcome": state.rituals[2], "player": "p1"}


def test_the_last_advance_is_told_once_before_the_spell():
    state, _ = H.new_game()
    state, events = H.play(state, [{"type": "advance", "player": f"p{k % 4 + 1}", "card": k + 1} for k in range(7)])
    assert [e.type for e in naming(events, "ritual 7 (")] == ["turn"]
    out = H.act(state, {"type": "advance", "player": "p4", "card": 8})
    # no turn message follows the last card: its own line tells it (the spell then names the ritual it matches)
    assert [e.type for e in out.events] == ["advance", "spell", "game_over"]
    assert "**Dan** turns over an outcome card. Ritual 8 (bell silent, book closed, candle unlit): Released" \
        in out.events[0].text


def test_a_move_that_reaches_the_turn_limit_is_told_once_in_the_limit_line():
    state, _ = H.new_game(options={"max_turns": 1})
    state, events = H.play(state, [
        {"type": "pick_up", "player": "p1", "pawns": [1]},
        {"type": "place", "player": "p1", "row": "book", "column": 4},
    ])
    assert state.finished
    told = naming(events, "Book 4 (Marus)")
    assert [e.type for e in told] == ["turn_limit"]
    assert told[0].text.startswith("**Alice** flipped Book 4 (Marus) up (Crown) and put a pawn on it.\n⏳")


def test_a_player_removed_mid_turn_has_their_flips_told_once():
    state, _ = H.new_game()
    state, _ = H.play(state, [
        {"type": "pick_up", "player": "p1", "pawns": [1, 2]},
        {"type": "place", "player": "p1", "row": "bell", "column": 1},
    ])
    out = H.act(state, {"type": "remove_player", "target": "p1"})
    told = naming(out.events, "Bell 1 (Kida)")
    assert [e.type for e in told] == ["turn"]
    assert told[0].text.startswith("**Alice** flipped Bell 1 (Kida) up (Dragon) and put a pawn on it, "
                                   "then left the game.")


def test_a_random_timeout_move_is_told_once_in_the_turn_message():
    kinds = set()
    for seed in range(12):
        state, _ = H.new_game(options={"on_timeout": "random"}, seed=seed)
        out = H.act(state, {"type": "phase_timeout", "phase_seq": state.phase_seq}, seed=seed)
        s = out.state
        if any(s.revealed):
            k = s.revealed.index(True)
            told = naming(out.events, f"ritual {k + 1} (")
            kinds.add("advance")
        else:
            idx = next(w for w in s.pawns["p1"] if w is not None)
            told = naming(out.events, shrine_name(idx))
            kinds.add("flip")
        assert [e.type for e in told] == ["turn"], seed
        assert "(time ran out)" in told[0].text
    assert kinds == {"advance", "flip"}
