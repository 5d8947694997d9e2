"""The 港式台牌 facts found by a search over an arrangement's blocks: 歸 four-alikes, 九蓮寶燈.

Called by :class:`~scoring.rulesets.hk_tw16.features.HKFeatures` only when its cheap test
(a tile held four times; fourteen tiles of one suit) lets such a fact be there.
"""

from __future__ import annotations

from scoring.decompose import Block, BlockKind
from scoring.tiles import Tile

__all__ = ["GuiFacts", "gui_of", "nine_gates_of"]

#: ``one`` / ``two`` / ``four`` → (tile, all its sets concealed, indexes of its chows)
GuiFacts = dict[str, list[tuple[Tile, bool, tuple[int, ...]]]]


def gui_of(blocks: tuple[Block, ...], counts: tuple[int, ...]) -> GuiFacts:
    """Tiles held four times outside a kong, by how the four split: ``one`` (a pung + a
    chow), ``two`` (two chows + the eye), ``four`` (four chows)."""
    out: GuiFacts = {"one": [], "two": [], "four": []}
    for i, n in enumerate(counts):
        if n != 4:
            continue
        t = Tile(i)
        holding = [j for j, b in enumerate(blocks) if t in b.tiles]
        kinds = sorted(blocks[j].kind.value for j in holding)
        if "kong" in kinds:
            continue
        chows = tuple(j for j in holding if blocks[j].kind is BlockKind.CHOW)
        closed = all(blocks[j].concealed for j in holding)
        if kinds == ["chow", "pung"]:
            out["one"].append((t, closed, chows))
        elif kinds == ["chow", "chow", "pair"]:
            out["two"].append((t, closed, chows))
        elif kinds == ["chow", "chow", "chow", "chow"]:
            out["four"].append((t, closed, chows))
    return out


def nine_gates_of(blocks: tuple[Block, ...], waits: tuple[Tile, ...]) -> tuple[int, bool]:
    """(state, nine-sided): some set aside, the rest is 1112345678999 + one tile of one
    suit, all in hand."""
    need = (3, 1, 1, 1, 1, 1, 1, 1, 3)
    for j, b in enumerate(blocks):
        if not b.is_set:
            continue
        rest = [x for i, x in enumerate(blocks) if i != j]
        if any(x.meld is not None for x in rest):
            continue
        c = [0] * 34
        for x in rest:
            for t in x.tiles:
                c[t] += 1
        for s in range(3):
            seg = c[9 * s : 9 * s + 9]
            if sum(seg) == 14 and all(seg[k] >= need[k] for k in range(9)):
                nine = all(Tile(9 * s + k) in waits for k in range(9))
                return 1, nine
    return 0, False
