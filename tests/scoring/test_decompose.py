"""Decomposition and waits, checked against a brute-force reference."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import Hand, Tile, Wait, is_standard_complete, waits
from scoring.decompose import BlockKind, concealed_splits, standard_arrangements
from scoring.tiles import counts, parse_tiles


def brute_complete(c: list[int]) -> bool:
    """Independent reference: try every pair, then greedily-exhaustive set removal."""

    def sets_only(c: list[int]) -> bool:
        for i in range(34):
            if c[i]:
                break
        else:
            return True
        ok = False
        if c[i] >= 3:
            c[i] -= 3
            ok = sets_only(c)
            c[i] += 3
        if not ok and i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
            for k in range(3):
                c[i + k] -= 1
            ok = sets_only(c)
            for k in range(3):
                c[i + k] += 1
        return ok

    if sum(c) % 3 != 2:
        return False
    for p in range(34):
        if c[p] >= 2:
            c[p] -= 2
            ok = sets_only(c)
            c[p] += 2
            if ok:
                return True
    return False


def hand(tiles: str, win_tile: str, **kw: object) -> Hand:
    return Hand.from_json({"ruleset": "x", "concealed": tiles.split(), "win_tile": win_tile, **kw})


def test_nine_gates_waits_are_all_nine() -> None:
    c = counts(parse_tiles("1112345678999m"))
    assert [str(t) for t in waits(c)] == [f"{n}m" for n in range(1, 10)]


def test_wait_kinds() -> None:
    cases = [
        ("1m 2m 4p 5p 6p 7s 8s 9s we we we dr dr", "3m", Wait.EDGE),
        ("1m 3m 4p 5p 6p 7s 8s 9s we we we dr dr", "2m", Wait.CLOSED),
        ("2m 3m 4p 5p 6p 7s 8s 9s we we we dr dr", "4m", Wait.TWO_SIDED),
        ("2m 3m 4m 4p 5p 6p 7s 8s 9s we we we dr", "dr", Wait.SINGLE),
        ("2m 3m 4m 4p 5p 6p 7s 8s 9s we we dr dr", "dr", Wait.DUAL_PUNG),
    ]
    for tiles, win, wait in cases:
        arrs = standard_arrangements(hand(tiles, win))
        assert [a.wait for a in arrs] == [wait], (tiles, win)


def test_pung_completed_by_discard_is_exposed() -> None:
    h = hand("2m 3m 4m 4p 5p 6p 7s 8s 9s we we dr dr", "dr")
    (a,) = standard_arrangements(h)
    pung = a.blocks[a.win_block]  # type: ignore[index]
    assert pung.kind is BlockKind.PUNG and not pung.concealed
    h2 = hand("2m 3m 4m 4p 5p 6p 7s 8s 9s we we dr dr", "dr", win={"self_drawn": True})
    (a2,) = standard_arrangements(h2)
    assert a2.blocks[a2.win_block].concealed  # type: ignore[index]


def test_one_arrangement_per_win_block() -> None:
    # 11 23 + win 1 → 11 + 123: the 1 completes the chow (two-sided 23) or the pair
    h = hand("1m 1m 2m 3m 4p 5p 6p 7s 8s 9s dr dr dr", "1m")
    kinds = sorted(
        (a.blocks[a.win_block].kind.value, a.wait.value) for a in standard_arrangements(h)
    )  # type: ignore[index]
    assert kinds == [("chow", "two-sided"), ("pair", "single")]


tile_lists = st.lists(st.integers(0, 33), min_size=2, max_size=17).filter(
    lambda xs: max(Counter(xs).values()) <= 4 and len(xs) % 3 == 2
)


@settings(max_examples=400, deadline=None)
@given(tile_lists)
def test_complete_matches_brute_force(xs: list[int]) -> None:
    c = [0] * 34
    for x in xs:
        c[x] += 1
    assert is_standard_complete(c) == brute_complete(list(c))
    splits = concealed_splits(c)
    assert bool(splits) == is_standard_complete(c)
    for pair, sets in splits:
        used = Counter({pair: 2})
        for kind, t in sets:
            if kind is BlockKind.CHOW:
                used.update([t, t + 1, t + 2])
            else:
                used.update([t] * 3)
        assert dict(used) == {i: n for i, n in enumerate(c) if n}


def _complete_hands() -> st.SearchStrategy[list[int]]:
    chow = st.integers(0, 26).filter(lambda i: i % 9 <= 6).map(lambda i: [i, i + 1, i + 2])
    pung = st.integers(0, 33).map(lambda i: [i] * 3)
    pair = st.integers(0, 33).map(lambda i: [i] * 2)
    return (
        st.tuples(st.lists(st.one_of(chow, pung), min_size=4, max_size=5), pair)
        .map(lambda t: [x for s in t[0] for x in s] + t[1])
        .filter(lambda xs: max(Counter(xs).values()) <= 4)
    )


@settings(max_examples=300, deadline=None)
@given(_complete_hands(), st.data())
def test_waits_contain_the_removed_tile(xs: list[int], data: st.DataObject) -> None:
    c = [0] * 34
    for x in xs:
        c[x] += 1
    assert is_standard_complete(c)
    removed = data.draw(st.sampled_from(xs))
    c[removed] -= 1
    w = waits(c)
    assert Tile(removed) in w
    for t in w:
        c[t] += 1
        assert brute_complete(list(c))
        c[t] -= 1
