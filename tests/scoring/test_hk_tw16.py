"""hk-tw16 (港式台牌 V1): the table's examples, the golden cases, coverage, properties,
events, settlement and the CLI."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import Hand, Seating, get_ruleset, net, score
from scoring.cli import main as cli_main
from scoring.errors import ScoringError
from scoring.rulesets.hk_tw16 import (
    EVENT_RULES,
    chase_events,
    dice_event,
    flower_set_events,
    instant_payments,
    self_chase_events,
    table,
)
from scoring.tiles import Tile

HERE = Path(__file__).resolve().parent
GOLDEN = HERE / "golden"
sys.path.insert(0, str(HERE))

from hk_spec import hand, random_hand  # noqa: E402

RS = get_ruleset("hk-tw16")


def _lines(name: str) -> list[dict[str, Any]]:
    return [json.loads(x) for x in (GOLDEN / name).read_text("utf-8").splitlines() if x]


EXAMPLES = _lines("hk_tw16_examples.jsonl")
CASES = _lines("hk_tw16.jsonl")


def _items(result: dict[str, Any]) -> dict[str, int]:
    return {i["id"]: i["points"] * i["count"] for i in result["items"]}


def _all_arrangements(h: dict[str, Any]) -> list[dict[str, int]]:
    hd = Hand.from_json(h)
    before = list(hd.concealed_counts())
    before[hd.win_tile] -= 1
    held = list(hd.tile_counts())
    held[hd.win_tile] -= 1
    w = tuple(RS.waits(before, len(hd.melds), held))
    out = []
    for a in RS.arrangements(hd):
        f = RS.make_features(hd, a, w)
        items, _ = RS.finalize(RS.evaluate(f), f)
        out.append({i.id: i.total for i in items})
    return out


# -- the table's own examples -------------------------------------------------------------


def test_every_example_is_in_the_file() -> None:
    n = sum(len(p.examples) for p in table().values())
    event_examples = sum(len(p.examples) for p in table().values() if p.category == "instant")
    assert len(EXAMPLES) == n - event_examples == 195


@pytest.mark.parametrize("ex", EXAMPLES, ids=lambda e: f"{e['pattern']}/{e['example']}")
def test_example(ex: dict[str, Any]) -> None:
    r = score(ex["hand"])
    assert r["error"] is None, r["error"]
    got = _items(r)
    pid = ex["pattern"]
    if ex["mode"] == "best":
        assert got.get(pid) == ex["value"], (got, ex.get("note"))
    elif ex["mode"] == "absorbed":
        assert pid not in got and ex["by"] in got
        assert pid in RS.by_id[ex["by"]].excludes or any(
            pid in RS.by_id[x].excludes for x in RS.by_id[ex["by"]].excludes
        )
    else:
        assert any(a.get(pid) == ex["value"] for a in _all_arrangements(ex["hand"]))
        assert r["total"] >= max(sum(a.values()) for a in _all_arrangements(ex["hand"]))


# -- golden cases -------------------------------------------------------------------------


def test_enough_golden_cases() -> None:
    assert len(CASES) >= 150


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["name"])
def test_golden(case: dict[str, Any]) -> None:
    r = score(case["hand"])
    assert r["error"] is None, r["error"]
    assert _items(r) == case["items"]
    assert r["total"] == case["total"]


def _hits_and_items(h: dict[str, Any]) -> tuple[set[str], set[str]]:
    hd = Hand.from_json(h)
    res = RS.score(hd)
    f = RS.make_features(hd, res.arrangement, res.waits)
    RS.evaluate(f)  # sets the chicken base
    hits = {p.id for p in RS.patterns if p.predicate(f)}
    return hits, {i.id for i in res.items}


def test_every_win_pattern_is_scored_somewhere() -> None:
    seen: set[str] = set()
    for c in CASES:
        seen |= set(c["items"])
    assert {p.id for p in RS.patterns} - seen == set()


def test_every_exclusion_row_removes_something_in_a_golden_file() -> None:
    removes: dict[str, set[str]] = {}
    for h in [c["hand"] for c in CASES]:
        hits, got = _hits_and_items(h)
        for pid in got:
            for e in RS.by_id[pid].excludes:
                if e in hits and e not in got:
                    removes.setdefault(pid, set()).add(e)
    rows = [p.id for p in RS.patterns if p.excludes]
    assert [r for r in rows if r not in removes] == []


def test_all_189_patterns_are_defined() -> None:
    ids = {p.id for p in RS.patterns} | set(EVENT_RULES)
    assert ids == set(table())
    assert len(ids) == 189
    for p in RS.patterns:
        assert p.name == table()[p.id].name and p.en


# -- properties: suit permutations and mirrored numbers ------------------------------------

#: The only patterns tied to particular tiles: 綠一色 (2 3 4 6 8 索 and 發) and 暗一色 (8 筒
#: with winds and 白). Every other pattern is invariant under permuting the suits and under
#: mirroring the numbers (n → 10 − n), except that mirroring swaps 全小 with 全大 (equal
#: values). See docs/rules/hk-tw16.md.
TILE_SPECIFIC = frozenset({"all-green", "dark-flush"})
MIRROR_SWAP = {
    "mixed-small": "mixed-big",
    "mixed-big": "mixed-small",
    "pure-small": "pure-big",
    "pure-big": "pure-small",
}


def _map_tile(code: str, perm: tuple[int, int, int], mirror: bool) -> str:
    t = Tile.parse(code)
    if not t.is_suited:
        return code
    n = 10 - t.number if mirror else t.number
    return str(Tile(9 * perm[t // 9] + n - 1))


def _map_hand(h: dict[str, Any], perm: tuple[int, int, int], mirror: bool) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(json.dumps(h))
    out["concealed"] = [_map_tile(c, perm, mirror) for c in h["concealed"]]
    out["win_tile"] = _map_tile(h["win_tile"], perm, mirror)
    for m in out["melds"]:
        m["tiles"] = [_map_tile(c, perm, mirror) for c in m["tiles"]]
        if "claimed" in m:
            m["claimed"] = _map_tile(m["claimed"], perm, mirror)
    return out


def _plain(h: dict[str, Any]) -> bool:
    return not set(_items(score(h))) & TILE_SPECIFIC


_HANDS = [c["hand"] for c in CASES] + [e["hand"] for e in EXAMPLES]
_PLAIN = [h for h in _HANDS if _plain(h)]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    idx=st.integers(0, len(_PLAIN) - 1),
    perm=st.permutations((0, 1, 2)),
    mirror=st.booleans(),
)
def test_suit_permutation_and_mirror_keep_the_breakdown(
    idx: int, perm: list[int], mirror: bool
) -> None:
    h = _PLAIN[idx]
    a = score(h)
    b = score(_map_hand(h, (perm[0], perm[1], perm[2]), mirror))
    assert a["error"] is None and b["error"] is None
    ia = _items(a)
    if mirror:
        ia = {MIRROR_SWAP.get(k, k): v for k, v in ia.items()}
    assert ia == _items(b)
    assert a["total"] == b["total"]


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32), perm=st.permutations((0, 1, 2)), mirror=st.booleans())
def test_random_hands_are_symmetric(seed: int, perm: list[int], mirror: bool) -> None:
    h = random_hand(seed)
    a = score(h)
    assert a["error"] is None, a["error"]
    ia = _items(a)
    if set(ia) & TILE_SPECIFIC:
        return
    b = score(_map_hand(h, (perm[0], perm[1], perm[2]), mirror))
    if mirror:
        ia = {MIRROR_SWAP.get(k, k): v for k, v in ia.items()}
    assert ia == _items(b)


def test_tile_specific_patterns_change() -> None:
    green = hand("234s 666s 888s 3s", "3s", melds="P:dg C:2s", sd=False)
    assert "all-green" in _items(score(green))
    assert "all-green" not in _items(score(_map_hand(green, (2, 1, 0), False)))
    assert "all-green" not in _items(score(_map_hand(green, (0, 1, 2), True)))
    dark = hand("ws ws ws ww ww ww wn wn wn 8p 8p dw dw", "dw", melds="P:we", sd=False)
    assert "dark-flush" in _items(score(dark))
    assert "dark-flush" not in _items(score(_map_hand(dark, (1, 0, 2), False)))
    assert "dark-flush" not in _items(score(_map_hand(dark, (0, 1, 2), True)))


def test_mirror_of_a_small_hand_is_big() -> None:
    h = hand("123m 234p 2s 3s 1p 1p", "4s", melds="C:1s C:2m", sd=False)
    a = _items(score(h))
    b = _items(score(_map_hand(h, (0, 1, 2), True)))
    assert a["pure-small"] == 50 and b["pure-big"] == 50


# -- events (即收 / 即罰) ---------------------------------------------------------------------


def test_event_rules_and_physical_penalties() -> None:
    assert set(EVENT_RULES) == {
        pid for pid, d in table().items() if d.category in ("instant", "penalty")
    }
    physical = {r.id for r in EVENT_RULES.values() if not r.on_server}
    assert physical == {
        "false-win",
        "zhen-ting",
        "call-pong-no",
        "call-kong-no",
        "no-draw-discard",
        "wrong-tile",
        "hide-kong",
        "wrong-kong",
        "paicheng",
    }
    with pytest.raises(ScoringError):
        instant_payments({"kind": "paicheng", "seat": 0})


def test_flower_sets() -> None:
    s = [Tile.parse(f) for f in ("f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8")]
    assert flower_set_events(s) == ["one-flower-set"]  # 先花，不能再收草
    grass_first = s[4:] + s[:4]
    assert flower_set_events(grass_first) == ["one-grass", "one-flower-set"]  # 先草，可再收花
    assert flower_set_events(grass_first, at_deal=8) == ["one-flower-set"]  # both at the deal
    assert flower_set_events(s[:3]) == []


def test_dice_and_chases() -> None:
    assert dice_event([4, 4, 4]) == "wei-dice"
    assert dice_event([3, 1, 2]) == "one-two-three"
    assert dice_event([6, 4, 5]) == "one-two-three"
    assert dice_event([1, 2, 4]) is None
    with pytest.raises(ScoringError):
        dice_event([0, 1, 2])
    t = Tile.parse("5p")
    assert chase_events([(0, t), (1, t), (2, t), (3, t)]) == [(0, t)]
    assert chase_events([(0, t), (1, t), (2, t), (0, t)]) == []
    assert self_chase_events([t, t, Tile.parse("we"), t, t]) == [t]


def test_instant_payments() -> None:
    p = instant_payments({"kind": "one-flower-set", "seat": 2})
    assert [(x.payer, x.payee, x.amount) for x in p] == [(0, 2, 5), (1, 2, 5), (3, 2, 5)]
    p = instant_payments(
        {"kind": "hidden-kong-pay", "seat": 1, "heaven": True}, options={"per_fan": 2}
    )
    assert net(p) == [-20, 60, -20, -20]
    p = instant_payments({"kind": "heaven-earth-slay", "winner": 0, "discarder": 3})
    assert net(p) == [10, 0, 0, -10]
    p = instant_payments({"kind": "heaven-earth-slay", "winner": 0, "discarder": None})
    assert net(p) == [45, -15, -15, -15]
    p = instant_payments({"kind": "three-ting-one-laugh", "winner": 1, "ting_seats": [0, 2, 3]})
    assert net(p) == [-15, 45, -15, -15]
    p = instant_payments({"kind": "chase", "seat": 0, "tile": "we"})
    assert net(p) == [-15, 5, 5, 5]
    p = instant_payments({"kind": "self-chase", "seat": 3, "tile": "5m"})
    assert net(p) == [10, 10, 10, -30]


# -- settlement ---------------------------------------------------------------------------


def _result(h: dict[str, Any]) -> Any:
    return RS.score(Hand.from_json(h))


def test_settlement() -> None:
    neutral = hand("678m 567p 123s 3s 4s ww ww", "5s", melds="C:2m", sd=False)
    r = _result(neutral)  # 7 fan
    # discard by a non-dealer, winner not dealer: 底 2 + 7
    p = RS.settle(r, Seating(winner=1, discarder=2, dealer=0), {"base": 2})
    assert [(x.payer, x.payee, x.amount) for x in p] == [(2, 1, 9)]
    # dealer discards with a streak of 2: + 莊 1 + 連2拉2 4
    p = RS.settle(r, Seating(winner=1, discarder=0, dealer=0, streak=2))
    assert [(x.payer, x.amount) for x in p] == [(0, 12)]
    # self-draw by a non-dealer: the dealer pays more
    sd = _result({**neutral, "win": {"self_drawn": True}})  # 8 fan
    p = RS.settle(sd, Seating(winner=1, discarder=None, dealer=3, streak=1), {"per_fan": 10})
    assert net(p) == [-80, 80 + 80 + 110, -80, -110]
    # the dealer wins: his 莊 rows are in the hand and in every payment, not twice
    dr = _result({**neutral, "context": {"dealer": True, "streak": 1}})  # 7 + 1 + 2
    assert dr.total == 10
    p = RS.settle(dr, Seating(winner=0, discarder=2, dealer=0, streak=1))
    assert [(x.payer, x.amount) for x in p] == [(2, 10)]


def test_settlement_liability_and_flower_wins() -> None:
    kong = hand(
        "678m 567p 3s 4s ww ww",
        "5s",
        melds="C:2m K:9m",
        win_kong_replacement=True,
        kong_discarder=3,
    )
    r = _result(kong)
    p = RS.settle(r, Seating(winner=0, discarder=None, dealer=1))
    assert [(x.payer, x.amount, x.reason) for x in p] == [(3, r.total, "kong-liability")]
    p = RS.settle(r, Seating(winner=0, discarder=None, dealer=1), {"kong_liability": False})
    assert len(p) == 3
    robs = hand(
        "234m 567m 345p 678p 9s", "9s", flowers="f8", flower_win="one-robs-seven", flower_loser=2
    )
    r = _result(robs)
    assert r.total == 20
    p = RS.settle(r, Seating(winner=0, discarder=None, dealer=3), {"base": 5})
    assert [(x.payer, x.amount) for x in p] == [(2, 20)]  # 已包底: no 底 added
    fx = _result(
        {
            **hand("678m 567p 123s 3s 4s ww ww", "5s", melds="C:2m"),
            "context": {"fanxue": 5, "fanxue_payers": [1]},
        }
    )
    p = RS.settle(fx, Seating(winner=0, discarder=None, dealer=2))
    # 8 fan each; 反雪 10 only from seat 1; 莊 1 from the dealer (seat 2)
    assert [(x.payer, x.amount) for x in p] == [(1, 18), (2, 9), (3, 8)]


# -- CLI ----------------------------------------------------------------------------------


def test_cli_text_shows_chinese_and_english() -> None:
    h = hand("234m 678m 567p 123s 3s 4s ww ww", "5s", sd=True, dealer=True, ting=True)
    out = io.StringIO()
    rc = cli_main(["--text"], stdin=io.StringIO(json.dumps(h)), stdout=out)
    text = out.getvalue()
    assert rc == 0
    assert "門清大叮" in text and "fully concealed declared ready" in text
    assert "莊" in text and "dealer" in text
    assert "hk-tw16" in text


def test_cli_json_and_bad_context() -> None:
    out = io.StringIO()
    bad = {"ruleset": "hk-tw16", "concealed": ["1m"], "win_tile": "1m", "flower_win": "nope"}
    rc = cli_main([], stdin=io.StringIO(json.dumps(bad)), stdout=out)
    assert rc == 1
    assert json.loads(out.getvalue())["error_code"] == "invalid-hand"


def test_rules_doc_names_every_pattern() -> None:
    doc = (HERE.parents[1] / "docs" / "rules" / "hk-tw16.md").read_text("utf-8")
    assert [pid for pid in table() if f"`{pid}`" not in doc] == []


def test_rules_doc_appendix_matches_the_data() -> None:
    from hk_doc import appendix

    doc = (HERE.parents[1] / "docs" / "rules" / "hk-tw16.md").read_text("utf-8")
    assert appendix() in doc


@pytest.mark.parametrize(
    "ctx",
    [
        {"dealer": "yes"},
        {"streak": -1},
        {"streak": True},
        {"winners": 4},
        {"ting_timing": "later"},
        {"first_turn": "dealer"},
        {"replacements": ["flower", "dice"]},
        {"kong_discarder": 7},
        {"fanxue_payers": [1, "2"]},
    ],
)
def test_bad_context_is_a_typed_error(ctx: dict[str, Any]) -> None:
    h = hand("678m 567p 123s 3s 4s ww ww", "5s", melds="C:2m", **ctx)
    r = score(h)
    assert r["error_code"] == "invalid-hand" and r["total"] == 0


def test_golden_files_match_their_sources() -> None:
    sys.path.insert(0, str(GOLDEN))
    import hk_tw16_source
    import make_hk_tw16_examples

    assert hk_tw16_source.build() == (GOLDEN / "hk_tw16.jsonl").read_text("utf-8")
    assert make_hk_tw16_examples.build() == (GOLDEN / "hk_tw16_examples.jsonl").read_text("utf-8")


def test_guard_groups_change_nothing() -> None:
    """The guard groups (groups.GROUPS: a cheap necessary condition skipping a group of
    rows) give the same results as evaluating every predicate, on golden and random hands."""
    import copy

    from scoring.rulesets.hk_tw16 import RULESET
    from scoring.rulesets.hk_tw16.groups import GROUPS, patterns

    plain = copy.copy(RULESET)
    plain_rows = patterns(groups=False)
    plain._groups = plain._group_rows(p for p in plain_rows if not p.reads_counted)
    plain._after = plain._group_rows(p for p in plain_rows if p.reads_counted)
    assert len(plain._groups) == 2  # _has_hand and the flower-win rows
    assert len(RULESET._groups) == 2 + len(GROUPS)
    hands = [c["hand"] for c in CASES + EXAMPLES] + [random_hand(s) for s in range(1500)]
    compared = 0
    for obj in hands:
        try:
            h = RULESET.hand_from_json(obj)
            expected = plain.score(h).to_json()
        except ScoringError:
            continue
        assert RULESET.score(h).to_json() == expected, obj
        compared += 1
    assert compared > 1500
