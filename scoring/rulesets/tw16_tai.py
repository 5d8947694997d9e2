"""``tw16-tai``: the 16-tile 台 table of seed 002 (76 rows), with its settlement.

Names and values come from the package data ``scoring/data/taiwan_16_tai.json`` (a copy of
``shared/rules/taiwan_16_tai.json``); this module adds, per row, a stable slug id, an English
gloss, one predicate over :class:`TaiFeatures` and the ids the row removes ("不计").
Every reading of the table is explained in ``docs/rules/tw16-tai.md``.

Win-context fields read (:class:`scoring.context.WinContext`; the older names in brackets
are accepted on input as aliases):

``dealer`` (bool)
    the winner is the dealer (庄); gates 天胡 / 地胡 and shows 庄 / 拉庄 in the breakdown.
``streak`` (int ≥ 0) [``dealer_streak``]
    N of 拉庄: how many hands the dealer has already kept the deal (连庄 N).
``heaven`` (bool) [``heavenly``]
    天胡: the dealer's 17 dealt tiles are a complete hand.
``earth`` (bool) [``earthly``]
    地胡: a non-dealer wins on the dealer's first discard.
``tiles_seen`` (int ≥ 0)
    速食类: tiles discarded to the table before the win, the winning tile not counted.
``flower_win`` ("eight" | "seven-robs-one")
    an instant flower win: 八仙过海 (drew the eighth flower) or 七抢一 (robbed it).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

from mypy_extensions import mypyc_attr

from scoring.decompose import Arrangement, Block, BlockKind, Wait, blocks_of_melds
from scoring.engine import (
    Features,
    Item,
    Part,
    Payment,
    RuleSet,
    ScoreResult,
    Seating,
    SpecialShape,
    lazy,
    register,
)
from scoring.errors import InvalidHandError
from scoring.hand import Hand, Meld
from scoring.rows import Exclusion, Row, RowData, bind, by_name
from scoring.shapes import orphans_ready, pairs_ready, unrelated_ready
from scoring.tiles import TERMINALS_AND_HONORS, Tile

__all__ = ["RULESET", "TaiFeatures", "TaiRuleSet", "load_table"]

NAME = "tw16-tai"

# -- the seed's table as package data -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TableRow:
    """One row of the seed table as shipped: category, Chinese name, 台 text, description."""

    category: str
    name: str
    tai: str
    description: str

    @property
    def points(self) -> int:
        """The 台 per occurrence; ``2乘N`` (拉庄) is 2 per N."""
        text = self.tai.strip()
        if text.isdigit():
            return int(text)
        head = text.split("乘", 1)[0]
        if head.isdigit():
            return int(head)
        raise ValueError(f"cannot read the 台 value {self.tai!r} of {self.name}")


def load_table() -> dict[str, TableRow]:
    """The 76 rows of the seed table, keyed by their Chinese name."""
    raw = resources.files("scoring.data").joinpath("taiwan_16_tai.json").read_text("utf-8")
    data = json.loads(raw)
    rows = [
        TableRow(p["category"], p["name"], p["tai"], p["description"]) for p in data["patterns"]
    ]
    return {r.name: r for r in rows}


# -- special shapes ---------------------------------------------------------------------------

LIKGU = "lik-gu"
SIXTEEN = "sixteen-unrelated"
ORPHANS16 = "thirteen-orphans-16"
FLOWER_WIN = "flower-win"

_ORPHANS = tuple(int(t) for t in TERMINALS_AND_HONORS)
_KNITTED = ((0, 3, 6), (1, 4, 7), (2, 5, 8))  # 147 / 258 / 369 as offsets in a suit


def _likgu_complete(c: Sequence[int], n_melds: int) -> bool:
    """Seven pairs plus one triplet, all in hand (four alike = two pairs)."""
    if n_melds:
        return False
    odd = [n for n in c if n & 1]
    return odd == [3] and sum(c) == 17


def _likgu_arrange(hand: Hand, c: Sequence[int]) -> list[Arrangement]:
    blocks: list[Block] = []
    for i, n in enumerate(c):
        if n == 3:
            exposed = hand.win_tile == i and not hand.win.self_drawn
            blocks.append(Block(BlockKind.PUNG, Tile(i), not exposed))
        else:
            blocks.extend([Block(BlockKind.PAIR, Tile(i), True)] * (n // 2))
    return [Arrangement(LIKGU, tuple(blocks), None, Wait.SPECIAL)]


def _suit_unrelated(g: Sequence[int]) -> bool:
    """Three different numbers of one suit, each two at least three apart (1 5 9, 1 4 7…)."""
    nums = [i for i, n in enumerate(g) if n]
    return len(nums) == 3 and nums[1] - nums[0] >= 3 and nums[2] - nums[1] >= 3


def _sixteen_complete(c: Sequence[int], n_melds: int) -> bool:
    if n_melds or any(c[i] == 0 for i in range(27, 34)) or sum(c) != 17:
        return False
    if any(n > 2 for n in c) or sum(1 for n in c if n == 2) != 1:
        return False
    return all(_suit_unrelated(c[b : b + 9]) for b in (0, 9, 18))


def _sixteen_arrange(hand: Hand, c: Sequence[int]) -> list[Arrangement]:
    blocks = tuple(
        Block(BlockKind.PAIR if n == 2 else BlockKind.SINGLE, Tile(i), True)
        for i, n in enumerate(c)
        if n
    )
    return [Arrangement(SIXTEEN, blocks, None, Wait.SPECIAL)]


def _orphan_sets(c: Sequence[int]) -> list[tuple[BlockKind, int]]:
    """The sets (chow / pung in hand) whose removal leaves the 14-tile thirteen orphans."""
    out: list[tuple[BlockKind, int]] = []
    cand: list[tuple[BlockKind, int, tuple[int, ...]]] = []
    for i in range(34):
        if c[i] >= 3:
            cand.append((BlockKind.PUNG, i, (i, i, i)))
        if i < 27 and i % 9 <= 6 and c[i] and c[i + 1] and c[i + 2]:
            cand.append((BlockKind.CHOW, i, (i, i + 1, i + 2)))
    for kind, i, tiles in cand:
        rest = list(c)
        for t in tiles:
            rest[t] -= 1
        if sum(rest[o] for o in _ORPHANS) == 14 and all(rest[o] >= 1 for o in _ORPHANS):
            out.append((kind, i))
    return out


def _orphans_complete(c: Sequence[int], n_melds: int) -> bool:
    if n_melds or any(c[o] == 0 for o in _ORPHANS):  # the cheap test first
        return False
    return sum(c) == 17 and bool(_orphan_sets(c))


def _orphan_core(c: Sequence[int]) -> bool:
    """The 14-tile thirteen orphans: each terminal and honour, one of them twice."""
    return sum(c) == 14 and all(c[o] >= 1 for o in _ORPHANS) and sum(c[o] for o in _ORPHANS) == 14


def _concealed_kong_only(melds: Sequence[Meld]) -> bool:
    return len(melds) == 1 and melds[0].is_kong and melds[0].concealed


def _orphans_complete_melds(c: Sequence[int], melds: Sequence[Meld]) -> bool:
    """With the melds known, the set may also be a concealed kong ("不能上碰明槓": no
    chow, pung or exposed kong; a concealed kong is not shown as a claimed set)."""
    if not melds:
        return _orphans_complete(c, 0)
    return _concealed_kong_only(melds) and _orphan_core(c)


def _orphans_arrange(hand: Hand, c: Sequence[int]) -> list[Arrangement]:
    if hand.melds:
        if not _concealed_kong_only(hand.melds) or not _orphan_core(c):
            return []
        core = tuple(
            Block(BlockKind.PAIR if c[o] == 2 else BlockKind.SINGLE, Tile(o), True)
            for o in _ORPHANS
        )
        return [Arrangement(ORPHANS16, blocks_of_melds(hand.melds) + core, None, Wait.SPECIAL)]
    out = []
    for kind, i in _orphan_sets(c):
        rest = list(c)
        for t in Block(kind, Tile(i), True).tiles:
            rest[t] -= 1
        blocks = [Block(kind, Tile(i), True)]
        blocks.extend(
            Block(BlockKind.PAIR if rest[o] == 2 else BlockKind.SINGLE, Tile(o), True)
            for o in _ORPHANS
        )
        out.append(Arrangement(ORPHANS16, tuple(blocks), None, Wait.SPECIAL))
    return out


SHAPES = (
    SpecialShape(LIKGU, _likgu_complete, _likgu_arrange, ready=pairs_ready),
    SpecialShape(SIXTEEN, _sixteen_complete, _sixteen_arrange, ready=unrelated_ready),
    SpecialShape(
        ORPHANS16, _orphans_complete, _orphans_arrange, _orphans_complete_melds, ready=orphans_ready
    ),
)


def _flower_win_arrangement(hand: Hand) -> Arrangement:
    """An instant flower win: the tiles in hand need not form anything."""
    singles = tuple(
        Block(BlockKind.SINGLE, t, True) for t in sorted((*hand.concealed, hand.win_tile))
    )
    return Arrangement(FLOWER_WIN, blocks_of_melds(hand.melds) + singles, None, Wait.SPECIAL)


# -- the feature record -----------------------------------------------------------------------

_FLOWER_WIN_KINDS = ("eight", "seven-robs-one")
_TERMINAL_OR_HONOR = frozenset(_ORPHANS)


class TaiFeatures(Features):
    """Facts of one arrangement that the 台 table's predicates read."""

    dragon_row: str = "right-honor"  # the 字 row a dragon pung scores (a rule-set parameter)

    # -- context ------------------------------------------------------------------------

    @lazy
    def dealer(self) -> bool:
        return self.context.dealer

    @lazy
    def dealer_streak(self) -> int:
        return self.context.streak

    @lazy
    def tiles_seen(self) -> int | None:
        return self.context.tiles_seen

    @lazy
    def flower_win(self) -> str | None:
        return self.context.flower_win

    # -- shape --------------------------------------------------------------------------

    @lazy
    def shape(self) -> str:
        return self.arr.shape

    @lazy
    def special(self) -> bool:
        """One of the three special shapes (嚦咕嚦咕, 十六不搭, 十三么)."""
        return self.shape in (LIKGU, SIXTEEN, ORPHANS16)

    @lazy
    def n_waits(self) -> int:
        return len(self.waits)

    @lazy
    def one_tile_shape(self) -> bool:
        """一飞: the win tile completed an edge, closed or single-pair wait."""
        return self.is_standard and self.wait in (Wait.EDGE, Wait.CLOSED, Wait.SINGLE)

    @lazy
    def all_chows(self) -> bool:
        return self.is_standard and len(self.chows) == 5

    @lazy
    def all_pungs(self) -> bool:
        return self.is_standard and len(self.pungs) == 5

    @lazy
    def pinghu_violations(self) -> int:
        """How many of 大平胡's four conditions an all-chow hand breaks: honours (in the
        pair), flowers, a one-tile (一飞) wait, a self-draw."""
        return (
            int(self.has_honors)
            + int(bool(self.hand.flowers))
            + int(self.wait is not Wait.TWO_SIDED)
            + int(self.self_drawn)
        )

    @lazy
    def all_claimed(self) -> bool:
        """Five declared melds, none concealed: only the pair's two tiles are in hand."""
        return len(self.hand.melds) == 5 and not any(m.concealed for m in self.hand.melds)

    # -- tiles --------------------------------------------------------------------------

    @lazy
    def n_suits(self) -> int:
        return len(self.suits)

    @lazy
    def has_winds(self) -> bool:
        return any(self.counts[27:31])

    @lazy
    def has_dragons(self) -> bool:
        return any(self.counts[31:34])

    @lazy
    def no_terminals_or_honors(self) -> bool:
        return self.all_simples

    @lazy
    def only_terminals(self) -> bool:
        return all(t.is_terminal for t in self.kinds)

    @lazy
    def outside(self) -> bool:
        """连么: every set and the pair of a standard hand hold a terminal or an honour."""
        return self.is_standard and all(
            any(t in _TERMINAL_OR_HONOR for t in b.tiles) for b in self.blocks
        )

    # -- flowers ------------------------------------------------------------------------

    @lazy
    def right_flowers(self) -> int:
        """正花: flowers whose number (1-4 in each set) is the seat's (East 1 … North 4)."""
        if not self.hand.flowers:
            return 0
        n = self.hand.seat_wind.index + 1
        return sum(1 for f in self.hand.flowers if (f.number - 1) % 4 + 1 == n)

    @lazy
    def wrong_flowers(self) -> int:
        return len(self.hand.flowers) - self.right_flowers

    @lazy
    def flower_sets(self) -> int:
        """一台花: complete sets of one kind (春夏秋冬 or 梅兰菊竹)."""
        if len(self.hand.flowers) < 4:
            return 0
        have = set(self.hand.flowers)
        return sum(1 for lo in (34, 38) if all(Tile(lo + k) in have for k in range(4)))

    @lazy
    def mixed_flower_sets(self) -> int:
        """一台草: further sets of the numbers 1-4 taken from both kinds."""
        if len(self.hand.flowers) < 4:
            return 0
        per_number = [0, 0, 0, 0]
        for f in self.hand.flowers:
            per_number[(f.number - 1) % 4] += 1
        return min(per_number) - self.flower_sets

    # -- honours ------------------------------------------------------------------------

    @lazy
    def honor_rows(self) -> dict[str, int]:
        """Pungs / kongs of honours by 字 row: 双番字 (seat and round wind), 正字 (seat or
        round wind; dragons by default), 不正字 (the other winds)."""
        out = {"double-wind": 0, "right-honor": 0, "wrong-honor": 0}
        for b in self.pungs:
            t = b.tile
            if t.is_dragon:
                out[self.dragon_row] += 1
            elif t.is_wind:
                hits = int(t == self.seat_tile) + int(t == self.round_tile)
                out[("wrong-honor", "right-honor", "double-wind")[hits]] += 1
        return out

    @lazy
    def wind_pungs(self) -> int:
        return sum(1 for b in self.pungs if b.tile.is_wind)

    @lazy
    def dragon_pungs(self) -> int:
        return sum(1 for b in self.pungs if b.tile.is_dragon)

    @lazy
    def pair_is_wind(self) -> bool:
        return self.pair is not None and self.pair.tile.is_wind

    @lazy
    def pair_is_dragon(self) -> bool:
        return self.pair is not None and self.pair.tile.is_dragon

    @lazy
    def pair_is_258(self) -> bool:
        p = self.pair
        return p is not None and p.tile.is_suited and p.tile.number in (2, 5, 8)

    # -- sets ---------------------------------------------------------------------------

    @lazy
    def concealed_pung_count(self) -> int:
        """暗间: pungs formed in hand (not completed by a discard) and every kong."""
        return sum(1 for b in self.pungs if b.concealed or b.kind is BlockKind.KONG)

    @lazy
    def same_number_pungs(self) -> dict[int, int]:
        """兄弟: for each number, in how many suits the hand has a pung / kong of it."""
        suits: dict[int, set[int]] = {}
        for b in self.pungs:
            if b.tile.is_suited:
                suits.setdefault(b.tile.number, set()).add(b.tile // 9)
        return {n: len(s) for n, s in suits.items()}

    @lazy
    def same_number_chows(self) -> dict[int, int]:
        """相逢: for each first number, in how many suits the hand has that chow."""
        suits: dict[int, set[int]] = {}
        for b in self.chows:
            suits.setdefault(b.tile.number, set()).add(b.tile // 9)
        return {n: len(s) for n, s in suits.items()}

    @lazy
    def identical_chows(self) -> dict[Tile, int]:
        """般高: how many times each chow occurs."""
        out: dict[Tile, int] = {}
        for b in self.chows:
            out[b.tile] = out.get(b.tile, 0) + 1
        return out

    def n_identical(self, k: int) -> int:
        if len(self.chows) < k:
            return 0
        return sum(1 for n in self.identical_chows.values() if n == k)

    def n_brothers(self, k: int) -> int:
        if len(self.pungs) < k:
            return 0
        return sum(1 for n in self.same_number_pungs.values() if n == k)

    def n_meets(self, k: int) -> int:
        if len(self.chows) < k:
            return 0
        return sum(1 for n in self.same_number_chows.values() if n == k)

    @lazy
    def four_in(self) -> dict[str, int]:
        """四归: a tile held four times, not as a kong, spread over sets of a standard hand:
        pung + chow (二), pair + two chows (三), four chows (四)."""
        out = {"two": 0, "three": 0, "four": 0}
        if not self.is_standard:
            return out
        for i, n in enumerate(self.counts[:27]):
            if n != 4:
                continue
            t = i  # (a tile index: equal to its Tile)
            pung = pair = chows = 0
            for b in self.blocks:
                if b.kind is BlockKind.KONG and b.tile == t:
                    break
                if b.kind is BlockKind.PUNG and b.tile == t:
                    pung += 1
                elif b.kind is BlockKind.PAIR and b.tile == t:
                    pair += 1
                elif b.kind is BlockKind.CHOW and t in b.tiles:
                    chows += 1
            else:
                if pung and chows == 1:
                    out["two"] += 1
                elif pair and chows == 2:
                    out["three"] += 1
                elif chows == 4:
                    out["four"] += 1
        return out

    @lazy
    def straights(self) -> tuple[bool, bool]:
        """(明龙, 暗龙): 123 456 789 of one suit as chows; 暗龙 when all three are concealed."""
        open_ = closed = False
        if len(self.chows) < 3:
            return open_, closed
        for base in (0, 9, 18):
            need = (base, base + 3, base + 6)
            have = [[b.concealed for b in self.chows if b.tile == t] for t in need]
            if all(have):
                open_ = True
                if all(any(h) for h in have):
                    closed = True
        return open_, closed

    @lazy
    def mixed_straight(self) -> bool:
        """花龙: 123, 456 and 789 as chows, each of a different suit."""
        if len(self.chows) < 3:
            return False
        starts = {(b.tile // 9, b.tile.number) for b in self.chows}
        for a in range(3):
            for b in range(3):
                for c in range(3):
                    if len({a, b, c}) == 3 and {(a, 1), (b, 4), (c, 7)} <= starts:
                        return True
        return False

    @lazy
    def knitted_suits(self) -> bool:
        """三不搭: the three suits of a 十六不搭 hold 147, 258 and 369 (in some order)."""
        if self.shape != SIXTEEN:
            return False
        got = []
        for base in (0, 9, 18):
            nums = tuple(i for i in range(9) if self.counts[base + i])
            got.append(nums)
        return sorted(got) == sorted(_KNITTED)


# -- the pattern table ------------------------------------------------------------------------

Pred = Callable[[TaiFeatures], "int | bool"]

DEALER_ROWS = frozenset({"dealer", "dealer-streak"})
FLOWER_WIN_ROWS = frozenset({"seven-robs-one", "eight-immortals"})
CONCEALED_ROWS = frozenset({"concealed-hand", "concealed-self-drawn"})
SPEED_ROWS = frozenset({"within-seven", "within-ten"})


def _x(*ids: str) -> frozenset[str]:
    return frozenset(ids)


_KONG_PAIRS = _x("two-melded-kongs", "yin-yang-kongs", "two-concealed-kongs")
_KONG_ONES = _x("melded-kong", "concealed-kong")

ROWS: tuple[Row[TaiFeatures], ...] = (
    # 奇牌类
    Row(
        "heavenly-win",
        lambda f: f.context.heaven and f.dealer,
        _x("concealed-self-drawn", "concealed-hand", "self-drawn") | SPEED_ROWS,
        name="天胡",
        en="Heavenly win",
    ),
    Row(
        "earthly-win",
        lambda f: f.context.earth and not f.dealer,
        _x("concealed-hand") | SPEED_ROWS,
        name="地胡",
        en="Earthly win",
    ),
    # 不正常胡牌类
    Row(
        "lik-gu",
        lambda f: f.shape == LIKGU,
        CONCEALED_ROWS,
        name="呖咕呖咕",
        en="Seven pairs and a concealed triplet",
    ),
    Row(
        "sixteen-unrelated",
        lambda f: f.shape == SIXTEEN,
        CONCEALED_ROWS,
        name="十六不搭",
        en="Sixteen unrelated",
    ),
    Row(
        "three-knitted",
        lambda f: f.knitted_suits,
        CONCEALED_ROWS,
        name="三不搭",
        en="Knitted 147/258/369 in sixteen unrelated",
    ),
    # 字类
    Row("no-honors", lambda f: not f.has_honors, name="无字", en="No honours"),
    Row(
        "wrong-honor",
        lambda f: f.honor_rows["wrong-honor"],
        name="不正字",
        en="Non-seat, non-round wind pung (each)",
    ),
    Row(
        "right-honor",
        lambda f: f.honor_rows["right-honor"],
        name="正字",
        en="Seat or round wind / dragon pung (each)",
    ),
    Row(
        "double-wind",
        lambda f: f.honor_rows["double-wind"],
        name="双番字",
        en="Seat-and-round wind pung (each)",
    ),
    # 花类
    Row("no-flowers", lambda f: not f.hand.flowers, name="无花", en="No flowers"),
    Row(
        "wrong-flower", lambda f: f.wrong_flowers, name="不正花", en="Flower not of the seat (each)"
    ),
    Row("right-flower", lambda f: f.right_flowers, name="正花", en="Seat flower (each)"),
    Row(
        "no-honors-no-flowers",
        lambda f: not f.has_honors and not f.hand.flowers,
        _x("no-honors", "no-flowers"),
        name="无字花",
        en="No honours and no flowers",
    ),
    Row(
        "mixed-flower-set",
        lambda f: f.mixed_flower_sets,
        name="一台草",
        en="Flowers 1-4 from both kinds (each set)",
    ),
    Row(
        "flower-set",
        lambda f: f.flower_sets,
        name="一台花",
        en="All four flowers of one kind (each set)",
    ),
    Row(
        "seven-robs-one",
        lambda f: f.flower_win == "seven-robs-one",
        name="七抢一",
        en="Seven flowers rob the eighth",
        only_with=DEALER_ROWS | FLOWER_WIN_ROWS,
    ),
    Row(
        "eight-immortals",
        lambda f: f.flower_win == "eight",
        name="八仙过海",
        en="All eight flowers",
        only_with=DEALER_ROWS | FLOWER_WIN_ROWS,
    ),
    # 平胡类
    Row(
        "big-ping-hu",
        lambda f: f.all_chows and f.pinghu_violations == 0,
        _x("no-honors-no-flowers", "no-honors", "no-flowers"),
        name="大平胡",
        en="Great all-chows",
    ),
    Row(
        "small-ping-hu",
        lambda f: f.all_chows and f.pinghu_violations == 1,
        name="小平胡",
        en="Small all-chows",
    ),
    # 胡牌形式类
    Row(
        "single-wait",
        lambda f: f.is_standard and f.n_waits == 1,
        name="独独",
        en="Only one winning tile",
    ),
    Row(
        "false-single-wait",
        lambda f: f.one_tile_shape and f.n_waits > 1,
        name="假独",
        en="One-tile shape, several winning tiles",
    ),
    Row("eye-258", lambda f: f.is_standard and f.pair_is_258, name="将眼", en="2/5/8 pair"),
    Row(
        "dual-pung-wait",
        lambda f: f.is_standard and f.wait is Wait.DUAL_PUNG,
        name="对碰",
        en="Won on a two-pair (对碰) wait",
    ),
    Row("concealed-hand", lambda f: f.is_concealed, name="门清", en="Concealed hand"),
    Row("self-drawn", lambda f: f.self_drawn, name="自摸", en="Self-drawn"),
    Row(
        "concealed-self-drawn",
        lambda f: f.is_concealed and f.self_drawn,
        _x("concealed-hand", "self-drawn"),
        name="门清一摸五",
        en="Concealed and self-drawn",
    ),
    Row(
        "chicken-hand",
        lambda f: False,
        name="鸡胡",
        en="Chicken hand (decided after the other rows)",
    ),
    Row("missing-one-suit", lambda f: f.n_suits == 2, name="缺一门", en="Two suits only"),
    Row(
        "five-gates",
        lambda f: f.n_suits == 3 and f.has_winds and f.has_dragons,
        name="五门齐",
        en="All five families",
    ),
    # 槓类
    Row("melded-kong", lambda f: f.melded_kongs >= 1, name="明槓", en="Melded kong"),
    Row("concealed-kong", lambda f: f.concealed_kongs >= 1, name="暗槓", en="Concealed kong"),
    Row(
        "two-melded-kongs",
        lambda f: f.melded_kongs >= 2,
        _x("melded-kong"),
        name="双明槓",
        en="Two melded kongs",
    ),
    Row(
        "yin-yang-kongs",
        lambda f: f.melded_kongs >= 1 and f.concealed_kongs >= 1,
        _KONG_ONES,
        name="阴阳槓",
        en="A melded and a concealed kong",
    ),
    Row(
        "two-concealed-kongs",
        lambda f: f.concealed_kongs >= 2,
        _x("concealed-kong"),
        name="双暗槓",
        en="Two concealed kongs",
    ),
    Row(
        "three-kongs",
        lambda f: len(f.kongs) >= 3,
        _KONG_PAIRS | _KONG_ONES,
        name="三槓",
        en="Three kongs",
    ),
    Row(
        "four-kongs",
        lambda f: len(f.kongs) >= 4,
        _x("three-kongs") | _KONG_PAIRS | _KONG_ONES,
        name="四槓",
        en="Four kongs",
    ),
    Row(
        "five-kongs",
        lambda f: len(f.kongs) >= 5,
        _x("four-kongs", "three-kongs") | _KONG_PAIRS | _KONG_ONES,
        name="五槓",
        en="Five kongs",
    ),
    Row(
        "kong-bloom",
        lambda f: f.hand.win.kong_replacement,
        name="槓上开花",
        en="Win on a kong replacement tile",
    ),
    Row("robbing-kong", lambda f: f.hand.win.robbing_kong, name="枪槓", en="Robbing a kong"),
    # 庄类
    Row("dealer", lambda f: f.dealer, name="庄", en="Dealer"),
    Row(
        "dealer-streak",
        lambda f: f.dealer and f.dealer_streak > 0,
        name="拉庄",
        en="Dealer's streak (2 × N)",
        value=lambda f: 2 * f.dealer_streak,
    ),
    # 兄弟相逢类
    Row(
        "two-brothers",
        lambda f: f.n_brothers(2),
        name="两兄弟（碰）",
        en="Same-number pungs in two suits",
    ),
    Row(
        "three-brothers",
        lambda f: f.n_brothers(3),
        name="三兄弟（碰）",
        en="Same-number pungs in three suits",
    ),
    Row("two-meet", lambda f: f.n_meets(2), name="两相逢（上）", en="Same chow in two suits"),
    Row("three-meet", lambda f: f.n_meets(3), name="三相逢（上）", en="Same chow in three suits"),
    # 三元四喜类
    Row(
        "small-three-dragons",
        lambda f: f.dragon_pungs == 2 and f.pair_is_dragon,
        name="小三元",
        en="Small three dragons",
    ),
    Row("big-three-dragons", lambda f: f.dragon_pungs == 3, name="大三元", en="Big three dragons"),
    Row(
        "small-three-winds",
        lambda f: f.wind_pungs >= 2 and f.pair_is_wind,
        name="小三风",
        en="Small three winds",
    ),
    Row("big-three-winds", lambda f: f.wind_pungs >= 3, name="大三风", en="Big three winds"),
    Row(
        "small-four-winds",
        lambda f: f.wind_pungs >= 3 and f.pair_is_wind,
        _x("small-three-winds", "big-three-winds"),
        name="小四喜",
        en="Small four winds",
    ),
    Row(
        "big-four-winds",
        lambda f: f.wind_pungs == 4,
        _x("big-three-winds"),
        name="大四喜",
        en="Big four winds",
    ),
    # 暗间类
    Row(
        "two-concealed-pungs",
        lambda f: f.concealed_pung_count >= 2,
        name="两暗间",
        en="Two concealed pungs",
    ),
    Row(
        "three-concealed-pungs",
        lambda f: f.concealed_pung_count >= 3,
        _x("two-concealed-pungs"),
        name="三暗间",
        en="Three concealed pungs",
    ),
    Row(
        "four-concealed-pungs",
        lambda f: f.concealed_pung_count >= 4,
        _x("three-concealed-pungs", "two-concealed-pungs"),
        name="四暗间",
        en="Four concealed pungs",
    ),
    Row(
        "five-concealed-pungs",
        lambda f: f.concealed_pung_count >= 5,
        _x("four-concealed-pungs", "three-concealed-pungs", "two-concealed-pungs"),
        name="五暗间",
        en="Five concealed pungs",
    ),
    # 么类
    Row(
        "all-terminals",
        lambda f: f.all_pungs and f.only_terminals,
        _x("all-pungs", "outside-hand"),
        name="全么",
        en="All terminal pungs",
    ),
    Row(
        "thirteen-orphans",
        lambda f: f.shape == ORPHANS16,
        CONCEALED_ROWS,
        name="十三么",
        en="Thirteen orphans (16-tile)",
    ),
    Row(
        "terminals-and-honors",
        lambda f: f.all_pungs and f.all_terminals_honors and f.has_honors,
        _x("all-pungs", "outside-hand"),
        name="花么",
        en="Terminal and honour pungs",
    ),
    Row(
        "outside-hand",
        lambda f: f.outside,
        name="连么",
        en="A terminal or honour in every set and the pair",
    ),
    Row("all-simples", lambda f: f.no_terminals_or_honors, name="断么", en="All simples"),
    # 四归类
    Row("four-in-two", lambda f: f.four_in["two"], name="四归二", en="Four alike as pung + chow"),
    Row(
        "four-in-three",
        lambda f: f.four_in["three"],
        name="四归三",
        en="Four alike as pair + two chows",
    ),
    Row("four-in-four", lambda f: f.four_in["four"], name="四归四", en="Four alike in four chows"),
    # 速食类
    Row(
        "within-seven",
        lambda f: f.tiles_seen is not None and f.tiles_seen <= 7,
        _x("within-ten"),
        name="七只内",
        en="Won within seven tiles seen",
    ),
    Row(
        "within-ten",
        lambda f: f.tiles_seen is not None and f.tiles_seen <= 10,
        name="十只内",
        en="Won within ten tiles seen",
    ),
    # 大牌类
    Row("all-pungs", lambda f: f.all_pungs, name="对对胡", en="All pungs"),
    Row(
        "half-flush",
        lambda f: f.n_suits == 1 and f.has_honors,
        name="混一色",
        en="One suit and honours",
    ),
    Row(
        "full-flush",
        lambda f: f.n_suits == 1 and not f.has_honors,
        name="清一色",
        en="One suit only",
    ),
    # 般高类
    Row("two-identical-chows", lambda f: f.n_identical(2), name="二般高", en="Two identical chows"),
    Row(
        "three-identical-chows",
        lambda f: f.n_identical(3),
        name="三般高",
        en="Three identical chows",
    ),
    Row(
        "four-identical-chows",
        lambda f: f.n_identical(4),
        _x("four-in-four"),
        name="四般高",
        en="Four identical chows",
    ),
    # 龙类
    Row("open-straight", lambda f: f.straights[0], name="明龙", en="Pure straight"),
    Row(
        "concealed-straight",
        lambda f: f.straights[1],
        _x("open-straight"),
        name="暗龙",
        en="Concealed pure straight",
    ),
    Row("mixed-straight", lambda f: f.mixed_straight, name="花龙", en="Mixed straight"),
    # 求类
    Row(
        "all-claimed",
        lambda f: f.all_claimed and not f.self_drawn,
        name="全求",
        en="Everything claimed, the pair too",
    ),
    Row(
        "half-claimed",
        lambda f: f.all_claimed and f.self_drawn,
        name="半求",
        en="Everything claimed, the pair self-drawn",
    ),
)


def _patterns(table: Mapping[str, TableRow]) -> tuple[Row[TaiFeatures], ...]:
    """The rows bound to the seed table (by Chinese name): values, categories, notes."""
    data = {
        r.name: RowData(r.name, r.points, category=r.category, note=r.description)
        for r in table.values()
    }
    return bind(NAME, ROWS, data, by_name)


# -- the rule set -----------------------------------------------------------------------------

DEFAULT_PARAMS: dict[str, Any] = {
    "base": 0,  # 底: paid by each payer on top of the 台
    "unit": 1,  # value of one 台
    "dealer_rows": True,  # add 庄 / 拉庄 to each payment the dealer takes part in
    "chicken_max": 1,  # a hand whose other rows total at most this is a 鸡胡 (None: never)
    "dragon_row": "right-honor",  # the 字 row of a dragon pung: right-honor (2) or wrong-honor (1)
}


def _flower_win_of(hand: Hand) -> str | None:
    v = hand.context.flower_win
    if v is None:
        return None
    if v not in _FLOWER_WIN_KINDS:
        raise InvalidHandError(f"flower_win must be one of {list(_FLOWER_WIN_KINDS)}, got {v!r}")
    return str(v)


@mypyc_attr(allow_interpreted_subclasses=True)  # (see scoring.engine.RuleSet)
class TaiRuleSet(RuleSet[TaiFeatures]):
    """The 台 table: special shapes, instant flower wins, 鸡胡 and 台 settlement."""

    def choose_key(self, total: int, items: Sequence[Item], f: TaiFeatures) -> tuple[Any, ...]:
        """The highest total; equal totals (e.g. 对碰 read as 假独 through the other pair)
        go to the reading with the larger single rows, then to the smaller row ids, so the
        choice never depends on the enumeration order (which renaming suits or mirroring
        numbers changes)."""
        values = sorted((i.total for i in items), reverse=True)
        return (total, tuple(values), tuple(sorted((i.id for i in items), reverse=True)))

    def validate(self, hand: Hand) -> None:
        c = hand.context
        if c.heaven and not (c.dealer and hand.win.self_drawn):
            raise InvalidHandError("天胡 (heavenly) is the dealer's self-drawn win")
        if c.earth and (c.dealer or hand.win.self_drawn):
            raise InvalidHandError("地胡 (earthly) is a non-dealer's win on a discard")
        fw = _flower_win_of(hand)
        if fw is None:
            super().validate(hand)
            return
        if hand.ruleset != self.name:
            raise InvalidHandError(f"hand is for {hand.ruleset!r}, not {self.name!r}")
        if len(hand.flowers) != 8:
            raise InvalidHandError(f"a flower win ({fw}) needs all eight flowers in 'flowers'")
        if (fw == "eight") != hand.win.self_drawn:
            raise InvalidHandError(
                "八仙过海 (eight) is self-drawn; 七抢一 (seven-robs-one) is won on another "
                "player's flower, not self-drawn"
            )
        n = len(hand.concealed) + 1 + 3 * len(hand.melds)
        if n not in (self.hand_size, self.hand_size + 1):
            raise InvalidHandError(
                f"wrong tile count for a flower win: {n} tiles (kongs count as 3); "
                f"expected {self.hand_size} or {self.hand_size + 1}"
            )

    def arrangements(self, hand: Hand) -> list[Arrangement]:
        if _flower_win_of(hand) is not None:
            return [_flower_win_arrangement(hand)]
        return super().arrangements(hand)

    def finalize(self, items: list[Item], f: TaiFeatures) -> tuple[list[Item], int]:
        """鸡胡: a hand whose rows (dealer rows aside) total at most ``chicken_max`` scores
        the 鸡胡 row instead of them."""
        limit = self.params.get("chicken_max")
        hand_items = [i for i in items if i.id not in DEALER_ROWS]
        if (
            limit is not None
            and f.shape != FLOWER_WIN
            and sum(i.total for i in hand_items) <= int(limit)
        ):
            p = self.by_id["chicken-hand"]
            items = [Item(p.id, p.name, p.en, p.points)] + [i for i in items if i.id in DEALER_ROWS]
        return items, sum(i.total for i in items)

    def extras(self, items: Sequence[Item], f: TaiFeatures) -> dict[str, Any]:
        hand_tai = sum(i.total for i in items if i.id not in DEALER_ROWS)
        return {"hand_tai": hand_tai, "dealer_tai": 1 + 2 * f.dealer_streak}

    def settlement_defaults(self) -> dict[str, Any]:
        return {k: self.params[k] for k in ("base", "unit", "dealer_rows")}

    def settle(
        self, result: ScoreResult, seating: Seating, options: Mapping[str, Any] | None = None
    ) -> list[Payment]:
        """base + 台 × unit from the discarder (discard win, 枪槓, 七抢一) or from each other
        player (self-draw); 庄 1 + 拉庄 2×N are added to every payment the dealer makes or
        receives. ``options`` override the parameters ``base``, ``unit``, ``dealer_rows``."""
        if seating.discarder == seating.winner:
            raise InvalidHandError("the winner cannot be the discarder")
        opts = {**self.params, **(options or {})}
        base, unit = int(opts["base"]), int(opts["unit"])
        tai = sum(i.total for i in result.items if i.id not in DEALER_ROWS)
        dealer_tai = 1 + 2 * seating.streak if opts["dealer_rows"] else 0
        payers = (
            [seating.discarder]
            if seating.discarder is not None
            else [s for s in range(seating.players) if s != seating.winner]
        )
        out = []
        for p in payers:
            with_dealer = seating.dealer in (p, seating.winner)
            t = tai + (dealer_tai if with_dealer else 0)
            reason = "discard" if seating.discarder is not None else "self-drawn"
            parts = ([Part("base", base)] if base else []) + [Part("points", tai, unit)]
            if with_dealer and dealer_tai:
                reason += f" +dealer {dealer_tai}"
                parts.append(Part("dealer", 1, unit))
                if seating.streak:
                    parts.append(Part("streak", 2 * seating.streak, unit))
            out.append(Payment(p, seating.winner, base + unit * t, reason, tuple(parts)))
        return out


class _WrongHonorFeatures(TaiFeatures):
    """The feature record of the ``dragon_row="wrong-honor"`` variant."""

    dragon_row = "wrong-honor"


# (module-level classes, not one made per call: the compiled build has no nested classes)
_FEATURES_BY_DRAGON_ROW: dict[str, type[TaiFeatures]] = {
    "right-honor": TaiFeatures,
    "wrong-honor": _WrongHonorFeatures,
}


def _make_features(params: Mapping[str, Any]) -> Callable[..., TaiFeatures]:
    dragon_row = str(params.get("dragon_row", "right-honor"))
    if dragon_row not in _FEATURES_BY_DRAGON_ROW:
        raise ValueError("dragon_row must be right-honor or wrong-honor")
    return _FEATURES_BY_DRAGON_ROW[dragon_row]


def make_ruleset(name: str = NAME, **params: Any) -> TaiRuleSet:
    """Build the rule set (a variant with other parameters: pass them as keywords)."""
    p = {**DEFAULT_PARAMS, **params}
    return TaiRuleSet(
        name=name,
        title="16-tile 台 table (seed 002)",
        hand_size=16,
        patterns=_patterns(load_table()),
        features=_make_features(p),
        shapes=SHAPES,
        uses_flowers=True,
        exclusion=Exclusion.COUNTED,
        params=p,
    )


RULESET = make_ruleset()
register(RULESET)
