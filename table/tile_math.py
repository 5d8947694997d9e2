"""Small pure functions on tile tuples and tile counts (the engine, the views and the bots)."""

from __future__ import annotations

from collections.abc import Sequence

from scoring.tiles import Tile

__all__ = [
    "chow_tiles",
    "insert_tile",
    "isolated_count",
    "others",
    "related_kinds",
    "remove_tiles",
    "tile_counts",
    "without",
]


def without(tiles: tuple[Tile, ...], tile: Tile) -> tuple[Tile, ...]:
    """``tiles`` with one ``tile`` taken out (order kept)."""
    i = tiles.index(tile)
    return tiles[:i] + tiles[i + 1 :]


def related_kinds(c: Sequence[int]) -> list[int]:
    """Tile kinds that could complete a standard shape with counts ``c``: the held kinds
    and their suit neighbours within two."""
    out: set[int] = set()
    for i in range(34):
        if c[i]:
            if i < 27:
                base = i - i % 9
                for d in (-2, -1, 0, 1, 2):
                    j = i + d
                    if base <= j < base + 9:
                        out.add(j)
            else:
                out.add(i)
    return sorted(out)


def isolated_count(c: Sequence[int]) -> int:
    """Tiles with no other copy and no suit neighbour within two."""
    n = 0
    for i in range(34):
        if c[i] != 1:
            continue
        if i < 27:
            pos = i % 9
            if any(0 <= pos + d <= 8 and c[i + d] for d in (-2, -1, 1, 2)):
                continue
        n += 1
    return n


def tile_counts(tiles: Sequence[Tile]) -> list[int]:
    c = [0] * 34
    for t in tiles:
        c[t] += 1
    return c


def remove_tiles(tiles: tuple[Tile, ...], tile: Tile, n: int = 1) -> tuple[Tile, ...]:
    out = list(tiles)
    for _ in range(n):
        out.remove(tile)
    return tuple(out)


def insert_tile(tiles: tuple[Tile, ...], tile: Tile) -> tuple[Tile, ...]:
    return tuple(sorted((*tiles, tile)))


def others(seat: int) -> list[int]:
    return [(seat + i) % 4 for i in (1, 2, 3)]


def chow_tiles(first: Tile) -> tuple[Tile, Tile, Tile] | None:
    b, c = first.shifted(1), first.shifted(2)
    if b is None or c is None:
        return None
    return (first, b, c)
