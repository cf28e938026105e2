"""The one answer path (``bot.interactions.answered``) on simcord: every command, member's menu,
component and form of the bot goes through it; a refusal is answered in its words, anything else
with the apology and a log line naming the game; and an answer slow to come is deferred within
Discord's 3 seconds, as publicly as the command answers. The slow bodies wait on simcord's virtual
clock (Discord's 3 seconds are kept on it too), so no test waits real seconds."""

from __future__ import annotations

import asyncio
import json
import logging

import discord
from discord import app_commands
from support.clocktower_helpers import CHARS, begun, copilot_panel, sign_up, state_of

from bot.interactions import APOLOGY, DEFER_AFTER, answered, is_answered
from bot.logs import JsonFormatter

#: more than Discord's 3 seconds, on simcord's clock
SLOW = 5


async def parked(w, interaction):
    """Run ``interaction`` (a member's slash or click) with simcord's settle deadline just short of
    the watchdog's wait. Simcord parks a bot's sleep that ends past that deadline, to fire only when
    the test moves its clock, so neither the watchdog nor the slow body waits on the real clock,
    and the test steps over each with ``advance_time``. (Only around the slow interaction: the
    set-up keeps simcord's usual deadline for its real work on a busy machine.)"""
    usual, w.env.settle_timeout = w.env.settle_timeout, DEFER_AFTER - 0.1
    try:
        return await interaction
    finally:
        w.env.settle_timeout = usual


async def past_the_watchdog(w):
    """Simcord's clock moved past the watchdog's wait: a deferral due goes out."""
    await w.env.advance_time(DEFER_AFTER + 0.5)


async def past_the_slow_body(w):
    """Simcord's clock moved past the slow body: its answer follows, and all it sent is delivered."""
    await w.env.advance_time(SLOW)
    await w.settle()


def unanswered_commands(tree: app_commands.CommandTree) -> tuple[list[str], int]:
    """The app commands and members' menus of ``tree`` whose callback skips ``answered``, and
    how many were looked at."""
    found, seen = [], 0
    for kind in discord.AppCommandType:
        for command in tree.walk_commands(type=kind):
            if isinstance(command, app_commands.Group):
                continue
            seen += 1
            if not is_answered(command.callback):
                found.append(command.qualified_name)
    return found, seen


def subclasses(cls: type) -> list[type]:
    found = []
    for sub in cls.__subclasses__():
        found += [sub, *subclasses(sub)]
    return found


def component_callbacks(module_prefix: str) -> dict[str, object]:
    """Every component's and form's callback defined in modules under ``module_prefix``: a
    ``DynamicItem``'s ``callback``, a ``View``'s decorated buttons and selects, a ``Modal``'s
    ``on_submit``."""
    found: dict[str, object] = {}
    for base, names in ((discord.ui.DynamicItem, ("callback",)), (discord.ui.Modal, ("on_submit",))):
        for cls in subclasses(base):
            if cls.__module__.startswith(module_prefix):
                found |= {f"{cls.__name__}.{name}": cls.__dict__[name] for name in names
                          if name in cls.__dict__}
    for cls in subclasses(discord.ui.View):
        if cls.__module__.startswith(module_prefix):
            found |= {f"{cls.__name__}.{name}": item for name, item in cls.__view_children_items__.items()}
    return found


def unanswered_components(module_prefix: str) -> list[str]:
    return sorted(name for name, callback in component_callbacks(module_prefix).items()
                  if not is_answered(callback))


# ----- nothing bypasses the path -----

async def test_every_command_menu_component_and_form_of_the_bot_answers_through_one_path(world):
    w = world
    missing, seen = unanswered_commands(w.bot.tree)
    assert missing == []
    names = {c.qualified_name for kind in discord.AppCommandType for c in w.bot.tree.walk_commands(type=kind)}
    assert {"game new", "vote", "mod skip", "in", "st kill", "st cohost add", "whisper", "announce juggler",
            "Vote for", "Whisper", "Remove from game"} <= names
    assert seen > 60
    components = component_callbacks("bot.")
    assert {"TableButton.callback", "ChoiceSelect.callback", "ChoiceButton.callback", "RemoveButton.callback",
            "CopilotButton.callback", "CopilotSelect.callback", "AnswerForm.on_submit"} <= set(components)
    assert unanswered_components("bot.") == []


async def test_a_command_or_a_component_that_skips_the_path_is_named():
    """The walks above can fail: a command, a menu, a component and a view's button written
    without ``answered`` are each named, and their answered twins are not."""
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))

    @tree.command(name="plain")
    async def plain(interaction: discord.Interaction) -> None: ...

    @tree.command(name="kept")
    @answered()
    async def kept(interaction: discord.Interaction, count: int) -> None: ...

    @tree.context_menu(name="Plain menu")
    async def plain_menu(interaction: discord.Interaction, member: discord.Member) -> None: ...

    assert unanswered_commands(tree) == (["plain", "Plain menu"], 3)
    assert [p.name for p in tree.get_command("kept").parameters] == ["count"]  # its own parameters

    class PlainButton(discord.ui.DynamicItem[discord.ui.Button], template=r"plain:(?P<n>\d+)"):
        async def callback(self, interaction: discord.Interaction) -> None: ...

    class KeptButton(discord.ui.DynamicItem[discord.ui.Button], template=r"kept:(?P<n>\d+)"):
        @answered()
        async def callback(self, interaction: discord.Interaction) -> None: ...

    class PlainView(discord.ui.View):
        @discord.ui.button(label="Plain")
        async def press(self, interaction: discord.Interaction, button: discord.ui.Button) -> None: ...

    assert unanswered_components(__name__) == ["PlainButton.callback", "PlainView.press"]


# ----- a refusal in words, anything else the apology and the log -----

async def test_a_refusal_is_answered_in_its_words_privately_by_a_command_and_a_component(world):
    w = world
    res = await w.ann.slash(w.channel, "game join")
    assert res.ephemeral and res.response.content == "There is no game in this channel. Start one with `/game new`."
    lobby = (await w.host.slash(w.channel, "game new", kind="tally")).response
    res = await w.ann.click(lobby, label="Start")
    assert res.ephemeral and res.response.content == "Only the host can start the game."
    assert (await w.bot.service.game_in_channel(w.channel.id)).status == "lobby"


class JsonLines(logging.Handler):
    """The log lines as ``LOG_FORMAT=json`` writes them, formatted as they are logged (the game's
    fields are read from the context of the moment)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.setFormatter(JsonFormatter())
        self.lines: list[dict] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(json.loads(self.format(record)))


async def test_an_unexpected_error_is_the_apology_and_one_log_line_naming_the_game(world, monkeypatch):
    w = world
    lobby = (await w.host.slash(w.channel, "game new", kind="tally")).response
    game_id = (await w.bot.service.game_in_channel(w.channel.id)).id

    async def broken(*_args, **_kwargs):
        raise RuntimeError("the disk caught fire")

    monkeypatch.setattr(w.bot.service, "join", broken)
    lines = JsonLines()
    logging.getLogger("bot.interactions").addHandler(lines)
    try:
        by_button = await w.ann.click(lobby, label="Join")
        by_command = await w.bo.slash(w.channel, "game join")
    finally:
        logging.getLogger("bot.interactions").removeHandler(lines)
    for res in (by_button, by_command):
        assert res.ephemeral and res.response.content == APOLOGY
    # the button carries its game; the command finds it as it runs
    for line, user in zip(lines.lines, (w.ann, w.bo), strict=True):
        assert line["message"] == f"unexpected error (game {game_id}, channel {w.channel.id}, user {user.id})"
        assert line["game_id"] == game_id and line["guild_id"] == w.guild.id
        assert "RuntimeError: the disk caught fire" in line["exc_info"]
    assert all(uid not in (w.ann.id, w.bo.id) for uid, _name in await w.bot.store.lobby_players(game_id))


# ----- slow answers are deferred in time, as publicly as they answer -----

async def test_a_slow_public_command_is_deferred_in_the_channel_and_then_answered_there(world, monkeypatch):
    w = world
    await w.host.slash(w.channel, "game new", kind="tally")
    real_join = w.bot.service.join

    async def slow_join(*args, **kwargs):
        await asyncio.sleep(SLOW)
        return await real_join(*args, **kwargs)

    monkeypatch.setattr(w.bot.service, "join", slow_join)
    res = await parked(w, w.ann.slash(w.channel, "game join"))
    await past_the_watchdog(w)
    assert res.acknowledged and res.deferred and not res.ephemeral
    await past_the_slow_body(w)
    said = [res.response, *res.followups]
    assert any("ann joins." in m.content for m in said) and not any(m.ephemeral for m in said)


async def test_a_slow_private_command_is_deferred_privately(world, monkeypatch):
    w = world
    await w.host.slash(w.channel, "game new", kind="tally")
    real_status = w.bot.play.status_text

    async def slow_status(row):
        await asyncio.sleep(SLOW)
        return await real_status(row)

    monkeypatch.setattr(w.bot.play, "status_text", slow_status)
    res = await parked(w, w.ann.slash(w.channel, "game status"))
    await past_the_watchdog(w)
    assert res.acknowledged and res.deferred and res.ephemeral
    await past_the_slow_body(w)
    said = [res.response, *res.followups]
    assert any("gathering players" in m.content for m in said) and all(m.ephemeral for m in said)


async def test_a_slow_script_is_deferred_publicly_for_a_storyteller_and_privately_for_a_player(world, monkeypatch):
    """``/game script public:True`` learns as it runs whether it answers publicly (the asker is a
    Storyteller); a slow sheet's deferral follows what it learnt."""
    w = world
    members = await sign_up(w)
    real_here = w.bot.service.game_here
    calls = {"n": 0}

    async def slow_after_the_check(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] % 2 == 0:  # the second look at the game: the sheet's, after the Storyteller check
            await asyncio.sleep(SLOW)
        return await real_here(*args, **kwargs)

    monkeypatch.setattr(w.bot.service, "game_here", slow_after_the_check)
    by_storyteller = await parked(w, w.host.slash(w.channel, "game script", public=True))
    await past_the_watchdog(w)
    assert by_storyteller.deferred and not by_storyteller.ephemeral
    by_player = await parked(w, members[0].slash(w.channel, "game script", public=True))
    await past_the_watchdog(w)
    assert by_player.deferred and by_player.ephemeral
    await past_the_slow_body(w)
    for res in (by_storyteller, by_player):
        said = [res.response, *res.followups]
        assert "Townsfolk (13)" in "\n".join(f"{e.title}\n{e.description}" for m in said for e in m.embeds)
        assert all(m.ephemeral == (res is by_player) for m in said)


async def test_a_form_too_slow_to_open_is_refused_in_words_not_left_failing(world, clock, monkeypatch):
    """A form can only be the first answer: when reading the game for its placeholder outlasts the
    watchdog, the click is deferred in time and told, in words, to press again."""
    from games.clocktower.copilot import proposals

    w = world
    await begun(w)
    gid, _thread, _due, panel = await copilot_panel(w, clock)
    due = proposals(await state_of(w), CHARS)[0]
    edit = (await w.host.select(panel, [due.player], custom_id=f"g:{gid}:cs:1:edit")).response
    real_load = w.bot.service.load

    async def slow_load(*args, **kwargs):
        await asyncio.sleep(SLOW)
        return await real_load(*args, **kwargs)

    monkeypatch.setattr(w.bot.service, "load", slow_load)
    res = await parked(w, w.host.click(edit, label="Write the answer"))
    await past_the_watchdog(w)
    assert res.acknowledged and res.deferred and res.modal is None
    await past_the_slow_body(w)
    assert [m.content for m in res.followups] == ["That took me too long to open the form: press the button again."]
    assert all(m.ephemeral for m in res.followups)
    monkeypatch.setattr(w.bot.service, "load", real_load)
    assert (await w.host.click(edit, label="Write the answer")).modal is not None  # pressed again: it opens


async def test_a_storyteller_check_slower_than_the_watchdog_keeps_the_whole_sheet_private(world, monkeypatch):
    """The deferral went out privately before the asker was known to be a Storyteller: the sheet
    follows it privately, every part of it, and says why, rather than half of it in the channel."""
    w = world
    await sign_up(w)
    real_check = w.bot.service.require_storyteller

    async def slow_check(*args, **kwargs):
        await asyncio.sleep(SLOW)
        return await real_check(*args, **kwargs)

    monkeypatch.setattr(w.bot.service, "require_storyteller", slow_check)
    before = len(w.channel.history())
    res = await parked(w, w.host.slash(w.channel, "game script", public=True))
    await past_the_watchdog(w)
    assert res.acknowledged and res.deferred and res.ephemeral
    await past_the_slow_body(w)
    said = [res.response, *res.followups]
    assert all(m.ephemeral for m in said)
    assert said[0].content == "I was slow to answer, so here it is for you alone: ask again to post it for everyone."
    assert "Townsfolk (13)" in "\n".join(f"{e.title}\n{e.description}" for m in said for e in m.embeds)
    assert len(w.channel.history()) == before  # nothing of it in the channel
