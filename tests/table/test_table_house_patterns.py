"""House rules for patterns (``house_rules.patterns``: a pattern's value changed, or the
pattern switched off): validated with a reason, applied by the table to every win, marked
in the breakdown (``house: true``), and ``mahjong-score`` given the same map scores the
hand the same way."""

from __future__ import annotations

import random

import pytest

from scoring import get_ruleset, ruleset_names, score
from scoring.errors import InvalidOptionsError
from table import (
    Action,
    ActionType,
    BadConfigError,
    GameConfig,
    Phase,
    RandomPlayer,
    apply,
    decisions,
    new_game,
)

# (rule set, the room's patterns): a frequent row given another value, another switched off
CASES = [
    ("mcr", {"one-voided-suit": 5, "flower-tiles": False}),
    ("hk-tw16", {"no-honor": 9}),
    ("zung-jung", {"all-sequences": 12}),
    ("tw16-tai", {"no-honors": 4}),
]


def _wins(ruleset: str, patterns: dict, games: int = 12):
    for seed in range(games):
        rng = random.Random(seed)
        player = RandomPlayer(rng, claim_rate=0.3)
        cfg = GameConfig.from_json(
            {"ruleset": ruleset, "max_hands": 1, "house_rules": {"patterns": patterns}}
        )
        st = new_game(cfg)
        st, _ = apply(st, Action(ActionType.START_HAND, None, 0, seed=rng.randbytes(16)))
        while st.phase is not Phase.GAME_OVER:
            chosen = player.choose(st, min(decisions(st)))
            assert chosen is not None
            st, events = apply(st, chosen)
            for e in events:
                if e.type == "hand_won":
                    yield from e.data["winners"]


@pytest.mark.parametrize(("ruleset", "patterns"), CASES)
def test_the_table_scores_with_the_rooms_pattern_values(ruleset, patterns):
    changed = {k: v for k, v in patterns.items() if v is not False}
    off = {k for k, v in patterns.items() if v is False}
    seen = 0
    for w in _wins(ruleset, patterns):
        items = w["score"]["items"]
        assert not off & {i["id"] for i in items}
        for i in items:
            if i["id"] in changed:
                seen += 1
                assert i["points"] == changed[i["id"]] and i["house"] is True
            else:
                assert "house" not in i
        # mahjong-score, given the hand and the same map, scores it the same way
        again = score({**w["hand"], "house_rules": {"patterns": patterns}})
        assert again["error"] is None
        assert again["items"] == items and again["total"] == w["score"]["total"]
    assert seen > 0, "the case must reach a win with a changed pattern"


def test_a_pattern_switched_off_supersedes_nothing_and_is_never_found():
    rs = get_ruleset("mcr").with_patterns({"flower-tiles": False})
    hand = {
        "ruleset": "mcr",
        "concealed": ["1m", "1m", "1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "9m", "9m"],
        "win_tile": "5m",
        "flowers": ["f1", "f2"],
    }
    base = score(hand)
    off = score({**hand, "house_rules": {"patterns": {"flower-tiles": False}}})
    assert any(i["id"] == "flower-tiles" for i in base["items"])
    assert not any(i["id"] == "flower-tiles" for i in off["items"])
    assert off["total"] == base["total"] - 2  # two flowers, one point each
    assert rs is not get_ruleset("mcr") and rs.house == frozenset()


@pytest.mark.parametrize(
    ("ruleset", "patterns", "words"),
    [
        ("mcr", {"nine-gate": 60}, "did you mean 'nine-gates'"),
        ("mcr", {"nine-gates": True}, "whole number"),
        ("mcr", {"nine-gates": -1}, "whole number"),
        ("mcr", {"nine-gates": "88"}, "whole number"),
        ("hk-tw16", {"dealer-streak": 3}, "depends on the hand"),
    ],
)
def test_bad_pattern_house_rules_are_refused_with_the_reason(ruleset, patterns, words):
    with pytest.raises(InvalidOptionsError, match=words):
        get_ruleset(ruleset).with_patterns(patterns)
    with pytest.raises(BadConfigError, match=words):
        GameConfig.from_json({"ruleset": ruleset, "house_rules": {"patterns": patterns}})
    hand = {
        "ruleset": ruleset,
        "concealed": ["1m"],
        "win_tile": "1m",
        "house_rules": {"patterns": patterns},
    }
    res = score(hand)
    assert res["error"] is not None and words.split("'")[0] in res["error"]


def test_the_config_round_trips_with_its_patterns():
    cfg = GameConfig.from_json(
        {"ruleset": "mcr", "house_rules": {"patterns": {"all-pungs": 30, "chicken-hand": False}}}
    )
    assert cfg.patterns == (("all-pungs", 30), ("chicken-hand", False))
    assert GameConfig.from_json(cfg.to_json()) == cfg
    hash(cfg)  # a config stays hashable with its patterns


@pytest.mark.parametrize("name", ruleset_names())
def test_a_variant_is_a_copy_of_its_rule_set_and_leaves_it_unchanged(name):
    """``with_patterns`` copies the rule set (compiled too: ``RuleSet`` is a serializable
    native class there): same class, every parameter carried over, the original's table and
    house rules untouched."""
    rs = get_ruleset(name)
    row = next(p for p in rs.patterns if p.value is None)
    before = (rs.patterns, dict(rs.by_id), rs.house, dict(rs.house_patterns))
    v = rs.with_patterns({row.id: row.points + 7})
    assert type(v) is type(rs) and v is not rs
    assert (v.name, v.hand_size, v.sets, v.minimum, v.params) == (
        rs.name,
        rs.hand_size,
        rs.sets,
        rs.minimum,
        rs.params,
    )
    assert v.by_id[row.id].points == row.points + 7 and v.house == {row.id}
    assert v.house_patterns == {row.id: row.points + 7}
    assert (rs.patterns, dict(rs.by_id), rs.house, dict(rs.house_patterns)) == before
    assert rs.by_id[row.id].points == row.points
