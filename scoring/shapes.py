"""Special shapes shared by several rule sets (13-tile seven pairs, thirteen orphans).

Rule sets with other shapes (嚦咕嚦咕, 十六不搭, knitted hands…) define them in their own module
with :class:`scoring.engine.SpecialShape`.
"""

from __future__ import annotations

from collections.abc import Sequence

from scoring.decompose import Arrangement, Block, BlockKind, Wait
from scoring.engine import SpecialShape
from scoring.hand import Hand
from scoring.tiles import KINDS, TERMINALS_AND_HONORS

__all__ = ["seven_pairs", "thirteen_orphans"]

_ORPHANS = tuple(int(t) for t in TERMINALS_AND_HONORS)
_ODD = (1).__and__  # n -> n & 1, without a Python-level call per count


def seven_pairs(four_as_two: bool = True) -> SpecialShape:
    """Seven pairs (13-tile hands, no melds); ``four_as_two``: four alike count as two pairs."""

    def complete(c: Sequence[int], n_melds: int) -> bool:
        if n_melds or sum(c) != 14:
            return False
        if any(map(_ODD, c)):
            return False
        return four_as_two or all(n in (0, 2) for n in c)

    def arrange(hand: Hand, c: Sequence[int]) -> list[Arrangement]:
        blocks: list[Block] = []
        for i, n in enumerate(c):
            blocks.extend([Block(BlockKind.PAIR, KINDS[i], True)] * (n // 2))
        win = next(j for j, b in enumerate(blocks) if b.tile == hand.win_tile)
        return [Arrangement("seven-pairs", tuple(blocks), win, Wait.SINGLE)]

    return SpecialShape("seven-pairs", complete, arrange)


def thirteen_orphans() -> SpecialShape:
    """One of each terminal and honour plus a second of one of them (13-tile hands)."""

    def complete(c: Sequence[int], n_melds: int) -> bool:
        if n_melds or sum(c) != 14:
            return False
        return all(c[i] >= 1 for i in _ORPHANS) and sum(c[i] for i in _ORPHANS) == 14

    def arrange(hand: Hand, c: Sequence[int]) -> list[Arrangement]:
        blocks = [
            Block(BlockKind.PAIR if c[i] == 2 else BlockKind.SINGLE, KINDS[i], True)
            for i in _ORPHANS
        ]
        return [Arrangement("thirteen-orphans", tuple(blocks), None, Wait.SPECIAL)]

    return SpecialShape("thirteen-orphans", complete, arrange)
