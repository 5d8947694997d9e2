"""``mahjong-score``'s settlement input: 包 decided from the chain the hand says it held
(hk-tw16), inputs whose seats contradict the win refused with a code naming the case, and
MCR's under-minimum message (issue 34)."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.settlement import score_and_settle

JSON = dict[str, Any]

SEATS = {"seat": 1, "dealer_seat": 0, "streak": 0}

#: seat 1's 槓上自摸 on the replacement of a kong of the dealer's 9m (hk-tw16, 16 tiles)
KONG_9M = {"kind": "kong", "tiles": ["9m"] * 4, "claimed": "9m", "from": "left"}
HK_KONG_WIN: JSON = {
    "ruleset": "hk-tw16",
    "concealed": ["1p", "2p", "3p", "4p", "5p", "6p", "7p", "8p", "9p", "1s", "1s", "2s", "3s"],
    "melds": [KONG_9M],
    "flowers": ["f5"],
    "win_tile": "4s",
    "win": {"self_drawn": True, "kong_replacement": True},
    "seat_wind": "ws",
}
#: the same after a 補槓: the pung of 5s (from the dealer) made a kong
HK_TWO_KONGS: JSON = {
    **HK_KONG_WIN,
    "concealed": ["1p", "2p", "3p", "4p", "5p", "6p", "1s", "1s", "2s", "3s"],
    "melds": [
        {"kind": "kong", "tiles": ["5s"] * 4, "claimed": "5s", "from": "left", "added": True},
        KONG_9M,
    ],
    "flowers": [],
}


def _payers(r: JSON) -> list[tuple[int, str]]:
    assert r["error"] is None, r["error"]
    return sorted((p["payer"], p["reason"]) for p in r["payments"])


ALL_THREE = [(0, "self-drawn"), (2, "self-drawn"), (3, "self-drawn")]
BAO = [(0, "kong-liability")]


@pytest.mark.parametrize(
    ("hand", "context", "payers"),
    [
        # 明槓 → win: 包, the kong's discarder alone
        (HK_KONG_WIN, {"chain": ["kong-discard"], "kong_discarder": 0}, BAO),
        # 明槓 → 補槓 → win, 明槓 → flower → win, 明槓 → 暗槓 → win: 當自摸
        (HK_TWO_KONGS, {"chain": ["kong-discard", "added-kong"], "kong_discarder": 0}, ALL_THREE),
        (HK_KONG_WIN, {"chain": ["kong-discard", "flower"], "kong_discarder": 0}, ALL_THREE),
        (
            HK_TWO_KONGS,
            {"chain": ["kong-discard", "concealed-kong"], "kong_discarder": 0},
            ALL_THREE,
        ),
        # the older form (no chain): kong_discarder pays, as before
        (HK_KONG_WIN, {"replacements": ["kong"], "kong_discarder": 0}, BAO),
        (HK_KONG_WIN, {"replacements": ["kong", "flower"], "kong_discarder": 0}, BAO),
        # no 明槓 at the start: a self-draw
        (HK_KONG_WIN, {"chain": ["concealed-kong"]}, ALL_THREE),
    ],
)
def test_kong_liability_follows_the_chain(hand: JSON, context: JSON, payers: list[Any]) -> None:
    r = score_and_settle({**hand, "context": {**SEATS, **context}})
    assert _payers(r) == payers
    ids = {i["id"] for i in r["items"]}
    assert ids & {"kong-tsumo", "chain-flower-kong-tsumo", "flower-tsumo"}


@pytest.mark.parametrize(
    ("context", "message"),
    [
        ({"chain": ["added-kong"], "kong_discarder": 0}, "does not start with 'kong-discard'"),
        ({"chain": ["flower", "kong-discard"]}, "'kong-discard' can only come first"),
        ({"chain": ["kong-discard"], "replacements": ["flower"]}, "differs from 'chain'"),
        ({"chain": ["kong"]}, "context 'chain' must be a list of"),
    ],
)
def test_a_chain_that_cannot_be_is_refused(context: JSON, message: str) -> None:
    r = score_and_settle({**HK_KONG_WIN, "context": {**SEATS, **context}})
    assert r["error_code"] == "invalid-hand" and message in r["error"]


#: a zung-jung win on seat 3's discard (60 points), and a second winner of it
ZJ: JSON = {
    "ruleset": "zung-jung",
    "concealed": ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "4p", "6p", "1s", "1s"],
    "win_tile": "5p",
    "seat_wind": "ws",
    "context": {"seat": 1, "discarder": 3, "dealer_seat": 0, "streak": 0},
}
#: an MCR win on seat 3's discard (13 points)
MCR: JSON = {
    "ruleset": "mcr",
    "concealed": ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "2m", "3m", "4m", "5s"],
    "win_tile": "5s",
    "seat_wind": "ws",
    "context": {"seat": 1, "discarder": 3, "dealer_seat": 0, "streak": 0},
}


def _with(hand: JSON, win: JSON | None = None, **context: Any) -> JSON:
    out = {**hand, "context": {**hand["context"], **context}}
    if win is not None:
        out["win"] = win
    return out


def _other(hand: JSON, seat: int) -> JSON:
    return _with(hand, seat=seat)


@pytest.mark.parametrize(
    ("name", "given", "code", "field"),
    [
        ("discarder is the winner", _with(ZJ, discarder=1), "discarder-is-winner", "discarder"),
        (
            "hk-tw16: discarder is the winner",
            {**HK_KONG_WIN, "win": {}, "context": {**SEATS, "discarder": 1}},
            "discarder-is-winner",
            "discarder",
        ),
        (
            "mcr: self-drawn with a discarder",
            _with(MCR, {"self_drawn": True}),
            "self-drawn-with-discarder",
            "discarder",
        ),
        (
            "mcr: discard win without a discarder",
            _with(MCR, discarder=None),
            "discard-without-discarder",
            "discarder",
        ),
        (
            "kong discarder is the winner",
            {**HK_KONG_WIN, "context": {**SEATS, "chain": ["kong-discard"], "kong_discarder": 1}},
            "discarder-is-winner",
            "kong_discarder",
        ),
        (
            "self-drawn with a discarder",
            _with(ZJ, {"self_drawn": True}),
            "self-drawn-with-discarder",
            "discarder",
        ),
        (
            "discard win without a discarder",
            _with(ZJ, discarder=None),
            "discard-without-discarder",
            "discarder",
        ),
        (
            "two MCR winners on one discard",
            {"winners": [MCR, _other(MCR, 2)]},
            "one-winner-only",
            "winners",
        ),
        (
            "discarder is the winner, several winners",
            {"winners": [ZJ, _with(ZJ, seat=3)]},
            "discarder-is-winner",
            "discarder",
        ),
    ],
)
def test_inputs_whose_seats_contradict_the_win_are_refused(
    name: str, given: JSON, code: str, field: str
) -> None:
    r = score_and_settle(given)
    assert r["error_code"] == code, (name, r.get("error"))
    assert f"'{field}'" in r["error"]
    assert "payments" not in r


def test_mcr_says_which_winner_it_takes_and_the_other_rule_sets_pay_both() -> None:
    r = score_and_settle({"winners": [MCR, _other(MCR, 2)]})
    assert "mcr takes one winner" in r["error"] and "seat 1" in r["error"]
    r = score_and_settle({"winners": [_other(MCR, 2), MCR]})
    assert "seat 1" in r["error"]  # the next in turn after the discarder (3): seat 0, 1, 2
    r = score_and_settle({"winners": [ZJ, _other(ZJ, 2)]})
    assert r["error"] is None and r["net"] == [0, 60, 60, -120]


def test_the_inputs_that_were_right_still_settle() -> None:
    assert score_and_settle(ZJ)["net"] == [0, 60, 0, -60]
    assert score_and_settle(MCR)["error"] is None
    drawn = _with(ZJ, {"self_drawn": True}, discarder=None)
    assert score_and_settle(drawn)["error"] is None
    # a discard win scored without the seats: nothing to settle, nothing refused
    assert score_and_settle({**ZJ, "context": {}})["error"] is None


def test_mcr_under_the_minimum_gives_the_points_without_flowers() -> None:
    """5 + 1 points and four flowers: the message counts 6, not the 10 with the flowers."""
    hand = {
        "ruleset": "mcr",
        "concealed": ["1m", "2m", "3m", "4m", "5m", "6m", "2p", "3p", "4p", "7s", "8s", "9s", "5s"],
        "win_tile": "5s",
        "flowers": ["f1", "f2", "f3", "f4"],
        "seat_wind": "ws",
        "context": {"seat": 1, "discarder": 3, "dealer_seat": 0, "streak": 0},
    }
    r = score_and_settle(hand)
    assert r["error_code"] == "invalid-hand"
    assert r["error"] == "6 points (8 needed, flowers not counted): not a win"
