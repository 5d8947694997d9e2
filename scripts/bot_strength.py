#!/usr/bin/env python3
"""Bot strength per rule set: the bot against the table's random player and against itself.

    python scripts/bot_strength.py --games 8 --hands 4 [--ruleset zung-jung ...] [--json]

For every rule set (default: every rule set both the scoring engine and the table engine
know) it plays ``--games`` games of ``--hands`` hands for each match-up
(``bot-vs-random``: one bot, three random players, the bot's seat rotating; ``bot-vs-bot``;
``random-vs-random`` as the reference) and prints a Markdown table for BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bots.strength import play_match

MATCHUPS = ("bot-vs-random", "bot-vs-bot", "random-vs-random")


def default_rulesets() -> list[str]:
    import scoring

    table = importlib.import_module("table")
    return [n for n in table.param_names() if n in scoring.ruleset_names()]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--ruleset", action="append", help="repeatable; default: all playable")
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--hands", type=int, default=4, help="hands per game")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--matchup", action="append", choices=MATCHUPS)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    rulesets = args.ruleset or default_rulesets()
    results = []
    for rs in rulesets:
        for m in args.matchup or MATCHUPS:
            r = play_match(rs, m, args.games, args.seed, args.hands).to_json()
            results.append(r)
            print(f"# {rs} {m}: {r}", file=sys.stderr, flush=True)
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    print(
        "| rule set | match-up | hands | draws | role-0 wins (share of won hands) | "
        "wins by role | deal-ins by role | net points by role | bot ms/decision "
        "(mean / p99 / max) |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for r in results:
        won = r["hands"] - r["draws"]
        print(
            f"| {r['ruleset']} | {r['matchup']} | {r['hands']} | {r['draws']} | "
            f"{r['wins_by_role'][0]} / {won} ({100 * r['win_share_role0']:.0f} %) | "
            f"{r['wins_by_role']} | {r['deal_ins_by_role']} | {r['net_points_by_role']} | "
            + (
                f"{r['bot_ms_per_decision']} / {r['bot_ms_p99']} / {r['bot_ms_max']} |"
                if r["matchup"] != "random-vs-random"
                else "- |"
            )
        )
    bad = sum(r["illegal_actions"] for r in results)
    if bad:
        print(f"\n{bad} illegal bot actions!", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
