"""``mahjong-loadtest``: N rooms × 4 clients over real WebSockets, with the transport baseline.

Examples::

    # 20 rooms against one running server, flat out for 20 s, then the bare-websockets
    # baseline (started by the harness on a free port) with the same frame size and fan-out:
    mahjong-loadtest --url ws://127.0.0.1:8765 --rooms 20 --duration 20 --baseline \\
        --json run.json --chart run.png

    # capacity: 2,000 rooms at one action per room per second for 10 minutes, over two
    # server processes:
    mahjong-loadtest --url ws://127.0.0.1:8765 --url ws://127.0.0.1:8766 --rooms 2000 \\
        --interval 1 --duration 600

``--interval`` is the "thinking time" of each seat before it answers (±50 % jitter; 0 =
flat out). Live progress goes to stderr once per second; the report (JSON with
``--json``, a PNG with ``--chart``) contains connections, rooms, hands, actions/s, latency
percentiles from sending an action to its broadcast (own connection and all four), errors by
code and disconnects.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import subprocess
import sys
import time
from collections.abc import Sequence
from typing import Any

from loadtest.baseline import HAS_UVLOOP, install_uvloop
from loadtest.rooms import BaselineRoom, GameRoom, Pacing
from loadtest.stats import Recorder
from protocol.fdlimit import raise_nofile_limit
from server.process.collector import freeze_loop
from server.process.procs import pinned, start_listening

__all__ = ["main", "run_baseline", "run_game", "start_baseline_server"]

DEFAULT_PAYLOAD = 400


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of process ``pid`` so far (Linux /proc), or None."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    tick = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / tick


def rss_kib(pid: int) -> int | None:
    """Resident memory of process ``pid`` in KiB (Linux /proc), or None."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return None


#: the harness's collector freeze (``server.process.collector.freeze_loop``; 0: off), ``--gc-freeze-seconds``
GC_FREEZE_SECONDS = 0.1


async def _drive(
    rooms: Sequence[GameRoom | BaselineRoom],
    rec: Recorder,
    duration: float,
    connect_rate: float,
    progress: bool,
    pids: Sequence[int] = (),
    until_hands: int | None = None,
    gc_freeze_seconds: float = GC_FREEZE_SECONDS,
) -> None:
    """Set the rooms up (at ``connect_rate`` rooms/s), run for ``duration`` (or until
    ``until_hands`` hands are finished, if sooner), close them."""
    stop_progress = asyncio.Event()

    async def ticker() -> None:
        while not stop_progress.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop_progress.wait(), 1.0)
            if progress:
                print(rec.progress_line(), file=sys.stderr, flush=True)

    tick = asyncio.get_running_loop().create_task(ticker())
    # the harness holds thousands of connections too: without this its own collector paused
    # it for ~1.1 s at 8,000 connections, and every action in flight then was measured late
    freezer = None
    if gc_freeze_seconds > 0:
        freezer = asyncio.get_running_loop().create_task(freeze_loop(gc_freeze_seconds))

    async def setup(r: GameRoom | BaselineRoom, delay: float) -> None:
        await asyncio.sleep(delay)
        try:
            await r.setup()
        except Exception as e:  # the report counts it; the run goes on
            rec.error(f"setup:{type(e).__name__}:{getattr(e, 'code', '')}".rstrip(":"))

    rss0 = {pid: rss_kib(pid) for pid in pids}
    step = 1.0 / connect_rate if connect_rate > 0 else 0.0
    await asyncio.gather(*(setup(r, i * step) for i, r in enumerate(rooms)))
    rec.start = time.perf_counter()  # measure from the moment every room plays
    rec.seconds.clear()
    rec.actions = rec.deliveries = rec.hands = 0
    # frame counts of the window too (set-up's lobby frames would add ~1 per action at
    # 250 rooms paced, and make the baseline's payload the lobby's size)
    rec.frames_in = rec.bytes_in = rec.events_frames = rec.events_bytes = 0
    rec.own.clear()
    rec.all_four.clear()
    cpu0 = {pid: cpu_seconds(pid) for pid in pids}
    end = time.perf_counter() + duration
    while (now := time.perf_counter()) < end:
        if until_hands is not None and rec.hands >= until_hands:
            break
        await asyncio.sleep(min(0.1, end - now))
    rec.finish()
    for pid, before in cpu0.items():
        after = cpu_seconds(pid)
        if before is not None and after is not None:
            rec.cpu[str(pid)] = after - before
    for pid, r0 in rss0.items():
        r1 = rss_kib(pid)
        if r0 is not None and r1 is not None:
            rec.rss[str(pid)] = (r0, r1)
    for r in rooms:
        r.stop.set()
    await asyncio.gather(*(r.close() for r in rooms), return_exceptions=True)
    stop_progress.set()
    await tick
    if freezer is not None:
        freezer.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await freezer
        gc.unfreeze()  # the process as it was (a caller may run more than one part)


async def run_game(
    urls: list[str],
    rooms: int,
    duration: float,
    pacing: Pacing,
    ruleset: str,
    connect_rate: float = 200.0,
    progress: bool = True,
    pids: Sequence[int] = (),
    worker: int = 0,
    workers: int = 1,
    until_hands: int | None = None,
    reconnect: bool = False,
    sparse: bool = True,
    gc_freeze_seconds: float = GC_FREEZE_SECONDS,
    window_ms: int | None = None,
    hands_per_game: int = 64,
) -> Recorder:
    """Play ``rooms`` rooms (this process: every ``workers``-th from ``worker``)."""
    rec = Recorder("game" if workers == 1 else f"game/w{worker}")
    rs = [
        GameRoom(
            urls,
            i,
            rec,
            pacing,
            ruleset,
            hands_per_game=hands_per_game,
            reconnect=reconnect,
            sparse=sparse,
            window_ms=window_ms,
        )
        for i in range(worker, rooms, workers)
    ]
    await _drive(rs, rec, duration, connect_rate, progress, pids, until_hands, gc_freeze_seconds)
    return rec


async def run_baseline(
    urls: list[str],
    rooms: int,
    duration: float,
    pacing: Pacing,
    payload: int,
    connect_rate: float = 200.0,
    progress: bool = True,
    pids: Sequence[int] = (),
    worker: int = 0,
    workers: int = 1,
    label: str = "baseline",
    fanout: float = 4.0,
    gc_freeze_seconds: float = GC_FREEZE_SECONDS,
) -> Recorder:
    rec = Recorder(label if workers == 1 else f"{label}/w{worker}")
    rs = [
        BaselineRoom(urls, i, rec, pacing, payload, fanout) for i in range(worker, rooms, workers)
    ]
    await _drive(rs, rec, duration, connect_rate, progress, pids, None, gc_freeze_seconds)
    return rec


def _worker(kind: str, kw: dict[str, Any], worker: int, workers: int, uvloop: bool) -> Recorder:
    raise_nofile_limit()  # thousands of client sockets per process
    if uvloop:
        install_uvloop()
    fn = run_game if kind == "game" else run_baseline
    if kind == "toy":
        kw = {**kw, "label": "toy"}
    if worker:
        kw = {**kw, "pids": ()}  # CPU is measured once, by the first worker
    rec = asyncio.run(fn(**kw, worker=worker, workers=workers))
    return rec


def run_part(kind: str, kw: dict[str, Any], workers: int, uvloop: bool) -> Recorder:
    """Run one part (``game``, ``baseline`` or ``toy``) in ``workers`` harness processes."""
    if workers <= 1:
        return _worker(kind, kw, 0, 1, False)
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    ctx = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(workers, mp_context=ctx) as pool:
        futs = [pool.submit(_worker, kind, kw, w, workers, uvloop) for w in range(workers)]
        parts = [f.result() for f in futs]
    rec = Recorder.merged(parts)
    rec.label = kind
    return rec


def start_baseline_server(
    cpu: int | None = None,
    uvloop: bool = False,
    redis_url: str | None = None,
    redis_client: str = "redis-py",
) -> tuple[subprocess.Popen[str], str]:
    """Start ``python -m loadtest.baseline`` on a free port (with ``redis_url``: the toy, one
    Lua call per action, on ``redis_client``); return (process, url)."""
    cmd = [sys.executable, "-m", "loadtest.baseline", "--port", "0"]
    cmd.append("--uvloop" if uvloop else "--no-uvloop")
    if redis_url is not None:
        cmd += ["--redis", redis_url, "--redis-client", redis_client]
    if not hasattr(os, "sched_setaffinity"):
        cpu = None  # no taskset
    proc, port = start_listening(pinned(cpu, cmd), stderr=None, name="baseline server")
    return proc, f"ws://127.0.0.1:{port}"


def _stop(proc: subprocess.Popen[str]) -> None:
    proc.terminate()
    proc.wait(10)


def _embedded_redis(stack: contextlib.ExitStack, pids: list[int]) -> str:
    """A throwaway redis-server for the toy (the game server's own embedded one, same
    settings); its pid is measured too."""
    import tempfile
    from pathlib import Path

    from server.storage.embedded import EmbeddedRedis

    d = stack.enter_context(tempfile.TemporaryDirectory(prefix="mj-toy-"))
    r = EmbeddedRedis(Path(d))
    r.start()
    stack.callback(r.stop)
    if r.proc is not None:
        pids.append(r.proc.pid)
    return r.url


def report(
    game: Recorder | None, base: Recorder | None, args: Any, toy: Recorder | None = None
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "command": " ".join(["mahjong-loadtest", *sys.argv[1:]]),
        "rooms": args.rooms,
        "duration_s": args.duration,
        "interval_s": args.interval,
        "ruleset": args.ruleset,
        "hands_per_game": args.hands_per_game,
        "urls": args.url,
        "harness_workers": args.workers,
        "cpus": os.cpu_count(),
    }
    if game is not None:
        out["game"] = game.to_json()
    if base is not None:
        out["baseline"] = base.to_json()
    if toy is not None:
        out["toy"] = toy.to_json()
    if base is not None and base.actions:
        b = out["baseline"]["actions_per_s"]
        for key in ("game", "toy"):
            if key in out and b:
                out[f"ratio_{key}_over_baseline"] = round(out[key]["actions_per_s"] / b, 3)
    return out


def print_summary(rep: dict[str, Any]) -> None:
    for key in ("game", "baseline", "toy"):
        r = rep.get(key)
        if r is None:
            continue
        lat = r["latency_action_to_all_four"]
        if r.get("cpu_us_per_action"):
            print(f"{key:>8}: CPU µs per action by process: {r['cpu_us_per_action']}")
        print(
            f"{key:>8}: rooms {r['rooms']}, peak connections {r['connections_peak']}, "
            f"hands {r['hands']}, actions {r['actions']} ({r['actions_per_s']}/s, "
            f"{r['events_frames_per_action']} events frames each), "
            f"all-four latency p50 {lat['p50_ms']} p95 {lat['p95_ms']} p99 {lat['p99_ms']} "
            f"p999 {lat['p999_ms']} max {lat['max_ms']} ms, errors {r['errors_total']} "
            f"{r['errors'] or ''}, disconnects {r['disconnects']}, "
            f"connect failures {r['connect_failures']}"
            + (f", stale actions refused {r['stale_actions']}" if r.get("stale_actions") else "")
        )
        rc = r["reconnects"]
        if rc["count"] or r["reconnect_failures"]:
            print(
                f"{key:>8}: reconnects {rc['count']} (loss → snapshot p50 {rc['p50_ms']} "
                f"p99 {rc['p99_ms']} max {rc['max_ms']} ms; attempt → snapshot p50 "
                f"{r['resume_after_up']['p50_ms']} p99 {r['resume_after_up']['p99_ms']} ms), failures "
                f"{r['reconnect_failures']}, resumed behind {r['resumed_behind']}"
            )
    for key in ("game", "toy"):
        if rep.get(f"ratio_{key}_over_baseline") is not None:
            print(f"   ratio: {key} / baseline actions/s = {rep[f'ratio_{key}_over_baseline']}")


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="mahjong-loadtest",
        description="Load-test mahjong servers with N rooms × 4 WebSocket clients.",
    )
    ap.add_argument(
        "--url", action="append", default=[], help="game server URL (repeat for several)"
    )
    ap.add_argument("--rooms", type=int, default=20, help="rooms (each: four connections)")
    ap.add_argument("--duration", type=float, default=20.0, help="seconds of play (per part)")
    ap.add_argument(
        "--interval", type=float, default=0.0, help="seat thinking time in s (0: flat out)"
    )
    ap.add_argument("--ruleset", default="zung-jung", help="rule set of the rooms")
    ap.add_argument(
        "--hands-per-game",
        type=int,
        default=64,
        help="the rooms' game length in hands; a finished game is followed by a rematch",
    )
    ap.add_argument(
        "--until-hands",
        type=int,
        help="end the game part early once this many hands are finished (per harness process)",
    )
    ap.add_argument(
        "--reconnect",
        action="store_true",
        help="reconnect lost connections with their token (restart tests); reports the "
        "time from the loss to the room's snapshot",
    )
    ap.add_argument(
        "--dense",
        action="store_true",
        help="ask for every commit of the room (no hello.sparse): also the ones that show a "
        "seat nothing, such as another seat's pass",
    )
    ap.add_argument(
        "--gc-freeze-seconds",
        type=float,
        default=GC_FREEZE_SECONDS,
        help="the harness's own collector freeze, as the server's (0: off)",
    )
    ap.add_argument(
        "--window-ms",
        type=int,
        help="the rooms' window_ms option (default: the server's, 1000): the longest wait of a"
        " claim window's automatic answers; 0 for a flat-out peak, whose windows would"
        " otherwise wait up to a second for the server's drawn times",
    )
    ap.add_argument("--connect-rate", type=float, default=200.0, help="rooms set up per second")
    ap.add_argument("--baseline", action="store_true", help="also run the bare-websockets baseline")
    ap.add_argument("--baseline-url", help="a running baseline server (default: start one)")
    ap.add_argument(
        "--baseline-fanout",
        type=float,
        help="events frames per action of the baseline and toy (1..4; default: the game "
        "part's, so that all three carry the same traffic; 4 without a game part)",
    )
    ap.add_argument("--baseline-cpu", type=int, help="pin the started baseline to this CPU")
    ap.add_argument(
        "--payload", type=int, help="baseline frame bytes (default: the game run's mean)"
    )
    ap.add_argument(
        "--toy",
        action="store_true",
        help="also run the toy: the baseline server with one Lua call per action on Redis "
        "(the issue's calibration point), reported beside the baseline",
    )
    ap.add_argument("--toy-redis", help="Redis URL for the toy (default: an embedded redis-server)")
    ap.add_argument(
        "--toy-client",
        choices=["redis-py", "resp"],
        default="redis-py",
        help="the toy's Redis client: redis.asyncio with a blocking pool (the toy issue 23 "
        "calibrated against) or the game server's own pipelined connection (server/storage/resp.py)",
    )
    ap.add_argument(
        "--uvloop",
        action=argparse.BooleanOptionalAction,
        default=HAS_UVLOOP,
        help="use uvloop in the harness and the baseline/toy server (default: when installed, "
        "as the game server does)",
    )
    ap.add_argument(
        "--server-pid",
        type=int,
        action="append",
        default=[],
        help="game server (or redis) process to measure CPU µs per action of (repeatable)",
    )
    ap.add_argument(
        "--workers", type=int, default=1, help="harness processes (rooms are split among them)"
    )
    ap.add_argument("--json", help="write the report as JSON to this file ('-': stdout)")
    ap.add_argument("--chart", help="write a PNG chart (needs the 'loadtest' extra)")
    ap.add_argument("--quiet", action="store_true", help="no live progress")
    args = ap.parse_args(argv)
    if not args.url and not args.baseline and not args.toy:
        ap.error("give --url (a game server) and/or --baseline / --toy")
    if args.rooms < 1 or args.duration <= 0 or args.hands_per_game < 1:
        ap.error("--rooms, --duration and --hands-per-game must be positive")
    if args.uvloop and args.workers <= 1:
        install_uvloop()
    pacing = Pacing(args.interval)
    game: Recorder | None = None
    rate = args.connect_rate / max(1, args.workers)
    if args.url:
        kw = {
            "urls": args.url, "rooms": args.rooms, "duration": args.duration,
            "pacing": pacing, "ruleset": args.ruleset, "connect_rate": rate,
            "progress": not args.quiet, "pids": args.server_pid,
            "until_hands": args.until_hands, "reconnect": args.reconnect,
            "sparse": not args.dense, "gc_freeze_seconds": args.gc_freeze_seconds,
            "window_ms": args.window_ms, "hands_per_game": args.hands_per_game,
        }  # fmt: skip
        game = run_part("game", kw, args.workers, args.uvloop)
    parts: dict[str, Recorder] = {}
    payload = args.payload
    game_rep = game.to_json() if game is not None else {}
    if payload is None:
        mean = game_rep.get("mean_events_frame_bytes")
        payload = int(mean) if mean else DEFAULT_PAYLOAD
    fanout = args.baseline_fanout
    if fanout is None:  # the game's: the same traffic (4 without a game part)
        fanout = min(4.0, game_rep.get("events_frames_per_action") or 4.0)
    for kind in ("baseline", "toy"):
        if not getattr(args, kind):
            continue
        with contextlib.ExitStack() as stack:
            url = args.baseline_url if kind == "baseline" else None
            pids: list[int] = []
            if url is None:
                redis_url = None
                if kind == "toy":
                    redis_url = args.toy_redis or _embedded_redis(stack, pids)
                proc, url = start_baseline_server(
                    args.baseline_cpu, args.uvloop, redis_url, args.toy_client
                )
                stack.callback(_stop, proc)
                pids.insert(0, proc.pid)
            kw = {
                "urls": [url], "rooms": args.rooms, "duration": args.duration,
                "pacing": pacing, "payload": payload, "connect_rate": rate,
                "progress": not args.quiet, "pids": pids, "fanout": fanout,
                "gc_freeze_seconds": args.gc_freeze_seconds,
            }  # fmt: skip
            parts[kind] = run_part(kind, kw, args.workers, args.uvloop)
    base, toy = parts.get("baseline"), parts.get("toy")
    rep = report(game, base, args, toy)
    if args.json == "-":
        print(json.dumps(rep, indent=2))
    else:
        print_summary(rep)
        if args.json:
            with open(args.json, "w", encoding="utf-8") as f:
                json.dump(rep, f, indent=2)
    if args.chart:
        from loadtest.chart import write_chart

        write_chart(rep, args.chart)
    failed = any(
        r is not None
        and (
            r.errors
            or (r.disconnects and not args.reconnect)
            or r.connect_failures
            or r.reconnect_failures
            or r.resumed_behind
        )
        for r in (game, base, toy)
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
