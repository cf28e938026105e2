"""Start the bot: ``python -m bot`` (needs DISCORD_TOKEN) or ``python -m bot --offline``; copy its
games to another database: ``python -m bot migrate-db --from sqlite:///data/storyteller.db --to
postgresql://...``; print the invite address: ``python -m bot invite``; send the slash commands to
Discord: ``python -m bot sync [--guild ID]``."""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys

from pydantic import ValidationError

from . import logs
from .config import Settings, problems

NO_TOKEN = """\
No DISCORD_TOKEN is set, so I can't connect to Discord.

To run on Discord:
  1. Create an application and a bot at https://discord.com/developers/applications
  2. Copy .env.example to .env and put the bot's token after DISCORD_TOKEN=
  3. Invite the bot: python -m bot invite   (prints the address, with the permissions it needs;
     type source .venv/bin/activate first, so that python is the project's)
  4. Send its slash commands to Discord: python -m bot sync
  5. Run this command again.

To play with no Discord account at all, start the offline table in your browser:
  ./run.sh --offline        (or: python -m bot --offline)
"""


USAGE = """\
Run the bot on Discord (DISCORD_TOKEN in .env), or the offline table with --offline.

Other commands (each has --help):
  python -m bot invite                 print the address that adds the bot to a server
  python -m bot sync [--guild ID]      send the slash commands to Discord
  python -m bot migrate-db --from A --to B
                                       copy the games to another database
"""


def load_settings() -> Settings | None:
    """The settings from the environment and .env; None, said in words, when they are not valid."""
    try:
        return Settings()
    except ValidationError as exc:
        lines = "".join(f"  {sentence}\n" for sentence in problems(exc))
        print(f"The settings in .env are not valid:\n{lines}", end="", file=sys.stderr)
        return None


def main(argv: list[str] | None = None) -> int:
    if argv is None:
        argv = sys.argv[1:]
    if argv[:1] == ["migrate-db"]:
        return migrate_main(argv[1:])
    if argv[:1] == ["invite"]:
        return invite_main(argv[1:])
    if argv[:1] == ["sync"]:
        return sync_main(argv[1:])
    parser = argparse.ArgumentParser(prog="python -m bot", description=USAGE,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--offline", action="store_true",
                        help="play in a browser on this computer, with no Discord token")
    parser.add_argument("--players", type=int, default=5, help="offline: how many players")
    parser.add_argument("--names", default="", help="offline: player names, comma separated")
    parser.add_argument("--port", type=int, default=8765, help="offline: the local port")
    args = parser.parse_args(argv)
    settings = load_settings()
    if settings is None:
        return 2
    logs.setup(settings)
    problem = database_problem(settings)
    if problem:
        print(problem, file=sys.stderr)
        return 2
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
        asyncio.run(run_bot(bot, settings.discord_token))
    except Exception as exc:  # a bad token or a closed network: say so plainly
        problem = login_problem(exc)
        if problem is None:
            raise
        print(problem, file=sys.stderr)
        return 1 if out_of_reach(exc) else 2  # 1: trying again later may help; 2: a setting to fix
    return 0


def database_problem(settings: Settings) -> str | None:
    """A database setting that cannot work, in a sentence (None: it may; a server that does not
    answer yet is waited for)."""
    from .stores import DatabaseSettingWrong, check_database

    try:
        check_database(settings.database_url, settings.database_path)
    except DatabaseSettingWrong as exc:
        return f"The database cannot be opened: {exc}"
    return None


def login_problem(exc: BaseException) -> str | None:
    """What Discord refused at login, in words (None: something else)."""
    import discord

    if isinstance(exc, discord.LoginFailure):
        return "Discord refused the token in DISCORD_TOKEN. Copy it again from the Developer Portal."
    if isinstance(exc, discord.PrivilegedIntentsRequired):
        return ("Discord refused a privileged intent the bot asked for. This bot needs none (it reads no "
                "messages and no member list): use it as released, or enable that intent in the Developer "
                "Portal, Bot, Privileged Gateway Intents.")
    if out_of_reach(exc):
        return (f"I can't reach Discord ({exc}). Check this machine's network, DNS and clock, then run "
                "this again; nothing was changed.")
    return None


def out_of_reach(exc: BaseException) -> bool:
    """Discord could not be reached at all (DNS, a refused or broken connection, TLS)."""
    import aiohttp
    import discord

    return isinstance(exc, (aiohttp.ClientConnectionError, discord.GatewayNotFound))


async def run_bot(bot, token: str) -> None:
    """Run the bot until Discord closes it, or until SIGTERM (systemd, containers) or SIGINT
    (Ctrl+C): then it stops cleanly (``StorytellerBot.shut_down``)."""
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    async with bot:
        running = asyncio.create_task(bot.start(token))
        stopping = asyncio.create_task(stop.wait())
        await asyncio.wait({running, stopping}, return_when=asyncio.FIRST_COMPLETED)
        if running.done():
            stopping.cancel()
            running.result()  # raises what ended it (a refused token...)
            return
        logging.getLogger("bot").info("stopping: closing the gateway, finishing the sends under way")
        await bot.shut_down()
        if not bot.is_ready():  # stopped while starting (waiting for its database): nothing to finish
            running.cancel()
        try:
            await asyncio.wait_for(running, 10)
        except (Exception, asyncio.CancelledError) as exc:  # the connection ended as it was closed
            logging.getLogger("bot").debug("gateway closed with %r", exc)


def invite_main(argv: list[str]) -> int:
    """``invite``: the address that adds the bot to a server with the permissions it checks."""
    from .permissions import BadToken, client_id_of, invite_text

    parser = argparse.ArgumentParser(prog="python -m bot invite", description=invite_main.__doc__)
    parser.add_argument("--client-id", type=int, default=None,
                        help="the Application ID (Developer Portal, General Information); read from "
                             "DISCORD_TOKEN when not given")
    parser.add_argument("--no-voice", action="store_true",
                        help="leave out Connect, Speak and Mute Members (no voice table)")
    args = parser.parse_args(argv)
    client_id = args.client_id
    if client_id is None:
        settings = load_settings()
        if settings is None:
            return 2
        token = settings.discord_token
        if not token:
            print("I need the bot's application id: pass --client-id with the Application ID from the "
                  "Developer Portal (General Information), or set DISCORD_TOKEN in .env.", file=sys.stderr)
            return 2
        try:
            client_id = client_id_of(token)
        except BadToken as exc:
            print(exc, file=sys.stderr)
            return 2
    if client_id <= 0:
        print("--client-id must be the Application ID, a positive number.", file=sys.stderr)
        return 2
    print(invite_text(client_id, voice=not args.no_voice))
    return 0


def sync_main(argv: list[str]) -> int:
    """``sync``: send the slash commands to Discord, globally or to one server, and exit. Run it
    once after installing or upgrading the bot (or set SYNC_COMMANDS=true)."""
    parser = argparse.ArgumentParser(prog="python -m bot sync", description=sync_main.__doc__)
    parser.add_argument("--guild", type=int, default=None,
                        help="a server id: sync there only (shown at once); without it, globally")
    args = parser.parse_args(argv)
    settings = load_settings()
    if settings is None:
        return 2
    if not settings.discord_token:
        print("No DISCORD_TOKEN is set: put the bot's token in .env, then run this again.", file=sys.stderr)
        return 2
    logs.setup(settings)
    try:
        synced = asyncio.run(sync_commands(settings, args.guild))
    except Exception as exc:
        problem = login_problem(exc)
        if problem is None:
            import discord

            if not isinstance(exc, discord.HTTPException):
                raise
            problem = f"Discord refused the commands ({exc.status}: {exc.text})."
        print(problem, file=sys.stderr)
        return 2
    where = f"to the server {args.guild} (shown there at once)" if args.guild else \
        "globally (every server the bot is in)"
    print(f"Synced {len(synced)} command(s) {where}:")
    for command in sorted(synced, key=lambda c: c.name):
        print(f"  {'/' if command.type.value == 1 else ''}{command.name}")
    return 0


def commands_only(settings: Settings):
    """The bot with its commands and nothing else: no database, no timers, no sync at start."""
    from .client import StorytellerBot

    class CommandsOnly(StorytellerBot):
        async def setup_hook(self) -> None:
            await self.add_commands()

        async def on_ready(self) -> None:  # (a sync never connects to the gateway: no recovery)
            pass

    return CommandsOnly(settings, sync_commands=False, use_scheduler=False)


async def sync_commands(settings: Settings, guild_id: int | None):
    """Log in (no gateway, no database), add the commands, sync them; the synced commands."""
    bot = commands_only(settings)
    async with bot:
        await bot.login(settings.discord_token)
        return await bot.sync_tree(guild_id)


def migrate_main(argv: list[str]) -> int:
    """``migrate-db``: copy every game, log and pending message, and compare the counts."""
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
