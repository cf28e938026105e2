"""Blood on the Clocktower's Discord side, a feature package: the Storytellers' ``/st`` commands
and ``/travel in`` (``storyteller``), the town's own commands and the listener that breaks
whispers (``town``), and the copilot's panel with its persistent components (``copilot``).

The core bot knows none of it: ``setup(bot)``, called once at start-up (``bot.features``), adds
the cogs, registers the components and the view under the night's "information due" message,
and names a loaded script on the sign-up sheet.
"""

from __future__ import annotations

from typing import Any

from ..views import register_event_view
from .copilot import CopilotButton, CopilotSelect, copilot_view
from .storyteller import Storyteller
from .town import Town


def script_name(game: Any, options: dict[str, Any]) -> str:
    """A loaded script, on the sign-up sheet: its name, not its JSON."""
    return game.script_of(game.parse_options(options)).name


async def setup(bot: Any) -> None:
    """Add the Clocktower's commands and components to ``bot`` (a ``commands.Bot`` with ``play``)."""
    bot.play.option_names["script"] = script_name
    await bot.add_cog(Storyteller(bot))
    await bot.add_cog(Town(bot))
    bot.add_dynamic_items(CopilotButton, CopilotSelect)
    register_event_view("copilot", copilot_view)
