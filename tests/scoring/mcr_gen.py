"""Random MCR winning hands for differential testing, and the bridge to pymahjonggb.

:func:`generate` draws one winning hand (our public hand JSON) from a seeded
:class:`random.Random`. Hands are built from *profiles* (which tiles may appear: one suit,
green tiles, terminals, 7-9 …) and *structures* (straights, shifted or identical chows,
shifted/identical pungs, wind and dragon pungs, terminal chows …) so that every one of the 81
fans turns up, then some sets become declared melds (chows, pungs, kongs; concealed kongs),
a win tile is picked among the concealed tiles and the win situation is drawn.

:func:`oracle_fans` scores a hand with pymahjonggb (``MahjongGB``) and returns a Counter of
our fan ids. Its tile notation (checked by experiment, see docs/rules/mcr.md): ``W1-9``
characters, ``B1-9`` dots (餅), ``T1-9`` bamboo (條), ``F1-4`` winds E S W N, ``J1-3`` red,
green, white; packs ``("CHI", middle tile, n)``, ``("PENG"/"GANG", tile, offer)`` with offer 0
= concealed kong.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

SUITS = "mps"
WINDS = ["we", "ws", "ww", "wn"]
DRAGONS = ["dr", "dg", "dw"]
HONORS = WINDS + DRAGONS
ALL = [f"{n}{s}" for s in SUITS for n in range(1, 10)] + HONORS

GREEN = ["2s", "3s", "4s", "6s", "8s", "dg"]
REVERSIBLE = (
    [f"{n}p" for n in (1, 2, 3, 4, 5, 8, 9)] + [f"{n}s" for n in (2, 4, 5, 6, 8, 9)] + ["dw"]
)


def _is_suited(t: str) -> bool:
    return t[0].isdigit()


def _chow_ok(first: str, pool: set[str]) -> bool:
    if not _is_suited(first) or int(first[0]) > 7:
        return False
    n, s = int(first[0]), first[1]
    return all(f"{n + k}{s}" in pool for k in range(3))


def _chow(first: str) -> list[str]:
    n, s = int(first[0]), first[1]
    return [f"{n + k}{s}" for k in range(3)]


def _profile(rng: random.Random) -> list[str]:
    s = rng.choice(SUITS)
    s2 = rng.choice([x for x in SUITS if x != s])
    profiles: list[tuple[float, list[str]]] = [
        (30, ALL),
        (6, [f"{n}{s}" for n in range(1, 10)]),
        (6, [f"{n}{s}" for n in range(1, 10)] + HONORS),
        (4, [f"{n}{x}" for x in (s, s2) for n in range(1, 10)]),
        (4, [f"{n}{x}" for x in (s, s2) for n in range(1, 10)] + HONORS),
        (2, GREEN),
        (3, REVERSIBLE),
        (2, [f"{n}{x}" for x in SUITS for n in (1, 9)]),
        (3, [f"{n}{x}" for x in SUITS for n in (1, 9)] + HONORS),
        (1, HONORS),
        (2, [f"{n}{x}" for x in SUITS for n in (7, 8, 9)]),
        (2, [f"{n}{x}" for x in SUITS for n in (6, 7, 8, 9)]),
        (2, [f"{n}{x}" for x in SUITS for n in (4, 5, 6)]),
        (2, [f"{n}{x}" for x in SUITS for n in (1, 2, 3)]),
        (2, [f"{n}{x}" for x in SUITS for n in (1, 2, 3, 4)]),
        (3, [f"{n}{x}" for x in SUITS for n in range(2, 9)]),
        (2, [f"{n}{x}" for x in SUITS for n in (2, 4, 6, 8)]),
        (2, [f"{n}{x}" for x in SUITS for n in range(3, 8)]),
        (2, [f"{n}{x}" for x in SUITS for n in range(1, 10)]),
        (2, [f"{n}{x}" for x in SUITS for n in range(1, 10)] + WINDS),
    ]
    weights = [w for w, _ in profiles]
    return rng.choices([p for _, p in profiles], weights)[0]


def _structure(rng: random.Random) -> list[tuple[str, str]]:
    """A few sets that make a combination fan: [("chow"|"pung", first tile)]."""
    s = rng.choice(SUITS)
    a, b, c = rng.sample(SUITS, 3)
    n = rng.randint(1, 7)
    r9 = rng.randint(1, 9)
    kind = rng.randrange(22)
    if kind == 0:
        return [("chow", f"{k}{s}") for k in (1, 4, 7)]
    if kind == 1:
        return [("chow", f"1{a}"), ("chow", f"4{b}"), ("chow", f"7{c}")]
    if kind == 2:
        step = rng.choice((1, 2))
        m = rng.randint(1, 7 - 2 * step)
        return [("chow", f"{m + step * i}{s}") for i in range(3)]
    if kind == 3:
        step = rng.choice((1, 2))
        m = rng.randint(1, 7 - 3 * step)
        return [("chow", f"{m + step * i}{s}") for i in range(4)]
    if kind == 4:
        m = rng.randint(1, 5)
        return [("chow", f"{m}{a}"), ("chow", f"{m + 1}{b}"), ("chow", f"{m + 2}{c}")]
    if kind == 5:
        return [("chow", f"{n}{s}")] * rng.choice((2, 3, 4))
    if kind == 6:
        return [("chow", f"{n}{a}"), ("chow", f"{n}{b}"), ("chow", f"{n}{c}")]
    if kind == 7:
        return [("pung", f"{r9}{a}"), ("pung", f"{r9}{b}"), ("pung", f"{r9}{c}")][
            : rng.choice((2, 3))
        ]
    if kind == 8:
        m = rng.randint(1, 7)
        return [("pung", f"{m}{a}"), ("pung", f"{m + 1}{b}"), ("pung", f"{m + 2}{c}")]
    if kind == 9:
        m = rng.randint(1, 7)
        return [("pung", f"{m + i}{s}") for i in range(3)]
    if kind == 10:
        m = rng.randint(1, 6)
        return [("pung", f"{m + i}{s}") for i in range(4)]
    if kind == 11:
        ws = rng.sample(WINDS, 4)
        if rng.random() < 0.5:
            return [("pung", w) for w in ws[:3]] + [("pair", ws[3])]
        return [("pung", w) for w in ws[: rng.choice((3, 4))]]
    if kind == 12:
        ds = rng.sample(DRAGONS, 3)
        if rng.random() < 0.5:
            return [("pung", d) for d in ds[:2]] + [("pair", ds[2])]
        return [("pung", d) for d in ds[: rng.choice((2, 3))]]
    if kind == 13:
        return [("chow", f"1{s}"), ("chow", f"7{s}")]
    if kind == 14:
        return [("chow", f"1{s}"), ("chow", f"1{s}"), ("chow", f"7{s}"), ("chow", f"7{s}")]
    if kind == 15:
        return [
            ("chow", f"1{a}"),
            ("chow", f"7{a}"),
            ("chow", f"1{b}"),
            ("chow", f"7{b}"),
            ("pair", f"5{c}"),
        ]
    if kind == 16:
        return [("chow", f"{n}{a}"), ("chow", f"{n}{b}")]
    if kind == 17:
        m = rng.randint(1, 4)
        return [("chow", f"{m}{s}"), ("chow", f"{m + 3}{s}")]
    if kind == 18:
        return [("pung", rng.choice(WINDS)), ("pung", rng.choice(DRAGONS))]
    if kind == 19:
        return [("pung", f"{rng.choice((2, 4, 6, 8))}{x}") for x in rng.sample(SUITS, 2)]
    return []


def _standard(rng: random.Random) -> tuple[list[tuple[str, str]], str] | None:
    pool = _profile(rng)
    pset = set(pool)
    sets: list[tuple[str, str]] = []
    pair: str | None = None
    if rng.random() < 0.6:
        for kind, t in _structure(rng):
            if kind == "pair":
                pair = t
            else:
                sets.append((kind, t))
    sets = sets[:4]
    chow_bias = rng.choice((0.0, 0.2, 0.5, 0.8, 1.0))
    tries = 0
    while len(sets) < 4 and tries < 50:
        tries += 1
        t = rng.choice(pool)
        if rng.random() < chow_bias and _is_suited(t):
            first = f"{min(int(t[0]), rng.randint(1, 7))}{t[1]}"
            if _chow_ok(first, pset):
                sets.append(("chow", first))
                continue
        sets.append(("pung", t))
    if len(sets) < 4:
        return None
    if pair is None:
        pair = f"5{rng.choice(SUITS)}" if rng.random() < 0.15 else rng.choice(pool)
    return sets, pair


def _count_ok(tiles: list[str]) -> bool:
    return all(v <= 4 for v in Counter(tiles).values())


def _situation(rng: random.Random, hand: dict[str, Any], has_kong: bool) -> None:
    self_drawn = rng.random() < 0.5
    win: dict[str, bool] = {"self_drawn": self_drawn}
    if rng.random() < 0.06:
        win["last_tile"] = True
    if self_drawn and has_kong and rng.random() < 0.2:
        win["kong_replacement"] = True
    w = hand["win_tile"]
    held = hand["concealed"].count(w) + sum(m["tiles"].count(w) for m in hand["melds"])
    if not self_drawn and held == 0 and rng.random() < 0.12:
        win["robbing_kong"] = True
    if rng.random() < 0.08:
        win["fourth_tile"] = True
    hand["win"] = win
    hand["seat_wind"] = rng.choice(WINDS)
    hand["round_wind"] = rng.choice(WINDS)
    nf = rng.choices(range(9), [40, 20, 15, 10, 6, 4, 2, 2, 1])[0]
    hand["flowers"] = sorted(rng.sample([f"f{i}" for i in range(1, 9)], nf))


def _finish(
    rng: random.Random, concealed: list[str], melds: list[dict[str, Any]]
) -> dict[str, Any]:
    w = rng.choice(concealed)
    rest = list(concealed)
    rest.remove(w)
    hand: dict[str, Any] = {
        "ruleset": "mcr",
        "concealed": sorted(rest),
        "melds": melds,
        "win_tile": w,
    }
    _situation(rng, hand, any(m["kind"] == "kong" for m in melds))
    return hand


def _gen_standard(rng: random.Random) -> dict[str, Any] | None:
    got = _standard(rng)
    if got is None:
        return None
    sets, pair = got
    rng.shuffle(sets)
    meld_p = rng.choice((0.0, 0.0, 0.25, 0.5, 0.9))
    kong_p = rng.choice((0.0, 0.1, 0.3, 0.8))
    concealed: list[str] = [pair, pair]
    melds: list[dict[str, Any]] = []
    all_tiles: list[str] = [pair, pair]
    for kind, t in sets:
        if kind == "chow":
            tiles = _chow(t)
            all_tiles += tiles
            if rng.random() < meld_p:
                melds.append(
                    {"kind": "chow", "tiles": tiles, "claimed": rng.choice(tiles), "from": "left"}
                )
            else:
                concealed += tiles
            continue
        if rng.random() < kong_p:
            all_tiles += [t] * 4
            if rng.random() < 0.45:
                melds.append({"kind": "kong", "tiles": [t] * 4, "concealed": True})
            else:
                m: dict[str, Any] = {
                    "kind": "kong",
                    "tiles": [t] * 4,
                    "from": rng.choice(("left", "opposite", "right")),
                }
                if rng.random() < 0.4:
                    m["added"] = True
                melds.append(m)
            continue
        all_tiles += [t] * 3
        if rng.random() < meld_p:
            melds.append(
                {
                    "kind": "pung",
                    "tiles": [t] * 3,
                    "from": rng.choice(("left", "opposite", "right")),
                }
            )
        else:
            concealed += [t] * 3
    if not _count_ok(all_tiles):
        return None
    return _finish(rng, concealed, melds)


def _gen_seven_pairs(rng: random.Random) -> dict[str, Any] | None:
    if rng.random() < 0.2:
        s = rng.choice(SUITS)
        m = rng.randint(1, 3)
        tiles = [f"{m + i}{s}" for i in range(7)] * 2
    else:
        pool = _profile(rng)
        kinds = [rng.choice(pool) for _ in range(7)]
        tiles = kinds * 2
    if not _count_ok(tiles):
        return None
    return _finish(rng, tiles, [])


def _knitted(rng: random.Random) -> list[str]:
    suits = rng.sample(SUITS, 3)
    return [
        f"{start + step}{s}"
        for s, start in zip(suits, (1, 2, 3), strict=True)
        for step in (0, 3, 6)
    ]


def _gen_special(rng: random.Random) -> dict[str, Any] | None:
    k = rng.randrange(5)
    if k == 0:  # thirteen orphans
        orphans = [f"{n}{s}" for s in SUITS for n in (1, 9)] + HONORS
        return _finish(rng, [*orphans, rng.choice(orphans)], [])
    if k == 1:  # honours and knitted
        knit = _knitted(rng)
        n_suited = rng.choice((7, 7, 8, 9))
        tiles = rng.sample(knit, n_suited) + rng.sample(HONORS, 14 - n_suited)
        return _finish(rng, tiles, [])
    if k == 2:  # nine gates
        s = rng.choice(SUITS)
        tiles = [f"{n}{s}" for n in (1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9)]
        tiles.append(f"{rng.randint(1, 9)}{s}")
        return _finish(rng, tiles, [])
    # knitted straight + a set + a pair
    knit = _knitted(rng)
    pool = _profile(rng)
    t = rng.choice(pool)
    if rng.random() < 0.5 and _is_suited(t):
        set_tiles = _chow(f"{min(int(t[0]), 7)}{t[1]}")
        kind = "chow"
    else:
        set_tiles = [t] * 3
        kind = "pung"
    pair = rng.choice(pool)
    melds: list[dict[str, Any]] = []
    concealed = [*knit, pair, pair]
    r = rng.random()
    if r < 0.3:
        if kind == "chow":
            melds.append(
                {"kind": "chow", "tiles": set_tiles, "claimed": set_tiles[0], "from": "left"}
            )
        elif rng.random() < 0.5:
            melds.append({"kind": "pung", "tiles": set_tiles, "from": "right"})
        else:
            melds.append({"kind": "kong", "tiles": [t] * 4, "concealed": rng.random() < 0.5})
            set_tiles = [t] * 4
    else:
        concealed += set_tiles
    if not _count_ok(concealed + [x for m in melds for x in m["tiles"]]):
        return None
    return _finish(rng, concealed, melds)


def _gen_chicken(rng: random.Random) -> dict[str, Any] | None:
    """Sets spread over the three suits, mostly declared, an honour pair: often no fan."""
    suits = list(SUITS)
    rng.shuffle(suits)
    sets: list[tuple[str, str]] = []
    for s in [*suits, rng.choice(SUITS)]:
        if rng.random() < 0.7:
            sets.append(("chow", f"{rng.randint(2, 6)}{s}"))
        else:
            sets.append(("pung", f"{rng.randint(2, 8)}{s}"))
    concealed: list[str] = []
    melds: list[dict[str, Any]] = []
    pair = rng.choice(HONORS)
    concealed = [pair, pair]
    all_tiles = [pair, pair]
    for i, (kind, t) in enumerate(sets):
        tiles = _chow(t) if kind == "chow" else [t] * 3
        all_tiles += tiles
        if i < 3:
            if kind == "chow":
                melds.append({"kind": "chow", "tiles": tiles, "from": "left"})
            else:
                melds.append({"kind": "pung", "tiles": tiles, "from": "right"})
        else:
            concealed += tiles
    if not _count_ok(all_tiles):
        return None
    hand = _finish(rng, concealed, melds)
    hand["win"] = {"self_drawn": False}
    return hand


def generate(rng: random.Random) -> dict[str, Any]:
    """One random MCR winning hand (public hand JSON)."""
    while True:
        r = rng.random()
        if r < 0.78:
            h = _gen_standard(rng)
        elif r < 0.80:
            h = _gen_chicken(rng)
        elif r < 0.90:
            h = _gen_seven_pairs(rng)
        else:
            h = _gen_special(rng)
        if h is not None:
            return h


# -- the oracle ------------------------------------------------------------------------------

_ORACLE_SUIT = {"m": "W", "p": "B", "s": "T"}
_ORACLE_HONOR = {"we": "F1", "ws": "F2", "ww": "F3", "wn": "F4", "dr": "J1", "dg": "J2", "dw": "J3"}
_OFFER = {"left": 1, "opposite": 2, "right": 3}


def oracle_tile(code: str) -> str:
    if not _is_suited(code):
        return _ORACLE_HONOR[code]
    return _ORACLE_SUIT[code[1]] + code[0]


def oracle_args(hand: dict[str, Any]) -> tuple[Any, ...]:
    packs = []
    for m in hand["melds"]:
        tiles = sorted(m["tiles"])
        if m["kind"] == "chow":
            claimed = m.get("claimed", tiles[0])
            packs.append(("CHI", oracle_tile(tiles[1]), tiles.index(claimed) + 1))
        elif m["kind"] == "pung":
            packs.append(("PENG", oracle_tile(tiles[0]), _OFFER[m.get("from", "left")]))
        else:
            offer = 0 if m.get("concealed") else _OFFER[m.get("from", "left")]
            packs.append(("GANG", oracle_tile(tiles[0]), offer))
    win = hand.get("win", {})
    return (
        tuple(packs),
        tuple(oracle_tile(t) for t in hand["concealed"]),
        oracle_tile(hand["win_tile"]),
        len(hand.get("flowers", [])),
        bool(win.get("self_drawn")),
        bool(win.get("fourth_tile")),
        bool(win.get("kong_replacement") or win.get("robbing_kong")),
        bool(win.get("last_tile")),
        WINDS.index(hand.get("seat_wind", "we")),
        WINDS.index(hand.get("round_wind", "we")),
    )


_EN_TO_ID: dict[str, str] | None = None


def _en_to_id() -> dict[str, str]:
    global _EN_TO_ID
    if _EN_TO_ID is None:
        from scoring.rulesets.mcr import FANS

        def norm(s: str) -> str:
            return "".join(ch for ch in s.lower() if ch.isalnum())

        _EN_TO_ID = {norm(f["en"]): fid for fid, f in FANS.items()}
        _EN_TO_ID[norm("Self Drawn")] = "self-drawn"
    return _EN_TO_ID


def oracle_fans(hand: dict[str, Any]) -> Counter[str]:
    """pymahjonggb's fans as a Counter of our ids (its combined "Concealed Kong and Melded
    Kong" (5) normalised to Melded Kong (1) + Concealed Kong (2)). Raises on a non-win."""
    from MahjongGB import MahjongFanCalculator

    out: Counter[str] = Counter()
    table = _en_to_id()
    for _points, count, _zh, en in MahjongFanCalculator(*oracle_args(hand), verbose=True):
        key = "".join(ch for ch in en.lower() if ch.isalnum())
        if key == "concealedkongandmeldedkong":
            out["melded-kong"] += count
            out["concealed-kong"] += count
            continue
        if key not in table:
            raise KeyError(f"unknown oracle fan {en!r}")
        out[table[key]] += count
    return out


def our_fans(result: dict[str, Any]) -> Counter[str]:
    return Counter({i["id"]: i["count"] for i in result["items"]})
