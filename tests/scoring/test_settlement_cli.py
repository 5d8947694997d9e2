"""``mahjong-score`` with the seats: payments and their net, the table's settlement code."""

from __future__ import annotations

import io
import json

from scoring.cli import main
from scoring.settlement import score_and_settle

HAND = {
    "ruleset": "zung-jung",
    "concealed": ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "4p", "6p", "1s", "1s"],
    "win_tile": "5p",
    "seat_wind": "ws",
    "context": {"seat": 1, "discarder": 3, "dealer_seat": 0, "streak": 0},
}


def test_payments_from_the_seats() -> None:
    r = score_and_settle(HAND)
    assert r["error"] is None and r["total"] == 60
    assert r["payments"] == [
        {
            "payer": 3,
            "payee": 1,
            "amount": 60,
            "reason": "discarder",
            "parts": [{"kind": "points", "value": 60}],
        }
    ]
    assert r["net"] == [0, 60, 0, -60]
    r = score_and_settle({**HAND, "settlement": {"discard": "everyone"}})
    assert r["net"] == [-60, 180, -60, -60]
    bad = score_and_settle({**HAND, "settlement": {"dicard": "everyone"}})
    assert bad["error_code"] == "invalid-options"
    assert "payments" not in score_and_settle({**HAND, "context": {}})


def test_several_winners_and_text() -> None:
    second = {**HAND, "seat_wind": "wn", "context": {**HAND["context"], "seat": 2}}
    r = score_and_settle({"winners": [HAND, second]})
    assert [p["payee"] for p in r["payments"]] == [1, 2] and r["net"] == [0, 60, 60, -120]
    out = io.StringIO()
    assert main(["--text"], io.StringIO(json.dumps(HAND)), out) == 0
    assert "seat 3 pays seat 1     60  (discarder)" in out.getvalue()
    assert "net: seat 0 +0  seat 1 +60  seat 2 +0  seat 3 -60" in out.getvalue()


def test_an_instant_payment_is_its_own_input() -> None:
    r = score_and_settle({"ruleset": "hk-tw16", "instant": {"kind": "one-flower-set", "seat": 2}})
    assert r["error"] is None and sum(r["net"]) == 0 and r["net"][2] > 0
    assert {p["reason"] for p in r["payments"]} == {"one-flower-set"}
