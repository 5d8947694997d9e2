"""The one form of a rule table (scoring.rows) and the options of the one evaluation loop.

A toy rule set whose rows read a set of "present" ids from the hand's context (a subclass of
the typed win context, as a rule set of its own may declare) shows each
named option on its own: IMPLIED and COUNTED exclusion, conditional exclusions, only-with,
rows that read the rows counted, families; then every built-in rule set is checked to be
declared in that one form, in its data's order, without its own loop.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from scoring import Hand, Tile, get_ruleset, ruleset_names
from scoring.context import WinContext
from scoring.decompose import Arrangement, Wait
from scoring.engine import Features, RuleSet
from scoring.random_hands import random_complete
from scoring.rows import FROM_DATA, Exclusion, Row, RowData, bind, by_name, topological


@dataclass(frozen=True, slots=True)
class ToyContext(WinContext):
    present: tuple[str, ...] = ()


class Toy(Features):
    """A feature record whose facts are the ids listed in the hand's context ``present``."""

    @property
    def present(self) -> frozenset[str]:
        ctx = self.hand.context
        return frozenset(ctx.present if isinstance(ctx, ToyContext) else ())


def _has(pid: str) -> Callable[[Toy], bool]:
    return lambda f: pid in f.present


def _rs(rows: Sequence[Row[Toy]], exclusion: Exclusion) -> RuleSet[Toy]:
    bound = [r.with_data(RowData(r.id.upper(), 1)) for r in rows]
    return RuleSet(
        name="toy",
        title="toy",
        hand_size=13,
        patterns=bound,
        features=Toy,
        exclusion=exclusion,
    )


def _counted(rs: RuleSet[Toy], present: Sequence[str]) -> list[str]:
    hand = Hand(
        ruleset="toy",
        concealed=(),
        melds=(),
        win_tile=Tile(0),
        context=ToyContext(present=tuple(present)),
    )
    f = rs.make_features(hand, Arrangement("toy", (), None, Wait.SPECIAL), ())
    return [i.id for i in rs.evaluate(f)]


# a > b > c (a supersedes b, b supersedes c); d stands alone
CHAIN = (Row("a", _has("a"), ("b",)), Row("b", _has("b"), ("c",)), Row("c", _has("c")))
D = Row("d", _has("d"))


@pytest.mark.parametrize(
    ("exclusion", "present", "counted"),
    [
        # IMPLIED: a removed row the hand qualifies for passes its exclusions on
        (Exclusion.IMPLIED, "abc", "a"),
        (Exclusion.IMPLIED, "ac", "ac"),  # b absent: it passes nothing on
        (Exclusion.IMPLIED, "bc", "b"),
        # COUNTED: a removed row removes nothing
        (Exclusion.COUNTED, "abc", "ac"),
        (Exclusion.COUNTED, "ac", "ac"),
        (Exclusion.COUNTED, "bc", "b"),
        (Exclusion.IMPLIED, "abcd", "ad"),
        (Exclusion.COUNTED, "abcd", "acd"),
    ],
)
def test_exclusion_modes(exclusion: Exclusion, present: str, counted: str) -> None:
    assert _counted(_rs((*CHAIN, D), exclusion), present) == list(counted)


@pytest.mark.parametrize("exclusion", list(Exclusion))
def test_counted_follows_the_exclusions_not_the_table_order(exclusion: Exclusion) -> None:
    """Rows declared in any order give the same result: COUNTED takes them in an order that
    puts a row before what it supersedes (the table order itself when it does)."""
    reversed_rows = (D, *reversed(CHAIN))
    rs = _rs(reversed_rows, exclusion)
    for present in ("abc", "ac", "bc", "abcd", "b", ""):
        got = _counted(rs, present)
        want = _counted(_rs((*CHAIN, D), exclusion), present)
        assert sorted(got) == sorted(want), present
        # the items come in table order
        assert got == [r.id for r in reversed_rows if r.id in got]


def test_topological_order() -> None:
    assert topological((*CHAIN, D)) == (0, 1, 2, 3)
    assert topological((D, *reversed(CHAIN))) == (0, 3, 2, 1)
    with pytest.raises(ValueError, match="cycle"):
        topological((Row("x", _has("x"), ("y",)), Row("y", _has("y"), ("x",))))


def test_conditional_exclusion() -> None:
    rows = (
        Row("a", _has("a"), excludes_when=((lambda f: "when" in f.present, ("b",)),)),
        D,
        Row("b", _has("b")),
        Row("when", _has("when")),
    )
    for exclusion in Exclusion:
        rs = _rs(rows, exclusion)
        assert _counted(rs, ["a", "b"]) == ["a", "b"]
        assert _counted(rs, ["a", "b", "when"]) == ["a", "when"]


def test_only_with() -> None:
    rows = (
        Row("flower-win", _has("flower-win"), only_with=("dealer",)),
        Row("dealer", _has("dealer")),
        *CHAIN,
        D,
    )
    rs = _rs(rows, Exclusion.IMPLIED)
    assert rs.by_id["flower-win"].excludes == {"a", "b", "c", "d"}
    assert rs.by_id["flower-win"].only_with is None  # expanded into what it supersedes
    assert _counted(rs, ["flower-win", "dealer", "a", "d"]) == ["flower-win", "dealer"]
    assert _counted(rs, ["dealer", "a", "d"]) == ["dealer", "a", "d"]


def test_reads_counted() -> None:
    """A row reading the rows counted sees them after the exclusions, without itself."""

    def only_d(f: Toy) -> bool:
        return f.counted == {"d"}

    rows = (*CHAIN, D, Row("only-d", only_d, ("d",), reads_counted=True))
    rs = _rs(rows, Exclusion.IMPLIED)
    assert _counted(rs, ["d"]) == ["only-d"]
    assert _counted(rs, ["d", "c"]) == ["c", "d"]
    assert _counted(rs, ["b", "c"]) == ["b"]


def test_families() -> None:
    rows = (
        Row("low", _has("low"), family="f", rank=1),
        Row("high", _has("high"), family="f", rank=2),
        D,
    )
    rs = _rs(rows, Exclusion.IMPLIED)
    assert rs.families == {"low": ("f", 1), "high": ("f", 2), "d": ("", 0)}
    hand = Hand(
        ruleset="toy",
        concealed=(),
        melds=(),
        win_tile=Tile(0),
        context=ToyContext(present=("low", "high", "d")),
    )
    f = rs.make_features(hand, Arrangement("toy", (), None, Wait.SPECIAL), ())
    items = rs.evaluate(f)  # families are not an exclusion: applied after, where a rule set
    assert [i.id for i in items] == ["low", "high", "d"]  # asks (Zung Jung's finalize)
    assert [i.id for i in rs.family_highest(items)] == ["high", "d"]


def test_bind_fills_what_the_row_leaves_empty() -> None:
    row: Row[Toy] = Row("x", _has("x"), name="叉", points=7)
    data = {"叉": RowData("ignored", 3, en="Ex", category="c", note="n")}
    (got,) = bind("toy", [row], data, by_name)
    assert (got.name, got.en, got.points, got.category, got.note) == ("叉", "Ex", 7, "c", "n")
    (got,) = bind("toy", [Row("x", _has("x"))], {"x": RowData("叉", 3)})
    assert (got.name, got.points) == ("叉", 3)


def test_bind_refuses_rows_and_data_that_differ() -> None:
    rows = [Row("x", _has("x")), Row("y", _has("y"))]
    with pytest.raises(ValueError, match=r"differ: \['z'\]"):
        bind("toy", rows, {"x": RowData("X", 1), "y": RowData("Y", 1), "z": RowData("Z", 1)})
    with pytest.raises(ValueError, match="not in the table's order"):
        bind("toy", rows, {"y": RowData("Y", 1), "x": RowData("X", 1)})
    assert len(bind("toy", rows, {"y": RowData("Y", 1), "x": RowData("X", 1)}, ordered=False))


def test_a_row_without_a_value_is_refused() -> None:
    with pytest.raises(ValueError, match="no name or value"):
        RuleSet(name="toy", title="t", hand_size=13, patterns=[Row("x", _has("x"))], features=Toy)
    assert Row("x", _has("x")).points == FROM_DATA


# -- the built-in rule sets -------------------------------------------------------------------


@pytest.mark.parametrize("name", ruleset_names())
def test_every_rule_set_uses_the_one_form_and_the_one_loop(name: str) -> None:
    rs = get_ruleset(name)
    assert all(type(p) is Row for p in rs.patterns)
    assert all(p.points != FROM_DATA and p.name and p.en for p in rs.patterns)
    for method in ("evaluate", "resolve"):  # no rule set replaces the loop
        assert getattr(type(rs), method) is getattr(RuleSet, method), method
    assert isinstance(rs.exclusion, Exclusion)


def test_exclusion_option_of_each_rule_set() -> None:
    want = {
        "mcr": Exclusion.COUNTED,
        "tw16-tai": Exclusion.COUNTED,
        "hk-tw16": Exclusion.IMPLIED,
        "zung-jung": Exclusion.IMPLIED,
        "zung-jung-v3.3": Exclusion.IMPLIED,
    }
    assert {n: get_ruleset(n).exclusion for n in want} == want


@pytest.mark.parametrize("name", ["zung-jung", "zung-jung-v3.3"])
def test_zung_jung_counted_equals_implied(name: str) -> None:
    """Zung Jung's one exclusion (十三么九 → 混么九) chains nowhere, so both exclusion modes
    agree on its hands: the choice of IMPLIED is the reading, not a difference."""
    rs = get_ruleset(name)
    other = RuleSet(
        name=rs.name,
        title=rs.title,
        hand_size=13,
        patterns=rs.patterns,
        features=rs.make_features,
        shapes=rs.shapes,
        exclusion=Exclusion.COUNTED,
    )
    rng = random.Random(21)
    for _ in range(300):
        concealed, melds, win = random_complete(rng, 4)
        obj: dict[str, Any] = {
            "ruleset": name,
            "concealed": concealed,
            "melds": melds,
            "win_tile": win,
        }
        hand = Hand.from_json(obj)
        res = rs.score(hand)
        f = rs.make_features(hand, res.arrangement, res.waits)
        assert rs.evaluate(f) == other.evaluate(f)
