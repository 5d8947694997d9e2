"""Instant payments and automatic penalties (即收 / 即罰, hk-tw16): the table detects them, the
scoring rule set's ``instant_payments`` values them."""

from __future__ import annotations

from typing import Literal

from scoring.settlement import (
    instant_settler,
)
from scoring.tiles import Tile
from table import events as E
from table.state import replace_seat
from table.tile_math import others
from table.wire import to_wire
from table.working import WorkingCopy

__all__ = ["pay_flower_sets", "pay_instant", "pay_win_instants"]


_FLOWER_SETS: tuple[tuple[Literal["one-flower-set", "one-grass"], range], ...] = (
    ("one-flower-set", range(34, 38)),
    ("one-grass", range(38, 42)),
)


def pay_flower_sets(w: WorkingCopy, seat: int) -> None:
    """Instant payments for a complete set of seasons (一台花) or plants (一台草), each once;
    after 一台花 no 一台草 is collected (先花，不能再收草 — both at the deal: only 一台花)."""
    if not w.params.instant:
        return
    s = w.seats[seat]
    fl = set(s.flowers)
    for kind, group in _FLOWER_SETS:
        if kind in s.sets_paid or not all(Tile(i) in fl for i in group):
            continue
        if kind == "one-grass" and "one-flower-set" in s.sets_paid:
            continue
        w.seats[seat] = s = replace_seat(s, sets_paid=(*s.sets_paid, kind))
        pay_instant(w, E.Instant(kind=kind, seat=seat))


def pay_instant(w: WorkingCopy, ev: E.Instant | E.InstantLaugh | E.InstantSlay) -> None:
    """An instant payment / automatic penalty (即收 / 即罰) the table detected: an
    ``instant`` event, valued and paid by the scoring rule set's ``instant_payments`` (the
    table never values anything itself; without it the event carries no payment)."""
    w.emit(ev)
    event = to_wire(ev)
    settler = instant_settler(w.ruleset)
    if settler is None:
        return
    # valued with the room's settlement options (per_fan), as mahjong-score values them
    for p in settler(event, len(w.seats), dict(w.state.config.settlement)):
        w.pay(p.payer, p.payee, p.amount, str(event["kind"]))


def pay_win_instants(w: WorkingCopy, seat: int, discarder: int | None) -> None:
    """三叮一笑 and 天誅地滅 (hk-tw16): instant items that come with a win."""
    if not w.params.instant:
        return
    me = w.seats[seat]
    other_seats = others(seat)
    ting = [o for o in other_seats if w.seats[o].ting]
    if len(ting) == 3 and not me.ting:
        pay_instant(w, E.InstantLaugh(kind="three-ting-one-laugh", winner=seat, ting_seats=ting))
    special = ("heaven", "earth")
    if not (me.ting and me.ting_kind in special) and any(
        w.seats[o].ting and w.seats[o].ting_kind in special for o in other_seats
    ):
        pay_instant(w, E.InstantSlay(kind="heaven-earth-slay", winner=seat, discarder=discarder))
