"""Two bot processes on one token: the calls per second they make together, side by side in one run.

Each process is a real OS process with the real ``Pacer`` (limit 50 a second), calling as fast as
it is let for ``--seconds`` (20 callers, channels never full; a "call" is the moment it was let
go, no Discord needed). The ways of pacing, each with both processes busy and with one idle:

- ``per process``: today's pacing before issue 30: each process its own 50 a second;
- ``static share``: each process a fixed half (25 a second), the alternative design;
- ``shared bucket, PostgreSQL`` / ``shared bucket, SQLite``: the token's budget as one token bucket
  on the database the processes share (``bot.token_budget``), blocks of ``--block`` calls, and
  leases for a quiet process;
- ``... no lease (before)``: the same bucket without leases (before issue 38).

The loads: both busy, one busy and one idle, and both quiet (a call every 0.4 s each, one at a
time: where a lease saves an ask per call).

Printed per row: the calls per second of the two together (all calls over the run's length), the
most in one clock second and in any one-second stretch (sliding: what the token bucket bounds),
the database asks per second, and the blocks given up because the answer came too late. Without ``--url`` it starts its own PostgreSQL from the machine's
binaries.

    .venv/bin/python bench/two_processes.py [--seconds 5] [--block 5] [--url postgresql://...]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from support.token_calls import calls_flat_out, most_in_one_second  # noqa: E402

#: a worker's load: 1 as fast as it is let, 0 no calls, 2 a call every QUIET_EVERY seconds
QUIET, QUIET_EVERY = 2, 0.4

from bot.pacer import Pacer  # noqa: E402
from bot.stores import open_store  # noqa: E402
from bot.token_budget import TokenBudget  # noqa: E402

LIMIT = 50
CALLERS = 20


async def worker(mode: str, url: str, start_at: float, seconds: float, busy: int, block: int) -> dict:
    """One process: call as fast as ``mode`` lets it (or quietly) from ``start_at`` for ``seconds``."""
    store = await open_store(url) if mode.startswith("shared") else None
    pacer = Pacer(per_second=LIMIT // 2 if mode == "static" else LIMIT, per_channel=10**9)
    budget = None
    if store is not None:
        budget = pacer.budget = TokenBudget(store, share=0.5, block=block, lease=mode != "shared-nolease")
    stamps = await calls_flat_out(pacer, start_at=start_at, seconds=seconds, busy=busy == 1, callers=CALLERS,
                                  every=QUIET_EVERY if busy == QUIET else None)
    if store is not None:
        await store.close()
    return {"stamps": stamps, "asks": budget.asks if budget else 0,
            "late": budget.late if budget else 0}


def run_pair(mode: str, url: str, seconds: float, busy: tuple[int, int], block: int) -> dict:
    start_at = time.time() + 2.0  # both processes up and connected by then
    procs = [subprocess.Popen([sys.executable, __file__, "worker", mode, url, str(start_at), str(seconds),
                               str(int(b)), str(block)], stdout=subprocess.PIPE, text=True) for b in busy]
    results = [json.loads(p.communicate(timeout=120)[0]) for p in procs]
    stamps = sorted(t for r in results for t in r["stamps"])
    per_second = Counter(int(t) for t in stamps)
    return {
        "mean": len(stamps) / seconds,
        "max_second": max(per_second.values(), default=0),
        "max_sliding": most_in_one_second(stamps),
        "asks": sum(r["asks"] for r in results) / seconds,
        "asks_per_call": sum(r["asks"] for r in results) / max(1, len(stamps)),
        "late": sum(r["late"] for r in results),
    }


async def prepare(url: str) -> None:
    await (await open_store(url)).close()  # migrated once, before two processes open it


def new_database(server) -> str:
    """A database of its own (the server may still be starting up when its port opens)."""
    for _ in range(50):
        try:
            return server.new_database()
        except RuntimeError as exc:
            if "starting up" not in str(exc):
                raise
            time.sleep(0.2)
    return server.new_database()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--block", type=int, default=5)
    parser.add_argument("--url", help="a PostgreSQL database to use (default: a server of its own)")
    args = parser.parse_args()
    server = None
    pg_url = args.url
    if pg_url is None:
        from support.postgres import Server, binaries

        bindir = binaries()
        if bindir is None:
            sys.exit("PostgreSQL's server binaries are not installed (apt-get install -y postgresql), or give --url")
        server = Server(bindir, durable=True)
        server.start()
        pg_url = new_database(server)
    folder = tempfile.mkdtemp(prefix="two-processes-")
    lite = str(Path(folder) / "bot.db")
    try:
        for url in (pg_url, lite):
            asyncio.run(prepare(url))
        rows = [("per process (before)", "alone", lite), ("static share", "static", lite),
                ("shared bucket, PostgreSQL", "shared", pg_url), ("shared bucket, SQLite", "shared", lite),
                ("PostgreSQL, no lease (before)", "shared-nolease", pg_url),
                ("SQLite, no lease (before)", "shared-nolease", lite)]
        print(f"two processes, limit {LIMIT}/s, {args.seconds:g} s each, block {args.block}")
        print(f"{'pacing':<31}{'load':<11}{'calls/s':>8}{'max/clock s':>12}{'max/any 1 s':>12}{'db asks/s':>10}"
              f"{'asks/call':>10}{'late':>6}")
        for name, mode, url in rows:
            for load, busy in (("both busy", (1, 1)), ("one idle", (1, 0)), ("both quiet", (QUIET, QUIET))):
                if load == "both quiet" and not mode.startswith("shared"):
                    continue
                r = run_pair(mode, url, args.seconds, busy, args.block)
                print(f"{name:<31}{load:<11}{r['mean']:>8.1f}{r['max_second']:>12}{r['max_sliding']:>12}"
                      f"{r['asks']:>10.1f}{r['asks_per_call']:>10.2f}{r['late']:>6}")
    finally:
        if server is not None:
            server.stop()


if __name__ == "__main__" and sys.argv[1:2] == ["worker"]:
    _mode, _url, _start, _seconds, _busy, _block = sys.argv[2:8]
    print(json.dumps(asyncio.run(worker(_mode, _url, float(_start), float(_seconds), int(_busy), int(_block)))))
elif __name__ == "__main__":
    main()
