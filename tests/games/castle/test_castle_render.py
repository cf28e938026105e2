"""The drawn tableau and its text fallback."""

from __future__ import annotations

import io

import support.castle_helpers as H
from PIL import Image, ImageDraw

from games.castle import GAME, render
from games.castle.data import OUTCOME
from games.castle.render import CARD_H, CARD_W, HEIGHT, WIDTH
from games.castle.tableau import public_tableau, tableau_text
from games.castle.turn import turn_event
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
    """About 1,000-1,100 px wide and landscape, at most 0.86 widths tall: Discord shows it by its width
    (about 300 px on a phone, a scale of 0.28) rather than squeezing it into its 280 px of height."""
    assert 1000 <= WIDTH <= 1100
    assert HEIGHT <= 0.86 * WIDTH
    assert render.legend_box(5, 6)[3] <= HEIGHT  # six players fit


def _end_state():
    """The spell cast: all eight outcomes turned face up by the players."""
    adv = [{"type": "advance", "player": f"p{k % 4 + 1}", "card": k + 1} for k in range(8)]
    return H.play(H.new_game(face_up=["bell-1"])[0], adv)[0]


def _ended_state():
    """Ended by a moderator after two outcomes were turned: the other six are known only because the
    game is over (drawn dimmed, in brackets), and a player has left."""
    state, _ = H.new_game(face_up=["bell-1", "book-4"])
    return H.play(state, [{"type": "advance", "player": "p1", "card": 2},
                          {"type": "advance", "player": "p2", "card": 7},
                          {"type": "remove_player", "target": "p4"},
                          {"type": "end_game", "reason": "bedtime"}])[0]


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
    """No text smaller than 40 px (11 px once Discord shrinks the picture to 300 px on a phone), in a
    game with memory marks, pawns, a long name, revealed and hidden outcomes, and at the end."""
    state, _ = H.new_game(face_up=["bell-1", "book-4", "candle-5"], pawns={"p2": ["bell-6"], "p3": ["book-2"]})
    state = H.play(state, [{"type": "advance", "player": "p1", "card": 1}])[0]
    state.seen = [True] * 27  # every face-down shrine shows "was ..."
    state.players[0].name = "Sir Reginald the Magnificent of Longname Castle"
    sizes = _font_sizes(monkeypatch, state)
    sizes += _font_sizes(monkeypatch, _end_state())
    sizes += _font_sizes(monkeypatch, _ended_state())
    assert sizes and min(sizes) >= 40 == render.LABEL
    assert render.LETTER >= 60 and render.PAWN >= 40 and render.HEADING > render.LABEL


def test_every_outcome_fits_its_box_at_40_px():
    """Measured: each outcome, face up or dimmed in brackets, fits the ritual table's outcome box at
    LABEL; the long titles ("Scepter dominates") as the regalia's chip and the last word."""
    draw = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    x0, _, x1, _ = render.outcome_box(1)
    room = x1 - x0 - 2 * render.OUTCOME_PAD
    forms = [render.outcome_form(draw, o, up, room) for o in OUTCOME for up in (True, False)]
    assert all(render.outcome_width(draw, form) <= room for form in forms)
    assert (None, "Banished") in forms and (None, "(Released)") in forms
    assert ("S", "dominates") in forms and ("A", "(devoured)") in forms


def _ink_height(img: Image.Image, box: tuple[int, int, int, int]) -> int:
    """The height of what is drawn (anything but the background) inside ``box``."""
    crop = img.crop(box)
    mask = crop.point(lambda v: 255 if v > 60 else 0).convert("L").point(lambda v: 255 if v else 0)
    bbox = mask.getbbox()
    return 0 if bbox is None else bbox[3] - bbox[1]


def test_row_labels_and_names_are_drawn_big():
    """Measured, not trusted: the ink of "Bell" and of a player's name is at least 28 px tall (8 px on
    the phone; a capital at 40 px is about 30 px)."""
    state, _ = H.new_game()
    img = png(state)
    _, y = render.card_xy(0, 0)
    assert _ink_height(img, (0, y, render.X0 - 4, y + render.ROW_LINE_H)) >= 28  # "Bell"
    x0, y0, x1, y1 = render.legend_box(0, 4)
    assert _ink_height(img, (x0 + 70, y0, x1, y1)) >= 28  # "Alice (to play)", right of her pawn


def _mark_centre(ritual: int, arc: int) -> tuple[int, int]:
    return render.mark_xy(ritual, arc)


def test_ritual_marks_tell_on_from_off():
    """Ritual 2 is Bell ringing, Book open, Candle unlit: two filled green discs and a hollow red ring."""
    state, _ = H.new_game()
    img = png(state)
    bell, book, candle = (_mark_centre(2, k) for k in range(3))
    assert img.getpixel(bell) == img.getpixel(book) == render.ON
    assert img.getpixel(candle) != render.ON
    ring = (candle[0] + 14, candle[1])  # on the ring itself
    assert img.getpixel(ring) == render.OFF
    # and ritual 7 (only the Candle lit, in the right half of the table) the other way round
    bell7, candle7 = _mark_centre(7, 0), _mark_centre(7, 2)
    assert bell7[0] > render.WIDTH / 2 and bell7[1] == _mark_centre(3, 0)[1]
    assert img.getpixel(candle7) == render.ON and img.getpixel((bell7[0] + 14, bell7[1])) == render.OFF


def test_the_ritual_the_shrines_point_to_is_framed_in_gold():
    """Nothing face up: every arcanum is off, so the shrines point to ritual 8 (and not ritual 1)."""
    state, _ = H.new_game()
    img = png(state)

    def frame(ritual: int) -> tuple[int, int, int]:
        _, y0, x1, y1 = render.ritual_row_box(ritual)
        return img.getpixel((x1 + 4, (y0 + y1) // 2))  # the frame stands just outside the row

    assert frame(8) == render.GOLD
    assert frame(1) != render.GOLD
    # Bell, Book and Candle all up: ritual 1
    up = [f"{row}-{c}" for row in ("bell", "book", "candle") for c in range(1, 6)]
    img = png(H.new_game(face_up=up)[0])
    assert frame(1) == render.GOLD and frame(8) != render.GOLD


def _overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_legend_and_ritual_rows_fit_the_canvas_beside_the_grid():
    """Bounding boxes: the six-player legend and the eight ritual rows (with the gold frame's 6 px
    outside a row) lie inside the canvas, below the shrine grid, and overlap neither it nor each
    other; and a six-player picture has ink in each legend box."""
    canvas = (0, 0, WIDTH, HEIGHT)
    grid = render.grid_box()
    rows = [render.ritual_row_box(k) for k in range(1, 9)]
    framed = [(x0 - 6, y0, x1 + 6, y1) for x0, y0, x1, y1 in rows]
    legend = [render.legend_box(n, 6) for n in range(6)]
    inside = [b for b in framed + legend if canvas[0] <= b[0] and b[2] <= canvas[2] and b[3] <= canvas[3]]
    assert len(inside) == 14 and grid[2] <= WIDTH
    for box in framed + legend:
        assert box[1] >= grid[3] and not _overlap(box, grid)
    boxes = rows + legend
    assert not any(_overlap(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1:])
    assert not any(_overlap(f, b) for f in framed for b in legend)
    for k in range(1, 9):  # each row's marks and outcome inside the row
        x0, y0, x1, y1 = rows[k - 1]
        ox0, oy0, ox1, oy1 = render.outcome_box(k)
        assert x0 < ox0 and ox1 <= x1 and y0 <= oy0 and oy1 <= y1
        assert all(x0 < render.mark_xy(k, a)[0] < ox0 - 19 and y0 < render.mark_xy(k, a)[1] < y1 for a in range(3))
    six = [Player(id=f"p{i}", name=f"Sir Reginald the {i}th of Longname Castle") for i in range(6)]
    img = png(start(GAME, six, {"pawns_start": "tableau"}, 2).state)
    for x0, y0, x1, y1 in legend:
        assert _ink_height(img, (x0 + 70, y0, x1, y1)) >= 28


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
    # the rituals in words, one a line, and the one the rows select now marked (nothing up: ritual 8)
    assert "**1** ringing, open, lit: face down\n" in text
    assert text.endswith("**8** silent, closed, unlit: face down ← now")
    assert "+++" not in text


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
    event = turn_event(s, "**Sir Reginald the 0th of Longname Castle** flipped " + "Bell 1 (Kida) up; " * 3)
    assert len(text) < 1500 and len(event.text) <= 1800
    img = png(s)
    assert img.size == (WIDTH, HEIGHT)


def compact_form(pub):
    """The compact form a picture's data kept before the board's marks (``expand_tableau`` reads it)."""
    return {
        "shrines": [[s["face_up"], s["card"], s["was"], s["pawn"]] for s in pub["shrines"]],
        "rituals": [[r["face_up"], r["outcome"]] for r in pub["rituals"]],
        "players": [[p["id"], p["name"], p["removed"], p["current"]] for p in pub["players"]],
        "revealed": pub["revealed"],
    }


def seated(pub):
    """The public tableau with each player's id their seat number, as ``tableau_of_marks`` gives it."""
    seat = {p["id"]: str(k) for k, p in enumerate(pub["players"])}
    return {**pub, "players": [{**p, "id": seat[p["id"]]} for p in pub["players"]],
            "shrines": [{**s, "pawn": seat.get(s["pawn"])} for s in pub["shrines"]]}


def test_a_row_kept_in_an_earlier_form_still_draws_the_same_picture():
    """A picture's row waiting in the outbox from a version before (the compact form, and before it
    the whole tableau) is drawn as the same picture as the data a step keeps now."""
    import json
    import random

    from games.castle.tableau import expand_tableau

    for seed in (1, 2):
        state, _ = H.new_game(4, seed=seed)
        rng = random.Random(seed)
        while True:
            pub = public_tableau(state)
            assert expand_tableau(json.loads(json.dumps(compact_form(pub)))) == pub
            if state.finished:
                break
            state = H.act(state, rng.choice(GAME.legal_actions(state)).model_dump(), seed=seed).state
    data = render.tableau_picture(state)
    compact = {"compact": compact_form(public_tableau(state)), "title": data["title"], "cast": data["cast"]}
    whole = {"tableau": public_tableau(state), "title": data["title"], "cast": data["cast"]}
    assert render.draw_picture(data) == render.draw_picture(compact) == render.draw_picture(whole)


def test_a_steps_picture_data_is_the_public_tableau_in_a_few_hundred_bytes_under_every_option():
    """A step's picture data is made straight from the state (issue 38: no whole tableau built per
    step), and gives back exactly what the table may see, at every step of seeded games with each
    way of showing face-down shrines, a player's leaving and the end's reveal included; with the
    players' real ids (Discord's 18 digits) it is under half the bytes of the form before."""
    import json
    import random

    from games.castle.tableau import board_marks, tableau_of_marks

    for options in ({}, {"memory": False}, {"open_shrines": True}):
        for seed in (1, 2, 3):
            state, _ = H.new_game(4, options=options, seed=seed)
            rng = random.Random(seed)
            while True:
                marks = json.loads(json.dumps(board_marks(state)))
                assert tableau_of_marks(marks) == seated(public_tableau(state)), (options, seed)
                if state.finished:
                    break
                action = rng.choice(GAME.legal_actions(state)).model_dump()
                state = H.act(state, action, seed=seed).state
    from games.engine.run import start, step

    table = [Player(id=str(10**17 + 12345678901 * k), name=f"Player {k}") for k in range(1, 7)]
    state = start(GAME, table, None, 3).state
    rng = random.Random(3)
    for _ in range(10):  # mid-game: pawns on the tableau, cards seen, rituals turned
        state = step(GAME, state, rng.choice(GAME.legal_actions(state)), 3).state
    assert not state.finished and state.pawns
    before = len(json.dumps(compact_form(public_tableau(state))))
    assert len(json.dumps(board_marks(state))) * 2 < before
