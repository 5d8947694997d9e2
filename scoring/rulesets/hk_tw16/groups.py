"""The guard groups of the 港式台牌 table and the table as the rule set evaluates it.

:data:`GROUPS` lists rows that share a cheap *necessary* condition (a ``Row.guard``): when it
is false none of them can be present and their predicates are not called. :func:`patterns`
binds :data:`~scoring.rulesets.hk_tw16.patterns.TABLE` to its data and gives every row its
guard; :data:`PATTERNS` is the result the rule set uses.
"""

from __future__ import annotations

from collections.abc import Callable

from scoring.rows import Row, bind
from scoring.rulesets.hk_tw16.features import HKFeatures
from scoring.rulesets.hk_tw16.patterns import (
    CONSEC_PUNGS,
    FLOWER_WIN_ROWS,
    IDS,
    MIXED_PUNGS,
    TABLE,
    has_hand,
    row_data,
)

__all__ = ["GROUPS", "PATTERNS", "patterns"]

H = HKFeatures


def _chows(f: H) -> bool:
    return f.shape != "flower-win" and f.n_chows >= 2


def _suited_pungs(f: H) -> bool:
    return f.shape != "flower-win" and len(f.suited_pungs) >= 2


def _pungs(f: H) -> bool:
    return f.shape != "flower-win" and len(f.pung_blocks) >= 2


def _honor_pungs(f: H) -> bool:
    return f.shape != "flower-win" and len(f.honor_pung_tiles) >= 2


def _kongs(f: H) -> bool:
    return f.shape != "flower-win" and bool(f.kongs)


def _four_alike(f: H) -> bool:
    return f.standard and 4 in f.counts


def _special(f: H) -> bool:
    return f.special


def _ting(f: H) -> bool:
    return f.shape != "flower-win" and f.ting


def _pure(f: H) -> bool:
    return f.shape != "flower-win" and f.pure


def _mixed(f: H) -> bool:
    return f.shape != "flower-win" and f.mixed


#: Rows sharing a cheap *necessary* condition (``Row.guard``; each implies :func:`has_hand`):
#: when it is false none of them can be present and their predicates are not called. Only a
#: shortcut: ``tests/scoring/test_hk_tw16.py`` scores hands with and without it.
GROUPS: tuple[tuple[Callable[[H], object], tuple[str, ...]], ...] = (
    (
        _chows,  # two chows or more
        (
            "sisters",
            "pungao",
            "three-meet",
            "triple-pungao",
            "mixed-v",
            "pure-v",
            "mixed-dragon",
            "pure-dragon",
            "one-suit-four-step",
            "three-suit-four-step",
            "mixed-ladder",
            "pure-ladder",
            "double-sisters",
            "double-pungao",
            "small-double-pungao",
            "four-meet",
            "five-meet",
            "all-pungao",
            "small-all-sisters",
            "all-sisters",
            "double-dragon-meet",
            "double-mixed-dragon",
            "double-pure-dragon",
            "laoshao-chow",
            "double-laoshao-chow",
        ),
    ),
    (
        _suited_pungs,  # two suited pungs / kongs or more
        (
            "laoshao-pung",
            "double-laoshao-pung",
            "brothers",
            "small-three-brothers",
            "big-three-brothers",
            "all-brothers",
            *CONSEC_PUNGS,
            *MIXED_PUNGS,
        ),
    ),
    (
        _pungs,  # two pungs / kongs or more
        (
            "all-pungs",
            "two-concealed",
            "three-concealed",
            "four-concealed",
            "five-concealed",
            "kan-kan",
        ),
    ),
    (
        _honor_pungs,  # two honour pungs or more
        (
            "small-three-winds",
            "big-three-winds",
            "small-four-winds",
            "big-four-winds",
            "small-three-dragons",
            "big-three-dragons",
        ),
    ),
    (_kongs, ("one-kong", "two-kong", "three-kong", "four-kong", "five-kong")),
    (
        _four_alike,  # a standard hand holding a tile four times
        (
            "four-gui-one",
            "four-gui-two",
            "four-gui-four",
            "eight-gui-one",
            "eight-gui-four",
            "twelve-gui-one",
            "twelve-gui-four",
        ),
    ),
    (
        _special,  # 嚦咕嚦咕, 十六不搭, 十三么
        (
            "likgu",
            "big-likgu",
            "suit-three-pairs",
            "suit-four-pairs",
            "suit-five-pairs",
            "suit-six-pairs",
            "suit-seven-pairs",
            "heaven-likgu",
            "eight-wait",
            "sixteen",
            "sixteen-meet",
            "true-sixteen",
            "sixteen-wait",
            "thirteen-orphans",
            "thirteen-wait",
            "orphan-terminal-chow",
            "orphan-honor-pung",
        ),
    ),
    (_ting, ("ting", "instant-eat", "menqing-big-ting", "men-ting-mo", "dingpai")),
    (
        _pure,  # suited tiles only
        (
            "full-flush",
            "pure-outside",
            "pure-terminals",
            "pure-all-contain",
            "pure-small",
            "pure-big",
            "two-numbers",
            "three-numbers",
            "all-odd",
            "all-even",
            "all-dragon-eyes",
        ),
    ),
    (
        _mixed,  # honours and suited tiles
        (
            "mixed-outside",
            "mixed-terminals",
            "mixed-all-contain",
            "mixed-small",
            "mixed-big",
            "mixed-odd",
            "mixed-even",
            "mixed-dragon-eyes",
        ),
    ),
)


def patterns(groups: bool = True) -> tuple[Row[H], ...]:
    """The table bound to its data; the rows that need a hand carry the :func:`has_hand`
    guard, or (``groups``) the narrower guard of their :data:`GROUPS` entry."""
    guard_of: dict[str, Callable[[H], object]] = {}
    if groups:
        for guard, members in GROUPS:
            for pid in members:
                if pid in guard_of or pid not in IDS or pid in FLOWER_WIN_ROWS:
                    raise ValueError(f"hk-tw16: {pid} is in no, two or a flower-win group")
                guard_of[pid] = guard
    return tuple(
        r if r.id in FLOWER_WIN_ROWS else r.with_options(guard=guard_of.get(r.id, has_hand))
        for r in bind("hk-tw16", TABLE, row_data())
    )


#: The table bound to its data, with its guards (:func:`patterns`).
PATTERNS: tuple[Row[H], ...] = patterns()
