"""Every slash command the player and Storyteller page lists (docs/playing.md, its tables' first
column) is one of the bot's, with the options the page names: a page that names a command the
bot lacks, or an option it does not take, fails here (the shell commands are tests/platform's)."""

from __future__ import annotations

import re
from itertools import product
from pathlib import Path

import discord
from discord import app_commands

PAGE = (Path(__file__).resolve().parents[2] / "docs" / "playing.md").read_text()


def listed() -> list[str]:
    """Each command of the tables' first column, its alternatives spelled out ("/announce a\\|b": two)."""
    found = []
    for row in re.findall(r"^\| (`/.*?) \|", PAGE, re.M):
        for span in re.findall(r"`(/[^`]+)`", row):
            words = [w.replace("\\|", "|").split("|") for w in span.removeprefix("/").split()]
            found += [" ".join(choice) for choice in product(*words)]
    return found


def option(word: str) -> str:
    """The option a page's word names: "[seat]" "seat", "[player2..5]" "player2", "kind:clocktower" "kind"."""
    return re.sub(r"\.\.\d+$", "", word.strip("[]").split(":")[0])


def unknown(tree: app_commands.CommandTree, line: str) -> str:
    """"" when ``line`` is a command of ``tree`` followed by its options' names; else what is wrong."""
    commands = {c.qualified_name: c for kind in discord.AppCommandType for c in tree.walk_commands(type=kind)
                if not isinstance(c, app_commands.Group)}
    words = line.split()
    for cut in range(len(words), 0, -1):
        command = commands.get(" ".join(words[:cut]))
        if command is not None:
            names = {p.display_name for p in command.parameters}
            wrong = [w for w in words[cut:] if option(w) not in names]
            return f"/{line}: no option {', '.join(wrong)}" if wrong else ""
    return f"/{line}: no such command"


def test_the_pages_table_lists_commands_at_all():
    lines = listed()
    assert len(lines) > 40
    assert {"announce klutz", "announce butcher player", "st traveller barista player effect"} <= set(lines)


async def test_every_command_on_the_players_and_storytellers_page_is_the_bots(world):
    tree = world.bot.tree
    assert [problem for line in listed() if (problem := unknown(tree, line))] == []
    assert unknown(tree, "announce nosuch") == "/announce nosuch: no such command"
    assert unknown(tree, "st execute player nosuch") == "/st execute player nosuch: no option nosuch"
