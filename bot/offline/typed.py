"""A slash command typed into the table's message box as text (``/game new ritual``) and sent with
Enter: on Discord the command list takes it; on the table it is read here and run as that command,
or answered with how to type it. Pure: the command list comes in as simcord's catalog entries."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

_NAMED = re.compile(r"^([a-z0-9_-]{1,32}):(.*)$")


class NotACommand(ValueError):
    """Typed text that looks like a command but is not one the table can run: the sentence says how."""


@dataclass(frozen=True)
class Typed:
    """The command to run: its catalog entry and the options as the command expects them."""

    entry: dict[str, Any]
    options: dict[str, Any]


def typed_command(content: str, entries: list[dict[str, Any]]) -> Typed | None:
    """``content`` read as a command of ``entries``; None when it is not written as one (plain chat).
    Options go in order (``/game new ritual``: kind=ritual; the last option takes the rest of the
    line) or by name as Discord writes them (``/game new kind:ritual options:rounds=2``).

    Raises ``NotACommand`` with a sentence when it names no command, or its options do not fit."""
    text = content.strip()
    if not text.startswith("/") or len(text) < 2 or text[1].isspace():
        return None
    words = text[1:].split()
    matches = [e for e in entries if [w.casefold() for w in words[:len(e["path"])]] == e["path"]]
    if not matches:
        family = sorted("/" + " ".join(e["path"]) for e in entries if e["path"][0] == words[0].casefold())
        if family:
            raise NotACommand(f"/{' '.join(words[:2])} is not a command. /{words[0]} has: {', '.join(family)}. "
                              "Type / and pick one from the list above the message box.")
        known = sorted({"/" + e["path"][0] for e in entries})
        raise NotACommand(f"There is no /{words[0]} command here. The commands: {', '.join(known)}. "
                          "Type / and pick one from the list above the message box.")
    entry = max(matches, key=lambda e: len(e["path"]))
    invocation = "/" + " ".join(entry["path"])
    options = _options(entry, words[len(entry["path"]):], invocation)
    missing = [o["name"] for o in entry["options"] if o["required"] and o["name"] not in options]
    if missing:
        example = " ".join(f"{name}:…" for name in missing)
        raise NotACommand(f"{invocation} needs {', '.join(missing)}: type {invocation} {example}, "
                          f"or pick {invocation} from the list as you type /.")
    return Typed(entry, options)


def _options(entry: dict[str, Any], words: list[str], invocation: str) -> dict[str, Any]:
    declared = {o["name"]: o for o in entry["options"]}
    raw: dict[str, str] = {}
    if words and _NAMED.match(words[0]) and _NAMED.match(words[0]).group(1) in declared:
        name = None
        for word in words:
            named = _NAMED.match(word)
            if named and named.group(1) in declared:
                name = named.group(1)
                raw[name] = named.group(2)
            else:
                raw[name] = f"{raw[name]} {word}".strip()
    else:
        order = list(declared)
        if len(words) > len(order) and order:
            words = [*words[:len(order) - 1], " ".join(words[len(order) - 1:])]
        if len(words) > len(order):
            raise NotACommand(f"{invocation} takes no options.")
        raw = dict(zip(order, words, strict=False))
    return {name: _value(declared[name], text, invocation) for name, text in raw.items() if text}


def _value(option: dict[str, Any], text: str, invocation: str) -> Any:
    name, kind = option["name"], option["type"]
    if option["choices"]:
        for choice in option["choices"]:
            if text.casefold() in (str(choice["name"]).casefold(), str(choice["value"]).casefold()):
                return choice["value"]
        names = ", ".join(str(c["value"]) for c in option["choices"])
        raise NotACommand(f"{invocation}: {name} is one of {names} (not {text!r}).")
    try:
        if kind == "integer":
            return int(text)
        if kind == "number":
            return float(text)
    except ValueError:
        raise NotACommand(f"{invocation}: {name} is a number (not {text!r}).") from None
    if kind == "boolean":
        if text.casefold() in ("true", "yes", "on", "1"):
            return True
        if text.casefold() in ("false", "no", "off", "0"):
            return False
        raise NotACommand(f"{invocation}: {name} is true or false (not {text!r}).")
    if kind != "string":
        raise NotACommand(f"{invocation}: pick {name} from the list as you type / (it cannot be typed).")
    return text
