"""A/B benchmark: ``bench_rulesets.py`` of this checkout and of another, alternating in one run.

    python benchmarks/bench_rulesets_ab.py --base /tmp/rules-base [--rounds 5] [--hands 3000]

``--base`` is another checkout (e.g. ``git worktree add --detach /tmp/rules-base <commit>``).
Each round runs the base's and this checkout's ``benchmarks/bench_rulesets.py`` (each in a
fresh interpreter, each importing its own ``scoring/``: this checkout's compiled modules when
they are built — ``MAHJONG_PURE=1`` for the pure ones — a base without a build its pure
Python), alternating which goes first. Prints the median hands/s of each line and the ratio
new / base.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

from ab_rounds import alternate  # noqa: E402

LINE = re.compile(r"^(\S+)\s+(\d+)-tile (\S+)\s+(\S+)\s+(\d+) hands/s")


def run(tree: Path, hands: int, rulesets: str) -> dict[tuple[str, str, str], int]:
    cmd = [sys.executable, str(tree / "benchmarks" / "bench_rulesets.py"), "--hands", str(hands)]
    out = subprocess.run(
        [*cmd, "--rulesets", rulesets] if rulesets else cmd,
        check=True,
        capture_output=True,
        text=True,
        cwd=tree,
    ).stdout
    got: dict[tuple[str, str, str], int] = {}
    for line in out.splitlines():
        if line.startswith("implementation:"):
            print(f"{tree}: {line}", file=sys.stderr)
        m = LINE.match(line)
        if m:
            got[(m[1], m[3], m[4])] = int(m[5])
    return got


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", type=Path, required=True)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--hands", type=int, default=3000)
    ap.add_argument("--rulesets", default="", help="comma-separated (default: bench_rulesets')")
    args = ap.parse_args()
    runs = alternate(
        args.rounds, args.base, ROOT, lambda tree: run(tree, args.hands, args.rulesets)
    )
    keys = sorted(set(runs["base"][0]) & set(runs["new"][0]))
    print(f"{'rule set':<15} {'hands':<7} {'what':<14} {'base/s':>8} {'new/s':>8} {'new/base':>8}")
    for key in keys:
        b = statistics.median(x[key] for x in runs["base"])
        n = statistics.median(x[key] for x in runs["new"])
        print(f"{key[0]:<15} {key[1]:<7} {key[2]:<14} {b:>8.0f} {n:>8.0f} {n / b:>8.3f}")


if __name__ == "__main__":
    main()
