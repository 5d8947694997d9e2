"""The win screen explains the payments (issue 38): for every playable rule set, a hand won
by a self-draw and one won on a discard (tests/web_tests/wins.py: the table engine plays a
preset wall; the page's real client gets seat 1's frames). The page must show the winning
tile apart and labelled, every pattern, the total with its unit, and one line per payment of
the settlement the engine computed — payer, payee, amount — whose arithmetic, read off the
screen, makes that amount."""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from typing import Any

import pytest

from .test_geometry import show_scene
from .wins import RULESETS, WINNER, scripted_win

UNITS = {"mcr": "fan", "hk-tw16": "fan", "tw16-tai": "tai", "zung-jung": "points"}
UNITS["zung-jung-v3.3"] = "points"
NAMES = ("Ann", "Bob", "Cat", "Dan")


@pytest.fixture(scope="module")
def page(browser: Any) -> Iterator[Any]:
    ctx = browser.new_context(viewport={"width": 1366, "height": 768}, locale="en-US")
    p = ctx.new_page()
    yield p
    ctx.close()


def evaluate(calc: str) -> int:
    """The arithmetic a player reads ("(2 base + 5 fan) × 2 = 14"), worked out."""
    expr = calc.split("=")[0]
    expr = re.sub(r"[^\d+×÷()⌈⌉ ]", "", expr)
    expr = expr.replace("×", "*").replace("÷", "/").replace("⌈", "ceil(").replace("⌉", ")")
    return int(eval(expr, {"__builtins__": {}}, {"ceil": math.ceil}))


@pytest.mark.parametrize("how", ["self_drawn", "discard"])
@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_payment_line_is_the_settlement(
    page: Any, base_url: str, ruleset: str, how: str
) -> None:
    frames, won = scripted_win(ruleset, how == "self_drawn")
    assert won["how"] == how
    show_scene(page, base_url, frames)
    result = page.get_by_test_id("result")
    result.wait_for()
    (winner,) = won["winners"]
    assert winner["seat"] == WINNER

    # the winning tile: apart, labelled in words (not only a colour)
    wt = result.get_by_test_id("win-tile")
    assert wt.locator("[data-tile]").get_attribute("data-tile") == winner["hand"]["win_tile"]
    assert "winning tile" in (wt.get_attribute("aria-label") or "")
    assert "winning tile" in wt.inner_text()

    # every pattern with its count and value; the total with its unit
    items = winner["score"]["items"]
    rows = result.get_by_test_id("pattern")
    assert rows.count() == len(items)
    for i, item in enumerate(items):
        text = rows.nth(i).inner_text()
        want = (
            str(item["points"])
            if item["count"] == 1
            else (f"{item['points']} × {item['count']} = {item['points'] * item['count']}")
        )
        assert want in text, (item, text)
    total = result.get_by_test_id("total").inner_text()
    assert total == f"{winner['score']['total']} {UNITS[ruleset]}"

    # who pays whom how much and why: one line per payment, in the settlement's order
    lines = result.get_by_test_id("pay-lines").get_by_test_id("pay-line")
    pays = winner["payments"]
    assert lines.count() == len(pays)
    for i, pay in enumerate(pays):
        line = lines.nth(i)
        assert int(line.get_attribute("data-payer")) == pay["payer"]
        assert int(line.get_attribute("data-payee")) == pay["payee"]
        assert int(line.get_attribute("data-amount")) == pay["amount"]
        text = line.inner_text()
        assert f"{NAMES[pay['payer']]} → {NAMES[pay['payee']]}" in text
        calc = line.get_by_test_id("pay-calc").inner_text()
        assert calc.split("=")[-1].split("(")[0].strip() == str(pay["amount"]), calc
        assert evaluate(calc) == pay["amount"], calc
        for part in pay["parts"]:
            assert str(part["value"]) in calc, (part, calc)

    # the net of the hand, per seat
    net = [0, 0, 0, 0]
    for pay in pays:
        net[pay["payer"]] -= pay["amount"]
        net[pay["payee"]] += pay["amount"]
    shown = result.get_by_test_id("payments").locator("td.num").all_inner_texts()
    want_net = [f"+{v}" if v > 0 else f"−{-v}" if v < 0 else "±0" for v in net]
    assert shown == want_net
