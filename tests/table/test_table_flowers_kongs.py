"""16-tile specifics: 八仙過海 / 兩台花 (all eight flowers), the 包 of a self-draw on the
replacement of a kong made from a discard (hk-tw16 槓上自摸 "當打出明槓者放槍"), and the
instant items that come with a win (天誅地滅, 三叮一笑)."""

from __future__ import annotations

from typing import Any

import pytest
from table_testlib import PLAYABLE, Script, tiles

from scoring.settlement import score_and_settle
from table import ActionType, GameConfig, get_params, new_game
from table.wall import Deal, build_wall

A = ActionType
FLOWER16 = [r for r in PLAYABLE if dict(get_params(r).flower_win_ids).get("eight-flowers")]


def quiet_seed() -> bytes:
    """A seed whose dice make no 圍骰 / 一二三 payment."""
    for i in range(1000):
        seed = f"quiet-dice-seed-{i:04d}".encode()
        d = sorted(Deal(seed, True).dice)
        if d[0] != d[2] and d not in ([1, 2, 3], [4, 5, 6]):
            return seed
    raise AssertionError("no quiet seed")


@pytest.mark.parametrize("ruleset", FLOWER16)
def test_eight_flowers(ruleset: str) -> None:
    """The dealer is dealt seven flowers and draws the eighth a go-around later: it may win
    at once with all eight, paid by all three."""
    hands: list[list[object]] = [[], [], [], []]
    hands[0] = tiles("f1 f2 f3 f4 f5 f6 f7 123m 456m 789m 1s")
    hands[1] = tiles("123p 456p 789p 22s 55s 8s 9s 1s")
    hands[2] = tiles("111m 222p 333s 444s we we ws ws")
    hands[3] = tiles("777s 888p 999m dr dr dg dg dw wn wn")
    sc = Script(new_game(GameConfig(ruleset, max_hands=1)))
    sc.start(
        seed=quiet_seed(),
        wall=build_wall(True, 16, 0, hands, tiles("3s dr dg f8"), tiles("5m 5m 5p 5p 6p 6p 7p 3p")),
    )
    sc.act(0, A.DISCARD, "6p")
    for seat, tile in ((1, "3s"), (2, "dr"), (3, "dg")):
        sc.pass_all()
        sc.act(seat, A.DISCARD, tile)
    sc.pass_all()
    assert len(sc.hand.seats[0].flowers) == 8 and sc.hand.turn == 0
    ev = sc.act(0, A.WIN)
    (won,) = [e for e in ev if e.type == "hand_won"]
    (w,) = won.data["winners"]
    assert won.data["how"] == "flowers" and won.data["discarder"] is None
    want = dict(get_params(ruleset).flower_win_ids)["eight-flowers"]
    assert w["hand"]["context"]["flower_win"] == want
    assert sorted(p["payer"] for p in w["payments"]) == [1, 2, 3]
    if get_params(ruleset).instant:
        reasons = [e.data["reason"] for e in sc.events if e.type == "payment"]
        assert reasons.count("one-flower-set") == 3  # f1-f4 at the deal
        assert "one-grass" not in reasons  # 先花，不能再收草


@pytest.mark.parametrize("ruleset", [r for r in PLAYABLE if get_params(r).kong_discarder_pays])
def test_kong_replacement_win_paid_by_the_kongs_discarder(ruleset: str) -> None:
    hands = [
        tiles("9m we ws ww wn dr dg dw 123m 567m 55p 8s"),
        tiles("999m 123p 456p 789p 11s 23s"),
        tiles("22m 33m 44m 66m 77m 88m 55s 66s"),
        tiles("we ws ww wn dr dg dw 1p 9p 2s 3s 7s 8s 9s 4p 6p"),
    ]
    sc = Script(new_game(GameConfig(ruleset, max_hands=1)))
    sc.start(
        seed=quiet_seed(),
        wall=build_wall(True, 16, 0, hands, tiles("1m 2m"), tiles("4s 5m")),
    )
    sc.act(0, A.DISCARD, "9m")
    sc.act(1, A.KONG)
    sc.pass_all()
    assert sc.hand.turn == 1 and sc.hand.seats[1].drawn == tiles("4s")[0]
    ev = sc.act(1, A.WIN)
    (won,) = [e for e in ev if e.type == "hand_won"]
    (w,) = won.data["winners"]
    ctx = w["hand"]["context"]
    assert ctx["replacements"] == ["kong"] and ctx["kong_discarder"] == 0
    assert ctx["chain"] == ["kong-discard"]
    assert w["hand"]["win"]["kong_replacement"] is True and w["hand"]["win"]["self_drawn"]
    assert "kong-tsumo" in [i["id"] for i in w["score"]["items"]]
    assert [p["payer"] for p in w["payments"]] == [0]  # 包: the kong's discarder pays alone
    assert [p["reason"] for p in w["payments"]] == ["kong-liability"]
    assert _calculator_payments(sc, w) == _table_payments(w)


# Seed 000, 連續花＋槓上自摸: "如開始為打出的明槓，則當打出明槓者放槍。當中若有補槓（或後補花）的情況，
# 則當自摸。" — a chain started by a 明槓 on a discard: its discarder alone pays (包, above);
# with an added kong (補槓) or a flower later in the chain it is a self-draw paid by all.
HK_KONG = [r for r in PLAYABLE if get_params(r).kong_discarder_pays]


def _table_payments(w: dict[str, Any]) -> list[tuple[int, int, int, str]]:
    return [(p["payer"], p["payee"], p["amount"], p["reason"]) for p in w["payments"]]


def _calculator_payments(sc: Script, w: dict[str, Any]) -> list[tuple[int, int, int, str]]:
    """The same hand through ``mahjong-score`` (the room's settlement options)."""
    r = score_and_settle({**w["hand"], "settlement": dict(sc.state.config.settlement)})
    assert r["error"] is None, r["error"]
    return [(p["payer"], p["payee"], p["amount"], p["reason"]) for p in r["payments"]]


@pytest.mark.parametrize("ruleset", HK_KONG)
def test_kong_then_added_kong_then_win_is_a_self_draw(ruleset: str) -> None:
    """明槓 → 補槓 → win: seat 1 pungs 5s from the dealer, kongs the dealer's 9m, draws the
    fourth 5s as the replacement and adds it to the pung, and wins on that kong's
    replacement: the three others pay as on a self-draw, not the dealer alone."""
    hands = [
        tiles("5s 9m we ws ww wn dr dg dw 123m 567m 55p"),
        tiles("999m 55s 123p 456p 11s 23s wn"),
        tiles("22m 33m 44m 66m 77m 88m 77s 66s"),
        tiles("we ws ww wn dr dg dw 1p 9p 2s 3s 7s 8s 9s 4p 6p"),
    ]
    sc = Script(new_game(GameConfig(ruleset, max_hands=1)))
    sc.start(
        seed=quiet_seed(),
        wall=build_wall(True, 16, 0, hands, tiles("1m 2m 3p"), tiles("5s 4s")),
    )
    sc.act(0, A.DISCARD, "5s")
    sc.act(1, A.PUNG)
    sc.pass_all()
    sc.discard_unclaimed(1, "wn")
    sc.discard_unclaimed(2, "1m")
    sc.discard_unclaimed(3, "2m")
    sc.act(0, A.DISCARD, "9m")
    sc.act(1, A.KONG)
    sc.pass_all()
    assert sc.hand.seats[1].drawn == tiles("5s")[0]
    sc.act(1, A.ADDED_KONG, "5s")
    sc.pass_all()  # (the robbing window, where the rule set has one)
    assert sc.hand.seats[1].drawn == tiles("4s")[0]
    ev = sc.act(1, A.WIN)
    (won,) = [e for e in ev if e.type == "hand_won"]
    (w,) = won.data["winners"]
    assert sorted(p["payer"] for p in w["payments"]) == [0, 2, 3]  # 當自摸: all three
    ctx = w["hand"]["context"]
    assert ctx["chain"] == ["kong-discard", "added-kong"] and ctx["kong_discarder"] == 0
    assert ctx["replacements"] == ["kong", "kong"]
    ids = [i["id"] for i in w["score"]["items"]]
    assert "chain-flower-kong-tsumo" in ids
    assert {p["reason"] for p in w["payments"]} == {"self-drawn"}
    assert _calculator_payments(sc, w) == _table_payments(w)


@pytest.mark.parametrize("ruleset", HK_KONG)
def test_kong_then_flower_then_win_is_a_self_draw(ruleset: str) -> None:
    """明槓 → flower → win: seat 1 kongs the dealer's 9m, its replacement is a flower, and
    it wins on the flower's replacement (後補花): paid by all three, not the dealer alone."""
    hands = [
        tiles("9m we ws ww wn dr dg dw 123m 567m 55p 8s"),
        tiles("999m 123p 456p 789p 11s 23s"),
        tiles("22m 33m 44m 66m 77m 88m 55s 66s"),
        tiles("we ws ww wn dr dg dw 1p 9p 2s 3s 7s 8s 9s 4p 6p"),
    ]
    sc = Script(new_game(GameConfig(ruleset, max_hands=1)))
    sc.start(
        seed=quiet_seed(),
        wall=build_wall(True, 16, 0, hands, tiles("1m 2m"), tiles("f5 4s")),
    )
    sc.act(0, A.DISCARD, "9m")
    sc.act(1, A.KONG)
    sc.pass_all()
    assert sc.hand.seats[1].drawn == tiles("4s")[0] and len(sc.hand.seats[1].flowers) == 1
    ev = sc.act(1, A.WIN)
    (won,) = [e for e in ev if e.type == "hand_won"]
    (w,) = won.data["winners"]
    assert sorted(p["payer"] for p in w["payments"]) == [0, 2, 3]  # 當自摸: all three
    ctx = w["hand"]["context"]
    assert ctx["chain"] == ["kong-discard", "flower"] and ctx["kong_discarder"] == 0
    assert "chain-flower-kong-tsumo" in [i["id"] for i in w["score"]["items"]]
    assert {p["reason"] for p in w["payments"]} == {"self-drawn"}
    assert _calculator_payments(sc, w) == _table_payments(w)


@pytest.mark.parametrize("ruleset", [r for r in PLAYABLE if get_params(r).instant])
def test_heaven_earth_slay(ruleset: str) -> None:
    """Seat 1 declares 叮 at its first draw (地聽); seat 2, not in 天聽/地聽, then self-draws
    a win: 天誅地滅, each other seat pays (an instant item next to the win's payments)."""
    hands = [
        tiles("we ws ww wn dr dg dw 1m 5m 9m 1p 5p 9p 1s 5s 9s 2m"),
        tiles("123m 456m 789m 123p 44p 68p"),
        tiles("234s 678s 345p 567p 22m 34m"),
        tiles("ws ww wn dr dg dw 6m 7m 8m 2p 8p 3s 6s 7s 8s 1s"),
    ]
    sc = Script(new_game(GameConfig(ruleset, max_hands=1)))
    sc.start(seed=quiet_seed(), wall=build_wall(True, 16, 0, hands, tiles("dr 5m"), tiles("9m")))
    sc.discard_unclaimed(0, "we")
    ev = sc.act(1, A.TING, "dr")
    assert [e.data["kind"] for e in ev if e.type == "ting"] == ["earth"]
    sc.pass_all()
    ev = sc.act(2, A.WIN)
    slay = [e.data for e in ev if e.type == "instant"]
    assert slay == [{"kind": "heaven-earth-slay", "winner": 2, "discarder": None}]
    pays = sorted(
        (e.data["payer"], e.data["amount"])
        for e in ev
        if e.type == "payment" and e.data["reason"] == "heaven-earth-slay"
    )
    assert pays == [(0, 15), (1, 15), (3, 15)]  # the seed table: 15 from each on a self-draw


@pytest.mark.parametrize("ruleset", [r for r in PLAYABLE if get_params(r).instant])
def test_three_ting_one_laugh(ruleset: str) -> None:
    """Seats 1, 2 and 3 declare 叮 at their first draws; the dealer, without 叮, self-draws a
    win: 三叮一笑 (each 叮 seat pays 15) and 天誅地滅 (they are all 地聽: 15 from each)."""
    hands = [
        tiles("234m 567m 234p 678p we we ws 3s 4s"),
        tiles("123m 456m 789m 123p 44p 68p"),
        tiles("234s 678s 345p 567p 22m 34m"),
        tiles("111p 999p 555s 999s wn wn 7s 8s"),
    ]
    sc = Script(new_game(GameConfig(ruleset, max_hands=1)))
    sc.start(
        seed=quiet_seed(), wall=build_wall(True, 16, 0, hands, tiles("dr dg dw 5s"), tiles("9m"))
    )
    sc.act(0, A.DISCARD, "ws")
    for seat, tile in ((1, "dr"), (2, "dg"), (3, "dw")):
        sc.pass_all()
        sc.act(seat, A.TING, tile)
    sc.pass_all()
    assert all(sc.hand.seats[s].ting for s in (1, 2, 3)) and sc.hand.turn == 0
    ev = sc.act(0, A.WIN)
    kinds = [e.data["kind"] for e in ev if e.type == "instant"]
    assert kinds == ["three-ting-one-laugh", "heaven-earth-slay"]
    laugh = sorted(
        (e.data["payer"], e.data["payee"], e.data["amount"])
        for e in ev
        if e.type == "payment" and e.data["reason"] == "three-ting-one-laugh"
    )
    assert laugh == [(1, 0, 15), (2, 0, 15), (3, 0, 15)]
