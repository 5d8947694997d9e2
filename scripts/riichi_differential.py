#!/usr/bin/env python3
"""Differential test of the riichi rule set against the ``mahjong`` package (2.1.0).

    python scripts/riichi_differential.py --hands 20000 [--seed 1] [--show 5]
        [--min-coverage 20] [--json out.json]

Generates random winning hands (tests/scoring/riichi_gen.py: targeted generators per yaku
family, random situations, indicators, red fives and house rules), scores each with our
engine and with the reference calculator (its optional rules set from the hand's house rules:
by default open tanyao, red fives, kazoe yakuman, no kiriage, double yakuman, no renhou,
pinfu tsumo 20 fu) and compares han, fu (not on yakuman hands, where ours is null), the
points (``total``: the ron payment or the sum of the tsumo payments) and the yaku with their
han. A hand without a yaku must be one for both. Prints how often each of riichi.json's 48
ids occurred and how often a red five was in each place a tile can be (concealed, the
claimed tile of a chow / pung / open kong, elsewhere in those melds, inside an added or
concealed kong, the winning tile self-drawn and on a discard, a dora and an ura-dora
indicator). Exit status 1 when any hand disagrees, an id occurs fewer than --min-coverage
times or a red-five place fewer than --min-red times (default: 1 % of the hands).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "scoring"))

from riichi_gen import RED_PLACES, compare, generate  # noqa: E402

from scoring.rulesets.riichi import YAKU  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--show", type=int, default=5, help="print up to N disagreements")
    ap.add_argument("--min-coverage", type=int, default=20)
    ap.add_argument("--min-red", type=int, help="fewest red fives in each place")
    ap.add_argument("--json", help="write the figures to this file")
    args = ap.parse_args(argv)

    rng = random.Random(args.seed)
    coverage: Counter[str] = Counter()
    red_places: Counter[str] = Counter()
    min_red = args.hands // 100 if args.min_red is None else args.min_red
    limits: Counter[str] = Counter()
    bad = []
    no_yaku = 0
    start = time.perf_counter()
    for _ in range(args.hands):
        hand = generate(rng, red_places)
        ours, theirs, result = compare(hand)
        if ours != theirs:
            bad.append((hand, ours, theirs))
            continue
        if ours is None:
            no_yaku += 1
            continue
        coverage.update(ours[3].keys())
        limits[result["limit"] or "-"] += 1
    seconds = time.perf_counter() - start
    agree = args.hands - len(bad)
    print(
        f"{args.hands} hands (seed {args.seed}) in {seconds:.1f} s: {agree} agree "
        f"({100 * agree / args.hands:.2f} %) on han, fu, points and yaku; "
        f"{len(bad)} disagree; {no_yaku} without a yaku (for both)"
    )
    for hand, ours, theirs in bad[: args.show]:
        print(json.dumps(hand))
        print("  ours  :", ours)
        print("  theirs:", theirs)
    print("limits:", ", ".join(f"{k} {n}" for k, n in sorted(limits.items())))
    print("occurrences of each id (hands holding it):")
    short = []
    for yid in YAKU:
        n = coverage[yid]
        flag = "" if n >= args.min_coverage else "   <-- below --min-coverage"
        if flag:
            short.append(yid)
        print(f"  {yid:20} {n:6}{flag}")
    print("red fives in each place (hands with one there, % of all hands):")
    short_red = []
    for place in RED_PLACES:
        n = red_places[place]
        flag = "" if n >= min_red else "   <-- below --min-red"
        if flag:
            short_red.append(place)
        print(f"  {place:30} {n:6} {100 * n / args.hands:5.2f} %{flag}")
    if args.json:
        Path(args.json).write_text(
            json.dumps(
                {
                    "hands": args.hands,
                    "seed": args.seed,
                    "agree": agree,
                    "disagree": len(bad),
                    "no_yaku": no_yaku,
                    "coverage": {y: coverage[y] for y in YAKU},
                    "limits": dict(limits),
                    "red_places": {p: red_places[p] for p in RED_PLACES},
                },
                indent=1,
            )
        )
    if short:
        print(f"ids below {args.min_coverage} occurrences: {', '.join(short)}")
    if short_red:
        print(f"red-five places below {min_red}: {', '.join(short_red)}")
    return 1 if bad or short or short_red else 0


if __name__ == "__main__":
    raise SystemExit(main())
