"""The special shapes of 港式台牌: 嚦咕嚦咕, 十六不搭 and the 16-tile 十三么.

九子連環 (1112345678999 + one set) always splits into five sets and a pair, so it is a
pattern over standard arrangements, not a shape.
"""

from __future__ import annotations

from collections.abc import Sequence

from scoring.decompose import Arrangement, Block, BlockKind, Wait
from scoring.engine import SpecialShape
from scoring.hand import Hand, Meld
from scoring.shapes import orphans_ready, pairs_ready, unrelated_ready
from scoring.tiles import TERMINALS_AND_HONORS, Tile

__all__ = ["LIKGU", "ORPHANS", "SHAPES", "SIXTEEN", "likgu", "orphans", "sixteen"]

LIKGU = "likgu"
SIXTEEN = "sixteen"
ORPHANS = "thirteen-orphans"

_ORPHANS = tuple(int(t) for t in TERMINALS_AND_HONORS)
_ORPHAN_SET = frozenset(_ORPHANS)


# -- 嚦咕嚦咕: seven pairs and one pung, nothing declared -----------------------------------


def _likgu_complete(c: Sequence[int], n_melds: int) -> bool:
    if n_melds or sum(c) != 17:
        return False
    threes = 0
    for n in c:
        if n == 3:
            threes += 1
        elif n in (1, 5):
            return False
    return threes == 1


def _likgu_arrange(hand: Hand, c: Sequence[int]) -> list[Arrangement]:
    blocks: list[Block] = []
    for i, n in enumerate(c):
        if n == 3:
            blocks.append(Block(BlockKind.PUNG, Tile(i), True))
        else:
            blocks.extend([Block(BlockKind.PAIR, Tile(i), True)] * (n // 2))
    win = next(j for j, b in enumerate(blocks) if b.tile == hand.win_tile)
    return [Arrangement(LIKGU, tuple(blocks), win, Wait.SPECIAL)]


likgu = SpecialShape(LIKGU, _likgu_complete, _likgu_arrange, ready=pairs_ready)


# -- 十六不搭: the seven honours + three far-apart tiles of each suit + one duplicate -------


def _sixteen_complete(c: Sequence[int], n_melds: int) -> bool:
    if n_melds or sum(c) != 17:
        return False
    if any(n == 0 or n > 2 for n in c[27:34]):
        return False
    dup = 0
    for base in (0, 9, 18):
        nums = [k for k in range(9) if c[base + k]]
        if len(nums) != 3 or nums[1] - nums[0] < 3 or nums[2] - nums[1] < 3:
            return False
    for n in c:
        if n > 2:
            return False
        if n == 2:
            dup += 1
    return dup == 1


def _sixteen_arrange(hand: Hand, c: Sequence[int]) -> list[Arrangement]:
    blocks = tuple(
        Block(BlockKind.PAIR if n == 2 else BlockKind.SINGLE, Tile(i), True)
        for i, n in enumerate(c)
        if n
    )
    win = next(j for j, b in enumerate(blocks) if b.tile == hand.win_tile)
    return [Arrangement(SIXTEEN, blocks, win, Wait.SPECIAL)]


sixteen = SpecialShape(SIXTEEN, _sixteen_complete, _sixteen_arrange, ready=unrelated_ready)


# -- 十三么 (16 tiles): 13 orphans + one of them doubled + one concealed set ---------------


def _orphan_core(c: Sequence[int]) -> bool:
    """Counts are the 13 orphans, each once, plus a second copy of one (14 tiles)."""
    if sum(c) != 14:
        return False
    for i, n in enumerate(c):
        if i in _ORPHAN_SET:
            if n not in (1, 2):
                return False
        elif n:
            return False
    return True


def _orphan_sets(c: Sequence[int]) -> list[tuple[BlockKind, int]]:
    """The concealed sets whose removal leaves an orphan core."""
    out: list[tuple[BlockKind, int]] = []
    w = list(c)
    for i in range(34):
        if w[i] >= 3:
            w[i] -= 3
            if _orphan_core(w):
                out.append((BlockKind.PUNG, i))
            w[i] += 3
        if i < 27 and i % 9 <= 6 and w[i] and w[i + 1] and w[i + 2]:
            for k in (i, i + 1, i + 2):
                w[k] -= 1
            if _orphan_core(w):
                out.append((BlockKind.CHOW, i))
            for k in (i, i + 1, i + 2):
                w[k] += 1
    return out


def _orphans_complete(c: Sequence[int], n_melds: int) -> bool:
    if any(c[i] == 0 for i in _ORPHANS):
        return False
    if n_melds == 1:
        return _orphan_core(c)
    if n_melds or sum(c) != 17:
        return False
    return bool(_orphan_sets(c))


def _core_blocks(c: Sequence[int]) -> list[Block]:
    return [
        Block(BlockKind.PAIR if c[i] == 2 else BlockKind.SINGLE, Tile(i), True) for i in _ORPHANS
    ]


def _orphans_arrange(hand: Hand, c: Sequence[int]) -> list[Arrangement]:
    if hand.melds:
        m = hand.melds[0]
        if len(hand.melds) != 1 or not (m.is_kong and m.concealed):
            return []  # the set of a 十三么 may only be declared as a concealed kong
        if not _orphan_core(c):
            return []
        kong = Block(BlockKind.KONG, m.first, True, m)
        return [Arrangement(ORPHANS, (kong, *_core_blocks(c)), None, Wait.SPECIAL)]
    out: list[Arrangement] = []
    for kind, i in _orphan_sets(c):
        w = list(c)
        tiles = (i, i, i) if kind is BlockKind.PUNG else (i, i + 1, i + 2)
        for k in tiles:
            w[k] -= 1
        out.append(
            Arrangement(ORPHANS, (Block(kind, Tile(i), True), *_core_blocks(w)), None, Wait.SPECIAL)
        )
    return out


def _orphans_complete_melds(c: Sequence[int], melds: Sequence[Meld]) -> bool:
    """With the melds known: the only meld a 十三么 allows is its set as a concealed kong."""
    if melds and not (len(melds) == 1 and melds[0].is_kong and melds[0].concealed):
        return False
    return _orphans_complete(c, len(melds))


orphans = SpecialShape(
    ORPHANS, _orphans_complete, _orphans_arrange, _orphans_complete_melds, ready=orphans_ready
)

SHAPES = (likgu, sixteen, orphans)
