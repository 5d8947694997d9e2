"""A/B benchmark of scoring in CPU time: two checkouts score the same hands, alternating.

    python benchmarks/bench_scoring_ab.py --base /tmp/rules-base [--rounds 7] [--hands 2000]
        [--rulesets hk-tw16,mcr] [--golden]

Like ``bench_rulesets_ab.py``, but made for a shared, noisy machine: the hands are drawn
once, here (``bench_rulesets.random_hand``, so both sides score exactly the same hands, and
riichi's red fives are right; ``--golden`` adds each rule set's golden hands, repeated to
``--hands``), each side scores them in a fresh interpreter importing its own
``scoring/`` (``RuleSet.score`` on hands parsed beforehand, a warm-up first), and the time is
the process's CPU time, not the wall clock: another job on the same core slows the wall clock
of a run but hardly its CPU time. Rounds alternate which side goes first; the median per rule
set is printed with the ratio new / base.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

CHILD = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from scoring import get_ruleset
from scoring.hand import Hand
data = json.load(open(sys.argv[2]))
out = {}
for name, hands_json in data.items():
    rs = get_ruleset(name.split()[0])
    parse = getattr(rs, "hand_from_json", Hand.from_json)
    hands = [parse(h) for h in hands_json]
    for h in hands[:100]:
        rs.score(h)
    t = time.process_time()
    for h in hands:
        rs.score(h)
    out[name] = len(hands) / (time.process_time() - t)
print(json.dumps(out))
"""


def main() -> None:
    from ab_rounds import alternate
    from bench_rulesets import random_hand

    from scoring import get_ruleset

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", type=Path, required=True)
    ap.add_argument("--new", type=Path, default=ROOT)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rulesets", default="hk-tw16,mcr,tw16-tai,zung-jung,zung-jung-v3.3")
    ap.add_argument("--golden", action="store_true", help="also the golden hands (repeated)")
    args = ap.parse_args()
    data = {}
    for name in args.rulesets.split(","):
        rs = get_ruleset(name)
        rng = random.Random(args.seed)
        data[name] = [random_hand(rng, name, rs.sets, rs.uses_flowers) for _ in range(args.hands)]
        golden = ROOT / "tests" / "scoring" / "golden" / f"{name.replace('-', '_')}.jsonl"
        if args.golden and golden.exists():
            g = [json.loads(x)["hand"] for x in golden.read_text("utf-8").splitlines() if x]
            g = [h for h in g if h.get("ruleset") == name]
            if g:
                data[f"{name} golden"] = (g * (args.hands // len(g) + 1))[: args.hands]
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
        json.dump(data, fh)

    def one(tree: Path) -> dict[str, float]:
        out = subprocess.run(
            [sys.executable, "-c", CHILD, str(tree), fh.name],
            check=True,
            capture_output=True,
            text=True,
            cwd=tree,
        ).stdout
        result: dict[str, float] = json.loads(out.splitlines()[-1])
        return result

    runs = alternate(args.rounds, args.base, args.new, one)
    Path(fh.name).unlink()
    print(f"{'rule set':<15} {'base/s':>8} {'new/s':>8} {'new/base':>8}   (CPU time, median)")
    for name in data:
        b = statistics.median(x[name] for x in runs["base"])
        n = statistics.median(x[name] for x in runs["new"])
        print(f"{name:<15} {b:>8.0f} {n:>8.0f} {n / b:>8.3f}")


if __name__ == "__main__":
    main()
