"""The pattern-table engine: feature records, the evaluation loop, rule sets, settlement.

A rule set is *parameters + a pattern table*. The table is a sequence of
:class:`scoring.rows.Row` (id, names, value, one predicate over a :class:`Features` record,
what it supersedes, named options). The record is built once per arrangement; its fields are
lazily computed and cached, so a predicate costs an attribute read. One generic loop
(:meth:`RuleSet.evaluate`) applies the predicates and then the exclusions ("不計"), which are
data, by the rule set's :class:`~scoring.rows.Exclusion` option. The best arrangement is
chosen by the rule set's principle (by default: the highest total).
"""

from __future__ import annotations

import copy
import difflib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import compress
from typing import Any, Generic, Protocol, TypeVar, overload

from mypy_extensions import mypyc_attr

from scoring._pyclass import PyClass
from scoring.decompose import (
    STANDARD,
    Arrangement,
    Block,
    BlockKind,
    Wait,
    is_standard_complete,
    standard_arrangements,
    standard_waits,
)
from scoring.errors import (
    InvalidHandError,
    InvalidOptionsError,
    NotAWinError,
    ScoringError,
    UnknownRuleSetError,
)
from scoring.hand import Hand, Meld
from scoring.rows import FROM_DATA, Exclusion, Row, topological
from scoring.tiles import KINDS, Suit, Tile

__all__ = [
    "Exclusion",
    "FeatureRecord",
    "Features",
    "Item",
    "Part",
    "Pattern",
    "Payment",
    "Row",
    "RuleSet",
    "ScoreResult",
    "Seating",
    "SpecialShape",
    "get_ruleset",
    "lazy",
    "net",
    "parts_total",
    "register",
    "ruleset_names",
    "score",
]


_T = TypeVar("_T")

_SUIT_BASES = ((Suit.MAN, 0), (Suit.PIN, 9), (Suit.SOU, 18))
#: the numbered suits present, by a bit mask (bit 0 characters, 1 dots, 2 bamboo)
_SUIT_SETS = tuple(
    frozenset(s for k, (s, _) in enumerate(_SUIT_BASES) if m >> k & 1) for m in range(8)
)
_CHOW, _PUNG, _KONG, _PAIR = BlockKind.CHOW, BlockKind.PUNG, BlockKind.KONG, BlockKind.PAIR
_TERMINALS_HONORS = tuple(t for t in range(34) if t >= 27 or t % 9 in (0, 8))
_SIMPLES = tuple(t for t in range(27) if t % 9 not in (0, 8))


class lazy(Generic[_T]):
    """A computed-once attribute of a feature record (like ``functools.cached_property``).

    The value is stored in the instance ``__dict__`` on first access, which then shadows this
    (non-data) descriptor. Unlike ``cached_property`` on Python 3.11 it takes no lock: a
    feature record lives in one thread, and scoring reads some forty of these per hand.
    """

    def __init__(self, func: Callable[[Any], _T]) -> None:
        self.func = func
        self.name = getattr(func, "__name__", "")  # (compiled: set by __set_name__)
        self.__doc__ = func.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, obj: None, owner: type | None = None) -> lazy[_T]: ...

    @overload
    def __get__(self, obj: object, owner: type | None = None) -> _T: ...

    def __get__(self, obj: object | None, owner: type | None = None) -> _T | lazy[_T]:
        if obj is None:
            return self
        value = self.func(obj)
        obj.__dict__[self.name] = value
        return value


class Features(metaclass=PyClass):  # (a Python class in the compiled build: scoring._pyclass)
    """The feature record of one arrangement of one hand.

    Generic facts every rule set needs; a rule set subclasses it to add its own (each a
    :class:`lazy` attribute), and its predicates read attributes only.
    """

    def __init__(self, hand: Hand, arrangement: Arrangement, waits: tuple[Tile, ...]) -> None:
        self.hand = hand
        #: the typed win context (:class:`scoring.context.WinContext`)
        self.context = hand.context
        self.arr = arrangement
        self.waits = waits
        self.win_tile = hand.win_tile
        self.self_drawn = hand.win.self_drawn

    # -- blocks ---------------------------------------------------------------------------

    @lazy
    def blocks(self) -> tuple[Block, ...]:
        return self.arr.blocks

    def _split_blocks(self) -> dict[str, Any]:
        """Fill :attr:`sets`, :attr:`chows`, :attr:`pungs`, :attr:`kongs` and :attr:`pairs` in
        one pass over the blocks (the first of them read fills the others' slots)."""
        sets: list[Block] = []
        chows: list[Block] = []
        pungs: list[Block] = []
        kongs: list[Block] = []
        pairs: list[Block] = []
        for b in self.arr.blocks:
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
        d = self.__dict__
        d["sets"] = tuple(sets)
        d["chows"] = tuple(chows)
        d["pungs"] = tuple(pungs)
        d["kongs"] = tuple(kongs)
        d["pairs"] = tuple(pairs)
        return d

    @lazy
    def sets(self) -> tuple[Block, ...]:
        """Chows, pungs and kongs (melds included)."""
        out: tuple[Block, ...] = self._split_blocks()["sets"]
        return out

    @lazy
    def chows(self) -> tuple[Block, ...]:
        out: tuple[Block, ...] = self._split_blocks()["chows"]
        return out

    @lazy
    def pungs(self) -> tuple[Block, ...]:
        """Pungs and kongs."""
        out: tuple[Block, ...] = self._split_blocks()["pungs"]
        return out

    @lazy
    def kongs(self) -> tuple[Block, ...]:
        out: tuple[Block, ...] = self._split_blocks()["kongs"]
        return out

    @lazy
    def concealed_kongs(self) -> int:
        return sum(1 for b in self.kongs if b.concealed)

    @lazy
    def melded_kongs(self) -> int:
        return sum(1 for b in self.kongs if not b.concealed)

    @lazy
    def concealed_pungs(self) -> int:
        """Pungs and kongs that are concealed (暗刻): formed in hand and not completed by a
        claimed tile, or concealed kongs."""
        return sum(1 for b in self.pungs if b.concealed)

    @lazy
    def pairs(self) -> tuple[Block, ...]:
        out: tuple[Block, ...] = self._split_blocks()["pairs"]
        return out

    @lazy
    def pair(self) -> Block | None:
        """The pair of a standard arrangement (None for shapes with several pairs)."""
        p = self.pairs
        return p[0] if len(p) == 1 else None

    @lazy
    def is_standard(self) -> bool:
        return self.arr.shape == STANDARD

    # -- tiles ----------------------------------------------------------------------------

    @lazy
    def counts(self) -> tuple[int, ...]:
        """Counts (34) of every tile of the hand, melds included (a kong counts 4)."""
        return self.hand._tile_counts  # (the hand's own tuple: immutable)

    @lazy
    def kinds(self) -> frozenset[Tile]:
        return frozenset(compress(KINDS, self.counts))

    @lazy
    def suits(self) -> frozenset[Suit]:
        """The numbered suits present."""
        c = self.counts
        return _SUIT_SETS[bool(any(c[0:9])) | any(c[9:18]) << 1 | any(c[18:27]) << 2]

    @lazy
    def has_honors(self) -> bool:
        return any(self.counts[27:34])

    @lazy
    def all_simples(self) -> bool:
        c = self.counts
        return not any(c[i] for i in _TERMINALS_HONORS)

    @lazy
    def all_terminals_honors(self) -> bool:
        c = self.counts
        return not any(c[i] for i in _SIMPLES)

    # -- situation ------------------------------------------------------------------------

    @lazy
    def is_concealed(self) -> bool:
        """No exposed meld (concealed kongs allowed)."""
        return self.hand.is_concealed

    @lazy
    def wait(self) -> Wait:
        return self.arr.wait

    @lazy
    def seat_tile(self) -> Tile:
        return self.hand.seat_wind.tile

    @lazy
    def round_tile(self) -> Tile:
        return self.hand.round_wind.tile

    #: The ids counted without the rows that read them (``Row.reads_counted``); set by the
    #: evaluation loop before those rows' predicates run.
    counted: frozenset[str] = frozenset()


#: the ``counted`` of a fresh feature record (nothing counted yet)
NOTHING_COUNTED: frozenset[str] = frozenset()


class FeatureRecord(Protocol):
    """What the evaluation loop needs of a feature record: the arrangement it describes and
    the ids counted so far (``Row.reads_counted``). :class:`Features` is one; a rule set may
    instead write a plain class with these fields (MCR's, compiled a native class whose
    facts are struct fields rather than ``lazy`` entries of an instance ``__dict__``)."""

    arr: Arrangement
    counted: frozenset[str]


F = TypeVar("F", bound=FeatureRecord)


#: The row of a rule table (:class:`scoring.rows.Row`); ``Pattern`` is its older name.
Pattern = Row


@dataclass(frozen=True, slots=True)
class Item:
    """A scored pattern: ``points`` per occurrence × ``count``."""

    id: str
    name: str
    en: str
    points: int
    count: int = 1
    #: the value is the room's (a ``house_rules.patterns`` value), not the table's
    house: bool = False

    @property
    def total(self) -> int:
        return self.points * self.count

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "name": self.name,
            "en": self.en,
            "points": self.points,
            "count": self.count,
        }
        if self.house:
            out["house"] = True
        return out


@dataclass(frozen=True)
class SpecialShape:
    """A special winning shape a rule set declares.

    ``complete(counts, n_melds)`` says whether concealed counts (win tile included) with that
    many declared melds form the shape; ``arrange(hand, counts)`` returns its arrangements.

    A shape that cares about the *kind* of its declared melds (e.g. a 16-tile 十三么 whose set
    may be declared only as a concealed kong) also gives ``complete_melds(counts, melds)``,
    used whenever the caller knows the melds (:meth:`matches`). Without it, or when only the
    number of melds is known, ``complete`` decides.

    ``ready(counts, n_melds)`` (optional) is a cheap *necessary* condition on the concealed
    counts *before* the win tile for some tile to complete the shape: when it is false
    :meth:`RuleSet.waits` does not try the shape tile by tile. Only a shortcut (it must
    never be false for a hand one tile from the shape).

    ``max_melds`` (optional): the most declared melds the shape allows — with more,
    :meth:`RuleSet.arrangements` does not ask ``complete`` (which would say no).
    """

    name: str
    complete: Callable[[Sequence[int], int], bool]
    arrange: Callable[[Hand, Sequence[int]], list[Arrangement]]
    complete_melds: Callable[[Sequence[int], Sequence[Meld]], bool] | None = None
    ready: Callable[[Sequence[int], int], bool] | None = None
    max_melds: int = 99

    def matches(
        self, counts: Sequence[int], n_melds: int, melds: Sequence[Meld] | None = None
    ) -> bool:
        """Whether the counts with the declared melds (or just their number) form the shape."""
        if melds is not None and self.complete_melds is not None:
            return self.complete_melds(counts, melds)
        return self.complete(counts, n_melds)


#: the fields of :class:`ScoreResult`, in its constructor's order
RESULT_FIELDS = ("ruleset", "total", "minimum_met", "items", "arrangement", "waits", "extras")


class ScoreResult:
    """The score of a hand: the rule set's total, whether it meets the minimum, the items,
    the arrangement chosen, the waits, and the rule set's own extras.

    Immutable (never assign to a field). A plain class with a hand-written ``__init__``,
    ``__eq__`` and ``__repr__`` (as a dataclass's), not a frozen dataclass: compiled (mypyc)
    the constructor is native, where a dataclass's generated ``__init__`` stays interpreted.
    """

    __slots__ = ("arrangement", "extras", "items", "minimum_met", "ruleset", "total", "waits")

    def __init__(
        self,
        ruleset: str,
        total: int,
        minimum_met: bool,
        items: tuple[Item, ...],
        arrangement: Arrangement,
        waits: tuple[Tile, ...],
        extras: Mapping[str, Any] | None = None,
    ) -> None:
        self.ruleset = ruleset
        self.total = total
        self.minimum_met = minimum_met
        self.items = items
        self.arrangement = arrangement
        self.waits = waits
        self.extras: Mapping[str, Any] = extras if extras is not None else {}

    def _fields(self) -> tuple[Any, ...]:
        return (
            self.ruleset,
            self.total,
            self.minimum_met,
            self.items,
            self.arrangement,
            self.waits,
            self.extras,
        )

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, ScoreResult)
        return self._fields() == other._fields()

    def _names(self) -> tuple[str, ...]:
        """The names of :meth:`_fields` (a subclass with fields of its own extends both)."""
        return RESULT_FIELDS

    def __repr__(self) -> str:
        pairs = zip(self._names(), self._fields(), strict=True)
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in pairs)})"

    def item(self, pattern_id: str) -> Item | None:
        for it in self.items:
            if it.id == pattern_id:
                return it
        return None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "ruleset": self.ruleset,
            "total": self.total,
            "minimum_met": self.minimum_met,
            "error": None,
            "items": [i.to_json() for i in self.items],
            "arrangement": self.arrangement.to_json(),
            "waits": [t.code for t in self.waits],
        }
        if self.extras:
            out["extras"] = dict(self.extras)
        return out


@dataclass(frozen=True, slots=True)
class Seating:
    """Who is who at settlement: seats 0-3 in turn order."""

    winner: int
    discarder: int | None  # None: self-drawn
    dealer: int
    streak: int = 0  # the dealer's consecutive deals beyond the first (連n)
    players: int = 4


@dataclass(frozen=True, slots=True)
class Part:
    """One term of a payment's arithmetic, ``value`` × ``times``: ``kind`` names it —
    ``base`` (底, a fixed amount), ``points`` (the hand's value in the rule set's unit,
    without the dealer's rows where the rule set adds those per payment), ``dealer`` (莊),
    ``streak`` (連n拉n), ``fanxue`` (反雪)."""

    kind: str
    value: int
    times: int = 1

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "value": self.value}
        if self.times != 1:
            out["times"] = self.times
        return out


@dataclass(frozen=True, slots=True)
class Payment:
    """``payer`` pays ``payee`` ``amount`` for ``reason``. ``parts`` is the settlement's own
    arithmetic when the rule set gives it: ``amount`` = ⌈Σ value × times / ``share``⌉ (a
    self-draw split three ways has ``share`` 3)."""

    payer: int
    payee: int
    amount: int
    reason: str = ""
    parts: tuple[Part, ...] = ()
    share: int = 1

    def to_json(self) -> dict[str, Any]:
        return {
            "payer": self.payer,
            "payee": self.payee,
            "amount": self.amount,
            "reason": self.reason,
        }

    def explained(self) -> dict[str, Any]:
        """``parts`` (and ``share`` when not 1) as JSON; empty when the rule set gave none."""
        if not self.parts:
            return {}
        out: dict[str, Any] = {"parts": [p.to_json() for p in self.parts]}
        if self.share != 1:
            out["share"] = self.share
        return out


def parts_total(parts: Sequence[Part], share: int = 1) -> int:
    """What ``parts`` add up to: ⌈Σ value × times / share⌉."""
    return -(-sum([p.value * p.times for p in parts]) // share)


def net(payments: Sequence[Payment], players: int = 4) -> list[int]:
    """Net result per seat of a list of payments (sums to zero)."""
    out = [0] * players
    for p in payments:
        out[p.payer] -= p.amount
        out[p.payee] += p.amount
    return out


# A table row as the evaluation loop reads it: (table index, row, its predicate).
_Row = tuple[int, Row[F], Callable[[F], int | bool]]
# A row found is one integer, its table index above _SHIFT bits and its count below them:
# sorting hits sorts them by table index, with no tuple per hit.
_SHIFT = 32
_COUNT = (1 << _SHIFT) - 1
_Group = tuple[Callable[[F], object] | None, tuple[_Row[F], ...]]


FeatureFactory = Callable[[Hand, Arrangement, tuple[Tile, ...]], F]


def _item_key(index: int, points: int, count: int) -> int:
    """The key of :attr:`RuleSet._items` for the row at table ``index`` (below 2**16) worth
    ``points`` (any integer) counted ``count`` times (below 2**32): one integer, exact
    (``points * 2**48 + count * 2**16 + index``), not a tuple to allocate and hash."""
    return (points << 32 | count) << 16 | index


def _row_facts(
    rows: Sequence[Row[F]],
) -> tuple[tuple[Callable[[F], int] | None, int], ...]:
    """What :meth:`RuleSet.resolve` reads of each row, in a plain tuple per row (the rows are
    Python dataclasses: one attribute read each is a dictionary look-up)."""
    return tuple((p.value, p.points) for p in rows)


# serializable: compiled, the class may still be copied without calling __init__ (mypyc
# otherwise refuses copy.copy of a native class whose __init__ takes arguments), which
# :meth:`RuleSet.with_patterns` does to make a room's variant of a rule set.
# allow_interpreted_subclasses (here and on every rule set class): with serializable alone,
# mypyc's constructor called from Python code (a test's RuleSet(...)) would skip __init__;
# with it, Python's semantics (tp_new, then tp_init runs __init__). Compiled code calls the
# native constructor either way; the flag only adds a vtable for Python subclasses.
@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class RuleSet(Generic[F]):
    """A rule set: parameters + a pattern table, registered by name.

    The table is a sequence of :class:`~scoring.rows.Row` (names and values bound); how its
    rows exclude each other is the ``exclusion`` option (:class:`~scoring.rows.Exclusion`).
    Subclasses override :meth:`finalize` (caps, floors, family rules), :meth:`choose_key`
    (which arrangement is best) and :meth:`settle` (payments) where their rules need it; the
    evaluation loop (:meth:`evaluate`, :meth:`resolve`) is the same for every rule set.
    """

    def __init__(
        self,
        *,
        name: str,
        title: str,
        hand_size: int,
        patterns: Sequence[Row[F]],
        features: FeatureFactory[F],
        shapes: Sequence[SpecialShape] = (),
        uses_flowers: bool = False,
        minimum: int = 0,
        minimum_excludes: frozenset[str] = frozenset(),
        exclusion: Exclusion = Exclusion.IMPLIED,
        params: Mapping[str, Any] | None = None,
    ) -> None:
        if hand_size not in (13, 16):
            raise ValueError("hand_size must be 13 or 16")
        ids = [p.id for p in patterns]
        if len(set(ids)) != len(ids):
            raise ValueError(f"{name}: duplicate pattern ids")
        known = set(ids)
        rows: list[Row[F]] = []
        for p in patterns:
            if p.points == FROM_DATA or not p.name:
                raise ValueError(f"{name}: row {p.id} has no name or value (see rows.bind)")
            if p.only_with is not None:  # "only with": every other row is superseded
                p = p.with_options(
                    excludes=p.excludes | frozenset(known - p.only_with - {p.id}), only_with=None
                )
            unknown = p.excludes.union(*(ids for _, ids in p.excludes_when)) - known
            if unknown:
                raise ValueError(f"{name}: {p.id} excludes unknown patterns {sorted(unknown)}")
            rows.append(p)
        self.name = name
        self.title = title
        self.hand_size = hand_size
        self.sets = 4 if hand_size == 13 else 5
        self.patterns: tuple[Row[F], ...] = tuple(rows)
        self.by_id: dict[str, Row[F]] = {p.id: p for p in rows}
        self.make_features = features
        self.shapes = tuple(shapes)
        self.uses_flowers = uses_flowers
        self.minimum = minimum
        self.minimum_excludes = minimum_excludes
        self.params: Mapping[str, Any] = dict(params or {})
        self.exclusion = exclusion
        #: family and rank of every row (``("", 0)``: a family of its own)
        self.families: dict[str, tuple[str, int]] = {p.id: (p.family, p.rank) for p in rows}
        self._excluded_by = self._closure(exclusion is Exclusion.IMPLIED)
        index = {p.id: i for i, p in enumerate(rows)}

        def mask(ids: Iterable[str]) -> int:
            return sum(1 << index[e] for e in set(ids))

        #: per table index, what the row removes when found as a bit mask of table indices:
        #: IMPLIED its own exclusions (the chain follows from every found row removing its
        #: own), COUNTED its exclusions; and its conditional ones, (condition, mask) — under
        #: COUNTED with what the rows they name exclude
        counted = exclusion is Exclusion.COUNTED
        self._masks: tuple[int, ...] = tuple(mask(p.excludes) for p in rows)
        self._when: tuple[tuple[tuple[Callable[[F], bool], int], ...], ...] = tuple(
            tuple(
                (c, mask(ids.union(*(self._excluded_by[e] for e in ids)) if counted else ids))
                for c, ids in p.excludes_when
            )
            for p in rows
        )
        order = topological(self.patterns)
        #: COUNTED: each row's place (by table index) in an order putting a row before what
        #: it supersedes (None when the table order is one already, as in MCR)
        self._rank: tuple[int, ...] | None = None
        if order != tuple(range(len(rows))):
            place = [0] * len(rows)
            for k, i in enumerate(order):
                place[i] = k
            self._rank = tuple(place)
        self._groups = self._group_rows(p for p in rows if not p.reads_counted)
        self._after = self._group_rows(p for p in rows if p.reads_counted)
        #: the items made so far, by :func:`_item_key`
        self._items: dict[int, Item] = {}
        #: per table index: (value function or None, points) — what resolve reads
        self._row_facts = _row_facts(self.patterns)
        #: the rows whose value a room changed, and the room's changes (:meth:`with_patterns`)
        self.house: frozenset[str] = frozenset()
        self.house_patterns: Mapping[str, int | bool] = {}

    def with_patterns(self, changes: Mapping[str, Any]) -> RuleSet[F]:
        """This rule set with a room's pattern house rules: ``{id: value}`` gives a row
        another value (per occurrence), ``{id: false}`` switches it off (as if the row were
        not in the table: never found, so it supersedes nothing). Raises
        :class:`InvalidOptionsError` naming the problem (an unknown id, a value that is not
        a whole number ≥ 0, a new value for a row whose value depends on the hand)."""
        if not changes:
            return self
        if type(changes) is not dict and not isinstance(changes, Mapping):
            raise InvalidOptionsError("patterns must be an object {pattern id: value or false}")
        off: set[str] = set()
        values: dict[str, int] = {}
        for pid, v in changes.items():
            row = self.by_id.get(pid) if isinstance(pid, str) else None
            if row is None:
                near = difflib.get_close_matches(str(pid), list(self.by_id), n=1)
                hint = f" (did you mean {near[0]!r}?)" if near else ""
                raise InvalidOptionsError(f"{self.name}: no pattern {pid!r}{hint}")
            if v is False:
                off.add(pid)
            elif isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 10**6:
                raise InvalidOptionsError(
                    f"{self.name}: pattern {pid}: a value is a whole number 0..1000000 or "
                    f"false (off), got {v!r}"
                )
            elif row.value is not None:
                raise InvalidOptionsError(
                    f"{self.name}: pattern {pid}: its value depends on the hand; it can only "
                    "be switched off"
                )
            else:
                values[pid] = v
        v = copy.copy(self)
        rows = tuple(
            p.with_options(points=values[p.id]) if p.id in values else p for p in self.patterns
        )
        v.patterns = rows
        v._row_facts = _row_facts(rows)
        v.by_id = {p.id: p for p in rows}
        v._groups = v._group_rows(p for p in rows if not p.reads_counted and p.id not in off)
        v._after = v._group_rows(p for p in rows if p.reads_counted and p.id not in off)
        v._items = {}
        v.house = frozenset(values)
        v.house_patterns = dict(changes)
        return v

    def _group_rows(self, rows: Iterable[Row[F]]) -> tuple[_Group[F], ...]:
        """The rows grouped by guard (in the order of first appearance); each row keeps its
        table index so that hits can be put back in table order."""
        index = {p.id: i for i, p in enumerate(self.patterns)}
        groups: dict[int, tuple[Callable[[F], object] | None, list[_Row[F]]]] = {}
        for p in rows:
            key = id(p.guard) if p.guard is not None else 0
            groups.setdefault(key, (p.guard, []))[1].append((index[p.id], p, p.predicate))
        return tuple((g, tuple(rs)) for g, rs in groups.values())

    def _item(self, index: int, points: int, count: int) -> Item:
        """The (immutable, shared) item of a counted pattern (the row at table ``index``)."""
        p = self.patterns[index]
        key = _item_key(index, points, count)
        it = self._items.get(key)
        if it is None:
            if len(self._items) > 4096:  # formulas could make many values; stay bounded
                self._items.clear()
            it = self._items[key] = Item(p.id, p.name, p.en, points, count, p.id in self.house)
        return it

    def _closure(self, transitive: bool) -> dict[str, frozenset[str]]:
        out: dict[str, frozenset[str]] = {}
        for p in self.patterns:
            if not transitive:
                out[p.id] = p.excludes
                continue
            seen: set[str] = set()
            stack = list(p.excludes)
            while stack:
                e = stack.pop()
                if e in seen or e == p.id:
                    continue
                seen.add(e)
                stack.extend(self.by_id[e].excludes)
            out[p.id] = frozenset(seen)
        return out

    def excluded_by(self, pattern_id: str) -> frozenset[str]:
        """Everything the pattern can remove: with IMPLIED exclusion what it supersedes and,
        transitively, what those supersede; with COUNTED what it supersedes."""
        return self._excluded_by[pattern_id]

    # -- completeness / waits ---------------------------------------------------------------

    def is_complete(
        self, counts: Sequence[int], n_melds: int, melds: Sequence[Meld] | None = None
    ) -> bool:
        """Whether concealed counts (win tile included) with ``n_melds`` melds form a win.

        ``melds`` (optional, ``n_melds`` long): the declared melds themselves, for the special
        shapes that allow only some kinds of meld (see :class:`SpecialShape`); without them
        such a shape answers from the number of melds alone.
        """
        if melds is not None and len(melds) != n_melds:
            raise ValueError(f"{len(melds)} melds given, n_melds is {n_melds}")
        if sum(counts) + 3 * n_melds != self.hand_size + 1:
            return False
        if is_standard_complete(counts):
            return True
        return any(s.matches(counts, n_melds, melds) for s in self.shapes)

    def waits(
        self,
        counts: Sequence[int],
        n_melds: int,
        held: Sequence[int] | None = None,
        melds: Sequence[Meld] | None = None,
    ) -> list[Tile]:
        """Tiles completing a ready hand (concealed counts before the win); ``melds`` as for
        :meth:`is_complete`. ``held`` (34 counts, default ``counts``) leaves out a tile the
        player holds all four of.

        Same answer as trying :meth:`is_complete` on every tile, but the standard shape's
        waits come from the memoised per-group tables (:func:`standard_waits`); only the
        special shapes are tried tile by tile.
        """
        if melds is not None and len(melds) != n_melds:
            raise ValueError(f"{len(melds)} melds given, n_melds is {n_melds}")
        if sum(counts) + 3 * n_melds != self.hand_size:
            return []
        mine = held if held is not None else counts
        found = {t._value_ for t in standard_waits(counts)}
        # SpecialShape.matches, resolved once: (test, its second argument) per shape one tile
        # from which the hand may be (SpecialShape.ready)
        tests: list[tuple[Callable[[Sequence[int], Any], bool], Any]] = [
            (sh.complete_melds, melds)
            if melds is not None and sh.complete_melds is not None
            else (sh.complete, n_melds)
            for sh in self.shapes
            if sh.ready is None or sh.ready(counts, n_melds)
        ]
        if tests:
            c = list(counts)
            for t in range(34):
                if t in found or mine[t] >= 4:
                    continue
                c[t] += 1
                for test, arg in tests:
                    if test(c, arg):
                        found.add(t)
                        break
                c[t] -= 1
        return [KINDS[t] for t in sorted(found) if mine[t] < 4]

    # -- scoring ----------------------------------------------------------------------------

    def hand_from_json(self, obj: Any) -> Hand:
        """A hand of this rule set from its JSON form (a rule set with tiles of its own, such
        as riichi's red fives, reads them here); raise a ScoringError saying what is wrong."""
        return Hand.from_json(obj)

    def validate(self, hand: Hand) -> None:
        if hand.ruleset != self.name:
            raise InvalidHandError(f"hand is for {hand.ruleset!r}, not {self.name!r}")
        n = len(hand.concealed) + 1 + 3 * len(hand.melds)
        if n != self.hand_size + 1:
            raise InvalidHandError(
                f"wrong tile count: {len(hand.concealed)} concealed + win tile + "
                f"{len(hand.melds)} melds make {n} tiles; a {self.name} win has "
                f"{self.hand_size + 1} (kongs count as 3)"
            )
        if hand.flowers and not self.uses_flowers:
            raise InvalidHandError(f"{self.name} is played without flowers")

    def arrangements(self, hand: Hand) -> list[Arrangement]:
        c = hand._concealed_counts  # (the hand's own tuple: immutable, sliced without copies)
        out = standard_arrangements(hand, c)
        melds = hand.melds
        n = len(melds)
        for s in self.shapes:
            if n > s.max_melds:
                continue
            cm = s.complete_melds  # SpecialShape.matches, inlined
            if cm(c, melds) if cm is not None else s.complete(c, n):
                out.extend(s.arrange(hand, c))
        return out

    def _hits(self, f: F, groups: tuple[_Group[F], ...]) -> list[int]:
        """The rows of ``groups`` present in ``f``, in table order: ``index << _SHIFT | count``
        each (a predicate returns True or a count)."""
        found: list[int] = []
        for guard, rows in groups:
            if guard is None or guard(f):
                for i, _, pred in rows:  # (appended here: no list per group)
                    n = pred(f)
                    if n:
                        found.append(i << _SHIFT | int(n))
        if len(groups) > 1:
            found.sort()  # by table index
        return found

    def evaluate(self, f: F) -> list[Item]:
        """The generic loop: every predicate, then the exclusions (:meth:`resolve`).

        Rows that read the rows counted (``reads_counted``) are evaluated afterwards, with
        ``f.counted`` set to the ids the others count, and the exclusions are applied again
        over all the rows found.
        """
        hits = self._hits(f, self._groups)
        if not self._after:
            return self.resolve(hits, f)
        f.counted = frozenset(i.id for i in self.resolve(hits, f))
        more = self._hits(f, self._after)
        if not more:
            return self.resolve(hits, f)
        return self.resolve(sorted(hits + more), f)

    def _when_mask(self, i: int, f: F) -> int:
        """The rows a found row ``i`` removes under its conditional exclusions (as a bit mask
        of table indices) whose condition holds for this hand."""
        out = 0
        for cond, mask in self._when[i]:
            if cond(f):
                out |= mask
        return out

    def resolve(self, hits: list[int], f: F) -> list[Item]:
        """The exclusions ("不計") over the rows found (``index << _SHIFT | count`` each, in
        table order), by the rule set's :class:`~scoring.rows.Exclusion`, then the items (in
        table order). Exclusions are bit masks over table indices (bit ``i``: row ``i``)."""
        if self.exclusion is Exclusion.COUNTED:
            hits = self._counted(hits, f)
        else:
            hits = self._implied(hits, f)
        out: list[Item] = []
        cache = self._items
        facts = self._row_facts
        for h in hits:
            i = h >> _SHIFT
            n = h & _COUNT
            value, points = facts[i]
            if value is not None:
                points = value(f)
            it = cache.get(_item_key(i, points, n))
            out.append(it if it is not None else self._item(i, points, n))
        return out

    def _counted(self, hits: list[int], f: F) -> list[int]:
        """COUNTED: a row removed by a counted row removes nothing itself."""
        excluded = 0
        masks = self._masks
        when = self._when
        rank = self._rank
        if rank is None:  # the table order puts every row before what it supersedes
            kept: list[int] = []
            for h in hits:
                i = h >> _SHIFT
                if not excluded >> i & 1:
                    kept.append(h)
                    excluded |= masks[i]
                    if when[i]:
                        excluded |= self._when_mask(i, f)
            return kept
        for h in sorted(hits, key=lambda h: rank[h >> _SHIFT]):
            i = h >> _SHIFT
            if not excluded >> i & 1:
                excluded |= masks[i]
                if when[i]:
                    excluded |= self._when_mask(i, f)
        return [h for h in hits if not excluded >> (h >> _SHIFT) & 1]

    def _implied(self, hits: list[int], f: F) -> list[int]:
        """IMPLIED: every row found removes what it supersedes, counted or not (so removals
        chain through the rows the hand qualifies for)."""
        excluded = 0
        masks = self._masks
        when = self._when
        for h in hits:
            i = h >> _SHIFT
            excluded |= masks[i]
            if when[i]:
                excluded |= self._when_mask(i, f)
        if not excluded:
            return hits
        return [h for h in hits if not excluded >> (h >> _SHIFT) & 1]

    def family_highest(self, items: Sequence[Item]) -> list[Item]:
        """Keep, in each family, only the highest-ranked pattern present (ties: the higher
        total); patterns of their own family always stay."""
        fams = self.families
        best: dict[str, Item] = {}
        for it in items:
            fam, rank = fams[it.id]
            if not fam:
                continue
            cur = best.get(fam)
            if cur is None or (rank, it.total) > (fams[cur.id][1], cur.total):
                best[fam] = it
        return [it for it in items if not fams[it.id][0] or best[fams[it.id][0]] is it]

    def finalize(self, items: list[Item], f: F) -> tuple[list[Item], int]:
        """Rule-set hook after exclusions: floors, caps, family rules. Returns (items, total)."""
        return items, sum(i.points * i.count for i in items)

    def choose_key(self, total: int, items: Sequence[Item], f: F) -> tuple[int, ...]:
        """Sort key of a scored arrangement; the highest wins (ties: the first found)."""
        return (total,)

    def extras(self, items: Sequence[Item], f: F) -> dict[str, Any]:
        """Rule-set specific additions to the result (e.g. a limit flag)."""
        return {}

    def score(self, hand: Hand) -> ScoreResult:
        """Score a winning hand; raise a ScoringError when it is not one."""
        self.validate(hand)
        arrs = self.arrangements(hand)
        if not arrs:
            raise NotAWinError(f"these tiles do not form a complete {self.name} hand")
        before = hand.concealed_counts()  # a fresh list
        before[hand.win_tile] -= 1
        held = hand.tile_counts()
        held[hand.win_tile] -= 1
        w = tuple(self.waits(before, len(hand.melds), held, hand.melds))
        if len(arrs) == 1:  # nothing to choose between
            f = self.make_features(hand, arrs[0], w)
            items, total = self.finalize(self.evaluate(f), f)
        else:
            best: tuple[tuple[int, ...], list[Item], int, F] | None = None
            for arr in arrs:
                f = self.make_features(hand, arr, w)
                items, total = self.finalize(self.evaluate(f), f)
                key = self.choose_key(total, items, f)
                if best is None or key > best[0]:
                    best = (key, items, total, f)
            assert best is not None  # arrs is not empty
            _, items, total, f = best
        ex = self.minimum_excludes
        counted = sum([i.points * i.count for i in items if i.id not in ex])
        return ScoreResult(  # (positional: cheaper than keywords in a dataclass __init__)
            self.name,  # ruleset
            total,
            counted >= self.minimum,  # minimum_met
            tuple(items),
            f.arr,  # arrangement
            w,  # waits
            self.extras(items, f),
        )

    # -- settlement -------------------------------------------------------------------------

    def settlement_defaults(self) -> dict[str, Any]:
        """The settlement options a room may set, with their defaults; an option's type is
        its default's type (bool, int ≥ 0, or str). Rule sets with options override this."""
        return {}

    def settlement_choices(self) -> dict[str, tuple[str, ...]]:
        """The allowed values of the string options."""
        return {}

    def validate_settlement(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """The rule set's settlement options with ``options`` applied; raise
        InvalidOptionsError naming the first unknown key or bad value."""
        defaults = self.settlement_defaults()
        choices = self.settlement_choices()
        out = dict(defaults)
        for key, value in (options or {}).items():
            if key not in defaults:
                known = ", ".join(sorted(defaults)) or "none"
                raise InvalidOptionsError(
                    f"{self.name} has no settlement option {key!r} (known: {known})"
                )
            d = defaults[key]
            if isinstance(d, bool):
                ok = isinstance(value, bool)
            elif isinstance(d, int):
                ok = isinstance(value, int) and not isinstance(value, bool) and value >= 0
            else:
                ok = isinstance(value, str) and value in choices.get(key, (value,))
            if not ok:
                allowed = choices.get(key) or (
                    type(d).__name__
                    + (" >= 0" if isinstance(d, int) and not isinstance(d, bool) else ""),
                )
                raise InvalidOptionsError(
                    f"{self.name} settlement option {key}: {value!r} is not allowed "
                    f"(expected {' / '.join(map(str, allowed))})"
                )
            out[key] = value
        return out

    def settle(
        self, result: ScoreResult, seating: Seating, options: Mapping[str, Any] | None = None
    ) -> list[Payment]:
        """Payments for one winner. Default: the discarder pays the total, or each other
        player pays it on a self-draw. Rule sets override with their own settlement."""
        amount = result.total
        parts = (Part("points", amount),)
        if seating.discarder is not None:
            return [Payment(seating.discarder, seating.winner, amount, "win", parts)]
        return [
            Payment(s, seating.winner, amount, "self-drawn", parts)
            for s in range(seating.players)
            if s != seating.winner
        ]


# -- registry ------------------------------------------------------------------------------

_REGISTRY: dict[str, RuleSet[Any]] = {}
_loaded = False


def register(ruleset: RuleSet[Any]) -> RuleSet[Any]:
    """Register a rule set under its name (a later registration replaces an earlier one)."""
    _REGISTRY[ruleset.name] = ruleset
    return ruleset


def _load() -> None:
    global _loaded
    if not _loaded:
        # the flag is set only once the import is done: another thread (the server's timer
        # ticks run in worker threads) must never see a half-filled registry; a concurrent
        # import waits on the import system's module lock
        import scoring.rulesets  # noqa: F401  (registers the built-in rule sets)

        _loaded = True


def get_ruleset(name: str) -> RuleSet[Any]:
    _load()
    try:
        return _REGISTRY[name]
    except KeyError:
        raise UnknownRuleSetError(
            f"unknown rule set {name!r}; known: {', '.join(sorted(_REGISTRY))}"
        ) from None


def ruleset_names() -> list[str]:
    _load()
    return sorted(_REGISTRY)


def parse_hand(obj: Any) -> Hand:
    """A hand from its JSON form, read by its rule set's own parser (``hand_from_json``: e.g.
    riichi's red fives and riichi facts), or the common one when the rule set is unknown."""
    return hand_and_ruleset(obj)[0]


def hand_and_ruleset(obj: Any) -> tuple[Hand, RuleSet[Any]]:
    """The hand of a hand JSON and the rule set that scores it: the registered one, with
    the hand's ``house_rules.patterns`` applied (:meth:`RuleSet.with_patterns`)."""
    ruleset = obj.get("ruleset") if type(obj) is dict or isinstance(obj, Mapping) else None
    _load()
    rs = _REGISTRY.get(ruleset) if isinstance(ruleset, str) else None
    patterns: Any = None
    if rs is not None:
        hr = obj.get("house_rules")
        if isinstance(hr, Mapping) and "patterns" in hr:
            patterns = hr["patterns"]
            rest = {k: v for k, v in hr.items() if k != "patterns"}
            obj = {k: v for k, v in obj.items() if k != "house_rules"}
            if rest:
                obj["house_rules"] = rest
        elif isinstance(hr, Mapping) and not hr:
            obj = {k: v for k, v in obj.items() if k != "house_rules"}
    hand = rs.hand_from_json(obj) if rs is not None else Hand.from_json(obj)
    scorer = get_ruleset(hand.ruleset)
    return hand, scorer.with_patterns(patterns) if patterns is not None else scorer


def score(obj: Any) -> dict[str, Any]:
    """Score a hand given as its JSON form; never raises for bad input.

    Returns the result JSON; on bad input ``error`` says what is wrong and ``error_code``
    is its stable code.
    """
    ruleset = obj.get("ruleset") if type(obj) is dict or isinstance(obj, Mapping) else None
    try:
        hand, rs = hand_and_ruleset(obj)
        return rs.score(hand).to_json()
    except ScoringError as e:
        return {
            "ruleset": ruleset if isinstance(ruleset, str) else None,
            "total": 0,
            "minimum_met": False,
            "error": str(e),
            "error_code": e.code,
            "items": [],
            "arrangement": None,
            "waits": [],
        }
