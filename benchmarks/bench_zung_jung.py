"""Zung Jung scoring throughput (hands per second) for ``zung-jung`` and ``zung-jung-v3.3``.

    .venv/bin/python benchmarks/bench_zung_jung.py [--hands 3000] [--seed 1] [--repeat 3]

The hands are random complete 13-tile hands (one in six seven pairs; sets are chows, pungs or
kongs, each melded or concealed at random; a random win tile, discard or self-draw) drawn
from a seeded generator, so every run scores the same hands. Two paths are timed: the typed
API (``RuleSet.score(Hand)``) and the JSON API (``scoring.score(dict)``, parsing included).
The best of ``--repeat`` runs is reported. Nothing is cached between hands beyond the
engine's own per-suit split memo (warmed by a first pass, as in a running server).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scoring import Hand, get_ruleset, score
from scoring.tiles import Tile


def random_hand(rng: random.Random, ruleset: str) -> dict[str, Any]:
    """One random complete hand (JSON form)."""
    while True:
        counts = [0] * 34
        if rng.randrange(6) == 0:
            kinds = rng.sample(range(34), 7)
            tiles = [Tile(k).code for k in kinds for _ in range(2)]
            win = rng.choice(tiles)
            tiles.remove(win)
            return {
                "ruleset": ruleset,
                "concealed": tiles,
                "win_tile": win,
                "win": {"self_drawn": rng.random() < 0.5},
            }
        concealed: list[str] = []
        melds: list[dict[str, Any]] = []
        for _ in range(4):
            kind = rng.choice(("chow", "chow", "chow", "pung", "pung", "kong"))
            if kind == "chow":
                s, n = rng.randrange(3), rng.randrange(7)
                ts = [9 * s + n, 9 * s + n + 1, 9 * s + n + 2]
            else:
                t = rng.randrange(34)
                ts = [t] * (3 if kind == "pung" else 4)
            for t in ts:
                counts[t] += 1
            codes = [Tile(t).code for t in ts]
            exposed = rng.random() < 0.35
            if kind == "kong":
                melds.append({"kind": "kong", "tiles": codes, "concealed": not exposed})
            elif exposed:
                melds.append({"kind": kind, "tiles": codes, "from": "left"})
            else:
                concealed.extend(codes)
        pair = rng.randrange(34)
        counts[pair] += 2
        if any(c > 4 for c in counts):
            continue
        concealed.extend([Tile(pair).code] * 2)
        win = rng.choice(concealed)
        concealed.remove(win)
        return {
            "ruleset": ruleset,
            "concealed": concealed,
            "melds": melds,
            "win_tile": win,
            "win": {"self_drawn": rng.random() < 0.5},
        }


def bench(name: str, n: int, seed: int, repeat: int) -> tuple[float, float]:
    rng = random.Random(seed)
    hands_json = [random_hand(rng, name) for _ in range(n)]
    hands = [Hand.from_json(h) for h in hands_json]
    rs = get_ruleset(name)
    for h in hands:  # warm the per-suit split memo
        rs.score(h)
    typed = json_api = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        for h in hands:
            rs.score(h)
        typed = min(typed, time.perf_counter() - t0)
        t0 = time.perf_counter()
        for hj in hands_json:
            r = score(hj)
            if r["error"]:
                raise SystemExit(f"bad generated hand: {r['error']}")
        json_api = min(json_api, time.perf_counter() - t0)
    return n / typed, n / json_api


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    print(f"{a.hands} random complete hands, seed {a.seed}, best of {a.repeat}")
    print(f"{'rule set':<16} {'RuleSet.score hands/s':>22} {'scoring.score(JSON) hands/s':>28}")
    for name in ("zung-jung", "zung-jung-v3.3"):
        typed, js = bench(name, a.hands, a.seed, a.repeat)
        print(f"{name:<16} {typed:>22,.0f} {js:>28,.0f}")


if __name__ == "__main__":
    main()
