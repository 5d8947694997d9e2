"""Zung Jung (中庸麻雀): the seed table ``zung-jung`` and the official preset ``zung-jung-v3.3``.

Both rule sets are *parameters + a pattern table*:

* the names and point values are read from the package data (``scoring/data/zung_jung.json``,
  the 53 rows of seed 004, and ``scoring/data/zung_jung_v33.json``, the official v3.3 list);
* each row below adds what the data cannot say: a stable id, an English name, its **family**
  with a rank, and one predicate over :class:`ZJFeatures`;
* the Zung Jung combination principles are generic code over that data
  (:meth:`ZungJungRuleSet.finalize`): within a family only the highest-ranked pattern present
  counts, different families add up, a hand with no pattern scores 1 (雞和), and the
  :class:`Limit` parameter caps the sum / lets a limit hand score its own value.

The winner's best single arrangement counts (freedom of count; no mixing), and a triplet
completed by a discard counts as exposed (both come from :mod:`scoring.decompose` and the
engine's arrangement loop). See ``docs/rules/zung-jung.md`` for every interpretation.

Win-context fields read (:class:`scoring.context.WinContext`): ``heaven`` (天和), ``human``
(地和: a non-dealer's self-draw on its first draw), ``earth`` (a non-dealer's win on the
dealer's first discard: the seed's 人和, v3.3's 地和 too). The older keys
``blessing_of_heaven`` / ``blessing_of_earth`` / ``blessing_of_man`` are accepted on input
as aliases (``scoring/context.py``).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from itertools import compress
from typing import Any

from mypy_extensions import mypyc_attr

from scoring.context import EARTH_ON_DISCARD
from scoring.engine import (
    Features,
    Item,
    Part,
    Payment,
    RuleSet,
    ScoreResult,
    Seating,
    lazy,
    register,
)
from scoring.errors import InvalidHandError, ScoringError
from scoring.hand import Hand
from scoring.rows import Row, RowData, bind, by_name
from scoring.shapes import seven_pairs, thirteen_orphans
from scoring.tiles import Tile, Wind

__all__ = [
    "BLESSING_KEYS",
    "SEED_ROWS",
    "SEED_TABLE",
    "V33_ROWS",
    "V33_TABLE",
    "Limit",
    "ZJFeatures",
    "ZungJungRuleSet",
    "build",
    "load_table",
]

BLESSING_KEYS = ("blessing_of_heaven", "blessing_of_earth", "blessing_of_man")
#: the first-turn facts of the win context and the seed's names of their blessings
_BLESSING_OF = {
    "heaven": "blessing_of_heaven",
    "human": "blessing_of_earth",
    "earth": "blessing_of_man",
}


# -- the feature record -------------------------------------------------------------------


def _sn(t: Tile) -> tuple[int, int]:
    """(suit index 0-2, number 1-9) of a suited tile."""
    return t.value // 9, t.value % 9 + 1


class ZJFeatures(Features):
    """Facts of one arrangement that the Zung Jung predicates read."""

    @lazy
    def chow_keys(self) -> tuple[tuple[int, int], ...]:
        """(suit, first number) of every chow, sorted."""
        return tuple(sorted(_sn(b.tile) for b in self.chows))

    @lazy
    def chow_multiplicity(self) -> tuple[int, ...]:
        """How many times each distinct chow occurs, highest first."""
        return tuple(sorted(Counter(self.chow_keys).values(), reverse=True))

    @lazy
    def suited_pung_keys(self) -> frozenset[tuple[int, int]]:
        """(suit, number) of every suited pung / kong."""
        return frozenset(_sn(b.tile) for b in self.pungs if b.tile.is_suited)

    @lazy
    def wind_pungs(self) -> int:
        return sum(1 for b in self.pungs if b.tile.is_wind)

    @lazy
    def dragon_pungs(self) -> int:
        return sum(1 for b in self.pungs if b.tile.is_dragon)

    @lazy
    def pair_tile(self) -> Tile | None:
        p = self.pair
        return p.tile if p is not None else None

    @lazy
    def has_terminal(self) -> bool:
        c = self.counts
        return bool(c[0] or c[8] or c[9] or c[17] or c[18] or c[26])

    @lazy
    def numbers(self) -> frozenset[int]:
        """The numbers (1-9) of the suited tiles present."""
        return frozenset(i % 9 + 1 for i in compress(range(27), self.counts))

    @lazy
    def every_block_terminal_or_honor(self) -> bool:
        """Each set and the pair contains a terminal or an honour (standard shape only)."""
        return self.is_standard and all(
            any(t.is_terminal_or_honor for t in b.tiles) for b in self.blocks
        )

    @lazy
    def every_block_terminal(self) -> bool:
        """Each set and the pair contains a terminal number tile (standard shape only)."""
        return self.is_standard and all(any(t.is_terminal for t in b.tiles) for b in self.blocks)

    @lazy
    def one_suit_before_win(self) -> tuple[int, ...] | None:
        """The 9 counts of the 13 tiles held before the win when they are all one suit and
        no meld was declared (for 九蓮寶燈); None otherwise."""
        if self.hand.melds:
            return None
        tiles = self.hand.concealed
        if not tiles or not all(t.is_suited for t in tiles):
            return None
        suit = tiles[0].value // 9
        if any(t.value // 9 != suit for t in tiles):
            return None
        c = [0] * 9
        for t in tiles:
            c[t.value % 9] += 1
        return tuple(c)

    @lazy
    def seat_wind_pungs(self) -> int:
        return sum(1 for b in self.pungs if b.tile == self.seat_tile)

    @lazy
    def round_wind_pungs(self) -> int:
        return sum(1 for b in self.pungs if b.tile == self.round_tile)


F = ZJFeatures
Pred = Callable[[F], int | bool]

# -- predicates ---------------------------------------------------------------------------

_NINE_GATES = (3, 1, 1, 1, 1, 1, 1, 1, 3)


def _all_sequences(f: F) -> bool:
    return f.is_standard and len(f.chows) == 4


def _all_triplets(f: F) -> bool:
    return f.is_standard and len(f.pungs) == 4


def _nine_gates(f: F) -> bool:
    c = f.one_suit_before_win
    return c == _NINE_GATES and f.win_tile.is_suited and len(f.suits) == 1


def _concealed_hand(f: F) -> bool:
    return f.is_standard and f.is_concealed


def _mixed_one_suit(f: F) -> bool:
    return len(f.suits) == 1 and f.has_honors


def _pure_one_suit(f: F) -> bool:
    return len(f.suits) == 1 and not f.has_honors


def _all_honors(f: F) -> bool:
    return not f.suits


def _no_terminals(f: F) -> bool:
    return f.all_simples


def _mixed_lesser_terminals(f: F) -> bool:
    return f.every_block_terminal_or_honor and f.has_honors and f.has_terminal


def _pure_lesser_terminals(f: F) -> bool:
    return f.every_block_terminal and not f.has_honors


def _mixed_greater_terminals(f: F) -> bool:
    return f.all_terminals_honors and f.has_honors and f.has_terminal


def _pure_greater_terminals(f: F) -> bool:
    return f.all_terminals_honors and not f.has_honors


def _range(lo: int, hi: int) -> Pred:
    def pred(f: F) -> bool:
        if f.has_honors:
            return False
        nums = f.numbers
        return not nums or (lo <= min(nums) and max(nums) <= hi)

    return pred


def _wind_triplets(f: F) -> int:
    return f.wind_pungs


def _dragon_triplets(f: F) -> int:
    return f.dragon_pungs


def _small_three_dragons(f: F) -> bool:
    p = f.pair_tile
    return f.dragon_pungs == 2 and p is not None and p.is_dragon


def _big_three_dragons(f: F) -> bool:
    return f.dragon_pungs == 3


def _small_three_winds(f: F) -> bool:
    p = f.pair_tile
    return f.wind_pungs == 2 and p is not None and p.is_wind


def _big_three_winds(f: F) -> bool:
    return f.wind_pungs >= 3


def _small_four_winds(f: F) -> bool:
    p = f.pair_tile
    return f.wind_pungs == 3 and p is not None and p.is_wind


def _big_four_winds(f: F) -> bool:
    return f.wind_pungs == 4


def _identical(f: F) -> bool:
    if len(f.chows) < 2:
        return False
    m = f.chow_multiplicity
    return bool(m) and m[0] >= 2


def _identical_twice(f: F) -> bool:
    if len(f.chows) < 4:
        return False
    return sum(n // 2 for n in f.chow_multiplicity) >= 2


def _identical_n(k: int) -> Pred:
    def pred(f: F) -> bool:
        if len(f.chows) < k:
            return False
        m = f.chow_multiplicity
        return bool(m) and m[0] >= k

    return pred


def _nine_tile_straight(f: F) -> bool:
    if len(f.chows) < 3:
        return False
    keys = set(f.chow_keys)
    return any({(s, 1), (s, 4), (s, 7)} <= keys for s in range(3))


def _pure_run(keys: set[tuple[int, int]] | frozenset[tuple[int, int]], k: int) -> bool:
    """k keys of one suit with numbers n, n+1, …, n+k-1."""
    if len(keys) < k:
        return False
    return any(all((s, n + i) in keys for i in range(k)) for s, n in keys)


def _shifted_sequences(k: int) -> Pred:
    def pred(f: F) -> bool:
        return _pure_run(set(f.chow_keys), k)

    return pred


def _consecutive_triplets(k: int) -> Pred:
    def pred(f: F) -> bool:
        return _pure_run(f.suited_pung_keys, k)

    return pred


def _similar(keys: set[tuple[int, int]] | frozenset[tuple[int, int]]) -> bool:
    """The same number in all three suits."""
    if len(keys) < 3:
        return False
    return any(all((s, n) in keys for s in range(3)) for _, n in keys)


def _mixed_steps(keys: set[tuple[int, int]] | frozenset[tuple[int, int]]) -> bool:
    """Numbers n, n+1, n+2 in three different suits (any suit order)."""
    if len(keys) < 3:
        return False
    for _, n in keys:
        for a in range(3):
            for b in range(3):
                c = 3 - a - b
                if a == b or not 0 <= c <= 2 or c in (a, b):
                    continue
                if (a, n) in keys and (b, n + 1) in keys and (c, n + 2) in keys:
                    return True
    return False


def _three_similar_sequences(f: F) -> bool:
    return _similar(set(f.chow_keys))


def _three_similar_triplets(f: F) -> bool:
    return _similar(f.suited_pung_keys)


def _mixed_shifted_sequences(f: F) -> bool:
    return _mixed_steps(set(f.chow_keys))


def _mixed_consecutive_triplets(f: F) -> bool:
    return _mixed_steps(f.suited_pung_keys)


def _small_three_similar_triplets(f: F) -> bool:
    p = f.pair_tile
    if p is None or not p.is_suited:
        return False
    ps, n = _sn(p)
    return all((s, n) in f.suited_pung_keys for s in range(3) if s != ps)


def _concealed_triplets(f: F) -> int:
    return f.concealed_pungs


def _at_least_concealed(k: int) -> Pred:
    def pred(f: F) -> bool:
        return f.concealed_pungs >= k

    return pred


def _kongs(f: F) -> int:
    return len(f.kongs)


def _at_least_kongs(k: int) -> Pred:
    def pred(f: F) -> bool:
        return len(f.kongs) >= k

    return pred


def _final_draw(f: F) -> bool:
    return f.hand.win.last_tile and f.self_drawn


def _final_discard(f: F) -> bool:
    return f.hand.win.last_tile and not f.self_drawn


def _win_on_kong(f: F) -> bool:
    return f.hand.win.kong_replacement


def _robbing_a_kong(f: F) -> bool:
    return f.hand.win.robbing_kong


def _heaven(f: F) -> bool:
    return f.context.heaven


def _seed_earth(f: F) -> bool:
    """The seed's 地和: a non-dealer's self-draw on its first draw."""
    return f.context.human


def _seed_man(f: F) -> bool:
    """The seed's 人和: a non-dealer's win on the dealer's first discard."""
    return f.context.earth


def _v33_earth(f: F) -> bool:
    """v3.3's 地和: a non-dealer's win on its first draw or on the dealer's first discard."""
    return f.context.human or f.context.earth


def _seven_pairs(f: F) -> bool:
    return f.arr.shape == "seven-pairs"


def _consecutive_seven_pairs(f: F) -> bool:
    if f.arr.shape != "seven-pairs" or len(f.suits) != 1 or f.has_honors:
        return False
    nums = sorted(t.number for t in f.kinds)
    return len(nums) == 7 and nums[-1] - nums[0] == 6


def _thirteen_terminals(f: F) -> bool:
    return f.arr.shape == "thirteen-orphans"


def _value_honors(f: F) -> int:
    """番牌 (v3.3): dragon sets, the seat wind's set and the prevailing wind's set; a wind that
    is both counts twice."""
    return f.dragon_pungs + f.seat_wind_pungs + f.round_wind_pungs


# -- the tables: what the JSON cannot say -------------------------------------------------


def _v33(no: str, id: str, pred: Pred, excludes: Sequence[str] = ()) -> Row[ZJFeatures]:
    """A v3.3 row: its number ``a.b.c`` gives the family ``a.b`` and the rank ``c``; an
    ``a.b`` row is a family of its own."""
    parts = no.split(".")
    family, rank = (".".join(parts[:2]), int(parts[2])) if len(parts) == 3 else ("", 0)
    return Row(id, pred, frozenset(excludes), category=no, family=family, rank=rank)


#: The seed table (seed 004) in its order: the Chinese name is the data key (the JSON
#: gives the points, the category and the series).
SEED_TABLE: tuple[Row[ZJFeatures], ...] = (
    Row("all-sequences", _all_sequences, name="平和", en="All Sequences"),
    Row("all-triplets", _all_triplets, name="對對和", en="All Triplets"),
    Row("nine-gates", _nine_gates, name="九蓮寶燈", en="Nine Gates"),
    Row("concealed-hand", _concealed_hand, name="門前清", en="Concealed Hand"),
    Row(
        "mixed-one-suit",
        _mixed_one_suit,
        name="混一色",
        en="Mixed One-Suit",
        family="one-suit",
        rank=1,
    ),
    Row(
        "pure-one-suit",
        _pure_one_suit,
        name="清一色",
        en="Pure One-Suit",
        family="one-suit",
        rank=2,
    ),
    Row("all-honors", _all_honors, name="字一色", en="All Honors", family="one-suit", rank=3),
    Row("no-terminals", _no_terminals, name="斷么九", en="No Terminals"),
    Row(
        "mixed-lesser-terminals",
        _mixed_lesser_terminals,
        name="混全帶么",
        en="Mixed Lesser Terminals",
        family="terminals",
        rank=1,
    ),
    Row(
        "pure-lesser-terminals",
        _pure_lesser_terminals,
        name="純全帶么",
        en="Pure Lesser Terminals",
        family="terminals",
        rank=2,
    ),
    Row(
        "mixed-greater-terminals",
        _mixed_greater_terminals,
        name="混么九",
        en="Mixed Greater Terminals",
        family="terminals",
        rank=3,
    ),
    Row(
        "pure-greater-terminals",
        _pure_greater_terminals,
        name="清么九",
        en="Pure Greater Terminals",
        family="terminals",
        rank=4,
    ),
    Row(
        "below-five",
        _range(1, 4),
        name="小於五",
        en="All Below Five (1-4)",
        family="number-range",
        rank=1,
    ),
    Row(
        "above-five",
        _range(6, 9),
        name="大於五",
        en="All Above Five (6-9)",
        family="number-range",
        rank=1,
    ),
    Row(
        "all-small", _range(1, 3), name="全小", en="All Small (1-3)", family="number-range", rank=2
    ),
    Row(
        "all-middle",
        _range(4, 6),
        name="全中",
        en="All Middle (4-6)",
        family="number-range",
        rank=2,
    ),
    Row(
        "all-large", _range(7, 9), name="全大", en="All Large (7-9)", family="number-range", rank=2
    ),
    Row("wind-triplet", _wind_triplets, name="風刻", en="Wind Triplet (per set)"),
    Row("dragon-triplet", _dragon_triplets, name="箭刻", en="Dragon Triplet (per set)"),
    Row(
        "small-three-dragons",
        _small_three_dragons,
        name="小三元",
        en="Small Three Dragons",
        family="dragons",
        rank=1,
    ),
    Row(
        "big-three-winds",
        _big_three_winds,
        name="大三風",
        en="Big Three Winds",
        family="winds",
        rank=1,
    ),
    Row(
        "big-three-dragons",
        _big_three_dragons,
        name="大三元",
        en="Big Three Dragons",
        family="dragons",
        rank=2,
    ),
    Row(
        "small-four-winds",
        _small_four_winds,
        name="小四喜",
        en="Small Four Winds",
        family="winds",
        rank=2,
    ),
    Row(
        "big-four-winds",
        _big_four_winds,
        name="大四喜",
        en="Big Four Winds",
        family="winds",
        rank=3,
    ),
    Row(
        "two-identical-sequences",
        _identical,
        name="一般高",
        en="Two Identical Sequences",
        family="identical",
        rank=1,
    ),
    Row(
        "two-identical-sequences-twice",
        _identical_twice,
        name="兩般高",
        en="Two Identical Sequences Twice",
        family="identical",
        rank=2,
    ),
    Row(
        "three-identical-sequences",
        _identical_n(3),
        name="一色三同順",
        en="Three Identical Sequences",
        family="identical",
        rank=3,
    ),
    Row(
        "four-identical-sequences",
        _identical_n(4),
        name="一色四同順",
        en="Four Identical Sequences",
        family="identical",
        rank=4,
    ),
    Row("nine-tile-straight", _nine_tile_straight, name="一氣通貫", en="Nine-Tile Straight"),
    Row(
        "three-shifted-sequences",
        _shifted_sequences(3),
        name="一色三步",
        en="Three Shifted Sequences",
        family="shifted-sequences",
        rank=1,
    ),
    Row(
        "four-shifted-sequences",
        _shifted_sequences(4),
        name="一色四步",
        en="Four Shifted Sequences",
        family="shifted-sequences",
        rank=2,
    ),
    Row(
        "three-consecutive-triplets",
        _consecutive_triplets(3),
        name="三連刻",
        en="Three Consecutive Triplets",
        family="consecutive-triplets",
        rank=1,
    ),
    Row(
        "four-consecutive-triplets",
        _consecutive_triplets(4),
        name="四連刻",
        en="Four Consecutive Triplets",
        family="consecutive-triplets",
        rank=2,
    ),
    Row(
        "three-similar-sequences",
        _three_similar_sequences,
        name="三色同順",
        en="Three Similar Sequences",
    ),
    Row(
        "three-similar-triplets",
        _three_similar_triplets,
        name="三色同刻",
        en="Three Similar Triplets",
    ),
    Row(
        "mixed-shifted-sequences",
        _mixed_shifted_sequences,
        name="三色三步",
        en="Mixed Shifted Sequences",
    ),
    Row(
        "mixed-consecutive-triplets",
        _mixed_consecutive_triplets,
        name="三色連刻",
        en="Mixed Consecutive Triplets",
    ),
    Row(
        "concealed-triplet",
        _concealed_triplets,
        name="暗刻",
        en="Concealed Triplet (per set)",
        family="concealed-triplets",
        rank=1,
    ),
    Row(
        "three-concealed-triplets",
        _at_least_concealed(3),
        name="三暗刻",
        en="Three Concealed Triplets",
        family="concealed-triplets",
        rank=2,
    ),
    Row(
        "four-concealed-triplets",
        _at_least_concealed(4),
        name="四暗刻",
        en="Four Concealed Triplets",
        family="concealed-triplets",
        rank=3,
    ),
    Row("kong", _kongs, name="槓", en="Kong (per kong)", family="kongs", rank=1),
    Row("three-kongs", _at_least_kongs(3), name="三槓", en="Three Kongs", family="kongs", rank=2),
    Row("four-kongs", _at_least_kongs(4), name="四槓", en="Four Kongs", family="kongs", rank=3),
    Row("final-draw", _final_draw, name="妙手回春", en="Final Draw", family="final-tile", rank=1),
    Row(
        "final-discard",
        _final_discard,
        name="海底撈月",
        en="Final Discard",
        family="final-tile",
        rank=1,
    ),
    Row("win-on-kong", _win_on_kong, name="槓上開花", en="Win on Kong"),
    Row("robbing-a-kong", _robbing_a_kong, name="搶槓", en="Robbing a Kong"),
    Row(
        "blessing-of-man",
        _seed_man,
        name="人和",
        en="Blessing of Man",
        family="blessings",
        rank=1,
    ),
    Row(
        "blessing-of-earth",
        _seed_earth,
        name="地和",
        en="Blessing of Earth",
        family="blessings",
        rank=1,
    ),
    Row(
        "blessing-of-heaven",
        _heaven,
        name="天和",
        en="Blessing of Heaven",
        family="blessings",
        rank=1,
    ),
    Row("seven-pairs", _seven_pairs, name="七對子", en="Seven Pairs", family="seven-pairs", rank=1),
    Row(
        "thirteen-terminals",
        _thirteen_terminals,
        ("mixed-greater-terminals",),
        name="十三么九",
        en="Thirteen Terminals",
    ),
    Row(
        "consecutive-seven-pairs",
        _consecutive_seven_pairs,
        name="連七對",
        en="Consecutive Seven Pairs",
        family="seven-pairs",
        rank=2,
    ),
)

#: The official v3.3 list in its order: the number is the data key; the series (``a.b``
#: of ``a.b.c``) is the family and ``c`` the rank (see :func:`_v33`).
V33_TABLE: tuple[Row[ZJFeatures], ...] = (
    _v33("1.1", "all-sequences", _all_sequences),
    _v33("1.2", "concealed-hand", _concealed_hand),
    _v33("1.3", "no-terminals", _no_terminals),
    _v33("2.1.1", "mixed-one-suit", _mixed_one_suit),
    _v33("2.1.2", "pure-one-suit", _pure_one_suit),
    _v33("2.2", "nine-gates", _nine_gates),
    _v33("3.1", "value-honor", _value_honors),
    _v33("3.2.1", "small-three-dragons", _small_three_dragons),
    _v33("3.2.2", "big-three-dragons", _big_three_dragons),
    _v33("3.3.1", "small-three-winds", _small_three_winds),
    _v33("3.3.2", "big-three-winds", _big_three_winds),
    _v33("3.3.3", "small-four-winds", _small_four_winds),
    _v33("3.3.4", "big-four-winds", _big_four_winds),
    _v33("3.4", "all-honors", _all_honors),
    _v33("4.1", "all-triplets", _all_triplets),
    _v33("4.2.1", "two-concealed-triplets", _at_least_concealed(2)),
    _v33("4.2.2", "three-concealed-triplets", _at_least_concealed(3)),
    _v33("4.2.3", "four-concealed-triplets", _at_least_concealed(4)),
    _v33("4.3.1", "one-kong", _at_least_kongs(1)),
    _v33("4.3.2", "two-kongs", _at_least_kongs(2)),
    _v33("4.3.3", "three-kongs", _at_least_kongs(3)),
    _v33("4.3.4", "four-kongs", _at_least_kongs(4)),
    _v33("5.1.1", "two-identical-sequences", _identical),
    _v33("5.1.2", "two-identical-sequences-twice", _identical_twice),
    _v33("5.1.3", "three-identical-sequences", _identical_n(3)),
    _v33("5.1.4", "four-identical-sequences", _identical_n(4)),
    _v33("6.1", "three-similar-sequences", _three_similar_sequences),
    _v33("6.2.1", "small-three-similar-triplets", _small_three_similar_triplets),
    _v33("6.2.2", "three-similar-triplets", _three_similar_triplets),
    _v33("7.1", "nine-tile-straight", _nine_tile_straight),
    _v33("7.2.1", "three-consecutive-triplets", _consecutive_triplets(3)),
    _v33("7.2.2", "four-consecutive-triplets", _consecutive_triplets(4)),
    _v33("8.1.1", "mixed-lesser-terminals", _mixed_lesser_terminals),
    _v33("8.1.2", "pure-lesser-terminals", _pure_lesser_terminals),
    _v33("8.1.3", "mixed-greater-terminals", _mixed_greater_terminals),
    _v33("8.1.4", "pure-greater-terminals", _pure_greater_terminals),
    _v33("9.1.1", "final-draw", _final_draw),
    _v33("9.1.2", "final-discard", _final_discard),
    _v33("9.2", "win-on-kong", _win_on_kong),
    _v33("9.3", "robbing-a-kong", _robbing_a_kong),
    _v33("9.4.1", "blessing-of-heaven", _heaven),
    _v33("9.4.2", "blessing-of-earth", _v33_earth),
    _v33("10.1", "thirteen-terminals", _thirteen_terminals, ("mixed-greater-terminals",)),
    _v33("10.2", "seven-pairs", _seven_pairs),
)

#: Views kept for existing callers: the seed rows by Chinese name, the v3.3 rows by number
#: as (id, predicate, what it supersedes).
SEED_ROWS: dict[str, Row[ZJFeatures]] = {r.name: r for r in SEED_TABLE}
V33_ROWS: dict[str, tuple[str, Pred, tuple[str, ...]]] = {
    r.category: (r.id, r.predicate, tuple(sorted(r.excludes))) for r in V33_TABLE
}

CHICKEN_ID = "chicken-hand"


def load_table(filename: str) -> dict[str, Any]:
    """One of the JSON tables shipped in ``scoring/data``."""
    text = resources.files("scoring.data").joinpath(filename).read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


# -- parameters -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Limit:
    """The limit rule.

    ``cap``: the summed total is capped at this value (None: no cap). ``limit_hands``: a
    pattern whose own value is at least ``threshold`` (a limit hand) makes the hand score
    that value when it is more than the capped sum (with several, the highest).
    """

    cap: int | None = 320
    limit_hands: bool = True
    threshold: int = 320

    @classmethod
    def parse(cls, value: str | int | None) -> Limit:
        """``"official"`` (cap 320 + limit hands), ``"cap"`` (cap only), ``"none"`` (plain sum),
        or an integer cap (with limit hands)."""
        if value is None or value == "none":
            return cls(None, False)
        if value == "official":
            return cls()
        if value == "cap":
            return cls(320, False)
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            return cls(value, True, value)
        raise ValueError(f"limit must be 'official', 'cap', 'none' or a positive int: {value!r}")

    def apply(self, items: Sequence[Item]) -> tuple[int, str | None]:
        """(total, which rule decided it: None, ``"cap"`` or ``"limit-hand"``)."""
        raw = sum(i.total for i in items)
        total, why = raw, None
        if self.cap is not None and raw > self.cap:
            total, why = self.cap, "cap"
        if self.limit_hands:
            own = max((i.points for i in items if i.points >= self.threshold), default=0)
            if own > total:
                total, why = own, "limit-hand"
        return total, why

    def describe(self) -> str:
        if self.cap is None:
            return "none"
        if self.cap == 320 and self.limit_hands and self.threshold == 320:
            return "official"
        if self.cap == 320 and not self.limit_hands:
            return "cap"
        return str(self.cap)


DISCARD_SCHEMES = ("discarder", "discarder-for-all", "everyone")
SELF_DRAW_SCHEMES = ("third", "full")


# -- the rule set ---------------------------------------------------------------------------


@mypyc_attr(allow_interpreted_subclasses=True)  # (see scoring.engine.RuleSet)
class ZungJungRuleSet(RuleSet[ZJFeatures]):
    """A Zung Jung table: patterns with families, the limit rule and the payoff scheme."""

    def __init__(
        self,
        *,
        name: str,
        title: str,
        patterns: Sequence[Row[ZJFeatures]],
        chicken: Item,
        limit: Limit,
        discard: str = "discarder",
        self_draw: str = "third",
        earth_requires_self_draw: bool = True,
        table: str = "seed",
    ) -> None:
        if discard not in DISCARD_SCHEMES:
            raise ValueError(f"discard scheme must be one of {DISCARD_SCHEMES}")
        if self_draw not in SELF_DRAW_SCHEMES:
            raise ValueError(f"self-draw scheme must be one of {SELF_DRAW_SCHEMES}")
        super().__init__(
            name=name,
            title=title,
            hand_size=13,
            patterns=patterns,
            features=ZJFeatures,
            shapes=(seven_pairs(four_as_two=True), thirteen_orphans()),
            uses_flowers=False,
            params={
                "table": table,
                "limit": limit.describe(),
                "discard": discard,
                "self_draw": self_draw,
                "earth_requires_self_draw": earth_requires_self_draw,
            },
        )
        self.families[CHICKEN_ID] = ("", 0)
        self.chicken = chicken
        self.limit = limit
        self.discard = discard
        self.self_draw = self_draw
        self.earth_requires_self_draw = earth_requires_self_draw
        if table == "v3.3":  # its 地和 is also won on a discard; it has no 人和
            EARTH_ON_DISCARD.add(name)

    # -- validation ---------------------------------------------------------------------

    def validate(self, hand: Hand) -> None:
        super().validate(hand)
        c = hand.context
        facts = [k for k in ("heaven", "human", "earth") if getattr(c, k)]
        if len(facts) > 1:
            raise InvalidHandError(f"at most one blessing applies, got {facts}")
        if not facts:
            return
        fact = facts[0]
        key = _BLESSING_OF[fact]
        if fact == "earth" and self.name in EARTH_ON_DISCARD:
            key = "blessing_of_earth"
        dealer = hand.seat_wind is Wind.EAST
        if not hand.is_concealed:
            raise InvalidHandError(f"{key}: a first-turn win has no exposed meld")
        if fact == "heaven" and not (dealer and hand.win.self_drawn):
            raise InvalidHandError(f"{key}: the dealer (seat East) self-draws")
        if fact != "heaven" and dealer:
            raise InvalidHandError(f"{key}: the winner is not the dealer")
        if fact == "human" and not hand.win.self_drawn:
            raise InvalidHandError(f"{key}: a self-drawn win on the first draw")
        if fact == "earth" and hand.win.self_drawn:
            raise InvalidHandError(f"{key}: a non-dealer wins on the dealer's first discard")

    # -- combination principles -----------------------------------------------------------

    def finalize(self, items: list[Item], f: ZJFeatures) -> tuple[list[Item], int]:
        kept = self.family_highest(items)
        if not kept:
            kept = [self.chicken]
        total, _ = self.limit.apply(kept)
        return kept, total

    def choose_key(self, total: int, items: Sequence[Item], f: ZJFeatures) -> tuple[int, ...]:
        """Freedom of count: the highest total; ties (e.g. under the cap) go to the higher
        uncapped sum, then to the reading with the most valuable single pattern (then the
        larger values in order, so the choice never depends on the enumeration order)."""
        values = sorted((i.total for i in items), reverse=True)
        return (total, sum(values), max((i.points for i in items), default=0), *values)

    def extras(self, items: Sequence[Item], f: ZJFeatures) -> dict[str, Any]:
        _, why = self.limit.apply(items)
        return {"sum": sum(i.total for i in items), "limit": why}

    # -- settlement -----------------------------------------------------------------------

    def settlement_defaults(self) -> dict[str, Any]:
        return {"discard": self.discard, "self_draw": self.self_draw}

    def settlement_choices(self) -> dict[str, tuple[str, ...]]:
        return {"discard": DISCARD_SCHEMES, "self_draw": SELF_DRAW_SCHEMES}

    def settle(
        self, result: ScoreResult, seating: Seating, options: Mapping[str, Any] | None = None
    ) -> list[Payment]:
        """Points paid to the winner.

        ``discard`` (a win on a discard): ``"discarder"`` — the discarder pays the total;
        ``"discarder-for-all"`` — the discarder pays three times the total; ``"everyone"`` —
        each other player pays the total. ``self_draw``: ``"third"`` — each other player pays
        a third of the total, rounded up; ``"full"`` — each pays the total. Defaults: the
        rule set's parameters; ``options`` may override either.
        """
        opts = dict(options or {})
        discard = opts.get("discard", self.discard)
        self_draw = opts.get("self_draw", self.self_draw)
        if discard not in DISCARD_SCHEMES or self_draw not in SELF_DRAW_SCHEMES:
            raise ScoringError(
                f"settlement options: discard in {DISCARD_SCHEMES}, "
                f"self_draw in {SELF_DRAW_SCHEMES}"
            )
        total = result.total
        others = [s for s in range(seating.players) if s != seating.winner]
        if seating.discarder is not None:
            if seating.discarder not in others:
                raise ScoringError("the discarder must be another player")
            one = (Part("points", total),)
            if discard == "everyone":
                return [Payment(s, seating.winner, total, "win on discard", one) for s in others]
            times = len(others) if discard == "discarder-for-all" else 1
            return [
                Payment(
                    seating.discarder,
                    seating.winner,
                    total * times,
                    "discarder",
                    (Part("points", total, times),),
                )
            ]
        share = 1 if self_draw == "full" else len(others)
        each = -(-total // share)
        parts = (Part("points", total),)
        return [Payment(s, seating.winner, each, "self-drawn", parts, share) for s in others]


# -- building the two tables ----------------------------------------------------------------

_SEED_FILE = "zung_jung.json"
_V33_FILE = "zung_jung_v33.json"


def _chicken_item(v33: dict[str, Any]) -> Item:
    row = next(p for p in v33["patterns"] if p["no"] == "—")
    return Item(CHICKEN_ID, row["zh"], "Chicken Hand", int(row["points"]))


def _seed_data() -> dict[str, RowData]:
    """The seed's rows by Chinese name: points, category and series."""
    return {
        p["name"]: RowData(
            p["name"], int(p["points"]), category=p["category"], note=p.get("series") or ""
        )
        for p in load_table(_SEED_FILE)["patterns"]
    }


def _v33_data(v33: Mapping[str, Any]) -> dict[str, RowData]:
    """The v3.3 rows by number: names and points (the number is the category)."""
    return {
        p["no"]: RowData(p["zh"], int(p["points"]), en=p["en"], category=p["no"])
        for p in v33["patterns"]
        if p["no"] != "—"
    }


def _by_number(row: Row[Any]) -> str:
    return row.category


def build(
    table: str = "seed",
    *,
    name: str | None = None,
    limit: str | int | None = "official",
    discard: str = "discarder",
    self_draw: str = "third",
) -> ZungJungRuleSet:
    """Build a Zung Jung rule set from the shipped tables.

    ``table``: ``"seed"`` (the 53 rows of seed 004) or ``"v3.3"`` (the official list).
    ``limit``: see :meth:`Limit.parse`. ``discard`` / ``self_draw``: the payoff scheme (see
    :meth:`ZungJungRuleSet.settle`).
    """
    v33 = load_table(_V33_FILE)
    if table == "seed":
        rows = bind("zung-jung seed", SEED_TABLE, _seed_data(), by_name)
        default_name, title = "zung-jung", "Zung Jung 中庸麻雀 (seed table, 13 tiles)"
    elif table == "v3.3":
        rows = bind("zung-jung v3.3", V33_TABLE, _v33_data(v33), _by_number)
        default_name, title = "zung-jung-v3.3", "Zung Jung v3.3 中庸麻雀 (official, 13 tiles)"
    else:
        raise ValueError(f"table must be 'seed' or 'v3.3', got {table!r}")
    return ZungJungRuleSet(
        name=name or default_name,
        title=title,
        patterns=rows,
        chicken=_chicken_item(v33),
        limit=Limit.parse(limit),
        discard=discard,
        self_draw=self_draw,
        earth_requires_self_draw=table == "seed",
        table=table,
    )


SEED = register(build("seed"))
V33 = register(build("v3.3"))
