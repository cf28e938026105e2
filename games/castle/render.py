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

# Sized for a phone: Discord shows the picture about 350 px wide there, so at 1,180 px the labels
# players read (rows, countries, ritual cards, players) are drawn at 28 px or more (about 9 px on the
# phone), the cards' names at 22 px, and the ritual cards sit in two rows of four.
WIDTH, HEIGHT = 1180, 1230
CARD_W, CARD_H, GAP, COUNTRY_GAP = 96, 128, 8, 20
X0, Y0 = 196, 128
RIT_W, RIT_H, RIT_GAP = 278, 218, 16
RIT_Y = Y0 + 3 * (CARD_H + GAP) + 58

BG = (24, 22, 32)
INK = (236, 232, 220)
DIM = (150, 146, 160)
BACK = (58, 52, 80)
BACK_LINE = (78, 70, 104)
PARCHMENT = (226, 214, 182)
GOLD = (232, 190, 60)


@cache
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def _hex(colour: str) -> tuple[int, int, int]:
    colour = colour.lstrip("#")
    return (int(colour[0:2], 16), int(colour[2:4], 16), int(colour[4:6], 16))


def card_xy(row: int, col: int) -> tuple[int, int]:
    """Top-left corner of the card at 0-based ``row`` and ``col``."""
    return X0 + col * (CARD_W + GAP) + (col // 3) * COUNTRY_GAP, Y0 + row * (CARD_H + GAP)


def _centre_text(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], text: str, size: int,
                 fill: tuple[int, int, int]) -> None:
    f = font(size)
    left, top, right, bottom = draw.textbbox((0, 0), text, font=f)
    x = box[0] + (box[2] - box[0] - (right - left)) / 2 - left
    y = box[1] + (box[3] - box[1] - (bottom - top)) / 2 - top
    draw.text((x, y), text, font=f, fill=fill)


def _back(draw: ImageDraw.ImageDraw, x: int, y: int, w: int, h: int) -> None:
    draw.rounded_rectangle((x, y, x + w, y + h), radius=8, fill=BACK, outline=BACK_LINE, width=2)
    for k in range(-h, w, 14):
        draw.line((x + max(k, 0), y + max(-k, 0), x + min(k + h, w), y + min(h, w - k)), fill=BACK_LINE, width=1)
    draw.rounded_rectangle((x + 10, y + 10, x + w - 10, y + h - 10), radius=6, outline=BACK_LINE, width=2)


def _shrine(draw: ImageDraw.ImageDraw, s: dict[str, Any], x: int, y: int, colours: dict[str, tuple],
            initials: dict[str, str]) -> None:
    card = s["card"]
    if s["face_up"]:
        if card in FACTION:
            fill = _hex(FACTION[card].colour)
            draw.rounded_rectangle((x, y, x + CARD_W, y + CARD_H), radius=8, fill=fill, outline=INK, width=2)
            _centre_text(draw, (x, y + 4, x + CARD_W, y + 52), FACTION[card].short[0], 46, INK)
            _centre_text(draw, (x, y + 52, x + CARD_W, y + 78), FACTION[card].short, 22, INK)
        else:
            fill = _hex(REGALIA_BY_ID[card].colour)
            draw.rounded_rectangle((x, y, x + CARD_W, y + CARD_H), radius=8, fill=fill, outline=GOLD, width=3)
            _centre_text(draw, (x, y + 4, x + CARD_W, y + 52), REGALIA_BY_ID[card].name[0], 46, GOLD)
            _centre_text(draw, (x, y + 52, x + CARD_W, y + 78), REGALIA_BY_ID[card].name, 22, GOLD)
    else:
        _back(draw, x, y, CARD_W, CARD_H)
        if card is not None:  # the game is over (or an open-information table): show what it is
            name = FACTION[card].short if card in FACTION else REGALIA_BY_ID[card].name
            draw.rectangle((x + 4, y + 34, x + CARD_W - 4, y + 68), fill=BG)
            _centre_text(draw, (x, y + 34, x + CARD_W, y + 68), name, 22, INK)
        elif s["was"] is not None:
            name = FACTION[s["was"]].short if s["was"] in FACTION else REGALIA_BY_ID[s["was"]].name
            draw.rectangle((x + 4, y + 34, x + CARD_W - 4, y + 68), fill=BG)
            _centre_text(draw, (x, y + 34, x + CARD_W, y + 68), f"was {name}", 18, DIM)
    if s["pawn"]:
        cx, cy, r = x + CARD_W // 2, y + CARD_H - 28, 22
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colours[s["pawn"]], outline=(0, 0, 0), width=3)
        draw.ellipse((cx - r - 2, cy - r - 2, cx + r + 2, cy + r + 2), outline=INK, width=2)
        rgb = colours[s["pawn"]]
        ink = (0, 0, 0) if sum(rgb) > 380 else (255, 255, 255)
        _centre_text(draw, (cx - r, cy - r, cx + r, cy + r), initials[s["pawn"]], 24, ink)


def _ritual(draw: ImageDraw.ImageDraw, r: dict[str, Any], x: int, y: int, current: bool) -> None:
    draw.rounded_rectangle((x, y, x + RIT_W, y + RIT_H), radius=10, fill=PARCHMENT,
                           outline=GOLD if current else (120, 110, 90), width=8 if current else 2)
    draw.text((x + 12, y + 8), f"Ritual {r['card']}", font=font(30), fill=(60, 50, 40))
    for k, (arc, on) in enumerate(zip(ROWS, r["flags"], strict=True)):
        a = ARCANUM[arc]
        word = a.active if on else a.inactive
        draw.text((x + 12, y + 46 + k * 36), f"{a.name} {word}", font=font(30),
                  fill=(20, 110, 40) if on else (140, 40, 40))
    box = (x + 8, y + 156, x + RIT_W - 8, y + RIT_H - 8)
    if r["outcome"] is None:
        _back(draw, box[0], box[1], box[2] - box[0], box[3] - box[1])
        _centre_text(draw, box, "?", 36, INK)
    else:
        o = OUTCOME[r["outcome"]]
        fill = {"banished": (40, 120, 70), "released": (150, 30, 30), "dominate": (120, 60, 150),
                "devour": (170, 90, 20)}[o.kind]
        draw.rounded_rectangle(box, radius=6, fill=fill, outline=None if r["face_up"] else INK, width=2)
        _centre_text(draw, box, o.title if r["face_up"] else f"({o.title})", 28, INK)


def draw_tableau(pub: dict[str, Any], title: str = "Castle of Magic", cast: bool = False) -> Image.Image:
    img = Image.new("RGB", (WIDTH, HEIGHT), BG)
    draw = ImageDraw.Draw(img)
    colours = {p["id"]: _hex(p["colour"]) for p in pub["players"]}
    initials = {p["id"]: (p["name"][:1] or "?").upper() for p in pub["players"]}
    if len(set(initials.values())) < len(initials):  # initials clash: seat numbers instead
        initials = {p["id"]: str(k + 1) for k, p in enumerate(pub["players"])}
    draw.text((20, 12), title, font=font(44), fill=GOLD)
    for c, country in enumerate(COUNTRY.values()):
        x_left, _ = card_xy(0, c * 3)
        x_right, _ = card_xy(0, c * 3 + 2)
        _centre_text(draw, (x_left, Y0 - 62, x_right + CARD_W, Y0 - 28), country.name, 34, INK)
        draw.line((x_left, Y0 - 26, x_right + CARD_W, Y0 - 26), fill=DIM, width=2)
        for k in range(3):
            xk, _ = card_xy(0, c * 3 + k)
            _centre_text(draw, (xk, Y0 - 26, xk + CARD_W, Y0 - 2), str(c * 3 + k + 1), 22, DIM)
    for r, arc in enumerate(ROWS):
        _, y = card_xy(r, 0)
        a = pub["arcana"][arc]
        draw.text((12, y + 10), ARCANUM[arc].name, font=font(36), fill=INK)
        draw.text((12, y + 54), f"{a['state']}", font=font(30), fill=GOLD if a["active"] * 2 > 9 else DIM)
        draw.text((12, y + 92), f"{a['active']}/9 up", font=font(28), fill=DIM)
    for s in pub["shrines"]:
        row, col = ROWS.index(s["row"]), s["column"] - 1
        x, y = card_xy(row, col)
        _shrine(draw, s, x, y, colours, initials)
    caption = "gold: the spell cast" if cast else "gold: the spell as the shrines stand"
    draw.text((20, RIT_Y - 44), f"Ritual cards ({caption})", font=font(30), fill=INK)
    now = ritual_index({arc: pub["arcana"][arc]["active"] * 2 > N_COLUMNS for arc in ROWS})
    for r in pub["rituals"]:
        k = r["card"] - 1
        x, y = 20 + (k % 4) * (RIT_W + RIT_GAP), RIT_Y + (k // 4) * (RIT_H + RIT_GAP)
        _ritual(draw, r, x, y, current=(k == now))
    ly = RIT_Y + 2 * (RIT_H + RIT_GAP) + 10
    for n, p in enumerate(pub["players"]):
        x, y = 20 + (n % 2) * 580, ly + (n // 2) * 46
        fill = colours[p["id"]]
        draw.ellipse((x, y, x + 36, y + 36), fill=fill, outline=(0, 0, 0), width=2)
        ink = (0, 0, 0) if sum(fill) > 380 else (255, 255, 255)
        _centre_text(draw, (x, y, x + 36, y + 36), initials[p["id"]], 22, ink)
        name = p["name"] if len(p["name"]) <= 18 else p["name"][:17] + "…"
        label = name + (" (left)" if p["removed"] else "") + (" (to play)" if p["current"] else "")
        draw.text((x + 46, y + 2), label, font=font(30), fill=GOLD if p["current"] else INK)
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
