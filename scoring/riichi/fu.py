"""Fu (符) of one arrangement of a riichi hand.

The rules (``shared/rules/riichi.json`` → ``rules.fu``): 20 base; +10 for a concealed hand
won by ron; +2 for a self-draw except pinfu (pinfu tsumo is 20 fu); waits: closed, edge and
single +2, two-sided and double-pair 0; pair: dragon, seat wind, round wind +2 each (a double
wind pair +4); sets: an open simple triplet 2, doubled for a terminal or honour, doubled for a
concealed set, ×4 for a kong (chows 0); a triplet completed by the ron tile counts as open;
an open hand with no fu but the base won by ron gets +2 (30 fu); the total is rounded up to
the next 10. Seven pairs are 25 fu, unrounded. The reading of the wait (and of the sets) is
the arrangement's; the rule set scores every arrangement and keeps the best.
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.decompose import Arrangement, BlockKind, Wait
from scoring.tiles import Tile

__all__ = ["FuCount", "count_fu"]

_WAIT_FU = {Wait.EDGE: "edge wait", Wait.CLOSED: "closed wait", Wait.SINGLE: "single wait"}


@dataclass(frozen=True, slots=True)
class FuCount:
    """The fu of an arrangement: its parts (reason, fu), their sum and the rounded total."""

    parts: tuple[tuple[str, int], ...]
    raw: int
    total: int
    #: no fu beyond the base (and the concealed-ron 10): the pinfu shape
    no_extra: bool


def count_fu(
    arr: Arrangement, *, concealed_hand: bool, self_drawn: bool, seat: Tile, round_: Tile
) -> FuCount:
    """The fu of a standard or seven-pairs arrangement."""
    if arr.shape == "seven-pairs":
        return FuCount((("seven pairs", 25),), 25, 25, False)
    parts: list[tuple[str, int]] = [("base", 20)]
    if concealed_hand and not self_drawn:
        parts.append(("concealed ron", 10))
    extra = 0
    for b in arr.blocks:
        if b.kind is BlockKind.PUNG or b.kind is BlockKind.KONG:
            fu = 2
            if b.tile.is_terminal_or_honor:
                fu *= 2
            if b.concealed:
                fu *= 2
            if b.kind is BlockKind.KONG:
                fu *= 4
            kind = "kong" if b.kind is BlockKind.KONG else "triplet"
            parts.append((f"{'concealed' if b.concealed else 'open'} {kind} {b.tile}", fu))
            extra += fu
        elif b.kind is BlockKind.PAIR:
            t = b.tile
            if t.is_dragon:
                parts.append((f"dragon pair {t}", 2))
                extra += 2
            if t == seat:
                parts.append((f"seat wind pair {t}", 2))
                extra += 2
            if t == round_:
                parts.append((f"round wind pair {t}", 2))
                extra += 2
    wait = _WAIT_FU.get(arr.wait)
    if wait is not None:
        parts.append((wait, 2))
        extra += 2
    if self_drawn and (extra or not concealed_hand):
        parts.append(("self-draw", 2))
    elif not concealed_hand and not extra:
        parts.append(("open pinfu shape, ron", 2))
    raw = sum(fu for _, fu in parts)
    return FuCount(tuple(parts), raw, -(-raw // 10) * 10, extra == 0)
