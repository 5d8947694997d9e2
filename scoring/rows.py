"""The one form of a rule table: the row type every rule set declares its patterns with.

A rule set's module declares its table as a tuple of :class:`Row` in the order of the
published (seed) table: the row's id, one predicate over the rule set's feature record, what
the row supersedes ("不計": the rows it removes when it counts), and, where the table needs
them, named options (a hand-dependent value, conditional exclusions, a family and rank,
"only with", reading the rows counted before). Names and values the module does not type
come from the rule set's package data through :func:`bind`. How rows exclude each other is
one named option of the rule set (:class:`Exclusion`), applied by the one generic loop of
:class:`scoring.engine.RuleSet`.

Adding a pattern is adding one row (and, for a new fact of the hand, one small named
property of the feature record); see ``docs/architecture.md``.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final, Generic, TypeVar

__all__ = ["FROM_DATA", "Exclusion", "Row", "RowData", "bind", "by_id", "by_name"]

#: The value of a row whose points come from the rule set's data (see :func:`bind`).
FROM_DATA: Final = -1

F = TypeVar("F")


class Exclusion(enum.Enum):
    """How the rows of a table exclude each other (the rule set's ``exclusion`` option).

    ``IMPLIED`` — implied and not counted: every row the hand qualifies for removes the rows
    it supersedes, and a removed row the hand also qualifies for passes its own exclusions on
    (五寶 removes 四寶, which removes 三寶); a superseded row the hand does not qualify for
    passes nothing on. (hk-tw16, Zung Jung.)

    ``COUNTED`` — only a counted row removes: rows are taken so that a row comes before every
    row it supersedes, and a row removed by a counted row removes nothing itself (MCR's
    non-repeat principle, tw16-tai's reading of "不计").
    """

    IMPLIED = "implied"
    COUNTED = "counted"


@dataclass(frozen=True, eq=False, init=False)
class Row(Generic[F]):
    """One row of a rule table.

    Positional: ``id``, ``predicate`` (how many times the pattern occurs in one arrangement;
    0 / False: absent), ``excludes`` (the ids it supersedes — "不計"). Everything else is a
    keyword:

    * ``name`` / ``en`` / ``points`` / ``category`` / ``note`` — from the data when left
      empty (``points``: :data:`FROM_DATA`); ``value`` — the value of one occurrence when it
      depends on the hand (明/暗 values, formulas), overriding ``points``;
    * ``excludes_when`` — conditional exclusions, ``(condition, ids)`` pairs applied when the
      row counts and the condition holds ("如是…則不再計…");
    * ``only_with`` — when the row counts, the hand scores it only with these rows (every
      other row is superseded; e.g. a flower win "不再計牌型番數");
    * ``family`` / ``rank`` — within a family only the highest-ranked row present counts
      (applied after the exclusions by the rule sets that use families: Zung Jung);
    * ``reads_counted`` — the predicate looks at the rows counted without it
      (``features.counted``): such rows are evaluated after the others (大雞胡);
    * ``guard`` — a cheap condition shared by several rows (the same object): when false the
      rows are absent and their predicates are not called; the rows are evaluated as a group,
      the guard once per feature record.
    """

    id: str
    predicate: Callable[[F], int | bool]
    excludes: frozenset[str]
    name: str
    en: str
    points: int
    value: Callable[[F], int] | None
    category: str
    note: str
    excludes_when: tuple[tuple[Callable[[F], bool], frozenset[str]], ...]
    only_with: frozenset[str] | None
    family: str
    rank: int
    reads_counted: bool
    guard: Callable[[F], object] | None

    def __init__(
        self,
        id: str,
        predicate: Callable[[F], int | bool],
        excludes: Iterable[str] = (),
        *,
        name: str = "",
        en: str = "",
        points: int = FROM_DATA,
        value: Callable[[F], int] | None = None,
        category: str = "",
        note: str = "",
        excludes_when: Iterable[tuple[Callable[[F], bool], Iterable[str]]] = (),
        only_with: Iterable[str] | None = None,
        family: str = "",
        rank: int = 0,
        reads_counted: bool = False,
        guard: Callable[[F], object] | None = None,
    ) -> None:
        put = object.__setattr__  # a frozen record: set once, here
        put(self, "id", id)
        put(self, "predicate", predicate)
        put(self, "excludes", frozenset(excludes))
        put(self, "name", name)
        put(self, "en", en)
        put(self, "points", points)
        put(self, "value", value)
        put(self, "category", category)
        put(self, "note", note)
        put(self, "excludes_when", tuple((c, frozenset(i)) for c, i in excludes_when))
        put(self, "only_with", None if only_with is None else frozenset(only_with))
        put(self, "family", family)
        put(self, "rank", rank)
        put(self, "reads_counted", reads_counted)
        put(self, "guard", guard)

    def with_data(self, data: RowData) -> Row[F]:
        """The row with what it leaves empty taken from its data."""
        return replace(
            self,
            name=self.name or data.name,
            en=self.en or data.en,
            points=data.points if self.points == FROM_DATA else self.points,
            category=self.category or data.category,
            note=self.note or data.note,
        )

    def with_options(self, **changes: Any) -> Row[F]:
        """A copy with some fields changed (a rule set's variant, a guard, a house value)."""
        return replace(self, **changes)


@dataclass(frozen=True, slots=True)
class RowData:
    """What a rule set's data file says about one row."""

    name: str
    points: int
    en: str = ""
    category: str = ""
    note: str = ""


def by_id(row: Row[Any]) -> str:
    """The data key of a row: its id."""
    return row.id


def by_name(row: Row[Any]) -> str:
    """The data key of a row: its (Chinese) name."""
    return row.name


def bind(
    what: str,
    rows: Iterable[Row[F]],
    data: Mapping[str, RowData],
    key: Callable[[Row[F]], str] = by_id,
    *,
    ordered: bool = True,
) -> tuple[Row[F], ...]:
    """The rows with their names and values from ``data`` (keyed by ``key(row)``).

    Raises ValueError when the rows and the data do not list the same keys, or (``ordered``)
    not in the same order: the module declares its table in the published table's order.
    """
    rows = tuple(rows)
    keys = [key(r) for r in rows]
    if len(set(keys)) != len(keys) or set(keys) != set(data):
        diff = sorted(set(keys) ^ set(data)) or sorted({k for k in keys if keys.count(k) > 1})
        raise ValueError(f"{what}: the rows and the data differ: {diff}")
    if ordered and keys != list(data):
        first = next(k for k, d in zip(keys, data, strict=True) if k != d)
        raise ValueError(f"{what}: the rows are not in the table's order (at {first!r})")
    return tuple(r.with_data(data[k]) for r, k in zip(rows, keys, strict=True))


def topological(rows: Sequence[Row[Any]]) -> tuple[int, ...]:
    """Row indices, every row before the rows it supersedes (table order where it allows).

    Raises ValueError on an exclusion cycle.
    """
    index = {r.id: i for i, r in enumerate(rows)}
    names: dict[str, set[str]] = {}  # id -> the rows that supersede it
    for r in rows:
        for e in r.excludes.union(*(ids for _, ids in r.excludes_when)):
            names.setdefault(e, set()).add(r.id)
    out: list[int] = []
    state: dict[str, int] = {}

    def visit(pid: str) -> None:
        if state.get(pid) == 2:
            return
        if state.get(pid) == 1:
            raise ValueError(f"exclusion cycle through {pid}")
        state[pid] = 1
        for q in sorted(names.get(pid, ()), key=index.__getitem__):
            visit(q)
        state[pid] = 2
        out.append(index[pid])

    for r in rows:
        visit(r.id)
    return tuple(out)
