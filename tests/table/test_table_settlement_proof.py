"""``mahjong-score`` given a win's inputs returns exactly the table's payment events: every
win of the golden games, and ~100 hands of each rule set played by ``mahjong-sim``'s random
players (with default and other settlement options). ``settlement_proof.py --hands 1000``
runs the long version."""

from __future__ import annotations

import pytest
from settlement_proof import OPTIONS, check_events, run
from test_table_golden import SCENARIOS, load, play

from table import playable_rulesets


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_golden_games(name: str) -> None:
    cfg, _ = load(name)
    _, evs = play(name)
    n = check_events([e for ev in evs for e in ev], dict(cfg.settlement))
    assert n["wins"] + n["skipped"] == sum(1 for ev in evs for e in ev if e.type == "hand_won")


@pytest.mark.parametrize("ruleset", playable_rulesets())
def test_simulated_hands(ruleset: str) -> None:
    n = run(ruleset, 100, seed=2021)
    assert n["hands"] >= 100 and n["wins"] >= 50
    if ruleset in OPTIONS:
        assert run(ruleset, 32, seed=7, settlement=OPTIONS[ruleset])["wins"] > 10
