"""Basic points, the limits (mangan … yakuman) and what each player pays.

Below the limits a hand's basic points are ``fu × 2^(han + 2)``; they are capped at mangan
(2000) from 5 han, or below 5 han when they exceed 2000 (4 han 40 fu, 3 han 70 fu). Kiriage
mangan (a house rule, off by default) also rounds 4 han 30 fu and 3 han 60 fu up to mangan.
Haneman 6-7 han (3000), baiman 8-10 (4000), sanbaiman 11-12 (6000); 13 or more han without a
yakuman are kazoe yakuman (8000; with the house rule off, sanbaiman). A yakuman hand is worth
8000 per yakuman it holds (a double form counts twice).

A ron is paid by the discarder: 4 × basic points (6 × for the dealer), rounded up to 100. A
self-draw: a non-dealer receives 2 × basic from the dealer and 1 × from each other player; the
dealer 2 × from each; every payment rounded up to 100. Honba and riichi deposits are settled
on top and are no part of a hand's value.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["MULTIPLES", "Value", "hand_value"]

#: The limit name of n yakuman.
MULTIPLES = {
    1: "yakuman",
    2: "double-yakuman",
    3: "triple-yakuman",
    4: "quadruple-yakuman",
    5: "quintuple-yakuman",
    6: "sextuple-yakuman",
}


def _up100(x: int) -> int:
    return -(-x // 100) * 100


@dataclass(frozen=True, slots=True)
class Value:
    """What a hand is worth: basic points, the limit reached (None below mangan) and the
    payments (``ron``; or ``dealer`` and ``non_dealer`` each pay on a self-draw)."""

    basic: int
    limit: str | None
    payments: dict[str, int]
    total: int


def hand_value(
    han: int,
    fu: int | None,
    *,
    yakuman: int,
    dealer: bool,
    self_drawn: bool,
    kazoe: bool = True,
    kiriage: bool = False,
) -> Value:
    """The value of a hand of ``han`` and ``fu`` holding ``yakuman`` yakuman (0: none)."""
    limit: str | None
    if yakuman:
        basic, limit = 8000 * yakuman, MULTIPLES[min(yakuman, 6)]
    elif han >= 13:
        basic, limit = (8000, "kazoe-yakuman") if kazoe else (6000, "sanbaiman")
    elif han >= 11:
        basic, limit = 6000, "sanbaiman"
    elif han >= 8:
        basic, limit = 4000, "baiman"
    elif han >= 6:
        basic, limit = 3000, "haneman"
    elif han == 5:
        basic, limit = 2000, "mangan"
    else:
        if fu is None:
            raise ValueError("a hand below the limits needs its fu")
        basic, limit = fu * 2 ** (han + 2), None
        if basic > 2000 or (kiriage and (han, fu) in ((4, 30), (3, 60))):
            basic, limit = 2000, "mangan"
    if not self_drawn:
        pay = {"ron": _up100(basic * (6 if dealer else 4))}
        total = pay["ron"]
    elif dealer:
        pay = {"non_dealer": _up100(2 * basic)}
        total = 3 * pay["non_dealer"]
    else:
        pay = {"dealer": _up100(2 * basic), "non_dealer": _up100(basic)}
        total = pay["dealer"] + 2 * pay["non_dealer"]
    return Value(basic, limit, pay, total)
