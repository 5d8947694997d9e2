"""Chinese Official Mahjong (MCR, 國標麻將): the 81 fans, the principles, flowers, settlement.

Everything about a fan is a row of :data:`TABLE`: its id (names and points come from the
package data ``scoring/data/mcr.json``, a copy of ``shared/rules/mcr.json``), one predicate
over :class:`MCRFeatures` returning how many times it counts, and the fans it *implies*
(不計, "not counted"). The generic engine loop evaluates the rows in table order; the rule set
uses the engine's *sequential* exclusion so that the four MCR principles hold:

* **non-repeat (不重復)**: a fan implied by a counted fan is not counted (the ``excludes`` data);
  a fan that is itself not counted implies nothing (e.g. Four Concealed Pungs removes Fully
  Concealed Hand, and Self-Drawn, which only Fully Concealed Hand would remove, stays).
* **non-split (不拆移)** and **non-identical (不得相同)**: the sets of one arrangement are
  combined as they stand, and a set that already formed a fan with another set does not form
  the same fan again — :func:`chow_combination_fans` / :func:`pung_combination_fans`.
* **account-once (套算一次)**: an unused set may be combined once with an already combined
  set — also in those two helpers.

The highest-scoring arrangement is chosen (Seven Pairs competes with the standard
arrangements of the same tiles). ``docs/rules/mcr.md`` lists every fan, what it implies and
every interpretation taken; where the reference calculator (pymahjonggb) takes a
conventional reading the same reading is used here and documented there.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from importlib import resources
from itertools import permutations
from typing import Any

from mypy_extensions import mypyc_attr

from scoring.decompose import (
    Arrangement,
    Block,
    BlockKind,
    Wait,
    block,
    blocks_of_melds,
    concealed_splits,
    is_standard_complete,
    standard_arrangements,
    standard_wait_mask,
)
from scoring.engine import (
    NOTHING_COUNTED,
    Item,
    Payment,
    RuleSet,
    ScoreResult,
    Seating,
    SpecialShape,
    register,
)
from scoring.errors import InvalidHandError
from scoring.hand import Hand, Meld, MeldKind
from scoring.rows import Exclusion, Row, RowData, bind
from scoring.shapes import seven_pairs, thirteen_orphans
from scoring.tiles import KINDS, Tile, Wind

__all__ = [
    "MCR",
    "ROWS",
    "TABLE",
    "MCRFeatures",
    "MCRRuleSet",
    "chow_combination_fans",
    "make_mcr",
    "pung_combination_fans",
]

# -- package data -------------------------------------------------------------------------


def _load_data() -> dict[str, Any]:
    text = resources.files("scoring").joinpath("data/mcr.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


DATA = _load_data()
FANS: dict[str, dict[str, Any]] = {f["id"]: f for f in DATA["fans"]}
MINIMUM = 8
FLOWERS = "flower-tiles"
CHICKEN = "chicken-hand"

# -- tile classes (indices of scoring.tiles.Tile) -----------------------------------------

_WINDS = frozenset(range(27, 31))
_DRAGONS = frozenset(range(31, 34))
_HONORS = _WINDS | _DRAGONS
_TERMINALS = frozenset(i for i in range(27) if i % 9 in (0, 8))
_GREEN = frozenset({19, 20, 21, 23, 25, int(Tile.GREEN)})  # 2 3 4 6 8 bamboo, green dragon
#: Tiles with no up and down (推不倒): dots 1234589, bamboo 245689, white dragon.
_REVERSIBLE = frozenset(
    [9 + n - 1 for n in (1, 2, 3, 4, 5, 8, 9)]
    + [18 + n - 1 for n in (2, 4, 5, 6, 8, 9)]
    + [int(Tile.WHITE)]
)


_ORDER_SUIT = (1, 3, 2)  # characters, dots, bamboo -> the reference calculator's suit order
_EVEN = frozenset(t for t in range(27) if t % 9 in (1, 3, 5, 7))
_FIVES = frozenset({4, 13, 22})
_CHOWS_WITH_5 = frozenset(t for t in range(27) if t % 9 in (2, 3, 4))
_OUTSIDE_CHOWS = frozenset(t for t in range(27) if t % 9 in (0, 6))
_EMPTY: Mapping[str, int] = {}
_ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
_NINE_GATES = [3, 1, 1, 1, 1, 1, 1, 1, 3]
_ODD = (1).__and__  # n -> n & 1
_NO_TILES: frozenset[int] = frozenset()
_TERMINALS_HONORS = _TERMINALS | _HONORS


def _bits(tiles: frozenset[int]) -> int:
    """A set of tile indices as a bit mask (bit t: tile t)."""
    return sum(1 << t for t in tiles)


# the tile classes the predicates test the hand's tiles against, as bit masks
_GREEN_BITS = _bits(_GREEN)
_REVERSIBLE_BITS = _bits(_REVERSIBLE)
_TERMINALS_BITS = _bits(_TERMINALS)
_HONORS_BITS = _bits(_HONORS)
_WINDS_BITS = _bits(_WINDS)
_DRAGONS_BITS = _bits(_DRAGONS)
_TERMINALS_HONORS_BITS = _TERMINALS_BITS | _HONORS_BITS
#: ranks as a 9-bit mask (bit r-1: rank r)
_LOW_RANKS = 0b000001111  # 1-4
_HIGH_RANKS = 0b111100000  # 6-9
_MIDDLE_RANKS = 0b000111000  # 4-6
_SEAT_INDEX = {w.value: 27 + i for i, w in enumerate(Wind)}  # by code: str hashing is cheap


def _suit(t: int) -> int:
    """0 characters, 1 dots, 2 bamboo, 3 honours."""
    return t // 9 if t < 27 else 3


def _rank(t: int) -> int:
    return t % 9 + 1


#: The six knitted sequences: 147 / 258 / 369 of three different suits (9 tile indices each).
KNITTED_SEQUENCES: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        sorted(
            s * 9 + start + step
            for s, start in zip(suits, (0, 1, 2), strict=True)
            for step in (0, 3, 6)
        )
    )
    for suits in permutations(range(3))
)

# -- special shapes -------------------------------------------------------------------------

SEVEN_PAIRS = "seven-pairs"
THIRTEEN_ORPHANS = "thirteen-orphans"
HONORS_KNITTED = "honors-and-knitted"
KNITTED_STRAIGHT = "knitted-straight"


_SUITED_MASK = (1 << 27) - 1
_ORPHAN_MASK = sum(1 << t for t in _ORPHANS)
_SEQ_MASKS = tuple(sum(1 << t for t in seq) for seq in KNITTED_SEQUENCES)


def _mask(c: Sequence[int]) -> int:
    """The tiles present in the counts ``c`` as a bit set (bit t: tile index t)."""
    mask = 0
    for t in range(34):
        if c[t]:
            mask |= 1 << t
    return mask


def _knitted_of(c: Sequence[int]) -> tuple[int, ...] | None:
    if 27 - list(c[:27]).count(0) < 9:  # fewer than 9 different suited tiles: quick no
        return None
    mask = _mask(c)
    if (mask & _SUITED_MASK).bit_count() < 9:  # fewer than 9 different suited tiles
        return None
    for seq, sm in zip(KNITTED_SEQUENCES, _SEQ_MASKS, strict=True):
        if mask & sm == sm:
            return seq
    return None


def _honors_knitted() -> SpecialShape:
    """全不靠 / 七星不靠: 14 different tiles, the suited ones all from one knitted sequence."""

    def complete(c: Sequence[int], n_melds: int) -> bool:
        if n_melds or max(c) > 1 or sum(c) != 14:
            return False
        suited = [t for t in range(27) if c[t]]
        return any(set(suited) <= set(seq) for seq in KNITTED_SEQUENCES)

    def arrange(hand: Hand, c: Sequence[int]) -> list[Arrangement]:
        blocks = tuple(block(BlockKind.SINGLE, t) for t in range(34) if c[t])
        return [Arrangement(HONORS_KNITTED, blocks, None, Wait.SPECIAL)]

    return SpecialShape(HONORS_KNITTED, complete, arrange, max_melds=0)


def _knitted_straight() -> SpecialShape:
    """組合龍 + a set + a pair (at most one declared meld: the set)."""

    def rest(c: Sequence[int], n_melds: int) -> tuple[tuple[int, ...], list[int]] | None:
        if n_melds > 1 or sum(c) != 14 - 3 * n_melds:
            return None
        seq = _knitted_of(c)
        if seq is None:
            return None
        r = list(c)
        for t in seq:
            r[t] -= 1
        return seq, r

    def complete(c: Sequence[int], n_melds: int) -> bool:
        got = rest(c, n_melds)
        return got is not None and is_standard_complete(got[1])

    def arrange(hand: Hand, c: Sequence[int]) -> list[Arrangement]:
        got = rest(c, len(hand.melds))
        if got is None:
            return []
        seq, r = got
        knitted = tuple(block(BlockKind.KNITTED, t) for t in sorted(seq[i] for i in (0, 3, 6)))
        melds = blocks_of_melds(hand.melds)
        out = []
        for pair, sets in concealed_splits(r):
            blocks = (
                *melds,
                *knitted,
                *(block(k, t) for k, t in sets),
                block(BlockKind.PAIR, pair),
            )
            win = next(i for i, b in enumerate(blocks) if hand.win_tile in b.tiles)
            out.append(Arrangement(KNITTED_STRAIGHT, blocks, win, Wait.SPECIAL))
        return out

    return SpecialShape(KNITTED_STRAIGHT, complete, arrange, max_melds=1)


SHAPES: tuple[SpecialShape, ...] = (
    seven_pairs(four_as_two=True),
    thirteen_orphans(),
    _honors_knitted(),
    _knitted_straight(),
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


# -- unique waits -------------------------------------------------------------------------------


def _seven_pairs_wait(c: Sequence[int]) -> int | None:
    """The tile completing 13 concealed tiles into seven pairs (four alike = two pairs)."""
    if c.count(1) + c.count(3) != 1:  # (counts are 0-4: odd is 1 or 3)
        return None
    return c.index(1) if 1 in c else c.index(3)


# The last answer of _unique_wait_mask: (counts, with seven pairs, tiles). One slot, shared
# by RuleSet.waits and the wait fans of the same hand (both ask for the counts before the
# win); never an answer for another hand (nothing is remembered from hand to hand, so a
# benchmark scoring the same hands again measures the work, not a memo). The slot is one
# tuple replaced at once: threads at worst compute again.
_last_waits: tuple[tuple[int, ...], bool, int] | None = None


def _unique_wait_mask(c: tuple[int, ...], with_seven_pairs: bool) -> int:
    """Tiles completing the concealed counts ``c`` (before the win) into sets + a pair, or
    seven pairs — what decides a unique wait — as a bit mask (bit t: tile t). A tile the
    player already holds four of still counts (a wait is a shape, not a count of live
    tiles), as in the reference calculator."""
    global _last_waits
    last = _last_waits
    if last is not None and last[1] is with_seven_pairs and last[0] == c:
        return last[2]
    out = standard_wait_mask(c)
    if with_seven_pairs and sum(c) == 13:
        t = _seven_pairs_wait(c)
        if t is not None:
            out |= 1 << t
    _last_waits = (c, with_seven_pairs, out)
    return out


_HONOR_TILES_MASK = _bits(_HONORS)


def mcr_wait_mask(c: Sequence[int], n_melds: int) -> int:
    """Every tile completing the concealed counts ``c`` (before the win) with ``n_melds``
    declared melds into any MCR winning shape (live or not), as a bit mask (bit t: tile t)."""
    ct: tuple[int, ...] = c if isinstance(c, tuple) else tuple(c)
    out = _unique_wait_mask(ct, n_melds == 0)  # sets + a pair, seven pairs
    # the tiles present (a bit mask), their number and the most of one kind, in one pass
    mask = total = most = 0
    for t in range(34):
        n = ct[t]
        if n:
            mask |= 1 << t
            total += n
            if n > most:
                most = n
    if n_melds == 0 and total == 13:
        if not mask & ~_ORPHAN_MASK:
            missing = _ORPHAN_MASK & ~mask
            if not missing:
                out |= _ORPHAN_MASK
            elif missing & (missing - 1) == 0:  # one missing
                out |= missing
        if most <= 1:
            suited = mask & _SUITED_MASK
            for sm in _SEQ_MASKS:
                if not suited & ~sm:
                    out |= (sm | _HONOR_TILES_MASK) & ~mask
    if n_melds <= 1 and total == 13 - 3 * n_melds and (mask & _SUITED_MASK).bit_count() >= 8:
        # 組合龍 + a set + a pair: at most one tile of the knitted straight may be missing
        for seq, sm in zip(KNITTED_SEQUENCES, _SEQ_MASKS, strict=True):
            have = mask & sm
            n = have.bit_count()
            if n == 8:  # the missing one is the only candidate
                m = (sm & ~have).bit_length() - 1
                lst = list(ct)
                lst[m] += 1
                for t in seq:
                    lst[t] -= 1
                if is_standard_complete(lst):
                    out |= 1 << m
            elif n == 9:  # complete already: the rest waits for its set / pair
                lst = list(ct)
                for t in seq:
                    lst[t] -= 1
                out |= standard_wait_mask(lst)
    return out


def mcr_waits(c: Sequence[int], n_melds: int) -> set[int]:
    """Every tile completing the concealed counts ``c`` (before the win) with ``n_melds``
    declared melds into any MCR winning shape (live or not)."""
    m = mcr_wait_mask(c, n_melds)
    return {t for t in range(34) if m >> t & 1}


# -- the feature record -----------------------------------------------------------------------

_CHOW, _PUNG, _KONG, _PAIR, _KNIT = (
    BlockKind.CHOW,
    BlockKind.PUNG,
    BlockKind.KONG,
    BlockKind.PAIR,
    BlockKind.KNITTED,
)


def _set_of(t: int) -> _Set:
    return (t // 9, t % 9 + 1) if t < 27 else (3, t)


_NO_FANS: dict[str, int] = {}

# Sorting tile indices sorts their (suit, rank) descriptions too, so the combination fans
# can be looked up by the sorted lowest tiles of the sets (no per-arrangement conversion),
# packed 6 bits each in one integer (a dictionary look-up with an integer key, not a call
# through functools.cache).
_CHOW_FANS: dict[int, dict[str, int]] = {}
_PUNG_FANS: dict[int, dict[str, int]] = {}


def _packed(tiles: list[int]) -> int:
    """The tile indices (sorted) packed 6 bits each above a leading 1 (so their number
    counts): a dictionary key."""
    key = 1
    for t in tiles:
        key = key << 6 | t
    return key


def _chow_fans_of(tiles: list[int]) -> dict[str, int]:
    """:func:`chow_combination_fans` of the chows starting on ``tiles`` (sorted)."""
    key = _packed(tiles)
    fans = _CHOW_FANS.get(key)
    if fans is None:
        fans = _CHOW_FANS[key] = dict(chow_combination_fans(tuple([_set_of(t) for t in tiles])))
    return fans


def _pungs_related(tiles: list[int]) -> bool:
    """Whether two of the pungs (and kongs) ``tiles`` could belong to one combination fan:
    two numbered ones of one rank or of neighbouring ranks, two winds or two dragons. Every
    fan of :func:`pung_combination_fans` has such a pair, so without one there is none."""
    n = len(tiles)
    for i in range(n):
        a = tiles[i]
        for j in range(i + 1, n):
            b = tiles[j]
            if a < 27 and b < 27:
                d = a % 9 - b % 9
                if -1 <= d <= 1:
                    return True
            elif (a >= 31 and b >= 31) or (27 <= a < 31 and 27 <= b < 31):
                return True  # two dragons, two winds
    return False


def _pung_fans_of(tiles: list[int]) -> dict[str, int]:
    """:func:`pung_combination_fans` of the pungs and kongs of ``tiles`` (sorted)."""
    if not _pungs_related(tiles):
        return _NO_FANS
    key = _packed(tiles)
    fans = _PUNG_FANS.get(key)
    if fans is None:
        fans = _PUNG_FANS[key] = dict(pung_combination_fans(tuple([_set_of(t) for t in tiles])))
    return fans


# The facts of MCRFeatures computed on first use: one bit each of its ``_done`` mask.
_RANGE_FAN, _CHOW_SETS, _PUNG_SETS, _TOH, _DIVISION = (4, 8, 16, 32, 64)
_SEVEN_POSSIBLE, _NINE_GATES_B, _SHIFTED_PAIRS, _SUITED, _TERMINAL_CHOWS, _LAST_TILE = (
    128,
    256,
    512,
    1024,
    2048,
    4096,
)
_WAIT_FAN = 8192


class MCRFeatures:
    """MCR facts about one arrangement: the feature record the predicates of :data:`TABLE`
    read (the engine's :class:`~scoring.engine.FeatureRecord`).

    A plain class with a fixed set of fields, not a :class:`~scoring.engine.Features`
    subclass: compiled (mypyc) it is a native class, so a predicate's read is a struct load,
    not a dictionary look-up. The arrangement's blocks and the hand's tile counts are read
    once, in ``__init__``, into plain integers and sets (the facts nearly every fan reads);
    the rarer facts are properties computed on first use and kept in a field of their own
    (a bit of ``_done`` says it is there).
    """

    def __init__(self, hand: Hand, arrangement: Arrangement, waits: tuple[Tile, ...]) -> None:
        self.hand = hand
        #: the typed win context (:class:`scoring.context.WinContext`)
        self.context = hand.context
        self.arr = arrangement
        self.waits = waits
        self.win_tile = hand.win_tile
        self.self_drawn: bool = hand.win.self_drawn
        #: set by the evaluation loop (``Row.reads_counted``; no MCR row reads it)
        self.counted: frozenset[str] = NOTHING_COUNTED
        self._done = 0
        shape = arrangement.shape
        self.shape: str = shape
        std = shape == "standard"
        self.is_standard_shape: bool = std
        chows: list[int] = []
        pungs: list[int] = []
        kongs = melded_kongs = concealed_kongs = concealed_pungs = 0
        pair = -1
        npairs = 0
        # the concealed (not declared) blocks
        hidden: list[Block] = []
        for b in arrangement.blocks:
            k = b.kind
            t: int = b.tile._value_
            if k is _CHOW:
                chows.append(t)
            elif k is _PUNG or k is _KONG:
                pungs.append(t)
                if b.concealed:
                    concealed_pungs += 1
                if k is _KONG:
                    kongs += 1
                    if b.concealed:
                        concealed_kongs += 1
                    else:
                        melded_kongs += 1
            elif k is _PAIR:
                pair = t
                npairs += 1
            if b.meld is None:
                hidden.append(b)
        self.chow_tiles: list[int] = chows
        self.pung_tiles: list[int] = pungs
        self.n_kongs: int = kongs
        self.n_melded_kongs: int = melded_kongs
        self.n_concealed_kongs: int = concealed_kongs
        #: concealed pungs including concealed kongs (暗刻)
        self.concealed_pung_total: int = concealed_pungs
        self.pair_tile: int | None = pair if npairs == 1 else None
        self.hidden: list[Block] = hidden
        self.win_i: int = hand.win_tile._value_
        melds = hand.melds
        self.exposed: int = len([m for m in melds if not m.concealed]) if melds else 0
        # -- tiles: counts (34) of every tile of the hand, melds included
        tc = hand._tile_counts
        self.counts_i: tuple[int, ...] = tc
        #: the kinds of tile present as a bit mask (bit t: tile index t)
        kinds = fours = 0
        for t in range(34):
            n = tc[t]
            if n:
                kinds |= 1 << t
                if n == 4:
                    fours += 1
        self.kinds: int = kinds
        has_characters = bool(kinds & 0x1FF)
        self.has_characters: bool = has_characters
        #: numbered suits absent
        self.voided: int = 3 - (
            has_characters + bool(kinds >> 9 & 0x1FF) + bool(kinds >> 18 & 0x1FF)
        )
        honors = kinds >> 27 != 0
        self.honors: bool = honors
        #: the ranks present when every tile is numbered (bit r-1: rank r), else -1
        self.rank_bits: int = -1 if honors else (kinds | kinds >> 9 | kinds >> 18) & 0x1FF
        self.four_chows: bool = std and len(chows) == 4
        self.four_pungs: bool = std and len(pungs) == 4
        self.tile_hogs: int = fours - kongs
        self.seat_i: int = _SEAT_INDEX[hand.seat_wind._value_]
        self.round_i: int = _SEAT_INDEX[hand.round_wind._value_]
        # the fans the sets make together (every arrangement's guards read them)
        self.chow_fans: dict[str, int] = (
            _chow_fans_of(sorted(chows)) if std and len(chows) >= 2 else _NO_FANS
        )
        self.pung_fans: dict[str, int] = (
            _pung_fans_of(sorted(pungs)) if std and len(pungs) >= 2 else _NO_FANS
        )
        if pungs:
            self.dragon_pungs: int = sum([1 for t in pungs if t >= 31])
            winds = [t for t in pungs if 27 <= t < 31]
            self.wind_pungs: frozenset[int] = frozenset(winds) if winds else _NO_TILES
        else:
            self.dragon_pungs = 0
            self.wind_pungs = _NO_TILES
        # the slots of the facts computed on first use (valid when their bit of _done is set)
        self._range_fan: str | None = None
        self._chow_sets: tuple[_Set, ...] = ()
        self._pung_sets: tuple[_Set, ...] = ()
        self._toh = 0
        self._division: tuple[int, ...] = ()
        self._seven_possible = False
        self._nine_gates = False
        self._shifted_pairs = False
        self._suited = 0
        self._terminal_chows: str | None = None
        self._last_tile = False
        self._wait_fan: str | None = None

    # -- tiles ------------------------------------------------------------------------------

    def only(self, tiles: int) -> bool:
        """Every tile of the hand is one of ``tiles`` (a bit mask of tile indices)."""
        return not self.kinds & ~tiles

    @property
    def all_types(self) -> bool:
        k = self.kinds
        return self.voided == 0 and bool(k & _WINDS_BITS) and bool(k & _DRAGONS_BITS)

    @property
    def range_fan(self) -> str | None:
        """全大/大於五/全中/全小/小於五 (numbered tiles only)."""
        if not self._done & _RANGE_FAN:
            self._range_fan = self._find_range_fan()
            self._done |= _RANGE_FAN
        return self._range_fan

    def _find_range_fan(self) -> str | None:
        r = self.rank_bits
        if r < 0:
            return None
        if not r & ~_LOW_RANKS:
            return "lower-four" if r & 0b1000 else "lower-tiles"
        if not r & ~_HIGH_RANKS:
            return "upper-four" if r & 0b100000 else "upper-tiles"
        if not r & ~_MIDDLE_RANKS:
            return "middle-tiles"
        return None

    # -- sets ------------------------------------------------------------------------------

    @property
    def chow_sets(self) -> tuple[_Set, ...]:
        if not self._done & _CHOW_SETS:
            self._chow_sets = tuple(sorted([_set_of(t) for t in self.chow_tiles]))
            self._done |= _CHOW_SETS
        return self._chow_sets

    @property
    def pung_sets(self) -> tuple[_Set, ...]:
        if not self._done & _PUNG_SETS:
            self._pung_sets = tuple(sorted([_set_of(t) for t in self.pung_tiles]))
            self._done |= _PUNG_SETS
        return self._pung_sets

    def chow(self, fan: str) -> int:
        return self.chow_fans.get(fan, 0)

    def pung(self, fan: str) -> int:
        return self.pung_fans.get(fan, 0)

    @property
    def pungs_of_terminals_or_honors(self) -> int:
        """幺九刻: terminal and wind pungs not already accounted for by another fan — a wind
        pung counted as Seat Wind / Prevalent Wind or inside Big Three Winds, and the pung of
        terminals that is part of Nine Gates."""
        if not self._done & _TOH:
            self._toh = self._count_toh()
            self._done |= _TOH
        return self._toh

    def _count_toh(self) -> int:
        if not self.pung_tiles:
            return 0
        n = sum([1 for t in self.pung_tiles if t in _TERMINALS])
        if self.wind_pungs and not self.pung("big-three-winds"):
            n += len(self.wind_pungs - {self.seat_i, self.round_i})
        if n and self.nine_gates:
            n -= 1
        return n

    def every_pack(self, chow_ok: frozenset[int], other_ok: frozenset[int]) -> bool:
        """Every set and the pair has its lowest tile in the given set (chows / others)."""
        if not self.is_standard_shape or self.pair_tile not in other_ok:
            return False
        return all(t in chow_ok for t in self.chow_tiles) and all(
            t in other_ok for t in self.pung_tiles
        )

    @property
    def division_order(self) -> tuple[int, ...]:
        """The concealed sets as a sort key (see :meth:`MCRRuleSet.choose_key`)."""
        if not self._done & _DIVISION:
            key: list[int] = []
            for b in self.hidden:
                k = b.kind
                t = b.tile._value_
                if k is _CHOW or k is _PUNG or k is _KONG:
                    o = (_ORDER_SUIT[t // 9] << 4 | (t % 9 + 1)) if t < 27 else 0x41 + t - 27
                    step = 1 if k is _CHOW else 0
                    key.append(o << 16 | (o + step) << 8 | o + 2 * step)
            self._division = tuple(sorted(key))
            self._done |= _DIVISION
        return self._division

    @property
    def seven_pairs_possible(self) -> bool:
        if not self._done & _SEVEN_POSSIBLE:
            h = self.hand
            self._seven_possible = not h.melds and not any(map(_ODD, h._concealed_counts))
            self._done |= _SEVEN_POSSIBLE
        return self._seven_possible

    # -- special hands ------------------------------------------------------------------------

    @property
    def nine_gates(self) -> bool:
        """九蓮寶燈: 1112345678999 of one suit plus any tile of it, all concealed, no melds."""
        if not self._done & _NINE_GATES_B:
            self._nine_gates = self._is_nine_gates()
            self._done |= _NINE_GATES_B
        return self._nine_gates

    def _is_nine_gates(self) -> bool:
        w = self.win_i
        if self.hand.melds or not self.is_standard_shape or w >= 27:
            return False
        c = self.hand.concealed_counts()
        c[w] -= 1
        base = w - w % 9
        return c[base : base + 9] == _NINE_GATES

    @property
    def seven_shifted_pairs(self) -> bool:
        if not self._done & _SHIFTED_PAIRS:
            self._shifted_pairs = self._is_seven_shifted_pairs()
            self._done |= _SHIFTED_PAIRS
        return self._shifted_pairs

    def _is_seven_shifted_pairs(self) -> bool:
        if self.shape != SEVEN_PAIRS:
            return False
        c = self.counts_i
        for base in (0, 9, 18):
            for start in range(3):
                if all([c[base + start + i] == 2 for i in range(7)]):
                    return True
        return False

    @property
    def suited_singles(self) -> int:
        if not self._done & _SUITED:
            self._suited = (self.kinds & _SUITED_MASK).bit_count()
            self._done |= _SUITED
        return self._suited

    @property
    def terminal_chows(self) -> str | None:
        """一色雙龍會 / 三色雙龍會: four chows 123 and 789 with a pair of fives."""
        if not self._done & _TERMINAL_CHOWS:
            self._terminal_chows = self._find_terminal_chows()
            self._done |= _TERMINAL_CHOWS
        return self._terminal_chows

    def _find_terminal_chows(self) -> str | None:
        p = self.pair_tile
        if not self.four_chows or p is None or p >= 27 or p % 9 != 4:
            return None
        suit = p // 9
        if list(self.chow_sets) == [(suit, 1), (suit, 1), (suit, 7), (suit, 7)]:
            return "pure-terminal-chows"
        others = sorted({0, 1, 2} - {suit})
        if list(self.chow_sets) == sorted([(s, r) for s in others for r in (1, 7)]):
            return "three-suited-terminal-chows"
        return None

    # -- winning situation --------------------------------------------------------------------

    @property
    def last_tile(self) -> bool:
        """和絕張: the win tile is the last of its kind — the caller says so (``fourth_tile``)
        and the winner holds no other copy concealed, or the winner's own melds already
        show three copies."""
        if not self._done & _LAST_TILE:
            h = self.hand
            w = self.win_i
            in_hand = h._concealed_counts[w]  # the win tile included
            # three copies in the winner's melds, or the caller says it is the fourth
            self._last_tile = h._tile_counts[w] - in_hand == 3 or (
                h.win.fourth_tile and in_hand == 1
            )
            self._done |= _LAST_TILE
        return self._last_tile

    @property
    def wait_fan(self) -> str | None:
        """邊張 / 坎張 / 單釣將 when the hand waited on one tile only.

        The wait is unique when exactly one tile completes the concealed tiles (sets + a pair,
        or seven pairs). Which fan: the concealed blocks of this arrangement that contain the
        win tile — at an end of a chow: edge; in the middle: closed; the pair: single; when
        several readings exist the first of edge, closed, single counts (rule text: 1233 winning
        on 3 is an edge wait). In a knitted-straight hand the wait is judged on the set and
        the pair (the tiles outside the knitted straight), when the win tile is one of them.
        """
        if not self._done & _WAIT_FAN:
            self._wait_fan = self._find_wait_fan()
            self._done |= _WAIT_FAN
        return self._wait_fan

    def _find_wait_fan(self) -> str | None:
        w = self.win_i
        shape = self.shape
        if shape == "standard":
            before = self.hand.concealed_counts()
            before[w] -= 1
            waits = _unique_wait_mask(tuple(before), not self.hand.melds)
        elif shape == KNITTED_STRAIGHT:
            before = [0] * 34
            for b in self.hidden:
                k = b.kind
                t = b.tile._value_
                if k is _CHOW:
                    before[t] += 1
                    before[t + 1] += 1
                    before[t + 2] += 1
                elif k is _PUNG:
                    before[t] += 3
                elif k is _PAIR:
                    before[t] += 2
            if not before[w]:
                return None  # the win tile completed the knitted straight itself
            before[w] -= 1
            waits = _unique_wait_mask(tuple(before), False)
        else:
            return None
        if waits & (waits - 1) or not waits:  # not exactly one tile
            return None
        edge = closed = single = False
        for b in self.hidden:
            k = b.kind
            t = b.tile._value_
            if k is _CHOW and t <= w <= t + 2:
                if w == t + 1:
                    closed = True
                else:
                    edge = True
            elif k is _PAIR and t == w:
                single = True
        if edge:
            return "edge-wait"
        if closed:
            return "closed-wait"
        return "single-wait" if single else None


# -- the table ------------------------------------------------------------------------------

F = MCRFeatures
_Pred = Callable[[MCRFeatures], int | bool]


#: The table: one row per fan — id, predicate, the fans it implies (不計) — in the official
#: table's order (by value). Names and points are bound from ``scoring/data/mcr.json``.
TABLE: tuple[Row[MCRFeatures], ...] = (
    Row(
        "big-four-winds",
        lambda f: f.pung("big-four-winds"),
        (
            "big-three-winds",
            "little-four-winds",
            "all-pungs",
            "seat-wind",
            "prevalent-wind",
            "pung-of-terminals-or-honors",
        ),
    ),
    Row(
        "big-three-dragons",
        lambda f: f.pung("big-three-dragons"),
        ("two-dragons-pungs", "dragon-pung"),
    ),
    Row("all-green", lambda f: f.only(_GREEN_BITS), ("half-flush", "one-voided-suit")),
    Row(
        "nine-gates",
        lambda f: f.nine_gates,
        ("full-flush", "concealed-hand", "fully-concealed-hand", "no-honors"),
    ),
    Row(
        "four-kongs",
        lambda f: f.n_kongs == 4,
        (
            "three-kongs",
            "two-melded-kongs",
            "two-concealed-kongs",
            "melded-kong",
            "concealed-kong",
            "all-pungs",
            "single-wait",
        ),
    ),
    Row(
        "seven-shifted-pairs",
        lambda f: f.seven_shifted_pairs,
        (
            "seven-pairs",
            "full-flush",
            "concealed-hand",
            "fully-concealed-hand",
            "single-wait",
            "no-honors",
        ),
    ),
    Row(
        "thirteen-orphans",
        lambda f: f.shape == THIRTEEN_ORPHANS,
        (
            "all-types",
            "all-terminals-and-honors",
            "concealed-hand",
            "fully-concealed-hand",
            "single-wait",
        ),
    ),
    Row(
        "all-terminals",
        lambda f: f.only(_TERMINALS_BITS),
        (
            "all-terminals-and-honors",
            "all-pungs",
            "outside-hand",
            "pung-of-terminals-or-honors",
            "no-honors",
            "double-pung",
        ),
    ),
    Row(
        "little-four-winds",
        lambda f: bool(f.pung("big-three-winds")) and f.pair_tile in _WINDS,
        ("big-three-winds", "pung-of-terminals-or-honors"),
    ),
    Row(
        "little-three-dragons",
        lambda f: bool(f.pung("two-dragons-pungs")) and f.pair_tile in _DRAGONS,
        ("two-dragons-pungs", "dragon-pung"),
    ),
    Row(
        "all-honors",
        lambda f: f.only(_HONORS_BITS),
        (
            "all-terminals-and-honors",
            "all-pungs",
            "outside-hand",
            "pung-of-terminals-or-honors",
            "one-voided-suit",
        ),
    ),
    Row(
        "four-concealed-pungs",
        lambda f: f.concealed_pung_total == 4,
        ("all-pungs", "concealed-hand", "fully-concealed-hand"),
    ),
    Row(
        "pure-terminal-chows",
        lambda f: f.terminal_chows == "pure-terminal-chows",
        (
            "seven-pairs",
            "full-flush",
            "all-chows",
            "no-honors",
            "pure-double-chow",
            "two-terminal-chows",
        ),
    ),
    Row(
        "quadruple-chow",
        lambda f: f.chow("quadruple-chow"),
        ("pure-triple-chow", "pure-double-chow", "tile-hog"),
    ),
    Row(
        "four-pure-shifted-pungs",
        lambda f: f.pung("four-pure-shifted-pungs"),
        ("pure-shifted-pungs", "all-pungs"),
    ),
    Row(
        "four-pure-shifted-chows",
        lambda f: f.chow("four-pure-shifted-chows"),
        ("pure-shifted-chows", "short-straight", "two-terminal-chows"),
    ),
    Row(
        "three-kongs",
        lambda f: f.n_kongs == 3,
        ("two-melded-kongs", "two-concealed-kongs", "melded-kong", "concealed-kong"),
    ),
    Row(
        "all-terminals-and-honors",
        lambda f: f.only(_TERMINALS_HONORS_BITS),
        ("all-pungs", "outside-hand", "pung-of-terminals-or-honors"),
    ),
    Row(
        "seven-pairs",
        lambda f: f.shape == SEVEN_PAIRS,
        ("concealed-hand", "fully-concealed-hand", "single-wait"),
    ),
    Row(
        "greater-honors-and-knitted-tiles",
        lambda f: f.shape == HONORS_KNITTED and f.suited_singles == 7,
        ("lesser-honors-and-knitted-tiles", "all-types", "concealed-hand", "fully-concealed-hand"),
    ),
    Row(
        "all-even-pungs",
        lambda f: f.four_pungs and f.every_pack(frozenset(), _EVEN),
        ("all-pungs", "all-simples", "no-honors"),
    ),
    Row("full-flush", lambda f: f.voided == 2 and not f.honors, ("no-honors",)),
    Row("pure-triple-chow", lambda f: f.chow("pure-triple-chow"), ("pure-double-chow",)),
    Row("pure-shifted-pungs", lambda f: f.pung("pure-shifted-pungs"), ()),
    Row("upper-tiles", lambda f: f.range_fan == "upper-tiles", ("upper-four", "no-honors")),
    Row("middle-tiles", lambda f: f.range_fan == "middle-tiles", ("all-simples", "no-honors")),
    Row("lower-tiles", lambda f: f.range_fan == "lower-tiles", ("lower-four", "no-honors")),
    Row(
        "pure-straight", lambda f: f.chow("pure-straight"), ("short-straight", "two-terminal-chows")
    ),
    Row(
        "three-suited-terminal-chows",
        lambda f: f.terminal_chows == "three-suited-terminal-chows",
        ("all-chows", "no-honors", "mixed-double-chow", "two-terminal-chows"),
    ),
    Row("pure-shifted-chows", lambda f: f.chow("pure-shifted-chows"), ()),
    Row(
        "all-five",
        lambda f: f.every_pack(_CHOWS_WITH_5, _FIVES),
        ("all-simples", "no-honors"),
    ),
    Row("triple-pung", lambda f: f.pung("triple-pung"), ()),
    Row("three-concealed-pungs", lambda f: f.concealed_pung_total == 3, ()),
    Row(
        "lesser-honors-and-knitted-tiles",
        lambda f: f.shape == HONORS_KNITTED and f.suited_singles > 7,
        ("all-types", "concealed-hand", "fully-concealed-hand"),
    ),
    Row(
        "knitted-straight",
        lambda f: (
            f.shape == KNITTED_STRAIGHT or (f.shape == HONORS_KNITTED and f.suited_singles == 9)
        ),
        (),
    ),
    Row("upper-four", lambda f: f.range_fan == "upper-four", ("no-honors",)),
    Row("lower-four", lambda f: f.range_fan == "lower-four", ("no-honors",)),
    Row("big-three-winds", lambda f: f.pung("big-three-winds"), ()),
    Row("mixed-straight", lambda f: f.chow("mixed-straight"), ()),
    Row("reversible-tiles", lambda f: f.only(_REVERSIBLE_BITS), ("one-voided-suit",)),
    Row("mixed-triple-chow", lambda f: f.chow("mixed-triple-chow"), ()),
    Row("mixed-shifted-pungs", lambda f: f.pung("mixed-shifted-pungs"), ()),
    # counted by MCRRuleSet.finalize when nothing else (flowers aside) counts
    Row(CHICKEN, lambda f: False, ()),
    Row("last-tile-draw", lambda f: f.self_drawn and f.hand.win.last_tile, ("self-drawn",)),
    Row("last-tile-claim", lambda f: not f.self_drawn and f.hand.win.last_tile, ()),
    Row(
        "out-with-replacement-tile",
        lambda f: f.self_drawn and f.hand.win.kong_replacement,
        ("self-drawn",),
    ),
    Row("robbing-the-kong", lambda f: f.hand.win.robbing_kong, ("last-tile",)),
    Row("all-pungs", lambda f: f.four_pungs, ()),
    Row("half-flush", lambda f: f.voided == 2 and f.honors, ()),
    Row("mixed-shifted-chows", lambda f: f.chow("mixed-shifted-chows"), ()),
    Row("all-types", lambda f: f.all_types, ()),
    Row("melded-hand", lambda f: f.exposed == 4 and not f.self_drawn, ("single-wait",)),
    Row(
        "two-concealed-kongs",
        lambda f: f.n_concealed_kongs >= 2,
        ("concealed-kong", "two-concealed-pungs"),
    ),
    Row("two-dragons-pungs", lambda f: f.pung("two-dragons-pungs"), ("dragon-pung",)),
    Row(
        "outside-hand",
        lambda f: f.every_pack(_OUTSIDE_CHOWS, _TERMINALS_HONORS),
        (),
    ),
    Row(
        "fully-concealed-hand",
        lambda f: f.exposed == 0 and f.self_drawn,
        ("self-drawn", "concealed-hand"),
    ),
    Row("two-melded-kongs", lambda f: f.n_melded_kongs >= 2, ("melded-kong",)),
    Row("last-tile", lambda f: f.last_tile, ()),
    Row("dragon-pung", lambda f: f.dragon_pungs, ()),
    Row("prevalent-wind", lambda f: f.round_i in f.wind_pungs, ()),
    Row("seat-wind", lambda f: f.seat_i in f.wind_pungs, ()),
    Row("concealed-hand", lambda f: f.exposed == 0 and not f.self_drawn, ()),
    Row(
        "all-chows",
        lambda f: (
            f.pair_tile is not None
            and f.pair_tile < 27
            and (f.four_chows or (f.shape == KNITTED_STRAIGHT and len(f.chow_tiles) == 1))
        ),
        ("no-honors",),
    ),
    Row("tile-hog", lambda f: f.tile_hogs, ()),
    Row("double-pung", lambda f: f.pung("double-pung"), ()),
    Row("two-concealed-pungs", lambda f: f.concealed_pung_total == 2, ()),
    Row("concealed-kong", lambda f: f.n_concealed_kongs >= 1, ()),
    Row("all-simples", lambda f: not f.kinds & _TERMINALS_HONORS_BITS, ("no-honors",)),
    Row("pure-double-chow", lambda f: f.chow("pure-double-chow"), ()),
    Row("mixed-double-chow", lambda f: f.chow("mixed-double-chow"), ()),
    Row("short-straight", lambda f: f.chow("short-straight"), ()),
    Row("two-terminal-chows", lambda f: f.chow("two-terminal-chows"), ()),
    Row("pung-of-terminals-or-honors", lambda f: f.pungs_of_terminals_or_honors, ()),
    Row("melded-kong", lambda f: f.n_melded_kongs >= 1, ()),
    Row("one-voided-suit", lambda f: f.voided == 1, ()),
    Row("no-honors", lambda f: not f.honors, ()),
    Row("edge-wait", lambda f: f.wait_fan == "edge-wait", ()),
    Row("closed-wait", lambda f: f.wait_fan == "closed-wait", ()),
    Row("single-wait", lambda f: f.wait_fan == "single-wait", ()),
    Row("self-drawn", lambda f: f.self_drawn, ()),
    Row(FLOWERS, lambda f: len(f.hand.flowers), category="flower"),
)

#: The (id, predicate, implied fans) view of :data:`TABLE`.
ROWS: tuple[tuple[str, _Pred, tuple[str, ...]], ...] = tuple(
    (r.id, r.predicate, tuple(sorted(r.excludes))) for r in TABLE
)


def _win_flags(f: MCRFeatures) -> bool:
    w = f.hand.win
    return w.last_tile or w.kong_replacement or w.robbing_kong


#: Rows sharing a cheap *necessary* condition (the engine's ``Pattern.guard``): when it is
#: false for an arrangement none of these fans can be present, and their predicates are not
#: called. Only a shortcut: ``tests/scoring/test_mcr.py`` scores hands with and without it.
GROUPS: tuple[tuple[Callable[[MCRFeatures], object], tuple[str, ...]], ...] = (
    (
        lambda f: f.chow_fans,  # two or more chows that combine
        (
            "quadruple-chow",
            "four-pure-shifted-chows",
            "pure-triple-chow",
            "pure-straight",
            "pure-shifted-chows",
            "mixed-straight",
            "mixed-triple-chow",
            "mixed-shifted-chows",
            "pure-double-chow",
            "mixed-double-chow",
            "short-straight",
            "two-terminal-chows",
        ),
    ),
    (
        lambda f: f.pung_fans,  # two or more pungs that combine
        (
            "big-four-winds",
            "big-three-dragons",
            "little-four-winds",
            "little-three-dragons",
            "four-pure-shifted-pungs",
            "pure-shifted-pungs",
            "triple-pung",
            "big-three-winds",
            "mixed-shifted-pungs",
            "two-dragons-pungs",
            "double-pung",
        ),
    ),
    (
        lambda f: f.pung_tiles,  # a pung or kong
        (
            "four-concealed-pungs",
            "all-even-pungs",
            "three-concealed-pungs",
            "all-pungs",
            "two-concealed-pungs",
            "dragon-pung",
            "prevalent-wind",
            "seat-wind",
            "pung-of-terminals-or-honors",
        ),
    ),
    (
        lambda f: f.n_kongs,
        (
            "four-kongs",
            "three-kongs",
            "two-concealed-kongs",
            "two-melded-kongs",
            "concealed-kong",
            "melded-kong",
        ),
    ),
    (
        lambda f: not f.is_standard_shape,
        (
            "seven-shifted-pairs",
            "thirteen-orphans",
            "seven-pairs",
            "greater-honors-and-knitted-tiles",
            "lesser-honors-and-knitted-tiles",
            "knitted-straight",
        ),
    ),
    (
        lambda f: f.voided == 2 and not f.honors,  # one suit only
        ("nine-gates", "pure-terminal-chows", "full-flush"),
    ),
    (
        lambda f: not f.honors and f.range_fan,  # numbered tiles of a limited range
        ("upper-tiles", "middle-tiles", "lower-tiles", "upper-four", "lower-four"),
    ),
    (
        lambda f: not f.honors,
        ("all-terminals", "three-suited-terminal-chows", "all-five", "all-simples"),
    ),
    (lambda f: f.honors, ("all-honors", "half-flush", "all-types")),
    (
        lambda f: not f.has_characters,  # green and reversible tiles are dots/bamboo/honours
        ("all-green", "reversible-tiles"),
    ),
    (
        # a standard (or knitted) arrangement's pair must then be a terminal or an honour
        lambda f: f.pair_tile is None or f.pair_tile in _TERMINALS_HONORS,
        ("all-terminals-and-honors", "outside-hand"),
    ),
    (
        _win_flags,
        ("last-tile-draw", "last-tile-claim", "out-with-replacement-tile", "robbing-the-kong"),
    ),
    (lambda f: f.wait_fan, ("edge-wait", "closed-wait", "single-wait")),
)


def _patterns(guards: bool = True) -> tuple[Row[MCRFeatures], ...]:
    """The table bound to its data; ``guards=False`` leaves out the :data:`GROUPS` shortcut."""
    guard_of: dict[str, Callable[[MCRFeatures], object]] = {}
    for guard, members in GROUPS:
        for fid in members:
            if fid in guard_of or fid not in FANS:
                raise ValueError(f"mcr: {fid} is in no or in two guard groups")
            guard_of[fid] = guard
    order = {r.id: i for i, r in enumerate(TABLE)}
    for r in TABLE:
        for e in r.excludes:
            if order[e] <= order[r.id]:
                raise ValueError(f"mcr: {r.id} implies {e}, which precedes it in the table")
    data = {fid: RowData(f["zh"], int(f["points"]), en=f["en"]) for fid, f in FANS.items()}
    rows = bind("mcr", TABLE, data)
    if guards:
        rows = tuple(r.with_options(guard=guard_of.get(r.id)) for r in rows)
    return rows


# -- the rule set ---------------------------------------------------------------------------


@mypyc_attr(allow_interpreted_subclasses=True)  # (see scoring.engine.RuleSet)
class MCRRuleSet(RuleSet[MCRFeatures]):
    """MCR: 81 fans, 8-point minimum (flowers not counted), 8 + total settlement."""

    def validate(self, hand: Hand) -> None:
        super().validate(hand)
        win = hand.win
        if win.kong_replacement and not any(m.kind is MeldKind.KONG for m in hand.melds):
            raise InvalidHandError("a win on a kong replacement tile needs a declared kong")
        if win.robbing_kong and (
            hand.win_tile in hand.concealed or any(hand.win_tile in m.tiles for m in hand.melds)
        ):
            raise InvalidHandError(
                f"robbing a kong of {hand.win_tile}: the winner cannot hold another {hand.win_tile}"
            )

    def waits(
        self,
        counts: Sequence[int],
        n_melds: int,
        held: Sequence[int] | None = None,
        melds: Sequence[Meld] | None = None,
    ) -> list[Tile]:
        """Same answer as the generic completion test over every tile, computed from the
        memoised per-suit tables and cheap tests for the special shapes. (No MCR shape
        depends on the kind of a declared meld, so ``melds`` changes nothing.)"""
        mine = held if held is not None else counts
        m = mcr_wait_mask(counts, n_melds)
        out: list[Tile] = []
        t = 0
        while m:
            if m & 1 and mine[t] < 4:
                out.append(KINDS[t])
            m >>= 1
            t += 1
        return out

    def arrangements(self, hand: Hand) -> list[Arrangement]:
        """The engine's (the standard arrangements, then each special shape's), with a cheap
        *necessary* condition per shape, from one pass over the counts, tried before its
        completion test: none with two or more declared melds; seven pairs no odd count,
        thirteen orphans no simple tile, honours and knitted no tile twice, a knitted
        straight nine different numbered tiles."""
        c = hand._concealed_counts  # (the hand's own tuple: immutable)
        out = standard_arrangements(hand, c)
        melds = hand.melds
        n = len(melds)
        if n > 1:
            return out  # (every MCR shape allows at most one declared meld: max_melds)
        mask = odd = most = 0
        for t in range(34):
            x = c[t]
            if x:
                mask |= 1 << t
                odd |= x & 1
                if x > most:
                    most = x
        for s in self.shapes:
            if n > s.max_melds:
                continue
            name = s.name
            if name == SEVEN_PAIRS:
                hopeless = odd != 0
            elif name == THIRTEEN_ORPHANS:
                hopeless = mask & ~_ORPHAN_MASK != 0
            elif name == HONORS_KNITTED:
                hopeless = most > 1
            elif name == KNITTED_STRAIGHT:
                hopeless = (mask & _SUITED_MASK).bit_count() < 9
            else:
                hopeless = False
            if hopeless:
                continue
            cm = s.complete_melds  # SpecialShape.matches, inlined
            if cm(c, melds) if cm is not None else s.complete(c, n):
                out.extend(s.arrange(hand, c))
        return out

    def finalize(self, items: list[Item], f: MCRFeatures) -> tuple[list[Item], int]:
        if not items or (len(items) == 1 and items[0].id == FLOWERS):  # ids are unique
            p = self.by_id[CHICKEN]
            items = [Item(p.id, p.name, p.en, p.points, 1), *items]
        return items, sum([i.points * i.count for i in items])

    def choose_key(self, total: int, items: Sequence[Item], f: MCRFeatures) -> tuple[int, ...]:
        """Highest total first. Equal totals are a matter of convention (the fans differ, the
        points do not); the reference calculator's is used so both agree on the fans:

        * a reading with Pure Triple Chow or Triple Pung is preferred, the last such one in
          the order below;
        * the standard reading is preferred over seven pairs (and then the last standard one);
        * otherwise the first reading in the order of the sorted concealed sets, comparing
          set by set with the tiles ordered characters, bamboo, dots, honours and a pung
          before the chow starting on the same tile.
        """
        ids = {i.id for i in items}
        preferred = "pure-triple-chow" in ids or "triple-pung" in ids
        order = f.division_order
        later_wins = preferred or f.seven_pairs_possible
        rank = order if later_wins else tuple(-x for x in order)
        return (total, int(preferred), 0 if f.shape == SEVEN_PAIRS else 1, *rank)

    def settle(
        self, result: ScoreResult, seating: Seating, options: Mapping[str, Any] | None = None
    ) -> list[Payment]:
        """Self-drawn: each of the three others pays 8 + total. Discard: the discarder pays
        8 + total, the two others 8 each. A hand under the 8-point minimum is no win."""
        if not result.minimum_met:
            raise InvalidHandError(
                f"{result.total} points ({MINIMUM} needed, flowers not counted): not a win"
            )
        base = 8
        out = []
        for s in range(seating.players):
            if s == seating.winner:
                continue
            if seating.discarder is None:
                out.append(Payment(s, seating.winner, base + result.total, "self-drawn"))
            elif s == seating.discarder:
                out.append(Payment(s, seating.winner, base + result.total, "discard"))
            else:
                out.append(Payment(s, seating.winner, base, "base"))
        return out


def make_mcr(guards: bool = True) -> MCRRuleSet:
    """The MCR rule set (``guards=False``: without the :data:`GROUPS` shortcut, for tests)."""
    return MCRRuleSet(
        name="mcr",
        title=DATA["title"],
        hand_size=13,
        patterns=_patterns(guards),
        features=MCRFeatures,
        shapes=SHAPES,
        uses_flowers=True,
        minimum=MINIMUM,
        minimum_excludes=frozenset({FLOWERS}),
        exclusion=Exclusion.COUNTED,
    )


MCR = make_mcr()
register(MCR)
