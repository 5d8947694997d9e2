"""Japanese riichi mahjong (立直麻雀): the standard yaku, dora, fu and limits.

Every yaku, and the dora, aka-dora and ura-dora, is a row of :data:`TABLE` in the order of
``shared/rules/riichi.json`` (copied to ``scoring/data/riichi.json``): its id, one predicate
over :class:`RiichiFeatures`, the rows it replaces, and — where the han of an open hand
differs — a value reading the hand. Names and closed-hand han come from the data through
:func:`scoring.rows.bind`. The generic loop of :class:`scoring.engine.RuleSet` evaluates the
rows; :meth:`RiichiRuleSet.finalize` applies what is not an exclusion between two rows:

* a hand holding a yakuman keeps only its yakuman (13 han each, 26 for the double forms,
  added up); dora, aka-dora and ura-dora count only on a hand with a yaku and no yakuman;
* a hand with no yaku scores nothing (``minimum_met`` false: it cannot win);
* the value — basic points from han and fu (:mod:`scoring.riichi.limits`), the limit, and
  ``total``: what the winner receives (a ron's payment or the sum of a self-draw's three).

Every arrangement is scored (each reading of the winning tile is one arrangement) and the
best kept: the highest total, then a yakuman over counted han, then more han, then more fu
(as the reference calculator, the ``mahjong`` package, chooses). The result gains ``han``,
``fu`` (None for a yakuman hand) and ``limit`` beside ``total``.

Hand JSON keys, red fives and house rules: :mod:`scoring.riichi.context`;
``docs/rules/riichi.md`` lists every yaku, fu rule, limit and option with the readings taken.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from importlib import resources
from typing import Any

from mypy_extensions import mypyc_attr

from scoring.decompose import STANDARD, Arrangement, Block, BlockKind, Wait
from scoring.engine import (
    NOTHING_COUNTED,
    Item,
    Payment,
    RuleSet,
    ScoreResult,
    Seating,
    register,
)
from scoring.errors import InvalidHandError
from scoring.hand import Hand, MeldKind
from scoring.riichi.context import HOUSE_RULES, RiichiContext, all_tiles, hand_from_json
from scoring.riichi.dora import count_dora
from scoring.riichi.fu import FuCount, count_fu
from scoring.riichi.limits import Value, hand_value
from scoring.rows import Exclusion, Row, RowData, bind
from scoring.shapes import seven_pairs, thirteen_orphans
from scoring.tiles import Tile, Wind

__all__ = [
    "DATA",
    "RIICHI",
    "TABLE",
    "YAKU",
    "RiichiFeatures",
    "RiichiResult",
    "RiichiRuleSet",
]

# -- package data -------------------------------------------------------------------------


def _load_data() -> dict[str, Any]:
    text = resources.files("scoring").joinpath("data/riichi.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


DATA = _load_data()
YAKU: dict[str, dict[str, Any]] = {y["id"]: y for y in DATA["yaku"]}
#: Not yaku: counted only beside a yaku, never on a yakuman hand.
BONUS = frozenset({"dora", "aka-dora", "ura-dora"})
#: Yakuman multiples of each row (0: a regular yaku).
YAKUMAN: dict[str, int] = {k: int(y["yakuman"]) for k, y in YAKU.items()}
_OPEN_HAN: dict[str, int | None] = {k: y["han_open"] for k, y in YAKU.items()}

_GREEN = frozenset({19, 20, 21, 23, 25, int(Tile.GREEN)})  # 2 3 4 6 8 bamboo, green dragon
_DRAGONS = (Tile.WHITE, Tile.GREEN, Tile.RED)
_NINE_GATES = (3, 1, 1, 1, 1, 1, 1, 1, 3)
_FIVES = (Tile.M5, Tile.P5, Tile.S5)
_SEVEN_PAIRS = "seven-pairs"
_ORPHANS = "thirteen-orphans"
_CHOW, _PUNG, _KONG, _PAIR = BlockKind.CHOW, BlockKind.PUNG, BlockKind.KONG, BlockKind.PAIR
# tile classes as bit masks (bit t: tile index t)
_TERMINALS_BITS = sum(1 << t for t in range(27) if t % 9 in (0, 8))
_TERMINALS_HONORS_BITS = _TERMINALS_BITS | sum(1 << t for t in range(27, 34))
_GREEN_BITS = sum(1 << t for t in _GREEN)
_DRAGON_INTS = tuple(int(t) for t in _DRAGONS)

# A one-slot cache of the parsed context of the hand being scored (each of its arrangements
# gets a feature record; the context is parsed once). A hand is immutable, and the slot is
# one tuple replaced at once, so threads at worst parse again.
_last_ctx: tuple[Hand, RiichiContext] | None = None


def context_of(hand: Hand) -> RiichiContext:
    """The riichi context of a hand (parsed once per hand being scored)."""
    global _last_ctx
    last = _last_ctx
    if last is not None and last[0] is hand:
        return last[1]
    ctx = RiichiContext.from_hand(hand)
    _last_ctx = (hand, ctx)
    return ctx


def _has_terminal_or_honor(kind: BlockKind, t: int) -> bool:
    """Whether a set or pair whose lowest tile index is ``t`` holds a terminal or honour."""
    if kind is BlockKind.CHOW:
        return t % 9 in (0, 6)  # 123 or 789
    return t >= 27 or t % 9 in (0, 8)


def _identical_pairs(starts: list[int]) -> int:
    """Pairs of identical chows among chows starting on ``starts`` (four alike make two)."""
    if len(starts) < 2:
        return 0
    seen: dict[int, int] = {}
    for t in starts:
        seen[t] = seen.get(t, 0) + 1
    return sum([n // 2 for n in seen.values()])


# -- the feature record ---------------------------------------------------------------------


class RiichiFeatures:
    """Facts of one arrangement of a riichi hand that the predicates read: the feature record
    of :data:`TABLE` (the engine's :class:`~scoring.engine.FeatureRecord`).

    A plain class with a fixed set of fields, not a :class:`~scoring.engine.Features`
    subclass: compiled (mypyc) it is a native class, and a predicate's read is a struct load.
    Every row of the table is evaluated for every arrangement (riichi has no guard groups),
    so every fact is computed here, once, in ``__init__``.
    """

    def __init__(self, hand: Hand, arrangement: Arrangement, waits: tuple[Tile, ...]) -> None:
        self.hand = hand
        self.context = hand.context
        self.arr = arrangement
        self.waits = waits
        self.win_tile = hand.win_tile
        self.self_drawn: bool = hand.win.self_drawn
        #: set by the evaluation loop (``Row.reads_counted``; no riichi row reads it)
        self.counted: frozenset[str] = NOTHING_COUNTED
        #: set by :meth:`RiichiRuleSet.finalize`: han, fu, the value of the arrangement
        self.scored: tuple[int, int | None, Value] | None = None
        rc = context_of(hand)
        self.rc: RiichiContext = rc
        #: an open hand (a concealed kong keeps a hand closed)
        is_open = not hand.is_concealed
        self.open: bool = is_open
        #: seat wind east is the dealer
        self.dealer: bool = hand.seat_wind is Wind.EAST
        self.seat_tile: Tile = hand.seat_wind.tile
        self.round_tile: Tile = hand.round_wind.tile
        shape = arrangement.shape
        self.shape: str = shape
        self.seven_pairs: bool = shape == _SEVEN_PAIRS
        std = shape == STANDARD
        self.is_standard: bool = std
        self.wait: Wait = arrangement.wait
        # -- the blocks, in one pass
        blocks = arrangement.blocks
        self.blocks: tuple[Block, ...] = blocks
        chows: list[Block] = []
        pungs: list[Block] = []
        kongs: list[Block] = []
        pairs: list[Block] = []
        concealed_pungs = 0
        for b in blocks:
            k = b.kind
            if k is _CHOW:
                chows.append(b)
            elif k is _PUNG or k is _KONG:
                pungs.append(b)
                if k is _KONG:
                    kongs.append(b)
                if b.concealed:
                    concealed_pungs += 1
            elif k is _PAIR:
                pairs.append(b)
        self.chows: tuple[Block, ...] = tuple(chows)
        #: pungs and kongs
        self.pungs: tuple[Block, ...] = tuple(pungs)
        self.kongs: tuple[Block, ...] = tuple(kongs)
        #: concealed pungs and kongs (暗刻)
        self.concealed_pungs: int = concealed_pungs
        pair = pairs[0] if len(pairs) == 1 else None
        self.pair: Block | None = pair
        self.pair_tile: Tile | None = pair.tile if pair is not None and std else None
        # -- the tiles: counts (34) of the hand, melds included (a kong counts 4)
        c = hand._tile_counts
        self.counts: tuple[int, ...] = c
        kinds = 0  # the kinds present, a bit mask (bit t: tile index t)
        for t in range(34):
            if c[t]:
                kinds |= 1 << t
        #: the kinds of tile present as a bit mask (bit t: tile index t)
        self.kinds: int = kinds
        n_suits = bool(kinds & 0x1FF) + bool(kinds >> 9 & 0x1FF) + bool(kinds >> 18 & 0x1FF)
        #: how many numbered suits are present
        self.n_suits: int = n_suits
        self.has_honors: bool = kinds >> 27 != 0
        self.all_simples: bool = not kinds & _TERMINALS_HONORS_BITS
        self.all_terminals_honors: bool = not kinds & ~_TERMINALS_HONORS_BITS
        self.one_suit: bool = n_suits == 1
        # -- sets
        starts = [b.tile._value_ for b in chows]
        #: pairs of identical chows (four alike make two)
        self.identical_chow_pairs: int = _identical_pairs(starts)
        pung_ints = [b.tile._value_ for b in pungs]
        self.pung_tiles: frozenset[int] = frozenset(pung_ints)
        self.dragon_pungs: int = sum([1 for t in _DRAGON_INTS if t in pung_ints])
        self.wind_pungs: int = len({t for t in pung_ints if 27 <= t < 31})
        #: a standard hand with a chow where every set and the pair hold a terminal or
        #: honour (chanta / junchan)
        self.outside: bool = (
            std
            and bool(chows)
            and all([_has_terminal_or_honor(b.kind, b.tile._value_) for b in blocks])
        )
        start_set = set(starts)
        self.ittsu: bool = len(chows) >= 3 and any(
            [{s, s + 3, s + 6} <= start_set for s in (0, 9, 18)]
        )
        self.sanshoku: bool = len(chows) >= 3 and any(
            [{n, n + 9, n + 18} <= start_set for n in range(7)]
        )
        if len(pungs) >= 3:
            ts = {t for t in pung_ints if t < 27}
            self.sanshoku_doukou: bool = any([{n, n + 9, n + 18} <= ts for n in range(9)])
        else:
            self.sanshoku_doukou = False
        self.concealed_counts: list[int] = hand.concealed_counts()
        self.nine_gates: int = self._nine_gates()
        # -- the fu of a standard or seven-pairs arrangement (None for thirteen orphans)
        fu = (
            None
            if shape == _ORPHANS
            else count_fu(
                arrangement,
                concealed_hand=not is_open,
                self_drawn=self.self_drawn,
                seat=self.seat_tile,
                round_=self.round_tile,
            )
        )
        self.fu: FuCount | None = fu
        #: closed, four chows, a pair that scores no fu, a two-sided wait: no fu at all
        self.pinfu: bool = std and not is_open and fu is not None and fu.no_extra
        # -- the riichi facts
        self.first_turn: bool = rc.first_turn
        self.dora: int = count_dora(c, rc.dora_indicators)
        self.ura_dora: int = count_dora(c, rc.ura_dora_indicators) if rc.declared else 0
        self.aka_dora: int = len(rc.red_fives) if rc.rules.red_fives else 0

    def pung_of(self, t: int) -> bool:
        return t in self.pung_tiles

    def _nine_gates(self) -> int:
        """0: no nine gates; 1: nine gates; 2: won on the extra tile (nine-sided wait)."""
        h = self.hand
        if h.melds or not self.one_suit or self.has_honors:
            return 0
        base = int(h.win_tile) // 9 * 9
        c = self.concealed_counts[base : base + 9]
        if any([n < g for n, g in zip(c, _NINE_GATES, strict=True)]):
            return 0
        before = list(c)
        before[int(h.win_tile) - base] -= 1
        return 2 if tuple(before) == _NINE_GATES else 1


F = RiichiFeatures


def _han(yid: str) -> Callable[[F], int]:
    """The han of a yaku whose open value differs from its closed value."""
    closed = int(YAKU[yid]["han_closed"])
    opened = _OPEN_HAN[yid]
    if opened is None or opened == closed:
        raise ValueError(f"riichi: {yid} has one value")
    o = int(opened)
    return lambda f: o if f.open else closed


def _double(yid: str) -> Callable[[F], int]:
    """A double yakuman: 26 han, or 13 with the ``double_yakuman`` house rule off."""
    return lambda f: 26 if f.rc.rules.double_yakuman else 13


def _count(attr: str) -> Callable[[F], int]:
    return lambda f: int(getattr(f, attr))


# -- the table ------------------------------------------------------------------------------

TABLE: tuple[Row[F], ...] = (
    Row("riichi", lambda f: f.rc.declared),
    Row("ippatsu", lambda f: f.rc.ippatsu),
    Row("menzen-tsumo", lambda f: f.self_drawn and not f.open),
    Row("pinfu", lambda f: f.pinfu),
    Row("tanyao", lambda f: f.all_simples and (not f.open or f.rc.rules.open_tanyao)),
    Row("iipeikou", lambda f: not f.open and f.identical_chow_pairs >= 1),
    Row("yakuhai-haku", lambda f: f.pung_of(Tile.WHITE)),
    Row("yakuhai-hatsu", lambda f: f.pung_of(Tile.GREEN)),
    Row("yakuhai-chun", lambda f: f.pung_of(Tile.RED)),
    Row("yakuhai-seat-wind", lambda f: f.pung_of(f.seat_tile)),
    Row("yakuhai-round-wind", lambda f: f.pung_of(f.round_tile)),
    Row("haitei", lambda f: f.hand.win.last_tile and f.self_drawn),
    Row("houtei", lambda f: f.hand.win.last_tile and not f.self_drawn),
    Row("rinshan", lambda f: f.hand.win.kong_replacement),
    Row("chankan", lambda f: f.hand.win.robbing_kong),
    Row("double-riichi", lambda f: f.rc.double, ("riichi",)),
    Row("chiitoitsu", lambda f: f.seven_pairs),
    Row("chanta", lambda f: f.outside and f.has_honors, value=_han("chanta")),
    Row("ittsu", lambda f: f.ittsu, value=_han("ittsu")),
    Row("sanshoku", lambda f: f.sanshoku, value=_han("sanshoku")),
    Row("sanshoku-doukou", lambda f: f.sanshoku_doukou),
    Row("sankantsu", lambda f: len(f.kongs) == 3),
    Row("toitoi", lambda f: len(f.pungs) == 4),
    Row("sanankou", lambda f: f.concealed_pungs == 3),
    Row("shousangen", lambda f: f.dragon_pungs == 2 and f.pair_tile in _DRAGONS),
    Row(
        "honroutou",
        lambda f: f.all_terminals_honors and (f.is_standard or f.seven_pairs),
    ),
    Row("ryanpeikou", lambda f: not f.open and f.identical_chow_pairs >= 2, ("iipeikou",)),
    Row("junchan", lambda f: f.outside and not f.has_honors, value=_han("junchan")),
    Row("honitsu", lambda f: f.one_suit and f.has_honors, value=_han("honitsu")),
    Row(
        "chinitsu", lambda f: f.one_suit and not f.has_honors, ("honitsu",), value=_han("chinitsu")
    ),
    Row("kokushi", lambda f: f.shape == _ORPHANS),
    Row(
        "kokushi-13",
        lambda f: f.shape == _ORPHANS and f.concealed_counts[f.win_tile] == 2,
        ("kokushi",),
        value=_double("kokushi-13"),
    ),
    Row("suuankou", lambda f: f.concealed_pungs == 4),
    Row(
        "suuankou-tanki",
        lambda f: f.concealed_pungs == 4 and f.wait is Wait.SINGLE,
        ("suuankou",),
        value=_double("suuankou-tanki"),
    ),
    Row("daisangen", lambda f: f.dragon_pungs == 3),
    Row(
        "shousuushii",
        lambda f: f.wind_pungs == 3 and f.pair_tile is not None and f.pair_tile.is_wind,
    ),
    Row("daisuushii", lambda f: f.wind_pungs == 4, value=_double("daisuushii")),
    Row("tsuuiisou", lambda f: not f.n_suits),
    Row("chinroutou", lambda f: not f.kinds & ~_TERMINALS_BITS),
    Row("ryuuiisou", lambda f: not f.kinds & ~_GREEN_BITS),
    Row("chuuren", lambda f: f.nine_gates >= 1),
    Row("chuuren-9", lambda f: f.nine_gates == 2, ("chuuren",), value=_double("chuuren-9")),
    Row("suukantsu", lambda f: len(f.kongs) == 4),
    Row("tenhou", lambda f: f.first_turn and f.dealer),
    Row("chiihou", lambda f: f.first_turn and not f.dealer),
    # one item each, its han the count (``value``), not ``count`` items of 1 han
    Row("dora", lambda f: f.dora > 0, value=_count("dora")),
    Row("aka-dora", lambda f: f.aka_dora > 0, value=_count("aka_dora")),
    Row("ura-dora", lambda f: f.ura_dora > 0, value=_count("ura_dora")),
)


def _rows() -> tuple[Row[F], ...]:
    data = {
        y["id"]: RowData(y["ja"], int(y["han_closed"]), en=y["en"], note=y["condition"])
        for y in DATA["yaku"]
    }
    return bind("riichi", TABLE, data)


# -- the result -----------------------------------------------------------------------------


class RiichiResult(ScoreResult):
    """A riichi score: ``total`` (what the winner receives from the hand) with the hand's
    ``han`` (the sum of its items), ``fu`` (None on a yakuman hand) and ``limit``.
    Immutable, like :class:`~scoring.engine.ScoreResult`."""

    __slots__ = ("fu", "han", "limit")

    def __init__(
        self,
        ruleset: str,
        total: int,
        minimum_met: bool,
        items: tuple[Item, ...],
        arrangement: Arrangement,
        waits: tuple[Tile, ...],
        extras: Mapping[str, Any] | None = None,
        han: int = 0,
        fu: int | None = None,
        limit: str | None = None,
    ) -> None:
        super().__init__(ruleset, total, minimum_met, items, arrangement, waits, extras)
        self.han = han
        self.fu = fu
        self.limit = limit

    def _fields(self) -> tuple[Any, ...]:
        return (*super()._fields(), self.han, self.fu, self.limit)

    def _names(self) -> tuple[str, ...]:
        return (*super()._names(), "han", "fu", "limit")

    def to_json(self) -> dict[str, Any]:
        base = super().to_json()
        out: dict[str, Any] = {}
        for k, v in base.items():
            out[k] = v
            if k == "total":
                out["han"] = self.han
                out["fu"] = self.fu
                out["limit"] = self.limit
        return out


# -- the rule set ---------------------------------------------------------------------------


@mypyc_attr(allow_interpreted_subclasses=True)  # (see scoring.engine.RuleSet)
class RiichiRuleSet(RuleSet[RiichiFeatures]):
    """Riichi: yaku, dora, fu and limits; ``total`` is the winner's income from the hand."""

    def hand_from_json(self, obj: Any) -> Hand:
        """Red fives (``0m 0p 0s``) are fives here, recorded in the context."""
        return hand_from_json(obj)

    def validate(self, hand: Hand) -> None:
        super().validate(hand)
        ctx = context_of(hand)
        win = hand.win
        is_open = not hand.is_concealed
        kongs = sum(1 for m in hand.melds if m.kind is MeldKind.KONG)
        if ctx.double and not ctx.declared:
            raise InvalidHandError("riichi.double needs riichi.declared (double riichi is riichi)")
        if ctx.declared and is_open:
            raise InvalidHandError("riichi is declared with a concealed hand only")
        if ctx.ippatsu and not ctx.declared:
            raise InvalidHandError("ippatsu needs riichi")
        if ctx.ippatsu and win.kong_replacement:
            raise InvalidHandError("a kong ends ippatsu: no ippatsu on a kong replacement tile")
        if ctx.first_turn:
            if not win.self_drawn:
                raise InvalidHandError(
                    "first_turn is a self-draw on one's first draw (renhou is not scored)"
                )
            if hand.melds or ctx.declared:
                raise InvalidHandError("first_turn: no call and no riichi before the win")
        if win.kong_replacement and not kongs:
            raise InvalidHandError("a win on a kong replacement tile needs a declared kong")
        if win.last_tile and (win.kong_replacement or win.robbing_kong):
            raise InvalidHandError(
                "the last tile (haitei / houtei) is neither a kong replacement nor a robbed kong"
            )
        counts = all_tiles(hand, ctx)
        if win.robbing_kong and counts[hand.win_tile] != 1:
            raise InvalidHandError(
                f"robbing a kong of {hand.win_tile}: the three others are in that kong"
            )
        for t, n in enumerate(counts):
            if n > 4:
                raise InvalidHandError(
                    f"{n} copies of {Tile(t)} in the hand and the indicators: there are four"
                )
        n_dora = len(ctx.dora_indicators)
        if n_dora and not 1 + kongs <= n_dora <= 5:
            raise InvalidHandError(
                f"{n_dora} dora indicators: one, plus one per kong (this hand has {kongs}), "
                "at most five"
            )
        if ctx.ura_dora_indicators:
            if not ctx.declared:
                raise InvalidHandError("ura-dora indicators are shown only after riichi")
            if len(ctx.ura_dora_indicators) != n_dora:
                raise InvalidHandError("as many ura-dora indicators as dora indicators")
        held = hand.tile_counts()
        for five in ctx.red_fives:
            if not held[five]:
                raise InvalidHandError(f"a red {five} but no {five} in the hand")
        reds: dict[Tile, int] = {}
        for five in (*ctx.red_fives, *ctx.red_indicators):
            reds[five] = reds.get(five, 0) + 1
        for five, n in reds.items():
            if n > 1:
                raise InvalidHandError(
                    f"{n} red fives {RiichiContext.red_code(five)}: there is one of each"
                )
        if ctx.rules.red_fives:
            for five in _FIVES:
                if counts[five] - reds.get(five, 0) > 3:
                    raise InvalidHandError(
                        f"four {five} but none red: with red fives one of them is "
                        f"{RiichiContext.red_code(five)}"
                    )

    def finalize(self, items: list[Item], f: RiichiFeatures) -> tuple[list[Item], int]:
        yakuman = [i for i in items if YAKUMAN[i.id]]
        if yakuman:
            items = yakuman
        elif all(i.id in BONUS for i in items):
            items = []  # no yaku: no win (dora are no yaku)
        han = sum([i.points * i.count for i in items])
        fu = None if yakuman or f.fu is None else f.fu.total
        rules = f.rc.rules
        value = hand_value(
            han,
            fu,
            yakuman=han // 13 if yakuman else 0,
            dealer=f.dealer,
            self_drawn=f.self_drawn,
            kazoe=rules.kazoe_yakuman,
            kiriage=rules.kiriage_mangan,
        )
        if not items:
            value = Value(0, None, {}, 0)
        f.scored = (han, fu, value)
        return items, value.total

    def choose_key(self, total: int, items: Sequence[Item], f: RiichiFeatures) -> tuple[int, ...]:
        """The highest total; then a yakuman over counted han, more han, more fu, more fu
        before rounding (the reference calculator's order)."""
        han, fu, _ = f.scored or (0, None, None)
        yakuman = any(YAKUMAN[i.id] for i in items)
        raw = f.fu.raw if f.fu is not None else 0
        return (total, int(yakuman), han, fu or 0, raw)

    def extras(self, items: Sequence[Item], f: RiichiFeatures) -> dict[str, Any]:
        han, fu, value = f.scored or (0, None, Value(0, None, {}, 0))
        out: dict[str, Any] = {
            "han": han,
            "fu": fu,
            "limit": value.limit,
            "basic_points": value.basic,
            "payments": dict(value.payments),
            "dealer": f.dealer,
        }
        if f.fu is not None and fu is not None:
            out["fu_parts"] = [[why, n] for why, n in f.fu.parts]
        return out

    def score(self, hand: Hand) -> RiichiResult:
        res = super().score(hand)
        ex = dict(res.extras)
        han, fu, limit = ex.pop("han"), ex.pop("fu"), ex.pop("limit")
        return RiichiResult(  # (positional: cheaper than keywords)
            res.ruleset,
            res.total,
            res.minimum_met,
            res.items,
            res.arrangement,
            res.waits,
            ex,
            han,
            fu,
            limit,
        )

    def settle(
        self, result: ScoreResult, seating: Seating, options: Mapping[str, Any] | None = None
    ) -> list[Payment]:
        """The hand's payments (no honba, no riichi deposits): the discarder pays a ron; on
        a self-draw the dealer pays the dealer's share and the others theirs."""
        if not result.minimum_met:
            raise InvalidHandError("a hand without a yaku is no win")
        pay: Mapping[str, int] = result.extras.get("payments", {})
        if seating.discarder is not None:
            return [Payment(seating.discarder, seating.winner, pay["ron"], "ron")]
        out = []
        for s in range(seating.players):
            if s == seating.winner:
                continue
            key = "dealer" if s == seating.dealer and "dealer" in pay else "non_dealer"
            out.append(Payment(s, seating.winner, pay[key], "tsumo"))
        return out


def make_riichi() -> RiichiRuleSet:
    return RiichiRuleSet(
        name="riichi",
        title="Japanese riichi mahjong (立直麻雀)",
        hand_size=13,
        patterns=_rows(),
        features=RiichiFeatures,
        shapes=(seven_pairs(four_as_two=False), thirteen_orphans()),
        minimum=1,
        minimum_excludes=BONUS,
        exclusion=Exclusion.IMPLIED,
        params={"house_rules": dict(HOUSE_RULES)},
    )


RIICHI = make_riichi()
register(RIICHI)
