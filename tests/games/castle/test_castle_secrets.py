"""No secret reaches the table: two games that differ only in hidden things look the same to everyone.

Game A and game B share the visible table (seats, face-up shrines, pawns, revealed outcomes) but
differ in everything hidden: the other players' characters, two pairs of face-down shrine cards and
the outcomes still face down. Every public event, the public view, Alice's own view, everyone's
prompts and the picture must be identical in both games until the spell is cast.
"""

from __future__ import annotations

import pytest
import support.castle_helpers as H

from games.castle import GAME
from games.castle.data import shrine_index

CHARS_B = {"p1": "dragon_kida", "p2": "monster", "p3": "eagle_sorrell", "p4": "dragon_cultist"}


def layout_b() -> list[list[str]]:
    rows = [row[:] for row in H.LAYOUT]
    rows[2][0], rows[2][4] = rows[2][4], rows[2][0]  # candle-1 wolf <-> candle-5 scepter
    rows[0][6], rows[0][7] = rows[0][7], rows[0][6]  # bell-7 dragon <-> bell-8 wolf
    return rows


RITUALS_B = H.OUTCOMES[:3] + list(reversed(H.OUTCOMES[3:]))  # cards 4-8 hold other outcomes

ACTIONS = [
    {"type": "pick_up", "player": "p1", "pawns": [1, 2]},
    {"type": "place", "player": "p1", "row": "bell", "column": 2},
    {"type": "place", "player": "p1", "row": "book", "column": 1},
    {"type": "advance", "player": "p2", "card": 1},
    {"type": "pick_up", "player": "p3", "pawns": [1]},
    {"type": "place", "player": "p3", "row": "bell", "column": 1},  # face up -> face down ("was Dragon")
    {"type": "advance", "player": "p4", "card": 2},
    {"type": "pick_up", "player": "p1", "pawns": [1]},
    {"type": "place", "player": "p1", "row": "candle", "column": 9},
    {"type": "phase_timeout"},  # p2's turn passes
    {"type": "advance", "player": "p3", "card": 3},
    {"type": "pick_up", "player": "p4", "pawns": [1, 2]},
    {"type": "place", "player": "p4", "row": "book", "column": 4},  # the crown, the same in both games
    {"type": "place", "player": "p4", "row": "candle", "column": 3},
]


def public_of(events) -> list[tuple]:
    return [(e.type, e.text, e.title, e.data, e.image, e.opens_phase) for e in events
            if e.audience.kind == "public"]


def seen_by_the_table(state) -> tuple:
    return (
        GAME.view(state, None).model_dump(),
        GAME.view(state, "p1").model_dump(),  # Alice is the same wizard in both games
        [[p.model_dump() for p in GAME.prompts(state, pid)] for pid in ("p1", "p2", "p3", "p4")],
        GAME.render(state, "tableau"),
    )


@pytest.mark.slow
def test_hidden_differences_never_show_before_the_end():
    forced = {"face_up": ["bell-1", "book-2"], "pawns": {"p2": ["bell-6"]}}
    a, ev_a = H.new_game(**forced)
    b, ev_b = H.new_game(**forced, characters=CHARS_B, layout=layout_b(), rituals=RITUALS_B)
    assert a.characters != b.characters and a.layout != b.layout and a.rituals != b.rituals
    assert public_of(ev_a) == public_of(ev_b)
    assert seen_by_the_table(a) == seen_by_the_table(b)
    for action in ACTIONS:
        if action["type"] == "phase_timeout":
            action = {**action, "phase_seq": a.phase_seq}
        out_a, out_b = H.act(a, action), H.act(b, action)
        a, b = out_a.state, out_b.state
        assert public_of(out_a.events) == public_of(out_b.events), action
        assert seen_by_the_table(a) == seen_by_the_table(b), action
    assert not a.finished and a.revealed == [True, True, True] + [False] * 5
    # the face-down Dragon at bell-1 shows only what the table saw ("was"), never its card
    shrine = GAME.view(a, "p2").data["tableau"]["shrines"][shrine_index("bell-1")]
    assert shrine["card"] is None and shrine["was"] == "dragon"
    # each player's own view holds their own character and no one else's
    for pid in ("p2", "p3", "p4"):
        text = GAME.view(b, pid).text
        assert "Wizard of the Dragon Masters from Kida" not in text  # Alice's character
        assert GAME.view(a, pid).data["character"] == H.CHARS4[pid]
        assert GAME.view(b, pid).data["character"] == CHARS_B[pid]
        assert "characters" not in GAME.view(a, pid).data and "layout" not in GAME.view(a, pid).data


def test_the_end_reveals_what_was_hidden():
    a, _ = H.new_game()
    b, _ = H.new_game(characters=CHARS_B, rituals=RITUALS_B)
    finish = [{"type": "advance", "player": f"p{k % 4 + 1}", "card": k + 1} for k in range(8)]
    a, ev_a = H.play(a, finish)
    b, ev_b = H.play(b, finish)
    assert a.finished and b.finished
    assert public_of(ev_a) != public_of(ev_b)  # the outcomes and characters now differ in public
    assert "**Bob**, the Monster" in ev_b[-1].text and "**Bob**, a Wizard of the Eagle Lords" in ev_a[-1].text
