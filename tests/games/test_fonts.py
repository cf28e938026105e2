"""Every name shows in the pictures: no glyph of "José", "Юля", "李雷", "Ωmega" or "Ann 🎲" is a box."""

from __future__ import annotations

import io
import math
from pathlib import Path

import pytest
import support.castle_helpers as H
from PIL import Image, ImageDraw

from games.castle import GAME, render
from games.clocktower import picture
from games.engine import fonts

NAMES = ["José", "Юля", "李雷", "Ωmega", "Ann 🎲"]
MISSING = "\U0010fffd"  # a private-use code point no face has: drawn as each face's box (.notdef)


def _ink(paint) -> bytes:
    """What ``paint(draw)`` puts on a blank canvas, cropped to its ink (size and pixels); b"" for none."""
    img = Image.new("L", (400, 200), 0)
    paint(ImageDraw.Draw(img))
    box = img.getbbox()
    if box is None:
        return b""
    crop = img.crop(box)
    return repr(crop.size).encode() + crop.tobytes()


def _boxes(size: int) -> set[bytes]:
    """What each face draws for a character it does not have: a box, or nothing (Noto Sans Symbols)."""
    return {_ink(lambda d, f=f: d.text((50, 150), MISSING, font=f, fill=255, anchor="ls"))
            for f in (fonts.face_font(face, size) for face in fonts.FACES)}


def _drawn_texts(monkeypatch) -> list[str]:
    """Every text the pictures hand to the fonts from now on."""
    texts: list[str] = []
    real = fonts.TextFont.draw

    def spy(self, draw, xy, text, fill, *args, **kwargs):
        texts.append(text)
        return real(self, draw, xy, text, fill, *args, **kwargs)

    monkeypatch.setattr(fonts.TextFont, "draw", spy)
    return texts


def _covered(text: str) -> None:
    """Each character of ``text`` is in the character map of the face chosen to draw it."""
    for face, piece in fonts.runs(text):
        for ch in piece:
            assert ord(ch) in fonts.charmap(face), f"{ch!r} ({ord(ch):X}) of {text!r} has no glyph in {face.name}"


@pytest.mark.parametrize("name", NAMES)
def test_every_character_has_a_glyph_in_its_face(name):
    _covered(name)
    assert "".join(piece for _, piece in fonts.runs(name)) == name


def test_each_script_goes_to_the_face_that_has_it():
    assert [(face.name, piece) for face, piece in fonts.runs("Ann 🎲 李雷 Юля")] == [
        ("Noto Sans", "Ann "), ("Noto Emoji", "🎲"), ("Noto Sans", " "), ("Noto Sans CJK", "李雷"),
        ("Noto Sans", " Юля")]


@pytest.mark.parametrize("ch", sorted(set("".join(NAMES)) - {" "}))
def test_no_character_is_drawn_as_a_box(ch):
    """Measured on the drawn pixels: the character as the pictures draw it is not any face's box."""
    drawn = _ink(lambda d: fonts.font(40).draw(d, (50, 150), ch, 255, anchor="ls"))
    assert drawn not in _boxes(40)


def test_a_missing_character_is_drawn_as_a_box():
    """The check above can fail: a character no face has comes out as the first face's box."""
    drawn = _ink(lambda d: fonts.font(40).draw(d, (50, 150), MISSING, 255, anchor="ls"))
    assert drawn in _boxes(40)


def test_mixed_text_is_measured_as_drawn():
    """Whichever way the emoji is drawn (colour or one ink): the measures are the drawn ink's."""
    f = fonts.font(30)
    left, top, right, bottom = f.getbbox("Ann 🎲 李雷", anchor="ls")
    assert f.getlength("Ann 🎲 李雷") == pytest.approx(f.getlength("Ann ") + f.getlength("🎲") + f.getlength(" 李雷"))
    assert 0 <= left < right <= f.getlength("Ann 🎲 李雷") + 2
    img = Image.new("RGB", (400, 200))
    f.draw(ImageDraw.Draw(img), (50, 150), "Ann 🎲 李雷", (255, 255, 255), anchor="ls")
    drawn = img.getbbox()
    assert drawn is not None
    assert drawn == pytest.approx((50 + left, 150 + top, 50 + right, 150 + bottom), abs=3)


def _grimoire(names: list[str]) -> Image.Image:
    data = picture.sample_grimoire(5)
    for seat, name in zip(data["seats"], names, strict=True):
        seat["name"] = name
    return picture.draw_grimoire_image(data)


def test_the_grimoire_draws_every_name_with_glyphs(monkeypatch):
    texts = _drawn_texts(monkeypatch)
    img = _grimoire(NAMES)
    for k, name in enumerate(NAMES):
        assert any(text.endswith(f"{k + 1} · {name}") for text in texts), name
    for text in texts:
        _covered(text)
    # each banner differs from the same banner with the name as boxes
    boxed = _grimoire([MISSING * len(name) for name in NAMES])
    for k in range(len(NAMES)):
        cx, cy = picture.seat_centre(k, len(NAMES))
        r = picture.token_radius(len(NAMES))
        box = (cx - r, round(cy + 0.55 * r), cx + r, round(cy + r + picture.BANNER_OVERHANG))
        assert img.crop(box).tobytes() != boxed.crop(box).tobytes(), NAMES[k]


def _tableau(names: list[str]) -> Image.Image:
    state, _ = H.new_game(5)
    for player, name in zip(state.players, names, strict=True):
        player.name = name
    return Image.open(io.BytesIO(GAME.render(state, "tableau"))).convert("RGB")


def test_the_castle_tableau_draws_every_name_with_glyphs(monkeypatch):
    texts = _drawn_texts(monkeypatch)
    img = _tableau(NAMES)
    for name in NAMES:
        assert any(text.startswith(name) for text in texts), name
    for text in texts:
        _covered(text)
    boxed = _tableau([MISSING * len(name) for name in NAMES])
    for n in range(len(NAMES)):
        x0, y0, x1, y1 = render.legend_box(n, len(NAMES))
        box = (x0 + 70, y0, x1, y1)  # the name, right of the pawn
        assert img.crop(box).tobytes() != boxed.crop(box).tobytes(), NAMES[n]


# Colour emoji: drawn from Noto Color Emoji where the machine has it (CI installs it in .ci/run, the
# image in deploy/Dockerfile), else in Noto Emoji's one ink. The first test asserts whichever the
# machine has; the second forces the monochrome path by pointing the lookup at a missing file.


@pytest.fixture
def monochrome(monkeypatch, tmp_path):
    """The colour font looked for where there is none: the pictures draw emoji in one ink."""
    monkeypatch.setattr(fonts, "COLOUR_EMOJI_PATHS", (str(tmp_path / "NotoColorEmoji.ttf"),))
    fonts.colour_emoji.cache_clear()
    fonts.font.cache_clear()
    yield
    fonts.colour_emoji.cache_clear()
    fonts.font.cache_clear()


def _emoji_in(monkeypatch, draw_picture, name: str) -> tuple[Image.Image, bool, fonts.Box, tuple]:
    """The picture ``draw_picture()`` makes, and of the text that ends with ``name``: whether its
    emoji run is in colour, the run's ink box and the line's (top, baseline, bottom)."""
    found = []
    real = fonts.TextFont.draw

    def spy(self, draw, xy, text, fill, anchor="la", *args, **kwargs):
        if text.endswith(name):
            found.append((self, xy, text, anchor))
        return real(self, draw, xy, text, fill, anchor, *args, **kwargs)

    monkeypatch.setattr(fonts.TextFont, "draw", spy)
    img = draw_picture()
    (f, xy, text, anchor), = found
    (coloured, box), = [(colour, box) for piece, colour, box in f.run_boxes(xy, text, anchor) if "🎲" in piece]
    return img, coloured, box, f.line(xy, text, anchor)


PICTURES = {"grimoire": lambda: _grimoire(NAMES), "castle tableau": lambda: _tableau(NAMES)}


def _check_emoji(monkeypatch, which: str, colour: bool) -> None:
    img, coloured, box, (top, baseline, bottom) = _emoji_in(monkeypatch, PICTURES[which], "Ann 🎲")
    assert coloured is colour
    x0, y0, x1, y1 = box
    assert x1 - x0 > 8 and y1 - y0 > 8, box
    # on the baseline with the words: inside the line, and crossing the baseline as a glyph does
    assert top <= y0 < baseline < y1 <= bottom, (box, (top, baseline, bottom))
    # the box's middle: its corners may touch the banner's coloured rim
    dx, dy = (x1 - x0) * 0.2, (y1 - y0) * 0.2
    ink = img.crop((math.ceil(x0 + dx), math.ceil(y0 + dy), math.floor(x1 - dx), math.floor(y1 - dy)))
    assert fonts.is_coloured(ink) is colour, f"{which}: the emoji's box {'lacks' if colour else 'has'} colour"


@pytest.mark.parametrize("which", sorted(PICTURES))
def test_emoji_in_colour_where_the_machine_has_the_colour_font(monkeypatch, which):
    """With the colour font (CI installs it) the emoji has coloured pixels; without it, none."""
    installed = any(Path(path).is_file() for path in fonts.COLOUR_EMOJI_PATHS)
    assert (fonts.colour_emoji() is not None) is installed
    _check_emoji(monkeypatch, which, colour=installed)


@pytest.mark.parametrize("which", sorted(PICTURES))
def test_emoji_in_one_ink_without_the_colour_font(monkeypatch, monochrome, which):
    assert fonts.colour_emoji() is None
    _check_emoji(monkeypatch, which, colour=False)


def test_the_emoji_selector_or_a_keycap_asks_for_the_emoji_face():
    """"⚔" alone is a symbol (Noto Sans Symbols); "⚔️" and "#️⃣" are emoji (in colour where it can)."""
    assert [face.name for face, _ in fonts.runs("⚔")] == ["Noto Sans Symbols"]
    assert [(face.name, piece) for face, piece in fonts.runs("Hal ⚔️ #️⃣")] == [
        ("Noto Sans", "Hal "), ("Noto Emoji", "⚔️"), ("Noto Sans", " "), ("Noto Emoji", "#️⃣")]
    _covered("Hal ⚔️ #️⃣")


def test_a_file_that_is_not_a_colour_font_is_passed_over(tmp_path):
    """A broken or monochrome file at a looked-up path leaves the emoji in one ink, it never fails a picture."""
    broken = tmp_path / "NotoColorEmoji.ttf"
    broken.write_bytes(b"not a font")
    assert fonts.open_colour_emoji(str(broken)) is None
    plain = fonts.face_path(fonts.EMOJI)  # a real font, but no colour bitmaps
    assert fonts.open_colour_emoji(plain) is None
    assert fonts.open_colour_emoji(str(tmp_path / "absent.ttf")) is None
