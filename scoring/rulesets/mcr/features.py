"""MCR's feature record: the facts of one arrangement that the fans' predicates read."""

from __future__ import annotations

from scoring.decompose import (
    Arrangement,
    Block,
    BlockKind,
)
from scoring.engine import NOTHING_COUNTED
from scoring.hand import Hand
from scoring.rulesets.mcr.combos import (
    _Set,
    chow_combination_fans,
    pung_combination_fans,
)
from scoring.rulesets.mcr.data import (
    _DRAGONS_BITS,
    _HIGH_RANKS,
    _LOW_RANKS,
    _MIDDLE_RANKS,
    _NINE_GATES,
    _NO_TILES,
    _ODD,
    _ORDER_SUIT,
    _SEAT_INDEX,
    _TERMINALS,
    _WINDS_BITS,
)
from scoring.rulesets.mcr.shapes import (
    _SUITED_MASK,
    KNITTED_STRAIGHT,
    SEVEN_PAIRS,
    _unique_wait_mask,
)
from scoring.tiles import Tile

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
