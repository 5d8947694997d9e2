"""Seeded random complete hands (JSON form), for benchmarks and property tests.

Only the tiles are drawn here; callers add the win facts, winds and flowers their rule set
needs. Deterministic for a given ``random.Random`` state.
"""

from __future__ import annotations

import random
from typing import Any

from scoring.tiles import KINDS, Tile

__all__ = ["random_complete"]


def random_complete(rng: random.Random, sets: int) -> tuple[list[str], list[dict[str, Any]], str]:
    """``sets`` random sets and a pair, some declared: ``(concealed, melds, win_tile)``.

    Sets are chows (60 % where possible) or pungs, a tenth of the pungs kongs (half of them
    concealed); three in ten non-kong sets are declared melds taken from the left. The win
    tile is drawn from the concealed tiles and removed from them. No tile exceeds 4 copies.
    """
    used = [0] * 34
    blocks: list[tuple[str, list[Tile]]] = []
    while len(blocks) < sets:
        t = rng.choice(KINDS)
        kind = "chow" if t.is_suited and t.number <= 7 and rng.random() < 0.6 else "pung"
        if kind == "pung" and rng.random() < 0.1:
            kind = "kong"
        tiles = (
            [t, Tile(t + 1), Tile(t + 2)] if kind == "chow" else [t] * (4 if kind == "kong" else 3)
        )
        if any(used[x] + tiles.count(x) > 4 for x in tiles):
            continue
        for x in tiles:
            used[x] += 1
        blocks.append((kind, tiles))
    pair = rng.choice([t for t in KINDS if used[t] <= 2])
    concealed = [str(pair)] * 2
    melds: list[dict[str, Any]] = []
    for kind, tiles in blocks:
        codes = [str(x) for x in tiles]
        if kind == "kong":
            melds.append({"kind": "kong", "tiles": codes, "concealed": rng.random() < 0.5})
        elif rng.random() < 0.3:
            melds.append({"kind": kind, "tiles": codes, "from": "left"})
        else:
            concealed.extend(codes)
    win = concealed.pop(rng.randrange(len(concealed)))
    return concealed, melds, win
