"""Shanten: exact against a brute-force reference, and consistent with the scoring engine."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from bots.shanten import (
    ORPHANS,
    OrphansShape,
    PairsShape,
    ShapeRules,
    orphans_distance,
    pairs_distance,
    shanten,
    useful_tiles,
)
from scoring import is_standard_complete, waits
from scoring.tiles import counts, parse_tiles

SETS: list[tuple[int, ...]] = [(i, i, i) for i in range(34)] + [
    (b + n, b + n + 1, b + n + 2) for b in (0, 9, 18) for n in range(7)
]
R13 = ShapeRules(13, 4)
R16 = ShapeRules(16, 5)


def brute_standard(h: Sequence[int], k: int, meld: Sequence[int]) -> int:
    """min |T - h| - 1 over every target of k sets + a pair (all of them enumerated)."""
    best = 99
    for sets in itertools.combinations_with_replacement(SETS, k):
        base: dict[int, int] = {}
        for s in sets:
            for t in s:
                base[t] = base.get(t, 0) + 1
        for pair in range(34):
            tgt = dict(base)
            tgt[pair] = tgt.get(pair, 0) + 2
            if any(n + meld[t] > 4 for t, n in tgt.items()):
                continue
            d = sum(max(0, n - h[t]) for t, n in tgt.items())
            best = min(best, d)
    return best - 1


def _hand(draw: st.DrawFn, n: int, exclude: Sequence[int] = ()) -> list[int]:
    avail = [t for t in range(34) for _ in range(4 - exclude[t] if exclude else 4)]
    idx = draw(st.lists(st.integers(0, len(avail) - 1), min_size=n, max_size=n, unique=True))
    return counts(avail[i] for i in idx)  # type: ignore[misc]


@st.composite
def small_hands(draw: st.DrawFn) -> tuple[list[int], int, list[int], ShapeRules]:
    """A concealed hand of 3k+1 or 3k+2 tiles (k = 1 or 2) next to random melds."""
    rules = draw(st.sampled_from([R13, R16]))
    k = draw(st.integers(1, 2))
    n_melds = rules.sets - k
    meld = [0] * 34
    for _ in range(n_melds):
        s = draw(st.sampled_from(SETS))
        if all(meld[t] + s.count(t) <= 4 for t in s):
            for t in s:
                meld[t] += 1
        else:
            for t in (27, 27, 27) if meld[27] == 0 else (33, 33, 33):
                meld[t] += 1
    extra = draw(st.integers(1, 2))
    if draw(st.booleans()):  # near-complete: a complete hand with a few tiles swapped
        tiles: list[int] = []
        for _ in range(k):
            tiles += draw(st.sampled_from(SETS))
        tiles += [draw(st.integers(0, 33))] * 2
        tiles = tiles[: 3 * k + extra]
        for _ in range(draw(st.integers(0, 2))):
            tiles[draw(st.integers(0, len(tiles) - 1))] = draw(st.integers(0, 33))
        h = counts(tiles)  # type: ignore[arg-type]
        if any(h[t] + meld[t] > 4 for t in range(34)):
            h = _hand(draw, 3 * k + extra, meld)
    else:
        h = _hand(draw, 3 * k + extra, meld)
    return h, n_melds, meld, rules


@settings(max_examples=60, deadline=None)
@given(small_hands())
def test_standard_matches_brute_force(case: tuple[list[int], int, list[int], ShapeRules]) -> None:
    h, n_melds, meld, rules = case
    k = rules.sets - n_melds
    assert shanten(h, n_melds, rules, meld) == brute_standard(h, k, meld)


@st.composite
def full_hands(draw: st.DrawFn) -> list[int]:
    if draw(st.booleans()):
        return _hand(draw, 13)
    tiles: list[int] = []
    for _ in range(4):
        tiles += draw(st.sampled_from(SETS))
    tiles += [draw(st.integers(0, 33))]
    for _ in range(draw(st.integers(0, 2))):
        tiles[draw(st.integers(0, 12))] = draw(st.integers(0, 33))
    h = counts(tiles)  # type: ignore[arg-type]
    return h if max(h) <= 4 else _hand(draw, 13)


@settings(max_examples=30, deadline=None)
@given(full_hands())
def test_ready_and_complete_agree_with_scoring(h: list[int]) -> None:
    """shanten 0 ⇔ the scoring engine finds waits; -1 ⇔ complete; one step per tile."""
    s = shanten(h, 0, R13)
    w = waits(h, is_standard_complete, h)
    assert (s == 0) == bool(w)
    after = []
    for t in range(34):
        if h[t] >= 4:
            continue
        h[t] += 1
        s14 = shanten(h, 0, R13)
        assert (s14 == -1) == is_standard_complete(h)
        assert s14 >= s - 1
        after.append(s14)
        # the best discard of a 14-tile hand keeps its shanten number
        best = min(shanten([*h[:d], h[d] - 1, *h[d + 1 :]], 0, R13) for d in range(34) if h[d])
        assert best == max(s14, 0)
        h[t] -= 1
    assert min(after) == s - 1 if s >= 0 else True


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 135), min_size=13, max_size=13, unique=True))
def test_seven_pairs_distinct_kinds(idx: list[int]) -> None:
    """Without four-as-two: 13 - (sum of the 7 best min(count, 2)) ... - 1 (classic formula)."""
    h = counts(i // 4 for i in idx)  # type: ignore[misc]
    top = sorted((min(n, 2) for n in h), reverse=True)[:7]
    assert pairs_distance(h, PairsShape(7, 0, False)) - 1 == 13 - sum(top)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 135), min_size=13, max_size=13, unique=True))
def test_orphans_classic_formula(idx: list[int]) -> None:
    h = counts(i // 4 for i in idx)  # type: ignore[misc]
    kinds = sum(1 for i in ORPHANS if h[i])
    pair = any(h[i] >= 2 for i in ORPHANS)
    assert orphans_distance(h, OrphansShape(0)) - 1 == 13 - kinds - (1 if pair else 0)


CASES = [
    # (tiles, melds, rules, expected) — hand-checked
    ("123m 456m 789m 1111p", 0, R13, 1),  # a fifth 1p would be needed for the "ready" reading
    ("123m 456m 789m 111p 2p", 0, R13, 0),
    ("123m 456m 789m 111p 22p", 0, R13, -1),
    ("19m 19p 19s we ws ww wn dr dg dw", 0, ShapeRules(orphans_shapes=(OrphansShape(),)), 0),
    ("1133557799m 1133p", 0, ShapeRules(pairs_shapes=(PairsShape(7),)), -1),
    ("11113355779m 11p", 0, ShapeRules(pairs_shapes=(PairsShape(7, 0, True),)), 0),
    ("11113355779m 11p", 0, ShapeRules(pairs_shapes=(PairsShape(7, 0, False),)), 2),
    ("3388m 1122p 447s wsws wnwn ws", 0, ShapeRules(16, 5, (PairsShape(7, 1),)), 0),
    ("19m 19p 19s we ws ww wn dr dg dw 678s", 0, ShapeRules(16, 5, (), (OrphansShape(1),)), 0),
    ("123m 456m 789m 123p 456p 7p", 0, R16, 0),
    ("1m", 4, R13, 0),
    ("1m 9p", 4, R13, 0),
]


def test_hand_checked_cases() -> None:
    for text, melds, rules, expected in CASES:
        words = text.replace("wsws", "ws ws").replace("wnwn", "wn wn")
        h = counts(parse_tiles(words))
        assert shanten(h, melds, rules) == expected, text


def dp_pairs(h: Sequence[int], P: int, Q: int, four_as_two: bool) -> int:
    """Reference: a knapsack over the 34 kinds (pair / two pairs / pung per kind)."""
    inf = 99
    dp = [[inf] * (Q + 1) for _ in range(P + 1)]
    dp[0][0] = 0
    for i in range(34):
        opts = [(1, 0, max(0, 2 - h[i])), (0, 1, max(0, 3 - h[i]))]
        if four_as_two:
            opts.append((2, 0, max(0, 4 - h[i])))
        new = [row[:] for row in dp]
        for p in range(P + 1):
            for q in range(Q + 1):
                for dp_, dq, cost in opts:
                    if p + dp_ <= P and q + dq <= Q and dp[p][q] + cost < new[p + dp_][q + dq]:
                        new[p + dp_][q + dq] = dp[p][q] + cost
        dp = new
    return dp[P][Q]


@settings(max_examples=80, deadline=None)
@given(
    st.sampled_from([(13, 7, 0), (16, 7, 1)]),
    st.booleans(),
    st.data(),
)
def test_pairs_shapes_match_knapsack(
    size: tuple[int, int, int], four: bool, data: st.DataObject
) -> None:
    n, P, Q = size
    idx = data.draw(st.lists(st.integers(0, 135), min_size=n, max_size=n + 1, unique=True))
    h = counts(i // 4 for i in idx)  # type: ignore[misc]
    assert pairs_distance(h, PairsShape(P, Q, four)) == dp_pairs(h, P, Q, four)


def brute_orphans16(h: Sequence[int]) -> int:
    """Reference: every duplicate × every extra set, target counted in full."""
    best = 99
    for d in ORPHANS:
        for s in SETS:
            tgt = dict.fromkeys(ORPHANS, 1)
            tgt[d] += 1
            for t in s:
                tgt[t] = tgt.get(t, 0) + 1
            if any(n > 4 for n in tgt.values()):
                continue
            best = min(best, sum(max(0, n - h[t]) for t, n in tgt.items()))
    return best


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_orphans_with_a_set_matches_brute_force(data: st.DataObject) -> None:
    # biased towards terminals and honours so that near-ready hands occur
    pool = [t for t in range(34) for _ in range(4)]
    weights = st.sampled_from([t for t in ORPHANS for _ in range(4)] + pool)
    tiles = data.draw(st.lists(weights, min_size=16, max_size=17))
    h = counts(tiles)  # type: ignore[arg-type]
    assume(max(h) <= 4)
    assert orphans_distance(h, OrphansShape(1)) == brute_orphans16(h)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([13, 16]), st.integers(0, 1), st.data())
def test_useful_tiles_match_shanten_per_draw(
    size: int, random_hand: int, data: st.DataObject
) -> None:
    """The fast ukeire (per-group products) agrees with one shanten call per draw."""
    rules = (
        ShapeRules(13, 4, (PairsShape(7),), (OrphansShape(0),))
        if size == 13
        else ShapeRules(16, 5, (PairsShape(7, 1),), (OrphansShape(1),))
    )
    if random_hand:  # else: a hand rich in terminals and honours (orphans shapes matter)
        pool = [t for t in range(34) for _ in range(4)]
        idx = data.draw(st.lists(st.integers(0, 135), min_size=size, max_size=size, unique=True))
        h = counts(pool[i] for i in idx)  # type: ignore[misc]
    else:
        tiles = [t for t in ORPHANS] + data.draw(
            st.lists(st.sampled_from(ORPHANS), min_size=size - 13, max_size=size - 13)
        )
        h = counts(tiles)  # type: ignore[arg-type]
        assume(max(h) <= 4)
    s = shanten(h, 0, rules)
    expected = []
    for t in range(34):
        if h[t] >= 4:
            continue
        h[t] += 1
        if shanten(h, 0, rules) < s:
            expected.append(t)
        h[t] -= 1
    assert useful_tiles(h, 0, rules) == expected
