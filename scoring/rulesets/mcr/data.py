"""MCR's package data (fan ids, names, points) and the tile classes its fans test."""

from __future__ import annotations

import json
from collections.abc import Mapping
from importlib import resources
from itertools import permutations
from typing import Any, Final

from scoring.tiles import Tile, Wind

# -- package data -------------------------------------------------------------------------


def _load_data() -> dict[str, Any]:
    text = resources.files("scoring").joinpath("data/mcr.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


DATA = _load_data()
FANS: dict[str, dict[str, Any]] = {f["id"]: f for f in DATA["fans"]}
MINIMUM = 8
FLOWERS = "flower-tiles"
CHICKEN = "chicken-hand"

# -- tile classes (indices of scoring.tiles.Tile) -----------------------------------------

_WINDS = frozenset(range(27, 31))
_DRAGONS = frozenset(range(31, 34))
_HONORS = _WINDS | _DRAGONS
_TERMINALS = frozenset(i for i in range(27) if i % 9 in (0, 8))
_GREEN = frozenset({19, 20, 21, 23, 25, int(Tile.GREEN)})  # 2 3 4 6 8 bamboo, green dragon
#: Tiles with no up and down (推不倒): dots 1234589, bamboo 245689, white dragon.
_REVERSIBLE = frozenset(
    [9 + n - 1 for n in (1, 2, 3, 4, 5, 8, 9)]
    + [18 + n - 1 for n in (2, 4, 5, 6, 8, 9)]
    + [int(Tile.WHITE)]
)


_ORDER_SUIT = (1, 3, 2)  # characters, dots, bamboo -> the reference calculator's suit order
_EVEN = frozenset(t for t in range(27) if t % 9 in (1, 3, 5, 7))
_FIVES = frozenset({4, 13, 22})
_CHOWS_WITH_5 = frozenset(t for t in range(27) if t % 9 in (2, 3, 4))
_OUTSIDE_CHOWS = frozenset(t for t in range(27) if t % 9 in (0, 6))
_EMPTY: Mapping[str, int] = {}
_ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
_NINE_GATES = [3, 1, 1, 1, 1, 1, 1, 1, 3]
_ODD = (1).__and__  # n -> n & 1
_NO_TILES: frozenset[int] = frozenset()
_TERMINALS_HONORS = _TERMINALS | _HONORS


def _bits(tiles: frozenset[int]) -> int:
    """A set of tile indices as a bit mask (bit t: tile t)."""
    return sum(1 << t for t in tiles)


# the tile classes the predicates test the hand's tiles against, as bit masks
_GREEN_BITS: Final = _bits(_GREEN)
_REVERSIBLE_BITS: Final = _bits(_REVERSIBLE)
_TERMINALS_BITS: Final = _bits(_TERMINALS)
_HONORS_BITS: Final = _bits(_HONORS)
_WINDS_BITS: Final = _bits(_WINDS)
_DRAGONS_BITS: Final = _bits(_DRAGONS)
_TERMINALS_HONORS_BITS: Final = _TERMINALS_BITS | _HONORS_BITS
#: ranks as a 9-bit mask (bit r-1: rank r)
_LOW_RANKS: Final = 0b000001111  # 1-4
_HIGH_RANKS: Final = 0b111100000  # 6-9
_MIDDLE_RANKS: Final = 0b000111000  # 4-6
_SEAT_INDEX = {w.value: 27 + i for i, w in enumerate(Wind)}  # by code: str hashing is cheap


def _suit(t: int) -> int:
    """0 characters, 1 dots, 2 bamboo, 3 honours."""
    return t // 9 if t < 27 else 3


def _rank(t: int) -> int:
    return t % 9 + 1


#: The six knitted sequences: 147 / 258 / 369 of three different suits (9 tile indices each).
KNITTED_SEQUENCES: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        sorted(
            s * 9 + start + step
            for s, start in zip(suits, (0, 1, 2), strict=True)
            for step in (0, 3, 6)
        )
    )
    for suits in permutations(range(3))
)
