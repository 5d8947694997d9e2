"""Settlement of a hand: who pays whom, the same code for the table and ``mahjong-score``.

* :func:`settle_hand` — the payments of one hand's winner or winners (several on one
  discard: 雙響 / 三響, each settled against the discarder in turn order), the dealer and its
  run (連n) and the room's settlement options passed to the rule set's
  :meth:`~scoring.engine.RuleSet.settle`; 反雪 rides on the winner's scored items (the win
  context's ``fanxue`` / ``fanxue_payers``).
* :func:`fanxue_record` / :func:`fanxue_owed` — the 反雪 record a hand leaves for the next
  one, and what it owes (hk-tw16).
* :func:`score_and_settle` — the JSON entry point of ``mahjong-score``: a hand (or
  ``{"winners": [hand, …]}``) whose context gives the seats (``seat``, ``discarder``,
  ``dealer_seat``, ``streak``) gains ``payments`` (each transfer: payer, payee, amount,
  reason) and ``net`` (per seat, summing to zero); ``settlement`` holds the rule set's
  options. ``{"ruleset": "hk-tw16", "instant": event}`` values an instant payment (即收 /
  即罰) as the table does. Seats that contradict the win are refused
  (:func:`check_seating`, :class:`~scoring.errors.SeatingError` and its codes).

Pure: no state, no I/O.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from typing import Any

from scoring.engine import (
    Payment,
    RuleSet,
    ScoreResult,
    Seating,
    get_ruleset,
    hand_and_ruleset,
    net,
    score,
)
from scoring.errors import InvalidHandError, ScoringError, SeatingError
from scoring.hand import Hand

__all__ = [
    "MULTI_WIN_IDS",
    "check_seating",
    "fanxue_owed",
    "fanxue_record",
    "multi_win_bonus",
    "score_and_settle",
    "settle_hand",
]

#: the scoring items that value a multiple win (雙響 / 三響) in the rule sets that play 反雪
MULTI_WIN_IDS = frozenset({"double-win", "triple-win"})


def settle_hand(
    rs: RuleSet[Any],
    wins: Sequence[tuple[int, ScoreResult]],
    *,
    payer: int | None,
    dealer: int,
    streak: int,
    options: Mapping[str, Any] | None = None,
    players: int = 4,
) -> list[list[Payment]]:
    """The payments of each winner (``(seat, result)`` in the order they are settled):
    ``payer`` is the discarder / the robbed kong's owner / the flower win's loser, None on a
    self-draw; ``options`` the room's settlement options. A payment without a reason is
    ``"win"``."""
    out: list[list[Payment]] = []
    for seat, res in wins:
        pays = rs.settle(
            res,
            Seating(winner=seat, discarder=payer, dealer=dealer, streak=streak, players=players),
            dict(options or {}),
        )
        out.append(
            [Payment(p.payer, p.payee, p.amount, p.reason or "win", p.parts, p.share) for p in pays]
        )
    return out


def multi_win_bonus(results: Sequence[ScoreResult]) -> int:
    """The 雙響 / 三響 bonus as the rule set valued it (the same for each winner: the last)."""
    bonus = 0
    for res in results:
        bonus = sum(item.total for item in res.items if item.id in MULTI_WIN_IDS)
    return bonus


def _fanxue_of(last_result: Mapping[str, Any] | None, seat: int) -> Mapping[str, Any] | None:
    """The 反雪 record the last hand left for ``seat`` (None: none)."""
    rec: Mapping[str, Any] | None = ((last_result or {}).get("fanxue") or {}).get(str(seat))
    return rec


def fanxue_record(
    last_result: Mapping[str, Any] | None, discarder: int, winners: list[int], bonus: int
) -> dict[str, Any]:
    """The 反雪 record a hand leaves when ``discarder`` dealt into several ``winners`` at
    once, valued ``bonus`` (雙響 5, 三響 15 in hk-tw16): ``{seat: {"bonus", "payers"}}``.
    Accumulated over consecutive hands ("累積已被雙響或三響番數額外番數總和"): if the same
    seat had dealt into a multiple win in the hand before too (its record is still in
    ``last_result``), the bonuses add up and the payers are the winners of both. Pure."""
    before = _fanxue_of(last_result, discarder) or {}
    return {
        str(discarder): {
            "bonus": int(before.get("bonus", 0)) + bonus,
            "payers": sorted({*before.get("payers", ()), *winners}),
        }
    }


def fanxue_owed(last_result: Mapping[str, Any] | None, seat: int) -> tuple[int, list[int]] | None:
    """(bonus, payers) of 反雪 for ``seat`` self-drawing in this hand: it dealt into 雙響 /
    三響 in the previous hand (the record that hand left), else None. "放槍者於被雙響或三響後的一局
    自摸胡牌 … 反雪只會加在於上一局榮和／連續榮和之玩家"."""
    rec = _fanxue_of(last_result, seat)
    if not rec:
        return None
    return int(rec["bonus"]), [int(p) for p in rec["payers"]]


# -- mahjong-score ---------------------------------------------------------------------------


def _error(ruleset: Any, e: ScoringError) -> dict[str, Any]:
    return {
        "ruleset": ruleset if isinstance(ruleset, str) else None,
        "total": 0,
        "minimum_met": False,
        "error": str(e),
        "error_code": e.code,
        "items": [],
        "arrangement": None,
        "waits": [],
    }


def _payments_json(pays: Sequence[Payment], players: int = 4) -> dict[str, Any]:
    return {"payments": [{**p.to_json(), **p.explained()} for p in pays], "net": net(pays, players)}


def instant_settler(rs: RuleSet[Any]) -> Any:
    """The rule set's ``instant_payments(event, players, options)`` (hk-tw16), if any."""
    mod = sys.modules.get(type(rs).__module__)
    return getattr(mod, "instant_payments", None)


def score_and_settle(obj: Any) -> dict[str, Any]:
    """``mahjong-score``'s entry point: :func:`scoring.score`, plus the payments when the
    input says who sits where (see the module docstring). Never raises for bad input."""
    if type(obj) is not dict and not isinstance(obj, Mapping):
        return score(obj)
    ruleset = obj.get("ruleset")
    options = obj.get("settlement")
    try:
        if options is not None and (type(options) is not dict and not isinstance(options, Mapping)):
            raise InvalidHandError("'settlement' must be an object of settlement options")
        if "instant" in obj:
            return _instant(obj, options)
        if "winners" in obj:
            return _several(obj, options)
    except ScoringError as e:
        return _error(ruleset, e)
    hand_obj = {k: v for k, v in obj.items() if k != "settlement"}
    result = score(hand_obj)
    if result.get("error"):
        return result
    try:
        hand, rs = hand_and_ruleset(hand_obj)
        check_seating(hand)
        pays = _settle_hands(rs, [hand], options)
    except ScoringError as e:
        return _error(ruleset, e)
    if pays is not None:
        result.update(_payments_json(pays))
    return result


def check_seating(hand: Hand) -> None:
    """Refuse a hand whose seats contradict its win (:class:`SeatingError`, naming the
    field): the discarder is the winner; a self-drawn hand names a discarder. (A discard win
    without a discarder is refused where the payments are settled: :func:`_settle_hands`.)"""
    c = hand.context
    if c.discarder is not None and c.discarder == c.seat:
        raise SeatingError(
            f"context 'discarder' is the winner's own seat ({c.seat}): a seat cannot win "
            "on its own discard",
            "discarder-is-winner",
        )
    if hand.win.self_drawn and c.discarder is not None:
        raise SeatingError(
            f"context 'discarder' ({c.discarder}) is given but 'win.self_drawn' is true: a "
            "self-drawn win has no discarder (a 包 payer goes in 'kong_discarder')",
            "self-drawn-with-discarder",
        )
    if c.kong_discarder is not None and c.kong_discarder == c.seat:
        raise SeatingError(
            f"context 'kong_discarder' is the winner's own seat ({c.seat})",
            "discarder-is-winner",
        )


def _one_winner(rs: RuleSet[Any], hands: Sequence[Hand]) -> None:
    """A rule set that takes one winner on a discard (``params["max_winners"]``, MCR: 1)
    refuses several: the table takes the next in turn after the discarder (截和)."""
    most = rs.params.get("max_winners")
    if not isinstance(most, int) or len(hands) <= most:
        return
    seats = [h.context.seat for h in hands]
    d = hands[0].context.discarder
    head = None
    if d is not None and all(isinstance(s, int) for s in seats):
        head = min(seats, key=lambda s: (int(s or 0) - d) % 4)
    took = f": the next in turn after the discarder, seat {head}" if head is not None else ""
    raise SeatingError(
        f"'winners': {rs.name} takes one winner on a discard{took} (截和), not {len(hands)}",
        "one-winner-only",
    )


def _settle_hands(
    rs: RuleSet[Any], hands: Sequence[Hand], options: Mapping[str, Any] | None
) -> list[Payment] | None:
    """The payments of the hands (one hand's winners), or None when the seats are unknown."""
    c = hands[0].context
    if any(h.context.seat is None for h in hands) or c.dealer_seat is None:
        return None
    for h in hands:
        if not h.win.self_drawn and h.context.discarder is None and h.context.flower_win is None:
            raise SeatingError(
                "context 'discarder' is missing: a win on a discard (win.self_drawn false) is "
                "paid by its discarder",
                "discard-without-discarder",
            )
    for h in hands:
        if (h.context.discarder, h.context.dealer_seat, h.context.streak) != (
            c.discarder,
            c.dealer_seat,
            c.streak,
        ):
            raise InvalidHandError("the winners' contexts differ in discarder, dealer or streak")
    rs.validate_settlement(options)
    wins = []
    for h in hands:
        seat = h.context.seat
        assert seat is not None
        wins.append((seat, rs.score(h)))
    per = settle_hand(
        rs, wins, payer=c.discarder, dealer=c.dealer_seat, streak=c.streak, options=options
    )
    return [p for pays in per for p in pays]


def _several(obj: Mapping[str, Any], options: Mapping[str, Any] | None) -> dict[str, Any]:
    raw = obj.get("winners")
    if not isinstance(raw, list) or not raw:
        raise InvalidHandError("'winners' must be a non-empty list of hands")
    results = [score(h) for h in raw]
    for r in results:
        if r.get("error"):
            raise InvalidHandError(f"a winner's hand: {r['error']}")
    parsed = [hand_and_ruleset(h) for h in raw]
    hands = [h for h, _ in parsed]
    if len({h.ruleset for h in hands}) != 1:
        raise InvalidHandError("the winners' hands are for different rule sets")
    rs = parsed[0][1]
    for h in hands:
        check_seating(h)
    _one_winner(rs, hands)
    out: dict[str, Any] = {"ruleset": rs.name, "error": None, "results": results}
    pays = _settle_hands(rs, hands, options)
    if pays is None:
        raise InvalidHandError("several winners: each hand's context needs seat and dealer_seat")
    out.update(_payments_json(pays))
    return out


def _instant(obj: Mapping[str, Any], options: Mapping[str, Any] | None) -> dict[str, Any]:
    rs = get_ruleset(str(obj.get("ruleset")))
    event = obj.get("instant")
    if type(event) is not dict and not isinstance(event, Mapping):
        raise InvalidHandError("'instant' must be an event object")
    settler = instant_settler(rs)
    if settler is None:
        raise InvalidHandError(f"{rs.name} has no instant payments")
    try:
        pays = settler(event, 4, options)
    except (KeyError, TypeError, ValueError) as e:
        raise InvalidHandError(f"instant event: {e}") from None
    kind = str(event.get("kind"))  # the table's payment reason
    pays = [Payment(p.payer, p.payee, p.amount, kind) for p in pays]
    return {"ruleset": rs.name, "error": None, **_payments_json(pays)}
