"""MCR: golden vectors, differential test against pymahjonggb, properties, settlement."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcr_gen import generate, oracle_fans, our_fans
from shared_dir import shared_dir

from scoring import Hand, Seating, get_ruleset, net, score
from scoring.errors import InvalidHandError, ScoringError
from scoring.rulesets.mcr import DATA, FANS, ROWS, chow_combination_fans

GOLDEN = Path(__file__).parent / "golden"

#: Four concealed pungs, a pair wait.
BIG = {
    "ruleset": "mcr",
    "concealed": ["1m"] * 3 + ["4p"] * 3 + ["7s"] * 3 + ["9m"] * 3 + ["5p"],
    "win_tile": "5p",
    "win": {"self_drawn": False},
}


def _rows(name: str) -> list[dict[str, Any]]:
    with open(GOLDEN / name, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


GOLDEN_ROWS = [
    pytest.param(row, id=f"{name.split('.')[0]}:{row['name']}")
    for name in ("mcr_hidden_me.jsonl", "mcr_cases.jsonl")
    for row in _rows(name)
]


@pytest.mark.parametrize("row", GOLDEN_ROWS)
def test_golden(row: dict[str, Any]) -> None:
    exp = row["expected"]
    res = score(row["hand"])
    if "error" in exp:
        assert res["error"] is not None
        assert res["error_code"] == exp["error"]
        return
    assert res["error"] is None, res["error"]
    if "items" in exp:
        assert our_fans(res) == Counter(exp["items"])
    if "total" in exp:
        assert res["total"] == exp["total"]
    for fid, n in exp.get("contains", {}).items():
        assert our_fans(res)[fid] == n
    if "waits" in exp:
        assert sorted(res["waits"]) == sorted(exp["waits"])
    if "minimum_met" in exp:
        assert res["minimum_met"] is exp["minimum_met"]


def test_golden_files_cover_the_vectors() -> None:
    assert len(_rows("mcr_hidden_me.jsonl")) == 216
    names = {r["name"] for r in _rows("mcr_cases.jsonl")}
    for wanted in (
        "wait-edge",
        "wait-closed",
        "wait-single",
        "wait-dual-pung",
        "knitted-chow-all-chows",
        "kong-four",
        "flowers-all-eight",
        "minimum-not-met",
        "chicken-hand",
    ):
        assert wanted in names


# -- the table and its data -------------------------------------------------------------------


def test_table_matches_the_shared_data() -> None:
    mcr = get_ruleset("mcr")
    assert [p.id for p in mcr.patterns] == [f["id"] for f in DATA["fans"]]
    for p in mcr.patterns:
        assert (p.name, p.en, p.points) == (
            FANS[p.id]["zh"],
            FANS[p.id]["en"],
            FANS[p.id]["points"],
        )
    assert len(ROWS) == 81


def test_package_data_is_the_shared_file() -> None:
    # the shared reference data lives next to the repository (see shared_dir)
    shared = shared_dir() / "rules" / "mcr.json"
    assert json.loads(shared.read_text(encoding="utf-8")) == DATA


# -- differential --------------------------------------------------------------------------


def test_differential_against_pymahjonggb() -> None:
    rng = random.Random(20240601)
    disagreements = []
    for _ in range(3000):
        hand = generate(rng)
        res = score(hand)
        assert res["error"] is None, (hand, res["error"])
        theirs = oracle_fans(hand)
        if our_fans(res) != theirs:
            disagreements.append((hand, dict(our_fans(res)), dict(theirs)))
    assert disagreements == []


def test_oracle_combined_kong_is_normalised() -> None:
    """pymahjonggb reports "Concealed Kong and Melded Kong" (5 points, a later rule book);
    the 81 fans count Melded Kong (1) + Concealed Kong (2): 2 points less."""
    hand = {
        "ruleset": "mcr",
        "concealed": ["1m", "2m", "3m", "4p", "5p", "6p", "5m"],
        "melds": [
            {"kind": "kong", "tiles": ["2s"] * 4, "concealed": True},
            {"kind": "kong", "tiles": ["9p"] * 4, "from": "right"},
        ],
        "win_tile": "5m",
    }
    from MahjongGB import MahjongFanCalculator
    from mcr_gen import oracle_args

    raw = {
        en: pts * n for pts, n, _zh, en in MahjongFanCalculator(*oracle_args(hand), verbose=True)
    }
    assert raw["Concealed Kong and Melded Kong"] == 5
    res = score(hand)
    assert our_fans(res)["melded-kong"] == 1 and our_fans(res)["concealed-kong"] == 1
    assert res["total"] == sum(raw.values()) - 2


# -- principles -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("chows", "expected"),
    [
        # 234567s + 234567p: account-once allows 3 of the 4 pairings (rule commentary)
        ([(2, 2), (2, 5), (1, 2), (1, 5)], {"mixed-double-chow": 2, "short-straight": 1}),
        # 234s + 223344567p: Pure Double Chow, Mixed Double Chow, Short Straight
        (
            [(1, 2), (1, 2), (1, 5), (2, 2)],
            {"pure-double-chow": 1, "mixed-double-chow": 1, "short-straight": 1},
        ),
        # a straight and a fourth chow: the fourth combines once
        ([(0, 1), (0, 1), (0, 4), (0, 7)], {"pure-straight": 1, "pure-double-chow": 1}),
        ([(0, 1), (0, 1), (0, 1), (0, 1)], {"quadruple-chow": 1}),
        ([(0, 1), (1, 1), (2, 1)], {"mixed-triple-chow": 1}),
    ],
)
def test_chow_combinations(chows: list[tuple[int, int]], expected: dict[str, int]) -> None:
    assert dict(chow_combination_fans(tuple(sorted(chows)))) == expected


def test_non_repeat_a_removed_fan_removes_nothing() -> None:
    # Four Concealed Pungs removes Fully Concealed Hand; Self-Drawn stays.
    res = score({**BIG, "win": {"self_drawn": True}})
    fans = our_fans(res)
    assert fans["four-concealed-pungs"] == 1 and fans["self-drawn"] == 1
    assert fans["fully-concealed-hand"] == 0 and fans["all-pungs"] == 0


# -- properties -----------------------------------------------------------------------------

#: Fans tied to particular suits (a permutation of the suits can make or break them). The
#: only other suit-dependent rule is the order that picks among equal-total readings
#: (docs/rules/mcr.md, "Equal totals"): it can change which fans are listed, never the total.
SUIT_SPECIFIC = {"all-green", "reversible-tiles"}


def _permute(code: str, perm: dict[str, str]) -> str:
    return code[0] + perm[code[1]] if code[0].isdigit() else code


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), perm=st.permutations("mps"))
def test_suit_permutation_keeps_the_total(seed: int, perm: list[str]) -> None:
    hand = generate(random.Random(seed))
    mapping = dict(zip("mps", perm, strict=True))
    other = json.loads(json.dumps(hand))
    other["concealed"] = [_permute(t, mapping) for t in hand["concealed"]]
    other["win_tile"] = _permute(hand["win_tile"], mapping)
    for m in other["melds"]:
        m["tiles"] = [_permute(t, mapping) for t in m["tiles"]]
        if "claimed" in m:
            m["claimed"] = _permute(m["claimed"], mapping)
    a, b = score(hand), score(other)
    assert a["error"] is None and b["error"] is None
    if a["total"] == b["total"]:
        return
    # Only the suit-specific fans may change the total (and with them what they replace:
    # All Green removes Half Flush, Reversible Tiles One Voided Suit).
    specific = SUIT_SPECIFIC & (set(our_fans(a)) | set(our_fans(b)))
    assert specific, (hand, dict(our_fans(a)), dict(our_fans(b)))


_json = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.text(max_size=4)
    | st.sampled_from(["1m", "9s", "we", "dr", "f1", "0m", "mcr", "chow", "kong"]),
    lambda inner: (
        st.lists(inner, max_size=6)
        | st.dictionaries(
            st.sampled_from(
                [
                    "ruleset",
                    "concealed",
                    "melds",
                    "win_tile",
                    "win",
                    "flowers",
                    "kind",
                    "tiles",
                    "self_drawn",
                    "seat_wind",
                    "round_wind",
                    "x",
                ]
            ),
            inner,
            max_size=6,
        )
    ),
    max_leaves=30,
)


@settings(max_examples=400, deadline=None)
@given(obj=_json)
def test_garbage_never_crashes(obj: Any) -> None:
    if isinstance(obj, dict):
        obj = {**obj, "ruleset": "mcr"}
    res = score(obj)
    assert res["error"] is not None or isinstance(res["total"], int)


@settings(max_examples=300, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    drop=st.integers(0, 20),
    extra=st.sampled_from(["1m", "5p", "9s", "we", "dg", "f3", "zz"]),
)
def test_mutated_hands_never_crash(seed: int, drop: int, extra: str) -> None:
    hand = generate(random.Random(seed))
    tiles = list(hand["concealed"])
    if tiles:
        tiles.pop(drop % len(tiles))
    tiles.append(extra)
    hand["concealed"] = tiles
    res = score(hand)
    assert res["error"] is None or isinstance(res["error"], str)


# -- settlement -----------------------------------------------------------------------------


def _result(hand_json: dict[str, Any]) -> Any:
    mcr = get_ruleset("mcr")
    return mcr.score(Hand.from_json(hand_json))


def test_settle_discard() -> None:
    r = _result(BIG)
    pays = get_ruleset("mcr").settle(r, Seating(winner=2, discarder=0, dealer=1))
    assert sorted((p.payer, p.amount) for p in pays) == [(0, 8 + r.total), (1, 8), (3, 8)]
    assert net(pays) == [-(8 + r.total), -8, 24 + r.total, -8]


def test_settle_self_drawn() -> None:
    r = _result({**BIG, "win": {"self_drawn": True}})
    pays = get_ruleset("mcr").settle(r, Seating(winner=1, discarder=None, dealer=1))
    assert sorted((p.payer, p.amount) for p in pays) == [
        (0, 8 + r.total),
        (2, 8 + r.total),
        (3, 8 + r.total),
    ]


def test_settle_refuses_a_hand_under_the_minimum() -> None:
    r = _result(
        {
            "ruleset": "mcr",
            "concealed": [
                "2m",
                "3m",
                "4p",
                "5p",
                "6p",
                "7s",
                "8s",
                "9s",
                "1s",
                "2s",
                "3s",
                "5p",
                "5p",
            ],
            "win_tile": "4m",
            "flowers": ["f1", "f2", "f3", "f4", "f5"],
        }
    )
    assert not r.minimum_met and r.total >= 8
    with pytest.raises(InvalidHandError):
        get_ruleset("mcr").settle(r, Seating(winner=0, discarder=1, dealer=0))


# -- evaluation shortcuts -------------------------------------------------------------------


def test_guards_change_nothing() -> None:
    """The guard groups (a cheap necessary condition skipping whole groups of rows) give the
    same results as evaluating every predicate, on golden and random hands."""
    from scoring.rulesets.mcr import GROUPS, make_mcr

    plain = make_mcr(guards=False)
    guarded = get_ruleset("mcr")
    assert all(p.guard is None for p in plain.patterns)
    assert sum(p.guard is not None for p in guarded.patterns) == sum(len(m) for _, m in GROUPS)
    rng = random.Random(4242)
    golden = _rows("mcr_cases.jsonl") + _rows("mcr_hidden_me.jsonl")
    hands = [r["hand"] for r in golden] + [generate(rng) for _ in range(1500)]
    compared = 0
    for obj in hands:
        h = Hand.from_json(obj)
        try:
            expected = plain.score(h).to_json()
        except ScoringError as e:  # golden rows of hands that are no win
            with pytest.raises(type(e)):
                guarded.score(h)
            continue
        assert guarded.score(h).to_json() == expected, obj
        compared += 1
    assert compared > 1500


# -- fast waits -----------------------------------------------------------------------------


def test_fast_waits_equal_the_generic_completion_test() -> None:
    """MCRRuleSet.waits (memoised tables + shape shortcuts) == trying every tile with
    RuleSet.is_complete, on ready hands and on perturbed (mostly not ready) ones."""
    from scoring.engine import RuleSet

    mcr = get_ruleset("mcr")
    rng = random.Random(77)
    for _ in range(1500):
        h = Hand.from_json(generate(rng))
        c = h.concealed_counts()
        c[h.win_tile] -= 1
        if rng.random() < 0.4:
            i, t = rng.randrange(34), rng.randrange(34)
            if c[i] and c[t] < 4:
                c[i] -= 1
                c[t] += 1
        held = h.tile_counts()
        held[h.win_tile] -= 1
        n = len(h.melds)
        assert mcr.waits(c, n, held) == RuleSet.waits(mcr, c, n, held)


def test_rules_doc_lists_every_fan_with_its_implied_fans() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "rules" / "mcr.md").read_text("utf-8")
    rows = {
        line.split("|")[2].strip(): line
        for line in doc.splitlines()
        if line.startswith("| ") and line.split("|")[1].strip().isdigit()
    }
    for fid, _pred, implied in ROWS:
        assert fid in rows, fid
        for e in implied:
            assert e in rows[fid].split("|")[6], (fid, e)
