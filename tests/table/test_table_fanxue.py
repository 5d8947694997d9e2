"""反雪 (hk-tw16): a seat that dealt into 雙響 / 三響 and self-draws in the next hand scores
twice the bonus it suffered, paid by the winners of that hand only (docs/rules/hk-tw16.md;
the table keeps the record from hand to hand, docs/table.md "反雪"). The record's rules
table-driven; then a scripted two-hand game with hand-built walls through the real engine
and the real hk-tw16 scoring."""

from __future__ import annotations

from typing import Any

import pytest
from table_testlib import Script, tiles

import scoring
from scoring.settlement import fanxue_owed, fanxue_record
from table import ActionType, GameConfig, Phase, new_game
from table.wall import build_wall

A = ActionType


@pytest.mark.parametrize(
    ("last", "discarder", "winners", "bonus", "expected"),
    [
        # a first 雙響: the discarder owes nothing yet; the record names the two winners
        (None, 0, [1, 2], 5, {"0": {"bonus": 5, "payers": [1, 2]}}),
        ({"hand": 3, "winners": []}, 2, [3, 0, 1], 15, {"2": {"bonus": 15, "payers": [0, 1, 3]}}),
        # the same seat again in the next hand: accumulated, payers of both hands
        (
            {"hand": 3, "winners": [1, 2], "fanxue": {"0": {"bonus": 5, "payers": [1, 2]}}},
            0,
            [2, 3],
            5,
            {"0": {"bonus": 10, "payers": [1, 2, 3]}},
        ),
        # another seat's record does not carry over (it expires with the hand)
        (
            {"hand": 3, "winners": [1, 2], "fanxue": {"0": {"bonus": 5, "payers": [1, 2]}}},
            3,
            [0, 1],
            5,
            {"3": {"bonus": 5, "payers": [0, 1]}},
        ),
    ],
)
def test_fanxue_record(
    last: dict[str, Any] | None,
    discarder: int,
    winners: list[int],
    bonus: int,
    expected: dict[str, Any],
) -> None:
    assert fanxue_record(last, discarder, winners, bonus) == expected


def test_fanxue_owed() -> None:
    last = {"hand": 1, "winners": [1, 2], "fanxue": {"0": {"bonus": 5, "payers": [1, 2]}}}
    assert fanxue_owed(last, 0) == (5, [1, 2])
    assert fanxue_owed(last, 1) is None
    assert fanxue_owed({"hand": 1, "winners": [3]}, 0) is None
    assert fanxue_owed(None, 0) is None


def _double_ron(sc: Script) -> None:
    """Hand 1, dealer 0: its 5p is won by seats 1 (pure pins, 4p-6p) and 2 (pair wait)."""
    hands = [
        tiles("5p 111s 999s 111m 999m we we ws ws"),
        tiles("111p 222p 333p 789p 99p 4p 6p"),
        tiles("123s 456s 789s 222m 333m 5p"),
        tiles("dr dr dr dg dg dg dw dw dw wn wn wn 7m 8m 4s 5s"),
    ]
    sc.start(seed=b"fanxue-hand-0001", wall=build_wall(True, 16, 0, hands))
    sc.act(0, A.DISCARD, "5p")
    sc.act(1, A.WIN)
    sc.act(2, A.WIN)
    sc.pass_all()


def _self_draw_by_seat_0(sc: Script) -> None:
    """Hand 2, dealer 1 (the deal passed): seat 0 draws 5p on its first turn and wins."""
    hands = [
        tiles("111p 222p 333p 789p 99p 4p 6p"),
        tiles("we we we ws ws ws ww ww ww 1m 1m 1m 9m 9m 9m dr 5s"),
        tiles("123s 456s 789s 222m 333m 7p"),
        tiles("dg dg dg dw dw dw wn wn wn 7m 8m 4s 6s 2p 3p 8p"),
    ]
    sc.start(seed=b"fanxue-hand-0002", wall=build_wall(True, 16, 1, hands, tiles("dr dr 5p")))
    sc.discard_unclaimed(1, "5s")
    sc.discard_unclaimed(2, "dr")
    sc.discard_unclaimed(3, "dr")
    sc.act(0, A.WIN)


def _won(sc: Script) -> dict[str, Any]:
    return next(e for e in reversed(sc.events) if e.type == "hand_won").data


def test_a_double_ron_then_the_discarders_self_draw_scores_fanxue() -> None:
    sc = Script(new_game(GameConfig("hk-tw16", max_hands=3)))
    _double_ron(sc)
    first = _won(sc)
    assert [w["seat"] for w in first["winners"]] == [1, 2] and first["discarder"] == 0
    double = [i for i in first["winners"][0]["score"]["items"] if i["id"] == "double-win"]
    bonus = sum(i["points"] * i.get("count", 1) for i in double)
    assert bonus > 0  # 雙響, valued by the rule set
    assert sc.state.last_result is not None
    assert sc.state.last_result["fanxue"] == {"0": {"bonus": bonus, "payers": [1, 2]}}
    assert sc.state.dealer == 1 and sc.state.phase is Phase.BETWEEN_HANDS

    _self_draw_by_seat_0(sc)
    won = _won(sc)
    assert won["how"] == "self_drawn" and won["winners"][0]["seat"] == 0
    score = won["winners"][0]["score"]
    fanxue = [i for i in score["items"] if i["id"] == "fanxue"]
    assert len(fanxue) == 1
    fan = fanxue[0]["points"] * fanxue[0].get("count", 1)
    assert fan == 2 * bonus  # 反雪: twice the bonus suffered
    pays = {p["payer"]: p["amount"] for p in won["winners"][0]["payments"]}
    assert set(pays) == {1, 2, 3}
    # seats 2 and 3 are both non-dealers: the only difference is 反雪, which 2 (a winner of
    # the 雙響) pays and 3 does not; seat 1 (a winner too) also pays the dealer's 莊
    per_fan = scoring.get_ruleset("hk-tw16").settlement_defaults()["per_fan"]
    assert pays[2] - pays[3] == fan * per_fan
    assert pays[1] > pays[2]  # 反雪 and 莊
    # the record was used: it expires with hand 2 (no multiple win there)
    assert sc.state.last_result is not None and "fanxue" not in sc.state.last_result


def test_no_fanxue_without_the_record() -> None:
    """The same self-draw in a first hand (nobody dealt into a multiple win before): no 反雪."""
    sc = Script(new_game(GameConfig("hk-tw16", max_hands=3, first_dealer=1)))
    _self_draw_by_seat_0(sc)
    items = _won(sc)["winners"][0]["score"]["items"]
    assert not [i for i in items if i["id"] == "fanxue"]
