"""Fonts for the pictures, so that every player's name shows: "José", "Юля", "李雷", "Ωmega", "Ann 🎲".

Pillow's built-in font has Latin only, so the pictures draw with Noto fonts shipped as Python
packages (installed with the project, never downloaded at run time): Noto Sans (Latin, Cyrillic,
Greek), Noto Sans Symbols, Noto Sans CJK and Noto Emoji (monochrome, in the ink of the words around
it). A text is cut into runs by the first face whose character map has each character, and drawn
run by run on one baseline. A character no face has is drawn by the first face (as its box).

Emoji come out in colour where the machine has Noto Color Emoji (Debian's ``fonts-noto-color-emoji``,
which the project's CI and image install): a bitmap font with one size (109 px), so an emoji run is
drawn at that size, scaled to the text's size (its em to the words' em) and pasted on the baseline.
Without it, or for a run it lacks, the run is drawn by Noto Emoji in one colour.

``font(size)`` is cached: each face's file is opened once per size and its character map read once,
the first time a character needs it (the CJK map takes about half a second); the colour font is
opened once, the first time a font is asked for.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from typing import Any

from PIL import Image, ImageChops, ImageDraw, ImageFont


class FontsMissing(RuntimeError):
    """The font packages are not installed next to the game code."""

    def __init__(self, package: str) -> None:
        super().__init__(f"The picture fonts are missing (the Python package {package!r}): "
                         "install the project again with scripts/setup-venv.sh or `pip install -e .`.")


@dataclass(frozen=True)
class Face:
    """One font file in a package: ``index`` picks a face of a collection (.ttc)."""

    name: str
    package: str
    file: str
    index: int = 0


#: in the order a character is looked for; the first is the face of the words and of any box
FACES = (
    Face("Noto Sans", "manimgx_fonts", "NotoSans[wght].ttf"),
    Face("Noto Sans Symbols", "manimgx_fonts", "NotoSansSymbols[wght].ttf"),
    Face("Noto Sans CJK", "manimgx_fonts_cjk", "NotoSansCJK-VF.otf.ttc"),
    Face("Noto Emoji", "manimgx_fonts", "NotoEmoji[wght].ttf"),
)
WEIGHT = 400  # the variable fonts' regular weight (the CJK collection opens at Thin otherwise)
EMOJI = FACES[3]  # the face whose runs are drawn in colour when the colour font is there

#: where systems install Noto Color Emoji (SIL Open Font License), looked at in this order. Apple
#: Color Emoji (macOS) is left out: its sbix bitmaps are no longer PNG ("emjc"), which FreeType does
#: not decode, so Pillow would draw its emoji blank.
COLOUR_EMOJI_PATHS = (
    "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf",  # Debian, Ubuntu: fonts-noto-color-emoji
    "/usr/share/fonts/google-noto-color-emoji-fonts/NotoColorEmoji.ttf",  # Fedora
    "/usr/share/fonts/google-noto-emoji/NotoColorEmoji.ttf",  # older Fedora
    "/usr/share/fonts/noto/NotoColorEmoji.ttf",  # Arch (noto-fonts-emoji), Alpine (font-noto-emoji)
    "/usr/share/fonts/truetype/NotoColorEmoji.ttf",  # openSUSE (noto-coloremoji-fonts)
)
PROBE = "\U0001f3b2"  # 🎲: a colour font that draws this in grey (or not at all) is not used


def face_path(face: Face) -> str:
    try:
        return str(resources.files(face.package) / face.file)
    except ModuleNotFoundError as e:
        raise FontsMissing(face.package) from e


@cache
def charmap(face: Face) -> frozenset[int]:
    """The code points ``face`` has a glyph for (its cmap: no .notdef)."""
    from fontTools.ttLib import TTFont  # type: ignore[import-untyped]

    with TTFont(face_path(face), fontNumber=face.index, lazy=True) as tt:
        return frozenset(tt.getBestCmap())


@cache
def face_font(face: Face, size: int) -> ImageFont.FreeTypeFont:
    f = ImageFont.truetype(face_path(face), size, index=face.index)
    axes = f.get_variation_axes()
    if axes:  # every variable face here has one axis, the weight
        f.set_variation_by_axes([min(max(WEIGHT, a["minimum"] or 0), a["maximum"] or WEIGHT) for a in axes])
    return f


def _joins_previous(ch: str) -> bool:
    """Marks, joiners, variation selectors and skin tones stay with the character before them."""
    return (unicodedata.category(ch) in ("Mn", "Me", "Cf") or "\ufe00" <= ch <= "\ufe0f"
            or "\U0001f3fb" <= ch <= "\U0001f3ff")


ZWJ = "\u200d"


def _regional(ch: str) -> bool:
    return "\U0001f1e6" <= ch <= "\U0001f1ff"


def break_points(text: str) -> tuple[int, ...]:
    """Where ``text`` may be cut between two characters for a line break (1 to len - 1): never
    before a mark, joiner, variation selector or skin tone, never after a zero-width joiner, and
    never inside a flag (a pair of regional indicators)."""
    out: list[int] = []
    flag = 0  # regional indicators in a row before the cut
    for i in range(1, len(text)):
        before, ch = text[i - 1], text[i]
        flag = flag + 1 if _regional(before) else 0
        if _joins_previous(ch) or before == ZWJ or (_regional(ch) and flag % 2 == 1):
            continue
        out.append(i)
    return tuple(out)


EMOJI_STYLE = ("\ufe0f", "\u20e3")  # after a character, ask for it as an emoji: "⚔️", "#️⃣", "1⃣"


def face_of(ch: str, emoji: bool = False) -> Face:
    """The first face that has ``ch``, else the first face (which draws its box); the emoji face first
    when ``emoji`` (the character is followed by the emoji variation selector or a keycap)."""
    point = ord(ch)
    if emoji and point in charmap(EMOJI):
        return EMOJI
    return next((face for face in FACES if point in charmap(face)), FACES[0])


MEMORY = 4096  # texts whose runs (and their measures) are remembered, per size


@lru_cache(maxsize=MEMORY)
def runs(text: str) -> tuple[tuple[Face, str], ...]:
    """``text`` cut into (face, piece) runs, each piece drawn by one face."""
    out: list[tuple[Face, str]] = []
    for ch, after in zip(text, text[1:] + " ", strict=False):  # "" has no characters
        face = out[-1][0] if out and _joins_previous(ch) else face_of(ch, emoji=after in EMOJI_STYLE)
        if out and out[-1][0] == face:
            out[-1] = (face, out[-1][1] + ch)
        else:
            out.append((face, ch))
    return tuple(out)


Box = tuple[float, float, float, float]


def spread(img: Image.Image) -> Image.Image:
    """Each pixel's max(R, G, B) - min(R, G, B): 0 for grey, black, white and any ink of one hue's
    greys; a transparent pixel counts as black."""
    rgb = Image.new("RGB", img.size)
    rgb.paste(img.convert("RGB"), mask=img.getchannel("A") if "A" in img.getbands() else None)
    r, g, b = rgb.split()
    return ImageChops.subtract(ImageChops.lighter(ImageChops.lighter(r, g), b),
                               ImageChops.darker(ImageChops.darker(r, g), b))


def is_coloured(img: Image.Image, threshold: int = 64) -> bool:
    """Whether some pixel of ``img`` has colour: its R, G and B differ by more than ``threshold``."""
    return spread(img).point(lambda v: 255 if v > threshold else 0).getbbox() is not None


@dataclass(frozen=True, eq=False)
class ColourEmoji:
    """A colour bitmap emoji font (Noto Color Emoji): Pillow draws it only at its bitmap's size."""

    path: str
    strike: int  # the one size, in pixels, its bitmaps are drawn at
    font: ImageFont.FreeTypeFont
    points: frozenset[int]

    def has(self, piece: str) -> bool:
        """Every character of ``piece`` is in the font (variation selectors need not be: shaping drops them)."""
        return all(ord(ch) in self.points or "\ufe00" <= ch <= "\ufe0f" for ch in piece)

    def scale(self, size: int) -> float:
        return size / self.strike


def _strike(path: str) -> tuple[int | None, frozenset[int]]:
    """The bitmap size of a CBDT colour font (None if it has none) and its character map."""
    from fontTools.ttLib import TTFont

    with TTFont(path, lazy=True) as tt:
        points = frozenset(tt.getBestCmap())
        if "CBLC" not in tt:
            return None, points
        return max(s.bitmapSizeTable.ppemY for s in tt["CBLC"].strikes), points


def open_colour_emoji(path: str) -> ColourEmoji | None:
    """The colour font at ``path`` if it is there and Pillow draws its emoji in colour, else None."""
    from fontTools.ttLib import TTLibError

    try:
        strike, points = _strike(path)
        if strike is None or ord(PROBE) not in points:
            return None
        emoji = ColourEmoji(path, strike, ImageFont.truetype(path, strike), points)
    except (OSError, ValueError, TTLibError):  # no such file, not a font, or a size FreeType refuses
        return None
    return emoji if is_coloured(_big(emoji, PROBE)) else None


@cache
def colour_emoji() -> ColourEmoji | None:
    """The first usable colour emoji font of ``COLOUR_EMOJI_PATHS``, opened once; None if none is."""
    return next((e for e in map(open_colour_emoji, COLOUR_EMOJI_PATHS) if e is not None), None)


def _big(emoji: ColourEmoji, piece: str) -> Image.Image:
    """``piece`` drawn in colour at the font's bitmap size, cropped to its glyphs' boxes."""
    x0, y0, x1, y1 = emoji.font.getbbox(piece, anchor="ls")
    img = Image.new("RGBA", (max(1, round(x1 - x0)), max(1, round(y1 - y0))))
    ImageDraw.Draw(img).text((-x0, -y0), piece, font=emoji.font, anchor="ls", embedded_color=True)
    return img


@lru_cache(maxsize=MEMORY)
def coloured(emoji: ColourEmoji, piece: str, size: int) -> tuple[Image.Image, int, int]:
    """``piece`` in colour at text ``size``: its RGBA bitmap, and where the bitmap's top left corner
    is from the pen on the baseline (the bitmap's em scaled to the words' em)."""
    x0, y0, _, _ = emoji.font.getbbox(piece, anchor="ls")
    big, k = _big(emoji, piece), emoji.scale(size)
    small = big.resize((max(1, round(big.width * k)), max(1, round(big.height * k))), Image.Resampling.LANCZOS)
    return small, round(x0 * k), round(y0 * k)


class Plain:
    """A run drawn by a FreeType font in the ink of the words."""

    def __init__(self, f: ImageFont.FreeTypeFont) -> None:
        self.f = f

    def length(self, piece: str) -> float:
        return self.f.getlength(piece)

    def box(self, piece: str, stroke_width: int) -> Box:
        """The ink box of ``piece`` with its pen at (0, 0) on the baseline."""
        return self.f.getbbox(piece, anchor="ls", stroke_width=stroke_width)

    def draw(self, draw: ImageDraw.ImageDraw, at: tuple[float, float], piece: str, fill: Any,
             stroke_width: int, stroke_fill: Any) -> None:
        draw.text(at, piece, font=self.f, fill=fill, anchor="ls", stroke_width=stroke_width,
                  stroke_fill=stroke_fill)


class Coloured:
    """A run of emoji drawn in their own colours (no ink, no stroke), scaled from the colour font."""

    def __init__(self, emoji: ColourEmoji, size: int) -> None:
        self.emoji, self.size = emoji, size

    def length(self, piece: str) -> float:
        return self.emoji.font.getlength(piece) * self.emoji.scale(self.size)

    def box(self, piece: str, stroke_width: int) -> Box:
        img, dx, dy = coloured(self.emoji, piece, self.size)
        ink = img.getbbox() or (0, 0, 0, 0)  # of an RGBA image: where alpha is not 0
        return (dx + ink[0], dy + ink[1], dx + ink[2], dy + ink[3])

    def draw(self, draw: ImageDraw.ImageDraw, at: tuple[float, float], piece: str, fill: Any,
             stroke_width: int, stroke_fill: Any) -> None:
        """Pasted over the picture through its alpha (as Pillow pastes colour glyphs itself)."""
        img, dx, dy = coloured(self.emoji, piece, self.size)
        x, y = round(at[0]) + dx, round(at[1]) + dy
        assert draw.im is not None
        draw.im.paste(img.convert(draw.mode).im, (x, y, x + img.width, y + img.height), img.getchannel("A").im)


Run = Plain | Coloured


@cache
def plain(face: Face, size: int) -> Plain:
    return Plain(face_font(face, size))


class TextFont:
    """Noto at one size, drawn glyph by glyph: the few calls the pictures make of a Pillow font
    (``getlength``, ``getbbox``, ``draw``), with anchors of two letters as Pillow's ("la", "mm", "ls").
    Emoji runs are drawn by ``emoji`` in colour when it is given and has them."""

    def __init__(self, size: int, emoji: ColourEmoji | None = None) -> None:
        self.size, self.emoji = size, emoji
        self.ascent, self.descent = face_font(FACES[0], size).getmetrics()
        self._runs: dict[str, tuple[tuple[float, Run, str], ...]] = {}

    def _run(self, face: Face, piece: str) -> Run:
        if face == EMOJI and self.emoji is not None and self.emoji.has(piece):
            return Coloured(self.emoji, self.size)
        return plain(face, self.size)

    def _placed(self, text: str) -> tuple[tuple[float, Run, str], ...]:
        """Each run's drawer and piece, with its pen position from the start of the text (remembered:
        the pictures measure the same words many times)."""
        if text not in self._runs:
            if len(self._runs) >= MEMORY:
                self._runs.clear()
            pen, out = 0.0, []
            for face, piece in runs(text):
                run = self._run(face, piece)
                out.append((pen, run, piece))
                pen += run.length(piece)
            out.append((pen, plain(FACES[0], self.size), ""))  # where the pen ends
            self._runs[text] = tuple(out)
        return self._runs[text]

    def getlength(self, text: str) -> float:
        """The advance of ``text``: where the pen ends (the last, empty, entry of ``_placed``)."""
        return self._placed(text)[-1][0]

    def _origin(self, text: str, anchor: str) -> tuple[float, float]:
        """Where the pen starts (left end of the baseline) for ``anchor``, from the anchor point."""
        h, v = anchor[0], anchor[1]
        dx = 0.0 if h == "l" else -self.getlength(text) / (2 if h == "m" else 1)
        dy = {"a": self.ascent, "m": (self.ascent - self.descent) / 2, "s": 0.0, "d": -self.descent}[v]
        return dx, dy

    def line(self, xy: tuple[float, float], text: str, anchor: str = "la") -> tuple[float, float, float]:
        """The top, baseline and bottom of the line of ``text`` drawn at ``xy`` (the words' ascent and
        descent): every run's glyphs sit on this baseline."""
        _, oy = self._origin(text, anchor)
        baseline = xy[1] + oy
        return baseline - self.ascent, baseline, baseline + self.descent

    def run_boxes(self, xy: tuple[float, float], text: str, anchor: str = "la",
                  stroke_width: int = 0) -> list[tuple[str, bool, Box]]:
        """Each run of ``text`` drawn at ``xy`` with ``anchor``: its piece, whether it is drawn in
        colour, and its ink box (where a picture's test looks for it)."""
        ox, oy = self._origin(text, anchor)
        x, y = xy[0] + ox, xy[1] + oy
        return [(piece, isinstance(run, Coloured), (x + pen + x0, y + y0, x + pen + x1, y + y1))
                for pen, run, piece in self._placed(text) if piece
                for x0, y0, x1, y1 in [run.box(piece, stroke_width)]]

    def getbbox(self, text: str, anchor: str = "la", stroke_width: int = 0) -> Box:
        """The ink box of ``text`` drawn at (0, 0) with ``anchor``, as Pillow's ``getbbox``."""
        boxes = [box for _, _, box in self.run_boxes((0, 0), text, anchor, stroke_width)]
        if not boxes:
            ox, oy = self._origin(text, anchor)
            return (ox, oy, ox, oy)
        return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes),
                max(b[3] for b in boxes))

    def draw(self, draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, fill: Any,
             anchor: str = "la", stroke_width: int = 0, stroke_fill: Any = None) -> None:
        ox, oy = self._origin(text, anchor)
        for pen, run, piece in self._placed(text)[:-1]:
            run.draw(draw, (xy[0] + ox + pen, xy[1] + oy), piece, fill, stroke_width, stroke_fill)


@cache
def font(size: int) -> TextFont:
    """The pictures' font at ``size``: emoji in colour when the machine has the colour font."""
    return TextFont(size, colour_emoji())
