"""The bot worker process's memory over many decisions: its RSS sampled while all-bot rooms play flat out on one ``mahjong-server --bot-processes 1``.

Starts its own redis-server and server, then ``--bot-rooms`` all-bot rooms (a bot delay of
0, no clocks, a new game when one ends; the rule sets in turn) until the server has
committed ``--decisions`` game actions in them (``mahjong_actions_total``: each one a bot's
decision or the server's pass for a seat with no other choice; the decisions are made by
the worker process, in the rooms' timer ticks). Every ``--every`` decisions the worker's RSS
(and the server's) is recorded; the report gives the curve and the worker's growth from the
end of the warm-up (``--warm-up`` decisions) to the end, and its spread after the warm-up
(max - min over min).

    python benchmarks/bench_bot_memory.py --decisions 10000 --bot-rooms 5
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench_bot_isolation import bot_room  # noqa: E402
from memwatch import growth_sites, rss_kib, snapshots  # noqa: E402

from server.process.procs import server_command, start_listening  # noqa: E402
from server.room import game  # noqa: E402
from server.storage.embedded import EmbeddedRedis  # noqa: E402


def actions(port: int) -> int:
    """The server's committed game actions (``mahjong_actions_total``)."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as r:
        for line in r.read().decode().splitlines():
            if line.startswith("mahjong_actions_total "):
                return int(float(line.split()[1]))
    return 0


def bot_workers(server_pid: int) -> list[int]:
    """The server's bot worker processes (multiprocessing's spawned children, not its
    resource tracker)."""
    out = []
    for child in psutil.Process(server_pid).children():
        with contextlib.suppress(psutil.Error):
            cmd = " ".join(child.cmdline())
            if "spawn_main" in cmd and "resource_tracker" not in cmd:
                out.append(child.pid)
    return out


async def run(args: argparse.Namespace, tmp: Path) -> dict[str, Any]:
    red = EmbeddedRedis(tmp, args=["--appendonly", "no"], new_session=False)
    red.start()
    sproc: subprocess.Popen[str] | None = None
    stop = asyncio.Event()
    rooms: list[asyncio.Task[int]] = []
    try:
        cmd = server_command(
            "--redis-url", red.url, "--log-level", "WARNING", "--bot-processes", "1",
            *args.server_arg,
        )  # fmt: skip
        env = dict(os.environ)
        if args.tracemalloc:
            (tmp / "tm").mkdir()
            env |= {"PYTHONTRACEMALLOC": "1", "MAHJONG_TRACEMALLOC_DIR": str(tmp / "tm")}
        sproc, port = start_listening(cmd, stderr=subprocess.DEVNULL, cwd=ROOT, env=env)
        started: list[int] = []
        names = [args.ruleset] if args.ruleset else game.rulesets()
        rooms = [
            asyncio.create_task(bot_room(port, names[i % len(names)], stop, started))
            for i in range(args.bot_rooms)
        ]
        curve: list[dict[str, Any]] = []
        workers: set[int] = set()
        base = actions(port)
        next_at = 0
        snapped = False
        t0 = time.perf_counter()
        while True:
            await asyncio.sleep(0.2)
            for t in rooms:
                if t.done():
                    t.result()  # a room that failed: raise
            n = actions(port) - base
            if n < next_at:
                continue
            pids = bot_workers(sproc.pid)
            workers.update(pids)
            worker_kib = [rss_kib(p) or 0 for p in pids]
            curve.append(
                {
                    "decisions": n,
                    "seconds": round(time.perf_counter() - t0, 1),
                    "worker_mib": [round(k / 1024, 1) for k in worker_kib],
                    "server_mib": round((rss_kib(sproc.pid) or 0) / 1024, 1),
                }
            )
            if not args.quiet:
                print(json.dumps(curve[-1]), flush=True)
            if args.tracemalloc and (not snapped or n >= args.decisions) and n >= args.warm_up:
                want = len(snapshots(tmp / "tm")) + len(pids) + 1
                for p in [*pids, sproc.pid]:  # a snapshot after the warm-up and at the end
                    os.kill(p, signal.SIGUSR1)
                snapped = True
                for _ in range(600):  # written (a traced worker takes a while)
                    if len(snapshots(tmp / "tm")) >= want:
                        break
                    await asyncio.sleep(0.1)
                await asyncio.sleep(1)
            if n >= args.decisions:
                break
            next_at = (n // args.every + 1) * args.every
        out = {"curve": curve, "worker_pids": sorted(workers), **growth(curve, args.warm_up)}
        for name, pid in (("worker", max(workers, default=0)), ("server", sproc.pid)):
            snaps = snapshots(tmp / "tm", pid) if args.tracemalloc else []
            if len(snaps) >= 2:
                out[f"tracemalloc_growth_{name}"] = growth_sites(snaps[0], snaps[-1], 1, 15)
        return out
    finally:
        stop.set()
        for t in rooms:
            t.cancel()
        if sproc is not None:
            sproc.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                sproc.wait(20)
        red.stop(15)


def growth(curve: list[dict[str, Any]], warm_up: int) -> dict[str, Any]:
    """The worker's RSS after the warm-up: first, last, min, max (MiB), growth first → last
    and the spread (max - min) / min, in %. (One worker: the sum when there are more.)"""
    after = [sum(p["worker_mib"]) for p in curve if p["decisions"] >= warm_up]
    if not after:
        return {}
    first, last, lo, hi = after[0], after[-1], min(after), max(after)
    return {
        "warm_up_decisions": warm_up,
        "worker_mib_after_warm_up": first,
        "worker_mib_end": last,
        "worker_mib_min_max": [lo, hi],
        "worker_growth_pct": round(100 * (last - first) / first, 2),
        "worker_spread_pct": round(100 * (hi - lo) / lo, 2),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--decisions", type=int, default=10_000)
    ap.add_argument("--bot-rooms", type=int, default=5)
    ap.add_argument("--every", type=int, default=500, help="sample every this many decisions")
    ap.add_argument("--warm-up", type=int, default=1000, help="decisions before the baseline")
    ap.add_argument("--ruleset", default=None, help="one rule set (default: each in turn)")
    ap.add_argument("--server-arg", action="append", default=[], help="extra server argument")
    ap.add_argument(
        "--tracemalloc",
        action="store_true",
        help="trace the worker's allocations: the sites that grew after the warm-up",
    )
    ap.add_argument("--json", help="append the result (one JSON line) to this file")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # stop the processes started
    tmp = Path(tempfile.mkdtemp(prefix="bench-bot-mem-"))
    try:
        res = {"command": " ".join(sys.argv), **asyncio.run(run(args, tmp))}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(json.dumps({k: v for k, v in res.items() if k != "curve"}), flush=True)
    if args.json:
        with open(args.json, "a", encoding="utf-8") as f:
            f.write(json.dumps(res) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
