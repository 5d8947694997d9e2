"""Riichi: the differential test against the ``mahjong`` package (2.1.0), golden fu cases
worked by hand, suit-rotation and mirror properties, red fives, the hand JSON, options."""

from __future__ import annotations

import io
import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from riichi_gen import compare, generate
from shared_dir import shared_dir

import table
from scoring import Seating, get_ruleset, net, ruleset_names, score
from scoring.cli import main as cli_main
from scoring.riichi.dora import dora_of
from scoring.riichi.limits import hand_value
from scoring.rulesets.riichi import DATA, YAKU
from scoring.tiles import Tile

GOLDEN = Path(__file__).parent / "golden" / "riichi_fu.jsonl"


def _golden() -> list[dict[str, Any]]:
    with open(GOLDEN, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def H(concealed: str, win_tile: str, **kw: Any) -> dict[str, Any]:
    hand: dict[str, Any] = {
        "ruleset": "riichi",
        "concealed": concealed.split(),
        "win_tile": win_tile,
    }
    hand.update(kw)
    return hand


#: A closed pinfu hand (non-dealer), 78s waiting on 6s / 9s.
PINFU = H("2m 3m 4m 5p 6p 7p 3s 4s 5s 7s 8s 9p 9p", "6s", seat_wind="ws")


def test_package_data_is_the_shared_file() -> None:
    shared = shared_dir() / "rules" / "riichi.json"
    assert json.loads(shared.read_text(encoding="utf-8")) == DATA
    assert len(YAKU) == 48


def test_registered_but_not_playable() -> None:
    """No table parameters exist for riichi (part 2): rooms cannot use it yet."""
    assert "riichi" in ruleset_names()
    assert "riichi" not in table.playable_rulesets()


# -- the differential test --------------------------------------------------------------------


def test_differential_against_the_mahjong_package() -> None:
    """1,500 random hands (the full run: scripts/riichi_differential.py, 20,000+): han, fu,
    points and the yaku with their han agree, and every one of the 48 ids occurs."""
    rng = random.Random(20250125)
    disagreements = []
    seen: Counter[str] = Counter()
    for _ in range(1500):
        hand = generate(rng)
        ours, theirs, _ = compare(hand)
        if ours != theirs:
            disagreements.append((hand, ours, theirs))
        elif ours is not None:
            seen.update(ours[3].keys())
    assert disagreements == []
    assert sorted(set(YAKU) - set(seen)) == []


# -- golden fu cases ------------------------------------------------------------------------


@pytest.mark.parametrize("case", _golden(), ids=lambda c: c["name"])
def test_golden_fu(case: dict[str, Any]) -> None:
    res = score(case["hand"])
    assert res["error"] is None, res["error"]
    exp = case["expected"]
    assert (res["han"], res["fu"], res["total"]) == (exp["han"], exp["fu"], exp["total"])
    assert {i["id"]: i["points"] * i["count"] for i in res["items"]} == exp["items"]
    if "limit" in exp:
        assert res["limit"] == exp["limit"]
    assert res["han"] == sum(i["points"] * i["count"] for i in res["items"])


def test_golden_file_covers_every_fu_rule() -> None:
    parts = set()
    for case in _golden():
        for why, _ in score(case["hand"])["extras"].get("fu_parts", []):
            parts.add(why.split(" ")[0] if "triplet" in why or "kong" in why else why)
    assert {
        "base",
        "concealed ron",
        "self-draw",
        "closed wait",
        "edge wait",
        "single wait",
        "open pinfu shape, ron",
        "seven pairs",
        "open",
        "concealed",
    } <= parts
    reasons = {w for c in _golden() for w, _ in score(c["hand"])["extras"].get("fu_parts", [])}
    assert any(r.startswith("dragon pair") for r in reasons)
    assert any(r.startswith("seat wind pair") for r in reasons)
    assert any(r.startswith("round wind pair") for r in reasons)


# -- properties -------------------------------------------------------------------------------

_SUITS = "mps"


def _map_hand(hand: dict[str, Any], tile: Any, indicator: Any) -> dict[str, Any]:
    """The hand with every tile code mapped by ``tile`` and every indicator by
    ``indicator``."""
    out = dict(hand)
    out["concealed"] = [tile(c) for c in hand["concealed"]]
    out["win_tile"] = tile(hand["win_tile"])
    out["melds"] = [
        {**m, "tiles": [tile(c) for c in m["tiles"]]}
        | ({"claimed": tile(m["claimed"])} if "claimed" in m else {})
        for m in hand["melds"]
    ]
    out["dora_indicators"] = [indicator(c) for c in hand["dora_indicators"]]
    out["ura_dora_indicators"] = [indicator(c) for c in hand["ura_dora_indicators"]]
    return out


def _summary(res: dict[str, Any]) -> tuple[Any, ...]:
    assert res["error"] is None, res["error"]
    items = sorted((i["id"], i["points"], i["count"]) for i in res["items"])
    return res["han"], res["fu"], res["total"], res["limit"], res["minimum_met"], items


def _rotate(code: str, k: int) -> str:
    if code[0].isdigit():
        return code[:-1] + _SUITS[(_SUITS.index(code[-1]) + k) % 3]
    return code


def _mirror(code: str) -> str:
    if code[0].isdigit() and code[0] != "0":
        return f"{10 - int(code[0])}{code[-1]}"
    return code  # honours; a red five is a five


_CODE = {t.code: t for t in Tile}


def _mirror_indicator(code: str) -> str:
    """The indicator of the mirror image of the tile ``code`` shows."""
    if not code[0].isdigit():
        return code
    shown = dora_of(_CODE[code.replace("0", "5")])
    target = _CODE[_mirror(shown.code)]
    return next(t.code for t in Tile if t.is_suited and dora_of(t) == target)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.integers(1, 2))
def test_suit_rotation(seed: int, k: int) -> None:
    """Characters → dots → bamboo → characters changes nothing but ryuuiisou's bamboo: hands
    of green tiles are left out."""
    hand = generate(random.Random(seed))
    before = score(hand)
    if any(i["id"] == "ryuuiisou" for i in before["items"]):
        return
    after = score(_map_hand(hand, lambda c: _rotate(c, k), lambda c: _rotate(c, k)))
    assert _summary(after) == _summary(before)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))
def test_mirror(seed: int) -> None:
    """n → 10 - n in every suit (indicators chosen to show the mirrored dora; hands where
    they would need a fifth copy of a tile are left out) changes nothing, ryuuiisou's tiles aside: edge waits stay edge waits, 123-456-789 stays a
    straight, terminals stay terminals."""
    hand = generate(random.Random(seed))
    before = score(hand)
    if any(i["id"] == "ryuuiisou" for i in before["items"]):
        return
    after = score(_map_hand(hand, _mirror, _mirror_indicator))
    # the mirrored indicators may show a fifth copy of a tile: no such hand exists
    assume(after["error_code" if after["error"] else "error"] != "invalid-hand")
    assert _summary(after) == _summary(before)


def test_mirror_of_the_indicators_is_right() -> None:
    assert _mirror_indicator("1m") == "7m"  # 1m shows 2m; 8m is shown by 7m
    assert _mirror_indicator("9p") == "8p"  # 9p shows 1p; 9p is shown by 8p
    assert _mirror_indicator("0s") == "3s"  # 0s shows 6s; 4s is shown by 3s
    assert _mirror_indicator("we") == "we"


# -- dora, red fives, indicators --------------------------------------------------------------


def test_dora_order() -> None:
    assert [dora_of(Tile.parse(c)).code for c in ("9m", "1p", "wn", "we", "dw", "dg", "dr")] == [
        "1m",
        "2p",
        "we",
        "ws",
        "dg",
        "dr",
        "dw",
    ]


def test_red_fives_count_as_fives_and_aka_dora() -> None:
    red = dict(
        PINFU,
        concealed=["2m", "3m", "4m", "0p", "6p", "7p", "3s", "4s", "5s", "7s", "8s", "9p", "9p"],
    )
    res = score(red)
    assert res["error"] is None
    assert {i["id"]: i["points"] for i in res["items"]} == {"pinfu": 1, "aka-dora": 1}
    assert res["han"] == 2 and res["fu"] == 30 and res["total"] == 2000
    # in a meld and as the win tile, and one of each suit
    hand = H(
        "2m 3m 4m 6p 7p 3s 4s 0s 8p 8p",
        "0p",
        seat_wind="ws",
        melds=[{"kind": "pung", "tiles": ["5m", "0m", "5m"], "from": "left"}],
        dora_indicators=["4m"],
    )
    res = score(hand)
    assert res["error"] is None, res["error"]
    assert {i["id"]: i["points"] for i in res["items"]} == {"tanyao": 1, "dora": 3, "aka-dora": 3}


@pytest.mark.parametrize(
    ("hand", "code"),
    [
        ({"ruleset": "mcr", "concealed": ["0m"], "win_tile": "1m"}, "invalid-tile"),
        ({"ruleset": "zung-jung", "concealed": ["0p"], "win_tile": "1m"}, "invalid-tile"),
        (dict(PINFU, win_tile="0s", house_rules={"red_fives": False}), "invalid-tile"),
        (dict(PINFU, dora_indicators=["0m"], house_rules={"red_fives": False}), "invalid-tile"),
        (dict(PINFU, concealed=["0m", "0m", *PINFU["concealed"][2:]]), "invalid-hand"),
        (dict(PINFU, win_tile="0s", dora_indicators=["0s"]), "invalid-hand"),
        (dict(PINFU, win_tile="0s", red_fives=["0s"]), "invalid-hand"),
        (dict(PINFU, red_fives=["0m"]), "invalid-hand"),  # no 5m in the hand
        (dict(PINFU, house_rules={"akadora": True}), "invalid-options"),
        (dict(PINFU, house_rules={"kiriage_mangan": 1}), "invalid-options"),
    ],
)
def test_tile_and_option_errors(hand: dict[str, Any], code: str) -> None:
    res = score(hand)
    assert res["error_code"] == code, res["error"]


def test_four_plain_fives_need_a_red_one() -> None:
    hand = H("5m 5m 5m 5m 6m 7m 2p 3p 4p 6s 7s 8s 9p", "9p", seat_wind="ws")
    assert score(hand)["error_code"] == "invalid-hand"
    assert score(dict(hand, house_rules={"red_fives": False}))["error"] is None
    hand["concealed"][0] = "0m"
    assert score(hand)["error"] is None


@pytest.mark.parametrize(
    ("change", "why"),
    [
        ({"riichi": {"double": True}}, "double needs declared"),
        ({"riichi": {"ippatsu": True}}, "ippatsu needs riichi"),
        ({"riichi": {"declared": True, "extra": True}}, "unknown key"),
        ({"riichi": {"declared": "yes"}}, "not a boolean"),
        ({"first_turn": True}, "first turn is a self-draw"),
        ({"win": {"self_drawn": True, "kong_replacement": True}}, "rinshan needs a kong"),
        (
            {"win": {"robbing_kong": True}, "concealed": "2m 3m 4m 5p 6p 7p 4s 5s 6s 7s 8s 9p 9p"},
            "no chankan on a tile the winner holds",
        ),
        ({"dora_indicators": ["1m"] * 6}, "at most 5 indicators"),
        ({"ura_dora_indicators": ["1m"], "dora_indicators": ["2m"]}, "ura needs riichi"),
        (
            {
                "riichi": {"declared": True},
                "dora_indicators": ["2m"],
                "ura_dora_indicators": ["1m", "1m"],
            },
            "as many ura as dora",
        ),
        ({"dora_indicators": ["9p", "9p", "9p"]}, "five 9p"),
    ],
)
def test_situation_errors(change: dict[str, Any], why: str) -> None:
    res = score({**PINFU, **change})
    assert res["error_code"] == "invalid-hand", why


def test_riichi_needs_a_concealed_hand() -> None:
    hand = H(
        "5p 6p 7p 3s 4s 6s 7s 8s 5m 5m",
        "5s",
        seat_wind="ws",
        melds=[{"kind": "chow", "tiles": ["2m", "3m", "4m"], "from": "left"}],
        riichi={"declared": True},
    )
    assert score(hand)["error_code"] == "invalid-hand"
    hand["melds"] = [{"kind": "kong", "tiles": ["2m"] * 4, "concealed": True}]
    hand["concealed"] = ["5p", "6p", "7p", "3s", "4s", "6s", "7s", "8s", "5m", "5m"]
    assert score(hand)["error"] is None  # a concealed kong keeps the hand closed


def test_no_yaku_is_no_win() -> None:
    """A closed wait, no riichi, a ron: only a dora, which is no yaku."""
    hand = H("1m 3m 4m 5m 6m 5p 6p 7p 3s 4s 5s 9p 9p", "2m", seat_wind="ws", dora_indicators=["8p"])
    res = score(hand)
    assert res["error"] is None
    assert not res["minimum_met"]
    assert res["items"] == [] and res["han"] == 0 and res["total"] == 0


# -- limits and payments --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("han", "fu", "dealer", "tsumo", "payments", "total", "limit"),
    [
        (3, 30, False, False, {"ron": 3900}, 3900, None),
        (3, 30, False, True, {"dealer": 2000, "non_dealer": 1000}, 4000, None),
        (3, 30, True, False, {"ron": 5800}, 5800, None),
        (3, 30, True, True, {"non_dealer": 2000}, 6000, None),
        (2, 20, False, True, {"dealer": 700, "non_dealer": 400}, 1500, None),
        (4, 30, False, False, {"ron": 7700}, 7700, None),
        (4, 30, True, False, {"ron": 11600}, 11600, None),
        (4, 40, False, False, {"ron": 8000}, 8000, "mangan"),
        (3, 70, False, False, {"ron": 8000}, 8000, "mangan"),
        (3, 60, False, False, {"ron": 7700}, 7700, None),
        (5, 30, False, False, {"ron": 8000}, 8000, "mangan"),
        (7, 30, True, False, {"ron": 18000}, 18000, "haneman"),
        (10, 30, False, True, {"dealer": 8000, "non_dealer": 4000}, 16000, "baiman"),
        (12, 30, False, False, {"ron": 24000}, 24000, "sanbaiman"),
        (13, 30, False, False, {"ron": 32000}, 32000, "kazoe-yakuman"),
    ],
)
def test_limits(
    han: int,
    fu: int,
    dealer: bool,
    tsumo: bool,
    payments: dict[str, int],
    total: int,
    limit: str | None,
) -> None:
    v = hand_value(han, fu, yakuman=0, dealer=dealer, self_drawn=tsumo)
    assert (v.payments, v.total, v.limit) == (payments, total, limit)


def test_limit_options() -> None:
    assert hand_value(4, 30, yakuman=0, dealer=False, self_drawn=False, kiriage=True).total == 8000
    assert hand_value(3, 60, yakuman=0, dealer=False, self_drawn=False, kiriage=True).total == 8000
    v = hand_value(14, 30, yakuman=0, dealer=False, self_drawn=False, kazoe=False)
    assert (v.total, v.limit) == (24000, "sanbaiman")
    v = hand_value(26, None, yakuman=2, dealer=True, self_drawn=False)
    assert (v.total, v.limit) == (96000, "double-yakuman")


def test_double_yakuman_and_stacking() -> None:
    # four concealed triplets on the pair (26) + big four winds (26) + all honours (13)
    hand = H(
        "we we we ws ws ws ww ww ww wn wn wn dr",
        "dr",
        seat_wind="ws",
        win={"self_drawn": True},
    )
    res = score(hand)
    items = {i["id"]: i["points"] for i in res["items"]}
    assert items == {"suuankou-tanki": 26, "daisuushii": 26, "tsuuiisou": 13}
    assert (res["han"], res["fu"], res["limit"]) == (65, None, "quintuple-yakuman")
    assert res["total"] == 5 * 32000
    single = score(dict(hand, house_rules={"double_yakuman": False}))
    assert {i["id"]: i["points"] for i in single["items"]} == {
        "suuankou-tanki": 13,
        "daisuushii": 13,
        "tsuuiisou": 13,
    }
    assert single["total"] == 3 * 32000


def test_open_tanyao_option() -> None:
    hand = H(
        "5p 6p 7p 3s 4s 6s 7s 8s 5m 5m",
        "5s",
        seat_wind="ws",
        melds=[{"kind": "chow", "tiles": ["2m", "3m", "4m"], "from": "left"}],
    )
    assert score(hand)["minimum_met"]
    assert not score(dict(hand, house_rules={"open_tanyao": False}))["minimum_met"]


def test_settlement_pays_the_total() -> None:
    rs = get_ruleset("riichi")
    from scoring import Hand

    tsumo = rs.score(rs.hand_from_json(dict(PINFU, win={"self_drawn": True})))
    pay = rs.settle(tsumo, Seating(winner=1, discarder=None, dealer=0))
    assert sorted((p.payer, p.amount) for p in pay) == [(0, 700), (2, 400), (3, 400)]
    assert net(pay)[1] == tsumo.total == 1500
    ron = rs.score(Hand.from_json(PINFU))
    assert [(p.payer, p.amount) for p in rs.settle(ron, Seating(1, 3, 0))] == [(3, 1000)]


# -- the CLI ----------------------------------------------------------------------------------


def test_cli_text_shows_han_fu_and_limit() -> None:
    hand = dict(PINFU, riichi={"declared": True, "ippatsu": True}, dora_indicators=["8p"])
    hand["ura_dora_indicators"] = ["8p"]
    out = io.StringIO()
    assert cli_main(["--text"], stdin=io.StringIO(json.dumps(hand)), stdout=out) == 0
    text = out.getvalue()
    assert "han 7, fu 30, haneman" in text
    assert "裏ドラ" in text and "12000" in text
    out = io.StringIO()
    cli_main([], stdin=io.StringIO(json.dumps(hand)), stdout=out)
    res = json.loads(out.getvalue())
    assert list(res)[:5] == ["ruleset", "total", "han", "fu", "limit"]
