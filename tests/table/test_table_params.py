"""Game parameters agree with the scoring rule sets; configs and house rules validate."""

from __future__ import annotations

import pytest
from table_testlib import PLAYABLE

import scoring
from table import (
    HOUSE_RULES,
    PARAMS,
    BadConfigError,
    GameConfig,
    UnknownRulesetError,
    get_params,
    new_game,
)


def test_every_record_is_complete() -> None:
    assert set(PARAMS) == {"mcr", "hk-tw16", "tw16-tai", "zung-jung", "zung-jung-v3.3"}
    for name, p in PARAMS.items():
        assert p.ruleset == name
        assert p.hand_size in (13, 16)
        assert p.tile_count == (144 if p.flowers else 136)
        assert 1 <= p.max_winners <= 3
        assert p.rounds in (1, 2, 4)
        j = p.to_json()
        assert j["tiles"] == p.tile_count and j["hand_size"] == p.hand_size
        if p.flower_wins:
            assert p.flowers


@pytest.mark.parametrize("name", PLAYABLE)
def test_params_agree_with_scoring(name: str) -> None:
    p = get_params(name)
    rs = scoring.get_ruleset(name)
    assert rs.hand_size == p.hand_size
    assert rs.uses_flowers == p.flowers
    assert rs.minimum == p.min_score


def test_mcr_record() -> None:
    p = get_params("mcr")
    assert (p.hand_size, p.tile_count, p.min_score, p.max_winners) == (13, 144, 8, 1)
    assert not p.dealer_keeps_on_win and not p.dealer_keeps_on_draw and not p.ting


def test_hk_tw16_record() -> None:
    p = get_params("hk-tw16")
    assert (p.hand_size, p.tile_count, p.dead_wall, p.max_winners) == (16, 144, 16, 3)
    assert p.ting and p.missed_win and p.flower_wins and p.instant is not None


def test_unknown_rule_set() -> None:
    with pytest.raises(UnknownRulesetError) as e:
        get_params("nope")
    assert e.value.code == "unknown-ruleset"
    with pytest.raises(UnknownRulesetError):
        new_game("nope")


def test_house_rules_and_config_json() -> None:
    cfg = GameConfig("mcr", max_hands=3, house_rules=(("max_winners", 3), ("missed_win", True)))
    p = cfg.params()
    assert p.max_winners == 3 and p.missed_win and p.max_hands == 3
    assert GameConfig.from_json(cfg.to_json()) == cfg
    with pytest.raises(BadConfigError):
        GameConfig("mcr", house_rules=(("max_winners", 5),)).params()
    with pytest.raises(BadConfigError):
        GameConfig("mcr", house_rules=(("missed_win", 1),)).params()
    with pytest.raises(BadConfigError):
        GameConfig("mcr", house_rules=(("flowers", False),)).params()
    with pytest.raises(BadConfigError):
        GameConfig.from_json({"ruleset": "mcr", "rounds": 7})
    assert "max_winners" in HOUSE_RULES
    assert GameConfig("mcr", rounds=1).params().rounds == 1
