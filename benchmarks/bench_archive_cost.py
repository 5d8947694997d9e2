"""What archiving costs the game server per client action: the pinned peak load test run
against the same code with the archive on (the default SQLite file) and off
(``--archive-url off``), alternating, so both see the same machine.

Each run starts ``python -m server`` with its embedded Redis (pinned to CPU 0 with
``taskset`` where it exists, like BENCHMARKS.md's "peak" row) and runs
``mahjong-loadtest --rooms 20 --duration 20 --window-ms 0`` pinned to CPU 1; the server's and
Redis's CPU per action are read from the load test's report. Prints every run, the median of
each mode and on ÷ off, and each round's on ÷ off with their median: the figure quoted
(issue 41: archiving adds ≤ 5 %).

    python benchmarks/bench_archive_cost.py --rounds 4
"""

from __future__ import annotations

import argparse
import json
import shutil
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


def run_once(archive: bool, rooms: int, duration: int) -> dict[str, float]:
    """One server, one load test: {"server": µs, "redis": µs, "actions_per_s": n}."""
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
        subprocess.run(
            [
                *pinned(1), str(BIN / "mahjong-loadtest"), "--url", f"ws://127.0.0.1:{port}",
                "--rooms", str(rooms), "--duration", str(duration), "--window-ms", "0",
                "--quiet", "--server-pid", str(server.pid), "--server-pid", str(redis),
                "--json", str(report),
            ],
            check=True, stdout=subprocess.DEVNULL,
        )  # fmt: skip
        game = json.loads(report.read_text())["game"]
        cpu = game["cpu_us_per_action"]
        return {
            "server": float(cpu[str(server.pid)]),
            "redis": float(cpu[str(redis)]),
            "actions_per_s": float(game["actions_per_s"]),
        }
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
    a = ap.parse_args()
    runs: dict[str, list[dict[str, float]]] = {"on": [], "off": []}
    for i in range(a.rounds):
        # alternate which goes first, so a drift of the machine falls on both alike
        for mode in ("on", "off") if i % 2 == 0 else ("off", "on"):
            r = run_once(mode == "on", a.rooms, a.duration)
            runs[mode].append(r)
            print(
                f"round {i + 1} archive {mode:>3}: server {r['server']:.1f} µs/action, "
                f"redis {r['redis']:.1f}, {r['actions_per_s']:.0f} actions/s",
                flush=True,
            )
    med = {m: statistics.median(r["server"] for r in rs) for m, rs in runs.items()}
    # each round's two runs are minutes apart at most: their ratio is the least touched by
    # the machine's drift, and the median of those ratios the figure to quote
    ratios = sorted(
        on["server"] / off["server"] for on, off in zip(runs["on"], runs["off"], strict=True)
    )
    print(
        "each round's on ÷ off: "
        + " ".join(f"{x:.3f}" for x in ratios)
        + f"; median {statistics.median(ratios):.3f}"
    )
    red = {m: statistics.median(r["redis"] for r in rs) for m, rs in runs.items()}
    print(
        f"median server CPU per action: on {med['on']:.1f} µs, off {med['off']:.1f} µs, "
        f"on ÷ off {med['on'] / med['off']:.3f}; redis on {red['on']:.1f}, off {red['off']:.1f}"
    )


if __name__ == "__main__":
    main()
