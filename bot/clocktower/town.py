"""The town's own commands in a Clocktower game: /whisper (and a member's "Whisper" menu),
/neighbour, /announce, /exile; and the listener that breaks a whisper when one of its players
speaks in the town square.

Each command tells the game where it was used (the town square, the announcement thread, another
thread of the game): the rules decide what counts where, and refuse in words what does not.
"""

from __future__ import annotations

import logging
import time
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import games
from games.engine import GameError

from ..cogs.menus import add_user_menu, member_here, remove_menu
from ..delivery import PUBLIC_THREAD
from ..interactions import answered, reply
from ..service import NoGameHere, NotSaved
from ..store import GameRow
from .needs import ClocktowerBot
from .storyteller import character_autocomplete

log = logging.getLogger(__name__)
#: how long the listener trusts what it learnt of a channel (no game there, or the game and place):
#: a whisper needs a whole night after the deal, so a game started since is never missed
PLACE_SECONDS = 60.0
EXILE_VOTES = [app_commands.Choice(name=v, value=v) for v in ("yes", "no", "withdraw")]


class Town(commands.Cog):
    announce = app_commands.Group(name="announce", description="A public announcement, in the game's "
                                  "announcement thread (Blood on the Clocktower)", guild_only=True)

    def __init__(self, bot: ClocktowerBot) -> None:
        self.bot = bot
        #: channel id -> (until, game id or None, place)
        self._places: dict[int, tuple[float, int | None, str]] = {}
        self._menus: list[app_commands.ContextMenu] = []

    async def cog_load(self) -> None:
        self._menus = [add_user_menu(self.bot.tree, "Whisper", self.whisper_with)]

    async def cog_unload(self) -> None:
        for menu in self._menus:
            remove_menu(self.bot.tree, menu)

    @property
    def service(self):
        return self.bot.service

    async def place_of(self, row: GameRow, channel_id: int | None) -> str:
        """Where in the game a channel is: its town square, its announcement thread, another thread
        (None, an interaction with no channel: elsewhere)."""
        if channel_id is None:
            return "elsewhere"
        if channel_id == row.channel_id:
            return "town_square"
        found = await self.bot.store.group_thread(row.id, f"{PUBLIC_THREAD}announcements")
        if found is not None and found[0] == channel_id:
            return "announcements"
        return "thread" if await self.bot.store.game_of_thread(channel_id) else "elsewhere"

    async def _act(self, interaction: discord.Interaction, action: dict[str, Any], *, with_place: bool) -> None:
        row, _table = await self.bot.play.seated_table(interaction)
        if not games.get(row.kind).storytellers:
            raise NoGameHere("This command belongs to Blood on the Clocktower; the game here is another.")
        uid = str(interaction.user.id)
        if with_place:
            action["place"] = await self.place_of(row, interaction.channel_id)
        outcome = await self.service.act(row.id, interaction.user.id, {**action, "player": uid})
        await reply(interaction, outcome.reply or "Done.")

    # ----- whispers -----
    @app_commands.command(name="whisper", description="Declare a whisper (in the announcement thread): a "
                          "private thread with these players")
    @app_commands.describe(player="Whom you whisper", player2="Another player in the same whisper (costs one more)",
                           player3="Another player", player4="Another player", player5="Another player")
    @app_commands.guild_only()
    @answered()
    async def whisper(self, interaction: discord.Interaction, player: discord.Member,
                      player2: discord.Member | None = None, player3: discord.Member | None = None,
                      player4: discord.Member | None = None, player5: discord.Member | None = None) -> None:
        chosen = [str(m.id) for m in (player, player2, player3, player4, player5) if m is not None]
        await self._act(interaction, {"type": "whisper", "players": chosen}, with_place=True)

    @answered()
    async def whisper_with(self, interaction: discord.Interaction, member: discord.Member | discord.User) -> None:
        """A member's menu, "Whisper": ``/whisper player:`` that member, the same work and answer."""
        await self._act(
            interaction, {"type": "whisper", "players": [str(member_here(interaction, member).id)]}, with_place=True)

    @app_commands.command(name="neighbour", description="Whisper a neighbour: at most 15 words, once a day "
                          "each, not announced")
    @app_commands.describe(to="Your neighbour", text="What you whisper (at most 15 words)")
    @app_commands.guild_only()
    @answered()
    async def neighbour(self, interaction: discord.Interaction, to: discord.Member,
                        text: app_commands.Range[str, 1, 300]) -> None:
        await self._act(
            interaction, {"type": "neighbour_whisper", "target": str(to.id), "text": text}, with_place=False)

    # ----- public announcements -----
    @announce.command(name="alsaahir", description="Guess, as the Alsaahir, which players are the Demon(s) "
                      "and the Minion(s)")
    @answered()
    async def alsaahir(self, interaction: discord.Interaction, demon: discord.Member,
                       minion: discord.Member | None = None, minion2: discord.Member | None = None,
                       minion3: discord.Member | None = None, minion4: discord.Member | None = None,
                       demon2: discord.Member | None = None) -> None:
        minions = [str(m.id) for m in (minion, minion2, minion3, minion4) if m is not None]
        demons = [str(m.id) for m in (demon, demon2) if m is not None]
        await self._act(
            interaction, {"type": "alsaahir_guess", "minions": minions, "demons": demons}, with_place=True)

    @announce.command(name="juggler", description="Guess, as the Juggler, up to 5 players' characters")
    @app_commands.autocomplete(character=character_autocomplete, character2=character_autocomplete,
                               character3=character_autocomplete, character4=character_autocomplete,
                               character5=character_autocomplete)
    @answered()
    async def juggler(self, interaction: discord.Interaction, player: discord.Member,
                      character: app_commands.Range[str, 1, 50],
                      player2: discord.Member | None = None, character2: app_commands.Range[str, 1, 50] | None = None,
                      player3: discord.Member | None = None, character3: app_commands.Range[str, 1, 50] | None = None,
                      player4: discord.Member | None = None, character4: app_commands.Range[str, 1, 50] | None = None,
                      player5: discord.Member | None = None,
                      character5: app_commands.Range[str, 1, 50] | None = None) -> None:
        pairs = [(player, character), (player2, character2), (player3, character3), (player4, character4),
                 (player5, character5)]
        guesses: dict[str, str] = {}
        for n, (member, guess) in enumerate(pairs, start=1):
            if (member is None) != (guess is None):
                raise GameError(f"Guess {n} needs both a player and a character.", code="bad_guess")
            if member is not None and guess is not None:
                guesses[str(member.id)] = guess
        await self._act(interaction, {"type": "juggler_guess", "guesses": guesses}, with_place=True)

    @announce.command(name="goblin", description="Claim to be the Goblin (counts when you are nominated)")
    @answered()
    async def goblin(self, interaction: discord.Interaction) -> None:
        await self._act(interaction, {"type": "goblin_claim"}, with_place=True)

    @announce.command(name="slayer", description="Choose a player, as the Slayer (once per game): if they are "
                      "the Demon, they die")
    @answered()
    async def slayer(self, interaction: discord.Interaction, player: discord.Member) -> None:
        await self._act(interaction, {"type": "slayer_shot", "target": str(player.id)}, with_place=True)

    @announce.command(name="gossip", description="Make a public statement, as the Gossip (once a day): if it "
                      "was true, a player dies tonight")
    @answered()
    async def gossip(self, interaction: discord.Interaction, statement: app_commands.Range[str, 1, 300]) -> None:
        await self._act(interaction, {"type": "gossip_statement", "statement": statement}, with_place=True)

    @announce.command(name="klutz", description="Choose, as the Klutz once dead, 1 alive player: if they are evil, "
                      "your team loses")
    @answered()
    async def klutz(self, interaction: discord.Interaction, player: discord.Member) -> None:
        await self._act(interaction, {"type": "klutz_choice", "target": str(player.id)}, with_place=True)

    @announce.command(name="judge", description="Force, as the Judge (once per game), a nominee's execution to "
                      "pass or fail")
    @app_commands.choices(verdict=[app_commands.Choice(name="pass: executed now", value="pass"),
                                   app_commands.Choice(name="fail: not executed today", value="fail")])
    @answered()
    async def judge(self, interaction: discord.Interaction, player: discord.Member, verdict: str) -> None:
        await self._act(interaction, {"type": "judge_ruling", "target": str(player.id), "verdict": verdict},
                        with_place=False)

    @announce.command(name="butcher", description="Nominate again, as the Butcher, after today's execution")
    @answered()
    async def butcher(self, interaction: discord.Interaction, player: discord.Member) -> None:
        await self._act(interaction, {"type": "butcher_nominate", "target": str(player.id)}, with_place=False)

    @announce.command(name="gunslinger", description="Shoot, as the Gunslinger (once a day), a player that voted "
                      "today: they die")
    @answered()
    async def gunslinger(self, interaction: discord.Interaction, player: discord.Member) -> None:
        await self._act(interaction, {"type": "gunslinger_shot", "target": str(player.id)}, with_place=True)

    @app_commands.command(name="givetoken", description="Give your vote token to the Beggar (the dead only)")
    @app_commands.guild_only()
    @answered()
    async def givetoken(self, interaction: discord.Interaction, beggar: discord.Member) -> None:
        await self._act(interaction, {"type": "give_token", "target": str(beggar.id)}, with_place=False)

    # ----- exile -----
    @app_commands.command(name="exile", description="Vote on a Traveller's exile (the first yes calls it); "
                          "alive and dead vote freely")
    @app_commands.choices(vote=EXILE_VOTES)
    @app_commands.guild_only()
    @answered()
    async def exile(self, interaction: discord.Interaction, traveller: discord.Member, vote: str = "yes") -> None:
        await self._act(
            interaction, {"type": "exile_vote", "target": str(traveller.id), "vote": vote}, with_place=False)

    # ----- breaking whispers -----
    async def _where(self, channel: discord.abc.Messageable) -> tuple[int | None, str]:
        """The running Clocktower game this channel belongs to and where in it, remembered a while
        so that ordinary chatter costs no database read."""
        channel_id = getattr(channel, "id", 0)
        now = time.monotonic()
        known = self._places.get(channel_id)
        if known is not None and known[0] > now:
            return known[1], known[2]
        row = (await self.bot.store.active_game_in_channel(channel_id)
               or await self.bot.store.game_of_thread(channel_id))
        game_id, place = None, ""
        if row is not None and row.status == "running" and games.get(row.kind).storytellers:
            game_id, place = row.id, await self.place_of(row, channel_id)
        if len(self._places) > 10_000:
            self._places.clear()
        self._places[channel_id] = (now + PLACE_SECONDS, game_id, place)
        return game_id, place

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        """A player in an open whisper who posts in the town square breaks it, and one who posts
        during a Hell's Librarian silence is reported (the rules say which posts count). Everyone
        else's messages cost one cached lookup."""
        if message.author.bot or message.guild is None:
            return
        try:
            game_id, place = await self._where(message.channel)
            if game_id is None or place not in ("town_square", "announcements"):
                return
            table = await self.service.load(game_id)
            player = str(message.author.id)
            if not table.game.spoke_matters(table.state, player, place):
                return
            await self.service.act(game_id, message.author.id, {"type": "spoke", "player": player, "place": place},
                                   moderator=True)
        except NotSaved:
            log.warning("game %s: a post by %s broke a whisper or a silence, but the database refused it",
                        game_id, message.author.id)
        except GameError:
            return  # the game ended or moved on meanwhile: nothing to break
        except Exception:
            log.exception("message %s: checking whispers failed", message.id)
