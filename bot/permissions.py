"""The bot's Discord permissions, in one table: what each is for, and when it is needed. The
checks before a deal (``bot.play``) and in the voice channel (``bot.voice``) read their names from
here, and ``python -m bot invite`` computes the invite's permissions integer from it, so the
invite asks for exactly what the code checks."""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass

import discord

#: when a permission is needed
ALWAYS = "always"
FORUM = "forum games"
VOICE = "voice"


@dataclass(frozen=True)
class Permission:
    flag: str  # the attribute of ``discord.Permissions``
    name: str  # Discord's word for it, as the server settings show it
    why: str  # what the bot does with it, in plain words
    when: str  # ALWAYS, FORUM (the games with a town square closed at night) or VOICE


TABLE: tuple[Permission, ...] = (
    Permission("view_channel", "View Channel", "see the game's channel and the voice channel", ALWAYS),
    Permission("send_messages", "Send Messages", "post the game in its channel", ALWAYS),
    Permission("embed_links", "Embed Links", "the sign-up sheet, the phases and the results", ALWAYS),
    Permission("attach_files", "Attach Files", "the pictures (the grimoire, the board)", ALWAYS),
    Permission("read_message_history", "Read Message History", "edit its own messages as the game goes",
               ALWAYS),
    Permission("send_messages_in_threads", "Send Messages in Threads",
               "write in the private and announcement threads", ALWAYS),
    Permission("create_public_threads", "Create Public Threads", "the game's announcement thread", ALWAYS),
    Permission("create_private_threads", "Create Private Threads",
               "a private thread for each player, and for whispers", ALWAYS),
    Permission("manage_threads", "Manage Threads",
               "add and remove a thread's members (a substitute), lock whispers at night", ALWAYS),
    Permission("manage_roles", "Manage Roles",
               "close the town square at night (one overwrite on @everyone; a channel's settings call it "
               "Manage Permissions)", FORUM),
    Permission("connect", "Connect", "join the linked voice channel to say the phases aloud", VOICE),
    Permission("speak", "Speak", "say the phases aloud", VOICE),
    Permission("mute_members", "Mute Members", "mute the dead, the speaking turns, a quiet night", VOICE),
)

BY_FLAG = {p.flag: p for p in TABLE}


def named(*flags: str) -> dict[str, str]:
    """``{flag: Discord's name}`` for the checks; a flag missing from the table raises KeyError
    (at import), so nothing is checked that the invite does not ask for."""
    return {flag: BY_FLAG[flag].name for flag in flags}


def missing(permissions: discord.Permissions, needed: dict[str, str]) -> list[str]:
    """The permissions of ``needed`` (``named``) that ``permissions`` lacks, in Discord's words."""
    return [words for flag, words in needed.items() if not getattr(permissions, flag, False)]


def needed(*, voice: bool = True) -> list[Permission]:
    """The permissions an invite asks for (without the voice table's when ``voice`` is False)."""
    return [p for p in TABLE if voice or p.when != VOICE]


def permissions_value(*, voice: bool = True) -> int:
    """The invite's permissions integer: the OR of the table's flags."""
    return discord.Permissions(**{p.flag: True for p in needed(voice=voice)}).value


def invite_url(client_id: int, *, voice: bool = True) -> str:
    return (f"https://discord.com/oauth2/authorize?client_id={client_id}"
            f"&scope=bot+applications.commands&permissions={permissions_value(voice=voice)}")


class BadToken(ValueError):
    """The token does not hold an application id (its first part, before the first dot)."""


def client_id_of(token: str) -> int:
    """The application id a bot token starts with: its first dot-separated part, base64."""
    first = token.strip().split(".", 1)[0]
    try:
        text = base64.b64decode(first + "=" * (-len(first) % 4), validate=True).decode("ascii")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        text = ""
    if not text.isdigit():
        raise BadToken("DISCORD_TOKEN does not look like a bot token (its first part should hold the "
                       "application id). Copy it again from the Developer Portal, or pass --client-id "
                       "with the Application ID from its General Information page.")
    return int(text)


def invite_text(client_id: int, *, voice: bool = True) -> str:
    """What ``python -m bot invite`` prints: the URL, then each permission and what it is for."""
    lines = ["Open this address to add the bot to a server (you need Manage Server there):", "",
             "  " + invite_url(client_id, voice=voice), "",
             f"It asks for these permissions (integer {permissions_value(voice=voice)}):"]
    for p in needed(voice=voice):
        lines.append(f"  {p.name:26} {p.when + ':':12} {p.why}")
    if not voice:
        lines.append("  (no voice permissions: the voice table's muting and narration stay off)")
    lines.append("A permission left out turns off only its part; the host is told once what to grant.")
    return "\n".join(lines)
