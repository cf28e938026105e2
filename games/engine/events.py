"""Events: what happened, and who may learn it.

Every event names its audience. Only ``bot/`` turns an audience into a channel message, a DM,
a thread or an ephemeral reply; the rules never know how a message travels.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

AudienceKind = Literal["public", "player", "team", "storyteller", "group", "thread", "record"]


class Audience(BaseModel):
    kind: AudienceKind
    #: player id for ``player``, team name for ``team``, the group's key for ``group``, the public
    #: thread's key for ``thread`` (the Clocktower announcement thread); empty for ``public`` and
    #: ``storyteller``.
    id: str = ""
    #: player ids of a ``group``: a conversation shared by them (and the storyteller), such as a
    #: Clocktower whisper. The bot gives each key one private thread and adds new members to it.
    members: tuple[str, ...] = ()
    #: a ``group`` whose thread a later group of the same kind (its key up to the last ":") and
    #: exactly the same members may take back, instead of a new thread (a whisper declared again)
    #: (not written when False: every event of every action carries an audience)
    reopen: bool = Field(False, exclude_if=lambda reopen: not reopen)

    model_config = {"frozen": True}

    def __str__(self) -> str:
        return self.kind if not self.id else f"{self.kind}:{self.id}"


PUBLIC = Audience(kind="public")
#: the type of the public event saying that a new person took over a seat (``data``: ``old`` and
#: ``new`` player ids): the bot hands the seat's private thread and sign-up to the new person in
#: the same commit
SUBSTITUTE = "substitute"
STORYTELLER = Audience(kind="storyteller")
#: an event nobody is sent: a row of the game's append-only record (a day's votes, a whisper),
#: kept by the bot in the same commit and handed back to ``Game.recap`` at the end
RECORD = Audience(kind="record")


def to_player(player_id: str) -> Audience:
    return Audience(kind="player", id=player_id)


def to_team(team: str) -> Audience:
    return Audience(kind="team", id=team)


def to_thread(key: str) -> Audience:
    """A public thread of the game's channel, named by ``key``, that everyone may read."""
    return Audience(kind="thread", id=key)


def to_group(key: str, members: list[str] | tuple[str, ...], *, reopen: bool = False) -> Audience:
    return Audience(kind="group", id=key, members=tuple(members), reopen=reopen)


class Event(BaseModel):
    """One thing that happened. ``text`` is the narration shown to the audience (Markdown)."""

    type: str
    audience: Audience = PUBLIC
    text: str = ""
    title: str = ""
    data: dict[str, Any] = Field(default_factory=dict)
    #: seconds the table should pause after showing this event (theatre); 0 for none.
    pause: float = 0.0
    #: a phase-opening event: the bot attaches the phase's buttons to it.
    opens_phase: bool = False
    #: a picture to draw with it, named for the game's renderer (e.g. "tableau").
    image: str = ""
    #: a living message: the event replaces what the message of this name showed (a vote tally),
    #: instead of adding a message; the first one is posted. On a private event: a line that
    #: restates its whole state, so only the newest of a quick burst of the same slot is sent.
    slot: str = ""
    #: players this public message calls to act now ("your turn"): the bot mentions them, so their
    #: phone lights up. Only players the text already names openly; never a secret's holder.
    notify: list[str] = Field(default_factory=list)
    #: a few words the bot says aloud in the game's linked voice channel when this public message
    #: is posted ("Night falls."): public events only, never a secret; empty for silence.
    say: str = ""


def record(type: str, data: dict[str, Any]) -> Event:
    """A row of the game's record (never shown until ``Game.recap`` tells it at the end)."""
    return Event(type=type, audience=RECORD, data=data)


def public(type: str, text: str, **kw: Any) -> Event:
    return Event(type=type, audience=PUBLIC, text=text, **kw)


#: the type of a living message's new face made when it is shown, not when it changed (``live``)
LIVE = "live"


def live(slot: str) -> Event:
    """The living message ``slot`` changed: its face is made from the state when it is shown
    (``Game.living``), not now. A burst of votes redraws a day's tally once, from the newest
    state, instead of drawing and storing its text with every vote (issue 38)."""
    return Event(type=LIVE, audience=PUBLIC, slot=slot)


def private(player_id: str, type: str, text: str, **kw: Any) -> Event:
    return Event(type=type, audience=to_player(player_id), text=text, **kw)
