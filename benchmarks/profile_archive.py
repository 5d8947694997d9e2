"""Where the archive's share of the game server's CPU goes: the pinned peak load test (as
``bench_archive_cost.py`` runs it, archive on) sampled with py-spy, and the share of the
server's samples whose stack is in the archive's code (``server/archive/``, aiosqlite's
thread, sqlite3), by function.

A sampled share, not the on ÷ off ratio of ``bench_archive_cost.py``: it leaves out what the
archive costs elsewhere (the garbage collector, the event loop's scheduling of its tasks,
the kernel's side of its round trips), but it moves far less with the machine's speed, and
it says where the cost is. py-spy is not in the lock (a profiler, not a dependency): give
its path, e.g. from ``pip download py-spy`` (the wheel holds the binary).

    python benchmarks/profile_archive.py --py-spy /path/to/py-spy [--root CHECKOUT]
"""

from __future__ import annotations

import argparse
import collections
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_archive_cost import pinned, start_server  # noqa: E402

#: the innermost frame of aiosqlite's thread while it waits for work: idle, not counted
IDLE = "_connection_worker_thread (aiosqlite/core.py:59)"
OURS = ("server/archive/", "aiosqlite", "sqlite3")


def sample(root: Path, py_spy: str, seconds: int) -> Path:
    """Run the server from ``root`` under the load test; py-spy's raw samples (a file)."""
    data = Path(tempfile.mkdtemp(prefix="archive-profile-"))
    server, port = start_server(root, data)
    try:
        load = subprocess.Popen(
            [
                *pinned(1), str(BIN / "mahjong-loadtest"), "--url", f"ws://127.0.0.1:{port}",
                "--rooms", "20", "--duration", str(seconds + 15), "--window-ms", "0", "--quiet",
            ],
            stdout=subprocess.DEVNULL,
        )  # fmt: skip
        time.sleep(8)  # the rooms seated and playing
        raw = data / "samples.txt"
        subprocess.run(
            [py_spy, "record", "-p", str(server.pid), "-d", str(seconds), "-r", "100",
             "-f", "raw", "-o", str(raw), "--threads"],
            check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        load.wait()
        out = Path(tempfile.mkstemp(prefix="archive-profile-", suffix=".txt")[1])
        shutil.copy(raw, out)
        return out
    finally:
        server.terminate()
        server.wait(20)
        shutil.rmtree(data, ignore_errors=True)


def shares(raw: Path) -> tuple[int, int, collections.Counter[str]]:
    """(the server's samples, the archive's, the archive's by innermost function of ours)."""
    total = ours = 0
    by: collections.Counter[str] = collections.Counter()
    for line in raw.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        n = int(count)
        if stack.endswith(IDLE):
            continue
        total += n
        frames = [f for f in stack.split(";") if any(o in f for o in OURS)]
        if frames:
            ours += n
            by[frames[-1].split(" (")[0]] += n
    return total, ours, by


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--py-spy", required=True, help="the py-spy binary")
    ap.add_argument("--root", type=Path, default=ROOT, help="the checkout whose server runs")
    ap.add_argument("--seconds", type=int, default=25)
    a = ap.parse_args()
    raw = sample(a.root, a.py_spy, a.seconds)
    total, ours, by = shares(raw)
    print(f"{ours} of the server's {total} samples in the archive: {100 * ours / total:.2f} %")
    for name, n in by.most_common(12):
        print(f"  {100 * n / total:5.2f} %  {name}")
    raw.unlink()


if __name__ == "__main__":
    main()
