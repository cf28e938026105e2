"""What a click or a command does: turns an interaction into a service call and answers it.

The commands and components that call in here answer through ``interactions.answered``: what is
refused raises a ``GameError`` here, which becomes an ephemeral sentence; anything unexpected is
logged with the game id and the player gets a short apology, never a traceback.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any, Protocol

import discord

import games
from games.engine import NO_ONE, GameError, Prompt, rng_for

from .config import Settings
from .delivery import paused_ends, schedule_of
from .edit_windows import EditWindows
from .interactions import acknowledge, actor_of, reply, update_message
from .logs import bind
from .permissions import missing, named
from .render import duration, relative_time
from .service import NOT_OPEN_YET, GameService, LobbyError, NoGameHere, NotAllowed, quoted
from .store import GameRow, Slot, Store
from .views import lobby_view, prompts_view

log = logging.getLogger(__name__)

#: what a game with Storytellers needs in its town square, and where its private threads live
#: (names from the one permission table, ``bot.permissions``, that the invite asks for too)
TOWN_PERMISSIONS = named("view_channel", "send_messages", "embed_links", "attach_files", "read_message_history",
                         "send_messages_in_threads", "create_public_threads")
THREAD_PERMISSIONS = named("view_channel", "create_private_threads", "send_messages_in_threads", "manage_threads")
#: who can fix a missing permission, and how
GRANT_HINT = ("\nA server admin can grant them in the channel's settings, or invite the bot again with the "
              "address `python -m bot invite` prints.")
#: the sign-up message's slot, and what it shows once the game has begun
LOBBY_SLOT = "lobby"
STARTED_EMBED = discord.Embed(title="The game has begun.", description="Sign-ups are closed. Good luck.",
                              colour=discord.Colour.dark_purple())
#: a private answer while the next phase's opening message is not posted yet: it names no phase
#: and shows no hand, which would tell what the channel is still revealing
NOT_SHOWN_YET = ("_The channel is still showing what happened. What comes next opens here once its message "
                 "is posted: look again then._")


def prompts_text(prompts: list[Prompt], first: list[str]) -> str:
    """A private message: ``first`` (a view's text, an answer), then each open prompt's title and text."""
    parts = [*first, *(f"**{p.title}**" + (f"\n{p.text}" if p.text else "") for p in prompts)]
    return "\n\n".join(parts)


class PlayDelivery(Protocol):
    """What ``Play`` uses of the delivery: the private prompts it answered, kept to refresh."""

    def note_prompt(self, game_id: int, phase_seq: int, interaction: discord.Interaction,
                    message_id: int) -> None: ...
    def forget_prompt(self, game_id: int, user_id: int, message_id: int) -> None: ...


class PlayVoice(Protocol):
    """What ``Play`` uses of the voice table: its check when a game starts."""

    async def check_at_start(self, game: GameRow) -> str | None: ...
    async def tell_host(self, game: GameRow, text: str) -> None: ...


class PlayBot(Protocol):
    """What ``Play`` uses of the bot."""

    service: GameService
    store: Store
    delivery: PlayDelivery
    voice: PlayVoice
    settings: Settings  # living_edit_seconds

    def get_user(self, user_id: int, /) -> discord.User | None: ...
    def get_channel(self, id: int, /) -> discord.abc.GuildChannel | discord.Thread | discord.abc.PrivateChannel | None: ...
    def get_partial_messageable(self, id: int, /) -> discord.PartialMessageable: ...


class Play:
    def __init__(self, bot: PlayBot) -> None:
        self.bot = bot
        #: selections of multi-field prompts waiting for their submit button (game, user, seq, action)
        self.partial: dict[tuple[int, int, int, str], dict[str, Any]] = {}
        self._sheet_locks: dict[int, asyncio.Lock] = {}  # game -> its sign-up sheet's edits, in turn
        #: a sign-up sheet is edited at most once per ``living_edit_seconds``
        self.sheet_windows: EditWindows[int] = EditWindows(lambda: self.bot.settings.living_edit_seconds)
        self._sheet_tasks: set[asyncio.Task] = set()  # held edits under way
        #: options a sign-up sheet shows first, by a name instead of their value: option -> its
        #: name from (game, options); filled by the feature packages at setup
        self.option_names: dict[str, Callable[[Any, dict[str, Any]], str]] = {}

    @property
    def service(self) -> GameService:
        return self.bot.service

    def forget(self, game_id: int) -> None:
        """The game is over: drop its half-made choices."""
        self._sheet_locks.pop(game_id, None)
        self.sheet_windows.forget(lambda key: key == game_id)
        for key in [k for k in self.partial if k[0] == game_id]:
            del self.partial[key]

    async def check_place(self, interaction: discord.Interaction, game_id: int, *, private_ok: bool) -> None:
        """A click counts only where its game is: the game's server and channel (or a thread in
        it), or, for a player's own choices and hand, a DM. A forged or copied ``custom_id`` for
        another server's or channel's game is refused and changes nothing."""
        row = await self.service.row(game_id)
        if row is None:
            raise NoGameHere("That game no longer exists.")
        if interaction.guild_id is None:
            if not private_ok:
                raise NotAllowed("That button works only in the game's channel.")
            return  # a DM: the service checks that the clicker plays in this game
        if interaction.guild_id != row.guild_id:
            raise NotAllowed("That button belongs to a game on another server.")
        parent = getattr(interaction.channel, "parent_id", None)
        if not {row.channel_id, row.threads_under} & {interaction.channel_id, parent}:
            raise NotAllowed("That button belongs to a game in another channel.")

    # ----- lobby -----
    async def lobby_embed(self, game_id: int) -> discord.Embed:
        row = await self.bot.store.game(game_id)
        if row is None:
            raise NoGameHere("That game no longer exists.")
        game = games.get(row.kind)
        if game.seats:
            return await self._seats_embed(row, game)
        players = await self.bot.store.lobby_players(game_id)
        # the host by name (a mention in an embed may show as a bare id on a client that has not
        # seen them), marked in the list when they play
        names = "\n".join(f"• {name}" + " (host)" * (uid == row.host_id) for uid, name in players) or "nobody yet"
        host = f"**{self._name(row.host_id, row.host_name)}**"
        if any(uid == row.host_id for uid, _ in players):
            host += ", also playing"
        else:
            host += ": not playing. They left the seats and will run the game without playing."
        embed = discord.Embed(
            title=f"{game.title}: gathering players",
            description=(f"Host: {host}\nPlayers {len(players)} "
                         f"(needs {row.min_players}-{row.max_players}):\n{names}"),
            colour=discord.Colour.dark_purple())
        if row.options:
            embed.add_field(name="Options", value=" ".join(f"`{k}={v}`" for k, v in row.options.items())[:1024])
        embed.add_field(name="Voice", value=self._voice_line(row, players)[:1024], inline=False)
        embed.set_footer(text=f"game #{game_id} · /game join or the buttons below")
        return embed

    def _voice_line(self, row, players: list[tuple[int, str]]) -> str:
        """The linked voice channel and which of the seated players are in it."""
        if row.voice_channel_id is None:
            return "none: link one with `/game voice`"
        channel = self.bot.get_channel(row.voice_channel_id)
        here = set(getattr(channel, "voice_states", {}) or {})
        inside = [name for uid, name in players if uid in here]
        away = [name for uid, name in players if uid not in here]
        line = f"<#{row.voice_channel_id}>"
        if inside:
            line += " · in it: " + ", ".join(inside)
        if away:
            line += " · not in it yet: " + ", ".join(away)
        return line

    def _name(self, user_id: int, known: str | None) -> str:
        """A member's name for an embed: the one kept, else the one Discord's cache has."""
        user = None if known else self.bot.get_user(user_id)
        return known or (user.display_name if user is not None else f"member {user_id}")

    async def _seats_embed(self, row, game) -> discord.Embed:
        """The sign-up sheet of a game with seats and Storytellers: the circle, the Travellers,
        the spectators, the Storytellers."""
        signups = await self.bot.store.signups(row.id)
        named = {uid: name for uid, name in await self.bot.store.storytellers(row.id)}
        if row.host_name:
            named[row.host_id] = row.host_name
        # names, not mentions: a client that has not seen a member shows a mention as a bare id
        tellers = [f"**{self._name(uid, named.get(uid))}**" for uid in await self.service.storyteller_ids(row)]
        players = [s for s in signups if s.kind == "player"]
        seats = "\n".join(f"`{s.seat:>2}` {s.name}" for s in players) or "nobody yet"
        embed = discord.Embed(
            title=f"{game.title}: sign-ups",
            description=(f"Storytellers: {', '.join(tellers)}\n"
                         f"Players {len(players)} (needs {row.min_players}-{row.max_players}):\n{seats}")[:4000],
            colour=discord.Colour.dark_purple())
        travellers = [s for s in signups if s.kind == "traveller"]
        if travellers:
            embed.add_field(name="Travellers (join from day 1)",
                            value="\n".join(f"`{s.seat:>2}` {s.name}" for s in travellers)[:1024])
        spectators = [s for s in signups if s.kind == "spectator"]
        if spectators:
            embed.add_field(name="Spectators", value=", ".join(s.name for s in spectators)[:1024])
        titled = {k: name(game, row.options) for k, name in self.option_names.items() if k in row.options}
        shown = {**titled, **{k: v for k, v in row.options.items() if k not in named}}
        if shown:
            embed.add_field(name="Options", value=" ".join(f"`{k}={v}`" for k, v in shown.items())[:1024],
                            inline=False)
        embed.set_footer(text=f"game #{row.id} · /in seat:N · /travel in seat:N · /spectate · /out · "
                              "Storytellers: /st deal")
        return embed

    async def start_game(self, interaction: discord.Interaction, row, *, close_lobby: bool = True) -> None:
        """Start a game; one with Storytellers first checks the bot's permissions where it posts."""
        game = games.get(row.kind)
        if game.storytellers:
            missing = await self.missing_permissions(row)
            if missing:
                raise NotAllowed("I can't run this game yet: " + " ".join(missing) + GRANT_HINT)
        await self.service.start(row.id, actor_of(interaction))
        if close_lobby:
            await self._close_lobby(row.id)
        await self._voice_check(interaction, row.id)

    async def _voice_check(self, interaction: discord.Interaction, game_id: int) -> None:
        """At the start, the permissions the voice table needs in the linked channel: where one is
        missing the game goes on without that part, and the host is told once what to grant."""
        row = await self.bot.store.game(game_id)
        problem = await self.bot.voice.check_at_start(row) if row is not None else None
        if row is None or not problem:
            return
        if interaction.user.id == row.host_id:
            await reply(interaction, problem)
        else:
            await self.bot.voice.tell_host(row, problem)

    async def remember_lobby(self, interaction: discord.Interaction, game_id: int) -> None:
        """Keep the sign-up message, so that a start by command (`/game start`, `/st deal`) takes
        its Join and Start buttons away too."""
        try:
            message = await interaction.original_response()
            await self.bot.store.set_slot(game_id, LOBBY_SLOT, Slot(message.channel.id, message.id, message.id))
        except Exception as exc:  # cosmetic: the buttons refuse politely after the start anyway
            log.warning("game %s: sign-up message not kept: %s", game_id, exc)

    async def show_signups(self, interaction: discord.Interaction, game_id: int, said: str) -> None:
        """Answer a sign-up change with its line, and edit the game's one sign-up sheet in place. The
        sheet goes out with the answer when there is none yet (or it was deleted), and stays the one.
        An edit within ``living_edit_seconds`` of the last one waits for that window's end, so a rush
        of joins is one edit, showing the sign-ups as they are then."""
        lock = self._sheet_locks.setdefault(game_id, asyncio.Lock())
        async with lock:  # the last edit shows the latest sign-ups
            slot = await self.bot.store.slot(game_id, LOBBY_SLOT)
            if slot is not None and self.sheet_windows.wait(game_id, lambda: self._sheet_due(game_id)):
                await reply(interaction, f"{said} (The sign-up sheet above follows in a moment.)", ephemeral=False)
                return
            embed = await self.lobby_embed(game_id)
            if slot is not None and await self._edit_sheet(game_id, slot, embed):
                await reply(interaction, f"{said} (The sign-up sheet above is up to date.)", ephemeral=False)
                return
            await reply(interaction, said, embed=embed, view=lobby_view(game_id), ephemeral=False)
            await self.remember_lobby(interaction, game_id)
            self.sheet_windows.edited(game_id)

    async def _edit_sheet(self, game_id: int, slot: Slot, embed: discord.Embed) -> bool:
        """Edit the sign-up sheet in place; False when it is gone (deleted, or not ours to edit)."""
        try:
            message = self.bot.get_partial_messageable(slot.channel_id).get_partial_message(slot.message_id)
            await message.edit(embed=embed)
        except discord.HTTPException as exc:
            log.info("game %s: sign-up sheet not edited (%s); posting it again", game_id, exc)
            return False
        self.sheet_windows.edited(game_id)
        return True

    def _sheet_due(self, game_id: int) -> None:
        """A sign-up sheet's window is over: its held edit goes now."""
        task = asyncio.get_running_loop().create_task(self._held_sheet(game_id))
        self._sheet_tasks.add(task)
        task.add_done_callback(self._sheet_tasks.discard)

    async def _held_sheet(self, game_id: int) -> None:
        """The held edit of a sign-up sheet, with the sign-ups as they are now (none once the game
        has started: the start closed the sheet)."""
        async with self._sheet_locks.get(game_id) or asyncio.Lock():  # (none left once the game is over)
            row = await self.bot.store.game(game_id)
            slot = await self.bot.store.slot(game_id, LOBBY_SLOT)
            if row is None or row.status != "lobby" or slot is None:
                return
            await self._edit_sheet(game_id, slot, await self.lobby_embed(game_id))

    async def _close_lobby(self, game_id: int) -> None:
        slot = await self.bot.store.slot(game_id, LOBBY_SLOT)
        if slot is None:
            return
        try:
            message = self.bot.get_partial_messageable(slot.channel_id).get_partial_message(slot.message_id)
            await message.edit(embed=STARTED_EMBED, view=None)
        except Exception as exc:
            log.warning("game %s: sign-up message not closed: %s", game_id, exc)

    async def missing_permissions(self, row) -> list[str]:
        """Sentences naming what the bot lacks: in the town square (posting, embeds, pictures, the
        announcement thread) and where the private threads live (a forum post cannot hold them)."""
        town = self.bot.get_channel(row.channel_id)
        if town is None:
            return []  # not cached: delivery will say what is missing when it posts
        problems = []
        is_post = isinstance(town, discord.Thread)
        threads_under = self.bot.get_channel(row.threads_under) if row.thread_channel_id else (
            None if is_post else town)
        if is_post and threads_under is None:
            problems.append("this game's town square is a forum post, and Discord allows private threads only "
                            "under a text channel. Name one with `/st threads channel:#channel`.")
        for place, channel, needed in ((f"<#{town.id}>", town, TOWN_PERMISSIONS),
                                       (f"<#{getattr(threads_under, 'id', 0)}>", threads_under, THREAD_PERMISSIONS)):
            if not isinstance(channel, discord.abc.GuildChannel | discord.Thread):  # (none, or not cached)
                continue
            lacking = missing(channel.permissions_for(channel.guild.me), needed)
            if lacking:
                problems.append(f"in {place} I need {', '.join(lacking)}.")
        return problems

    async def on_table_button(self, interaction: discord.Interaction, game_id: int, what: str) -> None:
        await self.check_place(interaction, game_id, private_ok=what in ("choose", "hand"))
        if what in ("choose", "hand"):
            await self.show_private(interaction, game_id, with_view=(what == "hand"))
            return
        actor = actor_of(interaction)
        if what == "join":
            await self.service.join(game_id, actor)
        elif what == "leave":
            await self.service.leave(game_id, actor)
        elif what == "start":
            # the sign-up message is the one clicked: the answer below edits it
            await self.start_game(interaction, await self.service.row(game_id), close_lobby=False)
            await update_message(interaction, embed=STARTED_EMBED, view=None)
            return
        await update_message(interaction, embed=await self.lobby_embed(game_id), view=lobby_view(game_id))

    # ----- private views and choices -----
    async def show_private(self, interaction: discord.Interaction, game_id: int, *, with_view: bool) -> None:
        table, view, prompts = await self.service.private_view(game_id, interaction.user.id)
        if await self.service.opener_unposted(table):  # the hand would name the phase coming
            await reply(interaction, NOT_SHOWN_YET)
            return
        if with_view:  # My hand: what you hold and know; the controls are under Make my choice alone
            where = "Your choices are under **Make my choice**." if prompts else "You have nothing to choose right now."
            await reply(interaction, f"{view.text}\n\n_{where}_")
            return
        # nothing to choose: say so first (a phone shows the top of a long answer), then the hand
        text = prompts_text(prompts, []) if prompts else f"_You have nothing to choose right now._\n\n{view.text}"
        components = prompts_view(game_id, table.state.phase_seq, prompts)
        kwargs: dict[str, Any] = {}
        if components is not None:
            kwargs["view"] = components
        message_id = await reply(interaction, text, **kwargs)
        if (components is not None and message_id is not None
                and len(text) <= 2000  # one message: the original answer itself carries the selects
                and interaction.response.type == discord.InteractionResponseType.channel_message):
            self.bot.delivery.note_prompt(game_id, table.state.phase_seq, interaction, message_id)

    async def _act(self, interaction: discord.Interaction, game_id: int, action: dict[str, Any]) -> None:
        """Act, and answer: in the player's own private message when the choice was made there,
        which then shows what is open to them next (a turn goes on in one message); otherwise a new
        private answer."""
        outcome = await self.service.act(game_id, interaction.user.id, action)
        text = outcome.reply or "Done."
        message = getattr(interaction, "message", None)
        if message is not None and message.flags.ephemeral:  # never a public phase message
            if outcome.state.finished:  # this move ended the game: its ending is being shown now
                await update_message(interaction, content=f"{text}\n\n_The game is over: see the channel._",
                                     embeds=[], view=None)
                self.bot.delivery.forget_prompt(game_id, interaction.user.id, message.id)
                return
            table, _view, prompts = await self.service.private_view(game_id, interaction.user.id)
            view = prompts_view(game_id, table.state.phase_seq, prompts)
            said = [text, NOT_SHOWN_YET] if await self.service.opener_unposted(table) else [text]
            await update_message(interaction, content=prompts_text(prompts, said)[:2000], embeds=[], view=view)
            if view is None:  # nothing left to choose here: the message says what was done
                self.bot.delivery.forget_prompt(game_id, interaction.user.id, message.id)
            elif interaction.response.type in (discord.InteractionResponseType.message_update,
                                               discord.InteractionResponseType.deferred_message_update):
                # (the message is the player's ephemeral one, checked above: the edit can reach nothing else)
                self.bot.delivery.note_prompt(game_id, table.state.phase_seq, interaction, message.id)
            return
        await reply(interaction, text)

    def _prompt(self, table, user_id: int, action: str) -> Prompt:
        """The player's own open prompt for ``action``; for a choice on the phase message that is
        not open to this player (a dead witch's vote, a second "ready"), the shared prompt, so the
        rules answer why in their own words."""
        for prompt in table.game.prompts(table.state, str(user_id)):
            if prompt.action == action:
                return prompt
        for prompt in table.game.shared_prompts(table.state):
            if prompt.action == action:
                return prompt
        raise GameError("That choice is not open to you any more.", code="no_prompt")

    @staticmethod
    def _check_open(table, seq: int) -> int:
        """Refuse a choice made in phase ``seq`` once its choices no longer stand; returns the first
        phase whose choices do. (A game may keep an earlier stage's choices open, ``choices_since``:
        the action goes with the current phase, which the rules check again under the game's lock.)"""
        since = schedule_of(table.game, table.state).since
        if not since <= seq <= table.state.phase_seq:
            raise GameError("Too late: that phase has closed, and nothing was counted.", code="stale_phase")
        return since

    async def on_choice(self, interaction: discord.Interaction, game_id: int, seq: int, action: str,
                        field: str, values: list[str]) -> None:
        await self.check_place(interaction, game_id, private_ok=True)
        table = await self.service.load(game_id)
        since = self._check_open(table, seq)
        prompt = self._prompt(table, interaction.user.id, action)
        spec = next((f for f in prompt.fields if f.name == field), None)
        if spec is None:
            raise GameError("That choice is not open to you any more.", code="no_prompt")
        value: Any = values[0] if spec.max_values == 1 and values else values
        key = (game_id, interaction.user.id, seq, action)
        for old in [k for k in self.partial if k[0] == game_id and k[2] < since]:
            del self.partial[old]  # half-made choices of closed phases
        if prompt.any_field:  # this select is a whole answer: act at once
            self.partial.pop(key, None)
            await self._act(interaction, game_id, {"type": action, "player": str(interaction.user.id),
                                                   "phase_seq": table.state.phase_seq, **prompt.extra,
                                                   spec.into or field: value})
            return
        chosen = self.partial.setdefault(key, {})
        chosen[spec.into or field] = value
        if prompt.submit_label or len(prompt.fields) > 1:
            # kept until the button; the select shows the pick, so no message is needed
            await acknowledge(interaction)
            return
        self.partial.pop(key, None)
        await self._act(interaction, game_id, {"type": action, "player": str(interaction.user.id),
                                               "phase_seq": table.state.phase_seq, **prompt.extra, **chosen})

    async def on_choice_button(self, interaction: discord.Interaction, game_id: int, seq: int,
                               action: str) -> None:
        await self.check_place(interaction, game_id, private_ok=True)
        table = await self.service.load(game_id)
        self._check_open(table, seq)
        prompt = self._prompt(table, interaction.user.id, action)
        chosen = self.partial.pop((game_id, interaction.user.id, seq, action), {})
        missing = [f.placeholder for f in prompt.fields if (f.into or f.name) not in chosen]
        if missing:
            raise GameError(f"Choose first: {', '.join(missing)}.", code="incomplete")
        await self._act(interaction, game_id, {"type": action, "player": str(interaction.user.id),
                                               "phase_seq": table.state.phase_seq, **prompt.extra, **chosen})

    async def seated_table(self, interaction: discord.Interaction):
        """The running game of this channel (or of the thread's channel) where the user is seated:
        (row, table); refused in words otherwise."""
        row = await self.service.game_here(interaction.channel_id, getattr(interaction.channel, "parent_id", None))
        bind(game_id=row.id)
        if row.status != "running":
            raise LobbyError("The game here has not started yet.")
        table = await self.service.load(row.id)
        if not any(p.id == str(interaction.user.id) for p in table.state.players):
            raise NotAllowed("You are not playing in this game.")
        return row, table

    async def _open_vote(self, interaction: discord.Interaction):
        """The channel's game, and the vote open to this player: (row, table, prompt, target field)."""
        row, table = await self.seated_table(interaction)
        if await self.service.opener_unposted(table):  # (before the rules' reason, which names the phase)
            raise GameError(NOT_OPEN_YET, code="not_open_yet")
        uid = str(interaction.user.id)
        votes = [p for p in table.game.prompts(table.state, uid) if p.vote]
        if not votes:
            raise GameError(table.game.no_vote_reason(table.state, uid), code="no_vote")
        prompt = votes[0]
        field = next((f for f in prompt.fields if f.name == "target"), None)
        return row, table, prompt, field

    async def vote_choices(self, interaction: discord.Interaction, current: str) -> list[tuple[str, str]]:
        """(label, value) of the open vote's options matching what was typed, for autocomplete."""
        try:
            _row, _table, _prompt, field = await self._open_vote(interaction)
        except GameError:
            return []
        if field is None:
            return []
        typed = current.strip().lower()
        return [(c.label, c.value) for c in field.choices if typed in c.label.lower()][:25]

    async def vote(self, interaction: discord.Interaction, target_id: int | None,
                   choice: str | None = None) -> None:
        """``/vote``: route to whatever vote the channel's game has open for this player. A vote
        among players takes ``target`` (a member); any vote takes ``choice`` (an option's name)."""
        row, table, prompt, field = await self._open_vote(interaction)
        value = None if target_id is None else str(target_id)
        if field is not None:
            # a player not on this ballot: the rules' own reason, where they refuse them (the dead
            # do not nominate), tried on a copy of the state
            value = self._ballot_value(table, field, value, choice, lambda target: self._rules_refusal(table, {
                "type": prompt.action, "player": str(interaction.user.id), **prompt.extra, "target": target}))
        await self._act(interaction, row.id, {"type": prompt.action, "player": str(interaction.user.id),
                                              "phase_seq": table.state.phase_seq, **prompt.extra,
                                              "target": value})

    @staticmethod
    def _rules_refusal(table, action: dict[str, Any]) -> str:
        """What the rules say to ``action``, tried on a copy of the state (nothing changes): their
        sentence when they refuse it, "" when they would take it."""
        try:
            table.game.apply(table.state, action, rng_for(table.row.seed, table.state.step + 1))
        except GameError as exc:
            return str(exc)
        return ""

    @staticmethod
    def _ballot_value(table, field, target: str | None, choice: str | None,
                      refusal: Callable[[str], str] | None = None) -> str:
        values = {c.value for c in field.choices}
        names = ", ".join(c.label for c in field.choices)
        if choice:
            typed = choice.strip().lower()
            found = next((c.value for c in field.choices if typed in (c.value.lower(), c.label.lower())), None)
            if found is None:
                raise GameError(f"{quoted(choice)} is not on this ballot. You can vote for: {names}.",
                                code="bad_target")
            return found
        seated = {p.id for p in table.state.players}
        if not values & seated and values - {NO_ONE}:
            raise GameError(f"This vote is not for a player: use `/vote choice:` with one of {names}, "
                            "or press **Make my choice**.", code="bad_target")
        if target is None:
            # no target: a vote for no one, where this vote offers that choice
            if NO_ONE not in values:
                raise GameError(f"Name someone to vote for: {names}.", code="bad_target")
            return NO_ONE
        if target not in values:
            raise GameError((refusal(target) if refusal else "")
                            or f"You can't vote for them now. You can vote for: {names}.", code="bad_target")
        return target

    async def status_text(self, row) -> str:
        game = games.get(row.kind)
        if row.status == "lobby":
            players = await self.bot.store.lobby_players(row.id)
            return (f"**{game.title}** (game #{row.id}) is gathering players: "
                    f"{', '.join(n for _, n in players)} ({len(players)}/{row.min_players}-{row.max_players}).")
        table = await self.service.load(row.id)
        clocks = row.deadlines
        if await self.service.opener_unposted(table):
            # the channel still plays what happened: the next phase (who survived) shows to no one yet
            clock = (f"\n⏳ The next phase's {duration(clocks.waiting)} start when its message is posted "
                     "in the channel." if clocks.waiting is not None else "")
            return f"**{game.title}** (game #{row.id})\nThe channel is still showing what happened.{clock}"
        text = game.view(table.state, None).text
        ends = schedule_of(table.game, table.state).ends
        if clocks.paused and ends and clocks.remaining is not None:
            text += "\n" + paused_ends(clocks.remaining, ends)
        elif clocks.paused:
            text += "\n⏸️ Paused" + (f" with {duration(clocks.remaining)} left." if clocks.remaining
                                     is not None else ".")
        elif clocks.close and ends:
            text += "\n⏳ " + " · ".join(f"{name} {relative_time(clocks.close + after)}" for name, after in ends)
        elif clocks.close:
            text += f"\n⏳ This phase closes {relative_time(clocks.close)}."
        elif clocks.waiting is not None:
            text += (f"\n⏳ This phase's {duration(clocks.waiting)} start when its message is posted "
                     "in the channel.")
        return f"**{game.title}** (game #{row.id})\n{text}"
