"""Dora from indicators.

An indicator shows the next tile of its family: a number tile the next number of its suit
(9 shows 1); winds east → south → west → north → east; dragons white → green → red → white.
Every indicator counts on its own: two indicators showing the same tile make each copy of that
tile worth 2 dora.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from scoring.tiles import Tile

__all__ = ["count_dora", "dora_of"]

#: The dragon cycle white → green → red → white (tile indices: red 31, green 32, white 33).
_NEXT_DRAGON = {
    int(Tile.WHITE): int(Tile.GREEN),
    int(Tile.GREEN): int(Tile.RED),
    int(Tile.RED): int(Tile.WHITE),
}


def dora_of(indicator: Tile) -> Tile:
    """The tile an indicator shows."""
    i = int(indicator)
    if i < 27:
        return Tile(i - i % 9 + (i % 9 + 1) % 9)
    if i < 31:
        return Tile(27 + (i - 27 + 1) % 4)
    if i < 34:
        return Tile(_NEXT_DRAGON[i])
    raise ValueError(f"{indicator} is no indicator")


def count_dora(counts: Sequence[int], indicators: Iterable[Tile]) -> int:
    """The dora of a hand (34 counts, kongs counting 4) for these indicators."""
    return sum(counts[dora_of(t)] for t in indicators)
