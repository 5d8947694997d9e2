"""Capacity soak, reconnect storm and memory per connection of one game-server process.

Starts its own redis-server (``server.storage.embedded.EmbeddedRedis``: AOF on, unix socket), one
``mahjong-server`` pinned to ``--server-cpu`` and the ``mahjong-loadtest`` harness pinned to
``--harness-cpu`` (redis goes with ``--redis-cpu``), all on a fresh data directory, then:

* ``soak``: ``--rooms`` rooms paced at ``--interval`` (a seat's thinking time) for
  ``--duration`` seconds; latency action → all four delivered, errors, disconnects, CPU µs
  per action and % of a core of server and redis, server RSS growth per connection, Redis
  bytes per room.
* ``ramp``: ``soak`` at each of ``--rooms 250,500,1000,2000`` (a fresh server each).
* ``storm``: the harness runs with ``--reconnect``; after ``--storm-after`` seconds of play the
  server gets SIGTERM and is started again on the same Redis: (a) server down-time (stop
  signal → exit, start → listening), (b) per client, the successful reconnect attempt (the
  server up) → its room's snapshot, and loss → snapshot, and the span from the server
  listening again to the last seat resumed. ``--restarts K`` restarts it K times, each
  ``--storm-after`` seconds after the previous one came up (``--duration`` must cover
  ``--storm-after`` × K + ``--storm-window``), and reports each restart under ``restarts``:
  its stop/start times, CPU, and the resumes from its stop to the next one's
  (``loadtest.stats.resumes_per_restart``); the top-level fields stay those of one restart
  (the last) and of the whole run.

    python benchmarks/bench_capacity.py ramp --rooms 250,500,1000,2000 --duration 60
    python benchmarks/bench_capacity.py soak --rooms 2000 --duration 600 --json soak.json
    python benchmarks/bench_capacity.py storm --rooms 2000 --duration 90 --storm-after 30
    python benchmarks/bench_capacity.py storm --rooms 500 --duration 100 --storm-after 30 \
        --restarts 3

The load average of the machine (shared with other jobs) is recorded with each run.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from memwatch import RssSampler, growth_sites, snapshots  # noqa: E402

from loadtest import cli as loadtest_cli  # noqa: E402
from loadtest.stats import resumes_per_restart  # noqa: E402
from protocol.fdlimit import raise_nofile_limit  # noqa: E402
from server.process.procs import pinned, start_listening  # noqa: E402
from server.storage.embedded import EmbeddedRedis  # noqa: E402


def loadavg() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def cpu_seconds(pid: int) -> float:
    """``loadtest.cli.cpu_seconds`` of a process that must exist."""
    v = loadtest_cli.cpu_seconds(pid)
    if v is None:
        raise ProcessLookupError(pid)
    return v


def server_metrics(port: int) -> dict[str, float]:
    """The server's collector pauses, loop lag and frame counts (from /metrics)."""
    import urllib.request

    keep = (
        "mahjong_gc_", "mahjong_loop_lag", "mahjong_room_loads", "mahjong_connections ",
        "mahjong_learned_", "mahjong_action_seconds_bucket", "mahjong_action_seconds_count",
    )  # fmt: skip
    out = {}
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as r:
            for line in r.read().decode().splitlines():
                if line.startswith(keep):
                    k, v = line.rsplit(" ", 1)
                    out[k.replace("mahjong_", "")] = round(float(v), 4)
    except OSError as exc:
        out["error"] = str(exc)  # type: ignore[assignment]
    return out


def server_request_ms(before: dict[str, float], after: dict[str, float]) -> dict[str, Any]:
    """The server's own time from receiving a request to its commit (its
    ``mahjong_action_seconds`` histogram) between two :func:`server_metrics` samples: how
    many requests, and the bucket bound (ms) under which 50 / 99 / 99.9 % of them fell --
    what the server adds to the harness's latency before the fan-out, without the harness's
    own queueing or Redis's on the harness's CPU."""
    prefix = 'action_seconds_bucket{le="'
    bounds: list[tuple[float, float]] = []
    for k, v in after.items():
        if k.startswith(prefix) and "Inf" not in k:
            le = float(k[len(prefix) : -2])
            bounds.append((le, v - before.get(k, 0.0)))
    n = after.get("action_seconds_count", 0.0) - before.get("action_seconds_count", 0.0)
    out: dict[str, Any] = {"requests": int(n)}
    if n <= 0:
        return out
    bounds.sort()
    for name, q in (("p50_le_ms", 0.5), ("p99_le_ms", 0.99), ("p999_le_ms", 0.999)):
        out[name] = next((le * 1000 for le, c in bounds if c >= q * n), None)
    out["over_10ms"] = int(n - next((c for le, c in bounds if le == 0.01), n))
    return out


def schedstat(pid: int) -> tuple[float, float]:
    """(seconds on a CPU, seconds runnable but waiting for one) of process ``pid``."""
    with open(f"/proc/{pid}/schedstat", encoding="ascii") as f:
        run, wait, _ = f.read().split()
    return int(run) / 1e9, int(wait) / 1e9


def rss_kib(pid: int) -> int:
    """``loadtest.cli.rss_kib`` of a process that must exist."""
    v = loadtest_cli.rss_kib(pid)
    if v is None:
        raise ProcessLookupError(pid)
    return v


class Redis(EmbeddedRedis):
    """The game server's embedded Redis (AOF, unix socket) with room for 10,000 clients,
    pinned to ``cpu``, kept in this session (``--autogroup-nice`` covers it), started."""

    def __init__(self, data: Path, cpu: int | None) -> None:
        # the latency monitor records every Redis stall over 20 ms (AOF fsync and rewrite,
        # fork, slow commands): ``latency_events``, reported with the run
        args = ["--maxclients", "10000", "--latency-monitor-threshold", "20"]
        super().__init__(data, args=args, cpu=cpu, new_session=False)
        self.start()
        import redis

        self.client = redis.Redis(unix_socket_path=str(self.socket))

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def used_memory(self) -> int:
        return int(self.client.info("memory")["used_memory"])

    def open_rooms(self) -> int:
        return int(self.client.scard("mj:rooms"))

    def latency_events(self) -> dict[str, dict[str, int]]:
        """Redis's own stalls over the threshold (``LATENCY LATEST``): per event, how many
        spikes were recorded (``LATENCY HISTORY``, at most 160 each), the latest and the
        longest, in ms."""
        out: dict[str, dict[str, int]] = {}
        for name, _ts, latest, longest in self.client.latency_latest():
            event = name.decode() if isinstance(name, bytes) else str(name)
            history = self.client.latency_history(event)
            out[event] = {"spikes": len(history), "latest_ms": int(latest), "max_ms": int(longest)}
        return out


class Server:
    def __init__(self, redis_url: str, cpu: int | None, port: int, extra: list[str]) -> None:
        cmd = [
            sys.executable, "-m", "server", "--host", "127.0.0.1", "--port", str(port),
            "--redis-url", redis_url, "--rate-per-second", "1000", "--rate-burst", "2000",
            "--log-level", "warning", *extra,
        ]  # fmt: skip
        self.cmd = pinned(cpu, cmd)
        self.env = dict(os.environ)
        self.proc: subprocess.Popen[str] | None = None
        self.port = port
        self.started_s = 0.0

    def start(self) -> None:
        t0 = time.perf_counter()
        self.proc, self.port = start_listening(
            self.cmd, stderr=None, cwd=ROOT, env=self.env, timeout=120
        )
        self.started_s = time.perf_counter() - t0

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def stop(self, timeout: float = 60) -> float:
        """SIGTERM and wait; the seconds until the process exited."""
        assert self.proc is not None
        t0 = time.perf_counter()
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        return time.perf_counter() - t0


def restart(srv: Server, red: Redis, window: float) -> dict[str, Any]:
    """Stop the server (SIGTERM), start it again on the same Redis and port, and wait
    ``window`` seconds: its stop and start times, down-time, the wall-clock times of the stop
    signal (``stop_epoch``) and of the new server listening (``up_epoch``), and the CPU
    seconds of the old process until its stop and of the new one in the window."""
    out: dict[str, Any] = {"loadavg_before_stop": loadavg()}
    out["open_rooms_before_stop"] = red.open_rooms()
    cpu0 = cpu_seconds(srv.pid)
    t_stop = time.time()
    out["stop_s"] = round(srv.stop(), 3)
    srv.cmd[srv.cmd.index("--port") + 1] = str(srv.port)  # the same port again
    srv.start()
    out["start_s"] = round(srv.started_s, 3)
    out["down_s"] = round(time.time() - t_stop, 3)
    up = time.time()
    out["server_cpu_before_stop_s"] = round(cpu0, 2)
    time.sleep(window)
    out["new_server_cpu_first_window_s"] = round(cpu_seconds(srv.pid), 2)
    out["storm_window_s"] = window
    out["up_epoch"] = up
    out["stop_epoch"] = t_stop
    return out


def harness(args: argparse.Namespace, url: str, rooms: int, duration: float, out: Path,
            pids: list[int], reconnect: bool) -> subprocess.Popen[str]:  # fmt: skip
    cmd = [
        sys.executable, "-m", "loadtest.cli", "--url", url, "--rooms", str(rooms),
        "--duration", str(duration), "--interval", str(args.interval),
        "--connect-rate", str(args.connect_rate), "--workers", str(args.workers),
        "--json", str(out), "--quiet", "--ruleset", args.ruleset,
        "--hands-per-game", str(args.hands_per_game),
    ]  # fmt: skip
    if args.uvloop is not None:  # else the harness's default: uvloop when installed
        cmd.append("--uvloop" if args.uvloop else "--no-uvloop")
    if reconnect:
        cmd.append("--reconnect")
    for p in pids:
        cmd += ["--server-pid", str(p)]
    return subprocess.Popen(pinned(args.harness_cpu, cmd), cwd=ROOT, text=True)


def summary(rep: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    g = rep["game"]
    lat = g["latency_action_to_all_four"]
    out = {
        "rooms": rep["rooms"],
        "interval_s": rep["interval_s"],
        "hands_per_game": rep["hands_per_game"],
        "hands": g["hands"],
        "seconds": g["seconds"],
        "connections_peak": g["connections_peak"],
        "rooms_playing": g["rooms"],
        "actions_per_s": g["actions_per_s"],
        "all_four_ms": {k: lat[k] for k in ("p50_ms", "p99_ms", "p999_ms", "max_ms")},
        "errors": g["errors"],
        "disconnects": g["disconnects"],
        "connect_failures": g["connect_failures"],
        "cpu_us_per_action": g["cpu_us_per_action"],
        "cpu_core_share": {k: round(v / g["seconds"], 3) for k, v in g["cpu_seconds"].items()},
        "rss_kib_before_after": g["rss_kib_before_after"],
        "rss_kib_per_connection": g["rss_kib_per_connection"],
        "setup_ms": {k: g["setup"][k] for k in ("p50_ms", "p99_ms", "max_ms")},
        # per second of the window: actions, p99 and max of action -> all four (ms)
        "per_second": [[s["t"], s["actions"], s["p99_ms"], s["max_ms"]] for s in g["series"]],
        **extra,
    }
    if g["reconnects"]["count"] or g["reconnect_failures"]:
        out["reconnects"] = g["reconnects"]
        out["resume_after_up"] = g["resume_after_up"]
        out["reconnect_failures"] = g["reconnect_failures"]
        out["resumed_behind"] = g["resumed_behind"]
        out["lost_in_flight"] = g["lost_in_flight"]
        out["resumed_first_epoch"] = g["resumed_first_epoch"]
        out["resumed_last_epoch"] = g["resumed_last_epoch"]
    return out


def memory_marks(args: argparse.Namespace, pid: int, t_all: float) -> list[threading.Timer]:
    """With ``--tracemalloc``: SIGUSR1 to the server at each of ``--snapshot-minutes`` after
    every room connected (``t_all``, perf_counter): each writes a snapshot."""
    if not args.tracemalloc or not args.snapshot_minutes:
        return []
    out = []
    for m in args.snapshot_minutes.split(","):
        delay = t_all + 60 * float(m) - time.perf_counter()
        timer = threading.Timer(max(0.0, delay), os.kill, (pid, signal.SIGUSR1))
        timer.daemon = True
        timer.start()
        out.append(timer)
    return out


def memory_report(
    args: argparse.Namespace, rss: RssSampler, t_all: float, data: Path, extra: dict[str, Any]
) -> dict[str, Any]:
    """Server RSS at each minute after every room connected and its growth from
    ``--growth-from`` minutes to the end; collector pauses (count, total, longest, share of
    the server's CPU) per generation; with ``--snapshot-minutes``, the allocation sites that
    grew most from the first snapshot to the last."""
    # (to the end of the play window: not the rooms leaving and the connections closing)
    end = t_all + args.duration
    out: dict[str, Any] = {
        "rss_mib_by_minute": rss.by_minute(t_all, end),
        "rss_growth": rss.growth(t_all, args.growth_from, end),
    }
    g0, g1 = extra.get("gc_and_lag_at_start", {}), extra.get("gc_and_lag", {})
    cpu = extra.get("server_sched_run_s") or 0.0
    gc: dict[str, Any] = {}
    for gen in range(3):

        def k(name: str, gen: int = gen) -> str:
            return f'{name}{{generation="{gen}"}}'

        n = g1.get(k("gc_collections_total"), 0) - g0.get(k("gc_collections_total"), 0)
        tot = g1.get(k("gc_pause_seconds_total"), 0) - g0.get(k("gc_pause_seconds_total"), 0)
        # pauses are wall-clock time (a pause that waits for the CPU counts the wait);
        # ``pause_cpu_max_ms`` is the longest one's CPU time
        gc[f"gen{gen}"] = {
            "collections": int(n),
            "pause_total_s": round(tot, 3),
            "pause_mean_ms": round(1000 * tot / n, 3) if n else None,
            "pause_max_ms": round(1000 * g1.get(k("gc_pause_seconds_max"), 0), 2),
            "pause_cpu_max_ms": round(1000 * g1.get(k("gc_pause_cpu_seconds_max"), 0), 2),
            "wall_share_of_server_cpu_pct": round(100 * tot / cpu, 2) if cpu else None,
        }
    out["gc_pauses"] = gc
    snaps = snapshots(data / "tm") if args.tracemalloc else []
    if len(snaps) >= 2:
        out["tracemalloc_growth_first_to_last"] = {
            "snapshots": len(snaps),
            "top": growth_sites(snaps[0], snaps[-1], 1, args.growth_top),
        }
        if args.tracemalloc_frames > 1:
            out["tracemalloc_growth_chains"] = growth_sites(
                snaps[0], snaps[-1], args.tracemalloc_frames, args.growth_top
            )
    return out


def one_run(args: argparse.Namespace, rooms: int, storm: bool) -> dict[str, Any]:
    data = Path(tempfile.mkdtemp(prefix="mj-capacity-"))
    red = Redis(data, args.redis_cpu)
    srv = Server(red.url, args.server_cpu, args.port, args.server_arg)
    if args.tracemalloc:
        # SIGUSR1 mid-run (or at --snapshot-minutes): the top allocation sites
        srv.env["PYTHONTRACEMALLOC"] = str(args.tracemalloc_frames)
        (data / "tm").mkdir()
        srv.env["MAHJONG_TRACEMALLOC_DIR"] = str(data / "tm")
    report = data / "run.json"
    extra: dict[str, Any] = {"loadavg_start": loadavg()}
    h: subprocess.Popen[str] | None = None
    try:
        srv.start()
        extra["server_start_s"] = round(srv.started_s, 3)
        mem0 = red.used_memory()
        url = f"ws://127.0.0.1:{srv.port}"
        extra["gc_and_lag_at_start"] = server_metrics(srv.port)
        sched0 = schedstat(srv.pid)
        t_run = time.perf_counter()
        h = harness(args, url, rooms, args.duration, report, [srv.pid, red.pid], storm)
        # minute marks count from when every room has connected
        t_all = rooms / args.connect_rate
        rss = RssSampler(srv.pid, args.rss_every, t_run).start()
        marks = memory_marks(args, srv.pid, t_run + t_all) if not storm else []
        restarts: list[dict[str, Any]] = []
        if storm:
            due = time.time() + args.storm_after
            for _ in range(args.restarts):
                time.sleep(max(0.0, due - time.time()))
                restarts.append(restart(srv, red, args.storm_window))
                due = restarts[-1]["up_epoch"] + args.storm_after
            # the top-level fields are the last restart's (the only one by default)
            extra.update({k: v for k, v in restarts[-1].items() if k != "stop_epoch"})
        else:
            # Redis bytes per room, in the middle of the run (every room playing)
            time.sleep(min(args.duration / 2, 30) + rooms / args.connect_rate)
            extra["redis_bytes_per_room"] = round((red.used_memory() - mem0) / max(1, rooms))
            extra["open_rooms_mid_run"] = red.open_rooms()
            extra["server_rss_kib_mid_run"] = rss_kib(srv.pid)
            if args.tracemalloc and not args.snapshot_minutes:
                os.kill(srv.pid, signal.SIGUSR1)  # logged on the server's stderr
            # the server's own request -> commit times, from the middle of the run to just
            # before its end (every room playing: no connects, no leaves)
            mid = server_metrics(srv.port)
            end_at = t_run + rooms / args.connect_rate + args.duration - 2
            time.sleep(max(0.0, end_at - time.perf_counter()))
            extra["server_request_ms"] = server_request_ms(mid, server_metrics(srv.port))
        _, status, usage = os.wait4(h.pid, 0)
        h.returncode = os.waitstatus_to_exitcode(status)
        extra["harness_cpu_s"] = round(usage.ru_utime + usage.ru_stime, 2)
        extra["harness_wall_s"] = round(time.perf_counter() - t_run, 2)
        extra["loadavg_end"] = loadavg()
        if not storm:
            run, wait = (b - a for a, b in zip(sched0, schedstat(srv.pid), strict=True))
            # the server's time runnable but not running (other processes on its CPU)
            extra["server_sched_run_s"] = round(run, 2)
            extra["server_sched_wait_s"] = round(wait, 2)
        extra["gc_and_lag"] = server_metrics(srv.port)
        for m in marks:
            m.cancel()
        rss.stop()
        extra.update(memory_report(args, rss, t_all, data, extra))
        extra["redis_latency_events"] = red.latency_events()
        extra["harness_exit"] = h.returncode
        rep = json.loads(report.read_text())
        out = summary(rep, extra)
        if storm and out.get("resumed_last_epoch"):
            out["up_to_last_resumed_s"] = round(out["resumed_last_epoch"] - extra["up_epoch"], 3)
        if storm:
            split = resumes_per_restart(
                rep["game"]["resumes"], [(r["stop_epoch"], r["up_epoch"]) for r in restarts]
            )
            for r, resumes in zip(restarts, split, strict=True):
                r.update(resumes, stop_epoch=round(r["stop_epoch"], 3))
                r["up_epoch"] = round(r["up_epoch"], 3)
            out["restarts"] = restarts
        return out
    finally:
        if h is not None and h.poll() is None:
            h.terminate()
            h.wait(30)
        if srv.proc is not None and srv.proc.poll() is None:
            srv.stop()
        red.stop(20)
        if not args.keep:
            shutil.rmtree(data, ignore_errors=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("mode", choices=["soak", "ramp", "storm"])
    ap.add_argument("--rooms", default="250", help="rooms (ramp: a comma-separated list)")
    ap.add_argument("--duration", type=float, default=60.0, help="seconds of play per run")
    ap.add_argument("--interval", type=float, default=1.0, help="seat thinking time (s)")
    ap.add_argument("--connect-rate", type=float, default=50.0, help="rooms set up per second")
    ap.add_argument("--workers", type=int, default=1, help="harness processes")
    ap.add_argument(
        "--uvloop",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="harness on uvloop or not (default: the harness's, uvloop when installed)",
    )
    ap.add_argument("--ruleset", default="zung-jung")
    ap.add_argument(
        "--hands-per-game",
        type=int,
        default=64,
        help="the rooms' game length in hands (then a rematch): short games let a soak's rooms "
        "cycle through whole games",
    )
    ap.add_argument("--server-cpu", type=int, default=0)
    ap.add_argument("--harness-cpu", type=int, default=1)
    ap.add_argument("--redis-cpu", type=int, default=1)
    ap.add_argument("--port", type=int, default=0, help="server port (0: a free one)")
    ap.add_argument(
        "--server-arg", action="append", default=[], help="extra mahjong-server argument"
    )
    ap.add_argument("--storm-after", type=float, default=30.0, help="storm: seconds before stop")
    ap.add_argument(
        "--storm-window", type=float, default=15.0, help="storm: CPU window after start"
    )
    ap.add_argument(
        "--restarts",
        type=int,
        default=1,
        help="storm: restarts, each --storm-after seconds after the previous one came up",
    )
    ap.add_argument("--json", help="append the results (one JSON object per line) to this file")
    ap.add_argument(
        "--autogroup-nice",
        type=int,
        help="run in a new session whose scheduler autogroup gets this nice (-20..19; "
        "negative needs root): the measured processes against other sessions' jobs",
    )
    ap.add_argument(
        "--tracemalloc", action="store_true", help="server traces allocations; top sites mid-run"
    )
    ap.add_argument(
        "--tracemalloc-frames", type=int, default=1, help="tracemalloc: frames per allocation"
    )
    ap.add_argument(
        "--snapshot-minutes",
        default="",
        help="with --tracemalloc: snapshots at these minutes after every room connected "
        "(comma-separated, e.g. 5,15,30): the sites that grew from the first to the last",
    )
    ap.add_argument("--rss-every", type=float, default=10.0, help="server RSS sample period (s)")
    ap.add_argument(
        "--growth-from", type=float, default=5.0, help="RSS growth from this minute to the end"
    )
    ap.add_argument("--growth-top", type=int, default=15, help="growth sites reported")
    ap.add_argument("--keep", action="store_true", help="keep the data directory")
    args = ap.parse_args()
    if args.mode == "storm":
        if args.restarts < 1:
            ap.error("--restarts must be at least 1")
        if args.restarts > 1 and args.storm_window > args.storm_after:
            ap.error(
                f"--storm-window {args.storm_window:g} is longer than --storm-after "
                f"{args.storm_after:g}: the CPU window would reach into the next restart"
            )
        needed = args.storm_after * args.restarts + args.storm_window
        if needed > args.duration:
            ap.error(
                f"--duration {args.duration:g} is too short for {args.restarts} restart(s): "
                f"--storm-after × --restarts + --storm-window = {needed:g} s; give "
                f"--duration {needed:g} or more"
            )
    raise_nofile_limit()
    if args.autogroup_nice is not None:
        # Linux groups each session's processes (sched autogroup) and shares each CPU fairly
        # among the groups, whatever the processes' nice values: a niced job of another
        # session still takes half of the server's CPU. A new session with its own group
        # weight gives the measured processes (server, redis, harness) their share back.
        os.setsid()
        with open("/proc/self/autogroup", "w", encoding="ascii") as f:
            f.write(str(args.autogroup_nice))
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # clean up the processes started
    counts = [int(x) for x in args.rooms.split(",")]
    results = []
    for n in counts:
        res = {
            "mode": args.mode,
            "command": " ".join(sys.argv),
            **one_run(args, n, args.mode == "storm"),
        }
        results.append(res)
        print(json.dumps(res), flush=True)
        if args.json:
            with open(args.json, "a", encoding="utf-8") as f:
                f.write(json.dumps(res) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
