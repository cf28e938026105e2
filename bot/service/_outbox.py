"""The outbox hand-off: the rows a commit gives the delivery (a game's events as messages, with
their pictures as data; a phase's opening message as its slot; refreshes and the game's undo).

Pure: no store, no lock; the core writes these rows in the commit that made them."""

from __future__ import annotations

from typing import Any

from pydantic_core import to_json

from games.engine import LIVE, Event, Game, to_group

from ..store import GameRow, NewMessage

PHASE_SLOT = "phase:"
#: the group key of the private thread of a game's Storytellers
STORYTELLERS_KEY = "storytellers"


def phase_slot(phase_seq: int) -> str:
    """The living message of a phase: the channel message that opened it."""
    return f"{PHASE_SLOT}{phase_seq}"


def phase_of_slot(slot: str) -> int | None:
    """``"phase:7"`` -> 7; None for a slot that is not a phase's."""
    return int(slot[len(PHASE_SLOT):]) if slot.startswith(PHASE_SLOT) else None


def refresh(slot: str) -> NewMessage:
    """An edit of a living message to what the game row says when it is delivered."""
    return NewMessage("channel", None, '{"type": "refresh"}', op="refresh", slot=slot)


def still_marked(row: GameRow, upto: int) -> list[NewMessage]:
    """Refreshes of the phases before ``upto`` whose messages the game's row still marks to be
    closed (``closed_from``): written with the game's end, which closes its last phase by a row too,
    so an ended game's messages all close though it is no longer looked for by its mark."""
    if row.closed_from is None:
        return []
    return [refresh(phase_slot(seq)) for seq in range(row.closed_from, upto)]


#: the outbox target of a game's end: undo what its nights changed on Discord (``undo_row``)
UNDO = "undo"


def undo_row() -> NewMessage:
    """The row, written with a game's end or cancel, that undoes on Discord what the game changed
    and must not outlive it (the town square's night): durable, retried, idempotent."""
    return NewMessage(UNDO, None, '{"type": "undo"}')


def opens_in_channel(events: list[Event]) -> bool:
    return any(e.opens_phase and e.audience.kind == "public" for e in events)


#: what an event's payload leaves out when its game is not narrated (no voice channel to say it in)
_UNSAID: set[str] = {"say"}


def picture_json(data: dict[str, Any]) -> str:
    """A picture's data as the JSON its outbox row keeps (read back with ``json.loads``).
    pydantic-core's encoder: the stdlib's took a quarter of a Castle turn's hand-off (a tableau's
    1.2 KB of nested lists, 22 µs against 6; issue 38)."""
    return to_json(data).decode()


def messages_of(row: GameRow, game: Game, state: Any, events: list[Event]) -> list[NewMessage]:
    """A step's events as outbox rows, by audience (a public event to the channel, a private one
    by DM or to its thread)."""
    out: list[NewMessage] = []
    narrated: bool | None = None  # (asked once, of a step with words to say: most have none)
    pictures: dict[str, str | None] = {}  # one step's picture of a kind is made once
    for event in events:
        kind = event.audience.kind
        if kind == "record":
            continue  # (written to the game's record, not sent: ``GameService._commit``)
        if event.type == LIVE:
            continue  # (drawn when shown, from the state: the commit marks the game's row)
        # (the reader fills in the defaults; the words to say are left out unless they are said)
        unsaid = None
        if event.say:
            if narrated is None:
                narrated = game.narrated(state)
            unsaid = None if narrated else _UNSAID
        payload = event.model_dump_json(exclude_defaults=True, exclude=unsaid)
        # a picture is kept as its data and drawn at delivery, off the event loop
        picture = None
        if event.image:
            if event.image not in pictures:
                data = game.picture(state, event.image)
                pictures[event.image] = picture_json(data) if data is not None else None
            picture = pictures[event.image]
        if kind == "public" and event.slot:
            out.append(NewMessage("channel", None, payload, picture=picture, op="slot",
                                  slot=f"game:{event.slot}"))
        elif kind == "public":
            slot = phase_slot(state.phase_seq) if event.opens_phase else None
            out.append(NewMessage("channel", None, payload, picture=picture, slot=slot))
        elif kind == "player":
            out.append(NewMessage("dm", int(event.audience.id), payload, picture=picture))
        elif kind == "team":
            for member in game.team_members(state, event.audience.id):
                out.append(NewMessage("dm", int(member), payload, picture=picture))
        elif kind == "storyteller" and game.private_threads:
            # the Storytellers' own thread: every Storyteller is in each of the game's threads
            told = event.model_copy(update={"audience": to_group(STORYTELLERS_KEY, ())})
            out.append(NewMessage("group", None, told.model_dump_json(exclude_defaults=True, exclude=unsaid),
                                  picture=picture))
        elif kind == "storyteller":
            if not any(p.id == str(row.host_id) for p in state.players):  # never a seated player
                out.append(NewMessage("dm", row.host_id, payload, picture=picture))
        elif kind in ("group", "thread"):
            out.append(NewMessage("group", None, payload, picture=picture))
    return out
