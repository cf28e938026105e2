"""Persistent components. Each ``custom_id`` carries the game id (and the phase for choices), so a
button keeps working after a restart, and a choice from a closed phase is refused, not miscounted.

    g:<game>:<choose|hand|join|leave|start>      table buttons
    g:<game>:s:<phase_seq>:<action>:<field>        a select of a secret choice
    g:<game>:b:<phase_seq>:<action>                a button of a secret choice (or its submit)

A feature package adds its own components under the same ``g:<game>:`` prefix (and registers
them at its setup), and may name a view for its events (``register_event_view``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Protocol

import discord

from games.engine import Outcome, Prompt

from .actor import Actor
from .interactions import actor_of, answered, chosen_values, reply


class Removes(Protocol):
    """What the removal's confirmation reaches of the service."""

    async def remove(self, game_id: int, actor: Actor, target_id: int, *, confirmed: bool = False) -> Outcome: ...


class Handles(Protocol):
    """What the components reach through the bot: its ``Play`` (not imported: play.py builds its
    messages' views from here, so the import would run back)."""

    @property
    def service(self) -> Removes: ...

    async def on_table_button(self, interaction: discord.Interaction, game_id: int, what: str) -> None: ...

    async def on_choice(self, interaction: discord.Interaction, game_id: int, seq: int, action: str,
                        field: str, values: list[str]) -> None: ...

    async def on_choice_button(self, interaction: discord.Interaction, game_id: int, seq: int,
                               action: str) -> None: ...

TABLE_BUTTONS = {
    "choose": ("Make my choice", discord.ButtonStyle.primary, "🗳️"),
    "hand": ("My hand", discord.ButtonStyle.secondary, "🂠"),
    "join": ("Join", discord.ButtonStyle.success, None),
    "leave": ("Leave", discord.ButtonStyle.secondary, None),
    "start": ("Start", discord.ButtonStyle.primary, None),
}
MAX_ROWS = 5
MAX_OPTIONS = 25
#: the largest id SQLite (and Discord) can hold; a forged custom_id with a bigger one names no game
MAX_ID = 2**63 - 1


def bounded(digits: str) -> int:
    """An id from a ``custom_id``: one out of range becomes 0, a game that does not exist."""
    number = int(digits[:20])
    return number if number <= MAX_ID else 0


def _play(interaction: discord.Interaction) -> Handles:
    """The bot's ``Play``: components reach the services through the interaction's client."""
    return interaction.client.play  # type: ignore[attr-defined]  # discord.py types it Client; it is the bot


class TableButton(discord.ui.DynamicItem[discord.ui.Button],
                  template=r"g:(?P<gid>\d+):(?P<what>choose|hand|join|leave|start)"):
    def __init__(self, game_id: int, what: str) -> None:
        label, style, emoji = TABLE_BUTTONS[what]
        super().__init__(discord.ui.Button(label=label, style=style, emoji=emoji,
                                           custom_id=f"g:{game_id}:{what}"))
        self.game_id = game_id
        self.what = what

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(bounded(match["gid"]), match["what"])

    @answered()
    async def callback(self, interaction: discord.Interaction) -> None:
        await _play(interaction).on_table_button(interaction, self.game_id, self.what)


class ChoiceSelect(discord.ui.DynamicItem[discord.ui.Select],
                   template=r"g:(?P<gid>\d+):s:(?P<seq>\d+):(?P<action>[a-z_]+):(?P<field>[a-z_]+)"):
    def __init__(self, game_id: int, seq: int, action: str, field: str,
                 select: discord.ui.Select | None = None) -> None:
        select = select or discord.ui.Select(options=[discord.SelectOption(label="…", value="_")])
        select.custom_id = f"g:{game_id}:s:{seq}:{action}:{field}"
        super().__init__(select)
        self.game_id, self.seq, self.action, self.field = game_id, seq, action, field

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(bounded(match["gid"]), bounded(match["seq"]), match["action"], match["field"], item)

    @answered()
    async def callback(self, interaction: discord.Interaction) -> None:
        values = chosen_values(interaction)
        await _play(interaction).on_choice(interaction, self.game_id, self.seq, self.action,
                                           self.field, values)


class ChoiceButton(discord.ui.DynamicItem[discord.ui.Button],
                   template=r"g:(?P<gid>\d+):b:(?P<seq>\d+):(?P<action>[a-z_]+)"):
    def __init__(self, game_id: int, seq: int, action: str, label: str = "Confirm") -> None:
        super().__init__(discord.ui.Button(label=label[:80], style=discord.ButtonStyle.primary,
                                           custom_id=f"g:{game_id}:b:{seq}:{action}"))
        self.game_id, self.seq, self.action = game_id, seq, action

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(bounded(match["gid"]), bounded(match["seq"]), match["action"])

    @answered()
    async def callback(self, interaction: discord.Interaction) -> None:
        await _play(interaction).on_choice_button(interaction, self.game_id, self.seq, self.action)


class RemoveButton(discord.ui.DynamicItem[discord.ui.Button], template=r"g:(?P<gid>\d+):rm:(?P<uid>\d+)"):
    """A moderator's confirmation of a removal that ends the game (works after a restart too)."""

    def __init__(self, game_id: int, user_id: int) -> None:
        super().__init__(discord.ui.Button(label="Remove and end the game", style=discord.ButtonStyle.danger,
                                           custom_id=f"g:{game_id}:rm:{user_id}"))
        self.game_id, self.user_id = game_id, user_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(bounded(match["gid"]), bounded(match["uid"]))

    @answered()
    async def callback(self, interaction: discord.Interaction) -> None:
        outcome = await _play(interaction).service.remove(
            self.game_id, actor_of(interaction), self.user_id, confirmed=True)
        await reply(interaction, outcome.reply or "Removed; the game is over.")


def removal_view(game_id: int, user_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(RemoveButton(game_id, user_id))
    return detached(view)


def detached(view: discord.ui.View) -> discord.ui.View:
    """A view that discord.py will not keep once it is sent.

    Every item here is a DynamicItem, dispatched from its ``custom_id`` on any message (even after
    a restart), so the View object has nothing left to do after sending. A stopped view is not
    stored: otherwise each phase message would stay in memory for the bot's lifetime and each
    ephemeral prompt would get a 15-minute timer of its own.
    """
    view.stop()
    return view


def phase_view(game_id: int, seq: int | None = None, shared: list[Prompt] | tuple[Prompt, ...] = ()) -> discord.ui.View:
    """The buttons under a phase message: open my secret choice, and My hand; and the phase's
    shared choices (``Game.shared_prompts``), a vote as a select and "I am ready" as a button, so
    a player chooses in one tap."""
    view = discord.ui.View(timeout=None)
    view.add_item(TableButton(game_id, "choose"))
    view.add_item(TableButton(game_id, "hand"))
    if seq is not None and shared:
        _add_prompts(view, game_id, seq, list(shared), first_row=1)
    return detached(view)


#: views a feature package puts under its own events: an event's ``data["view"]`` names one,
#: built from the game id and the event's data
EVENT_VIEWS: dict[str, Callable[[int, dict[str, Any]], discord.ui.View]] = {}


def register_event_view(name: str, build: Callable[[int, dict[str, Any]], discord.ui.View]) -> None:
    EVENT_VIEWS[name] = build


def event_view(game_id: int, data: dict[str, Any]) -> discord.ui.View | None:
    """The view a feature registered for this event's ``data["view"]``, if any."""
    build = EVENT_VIEWS.get(data.get("view", ""))
    return build(game_id, data) if build is not None else None


def lobby_view(game_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for what in ("join", "leave", "start"):
        view.add_item(TableButton(game_id, what))
    return detached(view)


def prompts_view(game_id: int, seq: int, prompts: list[Prompt]) -> discord.ui.View | None:
    """Selects and buttons for a player's open choices, within Discord's 5 rows of 25 options."""
    view = discord.ui.View(timeout=None)
    _add_prompts(view, game_id, seq, prompts, first_row=0)
    return detached(view) if view.children else None


def _add_prompts(view: discord.ui.View, game_id: int, seq: int, prompts: list[Prompt], *, first_row: int) -> None:
    rows = first_row
    for prompt in prompts:
        needed = len(prompt.fields) + (1 if (prompt.submit_label or not prompt.fields) else 0)
        if rows + needed > MAX_ROWS:
            break
        for field in prompt.fields:
            options = [
                discord.SelectOption(label=c.label[:100], value=c.value[:100],
                                     description=(c.description[:100] or None),
                                     emoji=c.emoji or None)
                for c in field.choices[:MAX_OPTIONS]
            ]
            if not options:
                continue
            select: discord.ui.Select[discord.ui.View] = discord.ui.Select(
                placeholder=field.placeholder[:150], options=options, row=rows,
                min_values=min(field.min_values, len(options)),
                max_values=max(1, min(field.max_values, len(options))))
            view.add_item(ChoiceSelect(game_id, seq, prompt.action, field.name, select))
            rows += 1
        if prompt.submit_label or not prompt.fields:
            button = ChoiceButton(game_id, seq, prompt.action, prompt.submit_label or prompt.title)
            button.item.row = rows
            view.add_item(button)
            rows += 1
