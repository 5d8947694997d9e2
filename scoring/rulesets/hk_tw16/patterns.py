"""The pattern table of 港式台牌 V1: one row per fan of a win (171 rows).

:data:`TABLE` is a tuple of :class:`~scoring.rows.Row`. Each row names a JSON id; its
Chinese name, category and value come from the package data
(:mod:`scoring.rulesets.hk_tw16.data`, bound by :func:`~scoring.rows.bind`). The row adds a
predicate over :class:`~scoring.rulesets.hk_tw16.features.HKFeatures`, the ids it supersedes
(the table's "不再計 / 不計" sentences and the graded series of the readings), and for 明/暗
and formula fans the value. The ``instant`` and ``penalty`` categories are events, not fans of a win:
see :mod:`scoring.rulesets.hk_tw16.events`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from scoring.rows import Row, RowData
from scoring.rulesets.hk_tw16.data import EN, table
from scoring.rulesets.hk_tw16.features import HKFeatures
from scoring.rulesets.hk_tw16.shapes import LIKGU, ORPHANS, SIXTEEN

__all__ = [
    "CHICKEN_IGNORED",
    "CONSEC_PUNGS",
    "FLOWER_WIN_ROWS",
    "IDS",
    "META",
    "MIXED_PUNGS",
    "TABLE",
    "has_hand",
    "row_data",
]

H = HKFeatures

#: 連刻 shifted pungs of one suit, graded (each supersedes the ones before it)
CONSEC_PUNGS = (
    "two-consec-pung",
    "small-three-consec",
    "big-three-consec",
    "small-four-consec",
    "big-four-consec",
    "small-five-consec",
    "big-five-consec",
    "small-six-consec",
)
#: shifted pungs over the three suits, graded
MIXED_PUNGS = (
    "small-mixed-three",
    "big-mixed-three",
    "small-mixed-four",
    "big-mixed-four",
    "small-mixed-five",
    "big-mixed-five",
    "small-mixed-six",
)
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


def _oc(pid: str, attr: Callable[[H], int], excludes: Iterable[str] = ()) -> Row[H]:
    """A 明/暗 row: ``attr`` is 0 / 1 (open) / 2 (closed); the values are the data's."""
    d = table()[pid]
    op, cl = d.open, d.closed
    return Row(
        pid, lambda f: attr(f) > 0, frozenset(excludes), value=lambda f: cl if attr(f) == 2 else op
    )


def _series(
    ids: Iterable[str], preds: Iterable[Pred], extra: dict[str, tuple[str, ...]]
) -> tuple[Row[H], ...]:
    """A graded series: each step supersedes every step below it."""
    lower: list[str] = []
    out: list[Row[H]] = []
    for pid, pred in zip(ids, preds, strict=True):
        out.append(Row(pid, pred, frozenset((*lower, *extra.get(pid, ())))))
        lower.append(pid)
    return tuple(out)


def _gui_oc(pid: str, kind: str, count: bool, size: int, excludes: Iterable[str] = ()) -> Row[H]:
    """A 歸 row: counted per four-alike (``count``) or over ``size`` of them, 明/暗 valued."""
    d = table()[pid]
    op, cl = d.open, d.closed
    if count:

        def state(f: H) -> int:
            return f._gui_single(kind)

        return Row(
            pid, _gui_count(kind), frozenset(excludes), value=lambda f: cl if state(f) == 2 else op
        )

    def state2(f: H) -> int:
        return f._gui_group(kind, size)

    return Row(
        pid,
        lambda f: state2(f) > 0,
        frozenset(excludes),
        value=lambda f: cl if state2(f) == 2 else op,
    )


def _standard(f: H) -> bool:
    return f.standard


def _three_treasures(f: H) -> bool:
    return f.no_honor and f.no_terminals and f.no_five and len(f.suit_set) == 2


def _gui_count(kind: str) -> Callable[[H], int]:
    return lambda f: len(f.gui[kind])


_FAST = ("four-left", "seven-left", "ten-left")


def _end_number(f: H) -> bool:
    return f.contain_number in (1, 9)


def _chicken_base(f: H) -> bool:
    """The hand's fans, apart from those 大雞胡 ignores, are only 無花 2 or 花 1."""
    rest = f.counted - CHICKEN_IGNORED - {"tsumo"}
    if not (_standard(f) and f.eye is not None and f.eye.is_honor):
        return False
    return rest == {"no-flower"} or (rest == {"flower"} and f.flower_points == 1)


#: What a flower win scores with ("不再計牌型番數": every hand fan is superseded).
_KEEP = frozenset({"dealer", "dealer-streak", "double-win", "triple-win", "fanxue", *FLOWER_WINS})

#: The rows a flower win on an incomplete hand is scored with (no hand to look at).
FLOWER_WIN_ROWS = _KEEP


#: The win rows, section by section as the readings group them.
TABLE: tuple[Row[H], ...] = (
    # -- 花字類 flowers and honours ---------------------------------------------------------------
    Row("no-flower", lambda f: not f.flowers),
    Row("flower", lambda f: f.flower_points),
    Row("no-honor", lambda f: f.no_honor),
    Row("wind-pung", lambda f: f.wind_pungs),
    Row("dragon-pung", lambda f: f.dragon_pungs),
    Row("no-honor-flower", lambda f: f.no_honor and not f.flowers, ("no-honor", "no-flower")),
    Row(
        "seven-flowers",
        lambda f: f.flower_win == "seven-flowers" and len(f.flowers) == 7,
        ("flower",),
        only_with=_KEEP,
    ),
    Row(
        "one-robs-seven",
        lambda f: f.flower_win == "one-robs-seven",
        ("flower", "six-wrong-flowers"),
    ),
    Row(
        "seven-robs-one",
        lambda f: f.flower_win == "seven-robs-one" and len(f.flowers) == 7,
        ("seven-flowers", "flower"),
        only_with=_KEEP,
    ),
    Row(
        "eight-flowers", lambda f: len(f.flowers) == 8, ("flower", "seven-flowers"), only_with=_KEEP
    ),
    Row(
        "six-wrong-flowers",
        lambda f: len(f.flowers) == 6 and f.seat_flowers == 0,
        ("flower",),
        note="read as replacing the six flowers' 花 points; the hand's other fans count",
    ),
    Row("ting", lambda f: f.ting and f.menqing, ("dingpai",)),
    Row("instant-eat", lambda f: f.ting and f.context.ting_instant),
    Row("heaven-ting", lambda f: f.ting_timing == "heaven", (*MQ, *TING, "earth-ting")),
    Row("earth-ting", lambda f: f.ting_timing == "earth", (*MQ, *TING)),
    # -- 莊 dealer ---------------------------------------------------------------------------------
    Row("dealer", lambda f: f.context.dealer),
    Row(
        "dealer-streak",
        lambda f: f.context.dealer and f.streak > 0,
        value=lambda f: 2 * f.streak,
        points=2,
    ),
    # -- 胡牌型式 win form -------------------------------------------------------------------------
    Row("fake-single", lambda f: f.win_form == "fake-single"),
    Row("pair-wait", lambda f: f.win_form == "pair-wait"),
    Row("true-single", lambda f: f.win_form == "true-single"),
    # -- 平胡 --------------------------------------------------------------------------------------
    Row("pinghu", lambda f: _standard(f) and f.n_chows == 5),
    Row(
        "clean-pinghu",
        lambda f: _standard(f) and f.n_chows == 5 and f.no_honor and not f.flowers,
        ("no-honor-flower", "pinghu"),
    ),
    # -- 自摸 --------------------------------------------------------------------------------------
    Row(
        "tsumo",
        lambda f: f.self_drawn and f.flower_win is None,
        value=lambda f: 1 if f.special or not f.menqing else table()["tsumo"].closed,
    ),
    Row("flower-tsumo", lambda f: f.self_drawn and f.replacements[-1:] == ("flower",)),
    Row("kong-tsumo", lambda f: f.self_drawn and f.replacements[-1:] == ("kong",)),
    Row(
        "chain-flower-kong-tsumo",
        lambda f: f.chain_value > 0,
        ("flower-tsumo", "kong-tsumo"),
        value=lambda f: f.chain_value,
        points=0,
    ),
    # -- 海底 / 河底 / 絕絕 ------------------------------------------------------------------------
    Row("haidi", lambda f: f.hand.win.last_tile and f.self_drawn),
    Row("hedi", lambda f: f.hand.win.last_tile and not f.self_drawn),
    Row("last-tile-absolute", lambda f: f.juejue_n, points=15),
    # -- 雙響 / 三響 / 反雪 -------------------------------------------------------------------------
    Row("double-win", lambda f: f.winners == 2),
    Row("triple-win", lambda f: f.winners == 3),
    Row("fanxue", lambda f: f.fanxue > 0, value=lambda f: 2 * f.fanxue, points=0),
    # -- 缺類 missing ------------------------------------------------------------------------------
    Row("duanyao", lambda f: f.no_honor and f.no_terminals, ("no-honor",)),
    Row("que-five", lambda f: f.no_honor and f.no_five, ("no-honor",)),
    Row("que-one-suit", lambda f: f.no_honor and len(f.suit_set) == 2, ("no-honor",)),
    Row("three-treasures", _three_treasures, ("no-honor", "duanyao", "que-five", "que-one-suit")),
    Row(
        "four-treasures",
        lambda f: _three_treasures(f) and not f.flowers,
        ("three-treasures", "no-honor-flower"),
    ),
    Row(
        "five-treasures",
        lambda f: _three_treasures(f) and not f.flowers and _standard(f) and f.n_chows == 5,
        ("four-treasures", "pinghu", "clean-pinghu"),
    ),
    Row(
        "six-treasures",
        lambda f: (
            _three_treasures(f) and not f.flowers and _standard(f) and f.n_chows == 5 and f.menqing
        ),
        ("five-treasures", "menqing"),
    ),
    # -- 門齊 gates --------------------------------------------------------------------------------
    Row("small-five-gates", lambda f: f.gates == "small"),
    Row("big-five-gates", lambda f: f.gates == "big"),
    Row(
        "small-seven-gates",
        lambda f: f.gates == "small" and f.seasons_and_plants,
        ("small-five-gates",),
    ),
    Row(
        "big-seven-gates", lambda f: f.gates == "big" and f.seasons_and_plants, ("big-five-gates",)
    ),
    # -- 同順 same chows -------------------------------------------------------------------------
    Row("sisters", lambda f: f.sister_pairs >= 1),
    _oc("pungao", lambda f: f.pungao),
    _oc("three-meet", lambda f: f.three_meet),
    _oc("triple-pungao", lambda f: f.triple_pungao, ("pungao",)),
    # -- 步高 / 龍 steps and straights --------------------------------------------------------------
    _oc("mixed-v", lambda f: f.mixed_v),
    _oc("pure-v", lambda f: f.pure_v),
    _oc("mixed-dragon", lambda f: f.mixed_dragon),
    _oc("pure-dragon", lambda f: f.pure_dragon, ("laoshao-chow",)),
    _oc("one-suit-four-step", lambda f: f.one_suit_four_step, ("pure-v",)),
    _oc("three-suit-four-step", lambda f: f.three_suit_four_step, ("mixed-v",)),
    _oc("mixed-ladder", lambda f: f.mixed_ladder, ("pinghu", *STEPS)),
    _oc("pure-ladder", lambda f: f.pure_ladder, ("pinghu", *STEPS)),
    Row("double-sisters", lambda f: f.sister_pairs >= 2, ("sisters",)),
    _oc("double-pungao", lambda f: f.double_pungao, ("pungao",)),
    Row("small-double-pungao", lambda f: f.small_double_pungao, ("pungao",)),
    _oc("four-meet", lambda f: f.four_meet, ("three-meet",)),
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
    ),
    _oc("all-pungao", lambda f: f.all_pungao, (*PUNGAO, "pinghu", "all-sisters")),
    _oc(
        "small-all-sisters",
        lambda f: f.small_all_sisters,
        ("sisters", "double-sisters", "pungao", "double-pungao", "small-double-pungao", "pinghu"),
    ),
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
    ),
    _oc(
        "double-dragon-meet",
        lambda f: f.double_dragon_meet,
        (
            *PUNGAO,
            "pure-dragon",
            "mixed-dragon",
            "sisters",
            "double-sisters",
            "laoshao-chow",
            "pinghu",
        ),
    ),
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
    ),
    _oc(
        "double-pure-dragon",
        lambda f: f.double_pure_dragon,
        (*PUNGAO, "pure-dragon", "laoshao-chow", "double-laoshao-chow", "pinghu"),
    ),
    # -- 老少 ---------------------------------------------------------------------------------------
    Row("laoshao-chow", lambda f: f.laoshao_chows >= 1),
    Row("laoshao-pung", lambda f: bool(f.laoshao_pung_suits)),
    _oc("double-laoshao-chow", lambda f: f.double_laoshao_chow, ("laoshao-chow", "double-sisters")),
    _oc(
        "double-laoshao-pung",
        lambda f: f.double_laoshao_pung,
        ("laoshao-pung", "brothers", "small-three-brothers", "big-three-brothers", "all-brothers"),
    ),
    # -- 對對胡 / 兄弟 -------------------------------------------------------------------------------
    Row("all-pungs", lambda f: _standard(f) and len(f.pung_blocks) == 5),
    Row("brothers", lambda f: f.brothers),
    Row("small-three-brothers", lambda f: f.small_three_brothers, ("brothers",)),
    Row("big-three-brothers", lambda f: f.big_three_brothers, ("small-three-brothers", "brothers")),
    Row(
        "all-brothers",
        lambda f: f.all_brothers,
        ("big-three-brothers", "small-three-brothers", "brothers", "two-numbers", "all-pungs"),
    ),
    # -- 連刻 shifted pungs (one suit), graded -----------------------------------------------------
    *_series(
        CONSEC_PUNGS,
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
    ),
    *_series(
        MIXED_PUNGS,
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
    ),
    # -- 暗刻 concealed pungs, graded --------------------------------------------------------------
    *_series(
        ("two-concealed", "three-concealed", "four-concealed", "five-concealed"),
        (
            lambda f: f.concealed_pung_count >= 2,
            lambda f: f.concealed_pung_count >= 3,
            lambda f: f.concealed_pung_count >= 4,
            lambda f: f.five_concealed,
        ),
        {"five-concealed": ("all-pungs",)},
    ),
    Row("kan-kan", lambda f: f.kan_kan, ("five-concealed", "all-pungs", *MENQING_CLASS, "tsumo")),
    # -- 槓 kongs, graded --------------------------------------------------------------------------
    Row("rob-kong", lambda f: f.hand.win.robbing_kong),
    *_series(
        ("one-kong", "two-kong", "three-kong", "four-kong", "five-kong"),
        (
            lambda f: f.n_kongs >= 1,
            lambda f: f.n_kongs >= 2,
            lambda f: f.n_kongs >= 3,
            lambda f: f.n_kongs >= 4,
            lambda f: f.n_kongs >= 5,
        ),
        {},
    ),
    # -- 歸 four alike -----------------------------------------------------------------------------
    _gui_oc("four-gui-one", "one", True, 1),
    _gui_oc("four-gui-two", "two", True, 1),
    _gui_oc("four-gui-four", "four", True, 1),
    _gui_oc("eight-gui-one", "one", False, 2, ("four-gui-one",)),
    _gui_oc("eight-gui-four", "four", False, 2, ("four-gui-four",)),
    _gui_oc("twelve-gui-one", "one", False, 3, ("eight-gui-one", "four-gui-one")),
    _gui_oc(
        "twelve-gui-four",
        "four",
        False,
        3,
        ("eight-gui-four", "four-gui-four", "pungao", "double-pungao", "triple-pungao"),
    ),
    # -- 風 / 三元 winds and dragons ----------------------------------------------------------------
    Row("small-three-winds", lambda f: f.wind_pungs == 2 and f.wind_eye, ("wind-pung",)),
    Row("big-three-winds", lambda f: f.wind_pungs >= 3, ("wind-pung", "small-three-winds")),
    Row(
        "small-four-winds",
        lambda f: f.wind_pungs == 3 and f.wind_eye,
        ("wind-pung", "big-three-winds", "small-three-winds"),
    ),
    Row(
        "big-four-winds",
        lambda f: f.wind_pungs == 4,
        ("wind-pung", "small-four-winds", "big-three-winds", "small-three-winds"),
    ),
    Row(
        "small-three-dragons",
        lambda f: f.dragon_pungs == 2 and f.dragon_eye_honor,
        ("dragon-pung",),
    ),
    Row("big-three-dragons", lambda f: f.dragon_pungs == 3, ("dragon-pung", "small-three-dragons")),
    # -- 門清 --------------------------------------------------------------------------------------
    Row("menqing", lambda f: f.menqing),
    Row("menqing-big-ting", lambda f: f.ting and f.fully_concealed, ("ting", "dingpai")),
    Row(
        "men-ting-mo",
        lambda f: (
            f.standard and f.ting and f.menqing and f.self_drawn and f.ting_timing == "normal"
        ),
        ("tsumo",),
    ),
    # -- 求人 --------------------------------------------------------------------------------------
    Row("half-qiuren", lambda f: f.qiuren and f.self_drawn, ("true-single", "tsumo")),
    Row("full-qiuren", lambda f: f.qiuren and not f.self_drawn, ("true-single",)),
    Row("heaven-win", lambda f: f.context.heaven, (*MENQING_CLASS, "tsumo", *_FAST)),
    Row("earth-win", lambda f: f.context.earth, (*MENQING_CLASS, *_FAST)),
    Row("human-win", lambda f: f.context.human, (*MENQING_CLASS, "tsumo", *_FAST)),
    Row(
        "four-left",
        lambda f: f.tiles_left is not None and f.tiles_left <= 4,
        ("seven-left", "ten-left"),
    ),
    Row("seven-left", lambda f: f.tiles_left is not None and f.tiles_left <= 7, ("ten-left",)),
    Row("ten-left", lambda f: f.tiles_left is not None and f.tiles_left <= 10),
    # -- 嚦咕嚦咕 -----------------------------------------------------------------------------------
    Row("likgu", lambda f: f.shape == LIKGU, (*MQ, *WIN_FORM)),
    Row("big-likgu", lambda f: f.double_pairs, points=10),
    *_series(
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
    ),
    Row("heaven-likgu", lambda f: f.heaven_likgu),
    Row("eight-wait", lambda f: f.eight_wait),
    # -- 十六不搭 ----------------------------------------------------------------------------------
    Row("sixteen", lambda f: f.shape == SIXTEEN, (*MQ, *WIN_FORM, *GATES)),
    Row("sixteen-meet", lambda f: f.sixteen_kind == "meet", ("sixteen", *MQ, *WIN_FORM, *GATES)),
    Row("true-sixteen", lambda f: f.sixteen_kind == "true", ("sixteen", *MQ, *WIN_FORM, *GATES)),
    Row("sixteen-wait", lambda f: f.shape == SIXTEEN and all(n <= 1 for n in f.pre_win_counts)),
    # -- 十三么 ------------------------------------------------------------------------------------
    Row("thirteen-orphans", lambda f: f.shape == ORPHANS, (*MQ, *WIN_FORM, *GATES)),
    Row(
        "thirteen-wait",
        lambda f: f.shape == ORPHANS and sum(1 for t in f.waits if t.is_terminal_or_honor) == 13,
    ),
    Row(
        "orphan-terminal-chow",
        lambda f: (
            f.orphan_set is not None
            and f.orphan_set.kind.value == "chow"
            and any(t.is_terminal for t in f.orphan_set.tiles)
        ),
    ),
    Row(
        "orphan-honor-pung",
        lambda f: (
            f.orphan_set is not None
            and f.orphan_set.is_pung_like
            and f.orphan_set.tile.is_terminal_or_honor
        ),
        ("mixed-odd",),
    ),
    # -- 一色 flushes -------------------------------------------------------------------------------
    Row("half-flush", lambda f: f.has_honors and len(f.suit_set) == 1),
    Row("full-flush", lambda f: f.pure and len(f.suit_set) == 1, ("no-honor",)),
    Row("all-green", lambda f: f.all_green, ("half-flush",)),
    Row("all-honors", lambda f: not f.has_suited, ("all-pungs", "wind-pung", "dragon-pung")),
    Row(
        "dark-flush",
        lambda f: f.all_dark,
        ("wind-pung", "dragon-pung", "mixed-even", "mixed-big", "mixed-dragon-eyes"),
    ),
    # -- 九子連環 ----------------------------------------------------------------------------------
    Row("nine-gates", lambda f: f.nine_gates[0]),
    Row("nine-wait", lambda f: f.nine_gates[1]),
    # -- 么 terminals -----------------------------------------------------------------------------
    Row("mixed-outside", lambda f: f.outside and f.mixed),
    Row("pure-outside", lambda f: f.outside and f.pure, ("que-five",)),
    Row(
        "mixed-terminals",
        lambda f: f.mixed and f.all_orphans and f.shape in ("standard", LIKGU),
        ("mixed-odd", "mixed-outside"),
    ),
    Row(
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
    ),
    # -- 全帶 all contain one number -----------------------------------------------------------------
    Row(
        "mixed-all-contain",
        lambda f: f.contain_number > 0 and f.mixed,
        excludes_when=((_end_number, ("mixed-big", "mixed-small")),),
    ),
    Row(
        "pure-all-contain",
        lambda f: f.contain_number > 0 and f.pure,
        excludes_when=((_end_number, ("no-honor", "que-five", "pure-big", "pure-small")),),
    ),
    # -- 大小 big / small numbers -------------------------------------------------------------------
    Row("mixed-small", lambda f: f.mixed and f.numbers_within((1, 2, 3, 4))),
    Row("mixed-big", lambda f: f.mixed and f.numbers_within((6, 7, 8, 9))),
    Row("pure-small", lambda f: f.pure and f.numbers_within((1, 2, 3, 4)), ("no-honor", *MISSING)),
    Row("pure-big", lambda f: f.pure and f.numbers_within((6, 7, 8, 9)), ("no-honor", *MISSING)),
    # -- 其它 numbers, eyes, chicken -----------------------------------------------------------------
    Row(
        "dragon-eye", lambda f: f.eye is not None and f.eye.is_suited and f.eye.number in (2, 5, 8)
    ),
    Row("two-numbers", lambda f: f.pure and len(f.suited_numbers) == 2, ("three-numbers",)),
    Row("three-numbers", lambda f: f.pure and len(f.suited_numbers) <= 3),
    Row("all-odd", lambda f: f.pure and f.numbers_within((1, 3, 5, 7, 9))),
    Row("all-even", lambda f: f.pure and f.numbers_within((2, 4, 6, 8))),
    Row("mixed-odd", lambda f: f.mixed and f.numbers_within((1, 3, 5, 7, 9))),
    Row("mixed-even", lambda f: f.mixed and f.numbers_within((2, 4, 6, 8))),
    Row(
        "all-dragon-eyes",
        lambda f: f.pure and f.numbers_within((2, 5, 8)),
        ("duanyao", "three-numbers"),
    ),
    Row("mixed-dragon-eyes", lambda f: f.mixed and f.numbers_within((2, 5, 8))),
    Row(
        "big-chicken",
        lambda f: not f.self_drawn and _chicken_base(f),
        ("no-flower", "flower"),
        reads_counted=True,
    ),
    Row(
        "big-duck",
        lambda f: f.self_drawn and "tsumo" in f.counted and _chicken_base(f),
        ("no-flower", "flower", "tsumo"),
        reads_counted=True,
    ),
    # -- 叮 ting -----------------------------------------------------------------------------------
    Row("dingpai", lambda f: f.ting),
)


def has_hand(f: H) -> bool:
    """A hand to look at: every row but :data:`FLOWER_WIN_ROWS` needs one (a flower win may
    be declared on an incomplete hand)."""
    return f.shape != "flower-win"


def row_data() -> dict[str, RowData]:
    """The win rows of the JSON (not the instant / penalty events): name, value, gloss."""
    return {
        pid: RowData(
            d.name,
            d.n if d.kind in ("fixed", "plus") else d.closed,
            en=EN[pid],
            category=d.category,
        )
        for pid, d in table().items()
        if pid in IDS
    }


IDS = frozenset(r.id for r in TABLE)
