"""The pictures' time to draw: Pillow's built-in font (before issue 31) against the Noto fonts, side by side;
then emoji in colour (Noto Color Emoji, where installed) against emoji in one ink (Noto Emoji).

    .venv/bin/python bench/pictures.py [--rounds 30]

Draws the 12-seat sample grimoire and a five-player Castle tableau, to PNG bytes, with the names
"José", "Юля", "李雷", "Ωmega", "Ann 🎲" (the built-in font draws the last four as boxes). Prints the
first draw of the Noto run (fonts opened, character maps read) and the median of ``--rounds`` draws
after it, for both fonts drawn in turn, and the ratio Noto / built-in. The emoji rows draw the name
"Ann 🎲" alone and the grimoire with an emoji in each of its 12 names, colour and one ink in turn, and
the ratio colour / one ink (the colour font's opening, once per process, is printed apart).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import support.castle_helpers as H  # noqa: E402
from PIL import Image, ImageDraw, ImageFont  # noqa: E402

from games.castle import GAME, render  # noqa: E402
from games.clocktower import picture  # noqa: E402
from games.engine import fonts  # noqa: E402

NAMES = ["José", "Юля", "李雷", "Ωmega", "Ann 🎲"]
EMOJI_NAMES = ["Ann 🎲", "Bo 👍🏽", "Cy 🐉", "Di 🌙", "Ed 🔥", "Fay 🎭", "Gus 🍀", "Hal ⚔️", "Ivy 🌹", "Jo 🦊",
               "Kai 🧙", "Lu 👑"]


class BuiltIn:
    """Pillow's built-in font behind the calls the pictures make of ``games.engine.fonts.TextFont``."""

    def __init__(self, size: int) -> None:
        self.f = ImageFont.load_default(size=size)

    def getlength(self, text: str) -> float:
        return self.f.getlength(text)

    def getbbox(self, text: str, anchor: str = "la", stroke_width: int = 0) -> Any:
        return self.f.getbbox(text, anchor=anchor, stroke_width=stroke_width)

    def draw(self, draw: Any, xy: Any, text: str, fill: Any, anchor: str = "la", stroke_width: int = 0,
             stroke_fill: Any = None) -> None:
        draw.text(xy, text, font=self.f, fill=fill, anchor=anchor, stroke_width=stroke_width,
                  stroke_fill=stroke_fill)


@cache
def built_in(size: int) -> BuiltIn:
    return BuiltIn(size)


@contextmanager
def fonts_of(kind: str):
    """Both pictures draw with ``kind`` ("built-in" or "noto") inside the block."""
    real = picture.font, render.font
    if kind == "built-in":
        picture.font = render.font = built_in  # type: ignore[assignment]
    try:
        yield
    finally:
        picture.font, render.font = real


@cache
def monochrome(size: int) -> fonts.TextFont:
    """The Noto fonts with emoji in one ink, as on a machine without the colour font."""
    return fonts.TextFont(size, None)


@contextmanager
def emoji_in(kind: str):
    """Both pictures draw their emoji in ``kind`` ("colour" or "one ink") inside the block."""
    real = picture.font, render.font
    if kind == "one ink":
        picture.font = render.font = monochrome
    try:
        yield
    finally:
        picture.font, render.font = real


def grimoire(names: list[str] = NAMES) -> bytes:
    data = picture.sample_grimoire(12)
    for seat, name in zip(data["seats"], names, strict=False):
        seat["name"] = name
    return picture.draw_grimoire(data)


def name_banner() -> None:
    """One name with an emoji, drawn as a grimoire banner draws it (no PNG encoding)."""
    img = Image.new("RGB", (300, 60), picture.BG)
    picture.font(30).draw(ImageDraw.Draw(img), (150, 30), "5 · Ann 🎲", picture.INK, anchor="mm")


def tableau_state() -> Any:
    state, _ = H.new_game(5)
    for player, name in zip(state.players, NAMES, strict=True):
        player.name = name
    return state


def seconds(fn: Callable[[], object]) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=30)
    args = parser.parse_args()
    state = tableau_state()
    cases = {"grimoire (12 seats)": grimoire, "castle tableau (5 players)": lambda: GAME.render(state, "tableau")}
    with fonts_of("noto"):
        first = {name: seconds(fn) for name, fn in cases.items()}
    print(f"{'picture':28} {'built-in ms':>12} {'noto ms':>9} {'ratio':>6}   noto first draw ms")
    for name, fn in cases.items():
        times: dict[str, list[float]] = {"built-in": [], "noto": []}
        for _ in range(args.rounds + 1):  # the two fonts in turn, so a busy moment weighs on both
            for kind, spent in times.items():
                with fonts_of(kind):
                    spent.append(seconds(fn))
        old, new = (statistics.median(times[kind][1:]) for kind in ("built-in", "noto"))
        print(f"{name:28} {old * 1e3:12.1f} {new * 1e3:9.1f} {new / old:6.2f}   {first[name] * 1e3:.0f}")
    emoji_rows(args.rounds)


def emoji_rows(rounds: int) -> None:
    emoji = fonts.colour_emoji()
    print()
    if emoji is None:
        print(f"no colour emoji font at {', '.join(fonts.COLOUR_EMOJI_PATHS)}: emoji are drawn in one ink only")
        return
    opened = seconds(lambda: fonts.open_colour_emoji(emoji.path))  # again: the pictures opened it above
    print(f"colour emoji font {emoji.path} (bitmaps at {emoji.strike} px), opened (once a process, warm here) in {opened * 1e3:.0f} ms")

    def new_emoji() -> None:
        fonts.coloured.cache_clear()  # as for an emoji not drawn at this size before
        name_banner()

    cases = {"name 'Ann 🎲' (30 px)": name_banner, "the same, emoji not seen": new_emoji,
             "grimoire, 12 emoji names": lambda: grimoire(EMOJI_NAMES)}
    print(f"{'picture':28} {'one ink ms':>12} {'colour ms':>9} {'ratio':>6}")
    for name, fn in cases.items():
        times: dict[str, list[float]] = {"one ink": [], "colour": []}
        for _ in range(rounds + 1):  # in turn; the first round (scaled bitmaps made) is left out
            for kind, spent in times.items():
                with emoji_in(kind):
                    spent.append(seconds(fn))
        mono, colour = (statistics.median(times[kind][1:]) for kind in ("one ink", "colour"))
        print(f"{name:28} {mono * 1e3:12.2f} {colour * 1e3:9.2f} {colour / mono:6.2f}")


if __name__ == "__main__":
    main()
