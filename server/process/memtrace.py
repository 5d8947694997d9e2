"""Where this process's memory is: tracemalloc's top allocation sites (and its snapshot, for diffs) on SIGUSR1, when PYTHONTRACEMALLOC is set.

The game server installs :func:`log_memory_top` on its event loop; a bot worker process
(server/room/game.py) as a plain signal handler. Diff two snapshots with
``python benchmarks/memwatch.py OLD NEW`` (docs/memory.md).
"""

from __future__ import annotations

import logging
import os
import signal
import tracemalloc
from typing import Any

__all__ = ["SNAPSHOT_DIR_ENV", "install_handler", "log_memory_top", "tracing"]

log = logging.getLogger("mahjong.server")

#: with PYTHONTRACEMALLOC set, each SIGUSR1 also writes its snapshot into this directory
#: (``tracemalloc-<pid>-<n>.snapshot``, n from 1), for diffs between two moments
#: (``python benchmarks/memwatch.py A B``; ``bench_capacity.py soak --snapshot-minutes``)
SNAPSHOT_DIR_ENV = "MAHJONG_TRACEMALLOC_DIR"
_snapshots_taken = 0


def log_memory_top(limit: int = 30) -> None:
    """Log the biggest allocation sites (tracemalloc must be tracing: PYTHONTRACEMALLOC=1)
    as one JSON-friendly record: [[file:line, KiB, blocks], ...]; and, when
    ``$MAHJONG_TRACEMALLOC_DIR`` is set, write the snapshot there."""
    global _snapshots_taken
    snap = tracemalloc.take_snapshot().filter_traces(
        [tracemalloc.Filter(False, tracemalloc.__file__)]
    )
    stats = snap.statistics("lineno")
    total = sum(st.size for st in stats)
    top = [
        [f"{st.traceback[0].filename.rsplit('/', 2)[-1]}:{st.traceback[0].lineno}",
         round(st.size / 1024), st.count]
        for st in stats[:limit]
    ]  # fmt: skip
    extra: dict[str, Any] = {"traced_kib": round(total / 1024), "top": top}
    out_dir = os.environ.get(SNAPSHOT_DIR_ENV)
    if out_dir:
        _snapshots_taken += 1
        path = os.path.join(out_dir, f"tracemalloc-{os.getpid()}-{_snapshots_taken}.snapshot")
        snap.dump(path)
        extra["snapshot"] = path
    log.warning("memory top", extra=extra)


def tracing() -> bool:
    """tracemalloc is on (PYTHONTRACEMALLOC set): SIGUSR1 may log the top sites."""
    return tracemalloc.is_tracing()


def install_handler() -> None:
    """SIGUSR1 logs the top sites (and writes a snapshot) in a process without an event
    loop (a bot worker), when tracing; else does nothing."""
    if tracing() and hasattr(signal, "SIGUSR1"):
        signal.signal(signal.SIGUSR1, lambda _sig, _frame: log_memory_top())
