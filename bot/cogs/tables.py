"""Slash commands of the lobby and the table: /game ..., /vote, /storyteller; and a member's
"Vote for" menu, which is /vote on that member."""

from __future__ import annotations

import logging
from typing import Any, Protocol

import discord
from discord import app_commands
from discord.ext import commands

import games
from games.engine.errors import GameError
from games.engine.options import describe

from ..interactions import actor_of, answered, defer_publicly, reply
from ..logs import bind
from ..play import Play
from ..render import chunks
from ..service import GameService, NoGameHere, VoiceTaken
from ..store import Store
from ..views import lobby_view
from ..voice.link import link_problem, options_words
from ..voice.mutes import VoiceTable
from .menus import add_user_menu, member_here, remove_menu

log = logging.getLogger(__name__)


class TablesBot(Protocol):
    """What the table commands use of the bot."""

    service: GameService
    store: Store
    play: Play  # the lobby's and the game's messages, the votes
    voice: VoiceTable  # tell_host

    @property
    def tree(self) -> app_commands.CommandTree[Any]: ...


async def kind_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The installed games, filtered by what the user typed (name or title)."""
    found = []
    for name in games.available():
        title = games.get(name).title
        if current.lower() in name or current.lower() in title.lower():
            found.append(app_commands.Choice(name=title, value=name))
    return found[:25]


#: one embed's text, and one message's embeds together, within Discord's limits (4,096 and 6,000)
RULES_PART = 3900
RULES_MESSAGE = 5800


def rules_messages(game) -> list[list[discord.Embed]]:
    """``/game rules``: the whole summary, then every option in words, as embeds of at most
    ``RULES_PART`` characters, grouped into messages; nothing is cut off."""
    colour = discord.Colour.dark_purple()
    parts = [(game.title, piece) for piece in chunks(game.rules_summary(), RULES_PART)]
    options = describe(game.Options)
    heading = "Options: `/game new options:key=value key2=value2`"
    parts += [(heading, piece) for piece in chunks("\n".join(options) or "none", RULES_PART)]
    messages: list[list[discord.Embed]] = [[]]
    size = 0
    for index, (title, text) in enumerate(parts):
        repeated = index and parts[index - 1][0] == title
        embed = discord.Embed(title=None if repeated else title, description=text, colour=colour)
        if messages[-1] and size + len(text) + len(title) > RULES_MESSAGE:
            messages.append([])
            size = 0
        messages[-1].append(embed)
        size += len(text) + len(title)
    return messages


#: Discord's limits on a message's embeds: a description, all of a message's embeds together, how many
EMBED_DESCRIPTION = 4096
MESSAGE_EMBEDS_CHARS = 6000
MESSAGE_EMBEDS = 10


def sheet_messages(sheet) -> list[list[discord.Embed]]:
    """``/game script``: a script sheet (a game's ``script_sheet``: a title and titled sections of
    lines) as messages of
    embeds, one embed per section (a long section in several, cut between lines), each message
    within Discord's limits; nothing is cut off."""
    colour = discord.Colour.dark_teal()
    embeds: list[discord.Embed] = []
    for section in sheet.sections:
        pieces = chunks("\n".join(section.lines) or "\u200b", EMBED_DESCRIPTION)
        for index, piece in enumerate(pieces):
            title = section.title if index == 0 else f"{section.title} (continued)"
            embeds.append(discord.Embed(title=title[:256], description=piece, colour=colour))
    if embeds:
        embeds[0].set_author(name=f"📜 {sheet.title}"[:256])
    messages: list[list[discord.Embed]] = [[]]
    for embed in embeds:
        size = sum(len(e) for e in messages[-1])
        if messages[-1] and (len(messages[-1]) == MESSAGE_EMBEDS or size + len(embed) > MESSAGE_EMBEDS_CHARS):
            messages.append([])
        messages[-1].append(embed)
    return messages


def scripted_titles() -> str:
    """The installed games that have a script (``script_sheet``), by title."""
    return " and ".join(games.get(name).title for name in games.available()
                        if hasattr(games.get(name), "script_sheet")) or "no game installed here"


def linked_voice(interaction: discord.Interaction, kind: str, named: discord.VoiceChannel | None) -> int | None:
    """The voice channel a new game is played in: the one named, else, for a quick game (not a
    forum game run by Storytellers), the one its host is in now."""
    if named is not None:
        return named.id
    if kind not in games.available() or games.get(kind).storytellers:
        return None
    state = getattr(interaction.user, "voice", None)
    channel = getattr(state, "channel", None)
    return channel.id if channel is not None and getattr(channel, "guild", None) == interaction.guild else None


class Tables(commands.Cog):
    game = app_commands.Group(name="game", description="Set up, join and play games", guild_only=True)

    def __init__(self, bot: TablesBot) -> None:
        self.bot = bot
        self._menus: list[app_commands.ContextMenu] = []

    async def cog_load(self) -> None:
        self._menus = [add_user_menu(self.bot.tree, "Vote for", self.vote_for)]

    async def cog_unload(self) -> None:
        for menu in self._menus:
            remove_menu(self.bot.tree, menu)

    @property
    def service(self):
        return self.bot.service

    @game.command(name="new", description="Open a game in this channel and gather players")
    @app_commands.describe(kind="Which game", options="Game options as key=value, e.g. choosing_seconds=60",
                           min_players="Fewest players to start", max_players="Most players allowed",
                           voice="The voice channel the game is played in (by default the one you are in)")
    @app_commands.autocomplete(kind=kind_autocomplete)
    @answered(public=True)
    async def new(self, interaction: discord.Interaction, kind: str, options: str | None = None,
                  min_players: app_commands.Range[int, 1, 30] | None = None,
                  max_players: app_commands.Range[int, 1, 30] | None = None,
                  voice: discord.VoiceChannel | None = None) -> None:
        async def open_game(voice_channel_id: int | None):
            return await self.service.new_game(
                kind=kind, guild_id=interaction.guild_id, channel_id=interaction.channel_id,
                host=actor_of(interaction), options_text=options, min_players=min_players,
                max_players=max_players, voice_channel_id=voice_channel_id)

        note = None
        try:
            row = await open_game(linked_voice(interaction, kind, voice))
        except VoiceTaken as taken:
            if voice is not None:  # the channel named is refused, and no game opens
                raise
            # the host's own voice channel is another game's table: the game opens unlinked
            row, note = await open_game(None), taken.unlinked()
        if row.voice_channel_id is not None:
            note = options_words(row) or None
        await reply(interaction, note, embed=await self.bot.play.lobby_embed(row.id),
                    view=lobby_view(row.id), ephemeral=False)
        await self.bot.play.remember_lobby(interaction, row.id)
        await self._tell_link_problem(interaction, row)

    async def _tell_link_problem(self, interaction: discord.Interaction, row) -> None:
        """Whoever linked the game learns at once, privately, of a permission the bot lacks there
        (and the host too, by DM, when a moderator linked it)."""
        problem = await link_problem(self.bot, row) if row.voice_channel_id is not None else None
        if problem:
            await reply(interaction, problem)
            if interaction.user.id != row.host_id:
                await self.bot.voice.tell_host(row, problem)

    @game.command(name="voice", description="Link the game to a voice channel, or unlink it (host)")
    @app_commands.describe(channel="The voice channel the game is played in (leave it out to unlink)")
    @answered(public=True)
    async def voice(self, interaction: discord.Interaction, channel: discord.VoiceChannel | None = None) -> None:
        row = await self._in_channel(interaction)
        row = await self.service.set_voice_channel(row.id, actor_of(interaction), channel.id if channel else None)
        said = (f"🔊 Game #{row.id} is played in {channel.mention}." if channel else
                f"🔇 Game #{row.id} has no voice channel now: I mute no one and say nothing aloud.")
        if channel and options_words(row):
            said += " " + options_words(row)
        if row.status == "lobby":  # the answer, with the sign-up sheet's Voice line brought up to date
            await self.bot.play.show_signups(interaction, row.id, said)
        else:
            await reply(interaction, said, ephemeral=False)
        await self._tell_link_problem(interaction, row)

    async def _in_channel(self, interaction: discord.Interaction):
        row = await self.service.game_in_channel(interaction.channel_id)
        bind(game_id=row.id)
        return row

    @game.command(name="join", description="Join the game gathering in this channel")
    @answered(public=True)
    async def join(self, interaction: discord.Interaction) -> None:
        row = await self._in_channel(interaction)
        await self.service.join(row.id, actor_of(interaction))
        await self.bot.play.show_signups(interaction, row.id, f"{interaction.user.display_name} joins.")

    @game.command(name="leave", description="Leave the game gathering in this channel")
    @answered(public=True)
    async def leave(self, interaction: discord.Interaction) -> None:
        row = await self._in_channel(interaction)
        await self.service.leave(row.id, actor_of(interaction))
        await self.bot.play.show_signups(interaction, row.id, f"{interaction.user.display_name} leaves.")

    @game.command(name="start", description="Start the game (host)")
    @answered(public=True)
    async def start(self, interaction: discord.Interaction) -> None:
        row = await self._in_channel(interaction)
        await self.bot.play.start_game(interaction, row)
        await reply(interaction, "The game has begun. Check your private messages (or press **My hand**).",
                    ephemeral=False)

    @game.command(name="cancel", description="Cancel the game in this channel (host or Manage Server)")
    @answered(public=True)
    async def cancel(self, interaction: discord.Interaction) -> None:
        row = await self._in_channel(interaction)
        await self.service.cancel(row.id, actor_of(interaction))
        await reply(interaction, f"Game #{row.id} was cancelled by {interaction.user.display_name}.",
                    ephemeral=False)

    @game.command(name="status", description="Where the game in this channel stands")
    @answered()
    async def status(self, interaction: discord.Interaction) -> None:
        row = await self._in_channel(interaction)
        await reply(interaction, await self.bot.play.status_text(row))

    @game.command(name="list", description="The active games of this server")
    @answered()
    async def list_games(self, interaction: discord.Interaction) -> None:
        rows = await self.bot.store.active_games(interaction.guild_id)
        if not rows:
            await reply(interaction, "No games are running here. Start one with `/game new`.")
            return
        lines = [f"• #{r.id} **{games.get(r.kind).title}** in <#{r.channel_id}>: {r.status}"
                 + (" (paused)" if r.paused else "") for r in rows]
        await reply(interaction, "\n".join(lines))

    @game.command(name="rules", description="A summary of a game's rules and its options")
    @app_commands.autocomplete(kind=kind_autocomplete)
    @answered()
    async def rules(self, interaction: discord.Interaction, kind: str) -> None:
        game = games.get(kind)
        for embeds in rules_messages(game):
            await reply(interaction, embeds=embeds)

    @game.command(name="hand", description="Your secret information and choices, privately")
    @answered()
    async def hand(self, interaction: discord.Interaction) -> None:
        row = await self._in_channel(interaction)
        await self.bot.play.show_private(interaction, row.id, with_view=True)

    @game.command(name="script", description="The game's script, in a game that has one: each character's "
                  "ability, the jinxes and the night order")
    @app_commands.describe(public="Post it in the channel for everyone (the Storytellers); else only you see it")
    @answered()
    async def script(self, interaction: discord.Interaction, public: bool = False) -> None:
        # decided first, so that a slow answer's deferral is public only for a Storyteller (one
        # whose check outlasted the watchdog was deferred privately: the sheet stays private)
        storyteller = public and await self._storyteller_here(interaction)
        to_all = storyteller and await defer_publicly(interaction)
        row = await self.service.game_here(interaction.channel_id, getattr(interaction.channel, "parent_id", None))
        bind(game_id=row.id)
        game = games.get(row.kind)
        sheet_of = getattr(game, "script_sheet", None)  # only a game with a script has one
        if sheet_of is None:
            raise NoGameHere(f"The game here is {game.title}, which has no script: `/game script` is for "
                             f"{scripted_titles()}.")
        state = (await self.service.load(row.id)).state if row.status == "running" else None
        sheet = sheet_of(row.options, state)
        note = None
        if public and not storyteller:
            note = "Only this game's Storytellers post the script for everyone; here it is for you."
        elif storyteller and not to_all:
            note = "I was slow to answer, so here it is for you alone: ask again to post it for everyone."
        for index, embeds in enumerate(sheet_messages(sheet)):
            await reply(interaction, note if index == 0 else None, embeds=embeds, ephemeral=not to_all)

    async def _storyteller_here(self, interaction: discord.Interaction) -> bool:
        """Whether the asker is a Storyteller of this channel's game (False when there is none).
        Any failure here is a False (the answer goes privately), and the command then says what is
        wrong."""
        try:
            row = await self.service.game_here(interaction.channel_id, getattr(interaction.channel, "parent_id", None))
            await self.service.require_storyteller(row, actor_of(interaction))
        except GameError:
            return False
        except Exception as exc:  # (a database that did not answer: the sheet comes privately)
            log.warning("channel %s: could not tell whether %s is a Storyteller (%s); answering privately",
                        interaction.channel_id, interaction.user.id, exc)
            return False
        return True

    @app_commands.command(name="vote", description="Vote in whatever vote this channel's game has open")
    @app_commands.describe(target="Who you vote for (leave it out to vote for no one, where the vote allows it)",
                           choice="What you vote for, in a vote that is not for a player (an ingredient...)")
    @app_commands.guild_only()
    @answered()
    async def vote(self, interaction: discord.Interaction, target: discord.Member | None = None,
                   choice: app_commands.Range[str, 1, 100] | None = None) -> None:
        await self.bot.play.vote(interaction, target.id if target else None, choice)

    @answered()
    async def vote_for(self, interaction: discord.Interaction, member: discord.Member | discord.User) -> None:
        """A member's menu, "Vote for": ``/vote target:`` that member, the same work and answer."""
        await self.bot.play.vote(interaction, member_here(interaction, member).id, None)

    @vote.autocomplete("choice")
    async def vote_choice_autocomplete(self, interaction: discord.Interaction,
                                       current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=label[:100], value=value[:100])
                for label, value in await self.bot.play.vote_choices(interaction, current)]

    @app_commands.command(name="storyteller-role", description="Set the role whose members moderate games here")
    @app_commands.describe(role="The storyteller role (leave empty to clear it)")
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.guild_only()
    @answered()
    async def storyteller_role(self, interaction: discord.Interaction, role: discord.Role | None = None) -> None:
        if not actor_of(interaction).manage_guild:
            await reply(interaction, "Only a member with Manage Server can set the storyteller role.")
            return
        if interaction.guild_id is None:  # (a server-only command; Discord says so too)
            await reply(interaction, "The storyteller role is set on a server, not here.")
            return
        await self.bot.store.set_storyteller_role(interaction.guild_id, role.id if role else None)
        await reply(interaction, f"Storyteller role: {role.mention if role else 'none'}.")
