"""The static tables the 港式台牌 feature record reads: chow specs by first chow, tile masks.

Built once at import (:mod:`scoring.rulesets.hk_tw16.features` reads them per arrangement).
Chows are ``(suit, start)`` with suit 0 萬 / 1 筒 / 2 索 and start 1-7.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import permutations

from scoring.tiles import Tile

__all__ = [
    "ALL_NUMBERS",
    "DARK_BITS",
    "DOUBLE_DRAGON_MEET",
    "DOUBLE_LAOSHAO_CHOW",
    "DOUBLE_MIXED_DRAGON",
    "DOUBLE_PURE_DRAGON",
    "GREEN_BITS",
    "MIDDLE_NUMBERS",
    "MIXED_DRAGON",
    "MIXED_LADDER",
    "MIXED_V",
    "ONE_SUIT_FOUR_STEP",
    "ORPHAN_BITS",
    "PERMS",
    "PURE_DRAGON",
    "PURE_LADDER",
    "PURE_V",
    "SUIT_SETS",
    "TERMINAL_BITS",
    "THREE_SUIT_FOUR_STEP",
    "Chow",
]

Chow = tuple[int, int]
PERMS = tuple(permutations(range(3)))
_GREEN: frozenset[Tile] = frozenset({Tile.S2, Tile.S3, Tile.S4, Tile.S6, Tile.S8, Tile.GREEN})
_DARK = frozenset({Tile.EAST, Tile.SOUTH, Tile.WEST, Tile.NORTH, Tile.WHITE, Tile.P8})
_ORPHAN_TILES = frozenset(t for t in Tile if t.is_terminal_or_honor)
ALL_NUMBERS = 0b1111111110  # bits 1-9
MIDDLE_NUMBERS = 0b0111111100  # bits 2-8


def _index(specs: Iterable[Sequence[Chow]]) -> dict[Chow, tuple[tuple[Chow, ...], ...]]:
    """Static chow specs (multisets of chows, see
    :meth:`~scoring.rulesets.hk_tw16.features.HKFeatures.sel`) by their first chow."""
    out: dict[Chow, list[tuple[Chow, ...]]] = {}
    for s in specs:
        out.setdefault(s[0], []).append(tuple(s))
    return {k: tuple(v) for k, v in out.items()}


#: The specs of the step, straight and 老少 facts, built once (by first chow).
MIXED_V = _index([((x, a), (y, a + 1), (z, a + 2)) for a in range(1, 6) for x, y, z in PERMS])
PURE_V = _index([((x, a), (x, a + 1), (x, a + 2)) for a in range(1, 6) for x in range(3)])
MIXED_DRAGON = _index([((x, 1), (y, 4), (z, 7)) for x, y, z in PERMS])
PURE_DRAGON = _index([((x, 1), (x, 4), (x, 7)) for x in range(3)])
ONE_SUIT_FOUR_STEP = _index(
    [tuple((x, a + i) for i in range(4)) for a in range(1, 5) for x in range(3)]
)
THREE_SUIT_FOUR_STEP = _index(
    [((x, a), (y, a + 1), (z, a + 2), (x, a + 3)) for a in range(1, 5) for x, y, z in PERMS]
)
MIXED_LADDER = _index(
    [
        ((x, a), (y, a + 1), (z, a + 2), (x, a + 3), (y, a + 4))
        for a in range(1, 4)
        for x, y, z in PERMS
    ]
)
PURE_LADDER = _index([tuple((x, a + i) for i in range(5)) for a in range(1, 4) for x in range(3)])
DOUBLE_DRAGON_MEET = _index([((x, 1), (x, 4), (x, 7), (y, 1), (z, 7)) for x, y, z in PERMS])
DOUBLE_MIXED_DRAGON = _index([((x, 4), (y, 1), (y, 7), (z, 1), (z, 7)) for x, y, z in PERMS])
DOUBLE_PURE_DRAGON = _index(
    [
        ((x, 1), (x, 4), (x, 7), (x, e[0]), (x, e[1]))
        for x in range(3)
        for e in ((1, 4), (1, 7), (4, 7))
    ]
)
DOUBLE_LAOSHAO_CHOW = _index(
    [((x, 1), (x, 7), (y, 1), (y, 7)) for x in range(3) for y in range(3) if x <= y]
)


def _bits(tiles: Iterable[Tile]) -> int:
    """A bit mask of tile indices (bit t: tile t; flowers left out)."""
    m = 0
    for t in tiles:
        if t._value_ < 34:
            m |= 1 << t._value_
    return m


GREEN_BITS = _bits(_GREEN)
DARK_BITS = _bits(_DARK)
ORPHAN_BITS = _bits(_ORPHAN_TILES)
TERMINAL_BITS = _bits(t for t in Tile if t._value_ < 34 and t.is_terminal)
#: the suits present (bit s: suit s) → their set
SUIT_SETS = tuple(frozenset(s for s in range(3) if m >> s & 1) for m in range(8))
