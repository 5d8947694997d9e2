"""The feature record of one 港式台牌 arrangement.

Every predicate of the pattern table reads one attribute of :class:`HKFeatures`; each is a
:func:`~scoring.engine.lazy` attribute computed at most once per arrangement. Attributes of the 明/暗 patterns
are 0 (absent), 1 (open: some set forming it is exposed) or 2 (closed: every set concealed).

Chows are ``(suit, start)`` with suit 0 萬 / 1 筒 / 2 索 and start 1-7.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from itertools import compress, permutations

from scoring.decompose import STANDARD, Block, BlockKind, Wait
from scoring.engine import Features, lazy
from scoring.hand import MeldKind
from scoring.rulesets.hk_tw16.shapes import LIKGU, ORPHANS, SIXTEEN
from scoring.tiles import Tile

__all__ = ["HKFeatures"]

Chow = tuple[int, int]
_PERMS = tuple(permutations(range(3)))
_GREEN = frozenset({Tile.S2, Tile.S3, Tile.S4, Tile.S6, Tile.S8, Tile.GREEN})
_DARK = frozenset({Tile.EAST, Tile.SOUTH, Tile.WEST, Tile.NORTH, Tile.WHITE, Tile.P8})
_ORPHAN_TILES = frozenset(t for t in Tile if t.is_terminal_or_honor)
_ALL_NUMBERS = 0b1111111110  # bits 1-9
_MIDDLE_NUMBERS = 0b0111111100  # bits 2-8


def _index(specs: Iterable[Sequence[Chow]]) -> dict[Chow, tuple[tuple[Chow, ...], ...]]:
    """Static chow specs (multisets of chows, see :meth:`HKFeatures.sel`) by their first chow."""
    out: dict[Chow, list[tuple[Chow, ...]]] = {}
    for s in specs:
        out.setdefault(s[0], []).append(tuple(s))
    return {k: tuple(v) for k, v in out.items()}


#: The specs of the step, straight and 老少 facts, built once (by first chow).
_MIXED_V = _index([((x, a), (y, a + 1), (z, a + 2)) for a in range(1, 6) for x, y, z in _PERMS])
_PURE_V = _index([((x, a), (x, a + 1), (x, a + 2)) for a in range(1, 6) for x in range(3)])
_MIXED_DRAGON = _index([((x, 1), (y, 4), (z, 7)) for x, y, z in _PERMS])
_PURE_DRAGON = _index([((x, 1), (x, 4), (x, 7)) for x in range(3)])
_ONE_SUIT_FOUR_STEP = _index(
    [tuple((x, a + i) for i in range(4)) for a in range(1, 5) for x in range(3)]
)
_THREE_SUIT_FOUR_STEP = _index(
    [((x, a), (y, a + 1), (z, a + 2), (x, a + 3)) for a in range(1, 5) for x, y, z in _PERMS]
)
_MIXED_LADDER = _index(
    [
        ((x, a), (y, a + 1), (z, a + 2), (x, a + 3), (y, a + 4))
        for a in range(1, 4)
        for x, y, z in _PERMS
    ]
)
_PURE_LADDER = _index([tuple((x, a + i) for i in range(5)) for a in range(1, 4) for x in range(3)])
_DOUBLE_DRAGON_MEET = _index([((x, 1), (x, 4), (x, 7), (y, 1), (z, 7)) for x, y, z in _PERMS])
_DOUBLE_MIXED_DRAGON = _index([((x, 4), (y, 1), (y, 7), (z, 1), (z, 7)) for x, y, z in _PERMS])
_DOUBLE_PURE_DRAGON = _index(
    [
        ((x, 1), (x, 4), (x, 7), (x, e[0]), (x, e[1]))
        for x in range(3)
        for e in ((1, 4), (1, 7), (4, 7))
    ]
)
_DOUBLE_LAOSHAO_CHOW = _index(
    [((x, 1), (x, 7), (y, 1), (y, 7)) for x in range(3) for y in range(3) if x <= y]
)


def _chow_key(b: Block) -> Chow:
    return (b.tile // 9, b.tile.number)


class HKFeatures(Features):
    """Facts of one arrangement of a 港式台牌 hand (see the module docstring)."""

    # -- shape and situation ---------------------------------------------------------------

    @lazy
    def shape(self) -> str:
        return self.arr.shape

    @lazy
    def standard(self) -> bool:
        return self.arr.shape == STANDARD

    @lazy
    def special(self) -> bool:
        """嚦咕嚦咕, 十六不搭 or 十三么."""
        return self.arr.shape in (LIKGU, SIXTEEN, ORPHANS)

    @lazy
    def flower_win(self) -> str | None:
        v = self.context.flower_win
        if v is None and len(self.hand.flowers) == 8:
            return "eight-flowers"
        return v

    @lazy
    def menqing(self) -> bool:
        """門清: no exposed chow or pung (kongs, melded or concealed, allowed)."""
        return all(m.kind is MeldKind.KONG for m in self.hand.melds)

    @lazy
    def fully_concealed(self) -> bool:
        """Nothing declared but concealed kongs."""
        return all(m.concealed for m in self.hand.melds)

    @lazy
    def ting(self) -> bool:
        return self.context.ting

    @lazy
    def ting_timing(self) -> str:
        return self.context.ting_timing or "normal"

    @lazy
    def replacements(self) -> tuple[str, ...]:
        """The chain of replacement draws (``flower`` / ``kong``) before the self-draw."""
        v = self.context.replacements
        if v is not None:
            return v
        if self.hand.win.kong_replacement:
            return ("kong",)
        return ()

    @lazy
    def chain_value(self) -> int:
        """連續花＋槓上自摸: 3ⁿ (flowers) + 5ⁿ (kongs), a term only when its n > 0, ≤ 800."""
        r = self.replacements
        if len(r) < 2 or not self.self_drawn:
            return 0
        nf, nk = r.count("flower"), r.count("kong")
        v = (3**nf if nf else 0) + (5**nk if nk else 0)
        return min(v, 800)

    @lazy
    def tiles_left(self) -> int | None:
        return self.context.tiles_left

    @lazy
    def streak(self) -> int:
        return self.context.streak

    @lazy
    def juejue_n(self) -> int:
        """絕絕: n (飛 called); the win tile must be the last copy (win.fourth_tile)."""
        if not self.hand.win.fourth_tile:
            return 0
        return self.context.juejue

    @lazy
    def winners(self) -> int:
        return self.context.winners

    @lazy
    def fanxue(self) -> int:
        return self.context.fanxue if self.self_drawn else 0

    # -- flowers ---------------------------------------------------------------------------

    @lazy
    def flowers(self) -> tuple[Tile, ...]:
        return self.hand.flowers

    @lazy
    def seat_flowers(self) -> int:
        """正花: f1/f5 East, f2/f6 South, f3/f7 West, f4/f8 North."""
        i = self.hand.seat_wind.index
        return sum(1 for f in self.flowers if (f.number - 1) % 4 == i)

    @lazy
    def flower_points(self) -> int:
        return len(self.flowers) + self.seat_flowers

    @lazy
    def seasons_and_plants(self) -> bool:
        """兩類花牌: at least one season (f1-f4) and one plant (f5-f8)."""
        return any(f.number <= 4 for f in self.flowers) and any(f.number >= 5 for f in self.flowers)

    # -- tiles -----------------------------------------------------------------------------

    @lazy
    def suited_numbers(self) -> frozenset[int]:
        return frozenset(i % 9 + 1 for i in compress(range(27), self.counts))

    @lazy
    def suit_set(self) -> frozenset[int]:
        c = self.counts
        return frozenset(s for s in range(3) if any(c[9 * s : 9 * s + 9]))

    @lazy
    def has_suited(self) -> bool:
        return bool(self.suit_set)

    @lazy
    def no_honor(self) -> bool:
        return not self.has_honors

    @lazy
    def mixed(self) -> bool:
        """Honours and suited tiles both present (the 混 patterns)."""
        return self.has_honors and self.has_suited

    @lazy
    def pure(self) -> bool:
        """Suited tiles only (the 清 / 全 patterns)."""
        return self.has_suited and not self.has_honors

    def numbers_within(self, allowed: Iterable[int]) -> bool:
        a = set(allowed)
        return self.suited_numbers <= a

    @lazy
    def no_terminals(self) -> bool:
        return not any(t.is_terminal for t in self.kinds)

    @lazy
    def no_five(self) -> bool:
        return 5 not in self.suited_numbers

    @lazy
    def all_orphans(self) -> bool:
        return all(t in _ORPHAN_TILES for t in self.kinds)

    @lazy
    def all_green(self) -> bool:
        return self.kinds <= _GREEN

    @lazy
    def all_dark(self) -> bool:
        return self.kinds <= _DARK

    @lazy
    def family_counts(self) -> tuple[int, int, int, int, int]:
        """Tiles per family: 萬 筒 索 風 三元 (kongs count four)."""
        c = self.counts
        return (sum(c[0:9]), sum(c[9:18]), sum(c[18:27]), sum(c[27:31]), sum(c[31:34]))

    @lazy
    def gates(self) -> str:
        """'big' (each family ≥ 3 tiles), 'small' (one family only the eye), or ''."""
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

    @lazy
    def eye(self) -> Tile | None:
        """The eye of a standard hand, 十六不搭 or 十三么 (None for 嚦咕嚦咕)."""
        if self.shape == LIKGU:
            return None
        p = self.pairs
        return p[0].tile if len(p) == 1 else None

    @lazy
    def chow_keys(self) -> tuple[tuple[Chow, bool], ...]:
        return tuple((_chow_key(b), b.concealed) for b in self.chows)

    @lazy
    def chow_all(self) -> Counter[Chow]:
        return Counter(k for k, _ in self.chow_keys)

    @lazy
    def chow_concealed(self) -> Counter[Chow]:
        return Counter(k for k, c in self.chow_keys if c)

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

    @lazy
    def n_chows(self) -> int:
        return len(self.chows)

    @lazy
    def all_chows_state(self) -> int:
        """For the five-chow patterns: 2 when every chow is concealed, else 1."""
        return 2 if all(c for _, c in self.chow_keys) else 1

    @lazy
    def by_start(self) -> dict[int, Counter[int]]:
        """start → Counter of suits of the chows with that start."""
        out: dict[int, Counter[int]] = {}
        for (s, a), n in self.chow_all.items():
            out.setdefault(a, Counter())[s] += n
        return out

    # -- same-chow family ------------------------------------------------------------------

    @lazy
    def pungao(self) -> int:
        if self.n_chows < 2:
            return 0
        return self.best([k, k] for k, n in self.chow_all.items() if n >= 2)

    @lazy
    def triple_pungao(self) -> int:
        if self.n_chows < 3:
            return 0
        return self.best([k, k, k] for k, n in self.chow_all.items() if n >= 3)

    @lazy
    def double_pungao(self) -> int:
        if self.n_chows < 4:
            return 0
        keys = [k for k, n in self.chow_all.items() if n >= 2]
        specs = [[a, a, b, b] for a in keys for b in keys if a < b]
        specs += [[k] * 4 for k, n in self.chow_all.items() if n >= 4]
        return self.best(specs)

    @lazy
    def all_pungao(self) -> int:
        if self.n_chows != 5:
            return 0
        ns = sorted(self.chow_all.values())
        return self.all_chows_state if ns == [2, 3] else 0

    @lazy
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

    @lazy
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

    @lazy
    def three_meet(self) -> int:
        return self._meet(3)

    @lazy
    def four_meet(self) -> int:
        return self._meet(4)

    @lazy
    def five_meet(self) -> int:
        return self._meet(5) if self.n_chows == 5 and len(self.by_start) == 1 else 0

    def _two_groups(self, suits_in_three: int) -> int:
        if self.n_chows != 5 or len(self.by_start) != 2:
            return 0
        groups = sorted(self.by_start.values(), key=lambda c: sum(c.values()))
        if [sum(g.values()) for g in groups] != [2, 3]:
            return 0
        return self.all_chows_state if len(groups[1]) == suits_in_three else 0

    @lazy
    def all_sisters(self) -> int:
        return self._two_groups(3)

    @lazy
    def small_all_sisters(self) -> int:
        return self._two_groups(2)

    # -- step family -----------------------------------------------------------------------

    @lazy
    def mixed_v(self) -> int:
        if self.n_chows < 3:
            return 0
        return self.best_of(_MIXED_V)

    @lazy
    def pure_v(self) -> int:
        if self.n_chows < 3:
            return 0
        return self.best_of(_PURE_V)

    @lazy
    def mixed_dragon(self) -> int:
        if self.n_chows < 3:
            return 0
        return self.best_of(_MIXED_DRAGON)

    @lazy
    def pure_dragon(self) -> int:
        if self.n_chows < 3:
            return 0
        return self.best_of(_PURE_DRAGON)

    @lazy
    def one_suit_four_step(self) -> int:
        if self.n_chows < 4:
            return 0
        return self.best_of(_ONE_SUIT_FOUR_STEP)

    @lazy
    def three_suit_four_step(self) -> int:
        if self.n_chows < 4:
            return 0
        return self.best_of(_THREE_SUIT_FOUR_STEP)

    @lazy
    def mixed_ladder(self) -> int:
        if self.n_chows < 5:
            return 0
        return self.best_of(_MIXED_LADDER)

    @lazy
    def pure_ladder(self) -> int:
        if self.n_chows < 5:
            return 0
        return self.best_of(_PURE_LADDER)

    @lazy
    def double_dragon_meet(self) -> int:
        if self.n_chows < 5:
            return 0
        return self.best_of(_DOUBLE_DRAGON_MEET)

    @lazy
    def double_mixed_dragon(self) -> int:
        if self.n_chows < 5:
            return 0
        return self.best_of(_DOUBLE_MIXED_DRAGON)

    @lazy
    def double_pure_dragon(self) -> int:
        if self.n_chows < 5:
            return 0
        return self.best_of(_DOUBLE_PURE_DRAGON)

    # -- 老少 ------------------------------------------------------------------------------

    @lazy
    def laoshao_chows(self) -> int:
        """Disjoint 123 + 789 pairs of one suit."""
        return sum(min(self.chow_all[(x, 1)], self.chow_all[(x, 7)]) for x in range(3))

    @lazy
    def double_laoshao_chow(self) -> int:
        if self.laoshao_chows < 2:
            return 0
        return self.best_of(_DOUBLE_LAOSHAO_CHOW)

    # -- pungs -----------------------------------------------------------------------------

    @lazy
    def pung_blocks(self) -> tuple[Block, ...]:
        """Pungs and kongs of the arrangement (the 十三么 set included)."""
        return self.pungs

    @lazy
    def suited_pungs(self) -> dict[tuple[int, int], bool]:
        """(suit, number) → concealed, for suited pungs/kongs."""
        return {
            (b.tile // 9, b.tile.number): b.concealed for b in self.pung_blocks if b.tile.is_suited
        }

    @lazy
    def eye_key(self) -> tuple[int, int] | None:
        e = self.eye
        return (e // 9, e.number) if e is not None and e.is_suited else None

    @lazy
    def laoshao_pung_suits(self) -> tuple[int, ...]:
        sp = self.suited_pungs
        return tuple(x for x in range(3) if (x, 1) in sp and (x, 9) in sp)

    @lazy
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

    @lazy
    def pung_numbers(self) -> list[int]:
        """The numbers of the suited pungs / kongs (one per suit and number)."""
        return [n for _, n in self.suited_pungs]

    @lazy
    def brothers(self) -> bool:
        nums = self.pung_numbers
        return len(set(nums)) < len(nums)

    @lazy
    def small_three_brothers(self) -> bool:
        e = self.eye_key
        if e is None or not self.standard:
            return False
        x, n = e
        return all((y, n) in self.suited_pungs for y in range(3) if y != x)

    @lazy
    def big_three_brothers(self) -> bool:
        nums = self.pung_numbers
        return len(nums) >= 3 and any(nums.count(n) == 3 for n in nums)

    @lazy
    def all_brothers(self) -> bool:
        return len(self.pung_blocks) == 5 and self.big_three_brothers and self.small_three_brothers

    @lazy
    def consec_one_suit(self) -> tuple[int, int]:
        """(longest run of pung numbers in one suit, longest run with the eye in it)."""
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

    @lazy
    def consec_mixed(self) -> tuple[int, int]:
        """The same over the three suits in turn (X, Y, Z, X, Y, …)."""
        sp = self.suited_pungs
        if len(sp) < 2:  # big needs three pungs, small two and the eye
            return 0, 0
        e = self.eye_key if self.standard else None
        big = small = 0
        for perm in _PERMS:
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

    @lazy
    def concealed_pung_count(self) -> int:
        """暗刻: concealed pungs; "槓亦計暗刻" — every kong counts."""
        return sum(1 for b in self.pung_blocks if b.concealed or b.kind is BlockKind.KONG)

    @lazy
    def five_concealed(self) -> bool:
        """Five pungs/kongs, none claimed as a pung meld (the pung completed by the winning
        discard still counts: "如有明刻只當五暗刻")."""
        if not self.standard or len(self.pung_blocks) != 5:
            return False
        return not any(m.kind is MeldKind.PUNG for m in self.hand.melds)

    @lazy
    def kan_kan(self) -> bool:
        return self.five_concealed and self.self_drawn and not self.kongs and not self.hand.melds

    @lazy
    def n_kongs(self) -> int:
        return len(self.kongs)

    # -- honours ---------------------------------------------------------------------------

    @lazy
    def honor_pung_tiles(self) -> tuple[Tile, ...]:
        """Honour pungs/kongs; in 嚦咕嚦咕 every honour held three or four times."""
        if self.shape == LIKGU:
            return tuple(Tile(i) for i in range(27, 34) if self.counts[i] >= 3)
        return tuple(b.tile for b in self.pung_blocks if b.tile.is_honor)

    @lazy
    def wind_pungs(self) -> int:
        return sum(1 for t in self.honor_pung_tiles if t.is_wind)

    @lazy
    def dragon_pungs(self) -> int:
        return sum(1 for t in self.honor_pung_tiles if t.is_dragon)

    @lazy
    def wind_eye(self) -> bool:
        return self.eye is not None and self.eye.is_wind and self.standard

    @lazy
    def dragon_eye_honor(self) -> bool:
        return self.eye is not None and self.eye.is_dragon and self.standard

    # -- 歸 family -------------------------------------------------------------------------

    @lazy
    def gui(self) -> dict[str, list[tuple[Tile, bool, tuple[int, ...]]]]:
        """Tiles held four times outside a kong, by how the four split:
        ``one`` (a pung + a chow), ``two`` (two chows + the eye), ``four`` (four chows).
        Each entry: (tile, all those sets concealed, indexes of the chows holding it)."""
        out: dict[str, list[tuple[Tile, bool, tuple[int, ...]]]] = {
            "one": [],
            "two": [],
            "four": [],
        }
        if not self.standard or 4 not in self.counts:
            return out
        blocks = self.blocks
        for i, n in enumerate(self.counts):
            if n != 4:
                continue
            t = Tile(i)
            holding = [j for j, b in enumerate(blocks) if t in b.tiles]
            kinds = sorted(blocks[j].kind.value for j in holding)
            if "kong" in kinds:
                continue
            chows = tuple(j for j in holding if blocks[j].kind is BlockKind.CHOW)
            closed = all(blocks[j].concealed for j in holding)
            if kinds == ["chow", "pung"]:
                out["one"].append((t, closed, chows))
            elif kinds == ["chow", "chow", "pair"]:
                out["two"].append((t, closed, chows))
            elif kinds == ["chow", "chow", "chow", "chow"]:
                out["four"].append((t, closed, chows))
        return out

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

    @lazy
    def contain_number(self) -> int:
        """全帶: the number every suited set (and a suited eye) holds; 0 if none. A number
        other than 1/9 is preferred when several fit."""
        if not self.standard:
            return 0
        m = _ALL_NUMBERS  # bit k: number k is in every suited set (and the suited eye)
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
        if m & _MIDDLE_NUMBERS:
            m &= _MIDDLE_NUMBERS
        return (m & -m).bit_length() - 1 if m else 0

    @lazy
    def outside(self) -> bool:
        """Every set and the eye hold a terminal or honour, and there is a chow."""
        if not self.standard or not self.chows:
            return False
        return all(any(t.is_terminal_or_honor for t in b.tiles) for b in self.blocks)

    @lazy
    def nine_gates(self) -> tuple[int, bool]:
        """(state, nine-sided): some set aside, the rest is 1112345678999 + one tile of one
        suit, all in hand."""
        c34 = self.counts
        if not self.standard or all(sum(c34[b : b + 9]) < 14 for b in (0, 9, 18)):
            return 0, False
        need = (3, 1, 1, 1, 1, 1, 1, 1, 3)
        for j, b in enumerate(self.blocks):
            if not b.is_set:
                continue
            rest = [x for i, x in enumerate(self.blocks) if i != j]
            if any(x.meld is not None for x in rest):
                continue
            c = [0] * 34
            for x in rest:
                for t in x.tiles:
                    c[t] += 1
            for s in range(3):
                seg = c[9 * s : 9 * s + 9]
                if sum(seg) == 14 and all(seg[k] >= need[k] for k in range(9)):
                    nine = all(Tile(9 * s + k) in self.waits for k in range(9))
                    return 1, nine
        return 0, False

    @lazy
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

    @lazy
    def double_pairs(self) -> int:
        """大嚦咕嚦咕: tiles held four times (two identical pairs)."""
        if self.shape != LIKGU:
            return 0
        return sum(1 for n in self.counts if n == 4)

    @lazy
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

    @lazy
    def pre_win_counts(self) -> list[int]:
        c = self.hand.concealed_counts()
        c[self.win_tile] -= 1
        return c

    @lazy
    def eight_wait(self) -> bool:
        """嚦咕嚦咕 waited as eight pairs."""
        return self.shape == LIKGU and all(n % 2 == 0 for n in self.pre_win_counts)

    @lazy
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

    @lazy
    def orphan_set(self) -> Block | None:
        if self.shape != ORPHANS:
            return None
        return next(b for b in self.blocks if b.is_set)

    @lazy
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

    @lazy
    def qiuren(self) -> bool:
        """Five declared chows/pungs, no kong."""
        m = self.hand.melds
        return len(m) == 5 and all(x.kind is not MeldKind.KONG for x in m)
