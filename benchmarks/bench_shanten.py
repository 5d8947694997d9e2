#!/usr/bin/env python3
"""Shanten and bot-decision speed.

    python benchmarks/bench_shanten.py [--hands 2000] [--seed 0]

Random 14-tile (13-tile rules) and 17-tile (16-tile rules) concealed hands: µs per shanten
call with cold caches (first pass, per-suit tables computed) and warm caches (second pass),
and ms per full discard decision (every discard × every draw: shanten + ukeire).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bots.player import Bot, Situation
from bots.rules import BotRules
from bots.shanten import OrphansShape, PairsShape, ShapeRules, _suffix, _suit_table, shanten
from scoring.tiles import Tile

RULES = {
    13: ShapeRules(13, 4, (PairsShape(7),), (OrphansShape(0),)),
    16: ShapeRules(16, 5, (PairsShape(7, 1),), (OrphansShape(1),)),
}


def hands(n: int, size: int, rng: random.Random) -> list[list[int]]:
    wall = [t for t in range(34) for _ in range(4)]
    out = []
    for _ in range(n):
        c = [0] * 34
        for t in rng.sample(wall, size + 1):
            c[t] += 1
        out.append(c)
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    print("| hand | shanten µs/call, cold | warm | discard decision ms (14/17 × 34 look-ups) |")
    print("|---|---|---|---|")
    for size, rules in RULES.items():
        _suffix.cache_clear()
        _suit_table.cache_clear()
        hs = hands(args.hands, size, rng)
        timings = []
        for _ in range(2):
            t0 = time.perf_counter()
            for c in hs:
                shanten(c, 0, rules)
            timings.append((time.perf_counter() - t0) / len(hs) * 1e6)
        bot = Bot(random.Random(0))
        br = BotRules(f"bench-{size}", rules)
        n_dec = min(200, len(hs))
        t0 = time.perf_counter()
        for c in hs[:n_dec]:
            sit = Situation(
                br, 0, list(c), [], [0] * 34, list(c), Tile.EAST, Tile.EAST, [], None, False
            )
            bot.best_discard(sit.concealed, 0, sit, [t for t in range(34) if c[t]])
        dec = (time.perf_counter() - t0) / n_dec * 1000
        print(f"| {size + 1} tiles | {timings[0]:.1f} | {timings[1]:.1f} | {dec:.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
