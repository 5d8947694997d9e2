"""Hypothesis strategies shared by the Zung Jung tests.

Hands are drawn with a seeded ``random.Random`` supplied by hypothesis (uniform choices; the
plain integer strategies lean heavily to their bounds), in flavours that reach the rarer
patterns: any tiles, one suit with honours, terminals and honours only, one suit's
sequences, and seven pairs.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import reject
from hypothesis import strategies as st

from scoring.tiles import Tile

__all__ = ["winning_hands"]

_TH = [0, 8, 9, 17, 18, 26, *range(27, 34)]


def _hand(rng: random.Random) -> dict[str, Any] | None:
    flavour = rng.choice(
        ["any", "any", "one-suit", "terminals", "runs", "pairs", "three-suits", "outside"]
    )
    suit = rng.randrange(3)
    base = rng.randrange(5)
    if flavour == "pairs":
        pool = (
            list(range(34))
            if rng.random() < 0.5
            else [*range(9 * suit, 9 * suit + 9), *range(27, 34)]
        )
        kinds = rng.sample(pool, 7)
        tiles = [Tile(k).code for k in kinds for _ in range(2)]
        win = rng.choice(tiles)
        tiles.remove(win)
        return {
            "concealed": tiles,
            "melds": [],
            "win_tile": win,
            "win": {"self_drawn": rng.random() < 0.5},
        }

    def tile() -> int:
        if flavour == "one-suit":
            return rng.choice([*range(9 * suit, 9 * suit + 9), *range(27, 34)])
        if flavour == "terminals" or (flavour == "outside" and rng.random() < 0.8):
            return rng.choice(_TH)
        if flavour == "three-suits":
            return 9 * rng.randrange(3) + base + rng.randrange(3)
        return rng.randrange(34)

    counts = [0] * 34
    concealed: list[str] = []
    melds: list[dict[str, Any]] = []
    for _ in range(4):
        kind = rng.choice(["chow", "chow", "pung", "pung", "kong"])
        if flavour in ("runs", "three-suits"):
            kind = "chow" if rng.random() < 0.8 else "pung"
        if flavour == "terminals" and kind == "chow":
            kind = "pung"
        if kind == "chow":
            s = suit if flavour in ("one-suit", "runs") else rng.randrange(3)
            n = rng.randrange(7)
            if flavour == "three-suits":
                n = base + rng.randrange(3)
            elif flavour == "outside":
                n = rng.choice((0, 6))
            ts = [9 * s + n, 9 * s + n + 1, 9 * s + n + 2]
        else:
            t = tile()
            ts = [t] * (3 if kind == "pung" else 4)
        for t in ts:
            counts[t] += 1
        codes = [Tile(t).code for t in ts]
        exposed = rng.random() < 0.3
        if kind == "kong":
            melds.append({"kind": "kong", "tiles": codes, "concealed": not exposed})
        elif exposed:
            melds.append(
                {"kind": kind, "tiles": codes, "from": "left" if kind == "chow" else "right"}
            )
        else:
            concealed.extend(codes)
    pair = tile()
    counts[pair] += 2
    if max(counts) > 4:
        return None
    concealed.extend([Tile(pair).code] * 2)
    win = rng.choice(concealed)
    concealed.remove(win)
    return {
        "concealed": concealed,
        "melds": melds,
        "win_tile": win,
        "win": {"self_drawn": rng.random() < 0.5},
    }


@st.composite
def winning_hands(draw: st.DrawFn) -> dict[str, Any]:
    """A random complete 13-tile hand (standard or seven pairs) with random melds and win."""
    rng = draw(st.randoms(use_true_random=False))
    for _ in range(20):
        h = _hand(rng)
        if h is not None:
            return h
    reject()
