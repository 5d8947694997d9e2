"""tw16-tai properties: renaming the suits or mirroring the numbers (n -> 10 - n) changes no
score.

No row of the table names a suit or a number that the mirror does not map onto itself:
将眼 2/5/8 -> 8/5/2; 么九 1/9 -> 9/1; 明龙/暗龙/花龙 123/456/789 -> 789/456/123; 三不搭
147/258/369 -> 369/258/147; edge and closed waits stay edge and closed. So the list of
tile-specific exceptions is empty for both transformations (other rule sets list theirs here).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from scoring import score
from scoring.tiles import KINDS, Tile

MIRROR_EXCEPTIONS: frozenset[str] = frozenset()  # rows that may change under the mirror
PERMUTATION_EXCEPTIONS: frozenset[str] = frozenset()  # rows that may change under a renaming

WINDS = ["we", "ws", "ww", "wn"]

TIE_HAND: dict[str, Any] = {
    "ruleset": "tw16-tai",
    "concealed": ["4p", "4p", "5p", "6p", "7p", "7p", "7p"],
    "melds": [
        {"kind": "kong", "tiles": ["1m", "1m", "1m", "1m"], "from": "opposite"},
        {"kind": "pung", "tiles": ["8m", "8m", "8m"], "from": "left"},
        {"kind": "kong", "tiles": ["2m", "2m", "2m", "2m"], "from": "opposite"},
    ],
    "flowers": [],
    "win_tile": "4p",
    "win": {"self_drawn": True},
    "seat_wind": "we",
    "round_wind": "we",
    "context": {},
}


def _kind_sets() -> list[tuple[str, Tile]]:
    out: list[tuple[str, Tile]] = [("pung", t) for t in KINDS]
    out += [("chow", t) for t in KINDS[:27] if t.number <= 7]
    return out


SETS = _kind_sets()


def _set_tiles(kind: str, t: Tile) -> list[Tile]:
    if kind == "chow":
        return [t, Tile(t + 1), Tile(t + 2)]
    return [t] * (4 if kind == "kong" else 3)


@st.composite
def standard_hands(draw: st.DrawFn) -> dict[str, Any]:
    """A random complete 17-tile hand: five sets and a pair, some of them declared."""
    used = [0] * 34
    blocks: list[tuple[str, Tile]] = []
    while len(blocks) < 5:
        i = draw(st.integers(0, len(SETS) - 1))
        kong = draw(st.integers(0, 4)) == 0
        for k in range(len(SETS)):  # the first set from i on that still fits
            kind, t = SETS[(i + k * 7) % len(SETS)]
            if kind == "pung" and kong:
                kind = "kong"
            tiles = _set_tiles(kind, t)
            if all(used[x] + tiles.count(x) <= 4 for x in tiles):
                break
        for x in tiles:
            used[x] += 1
        blocks.append((kind, t))
    pair = draw(st.sampled_from([t for t in KINDS if used[t] <= 2]))
    used[pair] += 2
    melds: list[dict[str, Any]] = []
    concealed: list[str] = [str(pair)] * 2
    for kind, t in blocks:
        tiles = [str(x) for x in _set_tiles(kind, t)]
        if kind == "kong":
            if draw(st.booleans()):
                melds.append({"kind": "kong", "tiles": tiles, "concealed": True})
            else:
                melds.append({"kind": "kong", "tiles": tiles, "from": "opposite"})
        elif draw(st.integers(0, 3)) == 0:
            src = "left" if kind == "chow" else draw(st.sampled_from(["left", "opposite", "right"]))
            melds.append({"kind": kind, "tiles": tiles, "from": src})
        else:
            concealed.extend(tiles)
    win_i = draw(st.integers(0, len(concealed) - 1))
    win = concealed.pop(win_i)
    flowers = draw(
        st.lists(st.sampled_from([f"f{i}" for i in range(1, 9)]), unique=True, max_size=5)
    )
    ctx: dict[str, Any] = {}
    if draw(st.booleans()):
        ctx["dealer"] = True
        ctx["dealer_streak"] = draw(st.integers(0, 3))
    if draw(st.booleans()):
        ctx["tiles_seen"] = draw(st.integers(0, 20))
    return {
        "ruleset": "tw16-tai",
        "concealed": concealed,
        "melds": melds,
        "flowers": flowers,
        "win_tile": win,
        "win": {"self_drawn": draw(st.booleans())},
        "seat_wind": draw(st.sampled_from(WINDS)),
        "round_wind": draw(st.sampled_from(WINDS)),
        "context": ctx,
    }


@st.composite
def special_hands(draw: st.DrawFn) -> dict[str, Any]:
    """Random 呖咕呖咕 / 十六不搭 / 十三么 hands."""
    kind = draw(st.sampled_from(["likgu", "sixteen", "orphans"]))
    tiles: list[Tile]
    if kind == "likgu":
        kinds = draw(st.lists(st.sampled_from(KINDS), min_size=8, max_size=8, unique=True))
        tiles = [kinds[0]] * 3 + [k for k in kinds[1:] for _ in range(2)]
    elif kind == "sixteen":
        groups = [(0, 3, 6), (0, 3, 7), (0, 3, 8), (0, 4, 7), (0, 4, 8), (0, 5, 8), (1, 4, 7),
                  (1, 4, 8), (1, 5, 8), (2, 5, 8)]  # fmt: skip
        tiles = [Tile(b + i) for b in (0, 9, 18) for i in draw(st.sampled_from(groups))]
        tiles += list(KINDS[27:])
        tiles.append(draw(st.sampled_from(tiles)))
    else:
        orphans = [t for t in KINDS if t.is_terminal_or_honor]
        tiles = [*orphans, draw(st.sampled_from(orphans))]
        s = draw(st.sampled_from(SETS))
        extra = [s[1]] * 3 if s[0] == "pung" else [s[1], Tile(s[1] + 1), Tile(s[1] + 2)]
        if any(tiles.count(x) + extra.count(x) > 4 for x in extra):
            extra = [Tile.parse("5p")] * 3
        tiles += extra
    codes = [str(t) for t in tiles]
    win = codes.pop(draw(st.integers(0, len(codes) - 1)))
    return {
        "ruleset": "tw16-tai",
        "concealed": codes,
        "win_tile": win,
        "win": {"self_drawn": draw(st.booleans())},
        "seat_wind": draw(st.sampled_from(WINDS)),
        "flowers": draw(st.lists(st.sampled_from([f"f{i}" for i in range(1, 9)]), unique=True)),
    }


def _map_hand(hand: dict[str, Any], f: Callable[[str], str]) -> dict[str, Any]:
    out = dict(hand)
    out["concealed"] = [f(t) for t in hand["concealed"]]
    out["win_tile"] = f(hand["win_tile"])
    out["melds"] = [{**m, "tiles": [f(t) for t in m["tiles"]]} for m in hand.get("melds", [])]
    return out


def _mirror(code: str) -> str:
    if code[0].isdigit():
        return f"{10 - int(code[0])}{code[1]}"
    return code


def _permute(perm: dict[str, str]) -> Callable[[str], str]:
    return lambda code: f"{code[0]}{perm[code[1]]}" if code[0].isdigit() else code


def _breakdown(r: dict[str, Any], ignore: frozenset[str]) -> dict[str, tuple[int, int]]:
    assert r["error"] is None, r["error"]
    return {i["id"]: (i["points"], i["count"]) for i in r["items"] if i["id"] not in ignore}


hands = st.one_of(standard_hands(), special_hands())
PERMS = st.permutations(["m", "p", "s"]).map(lambda p: dict(zip("mps", p, strict=True)))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands, PERMS)
def test_suit_permutation_changes_nothing(hand: dict[str, Any], perm: dict[str, str]) -> None:
    a = score(hand)
    b = score(_map_hand(hand, _permute(perm)))
    assert _breakdown(a, PERMUTATION_EXCEPTIONS) == _breakdown(b, PERMUTATION_EXCEPTIONS)
    assert a["total"] == b["total"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands)
# Two readings tie (对碰 through 44 77 vs 假独 through the pair): found by hypothesis, the
# choice used to follow the enumeration order, which the mirror changes.
@example(hand=TIE_HAND)
def test_number_mirror_changes_nothing(hand: dict[str, Any]) -> None:
    a = score(hand)
    b = score(_map_hand(hand, _mirror))
    assert _breakdown(a, MIRROR_EXCEPTIONS) == _breakdown(b, MIRROR_EXCEPTIONS)
    assert a["total"] == b["total"]
    assert sorted(_mirror(w) for w in a["waits"]) == sorted(b["waits"])
