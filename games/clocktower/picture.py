"""Draw the Storyteller's grimoire as a PNG: a seating circle readable on a phone.

Names and words in the Noto fonts of ``games/engine/fonts.py`` (any script, and emoji), as
``games/castle/render.py``. The input is plain data (see ``draw_grimoire``); this module reads no game state, so it can be drawn off the
bot's event loop. Geometry is in pure helpers (``seat_centre``, ``token_radius``, ``ring_radius``)
so tests can find a seat's token on the picture.

Layout, for a square canvas of side ``SIZE``:
- the seats are tokens on a big circle, clockwise from the top; the token radius comes from the
  seat count so that 20 tokens (15 players and 5 Travellers) never touch;
- inside a token: the team (small), the character, "thinks: X" for a false card, and the
  player's seat and name on a banner across the bottom. The words inside stay inside the token's
  ring, measured with the font's real ink (``token_rows``): the character's name in the biggest
  type that fits, on one line or wrapped on two, down to ``NAME_FLOOR`` (every official name fits
  above it, at 20 seats too); a name that fits nowhere (a 30-letter homebrew word, a long name in
  Chinese) is cut on two lines anywhere and trimmed with "…". The player's banner may be wider
  than the token (trimmed with "…" to the room between the neighbours);
- reminders are a column of pills pushed from the token toward the centre, placed greedily (seats
  with the most first) so that no pill touches a token, another pill or the centre text, with a
  faint line back to their token; at most 4, and "+N more" for the rest or for what does not fit;
- the centre holds the title, the Demon's bluffs, the Fabled and the Loric, in smaller type as
  they grow, cut with "…" when even the smallest does not hold them.
"""

from __future__ import annotations

import io
import math
from functools import lru_cache
from typing import Any, NamedTuple

from PIL import Image, ImageDraw

from games.engine.fonts import break_points, font

SIZE = 1200
MARGIN = 10  # between the outermost drawing and the canvas edge
BANNER_OVERHANG = 14  # how far a player-name banner may hang below its token
MAX_REMINDERS = 4
#: 15 seated players and 5 Travellers, the most the official rules seat
MAX_SEATS = 20
ELLIPSIS = "…"
Box = tuple[float, float, float, float]

BG = (22, 20, 30)
TABLE = (40, 36, 52)
INK = (240, 236, 226)
DIM = (160, 156, 170)
DARK = (12, 10, 16)
GOLD = (232, 190, 60)
FILL = {"good": (34, 74, 150), "evil": (146, 32, 40)}
FILL_DEAD = {"good": (66, 72, 86), "evil": (86, 66, 68)}
INK_DEAD = (196, 194, 200)
GOLD_DEAD = (176, 150, 84)  # a dead player's false card: gold, as a living one's, but dimmed
RING = {
    "townsfolk": (120, 180, 255),
    "outsider": (90, 214, 214),
    "minion": (255, 146, 60),
    "demon": (255, 60, 60),
    "traveller": GOLD,
    "fabled": (236, 120, 200),
    "loric": (120, 214, 120),
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


def centre_radius(count: int, size: int = SIZE) -> float:
    """The disc in the middle kept for the title, the Fabled and the bluffs."""
    return max(size * 0.145, 0.38 * ring_radius(count, size))


# ------------------------------------------------------------------------------------------ drawing


def _text_centred(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int,
                  fill: tuple[int, int, int]) -> None:
    font(size).draw(draw, xy, text, fill, anchor="mm")


#: the smallest type a character's name (or a false card) is drawn in, on the 1,200 px canvas: below
#: it a name is cut into two lines anywhere, then trimmed with "…"
NAME_FLOOR = 14
#: how far apart the lines of a wrapped name are, in ems
LINE_PITCH = 1.08
#: the air between the name and the false card under it, in pixels
ROW_GAP = 3


class Row(NamedTuple):
    """One line of words inside a token: drawn centred ("mm") ``dy`` pixels below the token's centre."""

    text: str
    size: int
    dy: float


def ring_width(r: int, traveller: bool) -> int:
    return max(4, round(r * (0.11 if traveller else 0.08)))


def text_radius(r: int, traveller: bool = False) -> float:
    """The disc the words of a token stay in: inside its ring (and a Traveller's thin inner ring)."""
    return r - ring_width(r, traveller) - (5 if traveller else 2)


def banner_size(r: int) -> int:
    """The type of the player's banner across the bottom of a token."""
    return max(26, min(34, round(r * 0.34)))


def name_band(r: int) -> tuple[float, float]:
    """From the top label (or a dead token's shroud) down to the player's banner: where the name and
    the false card go, in pixels from the token's centre (down is positive)."""
    banner_top = r * 0.80 - (banner_size(r) * 0.62 + 6)
    return -0.40 * r, banner_top - ROW_GAP


@lru_cache(maxsize=8192)
def _ink(text: str, size: int) -> Box:
    return font(size).getbbox(text, anchor="mm")


def ink_box(row: Row) -> Box:
    """The ink of ``row``, from the token's centre, measured with the font as it is drawn."""
    x0, y0, x1, y1 = _ink(row.text, row.size)
    return x0, y0 + row.dy, x1, y1 + row.dy


def in_disc(box: Box, radius: float) -> bool:
    """Whether all of ``box`` (from the disc's centre) is inside the disc."""
    x0, y0, x1, y1 = box
    return max(x0 * x0, x1 * x1) + max(y0 * y0, y1 * y1) <= radius * radius


def chord(radius: float, y0: float, y1: float) -> float:
    """How wide a line may be inside a disc between heights ``y0`` and ``y1`` from its centre."""
    far = max(abs(y0), abs(y1))
    return 2 * math.sqrt(max(radius * radius - far * far, 0.0))


def _splits(text: str, anywhere: bool) -> list[tuple[str, str]]:
    """``text`` on two lines: at its spaces, or (``anywhere``) between any two characters, a hyphen
    after a cut inside a word of letters (not in Chinese or Japanese, which break anywhere)."""
    out: list[tuple[str, str]] = []
    if not anywhere:
        for i, ch in enumerate(text):
            if ch == " " and text[:i].strip() and text[i + 1:].strip():
                out.append((text[:i].rstrip(), text[i + 1:].lstrip()))
        return out
    for i in break_points(text):
        before, after = text[i - 1], text[i]
        if before == " " or after == " ":
            continue  # a cut at a space is a cut of the other kind
        hyphen = "-" if before.isalpha() and after.isalpha() and ord(before) < 0x2E80 else ""
        out.append((text[:i] + hyphen, text[i:]))
    return out


def _wide(text: str) -> bool:
    """Whether ``text`` has characters of the scripts written without spaces (CJK and after)."""
    return any(ord(ch) >= 0x2E80 and ch.isalpha() for ch in text)


def _stack(name: list[str], size: int, false_card: str, tsize: int, band: tuple[float, float]) -> list[Row]:
    """The name's lines, then the false card, their ink centred in ``band``: each row's ink at
    least ``ROW_GAP`` under the last one's, and the name's lines ``LINE_PITCH`` apart at least."""
    texts = [*name, false_card] if false_card else list(name)
    sizes = [size] * len(name) + ([tsize] if false_card else [])
    rows: list[Row] = []
    for text, s in zip(texts, sizes, strict=True):
        dy = 0.0
        if rows:
            dy = ink_box(rows[-1])[3] + ROW_GAP - _ink(text, s)[1]  # its ink's top ROW_GAP under the last's
            if len(rows) < len(name):
                dy = max(dy, rows[-1].dy + LINE_PITCH * s)
        rows.append(Row(text, s, dy))
    top, bottom = ink_box(rows[0])[1], ink_box(rows[-1])[3]
    shift = (band[0] + band[1]) / 2 - (top + bottom) / 2
    return [row._replace(dy=row.dy + shift) for row in rows]


def _clear(rows: list[Row], radius: float, band: tuple[float, float], card: bool) -> bool:
    """The rows' ink goes down ``band`` in order, none on another, each inside the disc (but a
    false card's, last, whose width is fitted after: its row here only holds its place)."""
    top = band[0]
    for k, row in enumerate(rows):
        box = ink_box(row)
        spread = card and k == len(rows) - 1
        if box[1] < top or box[3] > band[1] or not (spread or in_disc(box, radius)):
            return False
        top = box[3]
    return True


def _with_false_card(rows: list[Row], radius: float, band: tuple[float, float], shown: str) -> list[Row]:
    """The last row is the false card: "thinks: X", else "💭 X", else "X", each shrunk down to
    ``NAME_FLOOR`` if need be before the next is tried; else "X" trimmed to the disc."""
    *name, card = rows
    for text in (f"thinks: {shown}", f"\U0001f4ad {shown}", shown):  # 💭 when "thinks:" is too wide
        for size in range(card.size, NAME_FLOOR - 1, -1):
            row = card._replace(text=text, size=size)
            if _clear([*name, row], radius, band, card=False):
                return [*name, row]
    _, y0, _, y1 = ink_box(card._replace(text=shown))
    return [*name, card._replace(text=trim_to_width(shown, card.size, chord(radius, y0, y1) - 2))]


def token_rows(character: str, shown: str, r: int, traveller: bool = False) -> list[Row]:
    """The character's name (on one or two lines) and the false card ``shown`` (or ""), in the
    biggest type from ``r * 0.4`` (at most 40) down to ``NAME_FLOOR`` at which the name's ink stays
    inside the token's text disc, between its top label and its banner. One line is preferred to
    two at the same size; a name that fits neither is cut anywhere on two lines at the floor and
    its second line trimmed with "…". The false card follows the name's size (a little smaller)."""
    radius = text_radius(r, traveller)
    band = name_band(r)
    big = max(NAME_FLOOR, min(40, round(r * 0.4)))
    card_big = max(NAME_FLOOR, min(big - 4, round(r * 0.26)))
    # holds the false card's place (as tall as it can be drawn) while the name is fitted
    marker = f"thinks: \U0001f4ad {shown}" if shown else ""

    def attempt(lines: list[str], size: int) -> list[Row] | None:
        tsize = min(card_big, max(NAME_FLOOR, size - 4))
        rows = _stack(lines, size, marker, tsize, band)
        if not _clear(rows, radius, band, card=bool(shown)):
            return None
        return _with_false_card(rows, radius, band, shown) if shown else rows

    for anywhere in (False, True):
        for size in range(big, NAME_FLOOR - 1, -1):
            candidates = [] if anywhere else [[character]]
            pairs = _splits(character, anywhere) + ([] if anywhere or not _wide(character)
                                                     else _splits(character, True))
            pairs.sort(key=lambda pair: max(text_width(x, size) for x in pair))
            candidates += [list(pair) for pair in pairs]
            for lines in candidates:
                rows = attempt(lines, size)
                if rows:
                    return rows
    return _cut(character, shown, radius, band, marker)


def _cut(character: str, shown: str, radius: float, band: tuple[float, float], marker: str) -> list[Row]:
    """A name that fits in no type from the floor up: at the floor, the longest first line that fits
    (cut between two characters), the rest on a second line trimmed with "…"."""
    def trimmed(rows: list[Row]) -> list[Row]:
        _, y0, _, y1 = ink_box(rows[1])
        return [rows[0], rows[1]._replace(text=trim_to_width(rows[1].text, NAME_FLOOR, chord(radius, y0, y1) - 2)),
                *rows[2:]]

    for first, rest in reversed(_splits(character, True)):
        rows = trimmed(_stack([first, rest], NAME_FLOOR, marker, NAME_FLOOR, band))
        if _clear(rows, radius, band, card=bool(shown)):
            return _with_false_card(rows, radius, band, shown) if shown else rows
    rows = _stack([character], NAME_FLOOR, marker, NAME_FLOOR, band)  # not one character fits a line
    _, y0, _, y1 = ink_box(rows[0])
    rows[0] = rows[0]._replace(text=trim_to_width(character, NAME_FLOOR, chord(radius, y0, y1) - 2))
    return _with_false_card(rows, radius, band, shown) if shown else rows


def top_label(label: str, fallback: str, r: int, traveller: bool) -> Row:
    """The team over the name (``fallback`` if ``label`` is too wide), in small type, inside the disc."""
    radius = text_radius(r, traveller)
    small = max(17, round(r * 0.22))
    for text in (label, fallback):
        for size in range(small, 11, -1):
            row = Row(text, size, -0.58 * r)
            if in_disc(ink_box(row), radius):
                return row
    row = Row(fallback, 12, -0.58 * r)
    _, y0, _, y1 = ink_box(row)
    return row._replace(text=trim_to_width(fallback, 12, chord(radius, y0, y1)))


def _shroud_words(draw: ImageDraw.ImageDraw, cx: float, y: float, r: int, dsize: int, vote: bool) -> None:
    """ "DEAD" across a dead token's shroud, and after it, if the player has their vote left, the
    vote token: a white disc marked "v", inside the shroud (outside the token it would fall on a
    neighbour's banner at 18 to 20 seats)."""
    if not vote:
        _text_centred(draw, (cx, y), "DEAD", dsize, INK)
        return
    vr = max(8, round(r * 0.14))
    room = r * 1.16  # the shroud's width, less a little air
    while dsize > 12 and text_width("DEAD", dsize) + 6 + 2 * vr > room:
        dsize -= 1
    width = text_width("DEAD", dsize) + 6 + 2 * vr
    left = cx - width / 2
    _text_centred(draw, (left + text_width("DEAD", dsize) / 2, y), "DEAD", dsize, INK)
    vx = left + width - vr
    draw.ellipse((vx - vr, y - vr, vx + vr, y + vr), fill=(250, 250, 250))
    _text_centred(draw, (vx, y), "v", max(12, round(vr * 1.3)), DARK)


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
    ring_w = ring_width(r, traveller)
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
        _shroud_words(draw, cx, (top + bottom) / 2 - r * 0.04, r, small + 2, bool(seat.get("vote_token", False)))
    else:
        label = top_label(f"{alignment} traveller" if traveller else team, "traveller" if traveller else team,
                          r, traveller)
        _text_centred(draw, (cx, cy + label.dy), label.text, label.size, ring)

    character = str(seat.get("character") or "?")
    shown = str(seat.get("shown") or "")
    rows = token_rows(character, shown, r, traveller)
    for k, row in enumerate(rows):
        card = bool(shown) and k == len(rows) - 1
        colour = (GOLD if alive else GOLD_DEAD) if card else ink
        _text_centred(draw, (cx, cy + row.dy), row.text, row.size, colour)

    psize = banner_size(r)
    number = seat.get("seat", index + 1)
    name = trim_to_width(f"{number} · {seat.get('name', '')}", psize, width - 16)
    tw = text_width(name, psize)
    by = cy + r * 0.80
    bh = psize * 0.62 + 6
    draw.rounded_rectangle((cx - tw / 2 - 8, by - bh, cx + tw / 2 + 8, by + bh), radius=int(bh),
                           fill=DARK, outline=ring if alive else (90, 86, 96), width=2)
    _text_centred(draw, (cx, by), name, psize, ink)



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


#: the centre's type, title and lists, largest first
CENTRE_SIZES = ((40, 30), (36, 28), (32, 26), (30, 24), (28, 22), (26, 20), (24, 18))


def _listed(head: str, names: list[str], size: int, width: float) -> list[str]:
    """ "Fabled: Djinn, Hell's Librarian" wrapped to ``width`` (each name whole, or trimmed)."""
    if not names:
        return []
    return _wrap([f"{head}:"] + [f"{x}," for x in names[:-1]] + names[-1:], size, width)


def centre_lines(data: dict[str, Any], rho: float) -> list[tuple[str, int, tuple[int, int, int]]]:
    """The centre's lines (text, size, colour): the title, the bluffs (the Storytellers' secret,
    first), the Lunatic's false Minions and bluffs, the Fabled and the Loric, in the biggest type at which they fit ``rho``'s room; else
    taller, up to half as tall again; else cut to the lines that fit with "…" last."""
    title = str(data.get("title") or "Grimoire")
    lists = [(head, [str(x) for x in data.get(key) or []])
             for head, key in (("Bluffs", "bluffs"), ("Lunatic's Minions", "lunatic_minions"),
                               ("Lunatic's bluffs", "lunatic_bluffs"), ("Fabled", "fabled"), ("Loric", "loric"))]
    width = rho * 1.6
    block: list[tuple[str, int, tuple[int, int, int]]] = []
    for room in (rho * 1.2, rho * 1.8):
        for tsize, bsize in CENTRE_SIZES:
            block = [(line, tsize, GOLD) for line in _wrap(title.split(" "), tsize, width)]
            for head, names in lists:
                block += [(line, bsize, INK) for line in _listed(head, names, bsize, width)]
            if _block_height(block) <= room:
                return block
    while len(block) > 1 and _block_height(block) > room:
        block.pop()
    line, bsize, colour = block[-1]
    block[-1] = (trim_to_width(f"{line} {ELLIPSIS}", bsize, width), bsize, colour)
    return block


def _block_height(block: list[tuple[str, int, tuple[int, int, int]]]) -> float:
    return sum(s + 12 for _, s, _ in block) + (8 if len(block) > 1 else 0)


def _centre(draw: ImageDraw.ImageDraw, data: dict[str, Any], count: int, size: int) -> Box:
    """Draw the title, the Fabled, the Loric and the bluffs in the middle; return the box they take."""
    block = centre_lines(data, centre_radius(count, size))
    y = top = size / 2 - _block_height(block) / 2
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

    ``data``: ``title``; ``seats`` in seat order (clockwise from the top, 1 to 20), each with
    ``seat``, ``name``, ``character`` (any name: it is fitted to its token), ``team`` (townsfolk,
    outsider, minion, demon, traveller, fabled, loric; another word is drawn in grey),
    ``alignment`` (good, evil), ``alive``, ``vote_token``, ``traveller``, ``shown`` (the false card,
    or "") and ``reminders`` (short strings); ``fabled``, ``loric``, ``bluffs`` and ``lunatic_bluffs``
    (character names); ``lunatic_minions`` (the seats the Lunatic was shown as Minions, "5 Name"). Every key but the seats' names and characters may be left out. Nothing here reads a
    character catalogue: the names and teams are the caller's, from whatever script the game has.
    """
    buf = io.BytesIO()
    draw_grimoire_image(data).save(buf, format="PNG")
    return buf.getvalue()


# ------------------------------------------------------------------------------------------ sample

_NAMES = ["Alice", "Bob", "Charlotte", "Dmitri", "Esperanza", "Farid", "Gwendolyn", "Hiroshi", "Ines",
          "Jonathan", "Kasia", "Leopold", "Maximiliana", "Nnamdi", "Ophelia", "Priyanka",
          "Quentin-Alexander of the Bell Tower", "Rosalind", "Sven", "Tatiana"]
_TOWNSFOLK = ["Washerwoman", "Empath", "Knight", "Undertaker", "Mathematician", "High Priestess", "Virgin",
              "Ravenkeeper", "Juggler"]
_OUTSIDERS = ["Drunk", "Recluse"]
_MINIONS = ["Goblin", "Spy", "Marionette"]
#: Townsfolk, Outsiders, Minions for 5 to 15 players (one Demon)
_COUNTS = {5: (3, 0, 1), 6: (3, 1, 1), 7: (5, 0, 1), 8: (5, 1, 1), 9: (5, 2, 1), 10: (7, 0, 2),
           11: (7, 1, 2), 12: (7, 2, 2), 13: (9, 0, 3), 14: (9, 1, 3), 15: (9, 2, 3)}


def sample_grimoire(seats: int = 12) -> dict[str, Any]:
    """Realistic example data for ``draw_grimoire`` with ``seats`` players (1 to 20): two dead (one
    with their vote left), a Drunk who thinks they are the Soldier, reminders, Travellers above 15."""
    seats = max(1, min(MAX_SEATS, seats))
    base = min(seats, 15)
    town, out, minions = _COUNTS.get(base, (max(base - 2, 0), 0, 1))
    roles: list[tuple[str, str, str]] = [("Pukka", "demon", "evil")]
    roles += [(m, "minion", "evil") for m in _MINIONS[:minions]]
    roles += [(o, "outsider", "good") for o in _OUTSIDERS[:out]]
    roles += [(t, "townsfolk", "good") for t in _TOWNSFOLK[:town]]
    roles = roles[:base]
    stride = next(s for s in (5, 7, 3, 1) if math.gcd(s, base) == 1)
    order = [roles[(k * stride) % base] for k in range(base)]
    order += [("Thief", "traveller", "evil"), ("Scapegoat", "traveller", "good"), ("Bone Collector", "traveller", "evil"),
              ("Gunslinger", "traveller", "good"), ("Bureaucrat", "traveller", "good")][: seats - base]

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
