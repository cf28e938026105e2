"""Fonts for the pictures, so that every player's name shows: "José", "Юля", "李雷", "Ωmega", "Ann 🎲".

Pillow's built-in font has Latin only, so the pictures draw with Noto fonts shipped as Python
packages (installed with the project, never downloaded at run time): Noto Sans (Latin, Cyrillic,
Greek), Noto Sans Symbols, Noto Sans CJK and Noto Emoji (monochrome, in the ink of the words around
it). A text is cut into runs by the first face whose character map has each character, and drawn
run by run on one baseline. A character no face has is drawn by the first face (as its box).

``font(size)`` is cached: each face's file is opened once per size and its character map read once,
the first time a character needs it (the CJK map takes about half a second).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from typing import Any

from PIL import ImageDraw, ImageFont


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


def face_of(ch: str) -> Face:
    """The first face that has ``ch``, else the first face (which draws its box)."""
    point = ord(ch)
    return next((face for face in FACES if point in charmap(face)), FACES[0])


MEMORY = 4096  # texts whose runs (and their measures) are remembered, per size


@lru_cache(maxsize=MEMORY)
def runs(text: str) -> tuple[tuple[Face, str], ...]:
    """``text`` cut into (face, piece) runs, each piece drawn by one face."""
    out: list[tuple[Face, str]] = []
    for ch in text:
        face = out[-1][0] if out and _joins_previous(ch) else face_of(ch)
        if out and out[-1][0] == face:
            out[-1] = (face, out[-1][1] + ch)
        else:
            out.append((face, ch))
    return tuple(out)


Box = tuple[float, float, float, float]


class TextFont:
    """Noto at one size, drawn glyph by glyph: the few calls the pictures make of a Pillow font
    (``getlength``, ``getbbox``, ``draw``), with anchors of two letters as Pillow's ("la", "mm", "ls")."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.ascent, self.descent = face_font(FACES[0], size).getmetrics()
        self._runs: dict[str, tuple[tuple[float, ImageFont.FreeTypeFont, str], ...]] = {}

    def _placed(self, text: str) -> tuple[tuple[float, ImageFont.FreeTypeFont, str], ...]:
        """Each run's font and piece, with its pen position from the start of the text (remembered:
        the pictures measure the same words many times)."""
        if text not in self._runs:
            if len(self._runs) >= MEMORY:
                self._runs.clear()
            pen, out = 0.0, []
            for face, piece in runs(text):
                f = face_font(face, self.size)
                out.append((pen, f, piece))
                pen += f.getlength(piece)
            out.append((pen, face_font(FACES[0], self.size), ""))  # where the pen ends
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

    def getbbox(self, text: str, anchor: str = "la", stroke_width: int = 0) -> Box:
        """The ink box of ``text`` drawn at (0, 0) with ``anchor``, as Pillow's ``getbbox``."""
        ox, oy = self._origin(text, anchor)
        boxes = [(pen + x0, y0, pen + x1, y1) for pen, f, piece in self._placed(text) if piece
                 for x0, y0, x1, y1 in [f.getbbox(piece, anchor="ls", stroke_width=stroke_width)]]
        if not boxes:
            return (ox, oy, ox, oy)
        return (ox + min(b[0] for b in boxes), oy + min(b[1] for b in boxes),
                ox + max(b[2] for b in boxes), oy + max(b[3] for b in boxes))

    def draw(self, draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, fill: Any,
             anchor: str = "la", stroke_width: int = 0, stroke_fill: Any = None) -> None:
        ox, oy = self._origin(text, anchor)
        for pen, f, piece in self._placed(text)[:-1]:
            draw.text((xy[0] + ox + pen, xy[1] + oy), piece, font=f, fill=fill, anchor="ls",
                      stroke_width=stroke_width, stroke_fill=stroke_fill)


@cache
def font(size: int) -> TextFont:
    return TextFont(size)
