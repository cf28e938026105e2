"""The offline table: play the real bot in a browser, with no Discord account, token or network.

``python -m bot --offline [--players N] [--names a,b,c] [--port P]`` (or ``./run.sh --offline``)
calls :func:`run_offline`. See docs/offline.md.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import sys

from bot.config import Settings

from .table import OfflineTable, PortBusy
from .world import NameError_, player_names

__all__ = ["OfflineTable", "run_offline", "player_names"]

log = logging.getLogger(__name__)

BANNER = """
The offline table is open ({count} players: {names}; database {db}).

  Table (the game channel; pick a player with "Viewing as"):
    {preview}

  Table hub (each player's private messages and threads, read-only):
    {hub}

Open the table in your browser, type /game new in the message box, and play.
Open it in several tabs to be several players at once. These links are secret.
Stop with Ctrl+C; start again with the same command and the games resume.
"""


def run_offline(settings: Settings, *, players: int = 5, names: str = "", port: int = 8765) -> int:
    """Serve the offline table until Ctrl+C or SIGTERM. Returns the process exit code."""
    try:
        seated = player_names(players, names)
    except NameError_ as exc:
        print(exc, file=sys.stderr)
        return 2
    if not 0 <= port <= 65535:
        print("--port must be between 0 and 65535.", file=sys.stderr)
        return 2
    try:
        return asyncio.run(serve(settings, seated, port=port))
    except KeyboardInterrupt:  # a second Ctrl+C during shutdown
        return 130


async def serve(settings: Settings, names: list[str], *, port: int = 8765,
                ready: asyncio.Event | None = None) -> int:
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
        print(BANNER.format(count=len(names), names=", ".join(names), db=table.settings.database_path,
                            preview=table.preview_url, hub=table.hub_url), flush=True)
        for note in table.notes:
            print("Note:", note, flush=True)
        if ready is not None:
            ready.set()
        await stop.wait()
        print("Closing the offline table...", flush=True)
        return 0
    finally:
        await table.stop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(sig)
