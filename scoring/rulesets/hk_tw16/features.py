"""The feature record of one 港式台牌 arrangement: the facts its pattern table's predicates read.

:class:`HKFeatures` is a plain class with a fixed set of fields (compiled by mypyc: a native
class, a predicate's read is a struct load). The facts nearly every row reads are computed in
``__init__``; the rarer ones are properties, those read by several rows cached in a field of
their own. Attributes of the 明/暗 patterns are 0 (absent), 1 (open: some set forming it is
exposed) or 2 (closed: every set concealed).

Chows are ``(suit, start)`` with suit 0 萬 / 1 筒 / 2 索 and start 1-7.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from scoring.context import WinContext, replacements_of
from scoring.decompose import STANDARD, Arrangement, Block, BlockKind, Wait
from scoring.engine import NOTHING_COUNTED
from scoring.hand import Hand, MeldKind
from scoring.rulesets.hk_tw16.block_search import GuiFacts, gui_of, nine_gates_of
from scoring.rulesets.hk_tw16.feature_tables import (
    ALL_NUMBERS,
    DARK_BITS,
    DOUBLE_DRAGON_MEET,
    DOUBLE_LAOSHAO_CHOW,
    DOUBLE_MIXED_DRAGON,
    DOUBLE_PURE_DRAGON,
    GREEN_BITS,
    MIDDLE_NUMBERS,
    MIXED_DRAGON,
    MIXED_LADDER,
    MIXED_V,
    ONE_SUIT_FOUR_STEP,
    ORPHAN_BITS,
    PERMS,
    PURE_DRAGON,
    PURE_LADDER,
    PURE_V,
    SUIT_SETS,
    TERMINAL_BITS,
    THREE_SUIT_FOUR_STEP,
    Chow,
)
from scoring.rulesets.hk_tw16.shapes import LIKGU, ORPHANS, SIXTEEN
from scoring.tiles import Tile

__all__ = ["HKFeatures"]


def _chow_key(b: Block) -> Chow:
    return (b.tile // 9, b.tile.number)


_CHOW, _PUNG, _KONG, _PAIR = BlockKind.CHOW, BlockKind.PUNG, BlockKind.KONG, BlockKind.PAIR
_NO_BLOCKS: tuple[Block, ...] = ()
_NO_CHOWS: Counter[Chow] = Counter()  # (never changed)


class HKFeatures:
    """Facts of one arrangement of a 港式台牌 hand (see the module docstring): the engine's
    :class:`~scoring.engine.FeatureRecord`."""

    def __init__(self, hand: Hand, arrangement: Arrangement, waits: tuple[Tile, ...]) -> None:
        self.hand = hand
        #: the typed win context (:class:`scoring.context.WinContext`)
        self.context: WinContext = hand.context
        self.arr = arrangement
        self.waits = waits
        self.win_tile = hand.win_tile
        self.self_drawn: bool = hand.win.self_drawn
        #: the ids counted so far, set by the evaluation loop (``Row.reads_counted``)
        self.counted: frozenset[str] = NOTHING_COUNTED
        shape = arrangement.shape
        self.shape: str = shape
        self.standard: bool = shape == STANDARD
        #: 嚦咕嚦咕, 十六不搭 or 十三么
        self.special: bool = shape in (LIKGU, SIXTEEN, ORPHANS)
        # -- blocks: sets, chows, pungs (and kongs), kongs and pairs in one pass
        blocks = arrangement.blocks
        self.blocks: tuple[Block, ...] = blocks
        if blocks:
            sets: list[Block] = []
            chows: list[Block] = []
            pungs: list[Block] = []
            kongs: list[Block] = []
            pairs: list[Block] = []
            for b in blocks:
                k = b.kind
                if k is _CHOW:
                    chows.append(b)
                    sets.append(b)
                elif k is _PUNG:
                    pungs.append(b)
                    sets.append(b)
                elif k is _KONG:
                    pungs.append(b)
                    kongs.append(b)
                    sets.append(b)
                elif k is _PAIR:
                    pairs.append(b)
            self.sets: tuple[Block, ...] = tuple(sets)
            self.chows: tuple[Block, ...] = tuple(chows)
            #: pungs and kongs of the arrangement (the 十三么 set included)
            self.pung_blocks: tuple[Block, ...] = tuple(pungs)
            self.kongs: tuple[Block, ...] = tuple(kongs)
            self.pairs: tuple[Block, ...] = tuple(pairs)
        else:
            self.sets = self.chows = self.pung_blocks = self.kongs = self.pairs = _NO_BLOCKS
        self.n_chows: int = len(self.chows)
        self.n_kongs: int = len(self.kongs)
        #: the eye of a standard hand, 十六不搭 or 十三么 (None for 嚦咕嚦咕)
        self.eye: Tile | None = (
            self.pairs[0].tile if shape != LIKGU and len(self.pairs) == 1 else None
        )
        # -- tiles: counts (34) of every tile of the hand, melds included (a kong counts 4)
        c = hand._tile_counts
        self.counts: tuple[int, ...] = c
        kinds = 0
        for t in range(34):
            if c[t]:
                kinds |= 1 << t
        #: the kinds of tile present (bit t: tile index t)
        self.kind_bits: int = kinds
        suits = bool(kinds & 0x1FF) | bool(kinds >> 9 & 0x1FF) << 1 | bool(kinds >> 18 & 0x1FF) << 2
        self.suit_bits: int = suits
        honors = kinds >> 27 != 0
        self.has_honors: bool = honors
        self.has_suited: bool = suits != 0
        self.no_honor: bool = not honors
        #: honours and suited tiles both present (the 混 patterns)
        self.mixed: bool = honors and suits != 0
        #: suited tiles only (the 清 / 全 patterns)
        self.pure: bool = suits != 0 and not honors
        #: the suited numbers present (bit n-1: number n)
        self.number_bits: int = (kinds | kinds >> 9 | kinds >> 18) & 0x1FF
        # -- situation
        self.flowers: tuple[Tile, ...] = hand.flowers
        fw = self.context.flower_win
        if fw is None and len(hand.flowers) == 8:
            fw = "eight-flowers"
        self.flower_win: str | None = fw
        self.ting: bool = self.context.ting
        self.tiles_left: int | None = self.context.tiles_left
        menqing = fully_concealed = True
        for m in hand.melds:
            if m.kind is not MeldKind.KONG:
                menqing = False
            if not m.concealed:
                fully_concealed = False
        #: 門清: no exposed chow or pung (kongs, melded or concealed, allowed)
        self.menqing: bool = menqing
        #: nothing declared but concealed kongs
        self.fully_concealed: bool = fully_concealed
        # the slots of the facts cached on first use (None: not computed yet)
        self._chow_keys: tuple[tuple[Chow, bool], ...] | None = None
        self._chow_all: Counter[Chow] = _NO_CHOWS
        self._chow_concealed: Counter[Chow] = _NO_CHOWS
        self._by_start: dict[int, Counter[int]] | None = None
        self._suited_pungs: dict[tuple[int, int], bool] | None = None
        self._consec_one_suit: tuple[int, int] | None = None
        self._consec_mixed: tuple[int, int] | None = None
        self._honor_pung_tiles: tuple[Tile, ...] | None = None
        self._gates: str | None = None
        self._gui: GuiFacts | None = None
        self._contain_number = -1
        self._nine_gates: tuple[int, bool] | None = None

    # -- shape and situation ---------------------------------------------------------------

    @property
    def ting_timing(self) -> str:
        return self.context.ting_timing or "normal"

    @property
    def replacements(self) -> tuple[str, ...]:
        """The chain of replacement draws (``flower`` / ``kong``) before the self-draw."""
        v = self.context.replacements
        if v is not None:
            return v
        if self.context.chain is not None:  # (a context built without the parser)
            return replacements_of(self.context.chain)
        if self.hand.win.kong_replacement:
            return ("kong",)
        return ()

    @property
    def chain_value(self) -> int:
        """連續花＋槓上自摸: 3ⁿ (flowers) + 5ⁿ (kongs), a term only when its n > 0, ≤ 800."""
        r = self.replacements
        if len(r) < 2 or not self.self_drawn:
            return 0
        nf, nk = r.count("flower"), r.count("kong")
        v = (3**nf if nf else 0) + (5**nk if nk else 0)
        return min(v, 800)

    @property
    def streak(self) -> int:
        return self.context.streak

    @property
    def juejue_n(self) -> int:
        """絕絕: n (飛 called); the win tile must be the last copy (win.fourth_tile)."""
        if not self.hand.win.fourth_tile:
            return 0
        return self.context.juejue

    @property
    def winners(self) -> int:
        return self.context.winners

    @property
    def fanxue(self) -> int:
        return self.context.fanxue if self.self_drawn else 0

    @property
    def wait(self) -> Wait:
        return self.arr.wait

    # -- flowers ---------------------------------------------------------------------------

    @property
    def seat_flowers(self) -> int:
        """正花: f1/f5 East, f2/f6 South, f3/f7 West, f4/f8 North."""
        i = self.hand.seat_wind.index
        return sum([1 for f in self.flowers if (f.number - 1) % 4 == i])

    @property
    def flower_points(self) -> int:
        return len(self.flowers) + self.seat_flowers

    @property
    def seasons_and_plants(self) -> bool:
        """兩類花牌: at least one season (f1-f4) and one plant (f5-f8)."""
        return any(f.number <= 4 for f in self.flowers) and any(f.number >= 5 for f in self.flowers)

    # -- tiles -----------------------------------------------------------------------------

    @property
    def suited_numbers(self) -> frozenset[int]:
        nb = self.number_bits
        return frozenset([n for n in range(1, 10) if nb >> (n - 1) & 1])

    @property
    def suit_set(self) -> frozenset[int]:
        return SUIT_SETS[self.suit_bits]

    def numbers_within(self, allowed: Iterable[int]) -> bool:
        a = 0
        for n in allowed:
            a |= 1 << (n - 1)
        return not self.number_bits & ~a

    @property
    def no_terminals(self) -> bool:
        return not self.kind_bits & TERMINAL_BITS

    @property
    def no_five(self) -> bool:
        return not self.number_bits & 0b10000

    @property
    def all_orphans(self) -> bool:
        return not self.kind_bits & ~ORPHAN_BITS

    @property
    def all_green(self) -> bool:
        return not self.kind_bits & ~GREEN_BITS

    @property
    def all_dark(self) -> bool:
        return not self.kind_bits & ~DARK_BITS

    @property
    def family_counts(self) -> tuple[int, int, int, int, int]:
        """Tiles per family: 萬 筒 索 風 三元 (kongs count four)."""
        c = self.counts
        return (sum(c[0:9]), sum(c[9:18]), sum(c[18:27]), sum(c[27:31]), sum(c[31:34]))

    @property
    def gates(self) -> str:
        """'big' (each family ≥ 3 tiles), 'small' (one family only the eye), or ''."""
        g = self._gates
        if g is None:
            g = self._gates = self._find_gates()
        return g

    def _find_gates(self) -> str:
        fc = self.family_counts
        if min(fc) == 0:
            return ""
        if min(fc) >= 3:
            return "big"
        others = [n for n in fc if n != 2]
        if len(others) == 4 and min(others) >= 3:
            return "small"  # one family holds only two tiles: the eye (a pair in 嚦咕嚦咕)
        return ""

    # -- blocks ----------------------------------------------------------------------------

    def _fill_chows(self) -> tuple[tuple[Chow, bool], ...]:
        """Fill the chow keys and the two counters of chows (all, concealed) together."""
        keys = tuple([(_chow_key(b), b.concealed) for b in self.chows])
        self._chow_keys = keys
        self._chow_all = Counter([k for k, _ in keys])
        self._chow_concealed = Counter([k for k, c in keys if c])
        return keys

    @property
    def chow_keys(self) -> tuple[tuple[Chow, bool], ...]:
        k = self._chow_keys
        return self._fill_chows() if k is None else k

    @property
    def chow_all(self) -> Counter[Chow]:
        if self._chow_keys is None:
            self._fill_chows()
        return self._chow_all

    @property
    def chow_concealed(self) -> Counter[Chow]:
        if self._chow_keys is None:
            self._fill_chows()
        return self._chow_concealed

    def sel(self, spec: Sequence[Chow]) -> int:
        """0 if the chows ``spec`` (a multiset) are not all there, 2 if all can be concealed
        ones, else 1."""
        have = self.chow_all
        con = self.chow_concealed
        need: dict[Chow, int] = {}
        for k in spec:
            need[k] = need.get(k, 0) + 1
        closed = True
        for k, n in need.items():
            if have.get(k, 0) < n:
                return 0
            if con.get(k, 0) < n:
                closed = False
        return 2 if closed else 1

    def best(self, specs: Iterable[Sequence[Chow]]) -> int:
        n = len(self.chows)
        if n < 2:
            return 0
        have = self.chow_all
        b = 0
        for s in specs:
            if len(s) > n or s[0] not in have:
                continue
            b = max(b, self.sel(s))
            if b == 2:
                break
        return b

    def best_of(self, index: Mapping[Chow, Sequence[Sequence[Chow]]]) -> int:
        """:meth:`best` over static specs indexed by their first chow (:func:`_index`): only
        the specs starting with a chow the hand has are tried."""
        n = len(self.chows)
        if n < 2:
            return 0
        b = 0
        for k in self.chow_all:
            for s in index.get(k, ()):
                if len(s) <= n:
                    v = self.sel(s)
                    if v > b:
                        if v == 2:
                            return 2
                        b = v
        return b

    @property
    def all_chows_state(self) -> int:
        """For the five-chow patterns: 2 when every chow is concealed, else 1."""
        return 2 if all(c for _, c in self.chow_keys) else 1

    @property
    def by_start(self) -> dict[int, Counter[int]]:
        """start → Counter of suits of the chows with that start."""
        out = self._by_start
        if out is None:
            out = self._by_start = {}
            for (s, a), n in self.chow_all.items():
                out.setdefault(a, Counter())[s] += n
        return out

    # -- same-chow family ------------------------------------------------------------------

    @property
    def pungao(self) -> int:
        if self.n_chows < 2:
            return 0
        return self.best([k, k] for k, n in self.chow_all.items() if n >= 2)

    @property
    def triple_pungao(self) -> int:
        if self.n_chows < 3:
            return 0
        return self.best([k, k, k] for k, n in self.chow_all.items() if n >= 3)

    @property
    def double_pungao(self) -> int:
        if self.n_chows < 4:
            return 0
        keys = [k for k, n in self.chow_all.items() if n >= 2]
        specs = [[a, a, b, b] for a in keys for b in keys if a < b]
        specs += [[k] * 4 for k, n in self.chow_all.items() if n >= 4]
        return self.best(specs)

    @property
    def all_pungao(self) -> int:
        if self.n_chows != 5:
            return 0
        ns = sorted(self.chow_all.values())
        return self.all_chows_state if ns == [2, 3] else 0

    @property
    def sister_pairs(self) -> int:
        """Disjoint pairs of chows with the same numbers in different suits, not counting
        the three chows of a 三相逢 ("不會…覆計": 234m 234p 234s + 567m 567p is 三相逢 + one
        姊妹, not 三相逢 + 雙姊妹)."""
        if self.n_chows < 2:
            return 0
        total = 0
        meet_done = False
        for suits in self.by_start.values():
            c = dict(suits)
            if not meet_done and len(c) == 3:
                meet_done = True
                c = {x: n - 1 for x, n in c.items() if n > 1}
            t = sum(c.values())
            if t:
                total += min(t // 2, t - max(c.values()))
        return total

    @property
    def small_double_pungao(self) -> bool:
        """般高 with the eye on the next number below or above, same suit (四同色連對)."""
        e = self.eye
        if not self.standard or e is None or not e.is_suited:
            return False
        s, n = e // 9, e.number
        return self.chow_all[(s, n + 1)] >= 2 or self.chow_all[(s, n - 3)] >= 2

    def _meet(self, size: int) -> int:
        if self.n_chows < size:
            return 0
        best = 0
        for a, suits in self.by_start.items():
            if len(suits) == 3 and sum(suits.values()) >= size:
                specs = []
                extra = size - 3
                for x in range(3):
                    if suits[x] >= 1 + extra:
                        specs.append([(0, a), (1, a), (2, a)] + [(x, a)] * extra)
                if size == 5:
                    specs = [[(s, a) for s, n in suits.items() for _ in range(n)]]
                best = max(best, self.best(specs))
        return best

    @property
    def three_meet(self) -> int:
        return self._meet(3)

    @property
    def four_meet(self) -> int:
        return self._meet(4)

    @property
    def five_meet(self) -> int:
        return self._meet(5) if self.n_chows == 5 and len(self.by_start) == 1 else 0

    def _two_groups(self, suits_in_three: int) -> int:
        if self.n_chows != 5 or len(self.by_start) != 2:
            return 0
        groups = sorted(self.by_start.values(), key=lambda c: sum(c.values()))
        if [sum(g.values()) for g in groups] != [2, 3]:
            return 0
        return self.all_chows_state if len(groups[1]) == suits_in_three else 0

    @property
    def all_sisters(self) -> int:
        return self._two_groups(3)

    @property
    def small_all_sisters(self) -> int:
        return self._two_groups(2)

    # -- step family -----------------------------------------------------------------------

    @property
    def mixed_v(self) -> int:
        if self.n_chows < 3:
            return 0
        return self.best_of(MIXED_V)

    @property
    def pure_v(self) -> int:
        if self.n_chows < 3:
            return 0
        return self.best_of(PURE_V)

    @property
    def mixed_dragon(self) -> int:
        if self.n_chows < 3:
            return 0
        return self.best_of(MIXED_DRAGON)

    @property
    def pure_dragon(self) -> int:
        if self.n_chows < 3:
            return 0
        return self.best_of(PURE_DRAGON)

    @property
    def one_suit_four_step(self) -> int:
        if self.n_chows < 4:
            return 0
        return self.best_of(ONE_SUIT_FOUR_STEP)

    @property
    def three_suit_four_step(self) -> int:
        if self.n_chows < 4:
            return 0
        return self.best_of(THREE_SUIT_FOUR_STEP)

    @property
    def mixed_ladder(self) -> int:
        if self.n_chows < 5:
            return 0
        return self.best_of(MIXED_LADDER)

    @property
    def pure_ladder(self) -> int:
        if self.n_chows < 5:
            return 0
        return self.best_of(PURE_LADDER)

    @property
    def double_dragon_meet(self) -> int:
        if self.n_chows < 5:
            return 0
        return self.best_of(DOUBLE_DRAGON_MEET)

    @property
    def double_mixed_dragon(self) -> int:
        if self.n_chows < 5:
            return 0
        return self.best_of(DOUBLE_MIXED_DRAGON)

    @property
    def double_pure_dragon(self) -> int:
        if self.n_chows < 5:
            return 0
        return self.best_of(DOUBLE_PURE_DRAGON)

    # -- 老少 ------------------------------------------------------------------------------

    @property
    def laoshao_chows(self) -> int:
        """Disjoint 123 + 789 pairs of one suit."""
        return sum(min(self.chow_all[(x, 1)], self.chow_all[(x, 7)]) for x in range(3))

    @property
    def double_laoshao_chow(self) -> int:
        if self.laoshao_chows < 2:
            return 0
        return self.best_of(DOUBLE_LAOSHAO_CHOW)

    # -- pungs -----------------------------------------------------------------------------

    @property
    def suited_pungs(self) -> dict[tuple[int, int], bool]:
        """(suit, number) → concealed, for suited pungs/kongs."""
        sp = self._suited_pungs
        if sp is None:
            sp = self._suited_pungs = {
                (b.tile // 9, b.tile.number): b.concealed
                for b in self.pung_blocks
                if b.tile.is_suited
            }
        return sp

    @property
    def eye_key(self) -> tuple[int, int] | None:
        e = self.eye
        return (e // 9, e.number) if e is not None and e.is_suited else None

    @property
    def laoshao_pung_suits(self) -> tuple[int, ...]:
        sp = self.suited_pungs
        return tuple(x for x in range(3) if (x, 1) in sp and (x, 9) in sp)

    @property
    def double_laoshao_pung(self) -> int:
        suits = self.laoshao_pung_suits
        if len(suits) < 2:
            return 0
        sp = self.suited_pungs
        closed = any(
            all(sp[(x, n)] for x in pair for n in (1, 9))
            for pair in ((a, b) for a in suits for b in suits if a < b)
        )
        return 2 if closed else 1

    @property
    def pung_numbers(self) -> list[int]:
        """The numbers of the suited pungs / kongs (one per suit and number)."""
        return [n for _, n in self.suited_pungs]

    @property
    def brothers(self) -> bool:
        nums = self.pung_numbers
        return len(set(nums)) < len(nums)

    @property
    def small_three_brothers(self) -> bool:
        e = self.eye_key
        if e is None or not self.standard:
            return False
        x, n = e
        return all((y, n) in self.suited_pungs for y in range(3) if y != x)

    @property
    def big_three_brothers(self) -> bool:
        nums = self.pung_numbers
        return len(nums) >= 3 and any(nums.count(n) == 3 for n in nums)

    @property
    def all_brothers(self) -> bool:
        return len(self.pung_blocks) == 5 and self.big_three_brothers and self.small_three_brothers

    @property
    def consec_one_suit(self) -> tuple[int, int]:
        """(longest run of pung numbers in one suit, longest run with the eye in it)."""
        v = self._consec_one_suit
        if v is None:
            v = self._consec_one_suit = self._find_consec_one_suit()
        return v

    def _find_consec_one_suit(self) -> tuple[int, int]:
        big = small = 0
        sp = self.suited_pungs
        if len(sp) < 2:  # a run of one at most, and no run of three with the eye
            return len(sp), 0
        e = self.eye_key
        for x in range(3):
            run = 0
            for n in range(1, 10):
                run = run + 1 if (x, n) in sp else 0
                big = max(big, run)
            if e is not None and e[0] == x and self.standard:
                q = e[1]
                lo = q
                while (x, lo - 1) in sp:
                    lo -= 1
                hi = q
                while (x, hi + 1) in sp:
                    hi += 1
                if hi - lo >= 2:
                    small = max(small, hi - lo + 1)
        return big, small

    @property
    def consec_mixed(self) -> tuple[int, int]:
        """The same over the three suits in turn (X, Y, Z, X, Y, …)."""
        v = self._consec_mixed
        if v is None:
            v = self._consec_mixed = self._find_consec_mixed()
        return v

    def _find_consec_mixed(self) -> tuple[int, int]:
        sp = self.suited_pungs
        if len(sp) < 2:  # big needs three pungs, small two and the eye
            return 0, 0
        e = self.eye_key if self.standard else None
        big = small = 0
        for perm in PERMS:
            for a in range(1, 10):
                first = (perm[0], a)
                if first not in sp and first != e:
                    continue  # no run starts here (both loops below would stop at once)
                # big: pungs only
                k = 0
                while a + k <= 9 and (perm[k % 3], a + k) in sp:
                    k += 1
                if k > big:
                    big = k
                # small: pungs and the eye exactly once
                k = 0
                used = False
                while a + k <= 9:
                    key = (perm[k % 3], a + k)
                    if key in sp:
                        k += 1
                    elif not used and key == e:
                        used = True
                        k += 1
                    else:
                        break
                if used and k >= 3:
                    small = max(small, k)
        return (big if big >= 3 else 0), small

    @property
    def concealed_pung_count(self) -> int:
        """暗刻: concealed pungs; "槓亦計暗刻" — every kong counts."""
        return sum(1 for b in self.pung_blocks if b.concealed or b.kind is BlockKind.KONG)

    @property
    def five_concealed(self) -> bool:
        """Five pungs/kongs, none claimed as a pung meld (the pung completed by the winning
        discard still counts: "如有明刻只當五暗刻")."""
        if not self.standard or len(self.pung_blocks) != 5:
            return False
        return not any(m.kind is MeldKind.PUNG for m in self.hand.melds)

    @property
    def kan_kan(self) -> bool:
        return self.five_concealed and self.self_drawn and not self.kongs and not self.hand.melds

    # -- honours ---------------------------------------------------------------------------

    @property
    def honor_pung_tiles(self) -> tuple[Tile, ...]:
        """Honour pungs/kongs; in 嚦咕嚦咕 every honour held three or four times."""
        v = self._honor_pung_tiles
        if v is None:
            if self.shape == LIKGU:
                v = tuple([Tile(i) for i in range(27, 34) if self.counts[i] >= 3])
            else:
                v = tuple([b.tile for b in self.pung_blocks if b.tile.is_honor])
            self._honor_pung_tiles = v
        return v

    @property
    def wind_pungs(self) -> int:
        return sum(1 for t in self.honor_pung_tiles if t.is_wind)

    @property
    def dragon_pungs(self) -> int:
        return sum(1 for t in self.honor_pung_tiles if t.is_dragon)

    @property
    def wind_eye(self) -> bool:
        return self.eye is not None and self.eye.is_wind and self.standard

    @property
    def dragon_eye_honor(self) -> bool:
        return self.eye is not None and self.eye.is_dragon and self.standard

    # -- 歸 family -------------------------------------------------------------------------

    @property
    def gui(self) -> GuiFacts:
        """Tiles held four times outside a kong, by how the four split:
        ``one`` (a pung + a chow), ``two`` (two chows + the eye), ``four`` (four chows).
        Each entry: (tile, all those sets concealed, indexes of the chows holding it)."""
        v = self._gui
        if v is None:
            v = self._gui = self._find_gui()
        return v

    def _find_gui(self) -> GuiFacts:
        if not self.standard or 4 not in self.counts:
            return {"one": [], "two": [], "four": []}
        return gui_of(self.blocks, self.counts)

    def _gui_group(self, kind: str, size: int) -> int:
        """0 / 1 / 2 for ``size`` tiles of a kind sharing the same chows."""
        groups: dict[tuple[int, ...], list[bool]] = {}
        for _, closed, chows in self.gui[kind]:
            groups.setdefault(chows, []).append(closed)
        best = 0
        for closed_list in groups.values():
            if len(closed_list) >= size:
                best = max(best, 2 if all(closed_list) else 1)
        return best

    def _gui_single(self, kind: str) -> int:
        entries = self.gui[kind]
        if not entries:
            return 0
        return 2 if all(c for _, c, _ in entries) else 1

    # -- other -----------------------------------------------------------------------------

    @property
    def contain_number(self) -> int:
        """全帶: the number every suited set (and a suited eye) holds; 0 if none. A number
        other than 1/9 is preferred when several fit."""
        v = self._contain_number
        if v < 0:
            v = self._contain_number = self._find_contain_number()
        return v

    def _find_contain_number(self) -> int:
        if not self.standard:
            return 0
        m = ALL_NUMBERS  # bit k: number k is in every suited set (and the suited eye)
        suited = False
        for b in self.sets:
            t = b.tile._value_
            if t < 27:
                suited = True
                n = t % 9 + 1
                m &= (0b111 << n) if b.kind is BlockKind.CHOW else (1 << n)
        if not suited or not m:
            return 0
        e = self.eye
        if e is not None and e < 27:
            m &= 1 << (e % 9 + 1)
        if m & MIDDLE_NUMBERS:
            m &= MIDDLE_NUMBERS
        return (m & -m).bit_length() - 1 if m else 0

    @property
    def outside(self) -> bool:
        """Every set and the eye hold a terminal or honour, and there is a chow."""
        if not self.standard or not self.chows:
            return False
        return all(any(t.is_terminal_or_honor for t in b.tiles) for b in self.blocks)

    @property
    def nine_gates(self) -> tuple[int, bool]:
        """(state, nine-sided): some set aside, the rest is 1112345678999 + one tile of one
        suit, all in hand."""
        v = self._nine_gates
        if v is None:
            v = self._nine_gates = self._find_nine_gates()
        return v

    def _find_nine_gates(self) -> tuple[int, bool]:
        c34 = self.counts
        if not self.standard or all(sum(c34[b : b + 9]) < 14 for b in (0, 9, 18)):
            return 0, False
        return nine_gates_of(self.blocks, self.waits)

    @property
    def likgu_runs(self) -> int:
        """嚦咕嚦咕: the longest run of consecutive numbers of one suit held as pairs (≥2)."""
        if self.shape != LIKGU:
            return 0
        best = 0
        for s in range(3):
            run = 0
            for k in range(9):
                run = run + 1 if self.counts[9 * s + k] >= 2 else 0
                best = max(best, run)
        return best

    @property
    def double_pairs(self) -> int:
        """大嚦咕嚦咕: tiles held four times (two identical pairs)."""
        if self.shape != LIKGU:
            return 0
        return sum(1 for n in self.counts if n == 4)

    @property
    def heaven_likgu(self) -> bool:
        """通天: the eight groups are the numbers 1-8 or 2-9 once each, pung at an end."""
        if self.shape != LIKGU or self.has_honors:
            return False
        nums: list[int] = []
        pung_num = 0
        for b in self.blocks:
            nums.append(b.tile.number)
            if b.kind is BlockKind.PUNG:
                pung_num = b.tile.number
        s = sorted(nums)
        if s == list(range(1, 9)):
            return pung_num in (1, 8)
        if s == list(range(2, 10)):
            return pung_num in (2, 9)
        return False

    @property
    def pre_win_counts(self) -> list[int]:
        c = self.hand.concealed_counts()
        c[self.win_tile] -= 1
        return c

    @property
    def eight_wait(self) -> bool:
        """嚦咕嚦咕 waited as eight pairs."""
        return self.shape == LIKGU and all(n % 2 == 0 for n in self.pre_win_counts)

    @property
    def sixteen_kind(self) -> str:
        """'meet' (same three numbers in every suit), 'true' (147/258/369), or 'plain'."""
        if self.shape != SIXTEEN:
            return ""
        per = [tuple(k + 1 for k in range(9) if self.counts[9 * s + k]) for s in range(3)]
        if per[0] == per[1] == per[2]:
            return "meet"
        if sorted(per) == [(1, 4, 7), (2, 5, 8), (3, 6, 9)]:
            return "true"
        return "plain"

    @property
    def orphan_set(self) -> Block | None:
        if self.shape != ORPHANS:
            return None
        return next(b for b in self.blocks if b.is_set)

    @property
    def win_form(self) -> str:
        """'true-single', 'fake-single', 'pair-wait' or '' (standard hands only)."""
        if not self.standard:
            return ""
        w = self.wait
        if w in (Wait.EDGE, Wait.CLOSED, Wait.SINGLE):
            return "true-single" if len(self.waits) == 1 else "fake-single"
        if w is Wait.DUAL_PUNG:
            return "pair-wait"
        return ""

    @property
    def qiuren(self) -> bool:
        """Five declared chows/pungs, no kong."""
        m = self.hand.melds
        return len(m) == 5 and all(x.kind is not MeldKind.KONG for x in m)
