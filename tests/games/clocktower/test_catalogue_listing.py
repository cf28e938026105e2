"""The README's list of every official character, ruled or judged, is the generator's output."""

import contextlib
import io
from pathlib import Path

from games.__main__ import main
from games.clocktower import copilot, resolve, ruled
from games.clocktower.catalogue import load

README = Path(ruled.__file__).parent / "README.md"


def test_the_readme_holds_the_generated_list():
    text = README.read_text(encoding="utf-8")
    start, end = text.index(ruled.BEGIN), text.index(ruled.END) + len(ruled.END)
    assert text[start:end] == ruled.listing(), "run: python -m games clocktower characters"


def test_the_command_line_prints_the_list():
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["clocktower", "characters"]) == 0
    assert out.getvalue() == ruled.listing() + "\n"


def test_every_official_character_is_listed_once_by_edition_and_team():
    entries = ruled.entries()
    assert sorted(e.id for e in entries) == sorted(load().records)
    listing = ruled.listing()
    for record in load().records.values():
        assert record.name in listing


def test_her_royal_highness_registers_characters_and_the_official_ruled_ones_are_ruled_the_rest_judged():
    from games.clocktower.rules import RULED_OFFICIAL

    by_id = {e.id: e for e in ruled.entries()}
    # the Harlot is Her Royal Highness Register's Waitress in the listing, and official-ruled in a game too
    assert sum(e.ruled for e in by_id.values()) == 32 + len(RULED_OFFICIAL - {"harlot"})
    assert all(by_id[c].ruled for c in RULED_OFFICIAL)
    # the ones with a table entry of their own; the rest are ruled by the day's shared code (the Virgin's way)
    assert by_id["imp"].concerns == ("night", "asked") and by_id["butler"].concerns == ("asked",)
    assert by_id["slayer"].concerns == () and by_id["saint"].concerns == ()
    assert by_id["harlot"].ruled and by_id["harlot"].concerns == ("night", "asked", "information")
    assert by_id["pukka"].concerns == ("night", "asked")
    assert by_id["empath"].concerns == ("information",)
    assert by_id["baron"].concerns == ("set-up",)
    assert by_id["virgin"].ruled and by_id["virgin"].concerns == ()
    assert by_id["chef"].ruled and by_id["chef"].concerns == ("information",)
    assert not by_id["sentinel"].ruled
    assert by_id["shabaloth"].ruled and by_id["shabaloth"].concerns == ("night", "asked")


def test_the_concerns_are_read_from_the_rules_tables(monkeypatch):
    monkeypatch.setattr(resolve, "_ACTS", {**resolve._ACTS, "empath": resolve._ACTS["pukka"]})
    monkeypatch.setattr(copilot, "_PROPOSERS", {k: v for k, v in copilot._PROPOSERS.items() if k != "knight"})
    by_id = {e.id: e for e in ruled.entries()}
    assert by_id["empath"].concerns == ("night", "information")
    assert by_id["knight"].concerns == ()
