"""A slash command typed into the table's message box as text (``/game new ritual``) and sent with
Enter: on Discord the command list takes it; on the table it is read here and run as that command,
or answered with how to type it. Pure: the command list comes in as simcord's catalog entries."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

_NAMED = re.compile(r"^([a-z0-9_-]{1,32}):(.*)$")
#: the option types a value can be typed for (a user, a channel or a role is picked from a list)
TYPED = ("string", "integer", "number", "boolean")


class NotACommand(ValueError):
    """Typed text that looks like a command but is not one the table can run: the sentence says how."""


@dataclass(frozen=True)
class Typed:
    """The command to run: its catalog entry and the options as the command expects them."""

    entry: dict[str, Any]
    options: dict[str, Any]


def typed_command(content: str, entries: list[dict[str, Any]]) -> Typed | None:
    """``content`` read as a command of ``entries``; None when it is not written as one (plain chat).
    Options go in order (``/game new ritual rounds=2``: kind=ritual, and a text option takes the rest of the
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
    missing = [o for o in entry["options"] if o["required"] and o["name"] not in options]
    if missing:
        names = ", ".join(o["name"] for o in missing)
        if any(o["type"] not in TYPED for o in missing):  # (a player or a channel is picked, not typed)
            raise NotACommand(f"{invocation} needs {names}: pick {invocation} from the list as you type /, "
                              "and choose there.")
        example = " ".join(f"{o['name']}:…" for o in missing)
        raise NotACommand(f"{invocation} needs {names}: type {invocation} {example}, "
                          f"or pick {invocation} from the list as you type /.")
    return Typed(entry, options)


def _options(entry: dict[str, Any], words: list[str], invocation: str) -> dict[str, Any]:
    """The words after the command, as its options: ``name:value`` where a word names an option
    (the words after it, up to the next name, are its value); the other words fill the options not
    named, in order, one word each, but a text option that is not required (``/game new``'s
    ``options``) takes the rest of them."""
    declared = {o["name"]: o for o in entry["options"]}
    raw: dict[str, str] = {}
    loose: list[str] = []
    name = None
    for word in words:
        named = _NAMED.match(word)
        if named and named.group(1) in declared:
            name = named.group(1)
            raw[name] = named.group(2)
        elif name is not None:
            raw[name] = f"{raw[name]} {word}".strip()
        else:
            loose.append(word)
    for option in (o for o in declared.values() if o["name"] not in raw):
        if not loose:
            break
        takes_rest = option["type"] == "string" and not option["required"] and not option["choices"]
        raw[option["name"]] = " ".join(loose) if takes_rest else loose[0]
        loose = [] if takes_rest else loose[1:]
    if loose:
        raise NotACommand(f"{invocation} takes no more options (not {' '.join(loose)!r}); name them as "
                          f"{invocation} name:value.")
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
    if kind not in TYPED:
        raise NotACommand(f"{invocation}: pick {name} from the list as you type / (it cannot be typed).")
    return text
