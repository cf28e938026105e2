"""The drawn tableau and its text fallback."""

from __future__ import annotations

import io

import support.castle_helpers as H
from PIL import Image

from games.castle import GAME, render
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
    assert img.getpixel((x + CARD_W - 8, y + CARD_H - 12)) == (0xb3, 0x26, 0x1e)


def test_canvas_is_phone_shaped():
    """About 1,000-1,100 px wide (a phone shows it about 270 px wide) and not much taller than 1.3 widths."""
    assert 1000 <= WIDTH <= 1100
    assert HEIGHT <= 1.3 * WIDTH
    assert render.LEG_Y + 3 * render.LEG_ROW_H <= HEIGHT  # six players fit


def _font_sizes(monkeypatch, state) -> list[int]:
    sizes: list[int] = []
    real = render.font

    def spy(size: int):
        sizes.append(size)
        return real(size)

    monkeypatch.setattr(render, "font", spy)
    png(state)
    return sizes


def test_every_label_is_readable_on_a_phone(monkeypatch):
    """No text smaller than 40 px (10 px once Discord shrinks the picture to 270 px on a phone), in a
    game with memory marks, pawns, a long name, revealed and hidden outcomes, and at the end."""
    state, _ = H.new_game(face_up=["bell-1", "book-4", "candle-5"], pawns={"p2": ["bell-6"], "p3": ["book-2"]})
    state = H.play(state, [{"type": "advance", "player": "p1", "card": 1}])[0]
    state.seen = [True] * 27  # every face-down shrine shows "was ..."
    state.players[0].name = "Sir Reginald the Magnificent of Longname Castle"
    sizes = _font_sizes(monkeypatch, state)
    adv = [{"type": "advance", "player": f"p{k % 4 + 1}", "card": k + 1} for k in range(8)]
    end = H.play(H.new_game(face_up=["bell-1"])[0], adv)[0]
    sizes += _font_sizes(monkeypatch, end)
    assert sizes and min(sizes) >= 40 == render.LABEL
    assert render.LETTER >= 60 and render.PAWN >= 40 and render.HEADING > render.LABEL


def _ink_height(img: Image.Image, box: tuple[int, int, int, int]) -> int:
    """The height of what is drawn (anything but the background) inside ``box``."""
    crop = img.crop(box)
    mask = crop.point(lambda v: 255 if v > 60 else 0).convert("L").point(lambda v: 255 if v else 0)
    bbox = mask.getbbox()
    return 0 if bbox is None else bbox[3] - bbox[1]


def test_row_labels_and_names_are_drawn_big():
    """Measured, not trusted: the ink of "Bell" and of a player's name is at least 28 px tall (7 px on
    the phone; a capital at 40 px is about 30 px)."""
    state, _ = H.new_game()
    img = png(state)
    _, y = render.card_xy(0, 0)
    assert _ink_height(img, (0, y, render.X0 - 4, y + 46)) >= 28  # "Bell"
    x0, y0 = render.MARGIN + 72, render.LEG_Y
    assert _ink_height(img, (x0, y0, x0 + 300, y0 + render.LEG_ROW_H)) >= 28  # "Alice (to play)"


def _mark_centre(ritual: int, arc: int) -> tuple[int, int]:
    cols = render.RIT_COLS
    return (int((cols[arc + 1] + cols[arc + 2]) / 2),
            int(render.RIT_TOP + (ritual - 1) * render.RIT_ROW_H + render.RIT_ROW_H / 2))


def test_ritual_marks_tell_on_from_off():
    """Ritual 2 is Bell ringing, Book open, Candle unlit: two filled green discs and a hollow red ring."""
    state, _ = H.new_game()
    img = png(state)
    bell, book, candle = (_mark_centre(2, k) for k in range(3))
    assert img.getpixel(bell) == img.getpixel(book) == render.ON
    assert img.getpixel(candle) != render.ON
    ring = (candle[0] + 14, candle[1])  # on the ring itself
    assert img.getpixel(ring) == render.OFF
    # and ritual 7 (only the Candle lit) the other way round
    bell7, candle7 = _mark_centre(7, 0), _mark_centre(7, 2)
    assert img.getpixel(candle7) == render.ON and img.getpixel((bell7[0] + 14, bell7[1])) == render.OFF


def test_the_ritual_the_shrines_point_to_is_framed_in_gold():
    """Nothing face up: every arcanum is off, so the shrines point to ritual 8 (and not ritual 1)."""
    state, _ = H.new_game()
    img = png(state)

    def frame(ritual: int) -> tuple[int, int, int]:
        return img.getpixel((render.WIDTH - render.MARGIN + 4,
                             render.RIT_TOP + (ritual - 1) * render.RIT_ROW_H + render.RIT_ROW_H // 2))

    assert frame(8) == render.GOLD
    assert frame(1) != render.GOLD
    # Bell, Book and Candle all up: ritual 1
    up = [f"{row}-{c}" for row in ("bell", "book", "candle") for c in range(1, 6)]
    img = png(H.new_game(face_up=up)[0])
    assert frame(1) == render.GOLD and frame(8) != render.GOLD


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
    event = GAME._turn_event(s, "**Sir Reginald the 0th of Longname Castle** flipped " + "Bell 1 (Kida) up; " * 3)
    assert len(text) < 1500 and len(event.text) <= 1800
    img = png(s)
    assert img.size == (WIDTH, HEIGHT)
