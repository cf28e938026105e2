"""The Discord calls of a whole Clocktower week, by kind, from simcord's request log (issue 30).

The real StorytellerBot runs a 15-player game with 2 Travellers on simcord's simulated Discord for
168 hours (nights 1 to 3, days 1 and 2, the dawn of day 3: 2.33 cycles of 72 hours). Each day,
the same pairs and trios of players whisper (a declared whisper each), half of those whispers
break when one of their members posts in the town square, and the same people declare them
again. Interaction responses and follow-ups are not counted (they do not count against
Discord's global limit). The issue's budget: at most 150 calls per 72-hour cycle.

    .venv/bin/python bench/clocktower_week_calls.py [--before DIR]

``--before DIR`` runs the same week on another tree (an export of main, say) in a child
process, and prints both columns side by side.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

BUDGET_PER_CYCLE = 150
CYCLES = 168 / 72
HOUR = 3600.0
SEATS = [3, 1, 7, 2, 9, 5, 4, *range(10, 30)]


def kind_of(method: str, path: str) -> str | None:
    """What a REST call was for; None for interaction responses and follow-ups."""
    if path.startswith(("/interactions/", "/webhooks/", "/applications/")):
        return None
    parts = path.strip("/").split("/")
    if parts[:2] == ["users", "@me"]:
        return "open DM"
    if parts[0] == "guilds" and len(parts) >= 4 and parts[2] == "members":
        return "member fetch" if method == "GET" else f"member {method}"
    if parts[0] != "channels":
        return f"{method} {parts[0]}"
    if len(parts) == 2:
        return "channel/thread fetch" if method == "GET" else "thread lock/unlock/archive"
    sub = parts[2]
    if sub == "messages":
        return "message send" if method == "POST" else "message edit" if method == "PATCH" else f"message {method}"
    if sub == "threads":
        return "thread create"
    if sub == "thread-members":
        return "thread member add" if method == "PUT" else "thread member remove"
    if sub == "permissions":
        return "permission overwrite"
    return f"{method} channel {sub}"


async def say(w, member, text: str) -> None:
    await member.send(w.channel, text)
    await w.settle()


async def whisper(w, by, others) -> bool:
    thread = next(t for t in w.channel.threads if t.name.startswith("📣"))
    extra = {f"player{i + 2}": m for i, m in enumerate(others[1:])}
    res = await by.slash(thread, "whisper", player=others[0], **extra)
    await w.settle()
    return "Your whisper with" in (res.response.content or "")


async def week(seed: int) -> dict:
    from simcord import Env
    from support.sim import World, new_bot

    import bot.service as service_module
    from bot.clock import ManualClock

    folder = Path(tempfile.mkdtemp(prefix="week-"))
    clock = ManualClock()
    bot = new_bot(folder / "bot.db", clock)
    env = Env(bot)
    await env.start()
    service_module.new_seed = lambda: seed
    try:
        w = World(env)

        async def advance(hours: float) -> None:
            clock.advance(hours * HOUR)
            await bot.service.fire_due()
            await w.settle()

        start = len(env.http_requests)
        await w.host.slash(w.channel, "game new", kind="clocktower")
        players = [w.guild.add_member(env.create_user(f"p{i}")) for i in range(15)]
        for member, seat in zip(players, SEATS, strict=False):
            await member.slash(w.channel, "in", seat=seat)
        res = await w.host.slash(w.channel, "st deal")
        assert "Dealt" in res.response.content, res.response.content
        await w.settle()
        await w.host.slash(w.channel, "st begin")
        await w.settle()
        await advance(24)  # day 1: two Travellers arrive
        travellers = [w.guild.add_member(env.create_user(f"t{i}")) for i in range(2)]
        for traveller, seat, character in zip(travellers, (16, 17), ("thief", "scapegoat"), strict=True):
            await traveller.slash(w.channel, "travel in", seat=seat)
            res = await w.host.slash(w.channel, "st traveller add", player=traveller, character=character,
                                     alignment="evil" if character == "thief" else "good")
            await w.settle()
        everyone = players + travellers
        groups = [[everyone[i], everyone[i + 1]] for i in range(0, 12, 2)]
        groups += [[everyone[12], everyone[13], everyone[14]], [everyone[15], everyone[0]],
                   [everyone[16], everyone[3]]]
        declared = 0
        for day in (1, 2):
            for n, group in enumerate(groups):
                declared += await whisper(w, group[0], group[1:])
                if n % 2 == day % 2:  # half of them break, and the same people whisper again
                    await say(w, group[-1], f"good morning, day {day}")
                    declared += await whisper(w, group[0], group[1:])
            await advance(48)  # nightfall
            await advance(24)  # dawn
        counted = Counter()
        for request in env.http_requests[start:]:
            kind = kind_of(request.method, request.path)
            if kind is not None:
                counted[kind] += 1
        return {"counted": dict(counted), "whispers": declared}
    finally:
        await env.shutdown()
        await bot.close()


def measure(tree: Path) -> dict:
    sys.path.insert(0, str(tree))
    sys.path.insert(0, str(tree / "tests"))
    return asyncio.run(week(seed=1))


def table(columns: dict[str, dict]) -> str:
    kinds = sorted({k for c in columns.values() for k in c["counted"]},
                   key=lambda k: -max(c["counted"].get(k, 0) for c in columns.values()))
    names = list(columns)
    lines = ["| calls by kind, one week | " + " | ".join(names) + " |",
             "|---|" + "---:|" * len(names)]
    for kind in kinds:
        lines.append(f"| {kind} | " + " | ".join(str(columns[n]["counted"].get(kind, 0)) for n in names) + " |")
    totals = {n: sum(columns[n]["counted"].values()) for n in names}
    lines.append("| **total** | " + " | ".join(f"**{totals[n]}**" for n in names) + " |")
    lines.append(f"| per 72-hour cycle (budget {BUDGET_PER_CYCLE}) | "
                 + " | ".join(f"{totals[n] / CYCLES:.0f}" for n in names) + " |")
    lines.append("| whispers declared | " + " | ".join(str(columns[n]["whispers"]) for n in names) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--before", type=Path, help="another tree to run the same week on (e.g. main)")
    parser.add_argument("--tree", type=Path, default=Path(__file__).resolve().parent.parent)
    parser.add_argument("--json", action="store_true", help="print the counts as JSON (for --before)")
    args = parser.parse_args()
    if args.json:
        print("RESULT " + json.dumps(measure(args.tree)))
        return
    columns = {}
    if args.before is not None:
        out = subprocess.run([sys.executable, __file__, "--tree", str(args.before), "--json"],
                             capture_output=True, text=True, check=True,
                             env={"PYTHONPATH": str(args.before), "PATH": "/usr/bin:/bin"}).stdout
        columns["before"] = json.loads(re.search(r"^RESULT (.*)$", out, re.M).group(1))
    columns["after" if args.before else "this tree"] = measure(args.tree)
    print(table(columns))


if __name__ == "__main__":
    main()
