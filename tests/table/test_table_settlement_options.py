"""Per-room settlement options (stakes): validated by the rule set, carried in the game
config, applied by the table to every win's payments."""

from __future__ import annotations

import random
from typing import Any

import pytest

from scoring import InvalidOptionsError, get_ruleset
from table import BadConfigError, GameConfig, new_game
from table.sim import play_game


@pytest.mark.parametrize(
    ("ruleset", "options", "message"),
    [
        ("mcr", {"base": 1}, "has no settlement option 'base'"),
        ("hk-tw16", {"per_fan": "2"}, "per_fan: '2' is not allowed"),
        ("hk-tw16", {"per_fan": -1}, "per_fan: -1 is not allowed"),
        ("hk-tw16", {"kong_liability": 1}, "kong_liability: 1 is not allowed"),
        ("tw16-tai", {"unit": True}, "unit: True is not allowed"),
        ("zung-jung", {"discard": "loser"}, "discard: 'loser' is not allowed"),
    ],
)
def test_bad_options_are_refused(ruleset: str, options: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidOptionsError, match=message):
        get_ruleset(ruleset).validate_settlement(options)
    with pytest.raises(BadConfigError, match=message):
        new_game(GameConfig(ruleset, settlement=tuple(options.items())))
    with pytest.raises(BadConfigError):
        GameConfig.from_json({"ruleset": ruleset, "settlement": options})


def test_defaults_are_completed() -> None:
    assert get_ruleset("hk-tw16").validate_settlement({"per_fan": 5}) == {
        "base": 0,
        "per_fan": 5,
        "kong_liability": True,
    }
    assert get_ruleset("mcr").validate_settlement(None) == {}
    cfg = GameConfig.from_json({"ruleset": "tw16-tai", "settlement": {"unit": 3}})
    assert GameConfig.from_json(cfg.to_json()) == cfg


def _win_payments(ruleset: str, settlement: dict[str, Any]) -> list[list[dict[str, Any]]]:
    cfg = GameConfig(ruleset, max_hands=6, settlement=tuple(settlement.items()))
    rec = play_game(cfg, random.Random(f"stakes-{ruleset}"))
    out = []
    for e in rec.events:
        if e.type == "hand_won":
            for w in e.data["winners"]:
                out.append(w["payments"])
    return out


@pytest.mark.parametrize(
    ("ruleset", "options"), [("hk-tw16", {"per_fan": 2}), ("tw16-tai", {"unit": 2})]
)
def test_stakes_scale_every_win(ruleset: str, options: dict[str, Any]) -> None:
    plain = _win_payments(ruleset, {})
    doubled = _win_payments(ruleset, options)
    assert plain, "the seeded game has a win"
    assert [[p["amount"] * 2 for p in ps] for ps in plain] == [
        [p["amount"] for p in ps] for ps in doubled
    ]


def test_zung_jung_self_draw_scheme() -> None:
    third = _win_payments("zung-jung", {"discard": "everyone"})
    assert any(len(ps) == 3 for ps in third), "a win paid by all three"
    for ps in third:
        assert len(ps) == 3  # 'everyone': a discard win is paid by all three, like a self-draw
