"""Shanten numbers (向聽數) for 13- and 16-tile hands, exact by distance.

Definition used throughout: the shanten number of a concealed hand ``h`` (with ``m`` declared
melds) is ``min |T - h| - 1`` over every complete concealed target ``T`` (the multiset of
tiles that would have to be held), where a tile kind may not be used more than the four
copies that exist minus the copies already in the player's own melds. So ``-1`` is a complete
hand (14/17 tiles), ``0`` is ready (聽牌), and a hand never counts as ready on a wait that
only a fifth copy could complete (the classic blind spot of the "sets + partial sets"
formula).

Shapes:

* **standard**: ``sets - m`` sets (chows, pungs) plus one pair in hand, ``sets`` being 4 for
  13-tile rule sets and 5 for 16-tile ones. Computed per suit by a small dynamic programme
  over the nine positions whose result (minimum missing tiles for every number of sets and
  pairs) is memoised on the suit's counts, then combined across the four groups by a
  min-plus product: after warm-up a hand costs four dictionary look-ups and a few dozen
  additions.
* **pairs-like** (:class:`PairsShape`): ``pairs`` pairs plus ``pungs`` pungs, no melds, with
  or without "four alike count as two pairs" — seven pairs (7, 0) and 嚦咕嚦咕 (7, 1).
* **orphans-like** (:class:`OrphansShape`): the 13 terminals and honours, one of them twice,
  plus ``sets`` concealed sets (0 for 十三么 in 13-tile rules, 1 in the 16-tile table).

Which special shapes a rule set has is not hard-coded: :func:`ShapeRules.from_ruleset`
probes each :class:`scoring.SpecialShape` of the rule set with canonical example hands (see
:mod:`bots.rules`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

__all__ = [
    "INF",
    "ORPHANS",
    "OrphansShape",
    "PairsShape",
    "ShapeRules",
    "caps_of",
    "orphans_distance",
    "pairs_distance",
    "shanten",
    "standard_distance",
    "standard_draw_distances",
    "useful_tiles",
]

INF = 99
#: indices of the 13 terminals and honours
ORPHANS: tuple[int, ...] = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
_IS_ORPHAN = tuple(i in ORPHANS for i in range(34))
_MAX_SETS = 5  # 16-tile hands: five sets
_W = 2 * (_MAX_SETS + 1)  # vector width: index s * 2 + p

_FULL_CAP = (4,) * 34


@dataclass(frozen=True, slots=True)
class PairsShape:
    """``pairs`` pairs + ``pungs`` pungs, fully concealed (no melds)."""

    pairs: int
    pungs: int = 0
    four_as_two: bool = True


@dataclass(frozen=True, slots=True)
class OrphansShape:
    """One of each terminal and honour, one of them twice, plus ``sets`` concealed sets."""

    sets: int = 0


@dataclass(frozen=True, slots=True)
class ShapeRules:
    """What a complete hand may look like under one rule set (the shanten parameters)."""

    hand_size: int = 13
    sets: int = 4
    pairs_shapes: tuple[PairsShape, ...] = ()
    orphans_shapes: tuple[OrphansShape, ...] = ()

    def __post_init__(self) -> None:
        if self.hand_size not in (13, 16) or self.sets != (self.hand_size - 1) // 3:
            raise ValueError(f"unsupported hand size {self.hand_size} / {self.sets} sets")


def caps_of(meld_counts: Sequence[int] | None) -> tuple[int, ...]:
    """How many copies of each kind the concealed hand may still use (4 minus own melds)."""
    if meld_counts is None:
        return _FULL_CAP
    return tuple(max(0, 4 - n) for n in meld_counts[:34])


# -- standard shape ------------------------------------------------------------------------


_INF_VEC: tuple[int, ...] = (INF,) * _W
_ZERO_VEC: tuple[int, ...] = (0,) + (INF,) * (_W - 1)

# The memos' sizes: a long-lived bot worker process fills each to its bound and stays there
# (docs/memory.md). ``_suffix`` (65,536) is full within ~3,000 decisions; the group tables
# and their products were 32,768 / 16,384 / 32,768 and still filling after 10,000 decisions
# (+2 MB per 1,000: issue 34). At 8,192 / 4,096 / 4,096 they are full within ~2,000, and a
# decision costs the same (3,000 self-play decisions: ~4 ms each either way, noisy machine).


@lru_cache(maxsize=1 << 16)
def _suffix(h: tuple[int, ...], cap: tuple[int, ...], a: int, b: int) -> tuple[int, ...]:
    """Minimum missing tiles for the suffix ``h`` of a suit, by (sets, pairs).

    ``a`` chows started one position before the suffix (they need its first two positions),
    ``b`` two positions before (they need its first). Memoised on the suffix, so hands that
    differ only in low positions share the work of the high ones. Vector index
    ``s * 2 + p``.
    """
    n = len(h)
    if n == 0:
        return _ZERO_VEC if a == 0 and b == 0 else _INF_VEC
    if n == 1 and a:
        return _INF_VEC
    hi, ci = h[0], cap[0]
    base = a + b
    if base > ci:
        return _INF_VEC
    out = [INF] * _W
    max_c = ci - base if n >= 3 else 0
    h1, c1 = h[1:], cap[1:]
    for c in range(max_c + 1):
        rest = _suffix(h1, c1, c, a)
        if rest is _INF_VEC:
            continue
        for q in (0, 1):
            ds = c + q
            if ds > _MAX_SETS:
                break
            for r in (0, 1):
                t = base + c + 3 * q + 2 * r
                if t > ci:
                    break
                cost = t - hi if t > hi else 0
                for s in range(_MAX_SETS + 1 - ds):
                    j0 = (s + ds) * 2
                    if r:
                        v = rest[s * 2]
                        if v < INF and v + cost < out[j0 + 1]:
                            out[j0 + 1] = v + cost
                    else:
                        v = rest[s * 2]
                        if v < INF and v + cost < out[j0]:
                            out[j0] = v + cost
                        v = rest[s * 2 + 1]
                        if v < INF and v + cost < out[j0 + 1]:
                            out[j0 + 1] = v + cost
    if all(v >= INF for v in out):
        return _INF_VEC
    return tuple(out)


@lru_cache(maxsize=1 << 13)
def _suit_table(h: tuple[int, ...], cap: tuple[int, ...]) -> tuple[int, ...]:
    """Minimum missing tiles to build exactly ``s`` sets and ``p`` pairs in one numbered
    suit (vector index ``s * 2 + p``)."""
    return _suffix(h, cap, 0, 0)


@lru_cache(maxsize=1 << 12)
def _honor_table(h: tuple[int, ...], cap: tuple[int, ...]) -> tuple[int, ...]:
    """Same as :func:`_suit_table` for the seven honours (pungs and pairs only)."""
    vec = [0] + [INF] * (_W - 1)
    for hi, ci in zip(h, cap, strict=True):
        new = list(vec)  # the kind unused
        opts: list[tuple[int, int, int]] = []  # (sets, pairs, cost)
        if ci >= 3:
            opts.append((1, 0, max(0, 3 - hi)))
        if ci >= 2:
            opts.append((0, 1, max(0, 2 - hi)))
        for ds, dp, cost in opts:
            for s in range(_MAX_SETS + 1 - ds):
                for p in range(2 - dp):
                    v = vec[s * 2 + p]
                    if v >= INF:
                        continue
                    j = (s + ds) * 2 + p + dp
                    if v + cost < new[j]:
                        new[j] = v + cost
        vec = new
    return tuple(vec)


@lru_cache(maxsize=1 << 12)
def _combine(x: tuple[int, ...], y: tuple[int, ...], k: int) -> tuple[int, ...]:
    """Min-plus product of two group vectors, truncated at ``k`` sets (memoised: during an
    ukeire scan two of the four groups do not change)."""
    out = [INF] * _W
    for s1 in range(k + 1):
        for p1 in (0, 1):
            a = x[s1 * 2 + p1]
            if a >= INF:
                continue
            for s2 in range(k + 1 - s1):
                for p2 in range(2 - p1):
                    b = y[s2 * 2 + p2]
                    if b >= INF:
                        continue
                    j = (s1 + s2) * 2 + p1 + p2
                    if a + b < out[j]:
                        out[j] = a + b
    return tuple(out)


def standard_distance(
    counts: Sequence[int], sets_needed: int, caps: Sequence[int] = _FULL_CAP
) -> int:
    """Minimum tiles missing for ``sets_needed`` sets + one pair from concealed ``counts``."""
    if sets_needed < 0:
        return INF
    c = tuple(counts[:34])
    cp = caps if isinstance(caps, tuple) else tuple(caps)
    k = sets_needed
    mp = _combine(_suit_table(c[0:9], cp[0:9]), _suit_table(c[9:18], cp[9:18]), k)
    sh = _combine(_suit_table(c[18:27], cp[18:27]), _honor_table(c[27:34], cp[27:34]), k)
    best = INF
    for s1 in range(k + 1):
        j = (k - s1) * 2
        a0, a1 = mp[s1 * 2], mp[s1 * 2 + 1]
        b0, b1 = sh[j], sh[j + 1]
        if a0 + b1 < best:
            best = a0 + b1
        if a1 + b0 < best:
            best = a1 + b0
    return best if best < INF else INF


_GROUPS = ((0, 9), (9, 18), (18, 27), (27, 34))


def _group_table(c: tuple[int, ...], cp: tuple[int, ...], g: int) -> tuple[int, ...]:
    lo, hi = _GROUPS[g]
    if g == 3:
        return _honor_table(c[lo:hi], cp[lo:hi])
    return _suit_table(c[lo:hi], cp[lo:hi])


def _final(x: Sequence[int], rest: Sequence[int], k: int) -> int:
    """Distance of ``k`` sets + the pair from a group vector and the other groups' product."""
    best = INF
    for s1 in range(k + 1):
        j = (k - s1) * 2
        v = x[s1 * 2] + rest[j + 1]
        if v < best:
            best = v
        v = x[s1 * 2 + 1] + rest[j]
        if v < best:
            best = v
    return best


def standard_draw_distances(
    counts: Sequence[int], sets_needed: int, caps: Sequence[int] = _FULL_CAP
) -> list[int]:
    """``standard_distance(counts + t)`` for every kind ``t`` (INF where the cap forbids it).

    The product of the three groups ``t`` does not touch is computed once per group, so the
    34 answers cost 34 table look-ups and small sums instead of 34 full evaluations.
    """
    out = [INF] * 34
    if sets_needed < 0:
        return out
    c = tuple(counts[:34])
    cp = caps if isinstance(caps, tuple) else tuple(caps)
    k = sets_needed
    tables = [_group_table(c, cp, g) for g in range(4)]
    for g, (lo, hi) in enumerate(_GROUPS):
        others = [tables[x] for x in range(4) if x != g]
        rest = _combine(_combine(others[0], others[1], k), others[2], k)
        for t in range(lo, hi):
            if c[t] >= cp[t]:
                continue
            c2 = (*c[:t], c[t] + 1, *c[t + 1 :])
            out[t] = _final(_group_table(c2, cp, g), rest, k)
    return out


def useful_tiles(
    counts: Sequence[int],
    n_melds: int,
    rules: ShapeRules,
    caps: tuple[int, ...] | None = None,
    base: int | None = None,
) -> list[int]:
    """The kinds whose draw lowers the shanten number of a hand before its draw (ukeire),
    by the same definition as :func:`shanten` (a kind at its cap is never useful)."""
    cp = caps if caps is not None else _FULL_CAP
    s = base if base is not None else shanten(counts, n_melds, rules, caps=cp)
    dist = s + 1  # the hand's distance
    std = standard_draw_distances(counts, rules.sets - n_melds, cp)
    best = list(std)
    if n_melds == 0:
        # a special shape can only make a draw useful when it is already at the distance
        c = list(counts[:34])
        for ps in rules.pairs_shapes:
            if pairs_distance(counts, ps, cp) != dist:
                continue
            # the shape ignores which kind is which: kinds with the same count and cap
            # gain the same from a draw, so each class is evaluated once
            seen: dict[tuple[int, int], int] = {}
            for t in range(34):
                if c[t] >= cp[t] or best[t] < dist:
                    continue
                key = (c[t], cp[t])
                if key not in seen:
                    c[t] += 1
                    seen[key] = pairs_distance(c, ps, cp)
                    c[t] -= 1
                best[t] = min(best[t], seen[key])
        for os_ in rules.orphans_shapes:
            if orphans_distance(counts, os_, cp) != dist:
                continue
            seen = {}
            for t in range(34):
                if c[t] >= cp[t] or best[t] < dist:
                    continue
                if os_.sets == 0 and not _IS_ORPHAN[t]:
                    continue  # the plain shape has no place for it
                okey = (c[t], cp[t]) if os_.sets == 0 else (t, 0)
                if okey not in seen:
                    c[t] += 1
                    seen[okey] = orphans_distance(c, os_, cp)
                    c[t] -= 1
                best[t] = min(best[t], seen[okey])
    return [t for t in range(34) if best[t] < dist]


# -- special shapes ------------------------------------------------------------------------


def pairs_distance(
    counts: Sequence[int], shape: PairsShape, caps: Sequence[int] = _FULL_CAP
) -> int:
    """Minimum tiles missing for ``shape.pairs`` pairs + ``shape.pungs`` (0 or 1) pungs.

    Greedy and exact: every kind offers "pair slots" worth the tiles already held towards
    them (a first slot worth ``min(h, 2)``, with four-as-two a second worth
    ``min(h - 2, 2)``, never more than the first); the best ``pairs`` slots are taken. With a
    pung, every kind is tried as the pung.
    """
    P = shape.pairs
    if shape.pungs > 1:
        raise ValueError("pairs shapes with more than one pung are not supported")
    slots: list[tuple[int, int]] = []  # (value, kind)
    for i in range(34):
        hi, ci = counts[i], caps[i]
        if ci >= 2:
            slots.append((min(hi, 2), i))
            if ci >= 4 and shape.four_as_two:
                slots.append((min(max(hi - 2, 0), 2), i))
    slots.sort(reverse=True)
    if shape.pungs == 0:
        if len(slots) < P:
            return INF
        return 2 * P - sum(v for v, _ in slots[:P])
    best = INF
    for j in range(34):
        if caps[j] < 3:
            continue
        got = 0
        taken = 0
        for v, k in slots:
            if k == j:
                continue
            got += v
            taken += 1
            if taken == P:
                break
        if taken == P:
            best = min(best, 2 * P + 3 - got - min(counts[j], 3))
    return best


# all sets as (kind index, chow?) — used for the orphans shape's extra sets
_SETS: tuple[tuple[int, ...], ...] = tuple(
    [(i, i, i) for i in range(34)]
    + [(b + n, b + n + 1, b + n + 2) for b in (0, 9, 18) for n in range(7)]
)


def orphans_distance(
    counts: Sequence[int], shape: OrphansShape, caps: Sequence[int] = _FULL_CAP
) -> int:
    """Minimum tiles missing for the orphans shape (with ``shape.sets`` extra sets ≤ 1)."""
    if shape.sets > 1:
        raise ValueError("orphans shapes with more than one extra set are not supported")
    is_orphan = [False] * 34
    for i in ORPHANS:
        is_orphan[i] = True
    if any(caps[i] < 1 for i in ORPHANS):
        return INF
    base = sum(1 for i in ORPHANS if counts[i] < 1)

    def need(t: dict[int, int]) -> int:
        """Extra cost of the additional target tiles ``t`` (kind -> copies) over the base."""
        extra = 0
        for k, n in t.items():
            have = counts[k]
            held = 1 if is_orphan[k] else 0
            total = held + n
            if total > caps[k]:
                return INF
            extra += max(0, total - have) - max(0, held - have)
        return extra

    if shape.sets == 0:
        return base + min(need({d: 1}) for d in ORPHANS)
    # one extra set: the duplicate and the set only interact when the set holds the
    # duplicate's kind, so take the best set overall (skipping those) and try those few
    by_set = sorted((need(_set_target(st)), st) for st in _SETS)
    best = INF
    for d in ORPHANS:
        dup = need({d: 1})
        if dup >= INF:
            continue
        other = next((v for v, st in by_set if d not in st), INF)
        if other < INF:
            # the set's and the duplicate's extra tiles are in different kinds: they add up
            best = min(best, base + dup + other)
        for st in _SETS:
            if d in st:
                t = _set_target(st)
                t[d] = t.get(d, 0) + 1
                best = min(best, base + need(t))
    return best


def _set_target(st: tuple[int, ...]) -> dict[int, int]:
    t: dict[int, int] = {}
    for k in st:
        t[k] = t.get(k, 0) + 1
    return t


# -- the shanten number --------------------------------------------------------------------


def shanten(
    counts: Sequence[int],
    n_melds: int,
    rules: ShapeRules,
    meld_counts: Sequence[int] | None = None,
    caps: tuple[int, ...] | None = None,
) -> int:
    """The shanten number of concealed ``counts`` (34) with ``n_melds`` declared melds.

    ``meld_counts`` (34, optional) are the tiles in the player's own melds, which lower how
    many copies the concealed hand can still use (or give them as ``caps``, see
    :func:`caps_of`, to save recomputing them in a loop). Works for 3k+1 tiles (before the draw) and
    3k+2 tiles (after it): ``-1`` means complete.
    """
    if caps is None:
        caps = caps_of(meld_counts)
    best = standard_distance(counts, rules.sets - n_melds, caps)
    if n_melds == 0:
        if rules.pairs_shapes:
            doubles = sum(n >> 1 for n in counts[:34])
            singles = sum(1 for n in counts[:34] if n >= 2)
        for ps in rules.pairs_shapes:
            # lower bound: every pair not yet held costs at least one tile
            held = doubles if ps.four_as_two else singles
            if ps.pairs + ps.pungs - held < best:
                best = min(best, pairs_distance(counts, ps, caps))
        for os_ in rules.orphans_shapes:
            if sum(1 for i in ORPHANS if counts[i] < 1) < best:  # lower bound prunes
                best = min(best, orphans_distance(counts, os_, caps))
    return best - 1
