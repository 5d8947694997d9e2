#!/usr/bin/env python3
"""MCR scoring throughput: our engine vs pymahjonggb (C++) on the same hands, one run.

    python benchmarks/bench_mcr.py [--hands 10000] [--seed 7] [--repeat 3] [--cpu]

The hands come from the differential generator (tests/scoring/mcr_gen.py). Both sides get
their input prepared beforehand (our engine: the public hand JSON, parsed and scored by
``scoring.score`` exactly as the server and the CLI call it; the oracle: its argument tuples),
so the timings cover parsing + scoring. The best of ``--repeat`` runs is reported for each.
Results differ from run to run on a shared machine; the ratio is what matters.

Both sides score every hand from scratch, each run: our engine remembers no hand's answer
for another (its memo tables are keyed by one suit's counts or a few sets' tiles, like a
calculator's lookup tables; the unique-wait tiles are kept for the hand being scored only —
an LRU of 4,096 hands used to answer ~22 % of mcr_gen's 10,000 hands from an earlier copy
of the same tiles, which the C++ side recomputes).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "scoring"))

from mcr_gen import generate, oracle_args  # noqa: E402

from scoring import Hand, get_ruleset, score  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--profile", action="store_true", help="cProfile our engine instead")
    ap.add_argument(
        "--cpu",
        action="store_true",
        help="time by the process's CPU time (a shared, loaded machine), not the wall clock",
    )
    args = ap.parse_args()

    from MahjongGB import MahjongFanCalculator

    rng = random.Random(args.seed)
    hands = [generate(rng) for _ in range(args.hands)]
    oracle_in = [oracle_args(h) for h in hands]

    if args.profile:
        import cProfile
        import pstats

        cProfile.runctx(
            "for h in hands: score(h)",
            globals(),
            {"hands": hands, "score": score},
            "/tmp/bench_mcr.prof",
        )
        pstats.Stats("/tmp/bench_mcr.prof").sort_stats("cumulative").print_stats(25)
        return 0

    clock = time.process_time if args.cpu else time.perf_counter

    def run_ours() -> float:
        t = clock()
        for h in hands:
            score(h)
        return clock() - t

    parsed = [Hand.from_json(h) for h in hands]
    mcr = get_ruleset("mcr")

    def run_core() -> float:
        t = clock()
        for h in parsed:
            mcr.score(h)
        return clock() - t

    def run_oracle() -> float:
        t = clock()
        for a in oracle_in:
            MahjongFanCalculator(*a, verbose=True)
        return clock() - t

    # interleaved, so that a change of the machine's load hits every side alike; the best
    # of each (the first run warms the caches too)
    runs = [(run_ours(), run_core(), run_oracle()) for _ in range(args.repeat)]
    ours, core, oracle = (min(r[i] for r in runs) for i in range(3))
    n = args.hands

    def line(name: str, secs: float) -> None:
        print(f"{name:40s} {n / secs:9.0f} hands/s {1e6 * secs / n:8.1f} us/hand")

    import mahjong_native

    print(f"implementation: {mahjong_native.implementation()} ({mahjong_native.describe()})")
    clock_name = "CPU time" if args.cpu else "wall clock"
    print(f"hands: {n} (seed {args.seed}), best of {args.repeat} interleaved runs, {clock_name}")
    line("ours: scoring.score (JSON dict in/out)", ours)
    line("ours: RuleSet.score (parsed Hand in)", core)
    line("pymahjonggb MahjongFanCalculator (C++)", oracle)
    print(
        f"ratio ours/oracle: JSON path {oracle / ours:.3f}, parsed path {oracle / core:.3f}"
        "  (goal >= 0.150)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
