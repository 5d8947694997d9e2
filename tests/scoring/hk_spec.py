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

    from scoring.tiles import KINDS

    rng = random.Random(seed)
    used = [0] * 34
    sets: list[tuple[str, list[Tile]]] = []
    while len(sets) < 5:
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
        sets.append((kind, tiles))
    eye = rng.choice([t for t in KINDS if used[t] <= 2])
    concealed = [str(eye)] * 2
    melds: list[dict[str, Any]] = []
    for kind, tiles in sets:
        codes = [str(x) for x in tiles]
        if kind == "kong":
            melds.append({"kind": "kong", "tiles": codes, "concealed": rng.random() < 0.5})
        elif rng.random() < 0.3:
            melds.append({"kind": kind, "tiles": codes, "from": "left"})
        else:
            concealed.extend(codes)
    win = concealed.pop(rng.randrange(len(concealed)))
    return {
        "ruleset": "hk-tw16",
        "concealed": concealed,
        "melds": melds,
        "flowers": rng.sample([f"f{i}" for i in range(1, 9)], rng.randint(0, 3)),
        "win_tile": win,
        "win": {"self_drawn": rng.random() < 0.4},
        "seat_wind": rng.choice(["we", "ws", "ww", "wn"]),
    }
