"""The typed win context (scoring/context.py): one record, fields by name, documented aliases,
and a misspelt key is an error naming the nearest field — for every rule set."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from scoring import Hand, get_ruleset, ruleset_names, score
from scoring.context import ALIASES, FIELDS, WinContext, context_from_json
from scoring.random_hands import random_complete


def _hand(ruleset: str) -> dict[str, Any]:
    """A complete hand of the rule set (a standard shape, nothing declared), as JSON."""
    rng = random.Random(7)
    sets = get_ruleset(ruleset).sets
    while True:
        concealed, melds, win = random_complete(rng, sets)
        if melds:
            continue
        h = {"ruleset": ruleset, "concealed": concealed, "melds": melds, "win_tile": win}
        if score(h)["error"] is None:
            return h


@pytest.mark.parametrize("ruleset", ruleset_names())
@pytest.mark.parametrize(
    ("key", "nearest"),
    [("dealr", "dealer"), ("tiles_lef", "tiles_left"), ("heavn", "heaven"), ("streek", "streak")],
)
def test_a_misspelt_key_is_an_error_naming_the_nearest_field(
    ruleset: str, key: str, nearest: str
) -> None:
    h = _hand(ruleset)
    assert score(h)["error"] is None
    for where in ("context", "top"):
        bad = dict(h)
        if where == "context":
            bad["context"] = {key: True}
        else:
            bad[key] = True
        r = score(bad)
        assert r["error_code"] == "invalid-hand", (where, r)
        assert repr(key) in r["error"] and f"did you mean {nearest!r}" in r["error"], r["error"]


@pytest.mark.parametrize("ruleset", ruleset_names())
def test_a_known_field_a_rule_set_does_not_read_is_ignored(ruleset: str) -> None:
    h = _hand(ruleset)
    plain = score(h)
    h["context"] = {"hand_number": 3, "flowers_others": [1, 0, 2], "ting_others": 1}
    assert score(h)["total"] == plain["total"]


def test_aliases_map_to_the_fields() -> None:
    def ctx(obj: dict[str, Any], ruleset: str = "", self_drawn: bool = False) -> WinContext:
        return context_from_json(obj, ruleset=ruleset, self_drawn=self_drawn)

    assert ctx({"dealer_streak": 2}).streak == 2
    assert ctx({"heavenly": True}).heaven and ctx({"earthly": True}).earth
    assert ctx({"first_turn": "human"}).human and ctx({"first_turn": None}) == WinContext()
    assert ctx({"blessing_of_heaven": True}).heaven
    # Zung Jung seed: 地和 is the self-draw on the first draw, 人和 the dealer's first discard
    assert ctx({"blessing_of_earth": True}, "zung-jung").human
    assert ctx({"blessing_of_man": True}, "zung-jung").earth
    # v3.3: 地和 either way, and no 人和
    assert ctx({"blessing_of_earth": True}, "zung-jung-v3.3", self_drawn=True).human
    assert ctx({"blessing_of_earth": True}, "zung-jung-v3.3").earth
    with pytest.raises(Exception, match="blessing_of_man"):
        ctx({"blessing_of_man": True}, "zung-jung-v3.3")
    with pytest.raises(Exception, match="alias"):
        ctx({"heaven": False, "heavenly": True})
    assert set(ALIASES).isdisjoint(FIELDS)


def test_to_json_writes_the_field_names_and_round_trips() -> None:
    c = WinContext(dealer=True, streak=1, earth=True, replacements=("kong",), fanxue_payers=(1,))
    j = c.to_json()
    # ``chain`` only when given (the older form of a context has none)
    assert list(j) == [*(f for f in FIELDS if f != "chain"), "first_turn"]
    assert j["first_turn"] == "earth"
    assert context_from_json(j) == c
    c = WinContext(seat=1, chain=("kong-discard", "flower"), replacements=("kong", "flower"))
    j = c.to_json()
    assert list(j) == [*FIELDS, "first_turn"] and j["chain"] == ["kong-discard", "flower"]
    assert context_from_json(j) == c


def test_the_wire_shape_is_the_record() -> None:
    from table.events import WinContextJSON

    assert [f.name for f in dataclasses.fields(WinContextJSON)] == [*FIELDS, "first_turn"]


def test_robbing_kong_follows_the_win_flag() -> None:
    h = _hand("mcr")
    h["win"] = {"robbing_kong": True}
    assert Hand.from_json(h).context.robbing_kong is True
    h["context"] = {"robbing_kong": False}
    assert score(h)["error_code"] == "invalid-hand"
