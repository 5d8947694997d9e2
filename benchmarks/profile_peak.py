"""Where the game server's CPU goes at peak, by function: the pinned peak load test (BENCHMARKS.md's "peak" row: 20 rooms flat out, ``--window-ms 0``) sampled with py-spy, each function's share of the server's samples read as µs of its CPU per client action.

The server (``python -m server`` with its embedded Redis) runs pinned to CPU 0 with
``taskset`` where it exists, ``mahjong-loadtest --rooms 20 --window-ms 0`` pinned to CPU 1;
once the rooms play, py-spy samples the server 100 times a second with its native frames
(``--native``: the compiled modules' functions, ``mahjong_native.MODULES``, and the C code
under them, such as the socket writes, appear by name). Only the main thread's samples
count, and not those of the event loop waiting for its sockets. The
load test's report gives the server's CPU per client action; a function's share of the
samples is read as that share of it. A sampled share moves less with the machine's speed
than the CPU figure itself, and it does not slow the server down as a tracing profiler
would (cProfile here made the server 1.6 to 5 times slower, most of it in its own timer).

Prints the share of each layer (the innermost frame's file: ``server/<folder>``,
``protocol``, the engine, the event loop, websockets, native code), then the functions
with the most samples of their own (the innermost frame) and those with the most samples
in them (anywhere on the stack: what a call costs with everything under it; our code's,
websockets' and msgpack's functions only).

py-spy is not in the lock (a profiler, not a dependency): give its path, e.g. from
``pip download py-spy`` (the wheel holds the binary).

    python benchmarks/profile_peak.py --py-spy /path/to/py-spy [--seconds 20] [--top 30]
"""

from __future__ import annotations

import argparse
import collections
import json
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

#: a frame's file -> its layer, by the first part of the path that matches
LAYERS = (
    ("server/room/", "server/room/ (pure; compiled modules by name)"),
    ("server/", "server/"),
    ("protocol/", "protocol/"),
    ("table/", "table/ (the engine)"),
    ("scoring/", "scoring/"),
    ("bots/", "bots/"),
    ("websockets/", "websockets"),
    ("uvloop", "event loop (uvloop)"),
    ("asyncio/", "event loop (asyncio)"),
    ("redis/", "redis-py"),
    ("hiredis", "hiredis"),
    ("msgpack", "msgpack"),
    ("site-packages/", "other libraries"),
    ("/lib/python3", "standard library"),
)


#: a frame of the server's main thread, which runs the event loop: the other threads (the
#: thread pools of the bots' decisions and of DNS, idle at this load) are not counted
MAIN = "_run_module_as_main"
#: the layers whose functions the listing of what calls cost names (not the event loop's
#: and the interpreter's frames, which every stack holds)
OURS = ("server/", "protocol/", "table/", "scoring/", "bots/", "websockets", "msgpack")
#: the event loop waiting for the sockets: idle, not counted
IDLE = "epoll_pwait "


def sample(py_spy: str, seconds: int, rooms: int) -> tuple[Path, float]:
    """Run the server under the load test; (py-spy's raw samples, the server's CPU µs per
    client action over the whole test)."""
    data = Path(tempfile.mkdtemp(prefix="profile-peak-"))
    server, port = start_server(ROOT, data)
    try:
        report = data / "report.json"
        load = subprocess.Popen(
            [
                *pinned(1), str(BIN / "mahjong-loadtest"), "--url", f"ws://127.0.0.1:{port}",
                "--rooms", str(rooms), "--duration", str(seconds + 12), "--window-ms", "0",
                "--quiet", "--server-pid", str(server.pid), "--json", str(report),
            ],
            stdout=subprocess.DEVNULL,
        )  # fmt: skip
        time.sleep(8)  # the rooms seated and playing
        raw = Path(tempfile.mkstemp(prefix="profile-peak-", suffix=".txt")[1])
        subprocess.run(
            [py_spy, "record", "-p", str(server.pid), "-d", str(seconds), "-r", "100",
             "--native", "-f", "raw", "-o", str(raw)],
            check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        load.wait()
        game = json.loads(report.read_text())["game"]
        return raw, float(game["cpu_us_per_action"][str(server.pid)])
    finally:
        server.terminate()
        server.wait(20)
        shutil.rmtree(data, ignore_errors=True)


def layer(frame: str) -> str:
    """The layer of one py-spy frame, ``function (file:line)``."""
    where = frame.rpartition(" (")[2]
    for part, name in LAYERS:
        if part in where:
            if name == "server/":
                rel = where[where.index("server/") :].split("/")
                return f"server/{rel[1]}/" if len(rel) > 2 else "server/ (wiring)"
            return name
    return "native (the interpreter, libc, other C)"


def short(frame: str) -> str:
    name, _, where = frame.rpartition(" (")
    for marker in ("site-packages/", "/lib/python3.11/", f"{ROOT.name}/"):
        if marker in where:
            where = where[where.index(marker) + len(marker) :]
            break
    return f"{name} ({where.split(':')[0]})"


def tally(raw: Path) -> tuple[int, dict[str, int], dict[str, int], dict[str, int]]:
    """(samples, by layer of the innermost frame, by innermost function, by function
    anywhere on the stack)."""
    total = 0
    layers: collections.Counter[str] = collections.Counter()
    own: collections.Counter[str] = collections.Counter()
    inside: collections.Counter[str] = collections.Counter()
    for line in raw.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        n = int(count)
        frames = stack.split(";")
        if MAIN not in stack or frames[-1].startswith(IDLE):
            continue  # another thread (the thread pools wait for work), or the loop's wait
        total += n
        layers[layer(frames[-1])] += n
        own[short(frames[-1])] += n
        for f in {short(f) for f in frames if layer(f).startswith(OURS)}:
            inside[f] += n
    return total, layers, own, inside


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--py-spy", required=True, help="the py-spy binary")
    ap.add_argument("--seconds", type=int, default=20)
    ap.add_argument("--rooms", type=int, default=20)
    ap.add_argument("--top", type=int, default=30)
    a = ap.parse_args()
    raw, us = sample(a.py_spy, a.seconds, a.rooms)
    total, layers, own, inside = tally(raw)
    raw.unlink()
    print(f"server CPU per client action: {us:.1f} µs; {total} samples")

    def rows(counts: dict[str, int], n: int) -> None:
        for name, k in sorted(counts.items(), key=lambda kv: -kv[1])[:n]:
            print(f"  {k / total:6.1%} {k / total * us:7.1f} µs  {name}")

    print("\nby layer (the innermost frame's):")
    rows(layers, len(layers))
    print(f"\nthe {a.top} functions with the most samples of their own:")
    rows(own, a.top)
    print(f"\nthe {a.top} functions of ours with the most samples in them (with what they call):")
    rows(inside, a.top)


if __name__ == "__main__":
    main()
