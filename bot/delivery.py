"""Delivers the outbox: public events to the game's channel, private ones by DM (with the
same "Make my choice" and "My hand" buttons, so a player can act from the DM) or to private threads.

Rows are delivered in order per destination (the channel, each player's DM or thread, each group
thread) and marked delivered only after Discord accepted them, so
a crash between commit and send re-sends after restart rather than losing a message; each send
carries a nonce made from the outbox id, so Discord drops the second copy of such a re-send.

What Discord refuses is sorted by whether trying again can help:
- a passing fault (5xx, a rate limit, the network) keeps the row pending and is retried with
  back-off, across restarts too; the rows behind it for the same destination wait, so order holds,
  and other destinations go on: a private message that waits never delays the channel, whose
  timing would otherwise tell everyone that someone was just sent a secret;
- a missing permission also stays pending, and the host is told in words what to grant;
- only what cannot change is given up (a closed DM, a deleted channel, a malformed message), with
  the game id in the log.
A closed DM is never a dead end: the player can press "My hand", which answers ephemerally. The
channel is told about closed DMs only for the deal, when every player gets a private message,
so the notice never reveals who was just sent a secret.

Living messages: a commit's consecutive channel events go out as one Discord message, shown in a
few beats (a send, then edits, cut at the game's longest pauses), so the theatre keeps its
suspense for a fraction of the calls. A phase's opening message is a slot: its clock starts
when it is posted (``GameService.start_clock``), and later refresh rows edit it (a new countdown
after a pause or an extension; "closed" and no buttons once the phase is over). Every call goes
through one ``Pacer``.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import aiohttp
import discord

import games
from games.engine import SUBSTITUTE, Event, GameError, Prompt

from .pacer import COSMETIC, NARRATION, URGENT, Pacer
from .render import duration, group_embeds, message_parts, relative_time
from .service import STORYTELLERS_KEY, is_store_error, phase_of_slot, phase_slot
from .store import OutboxRow, Slot
from .views import copilot_view, phase_view

if TYPE_CHECKING:
    from .client import StorytellerBot

log = logging.getLogger(__name__)

DM_CLOSED = 50007
#: Discord's codes for a permission the bot lacks where it tried to post
MISSING_ACCESS, MISSING_PERMISSIONS = 50001, 50013
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


@dataclass(frozen=True)
class Ride:
    """A player's recent interaction: its follow-up webhook sends them an ephemeral message at
    no cost to the bot's budget (interaction follow-ups are not counted against it)."""

    followup: discord.Webhook
    channel_id: int | None
    private: bool  # the interaction was in a DM
    until: float


@dataclass(frozen=True)
class OpenPrompt:
    """A player's private message of choices, edited to "over" (no selects) when its phase closes."""

    interaction: discord.Interaction  # the one whose original response is the message
    phase_seq: int
    until: float


def player_key(user_id: int) -> str:
    """The group key of a player's own private thread (games with ``private_threads``)."""
    return f"player:{user_id}"


def message(embeds, files, view: discord.ui.View | None = None) -> dict:
    """The keyword arguments of one ``send``: embeds, and the picture and buttons when there are any."""
    kwargs: dict = {"embeds": embeds}
    if files:
        kwargs["files"] = files
    if view is not None:
        kwargs["view"] = view
    return kwargs


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


def lane(row: OutboxRow) -> tuple:
    """The destination whose order a row keeps: the channel, one player's DM or thread, one group."""
    if row.target == "group":
        return ("group", row.payload.get("audience", {}).get("id"))
    return (row.target, row.recipient_id)


def groupable(row: OutboxRow) -> bool:
    return (row.op == "send" and row.target == "channel" and row.step is not None and row.image is None
            and row.picture is None and len(row.payload.get("text", "")) <= GROUP_TEXT)


def units(rows: list[OutboxRow]) -> tuple[list[list[OutboxRow]], list[OutboxRow]]:
    """The pending rows in delivery units, in order, and the refreshes superseded by a later one.

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


def priority(unit: list[OutboxRow]) -> int:
    """What players wait on (an opening message, a private prompt or card) goes first."""
    if unit[0].op == "refresh":
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


@dataclass(frozen=True)
class Schedule:
    """What a game says of its current phase beyond the row: the first ``phase_seq`` whose choices
    still stand (a message of an earlier phase is closed), and the deadlines a player cares about,
    each [label, seconds after the current deadline] (none: the phase's own deadline)."""

    since: int
    ends: list


def schedule_of(game, state) -> Schedule:
    """The game's ``choices_since`` and ``board_ends`` where it has them (the Clocktower: a night's
    reminder stage keeps dusk's choices and message open, and its boards name the lock and dawn);
    otherwise the current phase alone, timed by its own deadline."""
    since = getattr(game, "choices_since", None)
    ends = getattr(game, "board_ends", None)
    return Schedule(since(state) if since else state.phase_seq, ends(state) if ends else [])


def paused_ends(remaining: float, ends: list) -> str:
    """A paused phase's deadlines, as the time each will be away when the game resumes."""
    return "⏸️ Paused. When the game resumes: " + " · ".join(
        f"{name[:1].lower()}{name[1:]} in {duration(remaining + after)}" for name, after in ends) + "."


def countdown(game_row, phase_seq: int, now: float, label: str = "", schedule: Schedule | None = None) -> tuple[str, bool]:
    """The line above a phase's message, and whether the phase is still open. ``label`` names the
    phase when the message shows more than it ("⏳ **Turn 4**: closes in 2 minutes"): Discord puts the
    line above all of a message's embeds, which may be far from the phase it times. With ``schedule``,
    the message of an earlier phase whose choices still stand stays open, and the line names the
    game's deadlines ("⏳ Night actions lock in 2 hours · Dawn comes in 4 hours")."""
    since = game_row.phase_seq if schedule is None else schedule.since
    if game_row.status != "running" or not since <= phase_seq <= game_row.phase_seq:
        return CLOSED, False
    if game_row.paused:
        if game_row.paused_remaining is None:
            return "⏸️ The game is paused.", True
        if schedule is not None and schedule.ends:
            return paused_ends(game_row.paused_remaining, schedule.ends), True
        return f"⏸️ Paused with {duration(game_row.paused_remaining)} left.", True
    if schedule is not None and schedule.ends and game_row.deadline and game_row.waiting_seconds is None:
        times = " · ".join(f"{name} {relative_time(game_row.deadline + after)}" for name, after in schedule.ends)
        return (f"⏳ **{label}**: {times}" if label else f"⏳ {times}"), True
    closes = f"⏳ **{label}**: closes" if label else "⏳ Closes"
    if game_row.waiting_seconds is not None:
        return f"{closes} {relative_time(now + game_row.waiting_seconds)}", True
    if game_row.deadline:
        return f"{closes} {relative_time(game_row.deadline)}", True
    return "", True


def phase_label(shown: list[Event]) -> str:
    """The name of the phase a message of several events times: the title of the last event that
    opens a phase, when other events come before it (a message of the phase alone needs none)."""
    openers = [k for k, e in enumerate(shown) if e.opens_phase]
    if not openers or openers[-1] == 0 or not shown[openers[-1]].title:
        return ""
    title = shown[openers[-1]].title.replace("*", "").strip()
    return title if len(title) <= 60 else title[:59] + "…"


def slot_countdown(game_row, event: Event) -> str:
    """The line above a living message whose event lists the boundaries still to come
    (``data["ends"]``: label and seconds after its phase's deadline), as Discord timestamps."""
    ends = event.data.get("ends")
    if not ends or game_row.status != "running" or game_row.phase_seq != event.data.get("phase_seq"):
        return ""
    if game_row.paused:
        return "⏸️ The game is paused: the times move when it resumes."
    if not game_row.deadline:
        return ""
    return " · ".join(f"⏳ {label} {relative_time(game_row.deadline + after)}" for label, after in ends)


def calling(events: list[Event]) -> list[int]:
    """The Discord ids of the players these channel events call to act (``Event.notify``)."""
    ids: list[int] = []
    for event in events:
        ids += [int(p) for p in event.notify if p.isdigit() and int(p) not in ids]
    return ids


def with_mentions(kwargs: dict[str, Any], ids: list[int]) -> dict[str, Any]:
    """A new message that mentions ``ids`` above its countdown, pinging them and nobody else. (An
    edit never pings, so a message that calls someone is always sent new.)"""
    if not ids:
        return kwargs
    mentions = " ".join(f"<@{i}>" for i in ids)
    line = kwargs.get("content") or ""
    return {**kwargs, "content": f"{mentions} {line}".strip(),
            "allowed_mentions": discord.AllowedMentions(everyone=False, roles=False,
                                                        users=[discord.Object(i) for i in ids])}


def phase_face(game_id: int, game_row, phase_seq: int | None, now: float,
               shared: list[Prompt] | None = None, label: str = "", schedule: Schedule | None = None) -> dict[str, Any]:
    """The countdown line and buttons of a phase's message: the phase's buttons while it is
    open, none once it is over (or when the message shows no phase)."""
    if phase_seq is None:
        return {"content": "", "view": None}
    content, still_open = countdown(game_row, phase_seq, now, label, schedule)
    view = phase_view(game_id, phase_seq, shared or []) if still_open else None
    return {"content": content, "view": view}


def classify(exc: BaseException, where: str) -> Retry | GiveUp:
    """Whether a failed call is worth another try."""
    if isinstance(exc, discord.Forbidden):
        if exc.code == DM_CLOSED:
            return GiveUp("dm closed")
        return Retry(f"{where}: no permission ({exc.status} {exc.code}: {exc.text})", permission=True)
    if isinstance(exc, discord.NotFound):
        return GiveUp(f"{where}: not found ({exc.code})")
    if isinstance(exc, discord.HTTPException):
        if exc.status >= 500 or exc.status in (401, 408, 429):
            return Retry(f"{where}: {exc.status} {exc.code}")
        return GiveUp(f"{where}: refused ({exc.status} {exc.code}: {exc.text})")
    if isinstance(exc, OSError | aiohttp.ClientError | asyncio.TimeoutError):
        return Retry(f"{where}: network ({type(exc).__name__})")
    return Retry(f"{where}: {type(exc).__name__}: {exc}")


def lasting(exc: BaseException, place: str) -> str:
    """``place``, when Discord refused it for good (a missing permission, a thing gone); a passing
    fault is raised as Retry instead, so the work is tried again."""
    failure = classify(exc, "thread")
    if isinstance(failure, Retry) and not failure.permission:
        raise failure from exc
    return place


class Delivery:
    def __init__(self, bot: StorytellerBot) -> None:
        self.bot = bot
        self._tasks: dict[int, asyncio.Task] = {}
        self._again: set[int] = set()
        self._retries: dict[int, asyncio.TimerHandle] = {}
        self._attempts: dict[int, int] = {}  # outbox row id -> failed attempts so far
        self._dm_notices: set[tuple[int, int]] = set()  # (game, player) told about closed DMs
        self._told_host: set[tuple[int, str]] = set()  # (game, target) permission problems told
        self.rides: dict[int, Ride] = {}  # user id -> their latest interaction still open
        # (game, user, message) -> a private message of open choices: a player who pressed Make my
        # choice twice has two, and both close with the phase
        self.prompts: dict[tuple[int, int, int], OpenPrompt] = {}
        self._side: set[asyncio.Task] = set()  # edits that must not hold up the channel
        settings = bot.settings
        self.pacer = Pacer(settings.discord_calls_per_second, settings.channel_calls,
                           settings.channel_window_seconds)
        self.idle = asyncio.Event()
        self.idle.set()

    @property
    def retry_base(self) -> float:
        return self.bot.settings.delivery_retry_seconds

    def kick(self, game_id: int) -> None:
        """Make sure the game's pending messages are being delivered."""
        self._again.add(game_id)
        task = self._tasks.get(game_id)
        if task is None or task.done():
            self.idle.clear()
            self._tasks[game_id] = asyncio.get_running_loop().create_task(self._drain(game_id))

    async def kick_pending(self) -> int:
        """Kick every game with undelivered rows (start-up and the periodic sweep)."""
        pending = await self.bot.store.games_with_pending_messages(shards=self.bot.service.shards)
        for game_id in pending:
            self.kick(game_id)  # a game backing off tries now too: the sweep is rarer than the cap
        return len(pending)

    async def drain_all(self) -> None:
        await self.kick_pending()
        await self.wait_idle()

    async def wait_idle(self) -> None:
        """Wait for the deliveries under way (not for retries that are backing off)."""
        while any(not t.done() for t in [*self._tasks.values(), *self._side]):
            await asyncio.gather(*[t for t in [*self._tasks.values(), *self._side] if not t.done()],
                                 return_exceptions=True)

    def note_prompt(self, game_id: int, phase_seq: int, interaction: discord.Interaction, message_id: int) -> None:
        """A player has their choices for this phase in front of them, in message ``message_id``,
        the original response of ``interaction``: when the phase closes, that message loses its
        selects and says so. Noting the same message again (a choice made in it) replaces it."""
        now = self.bot.clock.now()
        key = (game_id, interaction.user.id, message_id)
        self.prompts[key] = OpenPrompt(interaction, phase_seq, now + PROMPT_EDIT_SECONDS)
        if len(self.prompts) > 20_000:  # drop the ones Discord no longer lets us edit
            self.prompts = {k: p for k, p in self.prompts.items() if p.until > now}

    def forget_prompt(self, game_id: int, user_id: int, message_id: int) -> None:
        """Message ``message_id`` has nothing left to choose: it no longer needs closing."""
        self.prompts.pop((game_id, user_id, message_id), None)

    def close_prompts(self, game_id: int, phase_seq: int) -> None:
        """The phase is over: its players' private choices say so, beside the channel's delivery
        (an edit through the interaction, outside the bot's own budget)."""
        now = self.bot.clock.now()
        closing = [self.prompts.pop(k) for k, p in list(self.prompts.items())
                   if k[0] == game_id and p.phase_seq <= phase_seq]
        closing = [p for p in closing if p.until > now]
        if closing:
            task = asyncio.get_running_loop().create_task(self._close_prompts(closing))
            self._side.add(task)
            task.add_done_callback(self._side.discard)

    async def _close_prompts(self, closing: list[OpenPrompt]) -> None:
        for prompt in closing:
            try:
                await prompt.interaction.edit_original_response(content=PROMPT_CLOSED, embeds=[], view=None)
            except (TimeoutError, discord.HTTPException, OSError, aiohttp.ClientError) as exc:
                log.debug("closing a private prompt failed: %s", exc)  # cosmetic: a click is refused anyway

    @property
    def backing_off(self) -> set[int]:
        """The games whose delivery waits for a retry."""
        return set(self._retries)

    def note_interaction(self, interaction: discord.Interaction) -> None:
        """Keep a player's latest answered interaction: their next private message may ride on it."""
        seconds = self.bot.settings.ride_seconds
        if not seconds or interaction.type not in (discord.InteractionType.component,
                                                   discord.InteractionType.application_command):
            return
        if interaction.response.type == discord.InteractionResponseType.deferred_channel_message:
            # a "thinking..." deferral: Discord makes the first follow-up take its place, with the
            # deferral's visibility (public for a moderator's command), whatever the flag says
            return
        now = self.bot.clock.now()
        self.rides[interaction.user.id] = Ride(interaction.followup, interaction.channel_id,
                                               interaction.guild_id is None, now + seconds)
        if len(self.rides) > 10_000:  # drop the stale ones now and then
            self.rides = {k: r for k, r in self.rides.items() if r.until > now}

    async def _ride(self, game_row, row: OutboxRow, event: Event) -> bool:
        """Send a private row as an ephemeral follow-up of the player's open interaction in the
        game's channel or their DM, if they have one; False when it must go by DM. The deal's
        messages (role cards) always go by DM, to stay where the player can read them all game."""
        ride = self.rides.get(row.recipient_id) if row.recipient_id is not None else None
        if (ride is None or ride.until <= self.bot.clock.now() or row.step == DEAL_STEP or row.image
                or row.picture or row.parts_sent):
            return False
        if not ride.private and ride.channel_id != game_row.channel_id:
            return False
        game = games.get(game_row.kind)
        parts = message_parts(event, game.title, row.game_id)
        if len(parts) != 1:
            return False
        try:
            # in the game's channel the phase's message has the buttons; in a DM they come along
            kwargs = {"view": phase_view(row.game_id)} if ride.private else {}
            await ride.followup.send(embeds=parts, ephemeral=True, **kwargs)
        except Exception as exc:  # expired or refused: the DM it is
            log.info("game %s: a follow-up to %s failed (%s); sending a DM", row.game_id, row.recipient_id, exc)
            self.rides.pop(row.recipient_id, None)
            return False
        return True

    def forget(self, game_id: int) -> None:
        """The game is over: drop what was kept for its notices (its last messages still go)."""
        self._dm_notices = {k for k in self._dm_notices if k[0] != game_id}
        self._told_host = {k for k in self._told_host if k[0] != game_id}

    def _retry_later(self, game_id: int, delay: float) -> None:
        old = self._retries.pop(game_id, None)
        if old is not None:
            old.cancel()

        def again() -> None:
            self._retries.pop(game_id, None)
            self.kick(game_id)

        self._retries[game_id] = asyncio.get_running_loop().call_later(delay, again)

    def _backoff(self, row_id: int) -> float:
        attempts = self._attempts[row_id] = self._attempts.get(row_id, 0) + 1
        return min(self.retry_base * 2 ** (attempts - 1), self.bot.settings.delivery_retry_max_seconds)

    async def _drain(self, game_id: int) -> None:
        store = self.bot.store
        try:
            while game_id in self._again:
                self._again.discard(game_id)
                waiting: set[tuple] = set()  # destinations held up by a refused row
                next_try: float | None = None
                found, superseded = units(await store.pending_messages(game_id))
                if superseded:
                    await store.mark_all_delivered([r.id for r in superseded], self.bot.clock.now(),
                                                   "superseded")
                # a unit goes with the urgency of the most urgent unit behind it, which it holds up
                urgency = [priority(u) for u in found]
                for i in range(len(found) - 2, -1, -1):
                    urgency[i] = min(urgency[i], urgency[i + 1])
                for unit, level in zip(found, urgency, strict=True):
                    head = unit[0]
                    try:
                        if head.target == "channel":  # first, even while the channel waits
                            await self._hand_over_seats(unit)
                        if lane(head) in waiting:
                            continue
                        if head.op == "refresh":
                            await self._refresh(head, level)
                        elif head.op == "slot":
                            await self._show_in_slot(head, level)
                        elif groupable(head):
                            await self._deliver_group(unit, level)
                        else:
                            await self._deliver(head, level)
                    except Retry as exc:
                        delay = self._backoff(head.id)
                        log.warning("game %s: message %s not delivered (%s); retry %d in %.1f s",
                                    game_id, head.id, exc.reason, self._attempts[head.id], delay)
                        if exc.permission:
                            await self._tell_host_about_permission(game_id, head, exc)
                        waiting.add(lane(head))
                        next_try = delay if next_try is None else min(next_try, delay)
                        continue
                    except GiveUp as exc:
                        log.warning("game %s: message %s given up: %s", game_id, head.id, exc.reason)
                        await self._done(unit, exc.reason)
                    self._attempts.pop(head.id, None)
                if next_try is not None:
                    self._retry_later(game_id, next_try)
                    return
        except Exception as exc:  # the database itself (locked, read-only...): try again later
            log.warning("game %s: delivery interrupted (%s); retrying", game_id, exc,
                        exc_info=not is_store_error(exc))
            self._retry_later(game_id, self.bot.settings.delivery_retry_max_seconds / 10)
        finally:
            if self._tasks.get(game_id) is asyncio.current_task():
                del self._tasks[game_id]
            if not any(not t.done() for t in self._tasks.values()):
                self.idle.set()

    async def _done(self, unit: list[OutboxRow], failure: str | None = None,
                    started_at: float | None = None) -> None:
        """Mark a unit delivered; if it opened a phase, the phase's clock starts (from
        ``started_at``, when it was posted; a given-up opener starts it too, so no game waits forever)."""
        ids = [r.id for r in unit]
        opener = next((r for r in unit if r.slot and r.op == "send"), None)
        now = self.bot.clock.now()
        if opener is None:
            await self.bot.store.mark_all_delivered(ids, now, failure)
        else:
            if failure is not None:
                await self.bot.store.mark_all_delivered(ids, now, failure)
                ids = []
            await self.bot.service.start_clock(opener.game_id, opener.phase_seq,
                                               now if started_at is None else started_at, ids)
        talk = next((r for r in unit if r.target == "channel" and (r.payload.get("data") or {}).get("talk")), None)
        if talk is not None and failure is None:
            try:
                await self._set_talk(talk)
            except Exception as exc:  # best effort: the message said talk is closed
                log.warning("game %s: talk not %s: %s", talk.game_id, talk.payload["data"]["talk"], exc)

    async def _call(self, level: int, where: Any, method, *args, **kwargs):
        """One call to Discord, ``method(*args, **kwargs)``, when the pacer lets it go. Each kind
        of call to a channel has its own window, as Discord keeps a bucket per route."""
        await self.pacer.turn(level, (where, getattr(method, "__name__", "")))
        return await method(*args, **kwargs)

    # ----- one unit -----
    async def _game(self, row: OutboxRow):
        game_row = await self.bot.service.row(row.game_id)
        if game_row is None:
            raise GiveUp("game gone")
        return game_row, games.get(game_row.kind)

    async def _deliver_group(self, unit: list[OutboxRow], level: int) -> None:
        """A commit's channel events as one message, shown in beats (a send or an edit, then edits
        after the game's longest pauses).

        While the game's board (the message that shows its latest events) is still the channel's
        last message and has room, the events are added to it by an edit, which also closes the
        phase it showed; otherwise they go as a new message, which becomes the board. A group in
        progress is kept as the slot ``group:<first id>``, so a restart goes on where it stopped."""
        head = unit[0]
        game_row, game = await self._game(head)
        events = [Event.model_validate(r.payload) for r in unit]
        ends = beat_ends(events, self.bot.settings.theatre_beats, self.bot.settings.theatre_cut_seconds)
        opener = next((r for r in unit if r.slot), None)
        try:
            channel = await self._channel(game_row.channel_id, level)
        except Exception as exc:
            raise classify(exc, "channel") from exc
        where = ("channel", game_row.channel_id)
        store = self.bot.store
        group_key = f"group:{head.id}"
        kept = await store.slot(head.game_id, group_key) if head.parts_sent else None
        if kept is not None:  # resuming after a restart: the message and what it showed before
            message, base = channel.get_partial_message(kept.message_id), kept.shown or []
            in_place = bool(base)
        else:
            board = await store.slot(head.game_id, "board")
            in_place = (board is not None and board.shown is not None and not calling(events)
                        and getattr(channel, "last_message_id", None) == board.message_id
                        and fits([*board.shown, *unit_payloads(unit)]))
            message = channel.get_partial_message(board.message_id) if in_place else None
            base = board.shown if in_place else []
        shown_base = [Event.model_validate(p) for p in base]
        started_at = self.bot.clock.now()
        for beat in range(head.parts_sent, len(ends)):
            last = beat == len(ends) - 1
            showing = [*shown_base, *events[:ends[beat]]]
            kwargs: dict[str, Any] = {"embeds": group_embeds(showing, game.title, head.game_id)}
            if last and opener is not None:
                game_row = await self.bot.service.row(head.game_id) or game_row
                started_at = self.bot.clock.now()
                kwargs |= phase_face(head.game_id, game_row, opener.phase_seq, started_at,
                                     await self._shared(game_row, opener.phase_seq), phase_label(showing),
                                     await self._schedule(game_row))
            elif message is not None and in_place:
                # narration added to the board: its phase's countdown and buttons stay while it is open
                game_row = await self.bot.service.row(head.game_id) or game_row
                seq = await store.phase_of_message(head.game_id, message.id)
                kwargs |= phase_face(head.game_id, game_row, seq, self.bot.clock.now(),
                                     await self._shared(game_row, seq), phase_label(showing),
                                     await self._schedule(game_row))
            try:
                if message is not None:
                    try:
                        await self._call(level, where, message.edit, **kwargs)
                    except discord.NotFound:
                        if beat != head.parts_sent or kept is not None:
                            raise
                        # the board was deleted (by a moderator): these events go as a new message
                        message, base, shown_base, in_place = None, [], [], False
                        kwargs["embeds"] = group_embeds(events[:ends[beat]], game.title, head.game_id)
                if message is None:
                    kwargs = with_mentions(kwargs, calling(events))
                    message = await self._call(level, where, channel.send, nonce=f"o{head.id}p0", **kwargs)
            except Exception as exc:
                raise classify(exc, "channel") from exc
            if not last:
                if beat == head.parts_sent and kept is None:
                    await store.set_slot(head.game_id, group_key,
                                         Slot(channel.id, message.id, message.id, base))
                await store.mark_parts_sent(head.id, beat + 1)
                await self._pause(events[ends[beat] - 1])
        shown = [*base, *unit_payloads(unit)]
        slots = {"board": Slot(channel.id, message.id, message.id, shown)}
        if opener is not None:
            slots[opener.slot] = Slot(channel.id, message.id, message.id)
        await store.set_slots(head.game_id, slots,
                              taken_over=message.id if in_place and opener is not None else None)
        await self._done(unit, started_at=started_at)
        await self._pause(events[-1])

    async def _pause(self, event: Event) -> None:
        if event.pause:
            await asyncio.sleep(event.pause * self.bot.settings.pause_scale)

    async def _refresh(self, row: OutboxRow, level: int) -> None:
        """Edit a living message to what the game row says now: the countdown while its phase is
        open, "closed" and no buttons after."""
        slot = await self.bot.store.slot(row.game_id, row.slot)
        game_row, game = await self._game(row)
        seq = phase_of_slot(row.slot)
        plan = await self._schedule(game_row)
        if seq is not None and countdown(game_row, seq, 0.0, schedule=plan)[1] is False:
            # the prompts of every phase whose choices no longer stand
            self.close_prompts(row.game_id, max(seq, plan.since - 1) if plan is not None else seq)
        if slot is None and seq is not None and type(game).choices_since is not games.engine.Game.choices_since:
            # a stage with no message of its own (a Clocktower night's reminder stage) is shown on
            # the message of the stage before it: moved or closed, that message follows
            slot = await self.bot.store.slot(row.game_id, phase_slot(seq - 1))
            seq -= 1
        if slot is None:  # never posted (or given up): nothing to edit
            await self._done([row], "no message")
            return
        board = await self.bot.store.slot(row.game_id, "board")
        label = (phase_label([Event.model_validate(p) for p in board.shown])
                 if board is not None and board.shown and board.message_id == slot.message_id else "")
        content, still_open = countdown(game_row, seq, self.bot.clock.now(), label, plan)
        channel = self.bot.get_partial_messageable(slot.channel_id)
        where = ("channel", slot.channel_id)
        try:
            if still_open:
                await self._call(level, where, channel.get_partial_message(slot.message_id).edit,
                                 content=content)
            elif slot.last_message_id == slot.message_id:
                await self._call(level, where, channel.get_partial_message(slot.message_id).edit,
                                 content=content, view=None)
            else:
                await self._call(level, where, channel.get_partial_message(slot.message_id).edit,
                                 content=content)
                await self._call(level, where, channel.get_partial_message(slot.last_message_id).edit,
                                 view=None)
            if still_open:
                await self._retime(row.game_id, game_row, game, level)
        except Exception as exc:
            raise classify(exc, "channel") from exc
        await self._done([row])

    async def _retime(self, game_id: int, game_row, game, level: int) -> None:
        """The phase was moved, paused or resumed: the living messages that count down to its
        deadlines (``Game.timed_slots``: the Clocktower's tally) follow, so they agree with it."""
        hook = getattr(game, "timed_slots", None)
        if hook is None:
            return
        try:
            table = await self.bot.service.load(game_id)
        except GameError:
            return
        for event in hook(table.state):
            slot = await self.bot.store.slot(game_id, f"game:{event.slot}")
            if slot is not None:
                await self._call(level, ("channel", slot.channel_id),
                                 self.bot.get_partial_messageable(slot.channel_id).get_partial_message(
                                     slot.message_id).edit, content=slot_countdown(game_row, event))

    async def _show_in_slot(self, row: OutboxRow, level: int) -> None:
        """A game's living message (a vote tally): edit it to this event; post it the first time,
        or again if it was deleted."""
        game_row, game = await self._game(row)
        event = Event.model_validate(row.payload)
        embeds = group_embeds([event], game.title, row.game_id)
        content = slot_countdown(game_row, event)
        slot = await self.bot.store.slot(row.game_id, row.slot)
        try:
            channel = await self._channel(game_row.channel_id, level)
            where = ("channel", channel.id)
            if slot is not None:
                try:
                    await self._call(level, where, channel.get_partial_message(slot.message_id).edit,
                                     content=content, embeds=embeds)
                    await self._done([row])
                    return
                except discord.NotFound:
                    pass  # deleted: post it again
            message = await self._call(level, where, channel.send, nonce=f"o{row.id}p0", content=content or None,
                                       embeds=embeds)
        except Exception as exc:
            raise classify(exc, "channel") from exc
        await self.bot.store.set_slot(row.game_id, row.slot, Slot(channel.id, message.id, message.id))
        await self._done([row])

    async def _deliver(self, row: OutboxRow, level: int = URGENT) -> None:
        """Send every part of one row not yet accepted; raise Retry or GiveUp when Discord refuses."""
        event = Event.model_validate(row.payload)
        game_row, game = await self._game(row)
        target = row.target if row.target != "dm" or not game.private_threads else "thread"
        if target == "dm" and await self._ride(game_row, row, event):
            await self._done([row])
            return
        try:
            destination = await self._destination(game_row, row, event, target, level)
        except (Retry, GiveUp):
            raise
        except Exception as exc:
            raise classify(exc, target) from exc
        parts = message_parts(event, game.title, row.game_id)
        image = row.image
        if image is None and row.picture is not None:
            # drawn here, in a worker thread (Pillow releases the GIL): no table waits for it
            image = await asyncio.to_thread(game.draw, row.picture)
        where = (target, getattr(destination, "id", None))
        started_at = self.bot.clock.now()
        first_id = None
        message = None
        for index in range(row.parts_sent, len(parts)):
            last = index == len(parts) - 1
            if index == 0 and row.slot:
                game_row = await self.bot.service.row(row.game_id) or game_row
                started_at = self.bot.clock.now()
            shared = await self._shared(game_row, row.phase_seq) if last and event.opens_phase else []
            plan = await self._schedule(game_row) if event.opens_phase else None
            kwargs = self._part(game_row, row, event, target, parts[index], image, first=index == 0,
                                last=last, now=started_at, shared=shared, schedule=plan)
            try:
                message = await self._call(level, where, destination.send, nonce=f"o{row.id}p{index}", **kwargs)
            except Exception as exc:
                failure = classify(exc, target)
                if isinstance(failure, GiveUp) and failure.reason == "dm closed":
                    await self._dm_closed_notice(game_row, row)
                if target == "dm" and isinstance(exc, discord.NotFound):
                    # the kept DM channel is gone: forget it, and open a new one on the retry
                    await self.bot.store.forget_dm_channel(row.recipient_id)
                    failure = Retry(f"dm: channel gone ({exc.code})")
                raise failure from exc
            if index == 0:
                first_id = message.id
            if not last:
                await self.bot.store.mark_parts_sent(row.id, index + 1)
        if row.slot and message is not None:
            await self.bot.store.set_slot(row.game_id, row.slot,
                                          Slot(message.channel.id, first_id or message.id, message.id))
        await self._done([row], started_at=started_at)
        if target == "group" and event.data.get("close"):
            await self._close_thread(destination, row.game_id)
        if row.target == "channel":
            await self._pause(event)

    async def _schedule(self, game_row) -> Schedule | None:
        """The game's ``Schedule`` now; None when its state cannot be read (the row alone decides)."""
        if game_row is None or game_row.status != "running":
            return None
        try:
            table = await self.bot.service.load(game_row.id)
        except GameError:
            return None
        if table.state.phase_seq != game_row.phase_seq:
            return None
        return schedule_of(table.game, table.state)

    async def _shared(self, game_row, phase_seq: int | None) -> list[Prompt]:
        """The open phase's shared choices (``Game.shared_prompts``), for its message; none once
        the phase has moved on."""
        if game_row is None or game_row.status != "running" or phase_seq is None or game_row.phase_seq != phase_seq:
            return []
        try:
            table = await self.bot.service.load(game_row.id)
        except GameError:
            return []
        if table.state.phase_seq != phase_seq:
            return []
        return table.game.shared_prompts(table.state)

    def _part(self, game_row, row: OutboxRow, event: Event, target: str, embed: discord.Embed,
              image: bytes | None, *, first: bool, last: bool, now: float,
              shared: list[Prompt] | None = None, schedule: Schedule | None = None) -> dict[str, Any]:
        """One Discord message of a row: the countdown on the first, the picture and buttons on the last."""
        files = []
        if last and image:
            files.append(discord.File(io.BytesIO(image), filename="picture.png"))
            embed.set_image(url="attachment://picture.png")
        view = None
        still_open = True
        content = None
        if target == "channel" and event.opens_phase:
            content, still_open = countdown(game_row, row.phase_seq, now, schedule=schedule)
        if last and still_open and (target in ("dm", "thread") or (target == "channel" and event.opens_phase)):
            view = phase_view(row.game_id, row.phase_seq, shared if target == "channel" else [])
        if last and event.data.get("view") == "copilot":
            view = copilot_view(row.game_id, event.data.get("night", 0))
        kwargs = message([embed], files, view)
        if first and content:
            kwargs["content"] = content
        if first and target == "channel":
            kwargs = with_mentions(kwargs, calling([event]))
        return kwargs

    async def _destination(self, game_row, row: OutboxRow, event: Event, target: str, level: int):
        if target == "channel":
            return await self._channel(game_row.channel_id, level)
        if target == "group" and event.audience.kind == "thread":
            return await self._public_thread(game_row, event.audience.id, level)
        if target == "group":
            return await self._group_thread(game_row, event.audience.id,
                                            [int(m) for m in event.audience.members], level)
        assert row.recipient_id is not None
        if target == "thread":
            return await self._group_thread(game_row, player_key(row.recipient_id), [row.recipient_id],
                                            level)
        return await self._dm(row.recipient_id, level)

    async def _dm(self, user_id: int, level: int = URGENT) -> discord.PartialMessageable:
        """The player's DM channel, opened once and then kept in the database: each private
        message is one call to Discord."""
        channel_id = await self.bot.store.dm_channel(user_id)
        if channel_id is None:
            channel = await self._call(level, ("dm", user_id), self.bot.create_dm, discord.Object(id=user_id))
            channel_id = channel.id
            await self.bot.store.set_dm_channel(user_id, channel_id)
        return self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private)

    async def _channel(self, channel_id: int, level: int = URGENT):
        channel = self.bot.get_channel(channel_id)
        if channel is None:
            channel = await self._call(level, ("channel", channel_id), self.bot.fetch_channel, channel_id)
        return channel

    async def storytellers_of(self, game_row) -> list[int]:
        """Who sits in every private thread of a game besides its members: the game's Storytellers
        (host and co-Storytellers) where it has them, else its host unless the host is seated."""
        if games.get(game_row.kind).storytellers:
            return await self.bot.service.storyteller_ids(game_row)
        seated = {uid for uid, _ in await self.bot.store.lobby_players(game_row.id)}
        return [] if game_row.host_id in seated else [game_row.host_id]

    async def _group_thread(self, game_row, key: str, members: list[int], level: int = URGENT):
        """The group's private thread, opened on its first message and kept in the database by key;
        members who joined the group since are added, and those no longer in it (a substituted
        player, a removed co-Storyteller) are removed. The Storytellers are in every one; a seated
        player only in their own. The thread is recorded as soon as it exists, so a retry after a
        failed add reuses it."""
        store = self.bot.store
        tellers = await self.storytellers_of(game_row)
        needed = list(dict.fromkeys([*members, *tellers]))
        found = await store.group_thread(game_row.id, key)
        if found is not None:
            thread_id, known = found
            thread = self.bot.get_channel(thread_id) or await self._call(
                level, ("thread", thread_id), self.bot.fetch_channel, thread_id)
        else:
            channel = await self._channel(game_row.threads_under, level)
            names = dict(await store.lobby_players(game_row.id, kind=None))
            title = ", ".join(names.get(m, str(m)) for m in members) if members else "Storytellers"
            thread = await self._call(level, ("channel", channel.id), channel.create_thread,
                                      name=f"🔒 {title} · game {game_row.id}"[:100],
                                      type=discord.ChannelType.private_thread, invitable=False)
            known = []
            await store.set_group_thread(game_row.id, key, thread.id, known)
        added = list(known)
        for uid in needed:
            if uid not in added:
                await self._call(level, ("thread", thread.id), thread.add_user, discord.Object(id=uid))
                added.append(uid)
        for uid in [u for u in added if u not in needed]:
            with contextlib.suppress(discord.NotFound):
                await self._call(level, ("thread", thread.id), thread.remove_user, discord.Object(id=uid))
            added.remove(uid)
        if added != known:
            await store.set_group_thread(game_row.id, key, thread.id, added)
        return thread

    async def _set_talk(self, row: OutboxRow) -> None:
        """Night closes public talk and whispers: after the message saying so, the town square is
        closed to the seated players (a per-member overwrite, or the thread locked when the town
        square is a thread) and the open whispers' threads are locked; dawn opens them again.
        Where the bot lacks the permission it tells the Storytellers which one, once per game."""
        data = row.payload.get("data") or {}
        closed = data.get("talk") == "closed"
        game_row = await self.bot.service.row(row.game_id)
        if game_row is None:
            return
        missing: list[str] = []
        try:
            channel = await self._channel(game_row.channel_id, COSMETIC)
            if isinstance(channel, discord.Thread):
                await self._call(COSMETIC, ("thread", channel.id), channel.edit, locked=closed)
            else:
                # the seats as the game has them now (Travellers and substitutes included)
                for player in data.get("players", []):
                    if str(player).isdigit():
                        await self._mute(channel, int(player), closed)
        except discord.Forbidden:
            missing.append(f"Manage Permissions in <#{game_row.channel_id}> (or Manage Threads, when the town "
                           "square is a thread)")
        except Exception as exc:
            log.warning("game %s: the town square was not %s: %s", row.game_id, "closed" if closed else "opened", exc)
        for key in data.get("whispers", []):
            found = await self.bot.store.group_thread(row.game_id, key)
            if found is None:
                continue
            try:
                thread = self.bot.get_channel(found[0]) or await self._call(
                    COSMETIC, ("thread", found[0]), self.bot.fetch_channel, found[0])
                await self._call(COSMETIC, ("thread", thread.id), thread.edit, locked=closed)
            except discord.Forbidden:
                if "Manage Threads" not in missing:
                    missing.append("Manage Threads (to lock the whisper threads at night)")
            except Exception as exc:
                log.warning("game %s: whisper thread %s not %s: %s", row.game_id, key,
                            "locked" if closed else "opened", exc)
        if missing and (row.game_id, "talk") not in self._told_host:
            self._told_host.add((row.game_id, "talk"))
            await self._tell_storytellers(game_row, "I could not close the town square and the whispers for the "
                                          "night: Discord says I lack " + " and ".join(missing) + ". Grant it and "
                                          "I will do it from the next night; until then, please remind the town "
                                          "that talk is closed at night.")

    async def _mute(self, channel, user_id: int, closed: bool) -> None:
        """A seated player may not post in the town square at night (their other overwrites kept)."""
        member = channel.guild.get_member(user_id)
        if member is None:
            try:
                member = await self._call(COSMETIC, ("guild", channel.guild.id), channel.guild.fetch_member, user_id)
            except discord.NotFound:
                return  # they left the server
        overwrite = channel.overwrites_for(member)
        wanted = False if closed else None
        if overwrite.send_messages is wanted:
            return
        overwrite.update(send_messages=wanted)
        await self._call(COSMETIC, ("channel", channel.id), channel.set_permissions, member,
                         overwrite=None if overwrite.is_empty() else overwrite)

    async def _hand_over_seats(self, unit: list[OutboxRow]) -> None:
        """A substitute took a seat (a public ``substitute`` event of this unit): before the town
        reads it, every private thread of the game the old player sits in (the seat's own thread,
        its whispers) takes the newcomer in and puts the old player out, and the night's closing of
        the town square moves from one to the other. A passing fault raises Retry (the row waits,
        and this is done again: it does nothing twice); what Discord refuses for good is told to
        the Storytellers, once, and the row goes on."""
        for row in unit:
            data = row.payload.get("data") or {}
            old, new = str(data.get("old", "")), str(data.get("new", ""))
            if row.payload.get("type") != SUBSTITUTE or not (old.isdigit() and new.isdigit()):
                continue
            game_row = await self.bot.service.row(row.game_id)
            if game_row is None:
                return
            failed: list[str] = []
            for key, thread_id, known in await self.bot.store.group_threads(row.game_id):
                if key.startswith(PUBLIC_THREAD) or int(old) not in known:
                    continue
                try:
                    await self._swap_member(game_row.id, key, thread_id, known, int(old), int(new))
                except Exception as exc:
                    failed.append(lasting(exc, f"<#{thread_id}>"))
            try:
                await self._move_night_closing(game_row, int(old), int(new))
            except Exception as exc:
                failed.append(lasting(exc, f"the town square <#{game_row.channel_id}>"))
            if failed and (row.game_id, f"handover:{old}") not in self._told_host:
                log.warning("game %s: not handed over to %s: %s", row.game_id, new, ", ".join(failed))
                self._told_host.add((row.game_id, f"handover:{old}"))
                # (names, not mentions: a mention in a private thread would add the player to it)
                await self._tell_storytellers(game_row, f"{row.payload.get('text', '')} I could not hand over "
                                              + ", ".join(failed) + ": please add the substitute there and "
                                              "remove the player who left, by hand (I need Manage Threads and "
                                              "Manage Permissions).")

    async def _swap_member(self, game_id: int, key: str, thread_id: int, known: list[int], old: int,
                           new: int) -> None:
        """In one private thread: the newcomer is added, then the old player removed."""
        thread = self.bot.get_channel(thread_id) or await self._call(
            URGENT, ("thread", thread_id), self.bot.fetch_channel, thread_id)
        members = list(known)
        if new not in members:
            await self._call(URGENT, ("thread", thread_id), thread.add_user, discord.Object(id=new))
            members.append(new)
        with contextlib.suppress(discord.NotFound):
            await self._call(URGENT, ("thread", thread_id), thread.remove_user, discord.Object(id=old))
        members.remove(old)
        await self.bot.store.set_group_thread(game_id, key, thread_id, members)

    async def _move_night_closing(self, game_row, old: int, new: int) -> None:
        """If the night closed the town square to the old player (their overwrite denies Send
        Messages, as ``_mute`` sets it), it opens to them and closes to the newcomer."""
        channel = await self._channel(game_row.channel_id, URGENT)
        if isinstance(channel, discord.Thread) or channel.overwrites_for(discord.Object(id=old)).send_messages \
                is not False:
            return
        await self._mute(channel, new, True)
        await self._mute(channel, old, False)

    async def _tell_storytellers(self, game_row, text: str) -> None:
        try:
            thread = await self._group_thread(game_row, STORYTELLERS_KEY, [], COSMETIC)
            await self._call(COSMETIC, ("thread", thread.id), thread.send, text)
        except Exception as exc:
            log.warning("game %s: could not tell the Storytellers: %s (%s)", game_row.id, text, exc)

    async def _close_thread(self, thread, game_id: int) -> None:
        """A group's conversation is over (a broken whisper): lock and archive its thread, after
        the message saying so. Best effort: a thread left open says it is broken anyway."""
        try:
            await self._call(COSMETIC, ("thread", thread.id), thread.edit, archived=True, locked=True)
        except Exception as exc:
            log.warning("game %s: thread %s not closed: %s", game_id, getattr(thread, "id", "?"), exc)

    async def sync_storytellers(self, game_id: int, removed: int | None = None) -> None:
        """After a co-Storyteller is added or removed: every private thread of the game gets its
        Storytellers now (best effort: the next message to a thread reconciles it anyway)."""
        game_row = await self.bot.store.game(game_id)
        if game_row is None:
            return
        tellers = await self.storytellers_of(game_row)
        for key, thread_id, known in await self.bot.store.group_threads(game_id):
            if key.startswith(PUBLIC_THREAD):
                continue
            try:
                thread = self.bot.get_channel(thread_id) or await self._call(
                    COSMETIC, ("thread", thread_id), self.bot.fetch_channel, thread_id)
                added = list(known)
                for uid in tellers:
                    if uid not in added:
                        await self._call(COSMETIC, ("thread", thread_id), thread.add_user, discord.Object(id=uid))
                        added.append(uid)
                if removed is not None and removed in added:
                    await self._call(COSMETIC, ("thread", thread_id), thread.remove_user, discord.Object(id=removed))
                    added.remove(removed)
                if added != known:
                    await self.bot.store.set_group_thread(game_id, key, thread_id, added)
            except Exception as exc:
                log.warning("game %s: Storytellers of thread %s not updated yet: %s", game_id, thread_id, exc)

    async def _public_thread(self, game_row, key: str, level: int = URGENT):
        """A public thread of the game (the Clocktower announcement thread), made on its first
        message: under the game's channel, or under its thread channel when the game's channel is
        itself a thread (a forum post)."""
        store = self.bot.store
        key = f"{PUBLIC_THREAD}{key}"
        found = await store.group_thread(game_row.id, key)
        if found is not None:
            return self.bot.get_channel(found[0]) or await self._call(
                level, ("thread", found[0]), self.bot.fetch_channel, found[0])
        channel = await self._channel(game_row.channel_id, level)
        if isinstance(channel, discord.Thread):
            channel = await self._channel(game_row.threads_under, level)
        thread = await self._call(level, ("channel", channel.id), channel.create_thread,
                                  name=f"📣 {key[len(PUBLIC_THREAD):].capitalize()} · game {game_row.id}"[:100],
                                  type=discord.ChannelType.public_thread)
        await store.set_group_thread(game_row.id, key, thread.id, [])
        return thread

    # ----- telling people what went wrong, with no secret in it -----
    async def _dm_closed_notice(self, game_row, row: OutboxRow) -> None:
        """At the deal only, one notice per player per game: every player gets a private message
        then, so the notice says nothing about what the game is doing in secret."""
        key = (row.game_id, row.recipient_id)
        if row.step != DEAL_STEP or key in self._dm_notices:
            return
        self._dm_notices.add(key)
        try:
            channel = await self._channel(game_row.channel_id)
            await self._call(
                URGENT, ("channel", channel.id), channel.send,
                f"<@{row.recipient_id}>, I couldn't send you a private message (your DMs are closed). "
                "Press **My hand** on the latest game message, or use `/game hand`, to see your role "
                "and everything you learn during the game.",
                view=phase_view(row.game_id),
                allowed_mentions=discord.AllowedMentions(users=True),
            )
        except Exception as exc:
            log.warning("game %s: closed-DM notice for %s failed: %s", row.game_id, row.recipient_id, exc)

    async def _tell_host_about_permission(self, game_id: int, row: OutboxRow, exc: Retry) -> None:
        """Tell the host, once per game and kind of place, which permission to grant."""
        game_row = await self.bot.store.game(game_id)
        if game_row is None or (row.target == "dm" and not games.get(game_row.kind).private_threads):
            return  # a DM refused for a reason other than closed DMs: nothing the host can grant
        where = "thread" if row.target in ("group", "dm") else row.target
        if (game_id, where) in self._told_host:
            return
        self._told_host.add((game_id, where))
        if where == "thread":
            needed = "Create Private Threads, Send Messages in Threads and Manage Threads"
        else:
            needed = "View Channel, Send Messages, Embed Links, Attach Files and Read Message History"
        text = (f"I can't post the messages of game #{game_id} in <#{game_row.channel_id}>: Discord "
                f"says I lack a permission there. Please give me {needed} in that channel. Nothing "
                "is lost: the game's messages are kept and go out, in order, as soon as I can post.")
        try:
            dm = await self._dm(game_row.host_id)
            await self._call(URGENT, ("dm", game_row.host_id), dm.send, text)
        except Exception as dm_exc:
            log.error("game %s: missing permission in channel %s (%s), and the host could not be told "
                      "(%s)", game_id, game_row.channel_id, exc.reason, dm_exc)
