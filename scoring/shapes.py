"""Special shapes shared by several rule sets (13-tile seven pairs, thirteen orphans).

Rule sets with other shapes (嚦咕嚦咕, 十六不搭, knitted hands…) define them in their own module
with :class:`scoring.engine.SpecialShape`.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress

from scoring.decompose import Arrangement, Block, BlockKind, Wait, block
from scoring.engine import SpecialShape
from scoring.hand import Hand
from scoring.tiles import TERMINALS_AND_HONORS

__all__ = [
    "orphans_ready",
    "pairs_ready",
    "seven_pairs",
    "thirteen_orphans",
    "unrelated_ready",
]

_ORPHANS = tuple(int(t) for t in TERMINALS_AND_HONORS)
_ODD = (1).__and__  # n -> n & 1, without a Python-level call per count


# -- SpecialShape.ready: cheap necessary conditions on the counts before the win tile ----------


def pairs_ready(c: Sequence[int], n_melds: int) -> bool:
    """Pairs and at most one triplet, nothing declared (seven pairs, 嚦咕嚦咕): one tile from
    it, at most two counts are odd (a pair waiting for its second tile, a pair becoming the
    triplet)."""
    # (a count is at most 4, or 5 while a caller tries a fifth tile: odd is 1, 3 or 5)
    return not n_melds and c.count(1) + c.count(3) + c.count(5) <= 2


def orphans_ready(c: Sequence[int], n_melds: int) -> bool:
    """Thirteen orphans (13 tiles, nothing declared; 16 tiles, at most one declared set):
    one tile from it, at most one terminal or honour is missing."""
    return n_melds <= 1 and sum(1 for i in _ORPHANS if not c[i]) <= 1


def unrelated_ready(c: Sequence[int], n_melds: int) -> bool:
    """十六不搭 (every honour, no tile more than twice, nothing declared): one tile from it, at
    most one honour is missing and no tile is held three times."""
    return not n_melds and max(c) <= 2 and sum(1 for n in c[27:34] if not n) <= 1


def seven_pairs(four_as_two: bool = True) -> SpecialShape:
    """Seven pairs (13-tile hands, no melds); ``four_as_two``: four alike count as two pairs."""

    def complete(c: Sequence[int], n_melds: int) -> bool:
        if n_melds or sum(c) != 14:
            return False
        if 1 in c or 3 in c or 5 in c:  # an odd count (a count is 0-5, see pairs_ready)
            return False
        return four_as_two or 4 not in c

    def arrange(hand: Hand, c: Sequence[int]) -> list[Arrangement]:
        blocks: list[Block] = []
        w = hand.win_tile._value_
        win = 0
        for i in compress(range(34), c):
            if i == w:
                win = len(blocks)
            pair = block(BlockKind.PAIR, i)
            blocks.append(pair)
            if c[i] == 4:
                blocks.append(pair)
        return [Arrangement("seven-pairs", tuple(blocks), win, Wait.SINGLE)]

    return SpecialShape("seven-pairs", complete, arrange, ready=pairs_ready, max_melds=0)


def thirteen_orphans() -> SpecialShape:
    """One of each terminal and honour plus a second of one of them (13-tile hands)."""

    def complete(c: Sequence[int], n_melds: int) -> bool:
        if n_melds or sum(c) != 14 or any(c[1:8]) or any(c[10:17]) or any(c[19:26]):
            return False  # (the quick test: no simple tile)
        return all(c[i] >= 1 for i in _ORPHANS) and sum(c[i] for i in _ORPHANS) == 14

    def arrange(hand: Hand, c: Sequence[int]) -> list[Arrangement]:
        blocks = [block(BlockKind.PAIR if c[i] == 2 else BlockKind.SINGLE, i) for i in _ORPHANS]
        return [Arrangement("thirteen-orphans", tuple(blocks), None, Wait.SPECIAL)]

    return SpecialShape("thirteen-orphans", complete, arrange, ready=orphans_ready, max_melds=0)
