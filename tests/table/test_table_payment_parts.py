"""Every payment of a win carries the settlement's own arithmetic (``parts``, ``share``,
docs/protocol.md ``Payment``) and its amount is what that arithmetic makes — over random
games of every playable rule set, with settlement options that use every part (底, the value
of a 番 / 台, the dealer and its streak)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from table_testlib import PLAYABLE

from scoring.engine import Part, parts_total
from table import GameConfig
from table.sim import play_game

SETTLEMENT: dict[str, tuple[tuple[str, Any], ...]] = {
    "hk-tw16": (("base", 2), ("per_fan", 3)),
    "tw16-tai": (("base", 50), ("unit", 20)),
    "zung-jung": (("self_draw", "third"),),
}


@pytest.mark.parametrize("ruleset", PLAYABLE)
def test_win_payments_add_up_from_their_parts(ruleset: str) -> None:
    rng = random.Random(f"parts-{ruleset}")
    cfg = GameConfig(ruleset, max_hands=8, settlement=SETTLEMENT.get(ruleset, ()))
    seen = 0
    kinds: set[str] = set()
    for _ in range(3):
        for e in play_game(cfg, rng).events:
            if e.type != "hand_won":
                continue
            for w in e.to_json()["winners"]:
                for pay in w["payments"]:
                    parts = [Part(p["kind"], p["value"], p.get("times", 1)) for p in pay["parts"]]
                    assert pay["amount"] == parts_total(parts, pay.get("share", 1)), pay
                    kinds.update(p.kind for p in parts)
                    seen += 1
    assert seen, f"no {ruleset} hand was won in 24 random hands"
    assert "points" in kinds
