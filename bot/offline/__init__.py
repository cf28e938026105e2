"""The offline table: play the real bot in a browser, with no Discord account, token or network.

``python -m bot --offline [--players N] [--names a,b,c] [--port P]`` (or ``./run.sh --offline``)
calls :func:`run_offline`. See docs/offline.md.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import sys
from typing import TYPE_CHECKING

from bot.config import Settings

from .world import NameError_, player_names

if TYPE_CHECKING:
    from .table import OfflineTable

__all__ = ["OfflineTable", "run_offline", "player_names"]


def __getattr__(name: str):
    # simcord is imported only when the table is used: importing it logs discord.py warnings
    # about voice and intents that ``run_offline`` silences first.
    if name == "OfflineTable":
        from .table import OfflineTable

        return OfflineTable
    raise AttributeError(name)

log = logging.getLogger(__name__)

BANNER = """
The offline table is open ({count} players: {names}; database {db}).

  Table (the game channel; pick a player with "Viewing as"):
    {preview}

  Table hub (each player's private messages, and their threads to open on the table):
    {hub}

Open the table in your browser, type /game new in the message box, and play.
Open it in several tabs to be several players at once. These links are secret.
Stop with Ctrl+C; start again with the same command and the games resume.
"""


def run_offline(settings: Settings, *, players: int | None = 5, names: str = "", port: int = 8765) -> int:
    """Serve the offline table until Ctrl+C or SIGTERM. Returns the process exit code."""
    try:
        seated = player_names(players, names)
    except NameError_ as exc:
        print(exc, file=sys.stderr)
        return 2
    if not 0 <= port <= 65535:
        print("--port must be between 0 and 65535.", file=sys.stderr)
        return 2
    quiet_logs()
    try:
        from . import table  # noqa: F401 - simcord and aiohttp, from the 'offline' extra
    except ImportError as exc:
        print(f"The offline table needs the 'offline' extra: pip install -e '.[offline]' ({exc})",
              file=sys.stderr)
        return 2
    try:
        return asyncio.run(serve(settings, seated, port=port))
    except KeyboardInterrupt:  # a second Ctrl+C during shutdown
        return 130


def quiet_logs() -> None:
    """Unless LOG_LEVEL=DEBUG: no voice/intent warnings that only concern a real gateway, and no
    line per timer job; the bot's own log and every error stay."""
    if logging.getLogger().getEffectiveLevel() <= logging.DEBUG:
        return
    logging.getLogger("discord").setLevel(logging.ERROR)
    logging.getLogger("apscheduler").setLevel(logging.WARNING)


async def serve(settings: Settings, names: list[str], *, port: int = 8765,
                ready: asyncio.Event | None = None) -> int:
    from .table import AlreadyRunning, OfflineTable, PortBusy

    table = OfflineTable(settings, names, port=port)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        try:
            await table.start()
        except PortBusy as exc:
            print(f"The offline table could not start: {exc}. Try another --port.", file=sys.stderr)
            return 2
        except AlreadyRunning as exc:
            print(f"The offline table could not start: {exc}.", file=sys.stderr)
            return 2
        print(BANNER.format(count=len(names), names=", ".join(names), db=table.settings.database_path,
                            preview=table.preview_url, hub=table.hub_url), flush=True)
        for note in table.notes:
            print("Note:", note, flush=True)
        if table.started and table.bot.health is not None:  # HEALTH_PORT is set
            print(f"Health and metrics: {table.bot.health.url}/healthz and /metrics", flush=True)
        if ready is not None:
            ready.set()
        await stop.wait()
        print("Closing the offline table...", flush=True)
        return 0
    finally:
        await table.stop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(sig)
        if stop.is_set():
            from bot.client import log_stopped

            log_stopped(table.finished_sends)
