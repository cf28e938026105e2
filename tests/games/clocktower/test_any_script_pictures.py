"""Players see any script (issue 37, item 5): every official character's name fits its token on the
grimoire picture, homebrew names in any writing too; the grimoire of a 15-player game with 5
Travellers on the largest championship script draws; the sheet of every championship script
(``/game script``) names every character with its ability, whatever catalogue it came from.

The scripts and characters are built from the official files (tests/support/official_scripts.py),
not by the engine's loaders, so these tests hold whichever catalogue the engine reads. Discord's
limits on the sheet's messages are tested with the bot's renderer in tests/discord/test_game_script.py.
"""

from __future__ import annotations

import io
import math
import re

import pytest
from PIL import Image, ImageChops, ImageDraw
from support.official_scripts import (
    Catalogue,
    Entry,
    every_official_character,
    largest_wc25,
    records,
    wc25,
    wc25_files,
)

from games.clocktower.picture import (
    GOLD,
    MAX_SEATS,
    NAME_FLOOR,
    SIZE,
    banner_size,
    centre_lines,
    centre_radius,
    draw_grimoire,
    font,
    ink_box,
    ring_width,
    seat_centre,
    token_radius,
    token_rows,
    top_label,
)
from games.clocktower.script_text import UNKNOWN_ABILITY, plain, script_sheet
from games.engine.fonts import break_points

#: every token size the picture draws, 1 to 20 seats (69 px at 20 seats to 105 px up to 12)
RADII = sorted({token_radius(count) for count in range(1, MAX_SEATS + 1)})
#: a false card as long as they come (a Drunk, a Marionette and a Lunatic are shown one)
CARD = "Fortune Teller"


def fill_radius(r: int, traveller: bool) -> int:
    """The token's coloured disc, inside its ring: the words must stay on it."""
    return r - ring_width(r, traveller)


def ink_outside_the_disc(rows, radius: float):
    """Draw the rows as the token does (centred, from the token's centre) and return the box of any
    ink outside the disc of ``radius`` (None when there is none)."""
    side = 2 * math.ceil(radius) + 160
    c = side / 2
    img = Image.new("L", (side, side), 0)
    draw = ImageDraw.Draw(img)
    for row in rows:
        font(row.size).draw(draw, (c, c + row.dy), row.text, 255, anchor="mm")
    outside = Image.new("L", (side, side), 255)
    ImageDraw.Draw(outside).ellipse((c - radius, c - radius, c + radius, c + radius), fill=0)
    return ImageChops.multiply(img, outside).getbbox()


def check_token(name: str, shown: str, r: int, traveller: bool, team: str):
    """The rows of ``name`` (and its false card) in a token of radius ``r``: inside the coloured
    disc, below the team label and a dead token's shroud, above the player's banner, not on each
    other. Returns the name's rows and the false card's (or None)."""
    rows = token_rows(name, shown, r, traveller)
    assert len(rows) in ((1, 2) if not shown else (2, 3)), rows
    assert all(row.size >= NAME_FLOOR for row in rows), rows
    assert ink_outside_the_disc(rows, fill_radius(r, traveller)) is None, (name, r, rows)
    label = top_label(f"good {team}", team, r, traveller)
    assert ink_outside_the_disc([label], fill_radius(r, traveller)) is None, (team, r)
    ceiling = max(ink_box(label)[3], -0.40 * r)  # the label's ink, or the DEAD shroud's lowest point
    floor = 0.80 * r - (banner_size(r) * 0.62 + 6)  # the top of the player's banner
    boxes = [ink_box(row) for row in rows]
    assert ceiling <= boxes[0][1] and boxes[-1][3] <= floor, (name, r, boxes, ceiling, floor)
    for upper, lower in zip(boxes, boxes[1:], strict=False):
        assert upper[3] <= lower[1], (name, r, rows)
    return (rows[:-1], rows[-1]) if shown else (rows, None)


@pytest.mark.slow
def test_every_official_name_fits_its_token_at_every_table_size():
    """All 181 names, whole, in type no smaller than the floor, at every token size from 1 to 20
    seats, with and without a false card under them, the false card whole too. (Before: one line
    of 28 to 40 px trimmed to the room between the neighbours: at 15 seats 72 of the 181 names ran
    over the token's disc onto its ring and 10 were cut with "…", the Washerwoman's among them; at
    17 seats the Spirit of Ivory was "Spirit of Iv…".)"""
    assert len(records()) == 181
    for r in RADII:
        for entry in records():
            traveller = entry.team == "traveller"
            for shown in ("", CARD):
                rows, card = check_token(entry.name, shown, r, traveller, entry.team)
                assert " ".join(row.text for row in rows) == entry.name, (entry.name, r, rows)
                assert card is None or card.text.endswith(CARD), (entry.name, r, card)


def test_long_names_wrap_on_two_lines_in_big_type_rather_than_shrink_on_one():
    r = token_radius(15)
    for name in ("Spirit of Ivory", "Lord of Typhon", "Hell's Librarian", "Devil's Advocate"):
        rows = token_rows(name, "", r)
        assert len(rows) == 2 and rows[0].size >= 28, rows
    assert [row.text for row in token_rows("Spirit of Ivory", "", r)] == ["Spirit", "of Ivory"] or \
        [row.text for row in token_rows("Spirit of Ivory", "", r)] == ["Spirit of", "Ivory"]
    assert len(token_rows("Imp", "", r)) == 1 and token_rows("Imp", "", r)[0].size == 36


def test_the_false_card_says_thinks_where_there_is_room():
    """"thinks: X" up to 15 seats; a thought bubble for the word when it is too wide (most names
    at 17 seats); at 20 seats, the bare name in gold where not even that fits."""
    for entry in records():
        for count in (12, 15):
            card = token_rows(entry.name, CARD, token_radius(count))[-1].text
            assert card in (f"thinks: {CARD}", f"\U0001f4ad {CARD}"), (entry.name, count, card)
    assert token_rows("Drunk", "Soldier", token_radius(15))[-1].text == "thinks: Soldier"
    assert token_rows("Nightwatchman", CARD, token_radius(17))[-1].text == f"\U0001f4ad {CARD}"


HOMEBREW = [
    "Supercalifragilisticexpialidoc",  # 30 letters, one word
    "龍の守護者と夜明けの鐘楼の番人たちの長い物語の主人公です",  # no spaces, wide glyphs
    "Ángel de la Guarda del Último",  # accents
    "Страж Полуночного Колокола",  # Cyrillic
    "Ἀρχιφύλαξ τῆς Νυκτός",  # polytonic Greek
    "e\u0301e\u0301e\u0301e\u0301e\u0301e\u0301e\u0301e\u0301e\u0301e\u0301e\u0301e\u0301e\u0301e\u0301e\u0301",  # marks
    "👩\u200d🚀👩\u200d🚀👩\u200d🚀 Astronaut 🇫🇷🇩🇪🇯🇵",  # emoji sequences and flags
    "W" * 30,
    "I See Dead People",
    "Off to see the Wizard",
]


@pytest.mark.parametrize("name", HOMEBREW)
def test_a_homebrew_name_in_any_writing_stays_inside_its_token(name):
    """Up to the schema's 30 characters, in any writing: inside the disc, in type no smaller than the
    floor; cut on two lines only between whole characters (never inside an accent, an emoji
    sequence or a flag), and shown whole or trimmed with "…" (never silently cut)."""
    assert len(name) <= 30 or name.startswith("e\u0301")
    for r in (token_radius(12), token_radius(MAX_SEATS)):
        for traveller, team in ((False, "townsfolk"), (True, "traveller")):
            rows, _ = check_token(name, CARD, r, traveller, team)
            text = rows[0].text
            if len(rows) == 2:
                first = text.removesuffix("-")
                assert len(first) in break_points(name) or name[len(first)] == " ", (name, rows)
                rest = rows[1].text
                joined = first + (" " if name[len(first)] == " " else "") + rest.removesuffix("…")
                assert name.startswith(joined) and (joined == name or rest.endswith("…")), (name, rows)
            else:
                assert text == name or (text.endswith("…") and name.startswith(text[:-1])), (name, rows)


def _seats(script, catalogue: Catalogue) -> list[dict]:
    """15 players as the official table deals them (9 Townsfolk, 2 Outsiders, 3 Minions, a Demon),
    the longest names first, and 5 Travellers: 20 seats, with deaths, reminders and a false card."""
    counts = {"townsfolk": 9, "outsider": 2, "minion": 3, "demon": 1}
    travellers = list(script.characters["traveller"])
    travellers += [e.id for e in records() if e.team == "traveller" and e.id not in travellers]
    picked = [(cid, team) for team, n in counts.items()
              for cid in sorted(script.characters[team], key=lambda c: -len(catalogue.resolve(c).name))[:n]]
    picked += [(cid, "traveller") for cid in travellers[:5]]
    assert len(picked) == 20
    seats = []
    for k, (cid, team) in enumerate(picked):
        entry = catalogue.resolve(cid)
        seats.append({
            "seat": k + 1, "name": f"Player {k + 1} of the forum", "character": entry.name, "team": team,
            "alignment": "evil" if team in ("minion", "demon") or k == 19 else "good", "alive": k % 4 != 1,
            "vote_token": k % 8 == 1, "traveller": team == "traveller", "shown": "",
            "reminders": [f"{x} ({entry.name})" for x in entry.reminders[:3]],
        })
    seats[2]["shown"] = CARD
    seats[9]["shown"] = catalogue.resolve(script.characters["townsfolk"][-1]).name
    return seats


def test_the_grimoire_of_a_fifteen_player_game_with_five_travellers_on_the_largest_script_draws():
    script, catalogue = largest_wc25()
    on_script = sum(len(ids) for ids in script.characters.values())
    assert on_script == max(sum(len(ids) for ids in wc25(p)[0].characters.values()) for p in wc25_files())
    seats = _seats(script, catalogue)
    dealt = {s["character"] for s in seats}
    bluffs = [catalogue.resolve(c).name for c in script.characters["townsfolk"]
              if catalogue.resolve(c).name not in dealt][:3]
    data = {"title": f"{script.name} · Night 3", "seats": seats,
            "fabled": [catalogue.resolve(c).name for c in script.characters["fabled"]] + ["Spirit of Ivory"],
            "loric": ["Storm Catcher", "Big Wig"], "bluffs": bluffs}
    png = draw_grimoire(data)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    img = Image.open(io.BytesIO(png))
    img.load()  # decodes the whole picture
    assert img.format == "PNG" and img.size == (SIZE, SIZE)
    rgb = img.convert("RGB")
    colours = rgb.getcolors(maxcolors=1 << 20)
    assert colours is not None and len(colours) > 50
    r = token_radius(20)
    for k, seat in enumerate(seats):  # each token is drawn where the geometry puts it
        x, y = seat_centre(k, 20)
        assert rgb.getpixel((x + r // 2, y - r // 3)) != rgb.getpixel((SIZE - 2, SIZE - 2)), k
        check_token(seat["character"], seat["shown"], r, seat["traveller"], seat["team"])


@pytest.mark.parametrize("count", range(18, MAX_SEATS + 1))
def test_up_to_twenty_tokens_do_not_touch_and_stay_on_the_canvas(count):
    r = token_radius(count)
    assert r >= 60
    centres = [seat_centre(k, count) for k in range(count)]
    for k in range(count):
        assert math.dist(centres[k], centres[(k + 1) % count]) > 2 * r
    for x, y in centres:
        assert r <= x <= SIZE - r and r <= y <= SIZE - r


# ------------------------------------------------------------------------------------ the sheet


def section(sheet, title):
    return next(s for s in sheet.sections if s.title == title or s.title.startswith(f"{title} ("))


@pytest.mark.parametrize("path", wc25_files(), ids=lambda p: p.name.split(".")[0])
def test_the_sheet_of_every_championship_script_names_every_character_with_its_ability(path):
    script, catalogue = wc25(path)
    travellers, fabled = script.characters["traveller"], script.characters["fabled"]
    sheet = script_sheet(script, travellers=travellers, fabled=fabled, data=catalogue)
    text = "\n".join(line for s in sheet.sections for line in s.lines)
    for team, ids in script.characters.items():
        for cid in ids:
            entry = catalogue.resolve(cid)
            assert f"**{plain(entry.name)}**: {plain(entry.ability)}" in text, (team, cid)
    assert UNKNOWN_ABILITY not in text
    for title, team in (("Townsfolk", "townsfolk"), ("Outsiders", "outsider"), ("Minions", "minion"),
                        ("Demons", "demon")):
        assert len(section(sheet, title).lines) == len(script.characters[team])
    if script.characters["loric"]:
        assert len(section(sheet, "Loric").lines) == len(script.characters["loric"])
    names = [re.sub(r"^\d+\. ", "", line) for line in section(sheet, "First night").lines]
    assert names[0] == "Dusk" and names[-1] == "Dawn" and "Minion Info" in names
    assert sheet.title == f"{script.name}, by {script.author}"


def test_a_star_in_an_ability_is_escaped_so_discord_shows_it():
    """"Each night*" twice in one embed would be read by Discord as italics from one star to the
    next, both stars hidden: every star of a text is escaped, only the bold names' stars are not."""
    script, catalogue = every_official_character()
    sheet = script_sheet(script, data=catalogue)
    demons = "\n".join(section(sheet, "Demons").lines)
    assert demons.count("Each night\\*") >= 5
    assert "*" not in re.sub(r"\\\*", "", re.sub(r"^\*\*[^*]+\*\*: ", "", demons, flags=re.M))


def test_a_character_no_catalogue_knows_is_listed_by_its_id_never_refused():
    script, catalogue = wc25(wc25_files()[0])
    missing = script.characters["townsfolk"][0]
    partial = Catalogue([e for e in catalogue.entries.values() if e.id != missing])
    sheet = script_sheet(script, data=partial)
    assert f"**{missing}**: {UNKNOWN_ABILITY}" in section(sheet, "Townsfolk").lines
    homebrew = Catalogue([*catalogue.entries.values(), Entry("zed", "Zed_*the*~Brave~", "traveller", "> *Hi*")])
    sheet = script_sheet(script.model_copy(update={"characters": {**script.characters, "traveller": ("zed",)}}),
                         travellers=["zed"], data=homebrew)
    assert section(sheet, "Travellers in play").lines == ("**Zed\\_\\*the\\*\\~Brave\\~**: \\> \\*Hi\\*",)


def test_every_fabled_and_loric_in_the_centre_keeps_the_bluffs_and_is_cut_in_words():
    """All 14 Fabled and 11 Loric in play at 20 seats: more than the centre holds. The Demon's
    bluffs stay (first after the title), the lists are cut with "…", and the picture draws."""
    fabled = [e.name for e in records() if e.team == "fabled"]
    loric = [e.name for e in records() if e.team == "loric"]
    assert (len(fabled), len(loric)) == (14, 11)
    data = {"title": "The Djinn's Bargain · Night 3", "seats": _seats(*largest_wc25()),
            "fabled": fabled, "loric": loric, "bluffs": ["Chef", "Oracle", "Slayer"]}
    block = centre_lines(data, centre_radius(20))
    title = [line for line, _, colour in block if colour == GOLD]
    lines = [line for line, _, colour in block if colour != GOLD]
    assert " ".join(title) == data["title"] and [line for line, _, _ in block[:len(title)]] == title
    assert lines[0] == "Bluffs: Chef, Oracle, Slayer"
    assert lines[-1].endswith("…") and lines[-1] != "…" and len(lines) > 3
    few = [line for line, _, _ in centre_lines({**data, "fabled": fabled[:2], "loric": loric[:1]},
                                                 centre_radius(20))]
    assert not any(line.endswith("…") for line in few) and few[-1] == f"Loric: {loric[0]}"
    assert Image.open(io.BytesIO(draw_grimoire(data))).size == (SIZE, SIZE)
