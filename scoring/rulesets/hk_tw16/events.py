"""即收 (instant) and 即罰 (penalty) items of 港式台牌: paid at once, not part of a win's fan.

The table engine detects the facts (a player completes a flower set, the dealer's dice, a
concealed kong, four identical discards in a row …), builds an event dict and settles it with
:func:`instant_payments`. Each rule says whether it can occur on a server at all: penalties
for handling physical tiles (倒牌, 拿錯牌, 叫碰不碰 …) cannot, because the server validates
every action before it happens.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scoring.engine import Payment
from scoring.errors import ScoringError
from scoring.rulesets.hk_tw16.data import EN, table
from scoring.tiles import Tile

__all__ = [
    "EVENT_RULES",
    "EventRule",
    "chase_events",
    "dice_event",
    "flower_set_events",
    "instant_payments",
    "self_chase_events",
]


@dataclass(frozen=True, slots=True)
class EventRule:
    """An instant or penalty rule: amounts in fan, and whether a server can see it happen."""

    id: str
    name: str
    en: str
    category: str  # instant | penalty
    amount: int  # the (open) amount
    amount_closed: int  # the second amount of 5/10 style rules (== amount otherwise)
    on_server: bool  # can it happen when the server enforces the rules?
    note: str


_NOTES: dict[str, tuple[bool, str]] = {
    "three-ting-one-laugh": (
        True,
        "each of the three ready players pays the winner 15 (not if one of them won)",
    ),
    "heaven-earth-slay": (
        True,
        "the winner against a 天聽/地聽 player: the discarder pays 10, or each other "
        "player 15 on a self-draw",
    ),
    "one-grass": (True, "梅蘭菊竹 in one hand: each other player pays 3; once per hand"),
    "one-flower-set": (
        True,
        "春夏秋冬 in one hand: each other player pays 5; once; after it no 一台草 is "
        "collected; both sets held at the deal: only 一台花",
    ),
    "wei-dice": (True, "the dealer's three dice alike: each other player pays the dealer 5"),
    "one-two-three": (True, "the dealer's dice 1-2-3 or 4-5-6: each other player pays 5"),
    "hidden-kong-pay": (
        True,
        "a concealed kong with no exposed set: each other player pays 5; a 天槓 (declared "
        "before the first draw) 10",
    ),
    "false-win": (
        False,
        "the server only accepts a win the scorer verifies, so no hand is ever opened falsely",
    ),
    "zhen-ting": (
        False,
        "(i) a win before 過水 is refused by the server's legality check; (ii)/(iii) touching "
        "tiles does not exist online",
    ),
    "chase": (
        True,
        "four players in a row discard the same tile: the first of them pays each other "
        "player 5 (honour/terminal) or 10 (simple); repeated chases add up",
    ),
    "self-chase": (
        True,
        "a player discards the same self-drawn tile four times in a hand: pays each other "
        "player 5 (honour/terminal) or 10 (simple)",
    ),
    "call-pong-no": (False, "a claim is only offered when it is legal"),
    "call-kong-no": (False, "a claim is only offered when it is legal"),
    "no-draw-discard": (False, "the server draws and discards in turn; nothing out of turn"),
    "wrong-tile": (False, "the server moves the claimed tile itself"),
    "hide-kong": (False, "the server reveals every concealed kong at the end of the hand"),
    "wrong-kong": (False, "the server checks the four tiles of a concealed kong"),
    "paicheng": (False, "there is no tray to upset"),
}


def _rules() -> dict[str, EventRule]:
    out: dict[str, EventRule] = {}
    for pid, d in table().items():
        if d.category not in ("instant", "penalty") and pid not in _NOTES:
            continue
        on_server, note = _NOTES[pid]
        if d.kind == "open-closed":
            a, b = d.open, d.closed
        elif d.kind == "penalty":
            a = b = 30 if pid == "false-win" else 0
        else:
            a = b = d.n
        out[pid] = EventRule(pid, d.name, EN[pid], d.category, a, b, on_server, note)
    return out


#: Every instant and penalty rule of the table (18), by id.
EVENT_RULES: dict[str, EventRule] = _rules()


# -- detection helpers the table engine calls ---------------------------------------------


def flower_set_events(flowers_in_order: Sequence[Tile], at_deal: int = 0) -> list[str]:
    """Which flower-set payments a player collects, given the order in which the flowers
    arrived (the first ``at_deal`` were in the dealt hand, before any replacement).

    一台花 (f1-f4) and 一台草 (f5-f8) are collected once each; after 一台花 no 一台草 is
    collected ("先花，不能再收草"), while 一台草 first still allows 一台花 ("先草，可再收花").
    Both sets in the dealt hand: only 一台花.
    """
    seasons = {Tile.F1, Tile.F2, Tile.F3, Tile.F4}
    plants = {Tile.F5, Tile.F6, Tile.F7, Tile.F8}
    held: set[Tile] = set()
    out: list[str] = []
    dealt = set(flowers_in_order[:at_deal])
    if seasons <= dealt:
        return ["one-flower-set"]
    for i, f in enumerate(flowers_in_order):
        held.add(f)
        if i + 1 < at_deal:
            continue
        if "one-flower-set" not in out and seasons <= held:
            out.append("one-flower-set")
        if "one-grass" not in out and "one-flower-set" not in out and plants <= held:
            out.append("one-grass")
    return out


def dice_event(dice: Sequence[int]) -> str | None:
    """圍骰 (three alike) or 一二三/四五六 for the dealer's throw, else None."""
    if len(dice) != 3 or any(not 1 <= d <= 6 for d in dice):
        raise ScoringError(f"three dice 1-6 expected, got {list(dice)!r}")
    if dice[0] == dice[1] == dice[2]:
        return "wei-dice"
    if sorted(dice) in ([1, 2, 3], [4, 5, 6]):
        return "one-two-three"
    return None


def chase_events(discards: Sequence[tuple[int, Tile]]) -> list[tuple[int, Tile]]:
    """追: every run of four consecutive discards (by four different seats) of one tile;
    returns (first discarder, tile) per chase. Overlapping runs count again (連追)."""
    out: list[tuple[int, Tile]] = []
    for i in range(len(discards) - 3):
        w = discards[i : i + 4]
        if len({t for _, t in w}) == 1 and len({s for s, _ in w}) == 4:
            out.append(w[0])
    return out


def self_chase_events(own_drawn_discards: Sequence[Tile]) -> list[Tile]:
    """自追: tiles a player discarded, each time right after drawing it, four times."""
    counts: dict[Tile, int] = {}
    out: list[Tile] = []
    for t in own_drawn_discards:
        counts[t] = counts.get(t, 0) + 1
        if counts[t] == 4:
            out.append(t)
    return out


# -- settlement ---------------------------------------------------------------------------


def _int(event: Mapping[str, Any], key: str) -> int:
    v = event.get(key)
    if not isinstance(v, int) or isinstance(v, bool):
        raise ScoringError(f"event {event.get('kind')!r} needs an integer {key!r}")
    return v


def _others(seat: int, players: int) -> list[int]:
    return [p for p in range(players) if p != seat]


def _collect(seat: int, amount: int, payers: Sequence[int], kind: str) -> list[Payment]:
    return [Payment(p, seat, amount, kind) for p in payers]


# (module-level helpers, not closures: compiled, a closure is an environment object that
# refers to its nested functions and they to it -- a reference cycle per call, garbage only
# the cycle collector frees; tests/server_tests/test_no_cycles.py)
def instant_payments(
    event: Mapping[str, Any], players: int = 4, options: Mapping[str, Any] | None = None
) -> list[Payment]:
    """Payments for one instant / penalty event.

    ``event`` keys: ``kind`` (a rule id) and, by kind: ``seat`` (who collects or is fined),
    ``heaven`` (天槓), ``tile`` (chases), ``winner``, ``ting_seats`` (三叮一笑),
    ``discarder`` (天誅地滅, None on a self-draw). ``options``: ``per_fan`` (default 1).
    Amounts are in fan × ``per_fan``.
    """
    kind = event.get("kind")
    if not isinstance(kind, str) or kind not in EVENT_RULES:
        raise ScoringError(f"unknown instant/penalty event {kind!r}")
    rule = EVENT_RULES[kind]
    per_fan = int((options or {}).get("per_fan", 1))
    if not rule.on_server:
        raise ScoringError(f"{kind} ({rule.name}) cannot happen on a server: {rule.note}")
    if kind in ("one-grass", "one-flower-set", "wei-dice", "one-two-three"):
        s = _int(event, "seat")
        return _collect(s, rule.amount * per_fan, _others(s, players), kind)
    if kind == "hidden-kong-pay":
        s = _int(event, "seat")
        amount = rule.amount_closed if event.get("heaven") else rule.amount
        return _collect(s, amount * per_fan, _others(s, players), kind)
    if kind == "three-ting-one-laugh":
        w = _int(event, "winner")
        ting = event.get("ting_seats")
        if not isinstance(ting, list) or len(ting) != 3 or w in ting:
            raise ScoringError("三叮一笑 needs the three ready seats, not the winner's")
        return _collect(w, rule.amount * per_fan, [int(x) for x in ting], kind)
    if kind == "heaven-earth-slay":
        w = _int(event, "winner")
        d = event.get("discarder")
        if d is None:
            return _collect(w, rule.amount_closed * per_fan, _others(w, players), kind)
        if not isinstance(d, int):
            raise ScoringError("天誅地滅: 'discarder' must be a seat or null")
        return _collect(w, rule.amount * per_fan, [d], kind)
    # chase / self-chase
    s = _int(event, "seat")
    t = Tile.parse(str(event.get("tile")))
    amount = rule.amount if t.is_terminal_or_honor else rule.amount_closed
    return [Payment(s, p, amount * per_fan, kind) for p in _others(s, players)]
