"""MCR's combination principles: the fans a hand's chows or pungs form together."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache

from scoring.rulesets.mcr.data import (
    _DRAGONS,
    _WINDS,
)

# -- the combination principles --------------------------------------------------------------

# A set is described by (suit, rank) of its lowest tile; suits 0-2 numbered, 3 honours, whose
# "rank" is the tile index (winds 27-30, dragons 31-33).
_Set = tuple[int, int]

_PAIR_CHOW_PRIORITY = (
    "pure-double-chow",
    "mixed-double-chow",
    "short-straight",
    "two-terminal-chows",
)


def _two_chows(a: _Set, b: _Set) -> str | None:
    """The fan two chows make together (at most one)."""
    (sa, ra), (sb, rb) = a, b
    if sa != sb:
        return "mixed-double-chow" if ra == rb else None
    if abs(ra - rb) == 3:
        return "short-straight"
    if {ra, rb} == {1, 7}:
        return "two-terminal-chows"
    if ra == rb:
        return "pure-double-chow"
    return None


def _shifted(ranks: Sequence[int], step: int) -> bool:
    return all(ranks[i] + step == ranks[i + 1] for i in range(len(ranks) - 1))


def _three_chows(a: _Set, b: _Set, c: _Set) -> str | None:
    """The fan three chows make together (sets sorted)."""
    suits = {a[0], b[0], c[0]}
    ranks = sorted((a[1], b[1], c[1]))
    if len(suits) == 3:
        if _shifted(ranks, 1):
            return "mixed-shifted-chows"
        if ranks[0] == ranks[2]:
            return "mixed-triple-chow"
        if ranks == [1, 4, 7]:
            return "mixed-straight"
        return None
    if len(suits) == 1:
        if ranks == [1, 4, 7]:
            return "pure-straight"
        if _shifted(ranks, 2) or _shifted(ranks, 1):
            return "pure-shifted-chows"
        if ranks[0] == ranks[2]:
            return "pure-triple-chow"
    return None


def _four_chows(s: Sequence[_Set]) -> str | None:
    if len({x[0] for x in s}) != 1:
        return None
    ranks = [x[1] for x in s]
    if _shifted(ranks, 2) or _shifted(ranks, 1):
        return "four-pure-shifted-chows"
    if ranks[0] == ranks[3]:
        return "quadruple-chow"
    return None


def _limit_pairs(found: Sequence[str | None], limit: int) -> dict[str, int]:
    """Two-chow fans among chows no three of which make a fan, at most ``limit`` of them.

    ``limit`` comes from account-once (n chows give at most n-1 combinations, fewer when a
    chow combines with nothing). When more are found, duplicates go first (non-identical),
    starting from the cheapest-to-drop end of the priority list (Two Terminal Chows back to
    Pure Double Chow), first down to one of a kind, then to none.
    """
    table = {k: 0 for k in _PAIR_CHOW_PRIORITY}
    for fan in found:
        if fan is not None:
            table[fan] += 1
    count = sum(table.values())
    keep = 1
    while count > limit and keep >= 0:
        for fan in reversed(_PAIR_CHOW_PRIORITY):
            while table[fan] > keep and count > limit:
                table[fan] -= 1
                count -= 1
        keep -= 1
    return {k: v for k, v in table.items() if v}


@cache
def chow_combination_fans(chows: tuple[_Set, ...]) -> Mapping[str, int]:
    """The fans the chows of one arrangement make together, by the MCR principles.

    ``chows`` are (suit, lowest rank), sorted. The rules applied, in order:

    1. four chows making a four-chow fan (Quadruple Chow, Four Pure Shifted Chows) count that
       fan only;
    2. three chows making a three-chow fan (straights, shifted/triple chows) count it once;
       the remaining chow may then combine *once* (account-once) with one of the three, the
       most valuable two-chow fan first (Pure Double Chow, Mixed Double Chow, Short Straight,
       Two Terminal Chows);
    3. otherwise the two-chow fans of every pair count, but n chows can give at most n-1 of
       them (each combination must bring in a chow not yet used — account-once; a chow that
       combines with nothing reduces the allowance), trimming repeated fans first
       (non-identical) — see :func:`_limit_pairs`.

    The subsets are tried in the order of the sorted chows (first three, …), which decides the
    rare hands where two different triples would each make a fan.
    """
    n = len(chows)
    if n == 4:
        four = _four_chows(chows)
        if four:
            return {four: 1}
        for trio, extra in (((0, 1, 2), 3), ((0, 1, 3), 2), ((0, 2, 3), 1), ((1, 2, 3), 0)):
            three = _three_chows(*(chows[i] for i in trio))
            if three:
                out = {three: 1}
                pair_fans = {_two_chows(chows[i], chows[extra]) for i in trio}
                for fan in _PAIR_CHOW_PRIORITY:
                    if fan in pair_fans:
                        out[fan] = out.get(fan, 0) + 1
                        break
                return out
        pairs = [(i, j) for i in range(4) for j in range(i + 1, 4)]
        found = [_two_chows(chows[i], chows[j]) for i, j in pairs]
        limit = 3
        for k in range(4):
            if all(found[p] is None for p, (i, j) in enumerate(pairs) if k in (i, j)):
                limit -= 1
        return _limit_pairs(found, limit) if limit > 0 else {}
    if n == 3:
        three = _three_chows(*chows)
        if three:
            return {three: 1}
        found = [
            _two_chows(chows[0], chows[1]),
            _two_chows(chows[0], chows[2]),
            _two_chows(chows[1], chows[2]),
        ]
        return _limit_pairs(found, 2)
    if n == 2:
        pair_fan = _two_chows(*chows)
        return {pair_fan: 1} if pair_fan else {}
    return {}


def _two_pungs(a: _Set, b: _Set) -> str | None:
    if a[0] < 3 and b[0] < 3:
        return "double-pung" if a[1] == b[1] else None
    if a[0] == 3 and b[0] == 3 and a[1] in _DRAGONS and b[1] in _DRAGONS:
        return "two-dragons-pungs"
    return None


def _three_pungs(a: _Set, b: _Set, c: _Set) -> str | None:
    suits = [a[0], b[0], c[0]]
    ranks = sorted((a[1], b[1], c[1]))
    if all(s < 3 for s in suits):
        if len(set(suits)) == 3:
            if _shifted(ranks, 1):
                return "mixed-shifted-pungs"
            if ranks[0] == ranks[2]:
                return "triple-pung"
        elif len(set(suits)) == 1 and _shifted(ranks, 1):
            return "pure-shifted-pungs"
        return None
    if all(s == 3 for s in suits):
        if all(r in _WINDS for r in ranks):
            return "big-three-winds"
        if all(r in _DRAGONS for r in ranks):
            return "big-three-dragons"
    return None


@cache
def pung_combination_fans(pungs: tuple[_Set, ...]) -> Mapping[str, int]:
    """The fans the pungs (and kongs) of one arrangement make together.

    Same principles as :func:`chow_combination_fans`: a four-pung fan (Four Pure Shifted
    Pungs, Big Four Winds) counts alone; a three-pung fan counts once and the fourth pung may
    combine once more (Double Pung / Two Dragons Pungs); otherwise every pair counts.
    """
    n = len(pungs)
    if n == 4:
        suits = {p[0] for p in pungs}
        ranks = [p[1] for p in pungs]
        if len(suits) == 1 and pungs[0][0] < 3 and _shifted(ranks, 1):
            return {"four-pure-shifted-pungs": 1}
        if all(r in _WINDS for r in ranks) and pungs[0][0] == 3:
            return {"big-four-winds": 1}
        for trio, extra in (((0, 1, 2), 3), ((0, 1, 3), 2), ((0, 2, 3), 1), ((1, 2, 3), 0)):
            three = _three_pungs(*(pungs[i] for i in trio))
            if three:
                out = {three: 1}
                for i in sorted(trio):
                    fan = _two_pungs(pungs[i], pungs[extra])
                    if fan:
                        out[fan] = out.get(fan, 0) + 1
                        break
                return out
    elif n == 3:
        three = _three_pungs(*pungs)
        if three:
            return {three: 1}
    out2: dict[str, int] = {}
    for i in range(n):
        for j in range(i + 1, n):
            fan = _two_pungs(pungs[i], pungs[j])
            if fan:
                out2[fan] = out2.get(fan, 0) + 1
    return out2
