"""Start the bot: ``python -m bot`` (needs DISCORD_TOKEN) or ``python -m bot --offline``; copy its
games to another database: ``python -m bot migrate-db --from sqlite:///data/storyteller.db --to
postgresql://...``."""

from __future__ import annotations

import argparse
import sys

from pydantic import ValidationError

from . import logs
from .config import Settings

NO_TOKEN = """\
No DISCORD_TOKEN is set, so I can't connect to Discord.

To run on Discord:
  1. Create an application and a bot at https://discord.com/developers/applications
  2. Copy .env.example to .env and put the bot's token after DISCORD_TOKEN=
  3. Invite the bot with the scopes "bot" and "applications.commands"
  4. Run this command again.

To play with no Discord account at all, start the offline table in your browser:
  ./run.sh --offline        (or: python -m bot --offline)
"""


def main(argv: list[str] | None = None) -> int:
    if argv is None:
        argv = sys.argv[1:]
    if argv[:1] == ["migrate-db"]:
        return migrate_main(argv[1:])
    parser = argparse.ArgumentParser(prog="python -m bot", description=__doc__)
    parser.add_argument("--offline", action="store_true",
                        help="play in a browser on this computer, with no Discord token")
    parser.add_argument("--players", type=int, default=5, help="offline: how many players")
    parser.add_argument("--names", default="", help="offline: player names, comma separated")
    parser.add_argument("--port", type=int, default=8765, help="offline: the local port")
    args = parser.parse_args(argv)
    try:
        settings = Settings()
    except ValidationError as exc:
        print(f"The settings in .env are not valid:\n{exc}", file=sys.stderr)
        return 2
    logs.setup(settings)
    if args.offline:
        try:
            from .offline import run_offline
        except ImportError as exc:
            print(f"The offline table needs the 'offline' extra: pip install -e '.[offline]' ({exc})",
                  file=sys.stderr)
            return 2
        return run_offline(settings, players=args.players, names=args.names, port=args.port)
    if not settings.discord_token:
        print(NO_TOKEN, file=sys.stderr)
        return 2
    from .client import StorytellerBot

    bot = StorytellerBot(settings)
    try:
        bot.run(settings.discord_token, log_handler=None)
    except Exception as exc:  # a bad token or a closed network: say so plainly
        import discord

        if isinstance(exc, discord.LoginFailure):
            print("Discord refused the token in DISCORD_TOKEN. Copy it again from the Developer Portal.",
                  file=sys.stderr)
            return 2
        if isinstance(exc, discord.PrivilegedIntentsRequired):
            print("The bot asked for an intent that is not enabled in the Developer Portal.", file=sys.stderr)
            return 2
        raise
    return 0


def migrate_main(argv: list[str]) -> int:
    """``migrate-db``: copy every game, log and pending message, and compare the counts."""
    import asyncio

    from .migrate import MigrationRefused, migrate_db

    parser = argparse.ArgumentParser(prog="python -m bot migrate-db", description=migrate_main.__doc__)
    parser.add_argument("--from", dest="source", required=True,
                        help="where the games are now: sqlite:///data/storyteller.db or postgresql://...")
    parser.add_argument("--to", dest="target", required=True,
                        help="an empty database to copy them into: postgresql://user:password@host/db")
    args = parser.parse_args(argv)
    try:
        copied = asyncio.run(migrate_db(args.source, args.target))
    except MigrationRefused as exc:
        print(f"Nothing was changed: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:
        print(f"The copy failed ({type(exc).__name__}: {exc}). The source is untouched, and what was "
              "copied was removed from the target (if the target could still be reached); fix the cause "
              "and run the command again.", file=sys.stderr)
        return 1
    for c in copied:
        print(f"{c.table:18} {c.target:8} rows")
    print("Verified: every table has as many rows as the source. Set DATABASE_URL to the new database and "
          "start the bot; running games continue where they were.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
