"""The outbox's rules, with no Discord in them: which rows keep one order (lanes), which go out
together as one message (units) and in which priority, where a message's beats end, and the
countdown line a phase's message shows. Plain functions of rows, events and the game row."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.engine import Event

from ..pacer import COSMETIC, NARRATION, URGENT
from ..render import duration, relative_time
from ..service import UNDO
from ..store import GameRow, OutboxRow
from ..voice.table import VOICE

#: the step that deals the game: its private messages go to every player at once
DEAL_STEP = 0
#: the group-thread key prefix of a game's public threads (the announcement thread)
PUBLIC_THREAD = "public:"
#: a channel event longer than this goes out as a message of its own, not in a group
GROUP_TEXT = 1500
#: the most text, and embeds, one grouped message carries (Discord: 6,000 and 10)
GROUP_TOTAL, GROUP_EMBEDS = 5000, 10
CLOSED = "🔒 This phase is closed."
#: what a player's private choices say once their phase is over (the selects are taken away)
PROMPT_CLOSED = "🔒 That phase is over: nothing more can be chosen here."
#: how long the bot may still edit a private answer it made (Discord: 15 minutes per interaction)
PROMPT_EDIT_SECONDS = 14 * 60


def player_key(user_id: int) -> str:
    """The group key of a player's own private thread (games with ``private_threads``)."""
    return f"player:{user_id}"


class Retry(Exception):
    """Discord refused for now: keep the row and try again later."""

    def __init__(self, reason: str, *, permission: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.permission = permission


class GiveUp(Exception):
    """Discord refused for a reason that will not change: the row is closed with this reason."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


# ----- rows: order, units, priority -----
def lane(row: OutboxRow) -> tuple:
    """The destination whose order a row keeps: the channel, one player's DM or thread, one group."""
    if row.target == "group":
        return ("group", row.payload.get("audience", {}).get("id"))
    return (row.target, row.recipient_id)


def groupable(row: OutboxRow) -> bool:
    return (row.op == "send" and row.target == "channel" and row.step is not None and row.image is None
            and row.picture is None and len(row.payload.get("text", "")) <= GROUP_TEXT)


def units(rows: list[OutboxRow]) -> tuple[list[list[OutboxRow]], list[OutboxRow]]:
    """The pending rows in delivery units, in order, and the refreshes (and voice rows) superseded
    by a later one.

    A commit's consecutive channel events become one unit (one Discord message); the private rows
    of that commit follow it, so the channel's timing never depends on who was sent a secret."""
    out: list[list[OutboxRow]] = []
    superseded: list[OutboxRow] = []
    used: set[int] = set()
    for index, row in enumerate(rows):
        if row.id in used:
            continue
        used.add(row.id)
        if row.op in ("refresh", "slot"):
            if any(r.op == row.op and r.slot == row.slot for r in rows[index + 1:]):
                superseded.append(row)  # the last edit of a burst wins
                continue
            out.append([row])
            continue
        if row.target == VOICE and any(r.target == VOICE for r in rows[index + 1:]):
            superseded.append(row)  # the mutes need only match the newest silent set
            continue
        if restating(row):
            if any(restating(r) and line_key(r) == line_key(row) for r in rows[index + 1:]):
                superseded.append(row)  # a newer line restates all it said
                continue
            out.append([row])
            continue
        unit = [row]
        if groupable(row):
            for later in rows[index + 1:]:
                if later.step != row.step:
                    break
                if later.target != "channel":
                    continue  # a private row of the same commit: it goes after the group
                if not groupable(later) or not fits(unit_payloads([*unit, later])):
                    break
                unit.append(later)
                used.add(later.id)
        out.append(unit)
    return out, superseded


def restating(row: OutboxRow) -> bool:
    """A private line that restates its whole state (a private event's ``slot``: the Hollow's
    whisper of the teammates' offerings): only the newest of a burst needs sending."""
    return row.op == "send" and row.target == "dm" and bool(row.payload.get("slot"))


def line_key(row: OutboxRow) -> tuple:
    """A restating line's key: its game, its player and its slot (which names its phase)."""
    return (row.game_id, "line", row.recipient_id, row.payload.get("slot"))


def line_may_wait(row: OutboxRow, later: list[OutboxRow]) -> bool:
    """Whether a restating line may wait for its window: only while nothing comes after it in its
    player's messages, in the channel, or in another phase. So the newest goes with the messages
    that close its phase (or end the game), and before anything else its player is sent; another
    player's private message says nothing to it (it neither waits for nor lets go of it)."""
    return not any(lane(r) == lane(row) or r.phase_seq != row.phase_seq or (r.target == "channel" and r.op == "send")
                   for r in later)


def counting(row: OutboxRow) -> bool:
    """A living line that only counts (a ready count, a vote tally): it calls no one and says
    nothing aloud, so its edits may wait a few seconds and go as one."""
    return row.op == "slot" and not row.payload.get("notify") and not row.payload.get("say")


def priority(unit: list[OutboxRow]) -> int:
    """What players wait on (an opening message, a private prompt or card) goes first."""
    if unit[0].op == "refresh" or unit[0].target == UNDO:
        return COSMETIC
    if unit[0].op == "slot":
        return NARRATION
    if unit[0].target != "channel" or any(r.slot for r in unit):
        return URGENT
    return NARRATION


def unit_payloads(unit: list[OutboxRow]) -> list[dict[str, Any]]:
    return [r.payload for r in unit]


def fits(payloads: list[dict[str, Any]]) -> bool:
    """Whether these events fit one message (embeds and characters, with room for the footer)."""
    size = sum(len(p.get("text", "")) + len(p.get("title", "")) + 2 for p in payloads)
    embeds = sum(1 for i, p in enumerate(payloads) if p.get("title") or i == 0)
    return size <= GROUP_TOTAL and embeds <= GROUP_EMBEDS


def beat_ends(events: list[Event], beats: int, cut_seconds: float = 0.0) -> list[int]:
    """Where a group's beats end: after the events with the longest pauses (the first of equals),
    of at least ``cut_seconds``."""
    candidates = [i for i in range(len(events) - 1) if events[i].pause > 0 and events[i].pause >= cut_seconds]
    chosen = sorted(sorted(candidates, key=lambda i: (-events[i].pause, i))[:max(0, beats - 1)])
    return [i + 1 for i in chosen] + [len(events)]


# ----- a phase's countdown -----
@dataclass(frozen=True)
class Schedule:
    """What a game says of its current phase beyond the row: the first ``phase_seq`` whose choices
    still stand (a message of an earlier phase is closed), and the deadlines a player cares about,
    each [label, seconds after the current deadline] (none: the phase's own deadline)."""

    since: int
    ends: list


def schedule_of(game, state) -> Schedule:
    """The game's ``choices_since`` and ``board_ends`` (a forum game's night keeps dusk's choices
    and message open through its reminder stage, and its boards name the lock and dawn; a game
    that says nothing of them: the current phase alone, timed by its own deadline)."""
    return Schedule(game.choices_since(state), game.board_ends(state))


def paused_ends(remaining: float, ends: list) -> str:
    """A paused phase's deadlines, as the time each will be away when the game resumes."""
    return "⏸️ Paused. When the game resumes: " + " · ".join(
        f"{name[:1].lower()}{name[1:]} in {duration(remaining + after)}" for name, after in ends) + "."


def countdown(game_row: GameRow, phase_seq: int, now: float, label: str = "", schedule: Schedule | None = None) -> tuple[str, bool]:
    """The line above a phase's message, and whether the phase is still open. ``label`` names the
    phase when the message shows more than it ("⏳ **Turn 4**: closes in 2 minutes"): Discord puts the
    line above all of a message's embeds, which may be far from the phase it times. With ``schedule``,
    the message of an earlier phase whose choices still stand stays open, and the line names the
    game's deadlines ("⏳ Night actions lock in 2 hours · Dawn comes in 4 hours")."""
    since = game_row.phase_seq if schedule is None else schedule.since
    if game_row.status != "running" or not since <= phase_seq <= game_row.phase_seq:
        return CLOSED, False
    clocks = game_row.deadlines
    if clocks.paused:
        if clocks.remaining is None:
            return "⏸️ The game is paused.", True
        if schedule is not None and schedule.ends:
            return paused_ends(clocks.remaining, schedule.ends), True
        return f"⏸️ Paused with {duration(clocks.remaining)} left.", True
    if schedule is not None and schedule.ends and clocks.close and clocks.waiting is None:
        times = " · ".join(f"{name} {relative_time(clocks.close + after)}" for name, after in schedule.ends)
        return (f"⏳ **{label}**: {times}" if label else f"⏳ {times}"), True
    closes = f"⏳ **{label}**: closes" if label else "⏳ Closes"
    if clocks.waiting is not None:
        return f"{closes} {relative_time(now + clocks.waiting)}", True
    if clocks.close:
        return f"{closes} {relative_time(clocks.close)}", True
    return "", True


def phase_label(shown: list[Event]) -> str:
    """The name of the phase a message of several events times: the title of the last event that
    opens a phase, when other events come before it (a message of the phase alone needs none)."""
    openers = [k for k, e in enumerate(shown) if e.opens_phase]
    if not openers or openers[-1] == 0 or not shown[openers[-1]].title:
        return ""
    title = shown[openers[-1]].title.replace("*", "").strip()
    return title if len(title) <= 60 else title[:59] + "…"


def slot_countdown(game_row: GameRow, event: Event) -> str:
    """The line above a living message whose event lists the boundaries still to come
    (``data["ends"]``: label and seconds after its phase's deadline), as Discord timestamps."""
    ends = event.data.get("ends")
    if not ends or game_row.status != "running" or game_row.phase_seq != event.data.get("phase_seq"):
        return ""
    clocks = game_row.deadlines
    if clocks.paused:
        return "⏸️ The game is paused: the times move when it resumes."
    if not clocks.close:
        return ""
    return " · ".join(f"⏳ {label} {relative_time(clocks.close + after)}" for label, after in ends)


def turn_line(game_row: GameRow, event: Event) -> Event:
    """A speaking turn's line (``data["turn_ends"]``) as its phase's message shows it: the speaker
    mentioned, so their name stands out (an edit never pings: the narrator says it aloud), and the
    turn's end as a Discord countdown."""
    if not event.data.get("turn_ends"):
        return event
    text = event.text
    clocks = game_row.deadlines
    if clocks.turn_ends and not clocks.paused and game_row.status == "running":
        text += f"\n⏳ The turn ends {relative_time(clocks.turn_ends)}."
    mentions = " ".join(f"<@{p}>" for p in event.notify if p.isdigit())
    return event.model_copy(update={"text": f"{mentions} {text}".strip()})


def calling(events: list[Event]) -> list[int]:
    """The Discord ids of the players these channel events call to act (``Event.notify``)."""
    ids: list[int] = []
    for event in events:
        ids += [int(p) for p in event.notify if p.isdigit() and int(p) not in ids]
    return ids
