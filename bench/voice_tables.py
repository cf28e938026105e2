"""Speaking turns when several voice tables share one server, on the game clock (issue 36).

Discord lets a bot make about ten member edits (server mutes) every ten seconds in one server.
Here ``--tables`` Rituals of nine with speaking turns (`speaking_turns=true`: turns of 8 s), each
in its own text and voice channel of one server, start together, so their Choosings open at the
same moment. The real StorytellerBot plays them on simcord's simulated Discord, with the pacer of a
real deployment (50 calls a second, five per channel in five seconds, ten member edits per server
in ten seconds), but on the game clock: the clock jumps to the next moment something is due (a
window frees up, a turn ends), so a Choosing of 90 s costs no real waiting.

Each member edit is logged on the game clock. For every speaking turn of the first Choosing:
- how late the speaker may speak: from the turn's start until they are unmuted for the rest of it
  (0 when they were not muted); a turn is *late* when that is more than 1 s;
- how long the previous speaker stays open: from the turn's start until they are muted.
A table whose turns were called by name without muting (the bot's fallback on a busy server) has
no late turn and no mute; it is counted apart.

    .venv/bin/python bench/voice_tables.py [--tables 1 2 3 4]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from simcord import Env  # noqa: E402
from support.game_time import GameTime  # noqa: E402
from support.sim import World, new_bot  # noqa: E402

from bot.actor import Actor  # noqa: E402
from bot.clock import ManualClock  # noqa: E402

PLAYERS = 9
OPTIONS = "speaking_turns=true"
LATE = 1.0
#: the first Choosing, less a second (its deadline opens the next phase)
WATCH_SECONDS = 89.0


@dataclass
class Turn:
    game_id: int
    index: int
    speaker: int
    previous: int | None
    start: float
    end: float


@dataclass
class Server:
    tables: int
    turns: list[Turn] = field(default_factory=list)
    edits: list[tuple[float, int, bool]] = field(default_factory=list)  # (time, member, mute)
    players: dict[int, list[int]] = field(default_factory=dict)  # game -> its players
    said: list[str] = field(default_factory=list)  # what the hosts were told


async def one_server(tables: int) -> Server:
    folder = Path(tempfile.mkdtemp(prefix="voice-tables-"))
    clock = ManualClock()
    bot = new_bot(folder / "bot.db", clock)
    env = Env(bot)
    await env.start()
    server = Server(tables)
    try:
        time = GameTime(env, clock)
        bot.delivery.pacer = time.pacer(per_second=50, per_channel=5, channel_seconds=5.0)
        real_edit = bot.http.edit_member

        async def edit_member(guild_id, user_id, *args, **kwargs):
            if "mute" in kwargs:
                server.edits.append((clock.now(), int(user_id), bool(kwargs["mute"])))
            return await real_edit(guild_id, user_id, *args, **kwargs)

        bot.http.edit_member = edit_member
        w = World(env)
        hosts = {}
        for k in range(tables):
            channel = w.guild.create_text_channel(f"table-{k}")
            vc = w.guild.create_voice_channel(f"Table {k}")
            members = [w.guild.add_member(env.create_user(f"t{k}p{i}")) for i in range(PLAYERS)]
            for m in members:
                await m.join_voice(vc)
            res = await members[0].slash(channel, "game new", kind="ritual", options=OPTIONS)
            for m in members[1:]:
                await m.click(res.response, label="Join")
            game_id = (await bot.service.game_in_channel(channel.id)).id
            hosts[game_id] = members[0]
            server.players[game_id] = [m.id for m in members]
        await time.settle(bot)
        started = clock.now()
        for game_id, host in hosts.items():  # all at once: the Choosings open together
            await bot.service.start(game_id, Actor(id=host.id, name=host.user.name))
        seen: dict[tuple[int, int, int], Turn] = {}

        async def next_due() -> float | None:
            times = []
            for game_id in hosts:
                row = await bot.store.game(game_id)
                times += [t for t in (row.deadline, row.turn_deadline) if t is not None and t > clock.now()]
            return min(times, default=None)

        async def note_turns() -> None:
            for game_id in hosts:
                table = await bot.service.load(game_id)
                turn = table.game.speaking_turn(table.state)
                row = table.row
                if turn is None or row.turn_deadline is None:
                    continue
                key = (game_id, table.state.phase_seq, turn.index)
                if key not in seen:
                    before = [t for t in seen.values() if t.game_id == game_id]
                    previous = before[-1].speaker if before else None
                    seen[key] = Turn(game_id, turn.index, int(turn.speaker), previous,
                                     row.turn_deadline - turn.seconds, row.turn_deadline)

        await time.run(bot, started + WATCH_SECONDS, next_due, note_turns)
        server.turns = list(seen.values())
        for host in hosts.values():
            server.said += [t for t in w.dm_texts(host) if "called by name" in t]
        return server
    finally:
        await env.shutdown()
        await bot.close()


def speaks_at(turn: Turn, edits: list[tuple[float, int, bool]]) -> float | None:
    """When the speaker is unmuted for the rest of their turn (the first unmute after it, if none
    in it; None: not before the Choosing was watched to its end)."""
    mine = [(t, mute) for t, uid, mute in edits if uid == turn.speaker]
    muted = False
    for t, mute in mine:
        if t > turn.start:
            break
        muted = mute
    free_at: float | None = None if muted else turn.start
    for t, mute in mine:
        if t <= turn.start:
            continue
        if t >= turn.end and free_at is not None:
            break
        if mute:
            free_at = None
        elif free_at is None:
            free_at = t
    return free_at


def muted_at(turn: Turn, edits: list[tuple[float, int, bool]]) -> float | None:
    """When the previous speaker is muted in this turn (None: not at all)."""
    return next((t for t, uid, mute in edits if uid == turn.previous and mute and t >= turn.start), None)


def quiet_at(turn: Turn, edits: list[tuple[float, int, bool]], players: list[int]) -> float:
    """When everyone at the table but the speaker is muted, in this turn (its end: not in it)."""
    muted: dict[int, bool] = {}
    for t, uid, mute in edits:
        if t > turn.start and all(muted.get(p, False) for p in players if p != turn.speaker):
            return turn.start
        if t >= turn.end:
            break
        if uid in players:
            muted[uid] = mute
            if t >= turn.start and all(muted.get(p, False) for p in players if p != turn.speaker):
                return t
    return turn.start if all(muted.get(p, False) for p in players if p != turn.speaker) else turn.end


def report(server: Server) -> dict:
    kept_games = {g for g, players in server.players.items()
                  if any(mute and uid in players for _t, uid, mute in server.edits)}
    turns = [t for t in server.turns if t.game_id in kept_games]
    speaks = [speaks_at(t, server.edits) for t in turns]
    lateness = [(at if at is not None else WATCH_SECONDS + min(x.start for x in turns)) - t.start
                for at, t in zip(speaks, turns, strict=True)]
    quiet = [min(quiet_at(t, server.edits, server.players[t.game_id]), t.end) - t.start for t in turns]
    opened = []
    for t in turns:
        if t.previous is None:
            continue
        at = muted_at(t, server.edits)
        opened.append((at if at is not None and at < t.end else t.end) - t.start)
    return {
        "tables": server.tables, "kept": len(kept_games), "turns": len(turns),
        "late": sum(1 for x in lateness if x > LATE) / len(lateness) if lateness else 0.0,
        "worst": max(lateness, default=0.0), "never": sum(1 for at in speaks if at is None),
        "quiet_mean": sum(quiet) / len(quiet) if quiet else 0.0, "quiet_worst": max(quiet, default=0.0),
        "open_mean": sum(opened) / len(opened) if opened else 0.0, "open_worst": max(opened, default=0.0),
        "edits": len(server.edits), "told": len(server.said),
    }


async def main_async(counts: list[int]) -> None:
    print(f"Rituals of {PLAYERS} ({OPTIONS}) in one server, their Choosings opening together; "
          f"the first Choosing on the game clock")
    print("tables | turns kept with mutes | turns >1 s late | worst lateness | previous speaker open "
          "(mean / worst) | the rest of the table muted after (mean / worst) | member edits | hosts told")
    for n in counts:
        r = report(await one_server(n))
        print(f"{r['tables']} | {r['kept']} of {r['tables']} tables ({r['turns']} turns) | {100 * r['late']:.0f}% | "
              f"{r['worst']:.1f} s{' (' + str(r['never']) + ' never unmuted in their turn)' if r['never'] else ''} | "
              f"{r['open_mean']:.1f} s / {r['open_worst']:.1f} s | {r['quiet_mean']:.1f} s / {r['quiet_worst']:.1f} s | "
              f"{r['edits']} | {r['told']}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, nargs="+", default=[1, 2, 3, 4])
    args = parser.parse_args()
    asyncio.run(main_async(args.tables))


if __name__ == "__main__":
    main()
