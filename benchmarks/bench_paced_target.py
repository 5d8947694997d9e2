"""The paced target side by side: server CPU per action of one mahjong-server at about one action per room per second, against the bare websockets baseline's CPU per broadcast in the same run.

Starts its own redis-server (no persistence) and one ``mahjong-server`` (extra arguments go
to the server), then runs ``mahjong-loadtest --rooms R --interval I --duration D --baseline``
with the server's and Redis's pids, and prints both parts' CPU per action, latency and their
ratio.

    python benchmarks/bench_paced_target.py --rooms 150 --interval 1.8 --duration 30
    python benchmarks/bench_paced_target.py --rooms 150 -- --bot-processes 0 --snapshot-every 1
    python benchmarks/bench_paced_target.py --pin --server-cwd /tmp/wt-old   # side by side
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path
from typing import Any

from server.process.procs import pinned, server_command, start_listening
from server.storage.embedded import EmbeddedRedis

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--rooms", type=int, default=150)
    p.add_argument("--interval", type=float, default=1.8)
    p.add_argument("--duration", type=float, default=30)
    p.add_argument(
        "--server-cwd", type=Path, default=ROOT,
        help="run the server from this checkout (python -m server there: an older commit's "
        "worktree, for a side-by-side run; the harness stays this checkout's)",
    )  # fmt: skip
    p.add_argument(
        "--profile", type=Path, default=None,
        help="record the server with py-spy (pip install py-spy) for --profile-seconds of the "
        "game part, into this speedscope file",
    )  # fmt: skip
    p.add_argument("--profile-seconds", type=float, default=15)
    p.add_argument(
        "--pin", action="store_true",
        help="the server (and the baseline server) on CPU 0, Redis and the harness on CPU 1",
    )  # fmt: skip
    p.add_argument("--server-log", type=Path, default=None, help="the server's stderr, here")
    p.add_argument("server_args", nargs="*", help="extra mahjong-server arguments (after --)")
    args = p.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="bench-paced-"))
    log = subprocess.DEVNULL if args.server_log is None else args.server_log.open("w")
    cpu = (0, 1) if args.pin else (None, None)
    red = EmbeddedRedis(tmp, args=["--appendonly", "no"], new_session=False, cpu=cpu[1])
    red.start()
    server = server_command("--redis-url", red.url, "--log-level", "WARNING", *args.server_args)
    try:
        sproc, port = start_listening(pinned(cpu[0], server), stderr=log, cwd=args.server_cwd)
    except BaseException:
        red.stop(15)  # a server that did not start leaves no Redis behind
        raise
    spy: subprocess.Popen[bytes] | None = None
    try:
        cmd = [
            sys.executable, "-m", "loadtest.cli", "--url", f"ws://127.0.0.1:{port}/",
            "--rooms", str(args.rooms), "--interval", str(args.interval),
            "--duration", str(args.duration), "--connect-rate", "50", "--baseline",
            "--server-pid", str(sproc.pid), "--json", str(tmp / "out.json"), "--quiet",
        ]  # fmt: skip
        if red.proc is not None:
            cmd += ["--server-pid", str(red.proc.pid)]
        if args.pin:
            cmd = pinned(1, [*cmd, "--baseline-cpu", "0"])
        if args.profile is not None:
            # the game part runs first; the rooms take ~rooms/50 s to set up
            delay = args.rooms / 50 + 5
            spy = subprocess.Popen(
                ["sh", "-c", f"sleep {delay} && exec py-spy record --pid {sproc.pid} "
                 f"--duration {args.profile_seconds:g} --rate 200 --format speedscope "
                 f"--output {args.profile} --nonblocking"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            )  # fmt: skip
        subprocess.run(cmd, check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
        if spy is not None:
            spy.wait(60)
        counts = _counters(port)
        # the server's CPU split over the whole run (set-up and the game part): user / system
        user, system = _cpu_times(sproc.pid)
        counts["server_cpu_user_s"] = round(user, 2)
        counts["server_cpu_system_s"] = round(system, 2)
        counts.update(_redis_calls(red.url))
        rep = json.loads((tmp / "out.json").read_text())
        out: dict[str, Any] = {}
        for part in ("game", "baseline"):
            r = rep[part]
            lat = r["latency_action_to_all_four"]
            out[part] = {
                "actions_per_s": r["actions_per_s"],
                "cpu_us_per_action": r.get("cpu_us_per_action"),
                "p50_ms": lat["p50_ms"],
                "p99_ms": lat["p99_ms"],
                "p999_ms": lat["p999_ms"],
                "errors": r["errors_total"],
                "events_frames_per_action": r["events_frames_per_action"],
            }
        game_cpu = (out["game"]["cpu_us_per_action"] or {}).get(str(sproc.pid))
        base_cpu = next(iter((out["baseline"]["cpu_us_per_action"] or {}).values()), None)
        # what the server and Redis did in the whole game part (set-up included)
        out["server_counters"] = counts
        n_act = counts.get('mahjong_commits_total{kind="action"}', 0)
        n_tick = counts.get('mahjong_commits_total{kind="tick"}', 0)
        # a client's answer to a claim window is held, not committed (a server from before
        # held answers has no such counter: 0)
        n_held = counts.get("mahjong_held_answers_total", 0)
        n_client = n_act + n_held
        if n_act and game_cpu:
            # the game's commits during play: a client's action, the server's (timers), per
            # client action (committed or held)
            out["game_commits_per_action"] = round((n_act + n_tick) / n_client, 2)
            out["held_answers_per_action"] = round(n_held / n_client, 2)
            out["server_us_per_game_commit"] = round(game_cpu * n_client / (n_act + n_tick), 1)
            out["timer_fires_per_action"] = round(counts["mahjong_timer_fires_total"] / n_client, 2)
            out["redis_calls_per_action"] = round(counts["redis_calls"] / n_client, 2)
        if game_cpu and base_cpu:
            out["server_cpu_ratio"] = round(game_cpu / base_cpu, 2)
        print(json.dumps(out, indent=2))
    finally:
        sproc.terminate()
        sproc.wait(20)
        red.stop(15)
        shutil.rmtree(tmp, ignore_errors=True)


def _counters(port: int) -> dict[str, float]:
    """The server's commit, frame and timer counters from its /metrics."""
    want = (
        "mahjong_commits_total",
        "mahjong_messages_",
        "mahjong_timer_fires_total",
        "mahjong_held_answers_total",
    )
    text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10).read()
    out: dict[str, float] = {}
    for line in text.decode().splitlines():
        if line.startswith(want):
            name, _, value = line.rpartition(" ")
            out[name] = float(value)
    return out


def _cpu_times(pid: int) -> tuple[float, float]:
    """User and system CPU seconds of process ``pid`` (Linux: /proc/<pid>/stat)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


def _redis_calls(url: str) -> dict[str, float]:
    """Redis's command counts (INFO commandstats): the total and the busiest commands."""
    import redis

    stats = redis.Redis.from_url(url).info("commandstats")
    calls = {k.removeprefix("cmdstat_"): float(v["calls"]) for k, v in stats.items()}
    top = sorted(calls.items(), key=lambda kv: -kv[1])[:8]
    return {"redis_calls": sum(calls.values()), **{f"redis_{k}": v for k, v in top}}


if __name__ == "__main__":
    main()
