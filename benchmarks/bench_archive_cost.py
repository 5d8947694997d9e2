"""What archiving costs the game server per client action: the pinned peak load test run
against the same code with the archive on (the default SQLite file) and off
(``--archive-url off``), alternating, so both see the same machine.

Each run starts ``python -m server`` with its embedded Redis (pinned to CPU 0 with
``taskset`` where it exists, like BENCHMARKS.md's "peak" row) and runs
``mahjong-loadtest --rooms 20 --duration 20 --window-ms 0`` pinned to CPU 1; the server's and
Redis's CPU per action are read from the load test's report. Prints every run, the median of
each mode and on ÷ off (issue 41: archiving adds ≤ 5 %).

With ``--perf`` the server's user-space instructions over each load test are counted too
(``perf stat -e instructions:u``), per action: a count that a busy or throttled machine
moves far less than CPU time (the CPU-time ratios of single rounds ran from 0.81 to 1.38).

    python benchmarks/bench_archive_cost.py --rounds 4
    python benchmarks/bench_archive_cost.py --rounds 6 --perf
"""

from __future__ import annotations

import argparse
import json
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def pinned(cpu: int) -> list[str]:
    return ["taskset", "-c", str(cpu)] if shutil.which("taskset") else []


def perf_stat(pid: int) -> subprocess.Popen[str]:
    """``perf stat`` counting ``pid``'s user-space instructions until it is interrupted."""
    return subprocess.Popen(
        ["perf", "stat", "-x", ",", "-e", "instructions:u", "-p", str(pid)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip


def perf_count(proc: subprocess.Popen[str]) -> float:
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=20)
    for line in err.splitlines():
        fields = line.split(",")
        if len(fields) > 2 and fields[2].startswith("instructions") and fields[0].isdigit():
            return float(fields[0])
    raise SystemExit(f"perf stat counted nothing: {err.strip()[-500:]}")


def run_once(archive: bool, rooms: int, duration: int, perf: bool = False) -> dict[str, float]:
    """One server, one load test: {"server": µs, "redis": µs, "actions_per_s": n} (and with
    ``perf``, "instructions": the server's per action over the whole load test)."""
    data = Path(tempfile.mkdtemp(prefix="archive-cost-"))
    port = free_port()
    args = [
        *pinned(0), sys.executable, "-m", "server", "--host", "127.0.0.1", "--port", str(port),
        "--data-dir", str(data), "--rate-per-second", "1000", "--rate-burst", "2000",
        "--log-level", "warning", *([] if archive else ["--archive-url", "off"]),
    ]  # fmt: skip
    out = data / "out"
    with out.open("w") as f:
        server = subprocess.Popen(args, cwd=ROOT, stdout=f, stderr=subprocess.STDOUT)
    try:
        for _ in range(300):
            if "listening" in out.read_text() and (data / "redis.pid").exists():
                break
            time.sleep(0.1)
        else:
            raise SystemExit(f"the server did not start: {out.read_text()[-2000:]}")
        redis = int((data / "redis.pid").read_text())
        report = data / "report.json"
        counter = perf_stat(server.pid) if perf else None
        subprocess.run(
            [
                *pinned(1), str(BIN / "mahjong-loadtest"), "--url", f"ws://127.0.0.1:{port}",
                "--rooms", str(rooms), "--duration", str(duration), "--window-ms", "0",
                "--quiet", "--server-pid", str(server.pid), "--server-pid", str(redis),
                "--json", str(report),
            ],
            check=True, stdout=subprocess.DEVNULL,
        )  # fmt: skip
        instructions = perf_count(counter) if counter is not None else None
        game = json.loads(report.read_text())["game"]
        cpu = game["cpu_us_per_action"]
        out = {
            "server": float(cpu[str(server.pid)]),
            "redis": float(cpu[str(redis)]),
            "actions_per_s": float(game["actions_per_s"]),
        }
        if instructions is not None:
            out["instructions"] = instructions / max(1, int(game["actions"]))
        return out
    finally:
        server.terminate()
        try:
            server.wait(20)
        except subprocess.TimeoutExpired:
            server.kill()
        shutil.rmtree(data, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--rooms", type=int, default=20)
    ap.add_argument("--duration", type=int, default=20)
    ap.add_argument("--perf", action="store_true", help="also count the server's instructions")
    a = ap.parse_args()
    runs: dict[str, list[dict[str, float]]] = {"on": [], "off": []}
    for i in range(a.rounds):
        # alternate which goes first, so a drift of the machine falls on both alike
        for mode in ("on", "off") if i % 2 == 0 else ("off", "on"):
            r = run_once(mode == "on", a.rooms, a.duration, a.perf)
            runs[mode].append(r)
            counted = f", {r['instructions']:,.0f} instructions/action" if a.perf else ""
            print(
                f"round {i + 1} archive {mode:>3}: server {r['server']:.1f} µs/action, "
                f"redis {r['redis']:.1f}, {r['actions_per_s']:.0f} actions/s{counted}",
                flush=True,
            )
    med = {m: statistics.median(r["server"] for r in rs) for m, rs in runs.items()}
    red = {m: statistics.median(r["redis"] for r in rs) for m, rs in runs.items()}
    print(
        f"median server CPU per action: on {med['on']:.1f} µs, off {med['off']:.1f} µs, "
        f"on ÷ off {med['on'] / med['off']:.3f}; redis on {red['on']:.1f}, off {red['off']:.1f}"
    )
    if a.perf:
        ins = {m: statistics.median(r["instructions"] for r in rs) for m, rs in runs.items()}
        print(
            f"median server instructions per action: on {ins['on']:,.0f}, off {ins['off']:,.0f}, "
            f"on ÷ off {ins['on'] / ins['off']:.3f}"
        )


if __name__ == "__main__":
    main()
