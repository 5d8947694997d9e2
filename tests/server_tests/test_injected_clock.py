"""The server's injected clock (``server/process/clock.py``): the test clock a test advances, and the
rule that no part of the server reads the wall clock but through it."""

from __future__ import annotations

import ast
import asyncio
import time
from pathlib import Path

import pytest

from server.process.clock import REAL, TestClock

SERVER = Path(__file__).parents[2] / "server"

#: modules that read ``time.monotonic`` / ``time.perf_counter`` themselves, and why: they
#: measure the real world, not the game's time (docs/server.md, "The clock")
REAL_TIME_READERS = {
    "app.py": "the start-up wait for Redis, the shutdown's bounded wait",
    "storage/cluster.py": "retry back-offs against nodes, the replica count's cache",
    "flow/cluster_notifier.py": "index healing",
    "process/collector.py": "the collector's cadence",
    "storage/embedded.py": "waiting for the embedded redis-server to start and stop",
    "process/metrics.py": "collector pause durations",
    "api/session.py": "the hello timeout (transport) and request latencies",
    "api/stopping.py": "how long each phase of a stop took, the hello-rate meter",
    "net/transport.py": "frame timing, a new connection's first ping",
    "net/keepalive.py": "keepalive pings",
}


def _time_calls(path: Path) -> set[str]:
    """The ``time.<name>`` attributes a module uses, and ``now_ms`` when it imports the
    module-level (real) ``server.process.clock.now_ms``."""
    tree = ast.parse(path.read_text("utf-8"))
    out: set[str] = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "time"
        ):
            out.add(node.attr)
        if isinstance(node, ast.ImportFrom) and node.module == "server.process.clock":
            out |= {a.name for a in node.names if a.name == "now_ms"}
    return out


def test_only_the_clock_reads_the_wall_clock() -> None:
    """Deadlines, log times and every other "now" of the game come from ``Runtime.clock``:
    no server module but ``clock.py`` reads ``time.time`` or the real ``now_ms``, and only
    the modules that measure the real world read a monotonic clock of their own."""
    wall, monotonic = [], []
    for path in sorted(SERVER.rglob("*.py")):
        rel = path.relative_to(SERVER).as_posix()
        if rel == "process/clock.py":
            continue
        used = _time_calls(path)
        if used & {"time", "time_ns", "now_ms"}:
            wall.append(f"{rel}: {sorted(used & {'time', 'time_ns', 'now_ms'})}")
        if used & {"monotonic", "perf_counter", "monotonic_ns"} and rel not in REAL_TIME_READERS:
            monotonic.append(rel)
    assert not wall, f"read the wall clock through Runtime.clock: {wall}"
    assert not monotonic, f"intervals of the game's time go through Runtime.clock: {monotonic}"


async def test_an_advance_wakes_a_sleeper_at_once() -> None:
    clock = TestClock()
    t0, wall0 = time.monotonic(), clock.now_ms()
    sleeper = asyncio.create_task(clock.sleep(30))
    until = asyncio.create_task(clock.sleep(60))
    await asyncio.sleep(0.01)
    clock.advance(29.5)
    await asyncio.sleep(0.01)
    assert not sleeper.done(), "woken before its time"
    clock.advance(1)
    await asyncio.wait_for(sleeper, 1)
    assert not until.done()
    clock.advance(30)
    await asyncio.wait_for(until, 1)
    assert time.monotonic() - t0 < 5, "the sleepers waited on the real clock"
    assert clock.now_ms() - wall0 >= 60_500
    assert clock.monotonic() - time.monotonic() == pytest.approx(60.5)


async def test_the_test_clock_runs_with_the_real_one_until_advanced() -> None:
    clock = TestClock()
    assert abs(clock.now_ms() - REAL.now_ms()) <= 5
    t0 = clock.monotonic()
    await clock.sleep(0.05)  # no advance: a real wait
    assert clock.monotonic() - t0 >= 0.05
    with pytest.raises(ValueError):
        clock.advance(-1)
