"""tw16-tai: the golden hands, the table's data, exclusions, validation, settlement, CLI."""

from __future__ import annotations

import importlib.util
import io
import json
from pathlib import Path
from typing import Any

import pytest
from shared_dir import shared_dir

from scoring import Hand, Seating, get_ruleset, net, score
from scoring.cli import main
from scoring.rulesets import tw16_tai
from scoring.rulesets.tw16_tai import RULESET, TaiFeatures, make_ruleset

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"
GOLDEN = [json.loads(x) for x in (GOLDEN_DIR / "tw16_tai.jsonl").read_text("utf-8").splitlines()]
SHARED = shared_dir() / "rules" / "taiwan_16_tai.json"


def _source() -> Any:
    spec = importlib.util.spec_from_file_location("tw16_src", GOLDEN_DIR / "tw16_tai_source.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _breakdown(items: list[dict[str, Any]]) -> dict[str, tuple[str, int, int]]:
    return {i["id"]: (i["name"], i["points"], i["count"]) for i in items}


# -- golden -------------------------------------------------------------------------------------


def test_golden_file_matches_its_source() -> None:
    assert (GOLDEN_DIR / "tw16_tai.jsonl").read_text("utf-8") == _source().render()


def test_golden_has_enough_cases() -> None:
    assert len(GOLDEN) >= 80
    assert len({c["name"] for c in GOLDEN}) == len(GOLDEN)


@pytest.mark.parametrize("case", GOLDEN, ids=[c["name"] for c in GOLDEN])
def test_golden(case: dict[str, Any]) -> None:
    r = score(case["hand"])
    assert r["error"] is None, r["error"]
    assert _breakdown(r["items"]) == _breakdown(case["items"])
    assert r["total"] == case["total"] == sum(i["points"] * i["count"] for i in case["items"])


def test_every_row_appears_in_a_golden_case() -> None:
    seen = {i["id"] for c in GOLDEN for i in c["items"]}
    assert {p.id for p in RULESET.patterns} - seen == set()


def _raw_hits(hand_json: dict[str, Any]) -> set[str]:
    """The rows whose predicate holds on the chosen arrangement, before any "不计"."""
    hand = Hand.from_json(hand_json)
    res = RULESET.score(hand)
    f = RULESET.make_features(hand, res.arrangement, res.waits)
    return {p.id for p in RULESET.patterns if p.predicate(f)}


def test_every_exclusion_is_shown_by_a_golden_case() -> None:
    shown: set[tuple[str, str]] = set()
    flower_win_shown = False
    for c in GOLDEN:
        hits = _raw_hits(c["hand"])
        scored = {i["id"] for i in c["items"]}
        for pid in hits:
            for x in RULESET.by_id[pid].excludes & hits:
                assert x not in scored or pid not in scored, (c["name"], pid, x)
                shown.add((pid, x))
                flower_win_shown |= pid in tw16_tai.FLOWER_WIN_ROWS
    wanted = {
        (p.id, x)
        for p in RULESET.patterns
        if p.id not in tw16_tai.FLOWER_WIN_ROWS
        for x in p.excludes
    }
    assert wanted - shown == set()
    assert flower_win_shown


# -- the table -----------------------------------------------------------------------------------


def test_package_data_is_the_shared_table() -> None:
    """The installed package carries its own copy of the table; it must be the team's
    (``shared/``; a missing ``shared/`` fails here with where it was looked for)."""
    ours = json.loads(tw16_tai.resources.files("scoring.data").joinpath(
        "taiwan_16_tai.json").read_text("utf-8"))  # fmt: skip
    assert ours == json.loads(SHARED.read_text("utf-8"))  # FileNotFoundError: no shared table


def test_rows_are_the_seed_table() -> None:
    table = tw16_tai.load_table()
    assert len(table) == len(RULESET.patterns) == 76
    for p in RULESET.patterns:
        row = table[p.name]
        assert p.category == row.category and p.note == row.description
        assert str(p.points) == row.tai or (p.id == "dealer-streak" and row.tai == "2乘N")
    ids = [p.id for p in RULESET.patterns]
    assert all(i == i.lower() and " " not in i for i in ids)


def test_registered_and_listed() -> None:
    assert get_ruleset("tw16-tai") is RULESET
    out = io.StringIO()
    assert main(["--list"], stdin=io.StringIO(""), stdout=out) == 0
    assert "tw16-tai\t" in out.getvalue()


def test_cli_scores_a_golden_case_as_json_jsonl_and_text() -> None:
    case = GOLDEN[0]
    out = io.StringIO()
    assert main([], stdin=io.StringIO(json.dumps(case["hand"])), stdout=out) == 0
    assert json.loads(out.getvalue())["total"] == case["total"]
    out = io.StringIO()
    text = "".join(json.dumps(c["hand"]) + "\n" for c in GOLDEN[:5])
    assert main(["--jsonl"], stdin=io.StringIO(text), stdout=out) == 0
    assert [json.loads(x)["total"] for x in out.getvalue().splitlines()] == [
        c["total"] for c in GOLDEN[:5]
    ]
    out = io.StringIO()
    assert main(["--text"], stdin=io.StringIO(json.dumps(case["hand"])), stdout=out) == 0
    assert "大平胡" in out.getvalue() and "19" in out.getvalue()


# -- validation and shapes -------------------------------------------------------------------------


def _hand(concealed: str, win: str, **kw: Any) -> dict[str, Any]:
    src = _source()
    h: dict[str, Any] = {
        "ruleset": "tw16-tai",
        "concealed": src._tiles(concealed),
        "win_tile": win,
    }
    h.update(kw)
    return h


PING = "123m 456m 789p 234s 55p 67s"


@pytest.mark.parametrize(
    ("extra", "code", "words"),
    [
        ({"dealer": "yes"}, "invalid-hand", "dealer"),
        ({"tiles_seen": -1}, "invalid-hand", "tiles_seen"),
        ({"dealer_streak": 1.5}, "invalid-hand", "dealer_streak"),
        ({"heavenly": True}, "invalid-hand", "天胡"),
        ({"earthly": True, "dealer": True}, "invalid-hand", "地胡"),
        ({"flower_win": "nine"}, "invalid-hand", "flower_win"),
        ({"flower_win": "eight", "flowers": ["f1"]}, "invalid-hand", "eight flowers"),
        (
            {"flower_win": "eight", "flowers": [f"f{i}" for i in range(1, 9)]},
            "invalid-hand",
            "self-drawn",
        ),
    ],
)
def test_bad_context_is_reported(extra: dict[str, Any], code: str, words: str) -> None:
    r = score(_hand(PING, "8s", **extra))
    assert r["error_code"] == code and words in r["error"]


def test_wrong_tile_count_and_not_a_win() -> None:
    assert score(_hand("123m 456m 789p 234s 55p 6s", "8s"))["error_code"] == "invalid-hand"
    assert score(_hand("123m 456m 789p 234s 55p 67s", "9s"))["error_code"] == "not-a-win"
    # a flower win needs 16 or 17 tiles
    r = score(_hand("123m", "2s", flowers=[f"f{i}" for i in range(1, 9)], flower_win="eight"))
    assert r["error_code"] == "invalid-hand"


@pytest.mark.parametrize(
    "concealed",
    [
        "13m 9m 269p 369s we ws ww wn dr dg dw dw",  # 1m 3m: a 搭 (closed wait shape)
        "159m 269p 369s we ws ww wn dr dg dw dw dw",  # no suit tile for the 17th: one short
        "159m 26p 369s we ws ww wn dr dg dw dw dw",  # two of an honour beyond the eye
    ],
)
def test_not_sixteen_unrelated(concealed: str) -> None:
    r = score(_hand(concealed, "9p"))
    assert r["error_code"] in ("not-a-win", "invalid-hand")


def test_lik_gu_needs_a_triplet_and_no_melds() -> None:
    # eight pairs + a single is no win
    assert score(_hand("11m 22m 33p 44p 55s 66s 77s 88s", "9s"))["error_code"] == "not-a-win"
    r = score(_hand("11m 22m 33p 44p 55s 66s 77s 9s 9s", "9s"))
    assert r["error"] is None and r["arrangement"]["shape"] == "lik-gu"
    melded = _hand("11m 22m 33p 44p 55s 66s 7s", "7s",
                   melds=[{"kind": "pung", "tiles": ["9s"] * 3, "from": "left"}])  # fmt: skip
    r = score(melded)
    assert r["error_code"] == "not-a-win"


def test_waits_include_special_shapes() -> None:
    rs = RULESET
    before = [0] * 34
    for t in _source()._tiles("159m 269p 369s we ws ww wn dr dg dw"):
        before[tw16_tai.Tile.parse(t)] += 1
    waits = {str(t) for t in rs.waits(before, 0)}
    assert waits == {"1m", "5m", "9m", "2p", "6p", "9p", "3s", "6s", "9s",
                     "we", "ws", "ww", "wn", "dr", "dg", "dw"}  # fmt: skip


# -- parameters ---------------------------------------------------------------------------------


def test_chicken_hand_can_be_turned_off_and_dragons_can_be_wrong_honors() -> None:
    src = _source()
    chicken = next(c for c in GOLDEN if c["name"] == "chicken hand")
    plain = make_ruleset(name="tw16-tai", chicken_max=None)
    res = plain.score(Hand.from_json(chicken["hand"]))
    assert [(i.id, i.total) for i in res.items] == [("wrong-flower", 1)]
    dragons = next(c for c in GOLDEN if c["name"] == "big three dragons")
    wrong = make_ruleset(name="tw16-tai", dragon_row="wrong-honor")
    res = wrong.score(Hand.from_json(dragons["hand"]))
    it = res.item("wrong-honor")
    assert it is not None and it.count == 3 and res.item("right-honor") is None
    assert res.total == dragons["total"] - 3
    with pytest.raises(ValueError):
        make_ruleset(dragon_row="purple")
    assert src.NAMES["chicken-hand"] == "鸡胡"
    assert issubclass(RULESET.make_features, TaiFeatures)  # type: ignore[arg-type]


# -- settlement ---------------------------------------------------------------------------------


def _result(name: str) -> Any:
    case = next(c for c in GOLDEN if c["name"] == name)
    return RULESET.score(Hand.from_json(case["hand"]))


def test_discard_win_discarder_pays_base_plus_tai() -> None:
    res = _result("big ping hu")  # 19 台
    pays = RULESET.settle(res, Seating(winner=1, discarder=2, dealer=0),
                          {"base": 10, "unit": 3})  # fmt: skip
    assert [(p.payer, p.payee, p.amount) for p in pays] == [(2, 1, 10 + 3 * 19)]
    # the dealer discards: 庄 1 + 拉庄 2×2 more 台 in that payment
    pays = RULESET.settle(res, Seating(winner=1, discarder=0, dealer=0, streak=2),
                          {"base": 10, "unit": 3})  # fmt: skip
    assert [p.amount for p in pays] == [10 + 3 * (19 + 1 + 4)]


def test_self_draw_all_pay_and_the_dealer_pays_more() -> None:
    res = _result("small ping hu: self-drawn")  # 20 台
    pays = RULESET.settle(res, Seating(winner=2, discarder=None, dealer=3, streak=1))
    assert sorted((p.payer, p.amount) for p in pays) == [(0, 20), (1, 20), (3, 23)]
    assert net(pays) == [-20, -20, 63, -23]
    no_dealer = RULESET.settle(res, Seating(2, None, 3, 1), {"dealer_rows": False})
    assert [p.amount for p in no_dealer] == [20, 20, 20]


def test_settle_rejects_a_winner_paying_himself() -> None:
    with pytest.raises(ValueError, match="discarder"):
        RULESET.settle(_result("big ping hu"), Seating(winner=1, discarder=1, dealer=0))


def test_dealer_winner_rows_counted_once() -> None:
    res = _result("heavenly win")  # 144 incl. 庄 1 + 拉庄 4 (the hand says dealer, streak 2)
    assert res.extras["hand_tai"] == 139
    pays = RULESET.settle(res, Seating(winner=0, discarder=None, dealer=0, streak=2))
    assert [p.amount for p in pays] == [144, 144, 144]
    assert all("dealer" in p.reason for p in pays)
