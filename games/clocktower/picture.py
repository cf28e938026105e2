"""Draw the Storyteller's grimoire as a PNG: a seating circle readable on a phone.

Names and words in the Noto fonts of ``games/engine/fonts.py`` (any script, and emoji), as
``games/castle/render.py``. The input is plain data (see ``draw_grimoire``); this module reads no game state, so it can be drawn off the
bot's event loop. Geometry is in pure helpers (``seat_centre``, ``token_radius``, ``ring_radius``)
so tests can find a seat's token on the picture.

Layout, for a square canvas of side ``SIZE``:
- the seats are tokens on a big circle, clockwise from the top; the token radius comes from the
  seat count so that 17 tokens never touch;
- inside a token: the team (small), the character (big), "thinks: X" for a false card, and the
  player's seat and name on a banner across the bottom; every line is trimmed with "…" to the
  room between the neighbours;
- reminders are a column of pills pushed from the token toward the centre, placed greedily (seats
  with the most first) so that no pill touches a token, another pill or the centre text, with a
  faint line back to their token; at most 4, and "+N more" for the rest or for what does not fit;
- the centre holds the title, the Fabled and the Demon's bluffs.
"""

from __future__ import annotations

import io
import math
from typing import Any

from PIL import Image, ImageDraw

from games.engine.fonts import font

SIZE = 1200
MARGIN = 10  # between the outermost drawing and the canvas edge
BANNER_OVERHANG = 14  # how far a player-name banner may hang below its token
MAX_REMINDERS = 4
ELLIPSIS = "…"

BG = (22, 20, 30)
TABLE = (40, 36, 52)
INK = (240, 236, 226)
DIM = (160, 156, 170)
DARK = (12, 10, 16)
GOLD = (232, 190, 60)
FILL = {"good": (34, 74, 150), "evil": (146, 32, 40)}
FILL_DEAD = {"good": (66, 72, 86), "evil": (86, 66, 68)}
INK_DEAD = (196, 194, 200)
RING = {
    "townsfolk": (120, 180, 255),
    "outsider": (90, 214, 214),
    "minion": (255, 146, 60),
    "demon": (255, 60, 60),
    "traveller": GOLD,
}
PILL = (226, 214, 182)
LEADER = (92, 86, 112)
PILL_INK = (40, 32, 24)


def text_width(text: str, size: int) -> float:
    return font(size).getlength(text)


def trim_to_width(text: str, size: int, max_width: float) -> str:
    """``text`` if it fits in ``max_width`` pixels at font ``size``, else its longest prefix that fits
    with "…" after it (just "…" when nothing else fits)."""
    if text_width(text, size) <= max_width:
        return text
    lo, hi = 0, len(text)  # the prefix of length lo fits (with the ellipsis), hi does not
    while lo + 1 < hi:
        mid = (lo + hi) // 2
        if text_width(text[:mid].rstrip() + ELLIPSIS, size) <= max_width:
            lo = mid
        else:
            hi = mid
    return text[:lo].rstrip() + ELLIPSIS


# ---------------------------------------------------------------------------------------- geometry


def _half_slot(count: int) -> float:
    """Half the angle one seat owns (capped so one to four seats still get sane tokens)."""
    return min(math.pi / max(count, 1), math.pi / 4)


def token_radius(count: int, size: int = SIZE) -> int:
    """A token's radius: 88% of half the distance between neighbours on the ring, at most a tenth of
    the canvas (solved with ``ring_radius``, which depends on it)."""
    outer = size / 2 - MARGIN - BANNER_OVERHANG  # ring radius + token radius
    k = 0.88 * math.sin(_half_slot(count))  # r = k * R and R = outer - r
    return int(min(size * 0.0875, k * outer / (1 + k)))


def ring_radius(count: int, size: int = SIZE) -> int:
    """The radius of the circle the token centres sit on."""
    return int(size / 2 - MARGIN - BANNER_OVERHANG - token_radius(count, size))


def seat_centre(index: int, count: int, size: int = SIZE) -> tuple[int, int]:
    """Centre of the token of the ``index``-th seat (0-based) of ``count``, clockwise from the top."""
    angle = 2 * math.pi * index / max(count, 1)
    big = ring_radius(count, size)
    return round(size / 2 + big * math.sin(angle)), round(size / 2 - big * math.cos(angle))


def _label_width(index: int, count: int, size: int) -> float:
    """How wide a line of text in a token may be: less than the gap to the neighbours' centres and
    inside the canvas."""
    r = token_radius(count, size)
    chord = 2 * ring_radius(count, size) * math.sin(_half_slot(count))
    cx, _ = seat_centre(index, count, size)
    edge = 2 * (min(cx, size - cx) - MARGIN)
    return max(40.0, min(chord - 10, 2.6 * r, edge))


def _centre_radius(count: int, size: int) -> float:
    """The disc in the middle kept for the title, the Fabled and the bluffs."""
    return max(size * 0.145, 0.38 * ring_radius(count, size))


# ------------------------------------------------------------------------------------------ drawing


def _text_centred(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int,
                  fill: tuple[int, int, int]) -> None:
    font(size).draw(draw, xy, text, fill, anchor="mm")


def _fit_size(text: str, sizes: tuple[int, ...], width: float) -> int:
    """The biggest of ``sizes`` (largest first) at which ``text`` fits, else the smallest."""
    for s in sizes:
        if text_width(text, s) <= width:
            return s
    return sizes[-1]


def _token(draw: ImageDraw.ImageDraw, seat: dict[str, Any], index: int, count: int, size: int) -> None:
    cx, cy = seat_centre(index, count, size)
    r = token_radius(count, size)
    width = _label_width(index, count, size)
    alignment = "evil" if seat.get("alignment") == "evil" else "good"
    team = str(seat.get("team") or "")
    traveller = bool(seat.get("traveller")) or team == "traveller"
    alive = seat.get("alive", True)
    ring = GOLD if traveller else RING.get(team, DIM)
    ink = INK if alive else INK_DEAD

    fill = FILL[alignment] if alive else FILL_DEAD[alignment]
    ring_w = max(4, round(r * (0.11 if traveller else 0.08)))
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=ring if alive else tuple(c // 2 for c in ring))
    inner = r - ring_w
    draw.ellipse((cx - inner, cy - inner, cx + inner, cy + inner), fill=fill)
    if traveller:  # a second, thin gold ring: travellers stand out even when dead
        draw.ellipse((cx - inner + 3, cy - inner + 3, cx + inner - 3, cy + inner - 3), outline=GOLD, width=2)

    small = max(17, round(r * 0.22))
    if not alive:
        # a cross behind the words, and a dark shroud across the top reading DEAD
        d = inner * 0.62
        for sx in (-1, 1):
            draw.line((cx - d, cy - sx * d, cx + d, cy + sx * d), fill=DARK, width=max(5, r // 12))
        top, bottom = cy - r * 0.86, cy - r * 0.40
        half = r * 0.62
        draw.polygon([(cx - half, top), (cx + half, top), (cx + half, bottom - r * 0.08), (cx, bottom),
                      (cx - half, bottom - r * 0.08)], fill=DARK, outline=(90, 86, 96))
        _text_centred(draw, (cx, (top + bottom) / 2 - r * 0.04), "DEAD", small + 2, INK)
        if seat.get("vote_token", False):
            vr = max(9, round(r * 0.17))
            vx, vy = cx + r * 0.72, cy - r * 0.72
            draw.ellipse((vx - vr - 3, vy - vr - 3, vx + vr + 3, vy + vr + 3), fill=DARK)
            draw.ellipse((vx - vr, vy - vr, vx + vr, vy + vr), fill=(250, 250, 250))
            _text_centred(draw, (vx, vy), "v", max(14, vr), DARK)
    else:
        label = f"{alignment} traveller" if traveller else team
        _text_centred(draw, (cx, cy - r * 0.58), trim_to_width(label, small, min(width, inner * 1.75)), small,
                      ring)

    character = str(seat.get("character") or "?")
    big = max(30, min(40, round(r * 0.4)))
    csize = _fit_size(character, tuple(range(big, 27, -2)), width)
    _text_centred(draw, (cx, cy - r * 0.14), trim_to_width(character, csize, width), csize, ink)

    shown = str(seat.get("shown") or "")
    if shown:
        tsize = max(20, round(r * 0.26))
        text = trim_to_width(f"thinks: {shown}", tsize, min(width, inner * 2))
        _text_centred(draw, (cx, cy + r * 0.27), text, tsize, GOLD if alive else INK_DEAD)

    psize = max(26, min(34, round(r * 0.34)))
    number = seat.get("seat", index + 1)
    name = trim_to_width(f"{number} · {seat.get('name', '')}", psize, width - 16)
    tw = text_width(name, psize)
    by = cy + r * 0.80
    bh = psize * 0.62 + 6
    draw.rounded_rectangle((cx - tw / 2 - 8, by - bh, cx + tw / 2 + 8, by + bh), radius=int(bh),
                           fill=DARK, outline=ring if alive else (90, 86, 96), width=2)
    _text_centred(draw, (cx, by), name, psize, ink)


Box = tuple[float, float, float, float]


def _overlaps(box: Box, boxes: list[Box], discs: list[tuple[float, float, float]]) -> bool:
    x0, y0, x1, y1 = box
    for a0, b0, a1, b1 in boxes:
        if x0 < a1 and a0 < x1 and y0 < b1 and b0 < y1:
            return True
    for cx, cy, radius in discs:  # the nearest point of the box to the disc's centre
        dx, dy = max(x0 - cx, 0, cx - x1), max(y0 - cy, 0, cy - y1)
        if dx * dx + dy * dy < radius * radius:
            return True
    return False


def _token_boxes(index: int, count: int, size: int) -> tuple[tuple[float, float, float], Box]:
    """What a token covers: its disc (with a little air) and the box of its widest lines of text."""
    cx, cy = seat_centre(index, count, size)
    r = token_radius(count, size)
    half = _label_width(index, count, size) / 2 + 6
    return (cx, cy, r + 6), (cx - half, cy - r * 0.45, cx + half, cy + r + BANNER_OVERHANG)


def _place_column(labels: list[str], psize: int, index: int, count: int, size: int, boxes: list[Box],
                  discs: list[tuple[float, float, float]]) -> list[tuple[str, Box]] | None:
    """A column of pills for ``labels``, as near the seat's token as it can be on the way to the
    centre without touching anything already drawn; None when there is no room."""
    angle = 2 * math.pi * index / count
    ux, uy = math.sin(angle), -math.cos(angle)
    h, gap, pad = psize + 10, 4, 18
    height = len(labels) * (h + gap) - gap
    rho_top = ring_radius(count, size) - token_radius(count, size) - 6
    centre = size / 2
    for cap in (230, 170, 130):
        widths = [min(text_width(x, psize) + pad, cap) for x in labels]
        width = max(widths)
        reach = abs(ux) * width / 2 + abs(uy) * height / 2  # half the column along the ray
        rho = rho_top - reach
        while rho - reach > 0:
            for shift in (0, 24, -24, 48, -48, 80, -80, 120, -120):
                bx, by = centre + rho * ux - shift * uy, centre + rho * uy + shift * ux
                top = by - height / 2
                pills = [(x, (bx - w / 2, top + k * (h + gap), bx + w / 2, top + k * (h + gap) + h))
                         for k, (x, w) in enumerate(zip(labels, widths, strict=True))]
                whole = (bx - width / 2, top, bx + width / 2, top + height)
                if not _overlaps(whole, boxes, discs):
                    return [(trim_to_width(x, psize, (b[2] - b[0]) - pad), b) for x, b in pills]
            rho -= 8
    return None


def _draw_reminders(draw: ImageDraw.ImageDraw, seats: list[dict[str, Any]], count: int, size: int,
                    centre: Box) -> None:
    """Every seat's reminders, seats with the most first, each placed clear of all else drawn."""
    r = token_radius(count, size)
    psize = 22 if r >= 90 else 21
    discs: list[tuple[float, float, float]] = []
    boxes: list[Box] = [centre]
    for k in range(len(seats)):
        disc, box = _token_boxes(k, count, size)
        discs.append(disc)
        boxes.append(box)
    reminders = [[str(x) for x in seat.get("reminders") or []] for seat in seats]
    placed: list[tuple[int, int, list[tuple[str, Box]]]] = []  # seat, index of "+N more", pills
    for k in sorted(range(len(seats)), key=lambda k: -len(reminders[k])):
        items = reminders[k]
        for rows in range(min(len(items), MAX_REMINDERS + 1), 0, -1):
            shown = len(items) if len(items) <= rows else rows - 1
            labels = items[:shown] + ([f"+{len(items) - shown} more"] if shown < len(items) else [])
            pills = _place_column(labels, psize, k, count, size, boxes, discs)
            if pills:
                boxes += [(x0 - 3, y0 - 2, x1 + 3, y1 + 2) for _, (x0, y0, x1, y1) in pills]
                placed.append((k, shown, pills))
                break
        # no room at all (not seen with 4 reminders a seat): the seat's reminders are left out
    for k, _, pills in placed:  # a faint line from each column to its token, under everything
        cx, cy = seat_centre(k, count, size)
        x0, y0 = min(b[0] for _, b in pills), min(b[1] for _, b in pills)
        x1, y1 = max(b[2] for _, b in pills), max(b[3] for _, b in pills)
        draw.line((cx, cy, min(max(cx, x0), x1), min(max(cy, y0), y1)), fill=LEADER, width=3)
    for _, shown, pills in placed:
        for j, (label, (x0, y0, x1, y1)) in enumerate(pills):
            more = j == shown
            draw.rounded_rectangle((x0, y0, x1, y1), radius=(psize + 10) // 2,
                                   fill=TABLE if more else PILL, outline=DIM if more else None)
            _text_centred(draw, ((x0 + x1) / 2, (y0 + y1) / 2), label, psize, INK if more else PILL_INK)


def _wrap(words: list[str], size: int, width: float) -> list[str]:
    lines: list[str] = []
    for word in words:
        if lines and text_width(f"{lines[-1]} {word}", size) <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return [trim_to_width(line, size, width) for line in lines]


def _centre(draw: ImageDraw.ImageDraw, data: dict[str, Any], count: int, size: int) -> Box:
    """Draw the title, the Fabled and the bluffs in the middle; return the box they take."""
    rho = _centre_radius(count, size)
    title = str(data.get("title") or "Grimoire")
    fabled = [str(x) for x in data.get("fabled") or []]
    bluffs = [str(x) for x in data.get("bluffs") or []]
    for tsize, bsize in ((40, 30), (36, 28), (32, 26), (30, 24)):
        width = rho * 1.6
        block: list[tuple[str, int, tuple[int, int, int]]] = []
        for line in _wrap(title.split(" "), tsize, width):
            block.append((line, tsize, GOLD))
        if fabled:
            items = ["Fabled:"] + [f"{x}," for x in fabled[:-1]] + fabled[-1:]
            block += [(line, bsize, INK) for line in _wrap(items, bsize, width)]
        if bluffs:
            items = ["Bluffs:"] + [f"{x}," for x in bluffs[:-1]] + bluffs[-1:]
            block += [(line, bsize, INK) for line in _wrap(items, bsize, width)]
        height = sum(s + 12 for _, s, _ in block) + (8 if len(block) > 1 else 0)
        if height <= rho * 1.2:
            break
    y = top = size / 2 - height / 2
    for k, (line, s, colour) in enumerate(block):
        if k == 1:
            y += 8  # a little air under the title
        _text_centred(draw, (size / 2, y + (s + 12) / 2), line, s, colour)
        y += s + 12
    half = max(text_width(line, s) for line, s, _ in block) / 2 + 12
    return (size / 2 - half, top - 8, size / 2 + half, y + 8)


def draw_grimoire_image(data: dict[str, Any], size: int = SIZE) -> Image.Image:
    seats = list(data.get("seats") or [])
    count = max(len(seats), 1)
    img = Image.new("RGB", (size, size), BG)
    draw = ImageDraw.Draw(img)
    big = ring_radius(count, size)
    c = size / 2
    draw.ellipse((c - big, c - big, c + big, c + big), outline=TABLE, width=6)
    _draw_reminders(draw, seats, count, size, _centre(draw, data, count, size))
    for k, seat in enumerate(seats):
        _token(draw, seat, k, count, size)
    return img


def draw_grimoire(data: dict[str, Any]) -> bytes:
    """The grimoire as PNG bytes, ``SIZE`` x ``SIZE``.

    ``data``: ``title``; ``seats`` in seat order (clockwise from the top, 1 to 17), each with
    ``seat``, ``name``, ``character``, ``team`` (townsfolk, outsider, minion, demon, traveller),
    ``alignment`` (good, evil), ``alive``, ``vote_token``, ``traveller``, ``shown`` (the false card,
    or "") and ``reminders`` (short strings); ``fabled`` and ``bluffs`` (character names). Every key
    but the seats' names and characters may be left out.
    """
    buf = io.BytesIO()
    draw_grimoire_image(data).save(buf, format="PNG")
    return buf.getvalue()


# ------------------------------------------------------------------------------------------ sample

_NAMES = ["Alice", "Bob", "Charlotte", "Dmitri", "Esperanza", "Farid", "Gwendolyn", "Hiroshi", "Ines",
          "Jonathan", "Kasia", "Leopold", "Maximiliana", "Nnamdi", "Ophelia", "Priyanka",
          "Quentin-Alexander of the Bell Tower"]
_TOWNSFOLK = ["Washerwoman", "Empath", "Knight", "Undertaker", "Mathematician", "High Priestess", "Virgin",
              "Ravenkeeper", "Juggler"]
_OUTSIDERS = ["Drunk", "Recluse"]
_MINIONS = ["Goblin", "Spy", "Marionette"]
#: Townsfolk, Outsiders, Minions for 5 to 15 players (one Demon)
_COUNTS = {5: (3, 0, 1), 6: (3, 1, 1), 7: (5, 0, 1), 8: (5, 1, 1), 9: (5, 2, 1), 10: (7, 0, 2),
           11: (7, 1, 2), 12: (7, 2, 2), 13: (9, 0, 3), 14: (9, 1, 3), 15: (9, 2, 3)}


def sample_grimoire(seats: int = 12) -> dict[str, Any]:
    """Realistic example data for ``draw_grimoire`` with ``seats`` players (1 to 17): two dead (one
    with their vote left), a Drunk who thinks they are the Soldier, reminders, Travellers above 15."""
    seats = max(1, min(17, seats))
    base = min(seats, 15)
    town, out, minions = _COUNTS.get(base, (max(base - 2, 0), 0, 1))
    roles: list[tuple[str, str, str]] = [("Pukka", "demon", "evil")]
    roles += [(m, "minion", "evil") for m in _MINIONS[:minions]]
    roles += [(o, "outsider", "good") for o in _OUTSIDERS[:out]]
    roles += [(t, "townsfolk", "good") for t in _TOWNSFOLK[:town]]
    roles = roles[:base]
    stride = next(s for s in (5, 7, 3, 1) if math.gcd(s, base) == 1)
    order = [roles[(k * stride) % base] for k in range(base)]
    order += [("Thief", "traveller", "evil"), ("Scapegoat", "traveller", "good")][: seats - base]

    out_seats: list[dict[str, Any]] = []
    for k, (character, team, alignment) in enumerate(order):
        out_seats.append({
            "seat": k + 1, "name": _NAMES[k], "character": character, "team": team, "alignment": alignment,
            "alive": True, "vote_token": True, "traveller": team == "traveller", "shown": "", "reminders": [],
        })
    by_character = {s["character"]: s for s in out_seats}
    if "Drunk" in by_character:
        by_character["Drunk"]["shown"] = "Soldier"
        by_character["Drunk"]["reminders"].append("Is the Drunk")
    if "Marionette" in by_character:
        by_character["Marionette"]["shown"] = "Alsaahir"
    good = [s for s in out_seats if s["alignment"] == "good" and s["team"] != "traveller"]
    if good:
        good[0]["reminders"] += ["Poisoned (Pukka)", "Know (Knight)", "Townsfolk (Washerwoman)",
                                 "Abnormal (Mathematician)", "Chosen", "Correct (Juggler)"]
    if len(good) > 2:
        good[1]["alive"] = False
        good[1]["vote_token"] = True
        good[1]["reminders"].append("Died Today (Undertaker)")
        good[2]["reminders"].append("Know (Knight)")
    if len(good) > 4:
        good[3]["alive"] = False
        good[3]["vote_token"] = False
        good[4]["reminders"].append("Wrong (Washerwoman)")
    if "Virgin" in by_character:
        by_character["Virgin"]["reminders"].append("No Ability")
    if "Goblin" in by_character:
        by_character["Goblin"]["reminders"].append("Claimed")
    if "Thief" in by_character:
        by_character["Thief"]["reminders"].append("Negative Vote")
    in_play = {s["character"] for s in out_seats}
    bluffs = [c for c in ("Shugenja", "Alsaahir", "Magician", "Soldier", "Ravenkeeper", "Juggler")
              if c not in in_play and c not in ("Soldier", "Alsaahir")][:3]
    return {"title": "Game 12 · Night 2", "seats": out_seats, "fabled": ["Djinn"],
            "bluffs": bluffs}
