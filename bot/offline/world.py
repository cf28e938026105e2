"""The offline table's simulated Discord: one guild, one game channel, its voice channel, the players.

Ids are derived from names, so a restarted process rebuilds the same guild, channel and players,
and the database's channel and user ids still match (games resume). The same name always gets
the same id; renaming a player makes a new player.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # simcord is imported only when a table is built (see bot/offline/__init__.py)
    import simcord

GUILD_NAME = "Offline table"
CHANNEL_NAME = "table"
VOICE_NAME = "table-voice"
DEFAULT_NAMES = ["Ann", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lou",
                 "Max", "Nia", "Oz", "Pia", "Quin", "Rae", "Sol", "Tam", "Uma", "Vic", "Wes", "Xan",
                 "Yul"]
MAX_PLAYERS = 25  # one preview's "Viewing as" list and Discord's 25 select options
#: what a name may not hold: Discord's mention and markdown marks that would turn it into something
#: else (``<@...>``, ``#channel``, code), and the separator of ``--names``
_NOT_IN_NAME = set("<>@#`,")
#: Unicode categories never in a name: controls, line breaks, unassigned and private-use code points
_NOT_IN_NAME_CATEGORIES = {"Cc", "Zl", "Zp", "Cs", "Co", "Cn"}
#: ids are snowflakes dated 2020-2021, far from the ones simcord allocates at "now"
_BASE_MS = 1_577_836_800_000 - 1_420_070_400_000  # 2020-01-01 in Discord's epoch
_SPAN_MS = 366 * 24 * 3600 * 1000


class NameError_(ValueError):
    """A bad --players / --names combination, with a sentence for the user."""


class NotInThread(LookupError):
    """A player asked to open a thread they cannot read (another player's private thread)."""


def stable_id(kind: str, name: str) -> int:
    """A snowflake that depends only on ``kind`` and the (case-folded) name."""
    digest = int.from_bytes(hashlib.sha256(f"{kind}:{name.casefold()}".encode()).digest()[:8], "big")
    return ((_BASE_MS + (digest >> 22) % _SPAN_MS) << 22) | (digest & 0x3FFFFF)


def player_names(players: int | None = None, names: str | list[str] | None = "") -> list[str]:
    """``--names a,b,c`` wins; ``--players N`` tops the list up with default names."""
    if isinstance(names, str):
        given = [n.strip() for n in names.split(",") if n.strip()]
    else:
        given = [n.strip() for n in (names or []) if n.strip()]
    for name in given:
        if not usable(name):
            raise NameError_(f"{name!r} is not a usable name: use 1-32 letters, digits, spaces, emoji or "
                             "punctuation, but none of < > @ # ` and no control characters.")
    folded = [n.casefold() for n in given]
    if len(set(folded)) != len(folded):
        raise NameError_("Two players have the same name; each name must be different.")
    count = max(players or 0, len(given)) or 5
    if count > MAX_PLAYERS:
        raise NameError_(f"The offline table seats at most {MAX_PLAYERS} players.")
    spare = [n for n in DEFAULT_NAMES if n.casefold() not in folded]
    return given + spare[: count - len(given)]


def usable(name: str) -> bool:
    """Whether ``name`` can be a player's name: 1-32 characters (emoji and any script welcome)."""
    return 1 <= len(name) <= 32 and not any(
        c in _NOT_IN_NAME or unicodedata.category(c) in _NOT_IN_NAME_CATEGORIES for c in name)


def username(name: str) -> str:
    """A Discord-style username for ``name`` (lower-case letters, digits, ``_`` and ``.``); the
    name itself is the display name."""
    return re.sub(r"[^a-z0-9_.]", "", name.lower().replace(" ", "_")) or f"player{stable_id('user', name) % 10000}"


def display_name(member: simcord.MemberActor) -> str:
    return member.user.global_name or member.user.name


@dataclass
class World:
    env: simcord.Env
    guild: simcord.GuildHandle
    channel: simcord.ChannelHandle
    players: list[simcord.MemberActor]
    #: the voice channel beside ``#table``, where every player sits (see ``join_voice``)
    voice: simcord.ChannelHandle

    @property
    def host(self) -> simcord.MemberActor:
        return self.players[0]

    def player(self, name_or_id: str | int) -> simcord.MemberActor:
        for member in self.players:
            if member.id == name_or_id or display_name(member).casefold() == str(name_or_id).casefold():
                return member
        raise KeyError(name_or_id)

    def threads(self) -> list[simcord.ChannelHandle]:
        """Every thread of the guild, oldest first."""
        found = []
        for channel in self.guild.channels.values():
            if not channel.is_thread:
                found.extend(channel.threads)
        return sorted({t.id: t for t in found}.values(), key=lambda t: t.id)

    def readers(self, thread: simcord.ChannelHandle) -> list[simcord.MemberActor]:
        """The players who can read ``thread``: for a private thread, its members."""
        import simcord

        found = []
        for member in self.players:
            try:
                thread.history(viewer=member)
            except (simcord.SetupError, simcord.BackendError):
                continue
            found.append(member)
        return found


def build_world(env: simcord.Env, names: list[str]) -> World:
    """Create the guild, ``#table``, its voice channel and one member per name, with ids derived
    from the names.

    Call it before ``env.start()``: the bot then sees the guild in READY, as on Discord, so
    messages it delivers while starting (a restart) find their channel.
    """
    from . import _simcord

    guild = env.create_guild(GUILD_NAME, id=stable_id("guild", GUILD_NAME))
    with _simcord.pinned_ids(env, stable_id("channel", CHANNEL_NAME)):
        channel = guild.create_text_channel(
            CHANNEL_NAME, topic="The offline table: start a game with /game new")
    with _simcord.pinned_ids(env, stable_id("channel", VOICE_NAME)):
        voice = guild.create_voice_channel(VOICE_NAME)
    members = []
    for name in names:
        with _simcord.pinned_ids(env, stable_id("user", name)):
            user = env.create_user(username(name), global_name=name)
        members.append(guild.add_member(user))
    return World(env, guild, channel, members, voice)


def voice_members(world: World) -> list[tuple[str, bool]]:
    """Who is in the voice channel now and whether Discord has them server-muted, read from
    simcord's voice states (what the bot did, not what a game meant to do). Seat order."""
    states = world.guild.voice_states()
    found = []
    for member in world.players:
        state = states.get(member.id)
        if state is not None and state.channel_id == world.voice.id:
            found.append((display_name(member), bool(state.mute)))
    return found
