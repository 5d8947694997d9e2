"""Turn the example hands of hk_taiwan_16_v1.json into hand JSON (shared by tests/tools)."""

from __future__ import annotations

import re
from typing import Any

from scoring.tiles import Tile


def melds_of(bonus: list[str]) -> tuple[list[dict[str, Any]], list[str]]:
    """Split the tiles shown beside a hand into flowers and exposed melds."""
    flowers = [b for b in bonus if b.startswith("f")]
    rest = [b for b in bonus if not b.startswith("f")]
    melds: list[dict[str, Any]] = []
    i = 0
    while i < len(rest):
        t = rest[i]
        nxt = Tile.parse(t).shifted(1)
        chow_after = (
            i + 5 < len(rest) and nxt is not None and rest[i + 4] == str(nxt)
        )  # 3m3m3m 3m4m5m: a pung then a chow, not a kong
        if (
            rest[i : i + 4] == [t] * 4
            and not chow_after
            and (i + 4 == len(rest) or rest[i + 4] != t)
        ):
            melds.append({"kind": "kong", "tiles": [t] * 4, "from": "opposite"})
            i += 4
        elif rest[i : i + 3] == [t] * 3:
            melds.append({"kind": "pung", "tiles": [t] * 3, "from": "opposite"})
            i += 3
        else:
            melds.append({"kind": "chow", "tiles": rest[i : i + 3], "from": "left"})
            i += 3
    return melds, flowers


def caption_value(caption: str | None) -> int | None:
    if not caption:
        return None
    m = re.search(r"（(\d+)）", caption)
    return int(m.group(1)) if m else None


def example_hand(ex: dict[str, Any]) -> dict[str, Any] | None:
    """The hand JSON of a complete example (17 tiles, kongs counting 3), else None."""
    tiles = list(ex.get("tiles") or [])
    melds, flowers = melds_of(list(ex.get("bonus") or []))
    if any(t.startswith("f") for t in tiles):
        return None
    n = len(tiles) + 3 * len(melds)
    if n != 17 or not tiles:
        return None
    wi = ex.get("winningIndex")
    idx = wi if isinstance(wi, int) else len(tiles) - 1
    win = tiles.pop(idx)
    Tile.parse(win)
    return {
        "ruleset": "hk-tw16",
        "concealed": tiles,
        "melds": melds,
        "flowers": flowers,
        "win_tile": win,
        "win": {"self_drawn": True},
    }
