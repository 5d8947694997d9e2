"""Simulated hands per second with the legal-random players, per rule set.

    .venv/bin/python benchmarks/bench_sim.py [--games N] [--seed S] [RULESET ...]

Plays N complete games (all round winds) per rule set in one process and prints one
Markdown table row per rule set: games, hands, wall and CPU seconds, hands/s and actions/s
(per CPU second: the machine is shared, CPU time is the steadier measure). Every
``apply`` is a full state transition (immutable states, typed validation); the players call
``legal_actions`` before each choice, which is part of the measured cost.
"""

from __future__ import annotations

import argparse
import random
import time

import table
from table.sim import Stats, play_game


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("rulesets", nargs="*")
    args = ap.parse_args()
    names = args.rulesets or table.playable_rulesets()
    print(
        "| rule set | games | hands | wall s | CPU s | hands/CPU s | actions/CPU s | wins | draws |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name in names:
        rng = random.Random(args.seed)
        stats = Stats(name)
        actions = 0
        t0, c0 = time.perf_counter(), time.process_time()
        for _ in range(args.games):
            rec = play_game(name, rng)
            actions += len(rec.actions)
            stats.add(rec)
        dt, ct = time.perf_counter() - t0, time.process_time() - c0
        print(
            f"| {name} | {args.games} | {stats.hands} | {dt:.1f} | {ct:.1f} "
            f"| {stats.hands / ct:.0f} | {actions / ct:.0f} | {sum(stats.wins.values())} "
            f"| {stats.draws} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
