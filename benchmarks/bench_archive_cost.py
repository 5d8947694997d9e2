"""What archiving costs the game server per client action: the pinned peak load test run
against the same code with the archive on (the default SQLite file) and off
(``--archive-url off``), alternating, so both see the same machine.

Each run starts ``python -m server`` with its embedded Redis (pinned to CPU 0 with
``taskset`` where it exists, like BENCHMARKS.md's "peak" row) and runs
``mahjong-loadtest --rooms 20 --duration 20 --window-ms 0`` pinned to CPU 1; the server's and
Redis's CPU per action are read from the load test's report, and so is the CPU of the archiver's own process (``--archive-process``,
the default: started by the server; the figure quoted is the server's, the archiver's is
printed beside it). Prints every run, the median of
each mode and on ÷ off, and each round's on ÷ off with their median: the figure quoted
(issue 41: archiving adds ≤ 5 %).

``--control`` adds a third run to each round, off again, and prints each round's off ÷ off
with their median: what the method reads when nothing differs (its noise and any bias of
the order the runs go in; the three take turns going first).

    python benchmarks/bench_archive_cost.py --rounds 12 [--control]
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

import psutil  # type: ignore[import-untyped]

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
#: seconds a started server idles before the load test
SETTLE = 2.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def pinned(cpu: int) -> list[str]:
    return ["taskset", "-c", str(cpu)] if shutil.which("taskset") else []


def start_server(
    root: Path, data: Path, extra: tuple[str, ...] = ()
) -> tuple[subprocess.Popen[bytes], int]:
    """``python -m server`` from the checkout ``root`` with its embedded Redis in ``data``,
    pinned to CPU 0 (BENCHMARKS.md's "peak" row), once it listens and its Redis runs: (the
    process, its port). ``extra``: more flags."""
    port = free_port()
    args = [
        *pinned(0), sys.executable, "-m", "server", "--host", "127.0.0.1", "--port", str(port),
        "--data-dir", str(data), "--rate-per-second", "1000", "--rate-burst", "2000",
        "--log-level", "warning", *extra,
    ]  # fmt: skip
    out = data / "out"
    with out.open("w") as f:
        server = subprocess.Popen(args, cwd=root, stdout=f, stderr=subprocess.STDOUT)
    for _ in range(300):
        if "listening" in out.read_text() and (data / "redis.pid").exists():
            return server, port
        time.sleep(0.1)
    server.kill()
    raise SystemExit(f"the server did not start: {out.read_text()[-2000:]}")


def run_once(archive: bool, rooms: int, duration: int) -> dict[str, float]:
    """One server, one load test: {"server": µs, "redis": µs, "actions_per_s": n}."""
    data = Path(tempfile.mkdtemp(prefix="archive-cost-"))
    server, port = start_server(ROOT, data, () if archive else ("--archive-url", "off"))
    try:
        # both modes idle a moment: the archive's opening (its migrations, at start) is
        # done before the load test's window, which is the steady state's cost
        time.sleep(SETTLE)
        redis = int((data / "redis.pid").read_text())
        # the server's other children: the archiver's process (spawned by multiprocessing)
        kids = [
            k.pid
            for k in psutil.Process(server.pid).children()
            if "spawn_main" in " ".join(k.cmdline())
        ]
        report = data / "report.json"
        subprocess.run(
            [
                *pinned(1), str(BIN / "mahjong-loadtest"), "--url", f"ws://127.0.0.1:{port}",
                "--rooms", str(rooms), "--duration", str(duration), "--window-ms", "0",
                "--quiet", "--server-pid", str(server.pid), "--server-pid", str(redis),
                *(x for k in kids for x in ("--server-pid", str(k))), "--json", str(report),
            ],
            check=True, stdout=subprocess.DEVNULL,
        )  # fmt: skip
        game = json.loads(report.read_text())["game"]
        cpu = game["cpu_us_per_action"]
        return {
            "server": float(cpu[str(server.pid)]),
            "redis": float(cpu[str(redis)]),
            "archiver": sum(float(cpu.get(str(k), 0.0)) for k in kids),
            "actions_per_s": float(game["actions_per_s"]),
        }
    finally:
        server.terminate()
        try:
            server.wait(20)
        except subprocess.TimeoutExpired:
            server.kill()
        shutil.rmtree(data, ignore_errors=True)


def order(i: int, control: bool) -> tuple[str, ...]:
    """Round ``i``'s runs: each mode goes first in turn, so a drift of the machine falls on
    all alike."""
    modes = ("on", "off", "ctl") if control else ("on", "off")
    k = i % len(modes)
    return modes[k:] + modes[:k]


def ratios(a: list[dict[str, float]], b: list[dict[str, float]]) -> list[float]:
    """Each round's server CPU per action of ``a`` ÷ ``b``, sorted: the two runs of a round
    are minutes apart at most, so their ratio is the least touched by the machine's drift,
    and the median of those ratios the figure to quote."""
    return sorted(x["server"] / y["server"] for x, y in zip(a, b, strict=True))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--rooms", type=int, default=20)
    ap.add_argument("--duration", type=int, default=20)
    ap.add_argument("--control", action="store_true", help="a third run per round, off again")
    a = ap.parse_args()
    runs: dict[str, list[dict[str, float]]] = {"on": [], "off": [], "ctl": []}
    for i in range(a.rounds):
        for mode in order(i, a.control):
            r = run_once(mode == "on", a.rooms, a.duration)
            runs[mode].append(r)
            print(
                f"round {i + 1} archive {mode:>3}: server {r['server']:.1f} µs/action, "
                f"redis {r['redis']:.1f}, archiver process {r['archiver']:.1f}, "
                f"{r['actions_per_s']:.0f} actions/s",
                flush=True,
            )
    on_off = ratios(runs["on"], runs["off"])
    print(
        "each round's on ÷ off: "
        + " ".join(f"{x:.3f}" for x in on_off)
        + f"; median {statistics.median(on_off):.3f}"
    )
    if a.control:
        ctl = ratios(runs["ctl"], runs["off"])
        print(
            "each round's off ÷ off (control): "
            + " ".join(f"{x:.3f}" for x in ctl)
            + f"; median {statistics.median(ctl):.3f}"
        )
    med = {m: statistics.median(r["server"] for r in rs) for m, rs in runs.items() if rs}
    red = {m: statistics.median(r["redis"] for r in rs) for m, rs in runs.items() if rs}
    arch = statistics.median(r["archiver"] for r in runs["on"])
    print(
        f"median server CPU per action: on {med['on']:.1f} µs, off {med['off']:.1f} µs, "
        f"on ÷ off {med['on'] / med['off']:.3f}; redis on {red['on']:.1f}, off {red['off']:.1f}; "
        f"the archiver's process (on) {arch:.1f}"
    )


if __name__ == "__main__":
    main()
