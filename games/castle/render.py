"""Draw the tableau as a PNG with Pillow, in the Noto fonts of ``games/engine/fonts.py`` (any script).

Reads only ``public_tableau`` (what the table may see), so a face-down shrine's faction or an
unrevealed outcome is never drawn before the end of the game.
"""

from __future__ import annotations

import io
from typing import Any

from PIL import Image, ImageDraw

from games.engine.fonts import font

from .data import ARCANUM, COUNTRY, FACTION, OUTCOME, REGALIA_BY_ID, ROWS
from .rules import is_on
from .tableau import board_marks, expand_tableau, ritual_now, tableau_of_marks

# Phone first: Discord shows an embed's picture at most about 280 px tall and 300-400 px wide, so the
# canvas is landscape, 1,080 x 928 (height 0.86 of the width): it is shown by its width, about 300 px
# on a phone (a scale of 0.28) and 400 px or more on a desktop. Every label a player reads is drawn at
# LABEL (40 px, about 11 px on the phone) or more: the countries, column numbers (the shrines' numbers
# in the bot's menus), row names and ritual numbers at 44, the card letters at 64 and the pawns'
# initials at 40 in a 62 px disc (58 px in the legend). No title line: the message around the picture says the turn, so the
# top-left corner says only "turn N" (or "the end"). From the top:
#   - the countries over their three columns, then the column numbers 1-9;
#   - the 3 x 9 shrine grid (cards 88 x 126), the row names, their state and "n/9 up" on its left;
#   - the gold caption with the key to the marks (a filled green disc: on; a hollow red ring: off);
#   - the eight ritual cards as a table in two columns of four rows (1-4 left, 5-8 right), each half
#     headed "Bell Book Candle"; a row is the number, three marks and the outcome ("?" on a card back,
#     or its title; the long ones as the regalia's initial on a purple chip and "dominates"/"devoured");
#   - the players (up to six) in two rows, two to a row (three for five or six players).
WIDTH = 1080
LABEL, HEADING, LETTER, PAWN = 40, 44, 64, 40
MARGIN = 16
CARD_W, CARD_H, GAP, COUNTRY_GAP = 88, 126, 8, 20
GRID_W = 9 * CARD_W + 8 * GAP + 2 * COUNTRY_GAP
X0, Y0 = WIDTH - 8 - GRID_W, 98  # the first shrine card; the row labels sit left of it, the countries above
COUNTRY_BAND, RULE_Y, NUMBER_BAND = (4, 48), 52, (54, 96)  # above the grid: countries, a rule, the numbers
GRID_BOTTOM = Y0 + 3 * CARD_H + 2 * GAP
ROW_LINE_H = CARD_H // 3  # a row's label: its name, its state, "n/9 up"
CAPTION_BAND = (GRID_BOTTOM + 4, GRID_BOTTOM + 48)  # the gold caption and the key to the marks
HEAD_BAND = (CAPTION_BAND[1], CAPTION_BAND[1] + 42)  # "Bell Book Candle" over each half of the table
RIT_TOP = HEAD_BAND[1] + 2  # the first ritual row (below a rule)
RIT_ROW_H, RIT_PER_COL, RIT_COL_GAP = 52, 4, 12
RIT_COL_W = (WIDTH - 2 * MARGIN - RIT_COL_GAP) // 2  # one half of the table: four ritual rows
RIT_NUM_W, MARK_STEP = 40, 64  # in a row: the number, then three marks, then the outcome
OUTCOME_X = RIT_NUM_W + 3 * MARK_STEP + 4
RIT_BOTTOM = RIT_TOP + RIT_PER_COL * RIT_ROW_H
LEG_Y, LEG_ROW_H = RIT_BOTTOM + 10, 60  # the players in two rows: two to a row (three for five or six)
HEIGHT = LEG_Y + 2 * LEG_ROW_H + 6

BG = (24, 22, 32)
INK = (240, 236, 226)
DIM = (178, 172, 190)
BACK = (58, 52, 80)
BACK_LINE = (84, 76, 112)
GOLD = (240, 196, 60)
STRIPE = (34, 31, 46)
ON = (70, 196, 100)
OFF = (226, 80, 80)
OUTCOME_FILL = {"banished": (40, 128, 74), "released": (160, 34, 34), "dominate": (124, 62, 160),
                "devour": (186, 98, 22)}


def _hex(colour: str) -> tuple[int, int, int]:
    colour = colour.lstrip("#")
    return (int(colour[0:2], 16), int(colour[2:4], 16), int(colour[4:6], 16))


def _mix(a: tuple[int, int, int], b: tuple[int, int, int], t: float) -> tuple[int, int, int]:
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


def _ink_on(fill: tuple[int, int, int]) -> tuple[int, int, int]:
    return (0, 0, 0) if sum(fill) > 380 else (255, 255, 255)


def card_xy(row: int, col: int) -> tuple[int, int]:
    """Top-left corner of the card at 0-based ``row`` and ``col``."""
    return X0 + col * (CARD_W + GAP) + (col // 3) * COUNTRY_GAP, Y0 + row * (CARD_H + GAP)


def grid_box() -> tuple[int, int, int, int]:
    """The shrine grid's box (left, top, right, bottom), without its labels."""
    return X0, Y0, X0 + GRID_W, GRID_BOTTOM


def ritual_row_box(card: int) -> tuple[int, int, int, int]:
    """The box of ritual ``card``'s row (1-8): rituals 1-4 down the left half, 5-8 down the right."""
    half, row = divmod(card - 1, RIT_PER_COL)
    x, y = MARGIN + half * (RIT_COL_W + RIT_COL_GAP), RIT_TOP + row * RIT_ROW_H
    return x, y, x + RIT_COL_W, y + RIT_ROW_H


def mark_xy(card: int, arc: int) -> tuple[int, int]:
    """The centre of ritual ``card``'s mark for arcanum ``arc`` (0 Bell, 1 Book, 2 Candle)."""
    x, y, _, bottom = ritual_row_box(card)
    return x + RIT_NUM_W + arc * MARK_STEP + MARK_STEP // 2, (y + bottom) // 2


def outcome_box(card: int) -> tuple[int, int, int, int]:
    """The outcome's box in ritual ``card``'s row."""
    x, y, right, bottom = ritual_row_box(card)
    return x + OUTCOME_X, y + 5, right - 4, bottom - 5


def legend_box(n: int, players: int = 6) -> tuple[int, int, int, int]:
    """The box of the ``n``-th player (0-based, in seat order) in the legend of ``players`` players: two
    rows, of two players each (wide boxes, for long names) or three for five or six players."""
    cols = 2 if players <= 4 else 3
    width = (WIDTH - 2 * MARGIN) // cols
    x, y = MARGIN + (n % cols) * width, LEG_Y + (n // cols) * LEG_ROW_H
    return x, y, x + width, y + LEG_ROW_H


def _centre_text(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], text: str, size: int,
                 fill: tuple[int, int, int], bold: bool = False) -> None:
    f = font(size)
    # centre on the cap height (as "H" stands), so words with and without descenders line up
    _, cap_top, _, cap_bottom = f.getbbox("H")
    left, _, right, _ = f.getbbox(text)
    x = box[0] + (box[2] - box[0] - (right - left)) / 2 - left
    y = box[1] + (box[3] - box[1] - (cap_bottom - cap_top)) / 2 - cap_top
    f.draw(draw, (x, y), text, fill, stroke_width=1 if bold else 0, stroke_fill=fill)


def _left_text(draw: ImageDraw.ImageDraw, at: tuple[float, float, float], text: str, size: int,
               fill: tuple[int, int, int], bold: bool = False) -> None:
    """``text`` from x = ``at[0]``, centred (on its cap height) between y = ``at[1]`` and ``at[2]``."""
    f = font(size)
    _, cap_top, _, cap_bottom = f.getbbox("H")
    left = f.getbbox(text)[0]
    f.draw(draw, (at[0] - left, at[1] + (at[2] - at[1] - (cap_bottom - cap_top)) / 2 - cap_top), text, fill,
           stroke_width=1 if bold else 0, stroke_fill=fill)


def _fit(draw: ImageDraw.ImageDraw, text: str, size: int, width: float) -> str:
    """``text``, shortened with an ellipsis if needed to fit ``width`` pixels."""
    f = font(size)
    if f.getlength(text) <= width:
        return text
    while text and f.getlength(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"


def _back(draw: ImageDraw.ImageDraw, x: int, y: int, w: int, h: int, inset: bool = True) -> None:
    draw.rounded_rectangle((x, y, x + w, y + h), radius=8, fill=BACK, outline=BACK_LINE, width=2)
    for k in range(-h, w, 14):
        draw.line((x + max(k, 0), y + max(-k, 0), x + min(k + h, w), y + min(h, w - k)), fill=BACK_LINE, width=1)
    if inset:
        draw.rounded_rectangle((x + 8, y + 8, x + w - 8, y + h - 8), radius=6, outline=BACK_LINE, width=2)


def _card_look(card: str) -> tuple[str, tuple[int, int, int], tuple[int, int, int]]:
    """A card's initial, fill colour and ink (regalia: gold on purple)."""
    if card in FACTION:
        return FACTION[card].short[0], _hex(FACTION[card].colour), INK
    return REGALIA_BY_ID[card].name[0], _hex(REGALIA_BY_ID[card].colour), GOLD


def _pawn(draw: ImageDraw.ImageDraw, cx: float, cy: float, fill: tuple[int, int, int], initial: str,
          r: int = 28) -> None:
    """A pawn: a disc in the player's colour with their initial; with its rings 2 * (r + 3) px wide."""
    draw.ellipse((cx - r - 3, cy - r - 3, cx + r + 3, cy + r + 3), fill=INK)
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=(0, 0, 0), width=3)
    _centre_text(draw, (cx - r, cy - r, cx + r, cy + r), initial, PAWN, _ink_on(fill), bold=True)


def _shrine(draw: ImageDraw.ImageDraw, s: dict[str, Any], x: int, y: int, colours: dict[str, tuple],
            initials: dict[str, str]) -> None:
    card = s["card"]
    # the letter sits in the top half (y + 4 to y + 58), the pawn's 62 px disc below it (y + 60 to y + 122)
    letter_box = (x, y + 4, x + CARD_W, y + 58)
    if s["face_up"]:
        letter, fill, ink = _card_look(card)
        regalia = card not in FACTION
        draw.rounded_rectangle((x, y, x + CARD_W, y + CARD_H), radius=8, fill=fill,
                               outline=GOLD if regalia else INK, width=4 if regalia else 2)
        _centre_text(draw, letter_box, letter, LETTER, ink, bold=True)
    else:
        _back(draw, x, y, CARD_W, CARD_H)
        shown = card if card is not None else s["was"]  # revealed at the end, or remembered
        if shown is not None:
            letter, fill, ink = _card_look(shown)
            if card is not None:  # the game is over (or an open-information table): what it is
                patch = (x + 10, y + 8, x + CARD_W - 10, y + 58)
                draw.rounded_rectangle(patch, radius=6, fill=fill, outline=INK, width=2)
                _centre_text(draw, patch, letter, 52, ink, bold=True)
            else:  # the table's memory: "was" and the initial, dimmed, on a dark patch
                draw.rounded_rectangle((x + 3, y + 3, x + CARD_W - 3, y + 59), radius=6, fill=_mix(fill, BG, 0.72))
                _centre_text(draw, (x + 3, y + 2, x + CARD_W - 3, y + 26), "was", LABEL, DIM)
                _centre_text(draw, (x + 3, y + 30, x + CARD_W - 3, y + 58), letter, LABEL,
                             _mix(fill, INK, 0.5) if ink == INK else GOLD, bold=True)
    if s["pawn"]:
        _pawn(draw, x + CARD_W / 2, y + CARD_H - 35, colours[s["pawn"]], initials[s["pawn"]])


def _mark(draw: ImageDraw.ImageDraw, cx: float, cy: float, on: bool) -> None:
    """On: a filled green disc; off: a hollow red ring (shapes, not glyphs)."""
    if on:
        draw.ellipse((cx - 19, cy - 19, cx + 19, cy + 19), fill=ON, outline=(0, 0, 0), width=2)
    else:
        draw.ellipse((cx - 16, cy - 16, cx + 16, cy + 16), outline=OFF, width=6)


CHIP_W, CHIP_GAP = 38, 4  # a regalia's initial on a purple chip, in place of its name in a long outcome title
OUTCOME_PAD = 5  # the least room left and right of an outcome's words in its box


def outcome_form(draw: ImageDraw.ImageDraw, outcome: str, face_up: bool, width: float) -> tuple[str | None, str]:
    """How an outcome is written in ``width`` px at LABEL: (a regalia's initial for a chip, or None; the
    words). Its title if it fits ("(title)" when known only because the game is over), else the
    regalia's chip and the title's last word ("dominates", "devoured")."""
    o = OUTCOME[outcome]
    words = o.title if face_up else f"({o.title})"
    if o.regalia is None or font(LABEL).getlength(words) <= width:
        return None, words
    word = o.title.split()[-1]
    return REGALIA_BY_ID[o.regalia].name[0], word if face_up else f"({word})"


def outcome_width(draw: ImageDraw.ImageDraw, form: tuple[str | None, str]) -> float:
    """The drawn width of an ``outcome_form``."""
    chip, words = form
    return (CHIP_W + CHIP_GAP if chip else 0) + font(LABEL).getlength(words)


def _outcome(draw: ImageDraw.ImageDraw, r: dict[str, Any], box: tuple[int, int, int, int]) -> None:
    if r["outcome"] is None:
        _back(draw, box[0], box[1], box[2] - box[0], box[3] - box[1], inset=False)
        _centre_text(draw, box, "?", HEADING, INK, bold=True)
        return
    o = OUTCOME[r["outcome"]]
    fill = OUTCOME_FILL[o.kind]
    chip_fill = _hex(REGALIA_BY_ID[o.regalia].colour) if o.regalia else BACK
    if r["face_up"]:
        draw.rounded_rectangle(box, radius=8, fill=fill)
        ink, chip_ink = INK, GOLD
    else:  # known only because the game is over: dimmer, in brackets
        draw.rounded_rectangle(box, radius=8, fill=_mix(fill, BG, 0.5), outline=DIM, width=2)
        ink, chip_fill, chip_ink = DIM, _mix(chip_fill, BG, 0.4), _mix(GOLD, BG, 0.3)
    form = outcome_form(draw, r["outcome"], r["face_up"], box[2] - box[0] - 2 * OUTCOME_PAD)
    chip, words = form
    x = (box[0] + box[2] - outcome_width(draw, form)) / 2
    if chip:
        chip_box = (x, box[1] + 3, x + CHIP_W, box[3] - 3)
        draw.rounded_rectangle(chip_box, radius=6, fill=chip_fill, outline=chip_ink, width=3)
        _centre_text(draw, chip_box, chip, LABEL, chip_ink, bold=True)
        x += CHIP_W + CHIP_GAP
    _left_text(draw, (x, box[1], box[3]), words, LABEL, ink, bold=bool(r["face_up"]))


def _ritual_row(draw: ImageDraw.ImageDraw, r: dict[str, Any], current: bool) -> None:
    x, y, right, bottom = ritual_row_box(r["card"])
    if current:
        draw.rounded_rectangle((x - 6, y, right + 6, bottom), radius=10, fill=(66, 56, 26), outline=GOLD, width=5)
    elif r["card"] % 2 == 0:
        draw.rectangle((x, y + 2, right, bottom - 2), fill=STRIPE)
    _centre_text(draw, (x, y, x + RIT_NUM_W, bottom), str(r["card"]), HEADING, GOLD if current else INK, bold=True)
    for k, on in enumerate(r["flags"]):
        _mark(draw, *mark_xy(r["card"], k), on)
    _outcome(draw, r, outcome_box(r["card"]))


def _heading_x(draw: ImageDraw.ImageDraw, marks: list[int]) -> float:
    """Where "Bell Book Candle" starts so that each word stands over its column of marks (the words are
    wider than the columns): the middle of the starts that put every mark under its word."""
    f, lo, hi, at = font(LABEL), -1e9, 1e9, 0.0
    for arc, mark in zip(ROWS, marks, strict=True):
        w = f.getlength(ARCANUM[arc].name)
        lo, hi = max(lo, mark - at - w + 6), min(hi, mark - at - 6)
        at += w + f.getlength(" ")
    return (lo + hi) / 2 if lo <= hi else marks[1] - at / 2


def _corner(draw: ImageDraw.ImageDraw, pub: dict[str, Any], title: str) -> str:
    """The top-left corner's word or two: the title's tail ("turn 3") if it fits, or "the end"."""
    room = X0 - MARGIN - 8
    if pub.get("revealed"):
        return "the end"
    tail = title.rsplit(": ", 1)[-1]
    if font(LABEL).getlength(tail) > room:
        tail = tail.split()[-1]
    return _fit(draw, tail, LABEL, room)


def draw_tableau(pub: dict[str, Any], title: str = "Castle of Magic", cast: bool = False) -> Image.Image:
    img = Image.new("RGB", (WIDTH, HEIGHT), BG)
    draw = ImageDraw.Draw(img)
    colours = {p["id"]: _hex(p["colour"]) for p in pub["players"]}
    initials = {p["id"]: (p["name"][:1] or "?").upper() for p in pub["players"]}
    if len(set(initials.values())) < len(initials):  # initials clash: seat numbers instead
        initials = {p["id"]: str(k + 1) for k, p in enumerate(pub["players"])}
    _left_text(draw, (MARGIN, *COUNTRY_BAND), _corner(draw, pub, title), LABEL, GOLD, bold=True)
    # the countries, then the column numbers (the shrines' names in the bot's menus)
    for c, country in enumerate(COUNTRY.values()):
        x_left, _ = card_xy(0, c * 3)
        x_right = card_xy(0, c * 3 + 2)[0] + CARD_W
        _centre_text(draw, (x_left, COUNTRY_BAND[0], x_right, COUNTRY_BAND[1]), country.name, HEADING, INK, bold=True)
        draw.line((x_left + 4, RULE_Y, x_right - 4, RULE_Y), fill=DIM, width=3)
        for k in range(3):
            xk, _ = card_xy(0, c * 3 + k)
            _centre_text(draw, (xk, NUMBER_BAND[0], xk + CARD_W, NUMBER_BAND[1]), str(c * 3 + k + 1), HEADING,
                         GOLD, bold=True)
    for r, arc in enumerate(ROWS):
        _, y = card_xy(r, 0)
        a = pub["arcana"][arc]
        up = is_on(a["active"])
        lines = ((ARCANUM[arc].name, HEADING, INK, True), (a["state"], LABEL, GOLD if up else DIM, up),
                 (f"{a['active']}/9 up", LABEL, DIM, False))
        for k, (text, size, ink, bold) in enumerate(lines):
            _left_text(draw, (MARGIN, y + k * ROW_LINE_H, y + (k + 1) * ROW_LINE_H), text, size, ink, bold=bold)
    for s in pub["shrines"]:
        row, col = ROWS.index(s["row"]), s["column"] - 1
        x, y = card_xy(row, col)
        _shrine(draw, s, x, y, colours, initials)
    # the caption, and the key to the marks at its right
    caption = "gold: the spell cast" if cast else "gold: the spell as the shrines stand"
    _left_text(draw, (MARGIN, *CAPTION_BAND), caption, LABEL, GOLD)
    cy = sum(CAPTION_BAND) / 2
    key_x = WIDTH - MARGIN - 2 * (38 + 8) - font(LABEL).getlength("on") \
        - font(LABEL).getlength("off") - 24
    for on, word in ((True, "on"), (False, "off")):
        _mark(draw, key_x + 19, cy, on)
        _left_text(draw, (key_x + 46, *CAPTION_BAND), word, LABEL, INK)
        key_x += 46 + font(LABEL).getlength(word) + 24
    # the ritual cards: two halves of four rows, each headed by its marks' arcana
    heading = " ".join(ARCANUM[arc].name for arc in ROWS)
    head_w = font(LABEL).getlength(heading)
    for half in range(2):
        card = 1 + half * RIT_PER_COL
        x, _, right, _ = ritual_row_box(card)
        head_x = min(max(_heading_x(draw, [mark_xy(card, k)[0] for k in range(3)]), x), right - head_w)
        _left_text(draw, (head_x, *HEAD_BAND), heading, LABEL, INK, bold=True)
        draw.line((x, RIT_TOP - 2, right, RIT_TOP - 2), fill=DIM, width=2)
    now = ritual_now(pub)
    for k, r in enumerate(pub["rituals"]):
        if k != now:
            _ritual_row(draw, r, current=False)
    _ritual_row(draw, pub["rituals"][now], current=True)  # its frame on top
    # the players: three to a row
    for n, p in enumerate(pub["players"]):
        x, y, right, bottom = legend_box(n, len(pub["players"]))
        _pawn(draw, x + 31, (y + bottom) / 2, colours[p["id"]], initials[p["id"]], r=26)
        tail = (" (left)" if p["removed"] else "") + (" (to play)" if p["current"] else "")
        room = right - x - 82 - font(LABEL).getlength(tail)
        label = _fit(draw, p["name"], LABEL, room) + tail
        ink = GOLD if p["current"] else (DIM if p["removed"] else INK)
        _left_text(draw, (x + 70, y, bottom), label, LABEL, ink, bold=p["current"])
    return img


def tableau_picture(state: Any) -> dict[str, Any]:
    """What the tableau picture shows, as plain data (public only): cheap to make at commit time,
    drawn later, off the bot's event loop, by ``draw_picture``."""
    if state.spell is not None:
        title = "Castle of Magic: the spell is cast"
    elif state.finished:
        title = "Castle of Magic: the game was ended"
    else:
        title = f"Castle of Magic: turn {state.turns + 1}"
    return {"board": board_marks(state), "title": title, "cast": state.spell is not None}


def draw_picture(data: dict[str, Any]) -> bytes:
    """The PNG of a picture's data (``"board"``: ``board_marks``; a row still waiting in the outbox
    from a version before is drawn too: ``"compact"``, ``expand_tableau``'s form, and
    ``"tableau"``, the whole public tableau)."""
    if "board" in data:
        pub = tableau_of_marks(data["board"])
    else:
        pub = expand_tableau(data["compact"]) if "compact" in data else data["tableau"]
    buf = io.BytesIO()
    draw_tableau(pub, data["title"], cast=data["cast"]).save(buf, format="PNG")
    return buf.getvalue()


def render_tableau(state: Any) -> bytes:
    return draw_picture(tableau_picture(state))
