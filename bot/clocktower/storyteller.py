"""The Storyteller's commands (/st ...), and /travel in, a Traveller's sign-up.

Every /st command answers privately (a Storyteller's work is secret) and is refused in words to
anyone who is not one of the game's Storytellers. Everything that changes the game is an action
in the game's log, so a replay reproduces the Storyteller's choices too.
"""

from __future__ import annotations

import asyncio
import functools
import io
import json
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import games
from games.clocktower import Clocktower
from games.clocktower.characters import Team
from games.clocktower.script_characters import characters_for

from ..actor import Actor
from ..cogs.seats import join_seat
from ..interactions import actor_of, answered, reply
from ..logs import bind
from ..service import LobbyError, NoGameHere
from ..store import GameRow
from .needs import ClocktowerBot

#: the largest script file a Storyteller may attach (the official tool's scripts are a few KB)
MAX_SCRIPT_BYTES = 200_000
ALIGNMENTS = [app_commands.Choice(name="good", value="good"), app_commands.Choice(name="evil", value="evil")]
EDITIONS = [app_commands.Choice(name=name, value=value) for name, value in (
    ("Trouble Brewing", "tb"), ("Bad Moon Rising", "bmr"), ("Sects & Violets", "snv"),
    ("Her Royal Highness Register", "hrh"))]


async def character_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Every character a script may have: Her Royal Highness Register's and the 181 official ones (a
    homebrew character is typed by its name, which the game reads)."""
    typed = current.strip().lower()
    return [app_commands.Choice(name=f"{name} ({team})", value=cid)
            for cid, (name, team) in _known_characters().items() if typed in name.lower() or typed in cid][:25]


def _clocktower(row: GameRow) -> Clocktower:
    """The game of ``row`` when it is the Clocktower (the one with a script); refused in words otherwise."""
    game = games.get(row.kind)
    if not isinstance(game, Clocktower):
        raise NoGameHere("The game here has no script.")
    return game


@functools.cache
def _known_characters() -> dict[str, tuple[str, Team]]:
    from games.clocktower import catalogue, load

    return ({c.id: (c.name, c.team) for c in load().characters.values()}
            | {r.id: (r.name, r.team) for r in catalogue.load().records.values()})


class Storyteller(commands.Cog):
    st = app_commands.Group(name="st", description="The Storyteller's commands (Blood on the Clocktower)",
                            guild_only=True)
    cohost = app_commands.Group(name="cohost", description="Co-Storytellers of this game", parent=st)
    reminder = app_commands.Group(name="reminder", description="Reminder tokens on the grimoire", parent=st)
    traveller = app_commands.Group(name="traveller", description="Travellers in this game", parent=st)
    fabled = app_commands.Group(name="fabled", description="The Fabled in play", parent=st)
    travel = app_commands.Group(name="travel", description="Travel into a game (Blood on the Clocktower)",
                                guild_only=True)

    def __init__(self, bot: ClocktowerBot) -> None:
        self.bot = bot

    @property
    def service(self):
        return self.bot.service

    async def _row(self, interaction: discord.Interaction) -> GameRow:
        """The game of this channel, of this thread of the game, or of the channel this thread is in."""
        row = await self.service.game_here(interaction.channel_id, getattr(interaction.channel, "parent_id", None))
        bind(game_id=row.id)
        return row

    async def _st_game(self, interaction: discord.Interaction) -> GameRow:
        row = await self._row(interaction)
        if not games.get(row.kind).storytellers:
            raise NoGameHere("The game here has no Storyteller commands; see `/mod`.")
        await self.service.require_storyteller(row, actor_of(interaction))
        return row

    async def _act(self, interaction: discord.Interaction, action: dict[str, Any]) -> None:
        row = await self._st_game(interaction)
        if row.status != "running":
            raise LobbyError("The characters are not dealt yet: `/st deal` first.")
        outcome = await self.service.storyteller_act(row.id, actor_of(interaction), action)
        await reply(interaction, outcome.reply or "Done.")

    # ----- Travellers sign up -----
    @travel.command(name="in", description="Sign up as a Traveller (the Storyteller chooses your character)")
    @app_commands.describe(seat="The seat you want (leave it out for the first free one)")
    @answered(public=True)
    async def travel_in(self, interaction: discord.Interaction, seat: app_commands.Range[int, 1, 30] | None = None):
        await join_seat(self.bot, interaction, seat, "traveller")

    # ----- before the deal -----
    @cohost.command(name="add", description="Add a co-Storyteller to this game")
    @answered()
    async def cohost_add(self, interaction: discord.Interaction, member: discord.Member) -> None:
        row = await self._row(interaction)
        await self.service.add_storyteller(row.id, actor_of(interaction),
                                           Actor(id=member.id, name=member.display_name))
        await self.bot.delivery.sync_storytellers(row.id)
        await reply(interaction, f"{member.display_name} is now a Storyteller of game #{row.id}: they see "
                                 "the grimoire and sit in every private thread.")

    @cohost.command(name="remove", description="Remove a co-Storyteller")
    @answered()
    async def cohost_remove(self, interaction: discord.Interaction, member: discord.Member) -> None:
        row = await self._row(interaction)
        await self.service.remove_storyteller(row.id, actor_of(interaction), member.id)
        await self.bot.delivery.sync_storytellers(row.id, removed=member.id)
        await reply(interaction, f"{member.display_name} is no longer a Storyteller of game #{row.id}.")

    @st.command(name="threads", description="The text channel for private threads (needed when the game is a forum post)")
    @answered()
    async def threads(self, interaction: discord.Interaction, channel: discord.TextChannel) -> None:
        row = await self._st_game(interaction)
        if channel.guild.id != row.guild_id:
            raise LobbyError("That channel is on another server.")
        await self.service.set_thread_channel(row.id, actor_of(interaction), channel.id)
        await reply(interaction, f"Private and whisper threads of game #{row.id} will live under {channel.mention}.")

    @st.command(name="pool", description="The characters the deal may use: 'all', ids, or '-baron -po' to leave some out")
    @answered()
    async def pool(self, interaction: discord.Interaction, characters: app_commands.Range[str, 1, 600]) -> None:
        row = await self._st_game(interaction)
        game = _clocktower(row)
        if row.status == "running":
            script = (await self.service.load(row.id)).state.script
            chosen = game.parse_pool(characters, script)
            outcome = await self.service.storyteller_act(row.id, actor_of(interaction),
                                                         {"type": "redeal", "pool": list(chosen)})
            await reply(interaction, outcome.reply)
            return
        script = game.script_of(game.parse_options(row.options))
        chosen = game.parse_pool(characters, script)
        await self.service.set_option(row.id, actor_of(interaction), "pool", ",".join(chosen))
        names = ", ".join(characters_for(script)[c].name for c in chosen)
        await reply(interaction, f"The pool ({len(chosen)}): {names}.")

    @st.command(name="script", description="Choose the script: a base edition, or a Script Tool file (.json)")
    @app_commands.describe(edition="A base edition (Trouble Brewing is the one a new group plays first)",
                           file="A script file in the official Script Tool format (.json)")
    @app_commands.choices(edition=EDITIONS)
    @answered()
    async def script(self, interaction: discord.Interaction, edition: app_commands.Choice[str] | None = None,
                     file: discord.Attachment | None = None) -> None:
        from games.clocktower import parse_script, script_to_json
        from games.clocktower.script import builtin_script, edition_script

        row = await self._st_game(interaction)
        if row.status != "lobby":
            raise LobbyError("The script is chosen before the deal.")
        if (edition is None) == (file is None):
            raise LobbyError("Give one of them: `edition:` (Trouble Brewing, …) or `file:` (a Script Tool .json).")
        if edition is not None:
            script = builtin_script() if edition.value == "hrh" else edition_script(edition.value)
            text = "" if edition.value == "hrh" else script.name
        else:
            assert file is not None
            if file.size > MAX_SCRIPT_BYTES:
                raise LobbyError(f"That file is {file.size:,} bytes; a script is at most {MAX_SCRIPT_BYTES:,}.")
            script = parse_script(await file.read())
            text = json.dumps(script_to_json(script))
        await self.service.set_option(row.id, actor_of(interaction), "script", text)
        await self.service.set_option(row.id, actor_of(interaction), "pool", "")
        teams = ", ".join(f"{len(ids)} {team}" for team, ids in script.characters.items() if ids)
        await reply(interaction, f"Script loaded: **{script.name}** ({teams}). The pool is every character "
                                 "of the script; narrow it with `/st pool`.")

    @st.command(name="export", description="The game's script as a Script Tool JSON file")
    @answered()
    async def export(self, interaction: discord.Interaction) -> None:
        from games.clocktower import script_to_json

        row = await self._row(interaction)
        game = _clocktower(row)
        if row.status == "running":
            script = (await self.service.load(row.id)).state.script
        else:
            script = game.script_of(game.parse_options(row.options))
        data = json.dumps(script_to_json(script), indent=2).encode()
        name = "".join(ch if ch.isalnum() else "_" for ch in script.name.lower())[:40] or "script"
        await reply(interaction, f"**{script.name}**", file=discord.File(io.BytesIO(data), f"{name}.json"))

    # ----- the deal -----
    @st.command(name="deal", description="Close sign-ups and deal; you check the grimoire before anything is sent")
    @answered()
    async def deal(self, interaction: discord.Interaction) -> None:
        row = await self._st_game(interaction)
        await self.bot.play.start_game(interaction, row)
        await reply(interaction, "Dealt. The grimoire is below and in the Storytellers' thread. "
                                 "`/st redeal` deals again at random; `/st begin` sends the characters.")
        await self._send_grimoire(interaction, row.id)

    @st.command(name="redeal", description="Deal again at random (before the characters go out)")
    @answered()
    async def redeal(self, interaction: discord.Interaction) -> None:
        await self._act(interaction, {"type": "redeal"})
        await self._send_grimoire(interaction, (await self._row(interaction)).id)

    @st.command(name="begin", description="Send every player their character: the first night begins")
    @answered()
    async def begin(self, interaction: discord.Interaction) -> None:
        await self._act(interaction, {"type": "begin"})

    @st.command(name="grimoire", description="The whole truth: seats, characters, tokens (only you see it)")
    @answered()
    async def grimoire(self, interaction: discord.Interaction) -> None:
        row = await self._st_game(interaction)
        await self._send_grimoire(interaction, row.id)

    async def _send_grimoire(self, interaction: discord.Interaction, game_id: int) -> None:
        view = await self.service.grimoire(game_id, actor_of(interaction))
        table = await self.service.load(game_id)
        picture = table.game.picture(table.state, "grimoire")
        png = await asyncio.to_thread(table.game.draw, picture) if picture else None
        if png:
            await reply(interaction, view.text, file=discord.File(io.BytesIO(png), "grimoire.png"))
        else:
            await reply(interaction, view.text)

    # ----- during the game -----
    @st.command(name="kill", description="Mark a player dead (announced at dawn when done at night)")
    @answered()
    async def kill(self, interaction: discord.Interaction, player: discord.Member) -> None:
        await self._act(interaction, {"type": "kill", "target": str(player.id)})

    @st.command(name="revive", description="Bring a dead player back")
    @answered()
    async def revive(self, interaction: discord.Interaction, player: discord.Member) -> None:
        await self._act(interaction, {"type": "revive", "target": str(player.id)})

    @st.command(name="character", description="Change a player's character")
    @app_commands.describe(tell="Tell them their new character (default yes)")
    @app_commands.autocomplete(character=character_autocomplete)
    @answered()
    async def character(self, interaction: discord.Interaction, player: discord.Member,
                        character: app_commands.Range[str, 1, 50], tell: bool = True) -> None:
        await self._act(interaction, {
            "type": "set_character", "target": str(player.id), "character": character, "tell": tell})

    @st.command(name="alignment", description="Change a player's alignment (the Politician...)")
    @app_commands.describe(tell="Tell them (default yes)")
    @app_commands.choices(alignment=ALIGNMENTS)
    @answered()
    async def alignment(self, interaction: discord.Interaction, player: discord.Member, alignment: str,
                        tell: bool = True) -> None:
        await self._act(interaction, {
            "type": "set_alignment", "target": str(player.id), "alignment": alignment, "tell": tell})

    @reminder.command(name="add", description="Put a reminder token on a player")
    @app_commands.describe(token="The token's words, e.g. Poisoned", source="The character whose token it is "
                           "(leave it out for your own note)")
    @app_commands.autocomplete(source=character_autocomplete)
    @answered()
    async def reminder_add(self, interaction: discord.Interaction, player: discord.Member,
                           token: app_commands.Range[str, 1, 40],
                           source: app_commands.Range[str, 1, 50] | None = None) -> None:
        await self._act(interaction, {
            "type": "add_reminder", "target": str(player.id), "token": token, "source": source or ""})

    @reminder.command(name="remove", description="Take a reminder token off a player")
    @answered()
    async def reminder_remove(self, interaction: discord.Interaction, player: discord.Member,
                              token: app_commands.Range[str, 1, 40]) -> None:
        await self._act(interaction, {
            "type": "remove_reminder", "target": str(player.id), "token": token})

    @traveller.command(name="add", description="Seat a Traveller with the character and alignment you choose")
    @app_commands.autocomplete(character=character_autocomplete)
    @app_commands.choices(alignment=ALIGNMENTS)
    @app_commands.describe(seat="Their seat (default: the one they signed up for, else the first free one)")
    @answered()
    async def traveller_add(self, interaction: discord.Interaction, player: discord.Member,
                            character: app_commands.Range[str, 1, 50], alignment: str,
                            seat: app_commands.Range[int, 1, 30] | None = None) -> None:
        row = await self._st_game(interaction)
        chosen = seat or await self.service.traveller_seat(row, player.id)
        await self._act(interaction, {"type": "add_traveller", "target": str(player.id),
                                      "name": player.display_name, "seat": chosen, "character": character,
                                      "alignment": alignment})

    @traveller.command(name="leave", description="A Traveller leaves the game")
    @answered()
    async def traveller_leave(self, interaction: discord.Interaction, player: discord.Member) -> None:
        await self._act(interaction, {
            "type": "traveller_leaves", "target": str(player.id)})

    @traveller.command(name="apprentice", description="The Apprentice gains a Townsfolk (good) or Minion (evil) ability")
    @app_commands.autocomplete(character=character_autocomplete)
    @answered()
    async def traveller_apprentice(self, interaction: discord.Interaction, player: discord.Member,
                                   character: app_commands.Range[str, 1, 50]) -> None:
        await self._act(interaction, {
            "type": "apprentice", "target": str(player.id), "character": character})

    @traveller.command(name="barista", description="Tonight's Barista cup: a player sober & healthy, or acting twice")
    @app_commands.choices(effect=[app_commands.Choice(name="sober, healthy & true information", value="sober"),
                                  app_commands.Choice(name="their ability works twice", value="twice")])
    @answered()
    async def traveller_barista(self, interaction: discord.Interaction, player: discord.Member, effect: str) -> None:
        await self._act(interaction, {"type": "barista", "target": str(player.id), "effect": effect})

    @traveller.command(name="scapegoat", description="The Scapegoat is executed instead of today's executed player")
    @answered()
    async def traveller_scapegoat(self, interaction: discord.Interaction) -> None:
        await self._act(interaction, {"type": "scapegoat"})

    @traveller.command(name="bishop", description="Nominate a player (the Bishop: only the Storytellers nominate)")
    @answered()
    async def traveller_bishop(self, interaction: discord.Interaction, player: discord.Member) -> None:
        await self._act(interaction, {"type": "st_nominate", "target": str(player.id)})

    @traveller.command(name="matron", description="Swap two players' seats, as the Matron chose (3 a day)")
    @answered()
    async def traveller_matron(self, interaction: discord.Interaction, first: discord.Member,
                               second: discord.Member) -> None:
        await self._act(interaction, {"type": "swap_seats", "first": str(first.id), "second": str(second.id)})

    @fabled.command(name="fiddle", description="Use the Fiddler: the Demon chooses an opponent, then everyone votes who wins")
    @app_commands.describe(demon="The Demon who fiddles, when several live",
                           challenger="Choose the opponent yourself, for a Demon who does not")
    @answered()
    async def fiddle(self, interaction: discord.Interaction, demon: discord.Member | None = None,
                     challenger: discord.Member | None = None) -> None:
        await self._act(interaction, {
            "type": "fiddle", "demon": str(demon.id) if demon else "",
            "challenger": str(challenger.id) if challenger else ""})

    @fabled.command(name="silence", description="Call for silence (Hell's Librarian), or end it")
    @app_commands.describe(on="True to call for silence, False to end it")
    @answered()
    async def silence(self, interaction: discord.Interaction, on: bool = True) -> None:
        await self._act(interaction, {"type": "silence", "on": on})

    @fabled.command(name="add", description="Put a Fabled in play (announced with its effect)")
    @app_commands.autocomplete(fabled=character_autocomplete)
    @answered()
    async def fabled_add(self, interaction: discord.Interaction, fabled: app_commands.Range[str, 1, 50]) -> None:
        await self._act(interaction, {"type": "add_fabled", "fabled": fabled})

    @fabled.command(name="remove", description="Take a Fabled out of play")
    @app_commands.autocomplete(fabled=character_autocomplete)
    @answered()
    async def fabled_remove(self, interaction: discord.Interaction, fabled: app_commands.Range[str, 1, 50]) -> None:
        await self._act(interaction, {"type": "remove_fabled", "fabled": fabled})

    @st.command(name="tell", description="Send a player private information, in their thread")
    @answered()
    async def tell(self, interaction: discord.Interaction, player: discord.Member,
                   text: app_commands.Range[str, 1, 1500]) -> None:
        await self._act(interaction, {
            "type": "tell", "target": str(player.id), "text": text})

    @st.command(name="inform", description="Send a player tonight's information: the copilot's proposal, or your answer")
    @app_commands.describe(answer="Your answer instead of the proposal (checked against what the rules allow)")
    @answered()
    async def inform(self, interaction: discord.Interaction, player: discord.Member,
                     answer: app_commands.Range[str, 1, 200] | None = None) -> None:
        await self._act(interaction, {
            "type": "inform", "target": str(player.id), "answer": answer or ""})

    @st.command(name="substitute", description="A substitute takes over a player's seat, character and thread")
    @app_commands.rename(new="with")
    @answered()
    async def substitute(self, interaction: discord.Interaction, player: discord.Member,
                         new: discord.Member) -> None:
        row = await self._st_game(interaction)
        if new.bot or new.id in await self.service.storyteller_ids(row):
            raise LobbyError(f"{new.display_name} cannot take a seat in this game.")
        await self._act(interaction, {"type": "substitute", "target": str(player.id),
                                      "new_player": str(new.id), "name": new.display_name})

    @st.command(name="win", description="End the game: declare the winning team and reveal the grimoire")
    @app_commands.choices(team=ALIGNMENTS)
    @app_commands.describe(politician="The Politician was the player most responsible for their team's loss: "
                                      "they change alignment and win")
    @answered()
    async def win(self, interaction: discord.Interaction, team: str,
                  reason: app_commands.Range[str, 1, 500] | None = None, politician: bool = False) -> None:
        await self._act(interaction, {
            "type": "declare_winner", "team": team, "reason": reason or "", "politician": politician})

    @st.command(name="thief", description="The Thief's choice: this player's vote counts negatively tomorrow (today by day)")
    @answered()
    async def thief(self, interaction: discord.Interaction, player: discord.Member) -> None:
        await self._act(interaction, {"type": "count_negatively", "target": str(player.id)})

    @st.command(name="endvoting", description="End today's voting now (only when no tie or change of leader is possible)")
    @answered()
    async def end_voting(self, interaction: discord.Interaction) -> None:
        await self._act(interaction, {"type": "end_voting"})

    @st.command(name="execute", description="Execute a player now and end today's voting (the Virgin's "
                "Spy, or your ruling)")
    @answered()
    async def execute(self, interaction: discord.Interaction, player: discord.Member) -> None:
        await self._act(interaction, {"type": "execute", "target": str(player.id)})

    @st.command(name="whispers", description="The whisper ledger of a day: who, with whom, the cost, when it broke")
    @app_commands.describe(day="Which day (default: today)")
    @answered()
    async def whispers(self, interaction: discord.Interaction, day: app_commands.Range[int, 1, 99] | None = None) -> None:
        from games.clocktower.talk import whisper_ledger
        from games.engine import RECORD, Event

        row = await self._st_game(interaction)
        if row.status != "running":
            raise LobbyError("The game has not begun.")
        state = (await self.service.load(row.id)).state
        rows = await self.bot.store.timed_records(row.id)
        records = [Event(type=kind, audience=RECORD, data=data) for kind, data, _at in rows]
        times = [f"<t:{int(at)}:f>" for _kind, _data, at in rows]
        await reply(interaction, whisper_ledger(state, records, day or max(state.day, 1), times))

    @st.command(name="continue", description="Go on with the game after an end you do not confirm")
    @answered()
    async def continue_game(self, interaction: discord.Interaction) -> None:
        await self._act(interaction, {"type": "continue"})
