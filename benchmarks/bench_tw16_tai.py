"""Benchmark: tw16-tai hands scored per second.

    python benchmarks/bench_tw16_tai.py [--hands N] [--seed S]

Two workloads, each timed over the same hands in one run:

* ``golden``  — the golden hands (every row of the table, special shapes, flower wins),
  cycled to N;
* ``random``  — N random complete 16-tile hands (five sets and a pair, some declared, random
  flowers, winds and win conditions) from a seeded generator.

Reported: hands/s and µs/hand for ``RuleSet.score`` (Hand objects built beforehand) and for
``scoring.score`` (JSON in, JSON out, what the CLI and the server call).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path
from typing import Any

from scoring import Hand, score
from scoring.random_hands import random_complete
from scoring.rulesets.tw16_tai import RULESET

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "scoring" / "golden" / "tw16_tai.jsonl"
WINDS = ["we", "ws", "ww", "wn"]


def random_hand(rng: random.Random) -> dict[str, Any]:
    concealed, melds, win = random_complete(rng, 5)
    return {
        "ruleset": "tw16-tai",
        "concealed": concealed,
        "melds": melds,
        "flowers": rng.sample([f"f{i}" for i in range(1, 9)], rng.randint(0, 3)),
        "win_tile": win,
        "win": {"self_drawn": rng.random() < 0.4},
        "seat_wind": rng.choice(WINDS),
        "round_wind": rng.choice(WINDS),
    }


def bench(name: str, hands_json: list[dict[str, Any]]) -> None:
    hands = [Hand.from_json(h) for h in hands_json]
    t0 = time.perf_counter()
    for h in hands:
        RULESET.score(h)
    t1 = time.perf_counter()
    for hj in hands_json:
        score(hj)
    t2 = time.perf_counter()
    n = len(hands)
    for label, dt in (("RuleSet.score", t1 - t0), ("scoring.score (JSON)", t2 - t1)):
        print(f"{name:7} {label:22} {n / dt:10.0f} hands/s  {dt / n * 1e6:8.1f} µs/hand")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    golden = [json.loads(x)["hand"] for x in GOLDEN.read_text("utf-8").splitlines()]
    rng = random.Random(args.seed)
    rand = [random_hand(rng) for _ in range(args.hands)]
    cycled = [golden[i % len(golden)] for i in range(args.hands)]
    score(golden[0])  # warm the decomposition caches the same way for both workloads
    bench("golden", cycled)
    bench("random", rand)


if __name__ == "__main__":
    main()
