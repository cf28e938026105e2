"""The drawn tableau and its text fallback."""

from __future__ import annotations

import io

import support.castle_helpers as H
from PIL import Image

from games.castle import GAME
from games.castle.render import CARD_H, CARD_W, HEIGHT, WIDTH
from games.castle.tableau import public_tableau, tableau_text
from games.engine import Player
from games.engine.run import start


def png(state) -> Image.Image:
    data = GAME.render(state, "tableau")
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return Image.open(io.BytesIO(data)).convert("RGB")


def test_png_of_the_expected_size_and_not_blank():
    state, _ = H.new_game(face_up=["bell-1", "book-4"], pawns={"p2": ["bell-6"]})
    img = png(state)
    assert img.size == (WIDTH, HEIGHT)
    colours = img.getcolors(maxcolors=1 << 20)
    assert colours is not None and len(colours) > 50
    # the face-up Dragon shrine (bell-1) is drawn in the Dragon colour, somewhere in its card
    from games.castle.render import card_xy

    x, y = card_xy(0, 0)
    assert img.getpixel((x + 8, y + 100)) == (0xb3, 0x26, 0x1e)


def test_image_changes_when_a_shrine_flips():
    state, _ = H.new_game()
    before = GAME.render(state, "tableau")
    state = H.play(state, [{"type": "pick_up", "player": "p1", "pawns": [1]},
                           {"type": "place", "player": "p1", "row": "candle", "column": 9}])[0]
    after = GAME.render(state, "tableau")
    assert before != after
    from games.castle.render import card_xy

    x, y = card_xy(2, 8)
    box = (x, y, x + CARD_W, y + CARD_H)
    assert Image.open(io.BytesIO(before)).crop(box).tobytes() != Image.open(io.BytesIO(after)).crop(box).tobytes()


def test_no_secret_is_drawn():
    """Two games differing only in face-down cards and unrevealed outcomes draw the same picture."""
    a, _ = H.new_game(face_up=["bell-1"])
    layout = [row[:] for row in H.LAYOUT]
    layout[2][0], layout[2][4] = layout[2][4], layout[2][0]  # swap two face-down cards (wolf, scepter)
    b, _ = H.new_game(face_up=["bell-1"], layout=layout, rituals=list(reversed(H.OUTCOMES)))
    assert a.layout != b.layout and a.rituals != b.rituals
    assert GAME.render(a, "tableau") == GAME.render(b, "tableau")
    assert tableau_text(public_tableau(a)) == tableau_text(public_tableau(b))


def test_the_final_picture_reveals_everything():
    a, _ = H.new_game()
    b, _ = H.new_game(rituals=list(reversed(H.OUTCOMES)))
    adv = [{"type": "advance", "player": f"p{k % 4 + 1}", "card": k + 1} for k in range(7)]
    a, _ = H.play(a, adv)
    b, _ = H.play(b, adv)
    # before the end, the last outcome is hidden: only revealed ones differ
    end_a = H.play(a, [{"type": "advance", "player": "p4", "card": 8}])[0]
    end_b = H.play(b, [{"type": "advance", "player": "p4", "card": 8}])[0]
    assert GAME.render(end_a, "tableau") != GAME.render(end_b, "tableau")
    assert all(s["card"] for s in public_tableau(end_a)["shrines"])


def test_unknown_image_name():
    state, _ = H.new_game()
    assert GAME.render(state, "castle") is None


def test_text_fallback_describes_rows_countries_pawns_and_rituals():
    state, _ = H.new_game(face_up=["bell-1"], pawns={"p2": ["book-4"]})
    text = tableau_text(public_tableau(state))
    assert "**Bell** silent (1/9 up). Kida: Dragon, down, down" in text
    assert "Marus: down [Bob]" in text
    assert "**Ritual**" in text and "1+++ down" in text


def test_text_fallback_tells_apart_long_names_that_shorten_alike():
    long = [Player(id=f"p{i}", name=f"Sir Reginald the {i}th") for i in range(4)]
    s = start(GAME, long, {"pawns_start": "tableau"}, 2).state
    text = tableau_text(public_tableau(s))
    assert "(red)" in text and "(green)" in text and "(blue)" in text and "(orange)" in text


def test_text_fallback_worst_case_fits_a_message():
    long = [Player(id=f"p{i}", name=f"Sir Reginald the {i}th of Longname Castle") for i in range(6)]
    s = start(GAME, long, {"pawns_start": "tableau", "start_face_up": 27}, 5).state
    # every shrine seen, then half face down again: the longest cells ("down (was Dragon) [name]")
    s.seen = [True] * 27
    s.face_up = [i % 2 == 0 for i in range(27)]
    s.revealed = [True] * 8
    text = tableau_text(public_tableau(s))
    event = GAME._turn_event(s, "**Sir Reginald the 0th of Longname Castle** flipped " + "Bell · Kida 1 up; " * 3)
    assert len(text) < 1500 and len(event.text) <= 1800
    img = png(s)
    assert img.size == (WIDTH, HEIGHT)
