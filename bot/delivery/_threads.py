"""Threads and permissions: a group's private thread and a game's public one, the Storytellers in
every private thread, the night's closing of the town square and the whispers, a substitute's
handover of the seat's threads, and telling the host or the Storytellers what Discord refused."""

from __future__ import annotations

import contextlib
import logging
import re

import discord

import games
from games.engine import SUBSTITUTE, GameError

from ..pacer import COSMETIC, URGENT
from ..service import STORYTELLERS_KEY
from ..store import OutboxRow
from ._calls import Calls, lasting
from ._ports import Bot
from ._rules import PUBLIC_THREAD, GiveUp, Retry

log = logging.getLogger(__name__)

#: how long a quiet thread of the game stays open (minutes): a week, Discord's longest, so a
#: player's threads stay in their sidebar through a forum game's quiet days (Discord allows 60,
#: 1440, 4320 and 10080; its default is a day)
WEEK_MINUTES = 10080
#: the record of the town square's Send Messages allows the game itself set for the night (the
#: bot's and the Storytellers'), kept beside the game's threads with the town square as its
#: "thread": what it lists is taken back, and only that, so the channel is left as it was found
SQUARE_ALLOWS = "square:allowed"
#: the forum tags a game's post carries: the day it is in, and "Ended"
ENDED_TAG = "Ended"
DAY_TAG = re.compile(r"Day \d+")


class Threads:
    def __init__(self, bot: Bot, calls: Calls) -> None:
        self.bot = bot
        self.calls = calls
        self.told_host: set[tuple[int, str]] = set()  # (game, target) problems told, once each
        self.leaving: set[int] = set()  # games whose town square is being left (``leave_square``)

    def forget(self, game_id: int) -> None:
        self.told_host = {k for k in self.told_host if k[0] != game_id}

    # ----- the threads -----
    async def storytellers_of(self, game_row) -> list[int]:
        """Who sits in every private thread of a game besides its members: the game's Storytellers
        (host and co-Storytellers) where it has them, else its host unless the host is seated."""
        if games.get(game_row.kind).storytellers:
            return await self.bot.service.storyteller_ids(game_row)
        seated = {uid for uid, _ in await self.bot.store.lobby_players(game_row.id)}
        return [] if game_row.host_id in seated else [game_row.host_id]

    async def thread(self, thread_id: int, level: int) -> discord.Thread:
        """A thread the game made, by id: from the cache, else fetched (one call at ``level``)."""
        found = self.bot.get_channel(thread_id) or await self.calls.call(
            level, ("thread", thread_id), self.bot.fetch_channel, thread_id)
        if not isinstance(found, discord.Thread):
            raise GiveUp(f"thread {thread_id} is a {type(found).__name__}, not a thread")
        return found

    async def group_thread(self, game_row, key: str, members: list[int], level: int = URGENT, *,
                           reopen: bool = False):
        """The group's private thread, opened on its first message and kept in the database by key;
        members who joined the group since are added, and those no longer in it (a substituted
        player, a removed co-Storyteller) are removed. The Storytellers are in every one; a seated
        player only in their own. The thread is recorded as soon as it exists, so a retry after a
        failed add reuses it. ``reopen`` (the event says so: a whisper): an earlier group of the same
        kind and members gives its thread back (``reopen_group``)."""
        store = self.bot.store
        call = self.calls.call
        tellers = await self.storytellers_of(game_row)
        needed = list(dict.fromkeys([*members, *tellers]))
        found = await store.group_thread(game_row.id, key)
        if found is None and reopen:
            found = await self.reopen_group(game_row.id, key, needed, level)
        if found is not None:
            thread_id, known = found
            thread = await self.thread(thread_id, level)
        else:
            channel = await self.calls.channel(game_row.threads_under, level)
            names = dict(await store.lobby_players(game_row.id, kind=None))
            title = ", ".join(names.get(m, str(m)) for m in members) if members else "Storytellers"
            thread = await call(level, ("channel", channel.id), channel.create_thread,
                                name=f"🔒 {title} · game {game_row.id}"[:100],
                                type=discord.ChannelType.private_thread, invitable=False,
                                auto_archive_duration=WEEK_MINUTES)
            known = []
            await store.set_group_thread(game_row.id, key, thread.id, known)
        added = list(known)
        for uid in needed:
            if uid not in added:
                await call(level, ("thread", thread.id), thread.add_user, discord.Object(id=uid))
                added.append(uid)
        for uid in [u for u in added if u not in needed]:
            with contextlib.suppress(discord.NotFound):
                await call(level, ("thread", thread.id), thread.remove_user, discord.Object(id=uid))
            added.remove(uid)
        if added != known:
            await store.set_group_thread(game_row.id, key, thread.id, added)
        return thread

    async def reopen_group(self, game_id: int, key: str, needed: list[int], level: int):
        """A group declared again by the same people (a whisper whose earlier one broke): the thread
        of their earlier group of the same kind (the key up to its last ":"), unarchived and
        unlocked, is theirs again, so the declaration costs one call and not a new thread plus one
        call per member. The earlier record gives the thread up (its members emptied), so the
        thread has one record that keeps who is in it. An open whisper is never matched: the rules
        refuse a second open whisper with exactly the same players."""
        store = self.bot.store
        kind = key.rpartition(":")[0] + ":"
        for other, thread_id, known in await store.group_threads(game_id):
            if not other.startswith(kind) or other == key or not known or set(known) != set(needed):
                continue
            # by id: an archived thread is in no cache, and fetching it would be a second call
            await self.calls.call(level, ("thread", thread_id), self.bot.http.edit_channel, thread_id,
                                  archived=False, locked=False, auto_archive_duration=WEEK_MINUTES)
            await store.set_group_thread(game_id, key, thread_id, known)
            await store.set_group_thread(game_id, other, thread_id, [])
            return thread_id, known
        return None

    async def public_thread(self, game_row, key: str, level: int = URGENT):
        """A public thread of the game (a forum game's announcement thread), made on its first
        message: under the game's channel, or under its thread channel when the game's channel is
        itself a thread (a forum post)."""
        store = self.bot.store
        key = f"{PUBLIC_THREAD}{key}"
        found = await store.group_thread(game_row.id, key)
        if found is not None:
            return self.bot.get_channel(found[0]) or await self.calls.call(
                level, ("thread", found[0]), self.bot.fetch_channel, found[0])
        channel = await self.calls.channel(game_row.channel_id, level)
        if isinstance(channel, discord.Thread):
            channel = await self.calls.channel(game_row.threads_under, level)
        thread = await self.calls.call(level, ("channel", channel.id), channel.create_thread,
                                       name=f"📣 {key[len(PUBLIC_THREAD):].capitalize()} · game {game_row.id}"[:100],
                                       type=discord.ChannelType.public_thread, auto_archive_duration=WEEK_MINUTES)
        await store.set_group_thread(game_row.id, key, thread.id, [])
        return thread

    async def close_thread(self, thread, game_id: int) -> None:
        """A group's conversation is over (a broken whisper): lock and archive its thread, after
        the message saying so. Best effort: a thread left open says it is broken anyway."""
        try:
            await self.calls.call(COSMETIC, ("thread", thread.id), thread.edit, archived=True, locked=True)
        except Exception as exc:
            log.warning("game %s: thread %s not closed: %s", game_id, getattr(thread, "id", "?"), exc)

    async def sync_storytellers(self, game_id: int, removed: int | None = None) -> None:
        """After a co-Storyteller is added or removed: every private thread of the game gets its
        Storytellers now, and in the town square at night a new one is given their voice and a
        removed one loses it (best effort: the next message to a thread reconciles it anyway)."""
        game_row = await self.bot.store.game(game_id)
        if game_row is None:
            return
        call = self.calls.call
        tellers = await self.storytellers_of(game_row)
        for key, thread_id, known in await self.bot.store.group_threads(game_id):
            if key.startswith(PUBLIC_THREAD) or key == SQUARE_ALLOWS or not known:
                continue  # (a record with nobody: its thread went to a later group, reopened)
            try:
                thread = await self.thread(thread_id, COSMETIC)
                added = list(known)
                for uid in tellers:
                    if uid not in added:
                        await call(COSMETIC, ("thread", thread_id), thread.add_user, discord.Object(id=uid))
                        added.append(uid)
                if removed is not None and removed in added:
                    await call(COSMETIC, ("thread", thread_id), thread.remove_user, discord.Object(id=removed))
                    added.remove(removed)
                if added != known:
                    await self.bot.store.set_group_thread(game_id, key, thread_id, added)
            except Exception as exc:
                log.warning("game %s: Storytellers of thread %s not updated yet: %s", game_id, thread_id, exc)
        try:
            await self.square_voices(game_row, removed)
        except Exception as exc:
            log.warning("game %s: the Storytellers' voice in the town square not updated yet: %s", game_id, exc)

    async def square_voices(self, game_row, removed: int | None) -> None:
        """The town square's allows follow the Storytellers: a removed one's allow is taken back
        (if the game set it), and at night a new one gets theirs at once."""
        channel = await self.calls.channel(game_row.channel_id, COSMETIC)
        if isinstance(channel, discord.Thread):
            return  # a thread town square is locked at night: no allows
        if removed is not None:
            await self.take_back_allows(channel, game_row.id, [removed])
        if channel.overwrites_for(channel.guild.default_role).send_messages is False:  # night
            await self.allow_voices(channel, game_row)

    # ----- the night's closing of talk -----
    async def set_talk(self, row: OutboxRow) -> None:
        """Night closes public talk and whispers: after the message saying so, the town square is
        closed (one overwrite on @everyone, see ``close_square``, or the thread locked when the town
        square is a thread) and the open whispers' threads are locked; dawn opens them again.
        Where the bot lacks the permission it tells the Storytellers which one, once per game."""
        data = row.payload.get("data") or {}
        closed = data.get("talk") == "closed"
        game_row = await self.bot.service.row(row.game_id)
        if game_row is None:
            return
        missing: list[str] = []
        try:
            channel = await self.calls.channel(game_row.channel_id, COSMETIC)
            if isinstance(channel, discord.Thread):
                if game_row.status == "running":
                    await self.edit_post(channel, game_row, closed)
            else:
                await self.close_square(channel, game_row, data.get("players", []), closed)
            if game_row.status != "running":  # the game's last word: what it set is taken back
                await self.leave_square(game_row.id)
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
                thread = await self.thread(found[0], COSMETIC)
                await self.calls.call(COSMETIC, ("thread", thread.id), thread.edit, locked=closed)
            except discord.Forbidden:
                if "Manage Threads" not in missing:
                    missing.append("Manage Threads (to lock the whisper threads at night)")
            except Exception as exc:
                log.warning("game %s: whisper thread %s not %s: %s", row.game_id, key,
                            "locked" if closed else "opened", exc)
        if missing and (row.game_id, "talk") not in self.told_host:
            self.told_host.add((row.game_id, "talk"))
            await self.tell_storytellers(game_row, "I could not close the town square and the whispers for the "
                                         "night: Discord says I lack " + " and ".join(missing) + ". Grant it and "
                                         "I will do it from the next night; until then, please remind the town "
                                         "that talk is closed at night.")

    async def close_square(self, channel, game_row, players: list, closed: bool) -> None:
        """The town square's night in a constant number of calls, whatever the number of seats:
        one overwrite on @everyone denies Send Messages at dusk and is taken back at dawn. The bot
        and the Storytellers keep their voice with a member overwrite each that allows it, set at
        the first dusk and kept (later nights find it in place and make no call) until the game
        ends or the Storyteller is removed (``allow_voices``). Spectators are silenced at night
        too, and a role that allows Send Messages in this channel outranks the @everyone deny
        (the README's "The night's closing" weighs this against a role per game). Per-member
        denies left by an older version are taken back at dawn."""
        if closed:
            await self.allow_voices(channel, game_row)
        else:  # the seats as the game has them now (Travellers and substitutes included)
            for player in players:
                if str(player).isdigit():
                    await self.mute(channel, int(player), False)
        await self.set_everyone(channel, False if closed else None)

    async def set_everyone(self, channel, wanted: bool | None) -> None:
        """The @everyone overwrite's Send Messages (False: the night's deny; None: no word on it),
        its other permissions kept; no call where it is already so."""
        everyone = channel.guild.default_role
        overwrite = channel.overwrites_for(everyone)
        if overwrite.send_messages is wanted:
            return
        overwrite.update(send_messages=wanted)
        await self.calls.call(COSMETIC, ("channel", channel.id), channel.set_permissions, everyone,
                              overwrite=None if overwrite.is_empty() else overwrite)

    async def allow_voices(self, channel, game_row) -> None:
        """The bot and the Storytellers allowed Send Messages in the town square (one overwrite
        each, by id), and each allow the game set recorded, so that only those are taken back."""
        store = self.bot.store
        found = await store.group_thread(game_row.id, SQUARE_ALLOWS)
        allowed = list(found[1]) if found is not None else []
        me = self.bot.user
        assert me is not None  # (delivery runs once logged in)
        for uid in dict.fromkeys([me.id, *await self.storytellers_of(game_row)]):
            if channel.overwrites_for(discord.Object(id=uid)).send_messages is not True:
                await self.set_send(channel, uid, True)
                if uid not in allowed:
                    allowed.append(uid)
        if found is None or allowed != found[1]:
            await store.set_group_thread(game_row.id, SQUARE_ALLOWS, channel.id, allowed)

    async def take_back_allows(self, channel, game_id: int, only: list[int] | None = None) -> None:
        """The town square's Send Messages allows the game set (``only`` these, or all), taken
        back: each member's other overwrites stay as they were."""
        store = self.bot.store
        found = await store.group_thread(game_id, SQUARE_ALLOWS)
        if found is None:
            return
        kept = []
        for uid in found[1]:
            if only is None or uid in only:
                await self.set_send(channel, uid, None)
            else:
                kept.append(uid)
        if kept != found[1]:
            await store.set_group_thread(game_id, SQUARE_ALLOWS, found[0], kept)

    async def edit_post(self, post: discord.Thread, game_row, closed: bool) -> None:
        """A town square that is a thread: locked at dusk, unlocked at dawn, in one call that also
        keeps it open for a week and, in a forum, tags the post with the day (``post_tags``)."""
        changes: dict = {"locked": closed}
        if not closed:
            changes["auto_archive_duration"] = WEEK_MINUTES
            day = await self.day_of(game_row.id)
            tags = await self.post_tags(post, f"Day {day}", game_row.id) if day else None
            if tags is not None:
                changes["applied_tags"] = tags
        await self.calls.call(COSMETIC, ("thread", post.id), post.edit, **changes)

    async def day_of(self, game_id: int) -> int | None:
        """The game's day now (None when its state cannot be read)."""
        try:
            table = await self.bot.service.load(game_id)
        except GameError:
            return None
        day = getattr(table.state, "day", None)
        return day if isinstance(day, int) and day > 0 else None

    async def post_tags(self, post: discord.Thread, name: str, game_id: int) -> list | None:
        """A forum post's tags with the game's tag ``name`` ("Day 2", "Ended") in place of the
        game's earlier one, the post's other tags kept; the tag is made in the forum if it has
        none (Manage Channels). None when there is nothing to change or the tag cannot be had
        (no permission, or the forum is full): the game goes on untagged, with one log line."""
        forum = post.parent
        if not isinstance(forum, discord.ForumChannel):
            return None
        tag = discord.utils.get(forum.available_tags, name=name)
        if tag is None:
            try:
                tag = await self.calls.call(COSMETIC, ("channel", forum.id), forum.create_tag, name=name)
            except discord.HTTPException as exc:
                if (game_id, "tags") not in self.told_host:
                    self.told_host.add((game_id, "tags"))
                    log.info("game %s: forum post %s not tagged %r (Discord: %s %s); the game goes on untagged",
                             game_id, post.id, name, exc.status, exc.text or exc.code)
                return None
        current = list(post.applied_tags)
        kept = [t for t in current if t.name != ENDED_TAG and not DAY_TAG.fullmatch(t.name)]
        wanted = [*kept[:4], tag]  # Discord allows 5 tags on a post
        if {t.id for t in wanted} == {t.id for t in current}:
            return None
        return wanted

    # ----- the game's end: what its nights changed, undone -----
    async def undo(self, row: OutboxRow) -> bool:
        """A game's end (its ``undo`` row, written with the end or the cancel): the town square is
        left as the game found it (``leave_square``) and the whispers' threads a night locked are
        unlocked. It does nothing twice, so a retry, or an undo after the game's last word already
        opened the square, costs no call. What Discord refuses is raised for the delivery to retry;
        a missing permission is told to the Storytellers once. False when the game is another
        process's (its owner does it: the row stays for it)."""
        game_row = await self.bot.store.game(row.game_id)
        if game_row is None:
            return True
        if not self.bot.service.owns(game_row):
            return False
        if row.game_id in self.leaving:  # (the last word is leaving it now: try again after)
            raise Retry("the town square is being left")
        try:
            await self.leave_square(row.game_id)
            await self.unlock_whispers(row.game_id)
        except discord.Forbidden as exc:
            if (row.game_id, "undo") not in self.told_host:
                self.told_host.add((row.game_id, "undo"))
                await self.tell_storytellers(game_row, (
                    f"Game #{row.game_id} is over, but I could not open the town square <#{game_row.channel_id}> "
                    "and the whispers again: Discord says I lack Manage Permissions there (or Manage Threads). "
                    "Grant it and I will do it at once; until then, the channel's permissions still hold the "
                    "night's closing."))
            raise Retry(f"undo: no permission ({exc.status} {exc.code})") from exc
        return True

    async def unlock_whispers(self, game_id: int) -> None:
        """The group threads a night locked (the whispers'), unlocked: any group's thread that is
        locked and still open (a broken whisper's thread is archived as well, and stays so). Read
        from the cache: an active thread is in it, at start-up too, so this costs no fetch."""
        for key, thread_id, known in await self.bot.store.group_threads(game_id):
            if key.startswith(PUBLIC_THREAD) or key == SQUARE_ALLOWS or not known:
                continue
            thread = self.bot.get_channel(thread_id)
            if isinstance(thread, discord.Thread) and thread.locked and not thread.archived:
                await self.calls.call(COSMETIC, ("thread", thread_id), thread.edit, locked=False)

    async def leave_square(self, game_id: int) -> None:
        """The game is over (finished or cancelled): the town square is left as the game found it.
        The night's @everyone deny and the allows the game set are taken back (a cancel at night
        would leave them); a thread town square is unlocked and, in a forum, tagged "Ended". It
        does nothing twice (it runs from the game's last message and from its end)."""
        if game_id in self.leaving:
            return
        self.leaving.add(game_id)
        try:
            game_row = await self.bot.store.game(game_id)
            if game_row is None or not games.get(game_row.kind).storytellers:
                return
            if not self.bot.service.owns(game_row):  # (ended by a DM click here: its owner leaves it)
                return
            channel = await self.calls.channel(game_row.channel_id, COSMETIC)
            if isinstance(channel, discord.Thread):
                changes: dict = {"locked": False} if channel.locked else {}
                tags = await self.post_tags(channel, ENDED_TAG, game_id)
                if tags is not None:
                    changes["applied_tags"] = tags
                if changes:
                    await self.calls.call(COSMETIC, ("thread", channel.id), channel.edit, **changes)
            elif await self.bot.store.group_thread(game_id, SQUARE_ALLOWS) is not None:  # it closed a night
                if await self.square_taken_over(game_id, game_row.channel_id):
                    return
                await self.set_everyone(channel, None)
                await self.take_back_allows(channel, game_id)
        finally:
            self.leaving.discard(game_id)

    async def square_taken_over(self, game_id: int, channel_id: int) -> bool:
        """Whether a later game in the same channel has closed a night of its own since (an undo
        that waited: the bot was down, or lacked the permission): the square is that game's now,
        its dusk and dawn set it and its end leaves it, so this game hands its allows over to it
        (taken back at that game's end) and touches nothing."""
        store = self.bot.store
        later = await store.active_game_in_channel(channel_id)
        if later is None or later.id == game_id:
            return False
        theirs = await store.group_thread(later.id, SQUARE_ALLOWS)
        if theirs is None:
            return False
        ours = await store.group_thread(game_id, SQUARE_ALLOWS)
        mine = ours[1] if ours is not None else []
        await store.set_group_thread(later.id, SQUARE_ALLOWS, theirs[0], list(dict.fromkeys([*theirs[1], *mine])))
        await store.set_group_thread(game_id, SQUARE_ALLOWS, channel_id, [])
        return True

    async def mute(self, channel, user_id: int, closed: bool) -> None:
        """A member overwrite that denies (or no longer denies) a player Send Messages in the town
        square, their other overwrites kept: the older night's closing, and a substitute's handover
        of it. No call where nothing changes."""
        await self.set_send(channel, user_id, False if closed else None)

    async def set_send(self, channel, user_id: int, wanted: bool | None) -> None:
        """One member's Send Messages overwrite in a channel, set by id (no member fetched), their
        other overwrites kept; no call where it is already so."""
        overwrite = channel.overwrites_for(discord.Object(id=user_id))
        if overwrite.send_messages is wanted:
            return
        overwrite.update(send_messages=wanted)
        http = self.bot.http
        try:
            if overwrite.is_empty():
                await self.calls.call(COSMETIC, ("channel", channel.id), http.delete_channel_permissions,
                                      channel.id, user_id)
            else:
                allow, deny = overwrite.pair()
                await self.calls.call(COSMETIC, ("channel", channel.id), http.edit_channel_permissions,
                                      channel.id, user_id, str(allow.value), str(deny.value), 1)
        except discord.NotFound:
            return  # they left the server

    # ----- a substitute takes a seat -----
    async def hand_over_seats(self, unit: list[OutboxRow]) -> None:
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
                continue
            failed: list[str] = []
            for key, thread_id, known in await self.bot.store.group_threads(row.game_id):
                if key.startswith(PUBLIC_THREAD) or int(old) not in known:
                    continue
                try:
                    await self.swap_member(game_row.id, key, thread_id, known, int(old), int(new))
                except Exception as exc:
                    failed.append(lasting(exc, f"<#{thread_id}>"))
            try:
                await self.move_night_closing(game_row, int(old), int(new))
            except Exception as exc:
                failed.append(lasting(exc, f"the town square <#{game_row.channel_id}>"))
            if failed and (row.game_id, f"handover:{old}") not in self.told_host:
                log.warning("game %s: not handed over to %s: %s", row.game_id, new, ", ".join(failed))
                self.told_host.add((row.game_id, f"handover:{old}"))
                # (names, not mentions: a mention in a private thread would add the player to it)
                await self.tell_storytellers(game_row, f"{row.payload.get('text', '')} I could not hand over "
                                             + ", ".join(failed) + ": please add the substitute there and "
                                             "remove the player who left, by hand (I need Manage Threads and "
                                             "Manage Permissions).")

    async def swap_member(self, game_id: int, key: str, thread_id: int, known: list[int], old: int,
                          new: int) -> None:
        """In one private thread: the newcomer is added, then the old player removed."""
        call = self.calls.call
        thread = await self.thread(thread_id, URGENT)
        members = list(known)
        if new not in members:
            await call(URGENT, ("thread", thread_id), thread.add_user, discord.Object(id=new))
            members.append(new)
        with contextlib.suppress(discord.NotFound):
            await call(URGENT, ("thread", thread_id), thread.remove_user, discord.Object(id=old))
        members.remove(old)
        await self.bot.store.set_group_thread(game_id, key, thread_id, members)

    async def move_night_closing(self, game_row, old: int, new: int) -> None:
        """If the night closed the town square to the old player (their overwrite denies Send
        Messages, as ``mute`` sets it), it opens to them and closes to the newcomer."""
        channel = await self.calls.channel(game_row.channel_id, URGENT)
        if isinstance(channel, discord.Thread) or channel.overwrites_for(discord.Object(id=old)).send_messages \
                is not False:
            return
        await self.mute(channel, new, True)
        await self.mute(channel, old, False)

    # ----- telling people what went wrong, with no secret in it -----
    async def tell_storytellers(self, game_row, text: str) -> None:
        try:
            thread = await self.group_thread(game_row, STORYTELLERS_KEY, [], COSMETIC)
            await self.calls.call(COSMETIC, ("thread", thread.id), thread.send, text)
        except Exception as exc:
            log.warning("game %s: could not tell the Storytellers: %s (%s)", game_row.id, text, exc)

    async def tell_host_about_permission(self, game_id: int, row: OutboxRow, exc: Retry) -> None:
        """Tell the host, once per game and kind of place, which permission to grant."""
        game_row = await self.bot.store.game(game_id)
        if game_row is None or (row.target == "dm" and not games.get(game_row.kind).private_threads):
            return  # a DM refused for a reason other than closed DMs: nothing the host can grant
        where = "thread" if row.target in ("group", "dm") else row.target
        if (game_id, where) in self.told_host:
            return
        self.told_host.add((game_id, where))
        if where == "thread":
            needed = "Create Private Threads, Send Messages in Threads and Manage Threads"
        else:
            needed = "View Channel, Send Messages, Embed Links, Attach Files and Read Message History"
        text = (f"I can't post the messages of game #{game_id} in <#{game_row.channel_id}>: Discord "
                f"says I lack a permission there. Please give me {needed} in that channel. Nothing "
                "is lost: the game's messages are kept and go out, in order, as soon as I can post.")
        try:
            dm = await self.calls.dm(game_row.host_id)
            await self.calls.call(URGENT, ("dm", game_row.host_id), dm.send, text)
        except Exception as dm_exc:
            log.error("game %s: missing permission in channel %s (%s), and the host could not be told "
                      "(%s)", game_id, game_row.channel_id, exc.reason, dm_exc)
