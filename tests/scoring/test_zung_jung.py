"""Zung Jung: the seed table ``zung-jung`` and the official preset ``zung-jung-v3.3``.

Golden files (tests/scoring/golden/zung_jung*.jsonl) hold hand-reasoned expectations built by
``build_zung_jung.py``; here they are compared with the scorer, and the coverage of patterns,
families and exclusions is checked on them. Property tests: suit permutation and the number
mirror n -> 10-n.
"""

from __future__ import annotations

import importlib.util
import io
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shared_dir import shared_dir
from zj_strategies import winning_hands

from scoring import Hand, Seating, get_ruleset, net, score
from scoring.cli import main as cli_main
from scoring.errors import InvalidHandError, ScoringError
from scoring.rulesets.zung_jung import (
    CHICKEN_ID,
    SEED_ROWS,
    V33_ROWS,
    Limit,
    ZungJungRuleSet,
    build,
    load_table,
)
from scoring.tiles import Tile

GOLDEN = Path(__file__).parent / "golden"
SHARED = shared_dir() / "rules"


def _load(name: str) -> list[dict[str, Any]]:
    with (GOLDEN / name).open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


SEED_CASES = _load("zung_jung.jsonl")
V33_CASES = _load("zung_jung_v33.jsonl")
EXAMPLES = _load("zung_jung_examples.jsonl")


def _items(result: dict[str, Any]) -> list[tuple[str, str, str, int, int]]:
    return sorted((i["id"], i["name"], i["en"], i["points"], i["count"]) for i in result["items"])


# -- the tables ----------------------------------------------------------------------------


def test_seed_table_is_the_seed() -> None:
    rs = get_ruleset("zung-jung")
    data = load_table("zung_jung.json")
    assert len(rs.patterns) == 53 == len(data["patterns"])
    assert [(p.name, p.points) for p in rs.patterns] == [
        (p["name"], p["points"]) for p in data["patterns"]
    ]
    ids = [p.id for p in rs.patterns]
    assert len(set(ids)) == 53
    assert all(i.replace("-", "").isalpha() and i.islower() for i in ids)
    assert {p.name for p in rs.patterns} >= {"七對子", "十三么九", "連七對", "九蓮寶燈"}
    assert rs.hand_size == 13 and not rs.uses_flowers


def test_package_data_matches_shared_tables() -> None:
    for name in ("zung_jung.json", "zung_jung_v33.json"):
        shared = json.loads((SHARED / name).read_text(encoding="utf-8"))
        assert load_table(name) == shared, name


def test_v33_table_is_the_official_list() -> None:
    rs = get_ruleset("zung-jung-v3.3")
    data = load_table("zung_jung_v33.json")
    rows = [p for p in data["patterns"] if p["no"] != "—"]
    assert len(rs.patterns) == len(rows) == 44
    assert [(p.category, p.name, p.points) for p in rs.patterns] == [
        (p["no"], p["zh"], p["points"]) for p in rows
    ]
    # the series of an a.b.c number is its family; a.b rows stand alone
    assert isinstance(rs, ZungJungRuleSet)
    assert rs.families["small-three-winds"] == ("3.3", 1)
    assert rs.families["big-four-winds"] == ("3.3", 4)
    assert rs.families["value-honor"] == ("", 0)


def test_values_that_differ_between_seed_and_v33() -> None:
    seed = {p.id: p.points for p in get_ruleset("zung-jung").patterns}
    v33 = {p.id: p.points for p in get_ruleset("zung-jung-v3.3").patterns}
    assert (seed["all-sequences"], v33["all-sequences"]) == (10, 5)
    assert (seed["big-three-dragons"], v33["big-three-dragons"]) == (160, 130)
    assert (seed["four-concealed-triplets"], v33["four-concealed-triplets"]) == (160, 125)
    assert (seed["kong"], v33["one-kong"]) == (20, 5)
    assert set(seed) - set(v33) >= {"below-five", "all-middle", "blessing-of-man", "kong"}
    assert set(v33) - set(seed) >= {"value-honor", "small-three-winds", "two-kongs"}


# -- golden cases --------------------------------------------------------------------------


@pytest.mark.parametrize("case", SEED_CASES, ids=[c["id"] for c in SEED_CASES])
def test_golden_seed(case: dict[str, Any]) -> None:
    _check(case)


@pytest.mark.parametrize("case", V33_CASES, ids=[c["id"] for c in V33_CASES])
def test_golden_v33(case: dict[str, Any]) -> None:
    _check(case)


def _check(case: dict[str, Any]) -> None:
    r = score(case["hand"])
    e = case["expected"]
    assert r["error"] is None, r["error"]
    assert _items(r) == sorted(
        (i["id"], i["name"], i["en"], i["points"], i["count"]) for i in e["items"]
    )
    assert r["total"] == e["total"]
    assert r["extras"] == {"sum": e["sum"], "limit": e["limit"]}


def test_golden_files_are_built_from_the_reasoned_cases() -> None:
    """The JSONL files are exactly what build_zung_jung.py derives from its hand-written
    expectations (so nobody edits one without the other)."""
    spec = importlib.util.spec_from_file_location("build_zung_jung", GOLDEN / "build_zung_jung.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    for name, lines in mod.build_all().items():
        assert lines == _load(name), name


def test_golden_counts_and_pattern_coverage() -> None:
    assert len(SEED_CASES) >= 80 and len(V33_CASES) >= 80
    for cases, name in ((SEED_CASES, "zung-jung"), (V33_CASES, "zung-jung-v3.3")):
        seen = {i["id"] for c in cases for i in c["expected"]["items"]}
        every = {p.id for p in get_ruleset(name).patterns} | {CHICKEN_ID}
        assert every - seen == set(), name


# Families whose members exclude each other by definition: the rule never has to act.
EXCLUSIVE_FAMILIES = {
    "zung-jung": {"one-suit", "dragons", "final-tile", "blessings"},
    "zung-jung-v3.3": {"2.1", "3.2", "6.2", "9.1", "9.4"},
}


@pytest.mark.parametrize("name", ["zung-jung", "zung-jung-v3.3"])
def test_every_family_rule_is_shown(name: str) -> None:
    """For every family that can stack, some golden case has two or more of its members
    hitting (before the family rule) and scores only the highest."""
    rs = get_ruleset(name)
    assert isinstance(rs, ZungJungRuleSet)
    cases = SEED_CASES if name == "zung-jung" else V33_CASES
    families = {fam for fam, _ in rs.families.values() if fam}
    shown: set[str] = set()
    for case in cases:
        hand = Hand.from_json(case["hand"])
        result = rs.score(hand)
        f = rs.make_features(hand, result.arrangement, result.waits)
        hits = Counter(rs.families[i.id][0] for i in rs.evaluate(f))
        kept = Counter(rs.families[i.id][0] for i in result.items)
        for fam in families:
            if hits[fam] >= 2:
                assert kept[fam] == 1
                shown.add(fam)
    assert families - shown == EXCLUSIVE_FAMILIES[name]


@pytest.mark.parametrize("name", ["zung-jung", "zung-jung-v3.3"])
def test_thirteen_terminals_excludes_mixed_greater_terminals(name: str) -> None:
    rs = get_ruleset(name)
    assert rs.excluded_by("thirteen-terminals") == {"mixed-greater-terminals"}
    case = next(c for c in SEED_CASES if c["id"] == "thirteen-terminals")
    hand = Hand.from_json({**case["hand"], "ruleset": name})
    result = rs.score(hand)
    f = rs.make_features(hand, result.arrangement, result.waits)
    assert rs.by_id["mixed-greater-terminals"].predicate(f)
    assert [i.id for i in result.items] == ["thirteen-terminals"]


# -- the seed's example hands --------------------------------------------------------------


@pytest.mark.parametrize("ex", EXAMPLES, ids=[e["pattern"] for e in EXAMPLES])
def test_seed_examples_score_their_pattern(ex: dict[str, Any]) -> None:
    r = score(ex["hand"])
    assert r["error"] is None
    hit = [i for i in r["items"] if i["id"] == ex["pattern"]]
    assert hit and hit[0]["points"] == ex["points"] and hit[0]["name"] == ex["name"]


def test_examples_cover_the_whole_seed() -> None:
    assert [e["name"] for e in EXAMPLES] == [
        p["name"] for p in load_table("zung_jung.json")["patterns"]
    ]
    with_example = [e for e in EXAMPLES if e["example"]]
    assert len(with_example) == 37
    assert sum(1 for e in with_example if e["completion"]) == 19


# -- limit and chicken ---------------------------------------------------------------------


def _hand(name: str, case_id: str) -> Hand:
    case = next(c for c in SEED_CASES if c["id"] == case_id)
    return Hand.from_json({**case["hand"], "ruleset": name})


def test_limit_parameter() -> None:
    official = build("seed")
    capped = build("seed", name="zj-cap", limit="cap")
    uncapped = build("seed", name="zj-none", limit="none")
    # 九蓮寶燈: a limit hand scores its own value (480) above the cap
    for rs, total in ((official, 480), (capped, 320), (uncapped, 590)):
        assert rs.score(_hand(rs.name, "nine-gates")).total == total
    # 字一色 + more: the sum (560) is capped at 320; no pattern above 320
    for rs, total in ((official, 320), (capped, 320), (uncapped, 560)):
        assert rs.score(_hand(rs.name, "all-honors-standard")).total == total
    # with several limit hands the highest counts
    r = official.score(_hand("zung-jung", "big-four-winds-all-honors"))
    assert r.total == 480 and r.extras["limit"] == "limit-hand"
    assert Limit.parse(400).apply([]) == (0, None)
    with pytest.raises(ValueError):
        Limit.parse("sometimes")


def test_chicken_hand_only_without_patterns() -> None:
    rs = get_ruleset("zung-jung")
    r = rs.score(_hand("zung-jung", "chicken-hand"))
    assert [(i.id, i.name, i.points) for i in r.items] == [(CHICKEN_ID, "雞和", 1)]
    assert rs.score(_hand("zung-jung", "wind-triplet-any-wind")).item(CHICKEN_ID) is None


# -- validation ----------------------------------------------------------------------------


def _spec(**kw: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "ruleset": "zung-jung",
        "concealed": ["2m", "3m", "4m", "5m", "6m", "7m", "3p", "4p", "5p", "6s", "7s", "8s", "9s"],
        "win_tile": "9s",
        "seat_wind": "ws",
    }
    base.update(kw)
    return base


@pytest.mark.parametrize(
    "kw",
    [
        {"blessing_of_heaven": True, "win": {"self_drawn": True}},  # not the dealer
        {"blessing_of_man": True, "win": {"self_drawn": True}},  # 人和 is on a discard
        {"blessing_of_earth": True},  # seed 地和 is self-drawn
        {"blessing_of_earth": True, "blessing_of_man": True, "win": {"self_drawn": True}},
        {"blessing_of_man": "yes"},
        {"ruleset": "zung-jung-v3.3", "blessing_of_man": True},  # v3.3 has no 人和
        {"flowers": ["f1"]},
    ],
)
def test_invalid_hands_are_typed_errors(kw: dict[str, Any]) -> None:
    r = score(_spec(**kw))
    assert r["error"] and r["error_code"] == "invalid-hand"
    with pytest.raises(InvalidHandError):
        get_ruleset(r["ruleset"]).score(Hand.from_json(_spec(**kw)))


def test_exposed_meld_cannot_have_a_blessing() -> None:
    spec = _spec(
        concealed=["5m", "6m", "7m", "3p", "4p", "5p", "6s", "7s", "8s", "9s"],
        melds=[{"kind": "chow", "tiles": ["2m", "3m", "4m"], "from": "left"}],
        blessing_of_man=True,
        seat_wind="wn",
    )
    assert score(spec)["error_code"] == "invalid-hand"


# -- settlement ----------------------------------------------------------------------------


def test_settlement_schemes() -> None:
    rs = get_ruleset("zung-jung")
    r = rs.score(_hand("zung-jung", "mixed-one-suit"))  # 80 points
    assert r.total == 80
    on_discard = Seating(winner=0, discarder=2, dealer=0)
    self_drawn = Seating(winner=1, discarder=None, dealer=0)
    assert net(rs.settle(r, on_discard)) == [80, 0, -80, 0]
    assert net(rs.settle(r, self_drawn)) == [-27, 81, -27, -27]  # a third, rounded up
    assert net(rs.settle(r, on_discard, {"discard": "discarder-for-all"})) == [240, 0, -240, 0]
    assert net(rs.settle(r, on_discard, {"discard": "everyone"})) == [240, -80, -80, -80]
    assert net(rs.settle(r, self_drawn, {"self_draw": "full"})) == [-80, 240, -80, -80]
    uniform = build("v3.3", name="zj-uniform", discard="everyone", self_draw="full")
    assert uniform.params["discard"] == "everyone"
    with pytest.raises(ScoringError):
        rs.settle(r, on_discard, {"discard": "nobody"})
    with pytest.raises(ScoringError):
        rs.settle(r, Seating(winner=0, discarder=0, dealer=0))


# -- the CLI -------------------------------------------------------------------------------


def test_cli_scores_both_rule_sets() -> None:
    lines = [json.dumps(SEED_CASES[0]["hand"]), json.dumps(V33_CASES[0]["hand"])]
    out = io.StringIO()
    assert cli_main(["--jsonl"], stdin=io.StringIO("\n".join(lines)), stdout=out) == 0
    results = [json.loads(x) for x in out.getvalue().splitlines()]
    assert [r["ruleset"] for r in results] == ["zung-jung", "zung-jung-v3.3"]
    assert [r["total"] for r in results] == [
        SEED_CASES[0]["expected"]["total"],
        V33_CASES[0]["expected"]["total"],
    ]
    out = io.StringIO()
    assert cli_main(["--text"], stdin=io.StringIO(lines[0]), stdout=out) == 0
    assert "平和" in out.getvalue() and "中庸" in out.getvalue()
    out = io.StringIO()
    cli_main(["--list"], stdin=io.StringIO(""), stdout=out)
    assert "zung-jung\t" in out.getvalue() and "zung-jung-v3.3\t" in out.getvalue()


# -- properties ----------------------------------------------------------------------------


def _map_hand(h: dict[str, Any], f: Any, ruleset: str) -> dict[str, Any]:
    def m(code: str) -> str:
        return Tile(f(Tile.parse(code))).code

    return {
        "ruleset": ruleset,
        "concealed": [m(c) for c in h["concealed"]],
        "melds": [{**x, "tiles": [m(c) for c in x["tiles"]]} for x in h["melds"]],
        "win_tile": m(h["win_tile"]),
        "win": h["win"],
    }


def _summary(r: dict[str, Any], rename: dict[str, str] | None = None) -> tuple[Any, ...]:
    rn = rename or {}
    items = sorted((rn.get(i["id"], i["id"]), i["points"], i["count"]) for i in r["items"])
    return r["error"], r["total"], tuple(items)


RULESETS = st.sampled_from(["zung-jung", "zung-jung-v3.3"])


@settings(max_examples=150, deadline=None)
@given(winning_hands(), st.permutations([0, 1, 2]), RULESETS)
def test_suit_permutation_invariance(h: dict[str, Any], perm: list[int], rs: str) -> None:
    """No Zung Jung pattern names a suit: permuting the suits changes nothing."""

    def f(t: Tile) -> int:
        return 9 * perm[t // 9] + t % 9 if t < 27 else int(t)

    base = score(_map_hand(h, int, rs))
    assert base["error"] is None
    assert _summary(score(_map_hand(h, f, rs))) == _summary(base)


# The only tile-specific patterns under n -> 10-n: the number ranges swap ends.
MIRROR_RENAMES = {
    "below-five": "above-five",
    "above-five": "below-five",
    "all-small": "all-large",
    "all-large": "all-small",
}


@settings(max_examples=150, deadline=None)
@given(winning_hands(), RULESETS)
def test_number_mirror(h: dict[str, Any], rs: str) -> None:
    """n -> 10-n keeps every pattern except the number ranges, which swap (小於五 <-> 大於五,
    全小 <-> 全大); 全中 maps to itself."""

    def f(t: Tile) -> int:
        return t - t % 9 + (8 - t % 9) if t < 27 else int(t)

    base = score(_map_hand(h, int, rs))
    assert base["error"] is None
    assert _summary(score(_map_hand(h, f, rs))) == _summary(base, MIRROR_RENAMES)


def test_mirror_exceptions_are_real() -> None:
    """The renames above are needed: a 小於五 hand mirrors to a 大於五 hand."""
    case = next(c for c in SEED_CASES if c["id"] == "below-five")

    def f(t: Tile) -> int:
        return t - t % 9 + (8 - t % 9) if t < 27 else int(t)

    mirrored = score(_map_hand(case["hand"], f, "zung-jung"))
    ids = {i["id"] for i in mirrored["items"]}
    assert "above-five" in ids and "below-five" not in ids
    assert set(SEED_ROWS) and set(V33_ROWS)


@settings(max_examples=100, deadline=None)
@given(winning_hands(), RULESETS)
def test_result_invariants(h: dict[str, Any], name: str) -> None:
    """One pattern per family, the limit rule gives the total, and no other arrangement of
    the same hand scores more (freedom of count)."""
    rs = get_ruleset(name)
    assert isinstance(rs, ZungJungRuleSet)
    hand = Hand.from_json({**h, "ruleset": name})
    result = rs.score(hand)
    fams = [rs.families[i.id][0] for i in result.items if rs.families[i.id][0]]
    assert len(fams) == len(set(fams))
    assert result.total == rs.limit.apply(result.items)[0] >= 1
    assert all(i.count >= 1 for i in result.items)
    assert (result.item(CHICKEN_ID) is not None) == (len(result.items) == 1 and result.total == 1)
    for arr in rs.arrangements(hand):
        f = rs.make_features(hand, arr, result.waits)
        assert rs.finalize(rs.evaluate(f), f)[1] <= result.total


def test_build_rejects_unknown_parameters() -> None:
    with pytest.raises(ValueError):
        build("v4")
    with pytest.raises(ValueError):
        build("seed", discard="nobody")
    with pytest.raises(ValueError):
        build("seed", self_draw="half")
    rs = build("seed", name="zj-400", limit=400)
    assert rs.params["limit"] == "400" and rs.limit == Limit(400, True, 400)
    assert get_ruleset("zung-jung").params["limit"] == "official"
