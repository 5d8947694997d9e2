#!/usr/bin/env python3
"""Differential test of the MCR rule set against pymahjonggb, with fan coverage.

    python scripts/mcr_diff.py --hands 20000 [--seed 1] [--show 5]

Generates random winning hands (tests/scoring/mcr_gen.py), scores each with our engine and
with the oracle, compares the multiset of fans (the oracle's "Concealed Kong and Melded Kong"
normalised to Melded Kong + Concealed Kong) and prints how often each of the 81 fans occurred.
Exit status 1 when any hand disagrees or a fan occurs fewer than --min-coverage times.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "scoring"))

from mcr_gen import generate, oracle_fans, our_fans  # noqa: E402

from scoring import score  # noqa: E402
from scoring.rulesets.mcr import ROWS  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--show", type=int, default=5, help="print up to N disagreements")
    ap.add_argument("--min-coverage", type=int, default=5)
    args = ap.parse_args(argv)

    rng = random.Random(args.seed)
    coverage: Counter[str] = Counter()
    agree = 0
    bad: list[tuple[dict[str, object], Counter[str], Counter[str] | str]] = []
    for _ in range(args.hands):
        hand = generate(rng)
        res = score(hand)
        ours = our_fans(res) if res["error"] is None else Counter()
        try:
            theirs: Counter[str] | str = oracle_fans(hand)
        except Exception as e:  # the oracle rejects it
            theirs = f"oracle error: {e}"
        for fid in ours:
            coverage[fid] += 1
        if res["error"] is None and theirs == ours:
            agree += 1
        else:
            bad.append((hand, ours if res["error"] is None else Counter({res["error"]: 1}), theirs))

    n = args.hands
    print(f"hands: {n}  agree: {agree}  disagree: {n - agree}  ({100.0 * agree / n:.3f}%)")
    print("fan coverage (hands in which the fan counted):")
    low = []
    for fid, _pred, _excl in ROWS:
        c = coverage[fid]
        if c < args.min_coverage:
            low.append(fid)
        print(f"  {fid:34s} {c:6d}")
    print(
        f"fans covered >= {args.min_coverage} times: {81 - len(low)}/81"
        + (f"  (low: {', '.join(low)})" if low else "")
    )
    for hand, ours, theirs in bad[: args.show]:
        print("---")
        print(json.dumps(hand))
        print("ours:  ", dict(sorted(ours.items())))
        print("oracle:", theirs if isinstance(theirs, str) else dict(sorted(theirs.items())))
        if isinstance(theirs, Counter):
            print("diff:  ours-oracle", dict(ours - theirs), " oracle-ours", dict(theirs - ours))
    return 0 if agree == n and not low else 1


if __name__ == "__main__":
    sys.exit(main())
