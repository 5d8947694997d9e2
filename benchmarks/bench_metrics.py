"""The cost of counting on the per-action path: the server's own counters (``server.process.metrics``) against prometheus-client's instruments, side by side in one run.

    python benchmarks/bench_metrics.py [--n 1000000]

Prints ns per call of each operation a client action does (a counter ``inc``, a labelled
counter ``inc``, a histogram ``observe``), old and new, and their ratio (docs/server.md,
"Metrics").
"""

from __future__ import annotations

import argparse
import timeit
from collections.abc import Callable

from prometheus_client import CollectorRegistry, Counter, Histogram

from server.process.metrics import BUCKETS, Metrics


def cases() -> list[tuple[str, Callable[[], object], Callable[[], object]]]:
    """(operation, the server's own, prometheus-client's), each one call."""
    ours = Metrics()
    reg = CollectorRegistry(auto_describe=False)
    out = Counter("mahjong_messages_out", "Frames sent.", registry=reg)
    commits = Counter("mahjong_commits", "Commits, by kind.", ["kind"], registry=reg)
    latency = Histogram("mahjong_action_seconds", "Latency.", buckets=BUCKETS, registry=reg)
    commits_action = commits.labels("action")
    return [
        ("counter inc", lambda: ours.inc("messages_out"), out.inc),
        (
            "labelled counter inc",
            lambda: ours.commits.__setitem__("action", ours.commits["action"] + 1),
            lambda: commits.labels("action").inc(),
        ),
        (
            "labelled counter inc (child kept)",
            lambda: ours.commits.__setitem__("action", ours.commits["action"] + 1),
            commits_action.inc,
        ),
        (
            "histogram observe",
            lambda: ours.action_latency.observe(0.0004),
            lambda: latency.observe(0.0004),
        ),
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=1_000_000)
    n = ap.parse_args().n
    print(f"{'operation':36} {'ours ns':>8} {'prom ns':>8} {'ratio':>6}")
    for name, old, new in cases():
        # best of 5, interleaved: the two sides share the machine's state
        a = b = float("inf")
        for _ in range(5):
            a = min(a, timeit.timeit(old, number=n) / n * 1e9)
            b = min(b, timeit.timeit(new, number=n) / n * 1e9)
        print(f"{name:36} {a:8.0f} {b:8.0f} {b / a:6.1f}")


if __name__ == "__main__":
    main()
