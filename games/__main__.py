"""Command line for the engines.

    python -m games actions GAME                 the action vocabulary as JSON Schema
    python -m games replay SCRIPT.json           one JSON line per event / rejected action, then the result
    python -m games simulate GAME --players N --games K --seed S [--json] [--script FILE]
                                                 (--script: a Clocktower script file, or an
                                                 edition's name such as "Trouble Brewing")
    python -m games clocktower script FILE.json  check a Clocktower script, print it parsed as JSON
    python -m games clocktower characters        every official character, ruled or judged (Markdown)
"""

from __future__ import annotations

import argparse
import json
import sys
import time  # only to report how long a simulation took; no rule reads it
from pathlib import Path

from pydantic import ValidationError

from . import GameError, get
from .engine.run import Replay, replay, simulate


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p_actions = sub.add_parser("actions", help="print a game's actions as JSON Schema")
    p_actions.add_argument("game")
    p_replay = sub.add_parser("replay", help="replay a script")
    p_replay.add_argument("script", help="path to the script, or - for standard input")
    p_sim = sub.add_parser("simulate", help="random seeded playthroughs to the end")
    p_sim.add_argument("game")
    p_sim.add_argument("--players", type=int, required=True)
    p_sim.add_argument("--games", type=int, default=100)
    p_sim.add_argument("--seed", type=int, default=1)
    p_sim.add_argument("--json", action="store_true")
    p_sim.add_argument("--script", help="Clocktower: a script file (official Script Tool JSON), - for standard "
                                        "input, or a base edition's name (Trouble Brewing, Bad Moon Rising, "
                                        "Sects & Violets)")
    p_ct = sub.add_parser("clocktower", help="Blood on the Clocktower tools")
    ct_sub = p_ct.add_subparsers(dest="clocktower_command", required=True)
    p_ct_script = ct_sub.add_parser("script", help="check a script in the official Script Tool format")
    p_ct_script.add_argument("file", help="path to the script, or - for standard input")
    ct_sub.add_parser("characters", help="list every official character, ruled by the bot or judged")
    args = parser.parse_args(argv)

    try:
        if args.command == "actions":
            print(json.dumps(get(args.game).action_adapter.json_schema(), indent=2))
            return 0
        if args.command == "replay":
            text = sys.stdin.read() if args.script == "-" else Path(args.script).read_text()
            try:
                script = Replay.model_validate_json(text)
            except ValidationError as exc:
                print(f"error: the script is not valid: {exc.errors()[0]['msg']}", file=sys.stderr)
                return 2
            for line in replay(get(script.game), script):
                print(json.dumps(line, ensure_ascii=False))
            return 0
        if args.command == "clocktower" and args.clocktower_command == "characters":
            from .clocktower.ruled import listing
            print(listing())
            return 0
        if args.command == "clocktower":
            return _clocktower_script(args.file)
        options = None if args.script is None else {"script": _script_option(args.script)}
        game = get(args.game)
        if options is not None:
            game.parse_options(options)  # a script the game cannot read is refused now, in words
        started = time.perf_counter()
        report = simulate(game, args.players, args.games, args.seed, options=options)
        report.seconds = round(time.perf_counter() - started, 3)
    except GameError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(report.model_dump_json(exclude={"failures"}))
    else:
        print(f"{report.game}: {report.finished}/{report.games} games finished with "
              f"{report.players} players in {report.seconds}s; winners {report.winners}; "
              f"median rounds {report.median_rounds}; {report.actions} actions")
    for failure in report.failures[:20]:
        print(f"FAIL {failure}", file=sys.stderr)
    ok = report.finished == report.games and not report.failures
    return 0 if ok else 1


def _script_option(given: str) -> str:
    """The ``script`` option for ``--script``: an edition's name as it is, else the file's text."""
    from .clocktower.script import edition_of

    if edition_of(given) is not None:
        return given
    return sys.stdin.read() if given == "-" else Path(given).read_text(encoding="utf-8")


def _clocktower_script(path: str) -> int:
    """Print a Clocktower script parsed (characters by team, night orders, jinxes, house rules)."""
    from .clocktower import parse_script

    raw = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
    script = parse_script(raw)
    print(json.dumps(script.model_dump(mode="json"), indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
