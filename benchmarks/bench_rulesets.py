"""Benchmark: hands scored per second, rule set by rule set, side by side in one run.

    python benchmarks/bench_rulesets.py [--hands N] [--seed S] [--rulesets hk-tw16,mcr]

For every rule set (default: all registered) N seeded random complete hands of its size
(13-tile rule sets: four sets and a pair; 16-tile: five sets and a pair; some sets declared,
random flowers where the rule set uses them, random winds and self-draws) are scored with
``RuleSet.score`` (Hand objects built beforehand) and with ``scoring.score`` (JSON in/out).
Where a golden file ``tests/scoring/golden/<name>.jsonl`` exists its hands are timed too.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this checkout's scoring/, not whichever one is installed

from scoring import get_ruleset, ruleset_names, score  # noqa: E402
from scoring.random_hands import random_complete  # noqa: E402

WINDS = ["we", "ws", "ww", "wn"]


def random_hand(rng: random.Random, name: str, sets: int, flowers: bool) -> dict[str, Any]:
    concealed, melds, win = random_complete(rng, sets)
    out: dict[str, Any] = {
        "ruleset": name,
        "concealed": concealed,
        "melds": melds,
        "win_tile": win,
        "win": {"self_drawn": rng.random() < 0.4},
        "seat_wind": rng.choice(WINDS),
        "round_wind": rng.choice(WINDS),
    }
    if flowers:
        out["flowers"] = rng.sample([f"f{i}" for i in range(1, 9)], rng.randint(0, 3))
    if name == "riichi":
        _red_fives(out)
    return out


def _red_fives(hand: dict[str, Any]) -> None:
    """Riichi plays with red fives: where a hand holds all four fives of a suit, one of them
    is the red one (``0m`` / ``0p`` / ``0s``), or the rule set refuses the hand."""
    for suit in "mps":
        five, red = f"5{suit}", f"0{suit}"
        tiles = [
            *hand["concealed"],
            hand["win_tile"],
            *(t for m in hand["melds"] for t in m["tiles"]),
        ]
        if tiles.count(five) < 4:
            continue
        if five in hand["concealed"]:
            hand["concealed"][hand["concealed"].index(five)] = red
        elif hand["win_tile"] == five:
            hand["win_tile"] = red
        else:
            m = next(m for m in hand["melds"] if five in m["tiles"])
            m["tiles"][m["tiles"].index(five)] = red


def bench(label: str, name: str, hands_json: list[dict[str, Any]]) -> None:
    rs = get_ruleset(name)
    hands = [rs.hand_from_json(h) for h in hands_json]  # riichi reads its red fives
    t0 = time.perf_counter()
    for h in hands:
        rs.score(h)
    t1 = time.perf_counter()
    for hj in hands_json:
        score(hj)
    t2 = time.perf_counter()
    n = len(hands)
    for what, dt in (("RuleSet.score", t1 - t0), ("scoring.score", t2 - t1)):
        print(
            f"{name:<15} {rs.hand_size:>2}-tile {label:<7} {what:<14} "
            f"{n / dt:>8.0f} hands/s {dt / n * 1e6:>9.1f} µs/hand"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rulesets", default=",".join(ruleset_names()))
    args = ap.parse_args()
    import mahjong_native

    print(f"implementation: {mahjong_native.implementation()} ({mahjong_native.describe()})")
    for name in args.rulesets.split(","):
        rs = get_ruleset(name)
        rng = random.Random(args.seed)
        hands = [random_hand(rng, name, rs.sets, rs.uses_flowers) for _ in range(args.hands)]
        bench("random", name, hands)
        golden = ROOT / "tests" / "scoring" / "golden" / f"{name.replace('-', '_')}.jsonl"
        if golden.exists():
            g = [json.loads(x)["hand"] for x in golden.read_text("utf-8").splitlines() if x]
            g = [h for h in g if h.get("ruleset") == name]
            if g:
                bench("golden", name, (g * (args.hands // len(g) + 1))[: args.hands])


if __name__ == "__main__":
    main()
