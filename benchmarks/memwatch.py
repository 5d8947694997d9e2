"""Memory over a soak: a process's RSS sampled in the background, and the growth between two
tracemalloc snapshots the server wrote (``$MAHJONG_TRACEMALLOC_DIR``, one per SIGUSR1).

Used by ``bench_capacity.py soak --rss-every / --snapshot-minutes`` and
``bench_bot_memory.py``; on its own, the growth sites between two snapshot files:

    python benchmarks/memwatch.py OLD.snapshot NEW.snapshot [--frames 1] [--top 15]
"""

from __future__ import annotations

import argparse
import os
import threading
import time
import tracemalloc
from pathlib import Path
from typing import Any


def rss_kib(pid: int) -> int | None:
    """Resident set size of ``pid`` (KiB), None when it is gone."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


class RssSampler:
    """Samples the RSS of ``pid`` every ``every`` seconds in a thread: ``samples`` is
    [(seconds since ``t0``, KiB)]."""

    def __init__(self, pid: int, every: float, t0: float | None = None) -> None:
        self.pid = pid
        self.every = every
        self.t0 = time.perf_counter() if t0 is None else t0
        self.samples: list[tuple[float, int]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="rss", daemon=True)

    def start(self) -> RssSampler:
        self._thread.start()
        return self

    def _run(self) -> None:
        while not self._stop.is_set():
            v = rss_kib(self.pid)
            if v is not None:
                self.samples.append((time.perf_counter() - self.t0, v))
            self._stop.wait(self.every)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(5)

    def at(self, seconds: float) -> int | None:
        """The last sample taken at or before ``seconds`` (None: none yet)."""
        best = None
        for t, v in self.samples:
            if t <= seconds:
                best = v
        return best

    def by_minute(self, since: float = 0.0, until: float | None = None) -> dict[int, float]:
        """RSS (MiB) at each whole minute after ``since`` (seconds from ``t0``) up to
        ``until`` (default: the last sample)."""
        out: dict[int, float] = {}
        if not self.samples:
            return out
        last_t = self.samples[-1][0] if until is None else until
        m = 0
        while since + 60 * m <= last_t:
            v = self.at(since + 60 * m)
            if v is not None:
                out[m] = round(v / 1024, 2)
            m += 1
        return out

    def growth(
        self, since: float, from_minute: float, until: float | None = None
    ) -> dict[str, Any]:
        """RSS growth from ``from_minute`` (after ``since``) to the last sample at or before
        ``until`` (default: the last sample): KiB and %."""
        a = self.at(since + 60 * from_minute)
        ends = [s for s in self.samples if until is None or s[0] <= until]
        if a is None or not ends:
            return {}
        t_end, b = ends[-1]
        return {
            "from_minute": from_minute,
            "to_minute": round((t_end - since) / 60, 2),
            "from_mib": round(a / 1024, 2),
            "to_mib": round(b / 1024, 2),
            "growth_kib": b - a,
            "growth_pct": round(100 * (b - a) / a, 2),
        }


def growth_sites(
    old: Path | str, new: Path | str, frames: int = 1, top: int = 15
) -> list[list[Any]]:
    """The allocation sites that grew most from snapshot ``old`` to ``new``:
    [[site, +KiB, +blocks, KiB now], ...]; with ``frames`` > 1 (the snapshots must have been
    taken with PYTHONTRACEMALLOC of at least that), each site is its call chain, innermost
    first, joined with " < "."""
    a = tracemalloc.Snapshot.load(str(old))
    b = tracemalloc.Snapshot.load(str(new))
    key = "lineno" if frames <= 1 else "traceback"
    stats = b.compare_to(a, key)
    stats.sort(key=lambda s: s.size_diff, reverse=True)
    out: list[list[Any]] = []
    for st in stats[:top]:
        chain = list(st.traceback)[-frames:][::-1] if frames > 1 else [st.traceback[0]]
        site = " < ".join(f"{_short(fr.filename)}:{fr.lineno}" for fr in chain)
        out.append([site, round(st.size_diff / 1024, 1), st.count_diff, round(st.size / 1024)])
    return out


def _short(filename: str) -> str:
    """The path from the package (server/app.py) or the library file name."""
    parts = filename.split(os.sep)
    for i, p in enumerate(parts):
        if p in ("site-packages", "lib") and i + 1 < len(parts):
            return "/".join(parts[i + 1 :])
    return "/".join(parts[-2:])


def snapshots(directory: Path, pid: int | None = None) -> list[Path]:
    """The snapshot files written into ``directory`` (by process ``pid``: any), oldest
    first."""
    files = list(directory.glob(f"tracemalloc-{pid or '*'}-*.snapshot"))
    return sorted(files, key=lambda p: int(p.stem.rsplit("-", 1)[1]))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--frames", type=int, default=1, help="call-chain depth of a site")
    ap.add_argument("--top", type=int, default=15)
    args = ap.parse_args()
    for site, kib, blocks, now in growth_sites(args.old, args.new, args.frames, args.top):
        print(f"{kib:+10.1f} KiB {blocks:+8d} blocks {now:8d} KiB now  {site}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
