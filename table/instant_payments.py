"""Instant payments and automatic penalties (即收 / 即罰, hk-tw16) as a rule flow: the table
detects them at the points of :class:`~table.rule_flow.RuleFlow`, the scoring rule set's
``instant_payments`` values them (the table never values anything itself; without it an
``instant`` event carries no payment). Switched on by the game parameter ``instant``.

* deal: 圍骰 (three equal dice) and 一二三 / 四五六 for the dealer; 一台花 / 一台草 of the
  dealt flowers;
* flower: 一台花 (the four seasons) or 一台草 (the four plants), each once, and no 一台草
  after 一台花;
* discard: 追 (four seats in turn discard the same tile: the first pays) and 自追 (a seat's
  fourth discard of a tile it had just drawn);
* kong: 暗槓 of a concealed hand (天槓 before the first draw);
* win: 三叮一笑 (three others in 叮, the winner not) and 天誅地滅 (a heaven / earth 叮
  beaten by a winner without one).
"""

from __future__ import annotations

from typing import Literal

from scoring.settlement import instant_settler
from scoring.tiles import Tile
from table import events as E
from table.rule_flow import RuleFlow
from table.state import replace_seat
from table.tile_math import others
from table.wire import to_wire
from table.working import WorkingCopy

__all__ = ["InstantPayments", "pay_instant"]


_FLOWER_SETS: tuple[tuple[Literal["one-flower-set", "one-grass"], range], ...] = (
    ("one-flower-set", range(34, 38)),
    ("one-grass", range(38, 42)),
)

#: the chase (追) of a hand after it was paid: nobody chasing
NO_CHASE = (-1, -1, 0)


def pay_instant(w: WorkingCopy, ev: E.Instant | E.InstantLaugh | E.InstantSlay) -> None:
    """An instant payment / automatic penalty: its ``instant`` event, valued and paid by the
    scoring rule set's ``instant_payments`` with the room's settlement options (per_fan), as
    mahjong-score values them."""
    w.emit(ev)
    event = to_wire(ev)
    settler = instant_settler(w.ruleset)
    if settler is None:
        return
    for p in settler(event, len(w.seats), dict(w.state.config.settlement)):
        w.pay(p.payer, p.payee, p.amount, str(event["kind"]))


class InstantPayments(RuleFlow):
    """即收 / 即罰 at the deal, flowers, discards, concealed kongs and wins."""

    def deal(self, w: WorkingCopy, dice: tuple[int, ...]) -> None:
        d = sorted(dice)
        if d[0] == d[2]:
            pay_instant(w, E.Instant(kind="wei-dice", seat=w.dealer))
        elif d in ([1, 2, 3], [4, 5, 6]):
            pay_instant(w, E.Instant(kind="one-two-three", seat=w.dealer))

    def flower(self, w: WorkingCopy, seat: int, dealt: bool) -> None:
        """一台花 / 一台草, each once; after 一台花 no 一台草 is collected (先花，不能再收草 —
        both at the deal: only 一台花)."""
        s = w.seats[seat]
        fl = set(s.flowers)
        for kind, group in _FLOWER_SETS:
            if kind in s.sets_paid or not all(Tile(i) in fl for i in group):
                continue
            if kind == "one-grass" and "one-flower-set" in s.sets_paid:
                continue
            w.seats[seat] = s = replace_seat(s, sets_paid=(*s.sets_paid, kind))
            pay_instant(w, E.Instant(kind=kind, seat=seat))

    def discard(self, w: WorkingCopy, seat: int, drawn: bool) -> None:
        h = w.hand
        tile = h.discard
        assert tile is not None
        chase = h.chase
        if chase[2] == 4:
            pay_instant(w, E.Instant(kind="chase", seat=chase[1], tile=str(tile)))
            w.update_hand(chase=NO_CHASE)
        tsumogiri = w.seats[seat].tsumogiri
        if drawn and tsumogiri.count(tile) == 4 and tsumogiri[-1] == tile:
            pay_instant(w, E.Instant(kind="self-chase", seat=seat, tile=str(tile)))

    def kong(self, w: WorkingCopy, seat: int, concealed: bool, first_turn: bool) -> None:
        melds = w.seats[seat].melds
        if concealed and all(m.concealed for m in melds):  # (the new kong included)
            pay_instant(w, E.Instant(kind="hidden-kong-pay", seat=seat, heaven=first_turn))

    def win(self, w: WorkingCopy, seat: int, discarder: int | None) -> None:
        """三叮一笑 and 天誅地滅: instant items that come with a win."""
        me = w.seats[seat]
        other_seats = others(seat)
        ting = [o for o in other_seats if w.seats[o].ting]
        if len(ting) == 3 and not me.ting:
            pay_instant(
                w, E.InstantLaugh(kind="three-ting-one-laugh", winner=seat, ting_seats=ting)
            )
        special = ("heaven", "earth")
        if not (me.ting and me.ting_kind in special) and any(
            w.seats[o].ting and w.seats[o].ting_kind in special for o in other_seats
        ):
            pay_instant(
                w, E.InstantSlay(kind="heaven-earth-slay", winner=seat, discarder=discarder)
            )
