"""Draw the tableau as a PNG with Pillow (no font files: Pillow's built-in scalable font).

Reads only ``public_tableau`` (what the table may see), so a face-down shrine's faction or an
unrevealed outcome is never drawn before the end of the game.
"""

from __future__ import annotations

import io
from functools import cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from .data import ARCANUM, COUNTRY, FACTION, N_COLUMNS, OUTCOME, REGALIA_BY_ID, ROWS
from .rules import ritual_index

# Phone first: Discord shows an embed's picture about 270 px wide on a phone, a quarter of these
# 1,080 px, so every label a player reads is drawn at LABEL (40 px, about 10 px on the phone) or more:
# the title at 52, the row names, countries, column numbers (the shrines' numbers in the bot's menus)
# and ritual numbers at 44, the card letters at 64 and the pawns' initials at 40 in a 62 px disc. Few
# words: a shrine is its colour and initial; the ritual cards are a table, one row per card, with drawn
# marks (a filled green disc: on; a hollow red ring: off) and the outcome in words. About 1.3 times as
# tall as wide: players (up to six) in two columns at the bottom.
WIDTH = 1080
LABEL, HEADING, TITLE, LETTER, PAWN = 40, 44, 52, 64, 40
MARGIN = 16
CARD_W, CARD_H, GAP, COUNTRY_GAP = 88, 140, 8, 20
X0, Y0 = 180, 184  # the first shrine card; the row labels sit left of it, the countries and numbers above
RIT_Y = Y0 + 3 * CARD_H + 2 * GAP + 14  # the ritual caption, then the table's headings and its rows
RIT_ROW_H = 56
RIT_TOP = RIT_Y + 2 * 50  # the first ritual row
RIT_COLS = (MARGIN, 150, 300, 450, 600)  # left edges: number, Bell, Book, Candle, outcome
LEG_Y = RIT_TOP + 8 * RIT_ROW_H + 14
LEG_ROW_H = 60  # players in two columns, three rows for six players
HEIGHT = LEG_Y + 3 * LEG_ROW_H + 20

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


@cache
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


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


def _centre_text(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], text: str, size: int,
                 fill: tuple[int, int, int], bold: bool = False) -> None:
    f = font(size)
    # centre on the cap height (as "H" stands), so words with and without descenders line up
    _, cap_top, _, cap_bottom = draw.textbbox((0, 0), "H", font=f)
    left, _, right, _ = draw.textbbox((0, 0), text, font=f)
    x = box[0] + (box[2] - box[0] - (right - left)) / 2 - left
    y = box[1] + (box[3] - box[1] - (cap_bottom - cap_top)) / 2 - cap_top
    draw.text((x, y), text, font=f, fill=fill, stroke_width=1 if bold else 0, stroke_fill=fill)


def _left_text(draw: ImageDraw.ImageDraw, at: tuple[float, float, float], text: str, size: int,
               fill: tuple[int, int, int], bold: bool = False) -> None:
    """``text`` from x = ``at[0]``, centred (on its cap height) between y = ``at[1]`` and ``at[2]``."""
    f = font(size)
    _, cap_top, _, cap_bottom = draw.textbbox((0, 0), "H", font=f)
    left = draw.textbbox((0, 0), text, font=f)[0]
    draw.text((at[0] - left, at[1] + (at[2] - at[1] - (cap_bottom - cap_top)) / 2 - cap_top), text, font=f,
              fill=fill, stroke_width=1 if bold else 0, stroke_fill=fill)


def _fit(draw: ImageDraw.ImageDraw, text: str, size: int, width: float) -> str:
    """``text``, shortened with an ellipsis if needed to fit ``width`` pixels."""
    f = font(size)
    if draw.textlength(text, font=f) <= width:
        return text
    while text and draw.textlength(text + "…", font=f) > width:
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


def _pawn(draw: ImageDraw.ImageDraw, cx: float, cy: float, fill: tuple[int, int, int], initial: str) -> None:
    r = 28  # with its rings: a 62 px disc
    draw.ellipse((cx - r - 3, cy - r - 3, cx + r + 3, cy + r + 3), fill=INK)
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=(0, 0, 0), width=3)
    _centre_text(draw, (cx - r, cy - r, cx + r, cy + r), initial, PAWN, _ink_on(fill), bold=True)


def _shrine(draw: ImageDraw.ImageDraw, s: dict[str, Any], x: int, y: int, colours: dict[str, tuple],
            initials: dict[str, str]) -> None:
    card = s["card"]
    letter_box = (x, y + 4, x + CARD_W, y + 76)  # the letter sits in the top half, the pawn below
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
                draw.rounded_rectangle((x + 10, y + 10, x + CARD_W - 10, y + 74), radius=6, fill=fill,
                                       outline=INK, width=2)
                _centre_text(draw, (x + 10, y + 10, x + CARD_W - 10, y + 74), letter, 52, ink, bold=True)
            else:  # the table's memory: "was" and the initial, dimmed, on a dark patch
                draw.rounded_rectangle((x + 3, y + 3, x + CARD_W - 3, y + 74), radius=6, fill=_mix(fill, BG, 0.72))
                _centre_text(draw, (x + 3, y + 4, x + CARD_W - 3, y + 32), "was", LABEL, DIM)
                _centre_text(draw, (x + 3, y + 38, x + CARD_W - 3, y + 72), letter, LABEL,
                             _mix(fill, INK, 0.5) if ink == INK else GOLD, bold=True)
    if s["pawn"]:
        _pawn(draw, x + CARD_W / 2, y + CARD_H - 34, colours[s["pawn"]], initials[s["pawn"]])


def _mark(draw: ImageDraw.ImageDraw, cx: float, cy: float, on: bool) -> None:
    """On: a filled green disc; off: a hollow red ring (shapes, not glyphs)."""
    if on:
        draw.ellipse((cx - 19, cy - 19, cx + 19, cy + 19), fill=ON, outline=(0, 0, 0), width=2)
    else:
        draw.ellipse((cx - 16, cy - 16, cx + 16, cy + 16), outline=OFF, width=6)


def _ritual_row(draw: ImageDraw.ImageDraw, r: dict[str, Any], y: int, current: bool) -> None:
    right = WIDTH - MARGIN
    if current:
        draw.rounded_rectangle((MARGIN - 6, y, right + 6, y + RIT_ROW_H), radius=10, fill=(66, 56, 26),
                               outline=GOLD, width=5)
    elif r["card"] % 2 == 0:
        draw.rectangle((MARGIN, y + 2, right, y + RIT_ROW_H - 2), fill=STRIPE)
    _centre_text(draw, (RIT_COLS[0], y, RIT_COLS[1], y + RIT_ROW_H), str(r["card"]), HEADING,
                 GOLD if current else INK, bold=True)
    for k, on in enumerate(r["flags"]):
        _mark(draw, (RIT_COLS[k + 1] + RIT_COLS[k + 2]) / 2, y + RIT_ROW_H / 2, on)
    box = (RIT_COLS[4] + 4, y + 6, right - 8, y + RIT_ROW_H - 6)
    if r["outcome"] is None:
        _back(draw, box[0], box[1], box[2] - box[0], box[3] - box[1], inset=False)
        _centre_text(draw, box, "?", HEADING, INK, bold=True)
    else:
        o = OUTCOME[r["outcome"]]
        fill = OUTCOME_FILL[o.kind]
        if r["face_up"]:
            draw.rounded_rectangle(box, radius=8, fill=fill)
            _centre_text(draw, box, o.title, LABEL, INK, bold=True)
        else:  # known only because the game is over: dimmer, in brackets
            draw.rounded_rectangle(box, radius=8, fill=_mix(fill, BG, 0.5), outline=DIM, width=2)
            _centre_text(draw, box, f"({o.title})", LABEL, DIM)


def draw_tableau(pub: dict[str, Any], title: str = "Castle of Magic", cast: bool = False) -> Image.Image:
    img = Image.new("RGB", (WIDTH, HEIGHT), BG)
    draw = ImageDraw.Draw(img)
    colours = {p["id"]: _hex(p["colour"]) for p in pub["players"]}
    initials = {p["id"]: (p["name"][:1] or "?").upper() for p in pub["players"]}
    if len(set(initials.values())) < len(initials):  # initials clash: seat numbers instead
        initials = {p["id"]: str(k + 1) for k, p in enumerate(pub["players"])}
    _left_text(draw, (MARGIN, 8, 72), _fit(draw, title, TITLE, WIDTH - 2 * MARGIN), TITLE, GOLD, bold=True)
    # the countries, then the column numbers (the shrines' names in the bot's menus)
    for c, country in enumerate(COUNTRY.values()):
        x_left, _ = card_xy(0, c * 3)
        x_right = card_xy(0, c * 3 + 2)[0] + CARD_W
        _centre_text(draw, (x_left, 80, x_right, 120), country.name, HEADING, INK, bold=True)
        draw.line((x_left + 4, 130, x_right - 4, 130), fill=DIM, width=3)
        for k in range(3):
            xk, _ = card_xy(0, c * 3 + k)
            _centre_text(draw, (xk, 136, xk + CARD_W, Y0 - 6), str(c * 3 + k + 1), HEADING, GOLD, bold=True)
    for r, arc in enumerate(ROWS):
        _, y = card_xy(r, 0)
        a = pub["arcana"][arc]
        up = a["active"] * 2 > N_COLUMNS
        _left_text(draw, (MARGIN, y, y + 46), ARCANUM[arc].name, HEADING, INK, bold=True)
        _left_text(draw, (MARGIN, y + 48, y + 92), a["state"], LABEL, GOLD if up else DIM, bold=up)
        _left_text(draw, (MARGIN, y + 94, y + 138), f"{a['active']}/9 up", LABEL, DIM)
    for s in pub["shrines"]:
        row, col = ROWS.index(s["row"]), s["column"] - 1
        x, y = card_xy(row, col)
        _shrine(draw, s, x, y, colours, initials)
    # the ritual cards: one row each, its Bell/Book/Candle marks and its outcome
    caption = "gold: the spell cast" if cast else "gold: the spell as the shrines stand"
    _left_text(draw, (MARGIN, RIT_Y, RIT_Y + 50), caption, LABEL, GOLD)
    key_x, key_y = WIDTH - MARGIN - 212, (RIT_Y, RIT_Y + 50)  # the key to the marks, right of the caption
    _mark(draw, key_x + 20, RIT_Y + 25, True)
    _left_text(draw, (key_x + 46, *key_y), "on", LABEL, INK)
    _mark(draw, key_x + 134, RIT_Y + 25, False)
    _left_text(draw, (key_x + 160, *key_y), "off", LABEL, INK)
    head_y = RIT_Y + 50
    headings = ["Ritual", *(ARCANUM[arc].name for arc in ROWS), "Outcome"]
    for k, word in enumerate(headings):
        x_right = RIT_COLS[k + 1] if k + 1 < len(RIT_COLS) else WIDTH - MARGIN
        _centre_text(draw, (RIT_COLS[k], head_y, x_right, head_y + 46), word, LABEL, INK, bold=True)
    draw.line((MARGIN, RIT_TOP - 2, WIDTH - MARGIN, RIT_TOP - 2), fill=DIM, width=2)
    now = ritual_index({arc: pub["arcana"][arc]["active"] * 2 > N_COLUMNS for arc in ROWS})
    for r in pub["rituals"]:
        k = r["card"] - 1
        if k != now:
            _ritual_row(draw, r, RIT_TOP + k * RIT_ROW_H, current=False)
    _ritual_row(draw, pub["rituals"][now], RIT_TOP + now * RIT_ROW_H, current=True)  # its frame on top
    # the players: two columns
    col_w = (WIDTH - 2 * MARGIN) // 2
    for n, p in enumerate(pub["players"]):
        x, y = MARGIN + (n % 2) * col_w, LEG_Y + (n // 2) * LEG_ROW_H
        _pawn(draw, x + 31, y + LEG_ROW_H / 2, colours[p["id"]], initials[p["id"]])
        tail = (" (left)" if p["removed"] else "") + (" (to play)" if p["current"] else "")
        room = col_w - 96 - draw.textlength(tail, font=font(LABEL))
        label = _fit(draw, p["name"], LABEL, room) + tail
        ink = GOLD if p["current"] else (DIM if p["removed"] else INK)
        _left_text(draw, (x + 72, y, y + LEG_ROW_H), label, LABEL, ink, bold=p["current"])
    return img


def tableau_picture(state: Any) -> dict[str, Any]:
    """What the tableau picture shows, as plain data (public only): cheap to make at commit time,
    drawn later, off the bot's event loop, by ``draw_picture``."""
    from .tableau import public_tableau

    if state.spell is not None:
        title = "Castle of Magic: the spell is cast"
    elif state.finished:
        title = "Castle of Magic: the game was ended"
    else:
        title = f"Castle of Magic: turn {state.turns + 1}"
    return {"tableau": public_tableau(state), "title": title, "cast": state.spell is not None}


def draw_picture(data: dict[str, Any]) -> bytes:
    buf = io.BytesIO()
    draw_tableau(data["tableau"], data["title"], cast=data["cast"]).save(buf, format="PNG")
    return buf.getvalue()


def render_tableau(state: Any) -> bytes:
    return draw_picture(tableau_picture(state))
