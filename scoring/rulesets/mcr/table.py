"""MCR's fan table: one row per fan (a predicate, the fans it implies) and the guard groups."""

from __future__ import annotations

from collections.abc import Callable

from scoring.rows import Row, RowData, bind
from scoring.rulesets.mcr.data import (
    _CHOWS_WITH_5,
    _DRAGONS,
    _EVEN,
    _FIVES,
    _GREEN_BITS,
    _HONORS_BITS,
    _OUTSIDE_CHOWS,
    _REVERSIBLE_BITS,
    _TERMINALS_BITS,
    _TERMINALS_HONORS,
    _TERMINALS_HONORS_BITS,
    _WINDS,
    CHICKEN,
    FANS,
    FLOWERS,
)
from scoring.rulesets.mcr.features import MCRFeatures
from scoring.rulesets.mcr.shapes import (
    HONORS_KNITTED,
    KNITTED_STRAIGHT,
    SEVEN_PAIRS,
    THIRTEEN_ORPHANS,
)

# -- the table ------------------------------------------------------------------------------

F = MCRFeatures
_Pred = Callable[[MCRFeatures], int | bool]


#: The table: one row per fan — id, predicate, the fans it implies (不計) — in the official
#: table's order (by value). Names and points are bound from ``scoring/data/mcr.json``.
TABLE: tuple[Row[MCRFeatures], ...] = (
    Row(
        "big-four-winds",
        lambda f: f.pung("big-four-winds"),
        (
            "big-three-winds",
            "little-four-winds",
            "all-pungs",
            "seat-wind",
            "prevalent-wind",
            "pung-of-terminals-or-honors",
        ),
    ),
    Row(
        "big-three-dragons",
        lambda f: f.pung("big-three-dragons"),
        ("two-dragons-pungs", "dragon-pung"),
    ),
    Row("all-green", lambda f: f.only(_GREEN_BITS), ("half-flush", "one-voided-suit")),
    Row(
        "nine-gates",
        lambda f: f.nine_gates,
        ("full-flush", "concealed-hand", "fully-concealed-hand", "no-honors"),
    ),
    Row(
        "four-kongs",
        lambda f: f.n_kongs == 4,
        (
            "three-kongs",
            "two-melded-kongs",
            "two-concealed-kongs",
            "melded-kong",
            "concealed-kong",
            "all-pungs",
            "single-wait",
        ),
    ),
    Row(
        "seven-shifted-pairs",
        lambda f: f.seven_shifted_pairs,
        (
            "seven-pairs",
            "full-flush",
            "concealed-hand",
            "fully-concealed-hand",
            "single-wait",
            "no-honors",
        ),
    ),
    Row(
        "thirteen-orphans",
        lambda f: f.shape == THIRTEEN_ORPHANS,
        (
            "all-types",
            "all-terminals-and-honors",
            "concealed-hand",
            "fully-concealed-hand",
            "single-wait",
        ),
    ),
    Row(
        "all-terminals",
        lambda f: f.only(_TERMINALS_BITS),
        (
            "all-terminals-and-honors",
            "all-pungs",
            "outside-hand",
            "pung-of-terminals-or-honors",
            "no-honors",
            "double-pung",
        ),
    ),
    Row(
        "little-four-winds",
        lambda f: bool(f.pung("big-three-winds")) and f.pair_tile in _WINDS,
        ("big-three-winds", "pung-of-terminals-or-honors"),
    ),
    Row(
        "little-three-dragons",
        lambda f: bool(f.pung("two-dragons-pungs")) and f.pair_tile in _DRAGONS,
        ("two-dragons-pungs", "dragon-pung"),
    ),
    Row(
        "all-honors",
        lambda f: f.only(_HONORS_BITS),
        (
            "all-terminals-and-honors",
            "all-pungs",
            "outside-hand",
            "pung-of-terminals-or-honors",
            "one-voided-suit",
        ),
    ),
    Row(
        "four-concealed-pungs",
        lambda f: f.concealed_pung_total == 4,
        ("all-pungs", "concealed-hand", "fully-concealed-hand"),
    ),
    Row(
        "pure-terminal-chows",
        lambda f: f.terminal_chows == "pure-terminal-chows",
        (
            "seven-pairs",
            "full-flush",
            "all-chows",
            "no-honors",
            "pure-double-chow",
            "two-terminal-chows",
        ),
    ),
    Row(
        "quadruple-chow",
        lambda f: f.chow("quadruple-chow"),
        ("pure-triple-chow", "pure-double-chow", "tile-hog"),
    ),
    Row(
        "four-pure-shifted-pungs",
        lambda f: f.pung("four-pure-shifted-pungs"),
        ("pure-shifted-pungs", "all-pungs"),
    ),
    Row(
        "four-pure-shifted-chows",
        lambda f: f.chow("four-pure-shifted-chows"),
        ("pure-shifted-chows", "short-straight", "two-terminal-chows"),
    ),
    Row(
        "three-kongs",
        lambda f: f.n_kongs == 3,
        ("two-melded-kongs", "two-concealed-kongs", "melded-kong", "concealed-kong"),
    ),
    Row(
        "all-terminals-and-honors",
        lambda f: f.only(_TERMINALS_HONORS_BITS),
        ("all-pungs", "outside-hand", "pung-of-terminals-or-honors"),
    ),
    Row(
        "seven-pairs",
        lambda f: f.shape == SEVEN_PAIRS,
        ("concealed-hand", "fully-concealed-hand", "single-wait"),
    ),
    Row(
        "greater-honors-and-knitted-tiles",
        lambda f: f.shape == HONORS_KNITTED and f.suited_singles == 7,
        ("lesser-honors-and-knitted-tiles", "all-types", "concealed-hand", "fully-concealed-hand"),
    ),
    Row(
        "all-even-pungs",
        lambda f: f.four_pungs and f.every_pack(frozenset(), _EVEN),
        ("all-pungs", "all-simples", "no-honors"),
    ),
    Row("full-flush", lambda f: f.voided == 2 and not f.honors, ("no-honors",)),
    Row("pure-triple-chow", lambda f: f.chow("pure-triple-chow"), ("pure-double-chow",)),
    Row("pure-shifted-pungs", lambda f: f.pung("pure-shifted-pungs"), ()),
    Row("upper-tiles", lambda f: f.range_fan == "upper-tiles", ("upper-four", "no-honors")),
    Row("middle-tiles", lambda f: f.range_fan == "middle-tiles", ("all-simples", "no-honors")),
    Row("lower-tiles", lambda f: f.range_fan == "lower-tiles", ("lower-four", "no-honors")),
    Row(
        "pure-straight", lambda f: f.chow("pure-straight"), ("short-straight", "two-terminal-chows")
    ),
    Row(
        "three-suited-terminal-chows",
        lambda f: f.terminal_chows == "three-suited-terminal-chows",
        ("all-chows", "no-honors", "mixed-double-chow", "two-terminal-chows"),
    ),
    Row("pure-shifted-chows", lambda f: f.chow("pure-shifted-chows"), ()),
    Row(
        "all-five",
        lambda f: f.every_pack(_CHOWS_WITH_5, _FIVES),
        ("all-simples", "no-honors"),
    ),
    Row("triple-pung", lambda f: f.pung("triple-pung"), ()),
    Row("three-concealed-pungs", lambda f: f.concealed_pung_total == 3, ()),
    Row(
        "lesser-honors-and-knitted-tiles",
        lambda f: f.shape == HONORS_KNITTED and f.suited_singles > 7,
        ("all-types", "concealed-hand", "fully-concealed-hand"),
    ),
    Row(
        "knitted-straight",
        lambda f: (
            f.shape == KNITTED_STRAIGHT or (f.shape == HONORS_KNITTED and f.suited_singles == 9)
        ),
        (),
    ),
    Row("upper-four", lambda f: f.range_fan == "upper-four", ("no-honors",)),
    Row("lower-four", lambda f: f.range_fan == "lower-four", ("no-honors",)),
    Row("big-three-winds", lambda f: f.pung("big-three-winds"), ()),
    Row("mixed-straight", lambda f: f.chow("mixed-straight"), ()),
    Row("reversible-tiles", lambda f: f.only(_REVERSIBLE_BITS), ("one-voided-suit",)),
    Row("mixed-triple-chow", lambda f: f.chow("mixed-triple-chow"), ()),
    Row("mixed-shifted-pungs", lambda f: f.pung("mixed-shifted-pungs"), ()),
    # counted by MCRRuleSet.finalize when nothing else (flowers aside) counts
    Row(CHICKEN, lambda f: False, ()),
    Row("last-tile-draw", lambda f: f.self_drawn and f.hand.win.last_tile, ("self-drawn",)),
    Row("last-tile-claim", lambda f: not f.self_drawn and f.hand.win.last_tile, ()),
    Row(
        "out-with-replacement-tile",
        lambda f: f.self_drawn and f.hand.win.kong_replacement,
        ("self-drawn",),
    ),
    Row("robbing-the-kong", lambda f: f.hand.win.robbing_kong, ("last-tile",)),
    Row("all-pungs", lambda f: f.four_pungs, ()),
    Row("half-flush", lambda f: f.voided == 2 and f.honors, ()),
    Row("mixed-shifted-chows", lambda f: f.chow("mixed-shifted-chows"), ()),
    Row("all-types", lambda f: f.all_types, ()),
    Row("melded-hand", lambda f: f.exposed == 4 and not f.self_drawn, ("single-wait",)),
    Row(
        "two-concealed-kongs",
        lambda f: f.n_concealed_kongs >= 2,
        ("concealed-kong", "two-concealed-pungs"),
    ),
    Row("two-dragons-pungs", lambda f: f.pung("two-dragons-pungs"), ("dragon-pung",)),
    Row(
        "outside-hand",
        lambda f: f.every_pack(_OUTSIDE_CHOWS, _TERMINALS_HONORS),
        (),
    ),
    Row(
        "fully-concealed-hand",
        lambda f: f.exposed == 0 and f.self_drawn,
        ("self-drawn", "concealed-hand"),
    ),
    Row("two-melded-kongs", lambda f: f.n_melded_kongs >= 2, ("melded-kong",)),
    Row("last-tile", lambda f: f.last_tile, ()),
    Row("dragon-pung", lambda f: f.dragon_pungs, ()),
    Row("prevalent-wind", lambda f: f.round_i in f.wind_pungs, ()),
    Row("seat-wind", lambda f: f.seat_i in f.wind_pungs, ()),
    Row("concealed-hand", lambda f: f.exposed == 0 and not f.self_drawn, ()),
    Row(
        "all-chows",
        lambda f: (
            f.pair_tile is not None
            and f.pair_tile < 27
            and (f.four_chows or (f.shape == KNITTED_STRAIGHT and len(f.chow_tiles) == 1))
        ),
        ("no-honors",),
    ),
    Row("tile-hog", lambda f: f.tile_hogs, ()),
    Row("double-pung", lambda f: f.pung("double-pung"), ()),
    Row("two-concealed-pungs", lambda f: f.concealed_pung_total == 2, ()),
    Row("concealed-kong", lambda f: f.n_concealed_kongs >= 1, ()),
    Row("all-simples", lambda f: not f.kinds & _TERMINALS_HONORS_BITS, ("no-honors",)),
    Row("pure-double-chow", lambda f: f.chow("pure-double-chow"), ()),
    Row("mixed-double-chow", lambda f: f.chow("mixed-double-chow"), ()),
    Row("short-straight", lambda f: f.chow("short-straight"), ()),
    Row("two-terminal-chows", lambda f: f.chow("two-terminal-chows"), ()),
    Row("pung-of-terminals-or-honors", lambda f: f.pungs_of_terminals_or_honors, ()),
    Row("melded-kong", lambda f: f.n_melded_kongs >= 1, ()),
    Row("one-voided-suit", lambda f: f.voided == 1, ()),
    Row("no-honors", lambda f: not f.honors, ()),
    Row("edge-wait", lambda f: f.wait_fan == "edge-wait", ()),
    Row("closed-wait", lambda f: f.wait_fan == "closed-wait", ()),
    Row("single-wait", lambda f: f.wait_fan == "single-wait", ()),
    Row("self-drawn", lambda f: f.self_drawn, ()),
    Row(FLOWERS, lambda f: len(f.hand.flowers), category="flower"),
)

#: The (id, predicate, implied fans) view of :data:`TABLE`.
ROWS: tuple[tuple[str, _Pred, tuple[str, ...]], ...] = tuple(
    (r.id, r.predicate, tuple(sorted(r.excludes))) for r in TABLE
)


def _win_flags(f: MCRFeatures) -> bool:
    w = f.hand.win
    return w.last_tile or w.kong_replacement or w.robbing_kong


#: Rows sharing a cheap *necessary* condition (the engine's ``Pattern.guard``): when it is
#: false for an arrangement none of these fans can be present, and their predicates are not
#: called. Only a shortcut: ``tests/scoring/test_mcr.py`` scores hands with and without it.
GROUPS: tuple[tuple[Callable[[MCRFeatures], object], tuple[str, ...]], ...] = (
    (
        lambda f: f.chow_fans,  # two or more chows that combine
        (
            "quadruple-chow",
            "four-pure-shifted-chows",
            "pure-triple-chow",
            "pure-straight",
            "pure-shifted-chows",
            "mixed-straight",
            "mixed-triple-chow",
            "mixed-shifted-chows",
            "pure-double-chow",
            "mixed-double-chow",
            "short-straight",
            "two-terminal-chows",
        ),
    ),
    (
        lambda f: f.pung_fans,  # two or more pungs that combine
        (
            "big-four-winds",
            "big-three-dragons",
            "little-four-winds",
            "little-three-dragons",
            "four-pure-shifted-pungs",
            "pure-shifted-pungs",
            "triple-pung",
            "big-three-winds",
            "mixed-shifted-pungs",
            "two-dragons-pungs",
            "double-pung",
        ),
    ),
    (
        lambda f: f.pung_tiles,  # a pung or kong
        (
            "four-concealed-pungs",
            "all-even-pungs",
            "three-concealed-pungs",
            "all-pungs",
            "two-concealed-pungs",
            "dragon-pung",
            "prevalent-wind",
            "seat-wind",
            "pung-of-terminals-or-honors",
        ),
    ),
    (
        lambda f: f.n_kongs,
        (
            "four-kongs",
            "three-kongs",
            "two-concealed-kongs",
            "two-melded-kongs",
            "concealed-kong",
            "melded-kong",
        ),
    ),
    (
        lambda f: not f.is_standard_shape,
        (
            "seven-shifted-pairs",
            "thirteen-orphans",
            "seven-pairs",
            "greater-honors-and-knitted-tiles",
            "lesser-honors-and-knitted-tiles",
            "knitted-straight",
        ),
    ),
    (
        lambda f: f.voided == 2 and not f.honors,  # one suit only
        ("nine-gates", "pure-terminal-chows", "full-flush"),
    ),
    (
        lambda f: not f.honors and f.range_fan,  # numbered tiles of a limited range
        ("upper-tiles", "middle-tiles", "lower-tiles", "upper-four", "lower-four"),
    ),
    (
        lambda f: not f.honors,
        ("all-terminals", "three-suited-terminal-chows", "all-five", "all-simples"),
    ),
    (lambda f: f.honors, ("all-honors", "half-flush", "all-types")),
    (
        lambda f: not f.has_characters,  # green and reversible tiles are dots/bamboo/honours
        ("all-green", "reversible-tiles"),
    ),
    (
        # a standard (or knitted) arrangement's pair must then be a terminal or an honour
        lambda f: f.pair_tile is None or f.pair_tile in _TERMINALS_HONORS,
        ("all-terminals-and-honors", "outside-hand"),
    ),
    (
        _win_flags,
        ("last-tile-draw", "last-tile-claim", "out-with-replacement-tile", "robbing-the-kong"),
    ),
    (lambda f: f.wait_fan, ("edge-wait", "closed-wait", "single-wait")),
)


def _patterns(guards: bool = True) -> tuple[Row[MCRFeatures], ...]:
    """The table bound to its data; ``guards=False`` leaves out the :data:`GROUPS` shortcut."""
    guard_of: dict[str, Callable[[MCRFeatures], object]] = {}
    for guard, members in GROUPS:
        for fid in members:
            if fid in guard_of or fid not in FANS:
                raise ValueError(f"mcr: {fid} is in no or in two guard groups")
            guard_of[fid] = guard
    order = {r.id: i for i, r in enumerate(TABLE)}
    for r in TABLE:
        for e in r.excludes:
            if order[e] <= order[r.id]:
                raise ValueError(f"mcr: {r.id} implies {e}, which precedes it in the table")
    data = {fid: RowData(f["zh"], int(f["points"]), en=f["en"]) for fid, f in FANS.items()}
    rows = bind("mcr", TABLE, data)
    if guards:
        rows = tuple(r.with_options(guard=guard_of.get(r.id)) for r in rows)
    return rows
