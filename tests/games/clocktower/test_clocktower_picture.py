"""The drawn grimoire: a seating circle as a PNG (no Discord)."""

from __future__ import annotations

import ast
import copy
import io
import math
from pathlib import Path

import pytest
from PIL import Image

from games.clocktower import picture
from games.clocktower.picture import (
    SIZE,
    draw_grimoire,
    font,
    sample_grimoire,
    seat_centre,
    token_radius,
    trim_to_width,
)

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def image(data: bytes) -> Image.Image:
    assert data[:8] == PNG_MAGIC
    img = Image.open(io.BytesIO(data))
    assert img.format == "PNG"
    return img.convert("RGB")


@pytest.mark.parametrize("count", [5, 7, 12, 15, 17])
def test_a_png_of_the_expected_size_for_each_table(count):
    data = sample_grimoire(count)
    assert len(data["seats"]) == count
    img = image(draw_grimoire(data))
    assert img.size == (SIZE, SIZE)
    colours = img.getcolors(maxcolors=1 << 20)
    assert colours is not None and len(colours) > 50  # not blank


def test_the_sample_has_what_the_picture_must_show():
    data = sample_grimoire(17)
    seats = data["seats"]
    assert [s["seat"] for s in seats] == list(range(1, 18))
    assert sum(not s["alive"] for s in seats) >= 2
    assert any(not s["alive"] and s["vote_token"] for s in seats)
    assert any(s["character"] == "Drunk" and s["shown"] for s in seats)
    assert any(len(s["reminders"]) > 4 for s in seats)
    assert sum(s["traveller"] for s in seats) == 2
    assert not any(s["traveller"] for s in sample_grimoire(15)["seats"])


def test_the_picture_changes_when_a_player_dies_and_at_their_token():
    before = sample_grimoire(12)
    index = next(k for k, s in enumerate(before["seats"]) if s["alive"])
    after = copy.deepcopy(before)
    after["seats"][index]["alive"] = False
    after["seats"][index]["vote_token"] = True
    a, b = draw_grimoire(before), draw_grimoire(after)
    assert a != b
    x, y = seat_centre(index, 12, SIZE)
    assert image(a).getpixel((x, y)) != image(b).getpixel((x, y))
    # and the other seats' tokens are untouched
    other = (index + 6) % 12
    ox, oy = seat_centre(other, 12, SIZE)
    r = token_radius(12, SIZE)
    box = (ox - r // 2, oy - r // 2, ox + r // 2, oy + r // 2)
    assert image(a).crop(box).tobytes() == image(b).crop(box).tobytes()


def test_the_token_is_coloured_by_alignment():
    data = {"title": "t", "seats": [
        {"seat": k + 1, "name": f"P{k}", "character": "Empath", "team": "townsfolk",
         "alignment": "evil" if k == 2 else "good"} for k in range(6)]}
    img = image(draw_grimoire(data))
    r = token_radius(6, SIZE)

    def colour(k):  # a point inside the token, right of the centre and above the text
        x, y = seat_centre(k, 6, SIZE)
        return img.getpixel((x + r // 2, y - r // 3))

    good, evil = colour(0), colour(2)
    assert good[2] > good[0] and evil[0] > evil[2]


@pytest.mark.parametrize("count", range(1, 18))
def test_tokens_do_not_overlap_and_stay_on_the_canvas(count):
    r = token_radius(count, SIZE)
    assert r >= 60  # big enough to read on a phone
    centres = [seat_centre(k, count, SIZE) for k in range(count)]
    if count > 1:
        for k in range(count):
            (x0, y0), (x1, y1) = centres[k], centres[(k + 1) % count]
            assert math.dist((x0, y0), (x1, y1)) > 2 * r
    for x, y in centres:
        assert r <= x <= SIZE - r and r <= y <= SIZE - r


def test_seats_go_clockwise_from_the_top():
    (x0, y0), (x1, y1), (x2, y2) = (seat_centre(k, 4, SIZE) for k in range(3))
    assert x0 == SIZE // 2 and y0 < SIZE // 2  # top
    assert x1 > SIZE // 2 and abs(y1 - SIZE // 2) <= 1  # right
    assert y2 > SIZE // 2  # bottom


def test_empty_and_missing_optional_keys_draw():
    bare = {"seats": [{"seat": k + 1, "name": f"P{k}", "character": "Soldier"} for k in range(5)]}
    image(draw_grimoire(bare))
    empty = {"title": "Game 1 · Night 1", "fabled": [], "bluffs": [],
             "seats": [{"seat": k + 1, "name": f"P{k}", "character": "Soldier", "team": "townsfolk",
                        "alignment": "good", "alive": k != 1, "vote_token": False, "traveller": False,
                        "shown": "", "reminders": []} for k in range(7)]}
    image(draw_grimoire(empty))
    image(draw_grimoire({"seats": [{"name": "Solo", "character": "Imp"}]}))


def test_many_reminders_on_every_seat_of_a_full_table_draw():
    data = sample_grimoire(17)
    for seat in data["seats"]:
        seat["reminders"] = [f"Reminder number {k}" for k in range(6)]
    assert image(draw_grimoire(data)).size == (SIZE, SIZE)


def test_a_very_long_name_is_trimmed_and_draws():
    data = sample_grimoire(17)
    data["seats"][3]["name"] = "W" * 60
    data["seats"][4]["character"] = "An Extraordinarily Long Homebrew Character Name"
    image(draw_grimoire(data))


@pytest.mark.parametrize("size,limit", [(26, 200), (30, 120), (21, 60)])
def test_trim_to_width_fits_and_ends_with_an_ellipsis(size, limit):
    text = "Bartholomew " * 5  # 60 characters
    assert len(text) == 60
    out = trim_to_width(text, size, limit)
    assert out.endswith("…")
    assert font(size).getlength(out) <= limit
    assert text.startswith(out[:-1])
    # and it is the longest such prefix: one more character would not fit
    longer = text[: len(out)].rstrip() + "…"
    assert longer == out or font(size).getlength(longer) > limit


def test_trim_to_width_leaves_short_text_alone():
    assert trim_to_width("Alice", 26, 400) == "Alice"


def test_picture_imports_only_the_standard_library_pillow_and_the_fonts():
    tree = ast.parse(Path(picture.__file__).read_text())
    roots = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, "no relative imports"
            if node.module != "games.engine.fonts":  # the shared fonts (Noto, glyph by glyph)
                roots.add(node.module.split(".")[0])
    assert roots <= {"__future__", "io", "math", "functools", "typing", "PIL"}
