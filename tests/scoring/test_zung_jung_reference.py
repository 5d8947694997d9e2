"""Differential test: the Zung Jung rule sets against a small independent reference scorer.

The reference below shares nothing with the engine but the tables' point values: its own
brute-force decomposition (with the win tile placed in every block it can complete), its own
pattern definitions written from docs/rules/zung-jung.md over plain tuples, its own family
table, limit rule and tie-break. Random hands (hypothesis) must get the same total and the
same items from both.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from zj_strategies import winning_hands

from scoring import get_ruleset, score

# -- tiles: ints 0-33 (0-26 suited, 27-30 winds E S W N, 31-33 dragons) ---------------------

_CODES = [f"{n}{s}" for s in "mps" for n in range(1, 10)] + [
    "we", "ws", "ww", "wn", "dr", "dg", "dw",
]  # fmt: skip
_IDX = {c: i for i, c in enumerate(_CODES)}


def _suit(t: int) -> int:
    return t // 9 if t < 27 else 3


def _num(t: int) -> int:
    return t % 9 + 1


def _term(t: int) -> bool:
    return t < 27 and t % 9 in (0, 8)


Block = tuple[str, int, bool]  # kind c/p/k, first tile, concealed


def _splits(tiles: list[int], need: int, pair: int | None) -> list[tuple[list[Block], int]]:
    """Every way to split sorted tiles into `need` sets and one pair (brute force)."""
    if not tiles:
        return [([], pair)] if need == 0 and pair is not None else []
    t = tiles[0]
    out: list[tuple[list[Block], int]] = []
    if pair is None and tiles.count(t) >= 2:
        rest = tiles[2:]
        out.extend(_splits(rest, need, t))
    if need and tiles.count(t) >= 3:
        for blocks, p in _splits(tiles[3:], need - 1, pair):
            out.append(([("p", t, True), *blocks], p))
    if need and t < 27 and t % 9 <= 6 and t + 1 in tiles and t + 2 in tiles:
        rest = list(tiles)
        for x in (t, t + 1, t + 2):
            rest.remove(x)
        for blocks, p in _splits(rest, need - 1, pair):
            out.append(([("c", t, True), *blocks], p))
    return out


def _arrangements(h: dict[str, Any]) -> list[dict[str, Any]]:
    win = _IDX[h["win_tile"]]
    conc = sorted([_IDX[c] for c in h["concealed"]] + [win])
    melds: list[Block] = []
    for m in h["melds"]:
        kind = {"chow": "c", "pung": "p", "kong": "k"}[m["kind"]]
        t = min(_IDX[c] for c in m["tiles"])
        melds.append((kind, t, bool(m.get("concealed", False))))
    selfdraw = h["win"]["self_drawn"]
    out = []
    seen = set()
    for blocks, pair in _splits(conc, 4 - len(melds), None):
        # the win tile completes the pair or one of the concealed sets
        options: list[tuple[int | None, str]] = []
        if pair == win:
            options.append((None, "pair"))
        for i, (k, t, _) in enumerate(blocks):
            if (k == "p" and t == win) or (k == "c" and t <= win <= t + 2):
                options.append((i, k))
        for idx, _kind in options:
            bl = list(blocks)
            if idx is not None and bl[idx][0] == "p" and not selfdraw:
                bl[idx] = ("p", bl[idx][1], False)
            key = (tuple(sorted(bl)), pair)
            if key in seen:
                continue
            seen.add(key)
            out.append({"shape": "std", "sets": melds + bl, "pair": pair})
    c = Counter(conc)
    if not melds and len(conc) == 14 and all(n % 2 == 0 for n in c.values()):
        out.append({"shape": "7p", "sets": [], "pair": None})
    orphans = [0, 8, 9, 17, 18, 26, *range(27, 34)]
    if not melds and set(conc) == set(orphans):
        out.append({"shape": "13o", "sets": [], "pair": None})
    return out


# -- patterns ------------------------------------------------------------------------------


def _tiles_of(h: dict[str, Any]) -> list[int]:
    return (
        [_IDX[c] for c in h["concealed"]]
        + [_IDX[h["win_tile"]]]
        + [_IDX[c] for m in h["melds"] for c in m["tiles"]]
    )


def _run(keys: set[tuple[int, int]], k: int) -> bool:
    return any(all((s, n + i) in keys for i in range(k)) for s, n in keys)


def _patterns(h: dict[str, Any], a: dict[str, Any], v33: bool) -> Counter[str]:
    tiles = _tiles_of(h)
    kinds = set(tiles)
    suits = {_suit(t) for t in kinds if t < 27}
    hon = any(t >= 27 for t in kinds)
    has_term = any(_term(t) for t in kinds)
    nums = {_num(t) for t in kinds if t < 27}
    std = a["shape"] == "std"
    sets: list[Block] = a["sets"]
    chows = [(_suit(t), _num(t)) for k, t, _ in sets if k == "c"]
    pungs = [(t, c) for k, t, c in sets if k in "pk"]
    spk = {(_suit(t), _num(t)) for t, _ in pungs if t < 27}
    winds = sum(1 for t, _ in pungs if 27 <= t <= 30)
    drags = sum(1 for t, _ in pungs if t >= 31)
    pair = a["pair"]
    conc_p = sum(1 for _, c in pungs if c)
    kongs = sum(1 for k, _, _ in sets if k == "k")
    exposed = any(not m.get("concealed", False) for m in h["melds"])
    win = h["win"]
    ctx = h.get("context", {})
    p: Counter[str] = Counter()

    def add(pid: str, cond: bool | int) -> None:
        if cond:
            p[pid] = int(cond)

    add("all-sequences", std and len(chows) == 4)
    add("all-triplets", std and len(pungs) == 4)
    before = sorted(_IDX[c] for c in h["concealed"])
    add(
        "nine-gates",
        not h["melds"]
        and len({_suit(t) for t in [*before, _IDX[h["win_tile"]]]}) == 1
        and before[0] < 27
        and [_num(t) for t in before] == [1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9],
    )
    add("concealed-hand", std and not exposed)
    add("mixed-one-suit", len(suits) == 1 and hon)
    add("pure-one-suit", len(suits) == 1 and not hon)
    add("all-honors", not suits)
    add("no-terminals", not hon and not has_term)
    blocks_ok = std and all(
        any(_term(x) or x >= 27 for x in ([t, t + 1, t + 2] if k == "c" else [t]))
        for k, t, _ in sets
    )
    blocks_term = std and all(
        any(_term(x) for x in ([t, t + 1, t + 2] if k == "c" else [t])) for k, t, _ in sets
    )
    pair_ok = pair is not None and (_term(pair) or pair >= 27)
    add("mixed-lesser-terminals", blocks_ok and pair_ok and hon and has_term)
    add("pure-lesser-terminals", blocks_term and pair is not None and _term(pair) and not hon)
    only_th = all(_term(t) or t >= 27 for t in kinds)
    add("mixed-greater-terminals", only_th and hon and has_term)
    add("pure-greater-terminals", only_th and not hon)
    c = Counter(chows)
    mult = sorted(c.values(), reverse=True) or [0]
    add("two-identical-sequences", mult[0] >= 2)
    add("two-identical-sequences-twice", sum(n // 2 for n in mult) >= 2)
    add("three-identical-sequences", mult[0] >= 3)
    add("four-identical-sequences", mult[0] >= 4)
    ck = set(chows)
    add("nine-tile-straight", any({(s, 1), (s, 4), (s, 7)} <= ck for s in range(3)))
    add("three-consecutive-triplets", _run(spk, 3))
    add("four-consecutive-triplets", _run(spk, 4))
    add("three-similar-sequences", any(all((s, n) in ck for s in range(3)) for _, n in ck))
    add("three-similar-triplets", any(all((s, n) in spk for s in range(3)) for _, n in spk))
    add("small-three-dragons", drags == 2 and pair is not None and pair >= 31)
    add("big-three-dragons", drags == 3)
    add("big-three-winds", winds >= 3)
    add("small-four-winds", winds == 3 and pair is not None and 27 <= pair <= 30)
    add("big-four-winds", winds == 4)
    add("three-concealed-triplets", conc_p >= 3)
    add("four-concealed-triplets", conc_p == 4)
    add("three-kongs", kongs >= 3)
    add("four-kongs", kongs == 4)
    add("final-draw", win.get("last_tile", False) and win["self_drawn"])
    add("final-discard", win.get("last_tile", False) and not win["self_drawn"])
    add("win-on-kong", win.get("kong_replacement", False))
    add("robbing-a-kong", win.get("robbing_kong", False))
    add("blessing-of-heaven", ctx.get("blessing_of_heaven", False))
    add("blessing-of-earth", ctx.get("blessing_of_earth", False))
    add("seven-pairs", a["shape"] == "7p")
    add("thirteen-terminals", a["shape"] == "13o")
    if v33:
        seat = 27 + ["we", "ws", "ww", "wn"].index(h.get("seat_wind", "we"))
        rnd = 27 + ["we", "ws", "ww", "wn"].index(h.get("round_wind", "we"))
        add("value-honor", drags + sum((t == seat) + (t == rnd) for t, _ in pungs))
        add("small-three-winds", winds == 2 and pair is not None and 27 <= pair <= 30)
        add("two-concealed-triplets", conc_p >= 2)
        add("one-kong", kongs >= 1)
        add("two-kongs", kongs >= 2)
        add(
            "small-three-similar-triplets",
            pair is not None
            and pair < 27
            and all((s, _num(pair)) in spk for s in range(3) if s != _suit(pair)),
        )
    else:
        add("below-five", not hon and nums <= {1, 2, 3, 4})
        add("above-five", not hon and nums <= {6, 7, 8, 9})
        add("all-small", not hon and nums <= {1, 2, 3})
        add("all-middle", not hon and nums <= {4, 5, 6})
        add("all-large", not hon and nums <= {7, 8, 9})
        add("wind-triplet", winds)
        add("dragon-triplet", drags)
        add("three-shifted-sequences", _run(ck, 3))
        add("four-shifted-sequences", _run(ck, 4))
        steps = any(
            (a1, n) in ck and (b, n + 1) in ck and (c3, n + 2) in ck
            for _, n in ck
            for a1 in range(3)
            for b in range(3)
            for c3 in range(3)
            if len({a1, b, c3}) == 3
        )
        add("mixed-shifted-sequences", steps)
        tsteps = any(
            (a1, n) in spk and (b, n + 1) in spk and (c3, n + 2) in spk
            for _, n in spk
            for a1 in range(3)
            for b in range(3)
            for c3 in range(3)
            if len({a1, b, c3}) == 3
        )
        add("mixed-consecutive-triplets", tsteps)
        add("concealed-triplet", conc_p)
        add("kong", kongs)
        add("blessing-of-man", ctx.get("blessing_of_man", False))
        nums7 = sorted(_num(t) for t in kinds)
        add(
            "consecutive-seven-pairs",
            a["shape"] == "7p"
            and len(suits) == 1
            and not hon
            and len(nums7) == 7
            and nums7[-1] - nums7[0] == 6,
        )
    if p["thirteen-terminals"]:
        p.pop("mixed-greater-terminals", None)
    return p


SEED_FAMILIES = {
    "one-suit": ["mixed-one-suit", "pure-one-suit", "all-honors"],
    "terminals": [
        "mixed-lesser-terminals",
        "pure-lesser-terminals",
        "mixed-greater-terminals",
        "pure-greater-terminals",
    ],
    "range": ["below-five", "above-five", "all-small", "all-middle", "all-large"],
    "dragons": ["small-three-dragons", "big-three-dragons"],
    "winds": ["big-three-winds", "small-four-winds", "big-four-winds"],
    "identical": [
        "two-identical-sequences",
        "two-identical-sequences-twice",
        "three-identical-sequences",
        "four-identical-sequences",
    ],
    "shifted": ["three-shifted-sequences", "four-shifted-sequences"],
    "ctrip": ["three-consecutive-triplets", "four-consecutive-triplets"],
    "conc": ["concealed-triplet", "three-concealed-triplets", "four-concealed-triplets"],
    "kongs": ["kong", "three-kongs", "four-kongs"],
    "pairs": ["seven-pairs", "consecutive-seven-pairs"],
}
V33_FAMILIES = {
    "one-suit": ["mixed-one-suit", "pure-one-suit"],
    "dragons": ["small-three-dragons", "big-three-dragons"],
    "winds": ["small-three-winds", "big-three-winds", "small-four-winds", "big-four-winds"],
    "conc": ["two-concealed-triplets", "three-concealed-triplets", "four-concealed-triplets"],
    "kongs": ["one-kong", "two-kongs", "three-kongs", "four-kongs"],
    "identical": SEED_FAMILIES["identical"],
    "similar": ["small-three-similar-triplets", "three-similar-triplets"],
    "ctrip": SEED_FAMILIES["ctrip"],
    "terminals": SEED_FAMILIES["terminals"],
}
_RANGE_RANK = {"below-five": 1, "above-five": 1, "all-small": 2, "all-middle": 2, "all-large": 2}


def reference_score(h: dict[str, Any]) -> tuple[int, list[tuple[str, int, int]]]:
    v33 = h["ruleset"] == "zung-jung-v3.3"
    values = {p.id: p.points for p in get_ruleset(h["ruleset"]).patterns}
    fams = V33_FAMILIES if v33 else SEED_FAMILIES
    best: tuple[tuple[int, ...], int, list[tuple[str, int, int]]] | None = None
    for a in _arrangements(h):
        p = _patterns(h, a, v33)
        for members in fams.values():
            present = [m for m in members if p[m]]
            if len(present) > 1:
                rank = {m: _RANGE_RANK.get(m, i) for i, m in enumerate(members)}
                keep = max(present, key=lambda m: (rank[m], values[m] * p[m]))
                for m in present:
                    if m != keep:
                        del p[m]
        items = [(pid, values[pid], n) for pid, n in p.items() if n]
        if not items:
            items = [("chicken-hand", 1, 1)]
        raw = sum(v * n for _, v, n in items)
        total = min(raw, 320)
        total = max([total, *(v for _, v, _ in items if v >= 320)])
        vals = sorted((v * n for _, v, n in items), reverse=True)
        key = (total, raw, max(v for _, v, _ in items), *vals)
        if best is None or key > best[0]:
            best = (key, total, sorted(items))
    assert best is not None
    return best[1], best[2]


@settings(max_examples=300, deadline=None)
@given(winning_hands(), st.sampled_from(["zung-jung", "zung-jung-v3.3"]), st.data())
def test_against_reference(h: dict[str, Any], name: str, data: st.DataObject) -> None:
    h = {**h, "ruleset": name}
    if data.draw(st.booleans()):
        h["win"] = {**h["win"], "last_tile": True}
    if name == "zung-jung-v3.3":
        h["seat_wind"] = data.draw(st.sampled_from(["we", "ws", "ww", "wn"]))
        h["round_wind"] = data.draw(st.sampled_from(["we", "ws", "ww", "wn"]))
    r = score(h)
    assert r["error"] is None, r["error"]
    total, items = reference_score(h)
    assert r["total"] == total
    assert sorted((i["id"], i["points"], i["count"]) for i in r["items"]) == items
