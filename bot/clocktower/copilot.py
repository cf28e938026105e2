"""The copilot's panel in the Storytellers' thread: tonight's information, accepted or edited with
buttons and selects instead of typing ``/st inform``.

The night's "information due" message carries **Review and send**. It opens a private panel: each
step with its proposal, its flags and what was accepted so far; a select that accepts several
proposals as they are; a select that opens one step to edit (its allowed answers as a select, or
**Write the answer** for a free answer in a form). Every acceptance is an ``inform`` action, in
the game's log as the Storyteller's, checked by the rules like the slash command. A panel from an
earlier night answers that the night is over.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from games.clocktower.copilot import Proposal, proposals
from games.engine import GameError

from ..interactions import actor_of, answered, chosen_values, open_form, reply
from ..views import MAX_OPTIONS, bounded, detached
from .needs import ClocktowerBot

#: Discord's longest select option value and label
MAX_VALUE = 100


def _bot(interaction: discord.Interaction) -> ClocktowerBot:
    return interaction.client  # type: ignore[return-value]  # discord.py types it Client; it is the bot


async def _tonight(interaction: discord.Interaction, game_id: int, night: int):
    """The game's state, when the clicker is one of its Storytellers and it is still that night."""
    service = _bot(interaction).service
    table = await service.load(game_id)
    await service.require_storyteller(table.row, actor_of(interaction))
    state = table.state
    if state.phase != "night" or state.night != night:
        raise GameError(f"Night {night} is over: what was accepted was delivered at dawn.", code="stale_night")
    return table, state


def _label(state, chars, proposal: Proposal) -> str:
    card = chars[state.seat_of(proposal.player).acting].name
    return f"{state.label(proposal.player)}, the {card}"


def panel_text(state, chars, found: list[Proposal]) -> str:
    lines = [f"**Night {state.night}: information due** (accepted answers "
             + ("are sent at once" if state.settings.inform_at == "accept" else "reach the players at dawn") + ")"]
    for p in found:
        accepted = state.accepted.get(p.player)
        status = (f"✓ accepted: {accepted.answer}" if accepted else
                  f"proposed: **{p.answer}**" + ("" if p.ready else " (waits for your answer)"))
        lines.append(f"• {_label(state, chars, p)}: {status}")
        lines += [f"  ⚑ {flag}" for flag in p.flags]
    return "\n".join(lines)


def panel_view(game_id: int, state, chars, found: list[Proposal]) -> discord.ui.View | None:
    view = discord.ui.View(timeout=None)
    ready = [p for p in found if p.ready][:MAX_OPTIONS]
    if ready:
        select: discord.ui.Select[discord.ui.View] = discord.ui.Select(
            placeholder="Accept as proposed…", min_values=1, max_values=len(ready),
            options=[discord.SelectOption(label=_label(state, chars, p)[:MAX_VALUE], value=p.player,
                                          description=p.answer[:MAX_VALUE]) for p in ready])
        view.add_item(CopilotSelect(game_id, state.night, "accept", "", select))
    if found:
        select = discord.ui.Select(
            placeholder="Edit one answer…", min_values=1, max_values=1,
            options=[discord.SelectOption(label=_label(state, chars, p)[:MAX_VALUE], value=p.player)
                     for p in found[:MAX_OPTIONS]])
        view.add_item(CopilotSelect(game_id, state.night, "edit", "", select))
    return detached(view) if view.children else None


async def review(interaction: discord.Interaction, game_id: int, night: int) -> None:
    table, state = await _tonight(interaction, game_id, night)
    found = proposals(state, table.game.chars_of(state))
    if not found:
        await reply(interaction, f"Nobody is due information on night {night} (yet).")
        return
    view = panel_view(game_id, state, table.game.chars_of(state), found)
    text = panel_text(state, table.game.chars_of(state), found)
    if view is not None:
        await reply(interaction, text, view=view)
    else:
        await reply(interaction, text)


async def _inform(interaction: discord.Interaction, game_id: int, night: int, player: str, answer: str = "") -> str:
    """Accept, as the night the panel showed: a panel of a night that is over is refused by the rules."""
    outcome = await _bot(interaction).service.storyteller_act(
        game_id, actor_of(interaction), {"type": "inform", "target": player, "answer": answer, "night": night})
    return outcome.reply or "Done."


async def on_select(interaction: discord.Interaction, game_id: int, night: int, what: str, player: str,
                    values: list[str]) -> None:
    table, state = await _tonight(interaction, game_id, night)
    if what == "accept":
        said = []
        for target in values:
            try:
                said.append(await _inform(interaction, game_id, night, target))
            except GameError as exc:
                said.append(f"{state.label(target)}: {exc}")
        await reply(interaction, "\n".join(said))
    elif what == "edit":
        await _edit(interaction, game_id, table, state, values[0] if values else "")
    elif what == "answer" and values:
        await reply(interaction, await _inform(interaction, game_id, night, player, values[0]))


async def _edit(interaction: discord.Interaction, game_id: int, table, state, player: str) -> None:
    chars = table.game.chars_of(state)
    found = next((p for p in proposals(state, chars) if p.player == player), None)
    if found is None:
        raise GameError("That player is due no information tonight.", code="nothing_due")
    lines = [f"**{_label(state, chars, found)}**: proposed **{found.answer}**",
             f"Allowed: {', '.join(found.allowed) if found.allowed is not None else found.rule or 'any answer'}",
             *([f"Written answers: {found.form.shape}"] if found.form is not None else []),
             *(f"⚑ {flag}" for flag in found.flags)]
    view = discord.ui.View(timeout=None)
    answers = [a for a in (found.allowed or []) if len(a) <= MAX_VALUE][:MAX_OPTIONS]
    if answers:
        select: discord.ui.Select[discord.ui.View] = discord.ui.Select(placeholder="Choose the answer…", min_values=1, max_values=1,
                                   options=[discord.SelectOption(label=a, value=a) for a in answers])
        view.add_item(CopilotSelect(game_id, state.night, "answer", player, select))
    view.add_item(CopilotButton(game_id, state.night, "write", player))
    await reply(interaction, "\n".join(lines), view=detached(view))


class AnswerForm(discord.ui.Modal):
    """A Storyteller's own answer for one player tonight."""

    answer: discord.ui.TextInput = discord.ui.TextInput(label="The answer", max_length=200, custom_id="answer")

    def __init__(self, game_id: int, night: int, player: str, title: str, placeholder: str) -> None:
        super().__init__(title=title[:45], timeout=900)
        self.game_id, self.night, self.player = game_id, night, player
        self.answer.placeholder = placeholder[:100]

    @answered()
    async def on_submit(self, interaction: discord.Interaction) -> None:
        await _tonight(interaction, self.game_id, self.night)
        await reply(interaction, await _inform(interaction, self.game_id, self.night, self.player,
                                               str(self.answer.value)))


async def _shape(interaction: discord.Interaction, game_id: int, night: int, player: str) -> str:
    """What the player's answer looks like ("a number from 0 to 2"), for the form's placeholder;
    only for the game's Storytellers, tonight."""
    try:
        table, state = await _tonight(interaction, game_id, night)
    except GameError:
        return "Your answer, in words"  # the answer is refused in words when it is sent
    found = next((p for p in proposals(state, table.game.chars_of(state)) if p.player == player), None)
    return found.form.shape if found is not None and found.form is not None else "Your answer, in words"


async def on_write(interaction: discord.Interaction, game_id: int, night: int, player: str) -> None:
    """The form opens at once, before the slow-answer watchdog would defer (a form cannot follow a
    deferral): only the game, usually cached, is read for its placeholder; what is typed is
    checked when it is sent, like every answer."""
    member = interaction.guild.get_member(int(player)) if interaction.guild is not None else None
    title = f"Answer for {member.display_name}" if member is not None else "Your answer"
    placeholder = await _shape(interaction, game_id, night, player)
    await open_form(interaction, AnswerForm(game_id, night, player, title, placeholder))


# ----- the components: ``custom_id``s g:<game>:cp:<night>:<review|write>[:<player>] (buttons) and
# g:<game>:cs:<night>:<accept|edit|answer>[:<player>] (selects), registered at the package's setup


class CopilotButton(discord.ui.DynamicItem[discord.ui.Button],
                    template=r"g:(?P<gid>\d+):cp:(?P<night>\d+):(?P<what>review|write)(?::(?P<player>\d+))?"):
    LABELS = {"review": "Review and send", "write": "Write the answer"}

    def __init__(self, game_id: int, night: int, what: str, player: str = "") -> None:
        suffix = f":{player}" if player else ""
        super().__init__(discord.ui.Button(label=self.LABELS[what], style=discord.ButtonStyle.primary,
                                           custom_id=f"g:{game_id}:cp:{night}:{what}{suffix}"))
        self.game_id, self.night, self.what, self.player = game_id, night, what, player

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(bounded(match["gid"]), bounded(match["night"]), match["what"], match["player"] or "")

    @answered()
    async def callback(self, interaction: discord.Interaction) -> None:
        if self.what == "review":
            await review(interaction, self.game_id, self.night)
        else:
            await on_write(interaction, self.game_id, self.night, self.player)


class CopilotSelect(discord.ui.DynamicItem[discord.ui.Select],
                    template=r"g:(?P<gid>\d+):cs:(?P<night>\d+):(?P<what>accept|edit|answer)(?::(?P<player>\d+))?"):
    def __init__(self, game_id: int, night: int, what: str, player: str = "",
                 select: discord.ui.Select | None = None) -> None:
        select = select or discord.ui.Select(options=[discord.SelectOption(label="…", value="_")])
        select.custom_id = f"g:{game_id}:cs:{night}:{what}" + (f":{player}" if player else "")
        super().__init__(select)
        self.game_id, self.night, self.what, self.player = game_id, night, what, player

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(bounded(match["gid"]), bounded(match["night"]), match["what"], match["player"] or "", item)

    @answered()
    async def callback(self, interaction: discord.Interaction) -> None:
        values = chosen_values(interaction)
        await on_select(interaction, self.game_id, self.night, self.what, self.player, values)


def copilot_view(game_id: int, data: dict[str, Any]) -> discord.ui.View:
    """Under the night's "information due" message in the Storytellers' thread (an event whose
    ``data["view"]`` is "copilot")."""
    view = discord.ui.View(timeout=None)
    view.add_item(CopilotButton(game_id, data.get("night", 0), "review"))
    return detached(view)
