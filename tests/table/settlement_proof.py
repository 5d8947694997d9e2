"""Proof that ``mahjong-score`` settles a win exactly as the table does.

For every win of a game's events, the winners' hands as the table put them in ``hand_won``
(with the room's settlement options) go through ``mahjong-score``'s entry point
(:func:`scoring.settlement.score_and_settle`); its ``payments`` must equal the winners'
payment events, in order. Every hk-tw16 instant payment (即收 / 即罰) event goes through it
(with the room's settlement options) as its own input and must give the payment events that followed it.

    .venv/bin/python tests/table/settlement_proof.py --hands 1000   # per rule set
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from scoring.settlement import score_and_settle
from table import Event, GameConfig, playable_rulesets
from table.sim import play_game

#: settlement options other than the defaults, per rule set (a second run of each)
OPTIONS: dict[str, dict[str, Any]] = {
    "hk-tw16": {"base": 2, "per_fan": 3},
    "tw16-tai": {"base": 5, "unit": 2, "dealer_rows": False},
    "zung-jung": {"discard": "everyone", "self_draw": "full"},
    "zung-jung-v3.3": {"discard": "discarder-for-all"},
}


def _pay(p: Mapping[str, Any]) -> tuple[int, int, int, str]:
    return (p["payer"], p["payee"], p["amount"], p["reason"])


def check_events(events: Sequence[Event], settlement: Mapping[str, Any]) -> dict[str, int]:
    """Check every win and instant payment of ``events``; return how many of each were
    checked (and the flower wins the scoring engine cannot value on their own, skipped)."""
    n = {"wins": 0, "winners": 0, "instant": 0, "skipped": 0}
    for i, e in enumerate(events):
        if e.type == "hand_won":
            winners = e.data["winners"]
            hands = [w["hand"] for w in winners]
            want = [_pay(p) for w in winners for p in w["payments"]]
            obj: dict[str, Any] = {**hands[0]} if len(hands) == 1 else {"winners": hands}
            if settlement:
                obj["settlement"] = dict(settlement)
            got = score_and_settle(obj)
            if got.get("error") and e.data["how"] == "flowers":
                n["skipped"] += 1  # the table valued it by the flower win's row alone
                continue
            assert got.get("error") is None, (got, hands)
            assert [_pay(p) for p in got["payments"]] == want, (got["payments"], want)
            assert sum(got["net"]) == 0
            n["wins"] += 1
            n["winners"] += len(winners)
        elif e.type == "instant":
            follow = []
            for f in events[i + 1 :]:
                if f.type != "payment" or f.data["reason"] != e.data["kind"]:
                    break
                follow.append(_pay(f.data))
            inp: dict[str, Any] = {"ruleset": "hk-tw16", "instant": e.data}
            if settlement:
                inp["settlement"] = dict(settlement)
            got = score_and_settle(inp)
            assert got.get("error") is None, got
            assert [_pay(p) for p in got["payments"]] == follow, (got, follow)
            n["instant"] += 1
    return n


def run(
    ruleset: str, hands: int, seed: int, settlement: Mapping[str, Any] | None = None
) -> dict[str, int]:
    """Play games of ``ruleset`` until ``hands`` hands were played; check them all."""
    rng = random.Random(seed)
    total = {"hands": 0, "wins": 0, "winners": 0, "instant": 0, "skipped": 0}
    opts = tuple(sorted((settlement or {}).items()))
    while total["hands"] < hands:
        cfg = GameConfig(ruleset, max_hands=min(16, hands - total["hands"]), settlement=opts)
        rec = play_game(cfg, rng)
        for k, v in check_events(rec.events, dict(opts)).items():
            total[k] += v
        total["hands"] += rec.final.hands_played
    return total


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=21)
    args = ap.parse_args(argv)
    for rs in playable_rulesets():
        for opts in ({}, OPTIONS[rs]) if rs in OPTIONS else ({},):
            print(rs, opts or "defaults", run(rs, args.hands, args.seed, opts), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
