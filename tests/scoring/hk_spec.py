"""Compact hand specs for the hk-tw16 golden files (authoring helpers, used by tests).

``hand("123m 456p 77s", "7s", melds="P:we C:3m K:2m A:9p", flowers="f1 f5", sd=False, **ctx)``
— melds: ``P:`` pung, ``K:`` exposed kong, ``A:`` concealed kong, ``C:`` chow from its first
tile; ``sd`` self-drawn; extra keyword arguments go to ``context`` (``win_*`` keys to ``win``).
"""

from __future__ import annotations

from typing import Any

from scoring.tiles import Tile, parse_tiles


def meld(tok: str) -> dict[str, Any]:
    kind, code = tok.split(":")
    t = Tile.parse(code)
    if kind == "P":
        return {"kind": "pung", "tiles": [code] * 3, "from": "opposite"}
    if kind == "K":
        return {"kind": "kong", "tiles": [code] * 4, "from": "opposite"}
    if kind == "A":
        return {"kind": "kong", "tiles": [code] * 4, "concealed": True}
    if kind == "C":
        a, b = t.shifted(1), t.shifted(2)
        assert a is not None and b is not None, tok
        return {"kind": "chow", "tiles": [code, str(a), str(b)], "from": "left"}
    raise ValueError(tok)


def hand(
    concealed: str,
    win: str,
    melds: str = "",
    flowers: str = "",
    sd: bool = True,
    seat: str = "we",
    **ctx: Any,
) -> dict[str, Any]:
    winfo: dict[str, bool] = {"self_drawn": sd}
    for k in list(ctx):
        if k.startswith("win_"):
            winfo[k[4:]] = bool(ctx.pop(k))
    out: dict[str, Any] = {
        "ruleset": "hk-tw16",
        "concealed": [str(t) for t in parse_tiles(concealed)],
        "melds": [meld(m) for m in melds.split()],
        "flowers": flowers.split(),
        "win_tile": win,
        "win": winfo,
        "seat_wind": seat,
    }
    if ctx:
        out["context"] = ctx
    return out


def random_hand(seed: int) -> dict[str, Any]:
    """A seeded random complete hk-tw16 hand (five sets and an eye, some declared)."""
    import random

    from scoring.random_hands import random_complete

    rng = random.Random(seed)
    concealed, melds, win = random_complete(rng, 5)
    return {
        "ruleset": "hk-tw16",
        "concealed": concealed,
        "melds": melds,
        "flowers": rng.sample([f"f{i}" for i in range(1, 9)], rng.randint(0, 3)),
        "win_tile": win,
        "win": {"self_drawn": rng.random() < 0.4},
        "seat_wind": rng.choice(["we", "ws", "ww", "wn"]),
    }
