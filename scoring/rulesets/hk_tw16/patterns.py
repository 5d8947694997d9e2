"""The pattern table of 港式台牌 V1: one row per fan of a win (171 rows).

Each row names a JSON id; its Chinese name, category and value come from the package data
(:mod:`scoring.rulesets.hk_tw16.data`). The row adds a predicate over
:class:`~scoring.rulesets.hk_tw16.features.HKFeatures`, the ids it excludes (the table's
"不再計 / 不計" sentences and the graded series of the readings), and for 明/暗 and formula
fans the value. The ``instant`` and ``penalty`` categories are events, not fans of a win:
see :mod:`scoring.rulesets.hk_tw16.events`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from scoring.engine import Pattern
from scoring.rulesets.hk_tw16.data import EN, table
from scoring.rulesets.hk_tw16.features import HKFeatures
from scoring.rulesets.hk_tw16.shapes import LIKGU, ORPHANS, SIXTEEN

__all__ = ["CHICKEN_IGNORED", "FLOWER_WIN_ROWS", "META", "PATTERNS"]

H = HKFeatures
Pred = Callable[[H], int | bool]

#: "門清類" as the exclusion sentences use it: 門清 and 門叮摸. 門清大叮, although listed in the
#: 門清 category, is the ting fan itself (the same words and value as 門清叮): a declared 叮 is an
#: act, not a state of the hand, so "不再計門清類" does not take it away (see the rules doc).
MENQING_CLASS = ("menqing", "men-ting-mo")
#: 門清類 where 自摸 is not also removed: 門叮摸 cannot occur there (its predicate needs a
#: standard hand and a normal-timing 叮), so naming it would only matter for the chain.
MQ = ("menqing",)
#: The ting fans a 天聽/地聽 replaces.
TING = ("menqing-big-ting", "ting", "dingpai")
WIN_FORM = ("fake-single", "pair-wait", "true-single")
GATES = ("small-five-gates", "big-five-gates", "small-seven-gates", "big-seven-gates")
PUNGAO = ("pungao", "double-pungao", "triple-pungao", "small-double-pungao")
STEPS = ("mixed-v", "pure-v", "one-suit-four-step", "three-suit-four-step")
#: "無字缺類" of 清全小/清全大: 無字 and the 缺 fans built on it (not 四/五/六寶, which add
#: 無花, 平胡 and 門清).
MISSING = ("duanyao", "que-five", "que-one-suit", "three-treasures")
FLOWER_WINS = ("seven-flowers", "one-robs-seven", "seven-robs-one", "eight-flowers")
#: Fans that 大雞胡/大鴨胡 ignore when checking the hand has nothing but 無花 / 花 1.
CHICKEN_IGNORED = frozenset(
    {
        "dealer",
        "dealer-streak",
        "dingpai",
        "ting",
        "menqing-big-ting",
        "instant-eat",
        "heaven-ting",
        "earth-ting",
        "heaven-win",
        "earth-win",
        "human-win",
        "four-left",
        "seven-left",
        "ten-left",
        "double-win",
        "triple-win",
        "fanxue",
    }
)
META = frozenset({"big-chicken", "big-duck"})

_rows: list[Pattern[H]] = []


def _add(
    pid: str,
    pred: Pred,
    excludes: Iterable[str] = (),
    value: Callable[[H], int] | None = None,
    points: int | None = None,
    when: tuple[tuple[Callable[[H], bool], Iterable[str]], ...] = (),
    note: str = "",
) -> None:
    d = table()[pid]
    if points is None:
        points = d.n if d.kind in ("fixed", "plus") else d.closed
    _rows.append(
        Pattern(
            id=pid,
            name=d.name,
            en=EN[pid],
            points=points,
            predicate=pred,
            excludes=frozenset(excludes),
            value=value,
            category=d.category,
            note=note,
            excludes_when=tuple((c, frozenset(ids)) for c, ids in when),
        )
    )


def _oc(pid: str, attr: Callable[[H], int], excludes: Iterable[str] = ()) -> None:
    """A 明/暗 pattern: ``attr`` is 0 / 1 (open) / 2 (closed)."""
    d = table()[pid]
    op, cl = d.open, d.closed
    _add(pid, lambda f: attr(f) > 0, excludes, value=lambda f: cl if attr(f) == 2 else op)


def _series(ids: Iterable[str], preds: Iterable[Pred], extra: dict[str, tuple[str, ...]]) -> None:
    """A graded series: each step removes every step below it."""
    lower: list[str] = []
    for pid, pred in zip(ids, preds, strict=True):
        _add(pid, pred, (*lower, *extra.get(pid, ())))
        lower.append(pid)


def _standard(f: H) -> bool:
    return f.standard


# -- 花字類 flowers and honours ---------------------------------------------------------------
_add("no-flower", lambda f: not f.flowers)
_add("flower", lambda f: f.flower_points)
_add("no-honor", lambda f: f.no_honor)
_add("wind-pung", lambda f: f.wind_pungs)
_add("dragon-pung", lambda f: f.dragon_pungs)
_add("no-honor-flower", lambda f: f.no_honor and not f.flowers, ("no-honor", "no-flower"))
_add(
    "seven-flowers",
    lambda f: f.flower_win == "seven-flowers" and len(f.flowers) == 7,
    ("flower",),  # + every hand fan, added below
)
_add("one-robs-seven", lambda f: f.flower_win == "one-robs-seven", ("flower", "six-wrong-flowers"))
_add(
    "seven-robs-one",
    lambda f: f.flower_win == "seven-robs-one" and len(f.flowers) == 7,
    ("seven-flowers", "flower"),
)
_add("eight-flowers", lambda f: len(f.flowers) == 8, ("flower", "seven-flowers"))
_add(
    "six-wrong-flowers",
    lambda f: len(f.flowers) == 6 and f.seat_flowers == 0,
    ("flower",),
    note="read as replacing the six flowers' 花 points; the hand's other fans count",
)

# -- 叮 ting -----------------------------------------------------------------------------------
_add("dingpai", lambda f: f.ting)
_add("ting", lambda f: f.ting and f.menqing, ("dingpai",))
_add("instant-eat", lambda f: f.ting and bool(f.ctx("ting_instant", False)))
_add(
    "heaven-ting",
    lambda f: f.ting_timing == "heaven",
    (*MQ, *TING, "earth-ting"),
)
_add("earth-ting", lambda f: f.ting_timing == "earth", (*MQ, *TING))

# -- 莊 dealer ---------------------------------------------------------------------------------
_add("dealer", lambda f: bool(f.ctx("dealer", False)))
_add(
    "dealer-streak",
    lambda f: bool(f.ctx("dealer", False)) and f.streak > 0,
    value=lambda f: 2 * f.streak,
    points=2,
)

# -- 胡牌型式 win form -------------------------------------------------------------------------
_add("fake-single", lambda f: f.win_form == "fake-single")
_add("pair-wait", lambda f: f.win_form == "pair-wait")
_add("true-single", lambda f: f.win_form == "true-single")

# -- 平胡 --------------------------------------------------------------------------------------
_add("pinghu", lambda f: _standard(f) and f.n_chows == 5)
_add(
    "clean-pinghu",
    lambda f: _standard(f) and f.n_chows == 5 and f.no_honor and not f.flowers,
    ("no-honor-flower", "pinghu"),
)

# -- 自摸 --------------------------------------------------------------------------------------
_add(
    "tsumo",
    lambda f: f.self_drawn and f.flower_win is None,
    value=lambda f: 1 if f.special or not f.menqing else table()["tsumo"].closed,
)
_add("flower-tsumo", lambda f: f.self_drawn and f.replacements[-1:] == ("flower",))
_add("kong-tsumo", lambda f: f.self_drawn and f.replacements[-1:] == ("kong",))
_add(
    "chain-flower-kong-tsumo",
    lambda f: f.chain_value > 0,
    ("flower-tsumo", "kong-tsumo"),
    value=lambda f: f.chain_value,
    points=0,
)

# -- 海底 / 河底 / 絕絕 ------------------------------------------------------------------------
_add("haidi", lambda f: f.hand.win.last_tile and f.self_drawn)
_add("hedi", lambda f: f.hand.win.last_tile and not f.self_drawn)
_add("last-tile-absolute", lambda f: f.juejue_n, points=15)

# -- 雙響 / 三響 / 反雪 -------------------------------------------------------------------------
_add("double-win", lambda f: f.winners == 2)
_add("triple-win", lambda f: f.winners == 3)
_add("fanxue", lambda f: f.fanxue > 0, value=lambda f: 2 * f.fanxue, points=0)

# -- 缺類 missing ------------------------------------------------------------------------------
_add("duanyao", lambda f: f.no_honor and f.no_terminals, ("no-honor",))
_add("que-five", lambda f: f.no_honor and f.no_five, ("no-honor",))
_add("que-one-suit", lambda f: f.no_honor and len(f.suit_set) == 2, ("no-honor",))


def _three_treasures(f: H) -> bool:
    return f.no_honor and f.no_terminals and f.no_five and len(f.suit_set) == 2


_add("three-treasures", _three_treasures, ("no-honor", "duanyao", "que-five", "que-one-suit"))
_add(
    "four-treasures",
    lambda f: _three_treasures(f) and not f.flowers,
    ("three-treasures", "no-honor-flower"),
)
_add(
    "five-treasures",
    lambda f: _three_treasures(f) and not f.flowers and _standard(f) and f.n_chows == 5,
    ("four-treasures", "pinghu", "clean-pinghu"),
)
_add(
    "six-treasures",
    lambda f: (
        _three_treasures(f) and not f.flowers and _standard(f) and f.n_chows == 5 and f.menqing
    ),
    ("five-treasures", "menqing"),
)

# -- 門齊 gates --------------------------------------------------------------------------------
_add("small-five-gates", lambda f: f.gates == "small")
_add("big-five-gates", lambda f: f.gates == "big")
_add(
    "small-seven-gates",
    lambda f: f.gates == "small" and f.seasons_and_plants,
    ("small-five-gates",),
)
_add("big-seven-gates", lambda f: f.gates == "big" and f.seasons_and_plants, ("big-five-gates",))

# -- 同順 same chows -------------------------------------------------------------------------
_add("sisters", lambda f: f.sister_pairs >= 1)
_oc("pungao", lambda f: f.pungao)
_oc("three-meet", lambda f: f.three_meet)  # its own chows are not counted as 姊妹
_oc("triple-pungao", lambda f: f.triple_pungao, ("pungao",))
_add("double-sisters", lambda f: f.sister_pairs >= 2, ("sisters",))
_oc("double-pungao", lambda f: f.double_pungao, ("pungao",))
_add("small-double-pungao", lambda f: f.small_double_pungao, ("pungao",))
_oc("four-meet", lambda f: f.four_meet, ("three-meet",))
_oc(
    "five-meet",
    lambda f: f.five_meet,
    (
        "all-sisters",
        "small-all-sisters",
        "four-meet",
        "three-meet",
        "sisters",
        "double-sisters",
        *PUNGAO,
        "all-pungao",
        "pinghu",
    ),
)
_oc("all-pungao", lambda f: f.all_pungao, (*PUNGAO, "pinghu", "all-sisters"))
_oc(
    "small-all-sisters",
    lambda f: f.small_all_sisters,
    ("sisters", "double-sisters", "pungao", "double-pungao", "small-double-pungao", "pinghu"),
)
_oc(
    "all-sisters",
    lambda f: f.all_sisters,
    (
        "small-all-sisters",
        "sisters",
        "double-sisters",
        "three-meet",
        "four-meet",
        *PUNGAO,
        "pinghu",
    ),
)

# -- 步高 / 龍 steps and straights --------------------------------------------------------------
_oc("mixed-v", lambda f: f.mixed_v)
_oc("pure-v", lambda f: f.pure_v)
_oc("mixed-dragon", lambda f: f.mixed_dragon)
_oc("pure-dragon", lambda f: f.pure_dragon, ("laoshao-chow",))
_oc("one-suit-four-step", lambda f: f.one_suit_four_step, ("pure-v",))
_oc("three-suit-four-step", lambda f: f.three_suit_four_step, ("mixed-v",))
_oc("mixed-ladder", lambda f: f.mixed_ladder, ("pinghu", *STEPS))
_oc("pure-ladder", lambda f: f.pure_ladder, ("pinghu", *STEPS))
_oc(
    "double-dragon-meet",
    lambda f: f.double_dragon_meet,
    (*PUNGAO, "pure-dragon", "mixed-dragon", "sisters", "double-sisters", "laoshao-chow", "pinghu"),
)
_oc(
    "double-mixed-dragon",
    lambda f: f.double_mixed_dragon,
    (
        *PUNGAO,
        "double-sisters",
        "sisters",
        "mixed-dragon",
        "double-laoshao-chow",
        "laoshao-chow",
        "pinghu",
    ),
)
_oc(
    "double-pure-dragon",
    lambda f: f.double_pure_dragon,
    (*PUNGAO, "pure-dragon", "laoshao-chow", "double-laoshao-chow", "pinghu"),
)

# -- 老少 ---------------------------------------------------------------------------------------
_add("laoshao-chow", lambda f: f.laoshao_chows >= 1)
_add("laoshao-pung", lambda f: bool(f.laoshao_pung_suits))
_oc("double-laoshao-chow", lambda f: f.double_laoshao_chow, ("laoshao-chow", "double-sisters"))
_oc(
    "double-laoshao-pung",
    lambda f: f.double_laoshao_pung,
    ("laoshao-pung", "brothers", "small-three-brothers", "big-three-brothers", "all-brothers"),
)

# -- 對對胡 / 兄弟 -------------------------------------------------------------------------------
_add("all-pungs", lambda f: _standard(f) and len(f.pung_blocks) == 5)
_add("brothers", lambda f: f.brothers)
_add("small-three-brothers", lambda f: f.small_three_brothers, ("brothers",))
_add("big-three-brothers", lambda f: f.big_three_brothers, ("small-three-brothers", "brothers"))
_add(
    "all-brothers",
    lambda f: f.all_brothers,
    ("big-three-brothers", "small-three-brothers", "brothers", "two-numbers", "all-pungs"),
)

# -- 連刻 shifted pungs (one suit), graded -----------------------------------------------------
_series(
    (
        "two-consec-pung",
        "small-three-consec",
        "big-three-consec",
        "small-four-consec",
        "big-four-consec",
        "small-five-consec",
        "big-five-consec",
        "small-six-consec",
    ),
    (
        lambda f: f.consec_one_suit[0] >= 2,
        lambda f: f.consec_one_suit[1] >= 3,
        lambda f: f.consec_one_suit[0] >= 3,
        lambda f: f.consec_one_suit[1] >= 4,
        lambda f: f.consec_one_suit[0] >= 4,
        lambda f: f.consec_one_suit[1] >= 5,
        lambda f: f.consec_one_suit[0] >= 5,
        lambda f: f.consec_one_suit[1] >= 6,
    ),
    {"big-five-consec": ("all-pungs",), "small-six-consec": ("full-flush", "all-pungs")},
)
_series(
    (
        "small-mixed-three",
        "big-mixed-three",
        "small-mixed-four",
        "big-mixed-four",
        "small-mixed-five",
        "big-mixed-five",
        "small-mixed-six",
    ),
    (
        lambda f: f.consec_mixed[1] >= 3,
        lambda f: f.consec_mixed[0] >= 3,
        lambda f: f.consec_mixed[1] >= 4,
        lambda f: f.consec_mixed[0] >= 4,
        lambda f: f.consec_mixed[1] >= 5,
        lambda f: f.consec_mixed[0] >= 5,
        lambda f: f.consec_mixed[1] >= 6,
    ),
    {"big-mixed-five": ("all-pungs",), "small-mixed-six": ("all-pungs",)},
)

# -- 暗刻 concealed pungs, graded --------------------------------------------------------------
_series(
    ("two-concealed", "three-concealed", "four-concealed", "five-concealed"),
    (
        lambda f: f.concealed_pung_count >= 2,
        lambda f: f.concealed_pung_count >= 3,
        lambda f: f.concealed_pung_count >= 4,
        lambda f: f.five_concealed,
    ),
    {"five-concealed": ("all-pungs",)},
)
_add(
    "kan-kan",
    lambda f: f.kan_kan,
    ("five-concealed", "all-pungs", *MENQING_CLASS, "tsumo"),
)

# -- 槓 kongs, graded --------------------------------------------------------------------------
_add("rob-kong", lambda f: f.hand.win.robbing_kong)
_series(
    ("one-kong", "two-kong", "three-kong", "four-kong", "five-kong"),
    (
        lambda f: f.n_kongs >= 1,
        lambda f: f.n_kongs >= 2,
        lambda f: f.n_kongs >= 3,
        lambda f: f.n_kongs >= 4,
        lambda f: f.n_kongs >= 5,
    ),
    {},
)


# -- 歸 four alike -----------------------------------------------------------------------------
def _gui_count(kind: str) -> Callable[[H], int]:
    return lambda f: len(f.gui[kind])


def _gui_oc(pid: str, kind: str, count: bool, size: int, excludes: Iterable[str] = ()) -> None:
    d = table()[pid]
    op, cl = d.open, d.closed
    if count:

        def state(f: H) -> int:
            return f._gui_single(kind)

        _add(
            pid,
            _gui_count(kind),
            excludes,
            value=lambda f: cl if state(f) == 2 else op,
        )
    else:

        def state2(f: H) -> int:
            return f._gui_group(kind, size)

        _add(pid, lambda f: state2(f) > 0, excludes, value=lambda f: cl if state2(f) == 2 else op)


_gui_oc("four-gui-one", "one", True, 1)
_gui_oc("four-gui-two", "two", True, 1)
_gui_oc("four-gui-four", "four", True, 1)
_gui_oc("eight-gui-one", "one", False, 2, ("four-gui-one",))
_gui_oc("eight-gui-four", "four", False, 2, ("four-gui-four",))
_gui_oc("twelve-gui-one", "one", False, 3, ("eight-gui-one", "four-gui-one"))
_gui_oc(
    "twelve-gui-four",
    "four",
    False,
    3,
    ("eight-gui-four", "four-gui-four", "pungao", "double-pungao", "triple-pungao"),
)

# -- 風 / 三元 winds and dragons ----------------------------------------------------------------
_add("small-three-winds", lambda f: f.wind_pungs == 2 and f.wind_eye, ("wind-pung",))
_add("big-three-winds", lambda f: f.wind_pungs >= 3, ("wind-pung", "small-three-winds"))
_add(
    "small-four-winds",
    lambda f: f.wind_pungs == 3 and f.wind_eye,
    ("wind-pung", "big-three-winds", "small-three-winds"),
)
_add(
    "big-four-winds",
    lambda f: f.wind_pungs == 4,
    ("wind-pung", "small-four-winds", "big-three-winds", "small-three-winds"),
)
_add("small-three-dragons", lambda f: f.dragon_pungs == 2 and f.dragon_eye_honor, ("dragon-pung",))
_add("big-three-dragons", lambda f: f.dragon_pungs == 3, ("dragon-pung", "small-three-dragons"))

# -- 門清 --------------------------------------------------------------------------------------
_add("menqing", lambda f: f.menqing)
_add("menqing-big-ting", lambda f: f.ting and f.fully_concealed, ("ting", "dingpai"))
_add(
    "men-ting-mo",
    lambda f: f.standard and f.ting and f.menqing and f.self_drawn and f.ting_timing == "normal",
    ("tsumo",),
)

# -- 求人 --------------------------------------------------------------------------------------
_add("half-qiuren", lambda f: f.qiuren and f.self_drawn, ("true-single", "tsumo"))
_add("full-qiuren", lambda f: f.qiuren and not f.self_drawn, ("true-single",))

# -- 速度 first turn / tiles left --------------------------------------------------------------
_FAST = ("four-left", "seven-left", "ten-left")
_add("heaven-win", lambda f: f.ctx("first_turn") == "heaven", (*MENQING_CLASS, "tsumo", *_FAST))
_add("earth-win", lambda f: f.ctx("first_turn") == "earth", (*MENQING_CLASS, *_FAST))
_add("human-win", lambda f: f.ctx("first_turn") == "human", (*MENQING_CLASS, "tsumo", *_FAST))
_add(
    "four-left",
    lambda f: f.tiles_left is not None and f.tiles_left <= 4,
    ("seven-left", "ten-left"),
)
_add("seven-left", lambda f: f.tiles_left is not None and f.tiles_left <= 7, ("ten-left",))
_add("ten-left", lambda f: f.tiles_left is not None and f.tiles_left <= 10)

# -- 嚦咕嚦咕 -----------------------------------------------------------------------------------
_add("likgu", lambda f: f.shape == LIKGU, (*MQ, *WIN_FORM))
_add("big-likgu", lambda f: f.double_pairs, points=10)
_series(
    (
        "suit-three-pairs",
        "suit-four-pairs",
        "suit-five-pairs",
        "suit-six-pairs",
        "suit-seven-pairs",
    ),
    (
        lambda f: f.likgu_runs >= 3,
        lambda f: f.likgu_runs >= 4,
        lambda f: f.likgu_runs >= 5,
        lambda f: f.likgu_runs >= 6,
        lambda f: f.likgu_runs >= 7,
    ),
    {},
)
_add("heaven-likgu", lambda f: f.heaven_likgu)
_add("eight-wait", lambda f: f.eight_wait)

# -- 十六不搭 ----------------------------------------------------------------------------------
_add("sixteen", lambda f: f.shape == SIXTEEN, (*MQ, *WIN_FORM, *GATES))
_add(
    "sixteen-meet",
    lambda f: f.sixteen_kind == "meet",
    ("sixteen", *MQ, *WIN_FORM, *GATES),
)
_add(
    "true-sixteen",
    lambda f: f.sixteen_kind == "true",
    ("sixteen", *MQ, *WIN_FORM, *GATES),
)
_add(
    "sixteen-wait",
    lambda f: f.shape == SIXTEEN and all(n <= 1 for n in f.pre_win_counts),
)

# -- 十三么 ------------------------------------------------------------------------------------
_add(
    "thirteen-orphans",
    lambda f: f.shape == ORPHANS,
    (*MQ, *WIN_FORM, *GATES),
)
_add(
    "thirteen-wait",
    lambda f: f.shape == ORPHANS and sum(1 for t in f.waits if t.is_terminal_or_honor) == 13,
)
_add(
    "orphan-terminal-chow",
    lambda f: (
        f.orphan_set is not None
        and f.orphan_set.kind.value == "chow"
        and any(t.is_terminal for t in f.orphan_set.tiles)
    ),
)
_add(
    "orphan-honor-pung",
    lambda f: (
        f.orphan_set is not None
        and f.orphan_set.is_pung_like
        and f.orphan_set.tile.is_terminal_or_honor
    ),
    ("mixed-odd",),  # "混老頭十三么": the +60 prices the all-terminal/honour hand
)

# -- 一色 flushes -------------------------------------------------------------------------------
_add("half-flush", lambda f: f.has_honors and len(f.suit_set) == 1)
_add("full-flush", lambda f: f.pure and len(f.suit_set) == 1, ("no-honor",))
_add("all-green", lambda f: f.all_green, ("half-flush",))
_add("all-honors", lambda f: not f.has_suited, ("all-pungs", "wind-pung", "dragon-pung"))
_add(
    "dark-flush",
    lambda f: f.all_dark,
    ("wind-pung", "dragon-pung", "mixed-even", "mixed-big", "mixed-dragon-eyes"),
)

# -- 九子連環 ----------------------------------------------------------------------------------
_add("nine-gates", lambda f: f.nine_gates[0])
_add("nine-wait", lambda f: f.nine_gates[1])

# -- 么 terminals -----------------------------------------------------------------------------
_add("mixed-outside", lambda f: f.outside and f.mixed)
_add("pure-outside", lambda f: f.outside and f.pure, ("que-five",))
_add(
    "mixed-terminals",
    lambda f: f.mixed and f.all_orphans and f.shape in ("standard", LIKGU),
    ("mixed-odd", "mixed-outside"),
)
_add(
    "pure-terminals",
    lambda f: f.pure and f.all_orphans and f.shape in ("standard", LIKGU),
    (
        "pure-outside",
        "all-brothers",
        "two-numbers",
        "all-odd",
        "all-pungs",
        "no-honor",
        "que-five",
        "small-three-brothers",
        "big-three-brothers",
        "brothers",
        "double-laoshao-pung",
        "laoshao-pung",
    ),
)


# -- 全帶 all contain one number -----------------------------------------------------------------
def _end_number(f: H) -> bool:
    return f.contain_number in (1, 9)


_add(
    "mixed-all-contain",
    lambda f: f.contain_number > 0 and f.mixed,
    when=((_end_number, ("mixed-big", "mixed-small")),),
)
_add(
    "pure-all-contain",
    lambda f: f.contain_number > 0 and f.pure,
    when=((_end_number, ("no-honor", "que-five", "pure-big", "pure-small")),),
)

# -- 大小 big / small numbers -------------------------------------------------------------------
_add("mixed-small", lambda f: f.mixed and f.numbers_within((1, 2, 3, 4)))
_add("mixed-big", lambda f: f.mixed and f.numbers_within((6, 7, 8, 9)))
_add("pure-small", lambda f: f.pure and f.numbers_within((1, 2, 3, 4)), ("no-honor", *MISSING))
_add("pure-big", lambda f: f.pure and f.numbers_within((6, 7, 8, 9)), ("no-honor", *MISSING))

# -- 其它 numbers, eyes, chicken -----------------------------------------------------------------
_add(
    "dragon-eye",
    lambda f: f.eye is not None and f.eye.is_suited and f.eye.number in (2, 5, 8),
)
_add("two-numbers", lambda f: f.pure and len(f.suited_numbers) == 2, ("three-numbers",))
_add("three-numbers", lambda f: f.pure and len(f.suited_numbers) <= 3)
_add("all-odd", lambda f: f.pure and f.numbers_within((1, 3, 5, 7, 9)))
_add("all-even", lambda f: f.pure and f.numbers_within((2, 4, 6, 8)))
_add("mixed-odd", lambda f: f.mixed and f.numbers_within((1, 3, 5, 7, 9)))
_add("mixed-even", lambda f: f.mixed and f.numbers_within((2, 4, 6, 8)))
_add(
    "all-dragon-eyes",
    lambda f: f.pure and f.numbers_within((2, 5, 8)),
    ("duanyao", "three-numbers"),
)
_add("mixed-dragon-eyes", lambda f: f.mixed and f.numbers_within((2, 5, 8)))


def _chicken_base(f: H) -> bool:
    """The hand's fans, apart from those 大雞胡 ignores, are only 無花 2 or 花 1."""
    rest = f.base_ids - CHICKEN_IGNORED - {"tsumo"}
    if not (_standard(f) and f.eye is not None and f.eye.is_honor):
        return False
    return rest == {"no-flower"} or (rest == {"flower"} and f.flower_points == 1)


_add("big-chicken", lambda f: not f.self_drawn and _chicken_base(f), ("no-flower", "flower"))
_add(
    "big-duck",
    lambda f: f.self_drawn and "tsumo" in f.base_ids and _chicken_base(f),
    ("no-flower", "flower", "tsumo"),
)

# -- the flower wins drop every hand fan ("不再計牌型番數") --------------------------------------
_KEEP = frozenset({"dealer", "dealer-streak", "double-win", "triple-win", "fanxue", *FLOWER_WINS})
#: The rows a flower win on an incomplete hand is scored with (no hand to look at).
FLOWER_WIN_ROWS = _KEEP
_HAND_FANS = frozenset(p.id for p in _rows) - _KEEP
for _i, _p in enumerate(_rows):
    if _p.id in ("seven-flowers", "seven-robs-one", "eight-flowers"):
        _rows[_i] = Pattern(
            id=_p.id,
            name=_p.name,
            en=_p.en,
            points=_p.points,
            predicate=_p.predicate,
            excludes=_p.excludes | _HAND_FANS,
            category=_p.category,
        )

PATTERNS: tuple[Pattern[H], ...] = tuple(_rows)
