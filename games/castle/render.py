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

WIDTH, HEIGHT = 1180, 730
CARD_W, CARD_H, GAP, COUNTRY_GAP = 100, 128, 8, 22
X0, Y0 = 150, 86
RIT_W, RIT_H, RIT_GAP = 128, 118, 12
RIT_Y = Y0 + 3 * (CARD_H + GAP) + 48

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
            _centre_text(draw, (x, y + 8, x + CARD_W, y + 44), FACTION[card].short[0], 30, INK)
            _centre_text(draw, (x, y + 44, x + CARD_W, y + 70), FACTION[card].short, 17, INK)
        else:
            fill = _hex(REGALIA_BY_ID[card].colour)
            draw.rounded_rectangle((x, y, x + CARD_W, y + CARD_H), radius=8, fill=fill, outline=GOLD, width=3)
            _centre_text(draw, (x, y + 8, x + CARD_W, y + 44), REGALIA_BY_ID[card].name[0], 30, GOLD)
            _centre_text(draw, (x, y + 44, x + CARD_W, y + 70), REGALIA_BY_ID[card].name, 17, GOLD)
    else:
        _back(draw, x, y, CARD_W, CARD_H)
        if card is not None:  # the game is over (or an open-information table): show what it is
            name = FACTION[card].short if card in FACTION else REGALIA_BY_ID[card].name
            draw.rectangle((x + 6, y + 40, x + CARD_W - 6, y + 66), fill=BG)
            _centre_text(draw, (x, y + 40, x + CARD_W, y + 66), f"({name})", 15, INK)
        elif s["was"] is not None:
            name = FACTION[s["was"]].short if s["was"] in FACTION else REGALIA_BY_ID[s["was"]].name
            draw.rectangle((x + 6, y + 40, x + CARD_W - 6, y + 66), fill=BG)
            _centre_text(draw, (x, y + 40, x + CARD_W, y + 66), f"was {name}", 14, DIM)
    if s["pawn"]:
        cx, cy, r = x + CARD_W // 2, y + CARD_H - 28, 18
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colours[s["pawn"]], outline=(0, 0, 0), width=3)
        draw.ellipse((cx - r - 2, cy - r - 2, cx + r + 2, cy + r + 2), outline=INK, width=1)
        rgb = colours[s["pawn"]]
        ink = (0, 0, 0) if sum(rgb) > 380 else (255, 255, 255)
        _centre_text(draw, (cx - r, cy - r, cx + r, cy + r), initials[s["pawn"]], 16, ink)


def _ritual(draw: ImageDraw.ImageDraw, r: dict[str, Any], x: int, y: int, current: bool) -> None:
    draw.rounded_rectangle((x, y, x + RIT_W, y + RIT_H), radius=8, fill=PARCHMENT,
                           outline=GOLD if current else (120, 110, 90), width=4 if current else 2)
    draw.text((x + 8, y + 5), f"Ritual {r['card']}", font=font(14), fill=(60, 50, 40))
    for k, (arc, on) in enumerate(zip(ROWS, r["flags"], strict=True)):
        a = ARCANUM[arc]
        word = a.active if on else a.inactive
        draw.text((x + 8, y + 24 + k * 16), f"{a.name}: {word}", font=font(13),
                  fill=(20, 110, 40) if on else (130, 40, 40))
    box = (x + 6, y + 76, x + RIT_W - 6, y + RIT_H - 6)
    if r["outcome"] is None:
        _back(draw, box[0], box[1], box[2] - box[0], box[3] - box[1])
        _centre_text(draw, box, "?", 20, INK)
    else:
        o = OUTCOME[r["outcome"]]
        fill = {"banished": (40, 120, 70), "released": (150, 30, 30), "dominate": (120, 60, 150),
                "devour": (170, 90, 20)}[o.kind]
        draw.rounded_rectangle(box, radius=5, fill=fill, outline=None if r["face_up"] else INK)
        _centre_text(draw, box, o.title if r["face_up"] else f"({o.title})", 13, INK)


def draw_tableau(pub: dict[str, Any], title: str = "Castle of Magic", cast: bool = False) -> Image.Image:
    img = Image.new("RGB", (WIDTH, HEIGHT), BG)
    draw = ImageDraw.Draw(img)
    colours = {p["id"]: _hex(p["colour"]) for p in pub["players"]}
    initials = {p["id"]: (p["name"][:1] or "?").upper() for p in pub["players"]}
    if len(set(initials.values())) < len(initials):  # initials clash: seat numbers instead
        initials = {p["id"]: str(k + 1) for k, p in enumerate(pub["players"])}
    draw.text((20, 14), title, font=font(26), fill=GOLD)
    for c, country in enumerate(COUNTRY.values()):
        x_left, _ = card_xy(0, c * 3)
        x_right, _ = card_xy(0, c * 3 + 2)
        _centre_text(draw, (x_left, Y0 - 36, x_right + CARD_W, Y0 - 6), country.name, 20, INK)
        draw.line((x_left, Y0 - 6, x_right + CARD_W, Y0 - 6), fill=DIM, width=1)
        for k in range(3):
            xk, _ = card_xy(0, c * 3 + k)
            draw.text((xk + 4, Y0 - 22), str(c * 3 + k + 1), font=font(12), fill=DIM)
    for r, arc in enumerate(ROWS):
        _, y = card_xy(r, 0)
        a = pub["arcana"][arc]
        draw.text((16, y + 30), ARCANUM[arc].name, font=font(22), fill=INK)
        draw.text((16, y + 60), f"{a['state']}", font=font(16), fill=GOLD if a["active"] * 2 > 9 else DIM)
        draw.text((16, y + 82), f"{a['active']}/9 active", font=font(14), fill=DIM)
    for s in pub["shrines"]:
        row, col = ROWS.index(s["row"]), s["column"] - 1
        x, y = card_xy(row, col)
        _shrine(draw, s, x, y, colours, initials)
    caption = "the spell that was cast" if cast else "the spell as the shrines stand now"
    draw.text((20, RIT_Y - 28), f"Ritual cards (gold frame: {caption})", font=font(16), fill=INK)
    now = ritual_index({arc: pub["arcana"][arc]["active"] * 2 > N_COLUMNS for arc in ROWS})
    for r in pub["rituals"]:
        k = r["card"] - 1
        _ritual(draw, r, 20 + k * (RIT_W + RIT_GAP), RIT_Y, current=(k == now))
    ly = RIT_Y + RIT_H + 22
    x = 20
    for p in pub["players"]:
        fill = colours[p["id"]]
        draw.ellipse((x, ly, x + 22, ly + 22), fill=fill, outline=(0, 0, 0), width=2)
        ink = (0, 0, 0) if sum(fill) > 380 else (255, 255, 255)
        _centre_text(draw, (x, ly, x + 22, ly + 22), initials[p["id"]], 13, ink)
        name = p["name"] if len(p["name"]) <= 16 else p["name"][:15] + "…"
        label = name + (" (left)" if p["removed"] else "") + (" (to play)" if p["current"] else "")
        draw.text((x + 30, ly + 1), label, font=font(16), fill=GOLD if p["current"] else INK)
        x += 190
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
