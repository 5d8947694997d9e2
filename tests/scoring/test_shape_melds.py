"""Completeness with the declared melds known: the special shapes that allow only some kinds
of meld (the 16-tile 十三么 of hk-tw16 and tw16-tai: its set may be a concealed kong, never an
exposed meld) answer exactly when ``RuleSet.is_complete`` / ``RuleSet.waits`` get the melds."""

from __future__ import annotations

import random
from typing import Any

import pytest

from scoring import get_ruleset, score
from scoring.decompose import waits as decompose_waits
from scoring.hand import Meld
from scoring.tiles import Tile, counts, parse_tiles

#: the 13 orphans with 1m missing (13 tiles): a 16-tile hand once a set is declared
CORE_13 = "9m 1p 9p 1s 9s we ws ww wn dr dg dw dw"
CONCEALED_KONG = Meld.kong(Tile.P5, concealed=True)
EXPOSED_KONG = Meld.kong(Tile.P5, claimed=Tile.P5, source=None)
EXPOSED_PUNG = Meld.pung(Tile.P5)


def _complete_counts() -> list[int]:
    return counts(parse_tiles(CORE_13 + " 1m"))


def _hand(ruleset: str, meld: dict[str, Any]) -> dict[str, Any]:
    return {
        "ruleset": ruleset,
        "concealed": CORE_13.split(),
        "melds": [meld],
        "flowers": [],
        "win_tile": "1m",
        "win": {"self_drawn": False},
        "seat_wind": "we",
        "round_wind": "we",
    }


@pytest.mark.parametrize(
    ("ruleset", "without_melds"),
    [
        ("hk-tw16", True),  # answers from the number of melds alone: any one meld
        ("tw16-tai", False),  # answers from the number alone: none (as before)
    ],
)
def test_orphans_complete_depends_on_the_meld_kind(ruleset: str, without_melds: bool) -> None:
    rs = get_ruleset(ruleset)
    c = _complete_counts()
    assert rs.is_complete(c, 1) is without_melds  # the backward-compatible call
    assert rs.is_complete(c, 1, melds=[CONCEALED_KONG])
    assert not rs.is_complete(c, 1, melds=[EXPOSED_KONG])
    assert not rs.is_complete(c, 1, melds=[EXPOSED_PUNG])


@pytest.mark.parametrize("ruleset", ["hk-tw16", "tw16-tai"])
def test_orphans_waits_depend_on_the_meld_kind(ruleset: str) -> None:
    rs = get_ruleset(ruleset)
    before = counts(parse_tiles(CORE_13))
    assert rs.waits(before, 1, melds=[CONCEALED_KONG]) == [Tile.M1]
    assert rs.waits(before, 1, melds=[EXPOSED_PUNG]) == []
    assert rs.waits(before, 1, melds=[EXPOSED_KONG]) == []


def test_melds_must_match_their_number() -> None:
    with pytest.raises(ValueError):
        get_ruleset("hk-tw16").is_complete(_complete_counts(), 0, melds=[CONCEALED_KONG])


@pytest.mark.parametrize(
    ("ruleset", "pattern"), [("hk-tw16", "thirteen-orphans"), ("tw16-tai", "thirteen-orphans")]
)
def test_orphans_with_a_concealed_kong_score(ruleset: str, pattern: str) -> None:
    res = score(_hand(ruleset, {"kind": "kong", "tiles": ["5p"] * 4, "concealed": True}))
    assert res["error"] is None, res
    assert pattern in {i["id"] for i in res["items"]}
    assert res["waits"] == ["1m"]
    blocks = res["arrangement"]["blocks"]
    assert blocks[0] == {
        "kind": "kong",
        "tiles": ["5p"] * 4,
        "concealed": True,
        "melded": True,
    }


@pytest.mark.parametrize("ruleset", ["hk-tw16", "tw16-tai"])
@pytest.mark.parametrize(
    "meld",
    [
        {"kind": "kong", "tiles": ["5p"] * 4, "from": "left"},
        {"kind": "pung", "tiles": ["5p"] * 3, "from": "left"},
    ],
)
def test_orphans_with_an_exposed_meld_are_no_win(ruleset: str, meld: dict[str, Any]) -> None:
    res = score(_hand(ruleset, meld))
    assert res["error_code"] == "not-a-win", res


def test_shapes_without_melds_of_their_own_ignore_them() -> None:
    """MCR's shapes do not depend on meld kinds: passing the melds changes nothing."""
    mcr = get_ruleset("mcr")
    c = counts(parse_tiles("147m 258p 369s 5m"))  # knitted straight + 5m (+ a set declared)
    pung = Meld.pung(Tile.EAST)
    assert mcr.waits(c, 1, melds=[pung]) == mcr.waits(c, 1) == [Tile.M5]
    c[Tile.M5] += 1
    assert mcr.is_complete(c, 1, melds=[pung]) and mcr.is_complete(c, 1)


def _ready_counts(rng: random.Random, sets: int) -> list[int]:
    """Concealed counts one tile short of ``sets`` sets + a pair (random chows / pungs), or
    a random perturbation of them (mostly not ready)."""
    c = [0] * 34
    for _ in range(sets):
        while True:
            if rng.random() < 0.6:
                t = rng.randrange(27)
                if t % 9 <= 6 and all(c[t + k] < 4 for k in range(3)):
                    for k in range(3):
                        c[t + k] += 1
                    break
            else:
                t = rng.randrange(34)
                if c[t] <= 1:
                    c[t] += 3
                    break
    while True:
        t = rng.randrange(34)
        if c[t] <= 2:
            c[t] += 2
            break
    c[rng.choice([t for t in range(34) if c[t]])] -= 1
    if rng.random() < 0.3:
        i, j = rng.randrange(34), rng.randrange(34)
        if c[i] and c[j] < 4:
            c[i] -= 1
            c[j] += 1
    return c


@pytest.mark.parametrize("name", ["hk-tw16", "tw16-tai", "zung-jung", "zung-jung-v3.3", "mcr"])
def test_fast_waits_equal_the_tile_by_tile_test(name: str) -> None:
    """RuleSet.waits (standard waits from the per-group tables, special shapes tile by tile)
    == trying RuleSet.is_complete on every tile, with and without declared melds."""
    rs = get_ruleset(name)
    rng = random.Random(name)
    ready = 0
    for _ in range(400):
        n_melds = rng.choice([0, 0, 1, 2])
        c = _ready_counts(rng, rs.sets - n_melds)
        melds = [Meld.pung(Tile.WHITE)] * n_melds  # counts stay within four of a kind
        held = list(c)
        held[Tile.WHITE] += 3 * n_melds
        if max(held) > 4:
            continue
        expected = decompose_waits(c, lambda x, n=n_melds, m=melds: rs.is_complete(x, n, m), held)
        assert rs.waits(c, n_melds, held, melds) == expected, (c, n_melds)
        ready += bool(expected)
    assert ready > 150  # most generated hands are ready (the test is not vacuous)


def _special_candidates(rng: random.Random, size: int) -> list[tuple[list[int], int]]:
    """Complete counts (win tile included) of the special shapes, some random: pairs (and a
    triplet), thirteen orphans (with a set, or its kong declared), 十六不搭 — with the number
    of declared melds. Shapes a rule set does not have are simply not complete for it."""
    out: list[tuple[list[int], int]] = []
    orphans = [0, 8, 9, 17, 18, 26, *range(27, 34)]
    for _ in range(40):
        c = [0] * 34
        for t in rng.sample(range(34), 8 if size == 16 else 7):
            c[t] = 2
        if size == 16:
            c[rng.choice([t for t in range(34) if c[t]])] += 1  # 嚦咕嚦咕: one triplet
        out.append((c, 0))
        c = [0] * 34
        for t in orphans:
            c[t] = 1
        c[rng.choice(orphans)] += 1
        if size == 16:
            out.append((list(c), 1))  # the set declared as a concealed kong
            t = rng.randrange(34)
            if t < 27 and t % 9 <= 6 and rng.random() < 0.5:
                for k in range(3):
                    c[t + k] += 1
            elif c[t] <= 1:
                c[t] += 3
        out.append((c, 0))
        if size == 16:
            c = [0] * 34
            for t in range(27, 34):
                c[t] = 1
            for base in (0, 9, 18):
                a = rng.randrange(3)
                b = rng.randrange(a + 3, 6)
                for k in (a, b, rng.randrange(b + 3, 9)):
                    c[base + k] = 1
            c[rng.choice([t for t in range(34) if c[t]])] += 1
            out.append((c, 0))
    return out


@pytest.mark.parametrize("name", ["hk-tw16", "tw16-tai", "zung-jung", "riichi", "mcr"])
def test_shape_ready_holds_one_tile_from_every_shape(name: str) -> None:
    """SpecialShape.ready (the shortcut of RuleSet.waits) is a necessary condition: every
    special hand less any one of its tiles passes it, and RuleSet.waits finds that tile."""
    rs = get_ruleset(name)
    rng = random.Random(name)
    checked = 0
    for c, n_melds in _special_candidates(rng, rs.hand_size):
        if max(c) > 4:
            continue
        melds = [Meld.kong(Tile.WHITE, concealed=True)] * n_melds
        for sh in rs.shapes:
            if not sh.matches(c, n_melds, melds or None):
                continue
            for t in range(34):
                if not c[t]:
                    continue
                before = list(c)
                before[t] -= 1
                held = list(before)
                held[Tile.WHITE] += 4 * n_melds
                assert sh.ready is None or sh.ready(before, n_melds), (sh.name, before)
                if max(held) <= 4 and held[t] < 4:
                    assert Tile(t) in rs.waits(before, n_melds, held, melds or None), before
                checked += 1
    assert checked > (200 if name != "mcr" else 0)
