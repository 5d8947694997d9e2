"""Old and new hot path side by side: ``bench_hotpath.py`` of a base checkout and of this one,
alternating in one run, each in its own process (its own ``PYTHONPATH``).

    git worktree add /tmp/hotpath-base d1dd70d
    python benchmarks/compare_hotpath.py --base /tmp/hotpath-base --rounds 7 --actions 3000

Prints each round's totals (µs of process CPU per action; with the implementation each side
ran, when its script says) and the ratio new / old of the medians. This checkout runs its
compiled modules when they are built (``MAHJONG_PURE=1``: the pure ones).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent


def total(root: Path, actions: int) -> tuple[float, str]:
    env = {**os.environ, "PYTHONPATH": str(root)}
    out = subprocess.run(
        [sys.executable, "benchmarks/bench_hotpath.py", "--actions", str(actions)],
        cwd=root,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    line = next(x for x in out.splitlines() if x.startswith("total"))
    impl = next((x.split()[1] for x in out.splitlines() if x.startswith("implementation:")), "")
    return float(line.split()[1]), impl


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", type=Path, required=True, help="checkout of the base commit")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--actions", type=int, default=3000)
    args = ap.parse_args()
    old: list[float] = []
    new: list[float] = []
    for i in range(args.rounds):
        # alternate which goes first, so a trend in the machine's load hits both alike
        order = [("old", args.base), ("new", HERE)]
        if i % 2:
            order.reverse()
        for name, root in order:
            t, impl = total(root, args.actions)
            (old if name == "old" else new).append(t)
            print(f"round {i + 1} {name}: {t:8.1f} µs/action {impl}".rstrip(), flush=True)
    mo, mn = statistics.median(old), statistics.median(new)
    print(f"median old {mo:.1f} µs/action, new {mn:.1f} µs/action, ratio new/old {mn / mo:.3f}")


if __name__ == "__main__":
    main()
