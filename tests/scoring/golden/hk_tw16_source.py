"""Authoring source of hk_tw16.jsonl (the hk-tw16 golden cases).

    python tests/scoring/golden/hk_tw16_source.py      # rewrites hk_tw16.jsonl

Every expected breakdown below was worked out by hand from the table
(scoring/data/hk_taiwan_16_v1.json) and the readings in docs/rules/hk-tw16.md; the case name
says what the case shows and which exclusion it exercises. The engine is never consulted
here. Where a first hand-derived breakdown and the engine disagreed, the hand was re-checked
tile by tile against the table: some differences were engine bugs, fixed in the engine (a
static exclusion closure that removed 自摸 through 門叮摸, graded series that skipped a step,
flower wins losing the hand's fans), others were items the first pass had missed (a 混全帶
hidden in 234m 123s 345s, a second wait making 獨獨 a 假獨, 槓亦計暗刻), corrected here.

Notation: N = the neutral hand (234m exposed, 678m 567p 123s 345s, eye ww) — five chows
with no chow pattern: 無花 2 + 平胡 5 on a discard; FC = the same fully concealed.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parents[2]))

from hk_spec import hand  # noqa: E402

CASES: list[tuple[str, dict[str, Any], str]] = []


def case(name: str, h: dict[str, Any], expect: str) -> None:
    CASES.append((name, h, expect))


def N(**kw: Any) -> dict[str, Any]:
    """The neutral hand: 234m (exposed chow), 678m 567p 123s 34s+5s, eye ww."""
    kw.setdefault("sd", False)
    return hand("678m 567p 123s 3s 4s ww ww", "5s", melds="C:2m", **kw)


def FC(**kw: Any) -> dict[str, Any]:
    """The neutral hand fully concealed."""
    kw.setdefault("sd", False)
    return hand("234m 678m 567p 123s 3s 4s ww ww", "5s", **kw)


# ---- the neutral hand and its context variants ------------------------------------------
case("neutral discard", N(), "no-flower=2 pinghu=5")
case("neutral self-drawn: 自摸 1 (not 門清)", N(sd=True), "no-flower=2 pinghu=5 tsumo=1")
case("fully concealed discard: 門清 5", FC(), "no-flower=2 pinghu=5 menqing=5")
case("門清自摸: 門清 5 + 自摸 closed 5", FC(sd=True), "no-flower=2 pinghu=5 menqing=5 tsumo=5")
case("seat flower f1 for East: 1 + 1", N(flowers="f1"), "flower=2 pinghu=5")
case("two wrong flowers for East", N(flowers="f2 f3"), "flower=2 pinghu=5")
case("f1 f5 f2 for East: 3 + 2", N(flowers="f1 f5 f2"), "flower=5 pinghu=5")
case("f2 f6 for South: both seat flowers", N(flowers="f2 f6", seat="ws"), "flower=4 pinghu=5")
case("f4 f8 for West: none correct", N(flowers="f4 f8", seat="ww"), "flower=2 pinghu=5")
case(
    "six flowers one correct (f1 East): plain 花 7",
    N(flowers="f1 f2 f3 f4 f6 f7"),
    "flower=7 pinghu=5",
)
case(
    "六花不正 replaces the six flowers' 花",
    N(flowers="f2 f3 f4 f6 f7 f8"),
    "six-wrong-flowers=30 pinghu=5",
)
case(
    "六花不正 for North (f4 f8 absent)",
    N(flowers="f1 f2 f3 f5 f6 f7", seat="wn"),
    "six-wrong-flowers=30 pinghu=5",
)
case(
    "七隻花 on a complete hand drops every hand fan; 莊 and 連1 stay",
    N(flowers="f1 f2 f3 f4 f5 f6 f7", flower_win="seven-flowers", dealer=True, streak=1),
    "seven-flowers=20 dealer=1 dealer-streak=2",
)
case(
    "一搶七: only the flower fans go, the complete hand still counts",
    N(flowers="f8", flower_win="one-robs-seven"),
    "one-robs-seven=20 pinghu=5",
)
case(
    "兩台花 on a complete hand: 140 and nothing else",
    N(flowers="f1 f2 f3 f4 f5 f6 f7 f8"),
    "eight-flowers=140",
)
case(
    "七搶一: removes 七隻花 and the hand",
    N(flowers="f1 f2 f3 f4 f5 f6 f8", flower_win="seven-robs-one"),
    "seven-robs-one=30",
)

# ---- ting -------------------------------------------------------------------------------
case("叮牌 with an exposed chow", N(ting=True), "no-flower=2 pinghu=5 dingpai=5")
case(
    "門清叮 with a melded kong (門清 kept, 叮牌 removed)",
    hand("678m 567p 123s 3s 4s ww ww", "5s", melds="K:9m", sd=False, ting=True),
    "no-flower=2 one-kong=1 menqing=5 ting=15",
)
case(
    "門清大叮 fully concealed (門清叮, 叮牌 removed)",
    FC(ting=True),
    "no-flower=2 pinghu=5 menqing=5 menqing-big-ting=15",
)
case(
    "門叮摸 replaces 自摸",
    FC(sd=True, ting=True),
    "no-flower=2 pinghu=5 menqing=5 menqing-big-ting=15 men-ting-mo=8",
)
case(
    "即食 on top of 門清大叮",
    FC(ting=True, ting_instant=True),
    "no-flower=2 pinghu=5 menqing=5 menqing-big-ting=15 instant-eat=5",
)
case(
    "即食 after a plain 叮",
    N(ting=True, ting_instant=True, sd=True),
    "no-flower=2 pinghu=5 tsumo=1 dingpai=5 instant-eat=5",
)
case(
    "天聽 removes 門清類 and the lower ting fans",
    FC(ting=True, ting_timing="heaven"),
    "no-flower=2 pinghu=5 heaven-ting=70",
)
case(
    "地聽 self-drawn keeps 門清自摸 (no 門叮摸 under 地聽)",
    FC(ting=True, ting_timing="earth", sd=True),
    "no-flower=2 pinghu=5 earth-ting=60 tsumo=5",
)

# ---- dealer -----------------------------------------------------------------------------
case("莊", N(dealer=True), "no-flower=2 pinghu=5 dealer=1")
case("連3拉3", N(dealer=True, streak=3), "no-flower=2 pinghu=5 dealer=1 dealer-streak=6")
case("streak without dealer: nothing", N(streak=2), "no-flower=2 pinghu=5")

# ---- last tile, multi, tiles left -------------------------------------------------------
case("海底撈月", N(sd=True, win_last_tile=True), "no-flower=2 pinghu=5 tsumo=1 haidi=30")
case("河底撈魚", N(win_last_tile=True), "no-flower=2 pinghu=5 hedi=20")
case("絕絕 n=2", N(win_fourth_tile=True, juejue=2), "no-flower=2 pinghu=5 last-tile-absolute=30")
case("絕絕 default n=1", N(win_fourth_tile=True), "no-flower=2 pinghu=5 last-tile-absolute=15")
case("雙響", N(winners=2), "no-flower=2 pinghu=5 double-win=5")
case("三響", N(winners=3), "no-flower=2 pinghu=5 triple-win=15")
case("反雪: twice the 5 of a 雙響", N(sd=True, fanxue=5), "no-flower=2 pinghu=5 tsumo=1 fanxue=10")
case("反雪 needs a self-draw", N(fanxue=5), "no-flower=2 pinghu=5")
case("四子 removes 七子 and 十子", N(tiles_left=3), "no-flower=2 pinghu=5 four-left=40")
case("七子 removes 十子", N(tiles_left=6), "no-flower=2 pinghu=5 seven-left=20")
case("十子", N(tiles_left=10), "no-flower=2 pinghu=5 ten-left=10")
case("11 tiles left: nothing", N(tiles_left=11), "no-flower=2 pinghu=5")
case(
    "天胡: no 門清/自摸",
    FC(sd=True, first_turn="heaven", dealer=True),
    "no-flower=2 pinghu=5 heaven-win=120 dealer=1",
)
case("地胡: no 門清", FC(first_turn="earth"), "no-flower=2 pinghu=5 earth-win=100")
case("人胡: no 門清/自摸", FC(sd=True, first_turn="human"), "no-flower=2 pinghu=5 human-win=80")
case(
    "人胡 with 4 tiles left: 四子 removed",
    FC(sd=True, first_turn="human", tiles_left=4),
    "no-flower=2 pinghu=5 human-win=80",
)

# ---- 自摸 variants ------------------------------------------------------------------------
case(
    "花上自摸 (f3 for East: 1)",
    N(sd=True, flowers="f3", replacements=["flower"]),
    "flower=1 pinghu=5 tsumo=1 flower-tsumo=1",
)
# 234m exposed, 9999m melded kong, 678m 567p 34s+5s, eye ww: 4 chows (no 平胡), a kong.
KONG_HAND = ("678m 567p 3s 4s ww ww", "5s")
case(
    "槓上自摸",
    hand(*KONG_HAND, melds="C:2m K:9m", win_kong_replacement=True),
    "no-flower=2 tsumo=1 kong-tsumo=1 one-kong=1",
)
case(
    "花 then 槓: 3¹ + 5¹ = 8, removes 槓上自摸",
    hand(*KONG_HAND, melds="C:2m K:9m", flowers="f2", replacements=["flower", "kong"]),
    "flower=1 tsumo=1 one-kong=1 chain-flower-kong-tsumo=8",
)
case(
    "槓上槓: 5² = 25",
    hand("678m 3s 4s ww ww", "5s", melds="C:2m K:9m K:5p", replacements=["kong", "kong"]),
    "no-flower=2 tsumo=1 two-kong=5 chain-flower-kong-tsumo=25 two-concealed=5",
)
case(
    "five kong replacements: 5⁵ capped at 800; 五槓, 五暗刻 (槓亦計暗刻), 門清 (only kongs)",
    hand("ww", "ww", melds="K:2m K:9p K:3s K:6s A:dw", replacements=["kong"] * 5),
    "no-flower=2 dragon-pung=3 true-single=2 tsumo=5 chain-flower-kong-tsumo=800 "
    "five-concealed=150 five-kong=300 menqing=5 small-five-gates=10",
)

# ---- win forms --------------------------------------------------------------------------
case(
    "獨獨: 35s waits 4s only",
    hand("678m 567p 123s 3s 5s ww ww", "4s", melds="C:2m", sd=False),
    "no-flower=2 pinghu=5 true-single=2",
)
case(
    "假獨: 12s edge, but 3456s also takes 6s",
    hand("678m 567p 1s 2s 345s ww ww", "3s", melds="C:2m", sd=False),
    "no-flower=2 pinghu=5 fake-single=1",
)
case(
    "對碰: 77s + ww, the discard makes an exposed pung",
    hand("678m 567p 123s 7s 7s ww ww", "7s", melds="C:2m", sd=False),
    "no-flower=2 pair-wait=2",
)
case(
    "獨獨 on the eye",
    hand("678m 567p 123s 345s ww", "ww", melds="C:2m", sd=False),
    "no-flower=2 pinghu=5 true-single=2",
)

# ---- honours ----------------------------------------------------------------------------
case(
    "東 pung (concealed)",
    hand("we we we 567p 123s 3s 4s ww ww", "5s", melds="C:2m", sd=False),
    "no-flower=2 wind-pung=2",
)
case(
    "two wind pungs, dragon eye; 234m 123s 345s all hold 3: 混全帶",
    hand("we we we 123s 3s 4s dr dr", "5s", melds="C:2m P:ws", sd=False),
    "no-flower=2 wind-pung=4 mixed-all-contain=35",
)
case(
    "小三風 removes 風牌",
    hand("we we we 123s 3s 4s ww ww", "5s", melds="C:2m P:ws", sd=False),
    "no-flower=2 small-three-winds=25 mixed-all-contain=35",
)
case(
    "大三風 (pungs we ws wn), eye dr",
    hand("wn wn wn 123s 3s 4s dr dr", "5s", melds="P:we P:ws", sd=False),
    "no-flower=2 big-three-winds=45 half-flush=40 mixed-all-contain=35",
)
case(
    "小四喜 removes 大三風 and 風牌",
    hand("wn wn wn 3s 4s ww ww", "5s", melds="P:we P:ws C:1s", sd=False),
    "no-flower=2 small-four-winds=80 half-flush=40 mixed-all-contain=35",
)
case(
    "大四喜 with a 345s chow and 9s eye",
    hand("wn wn wn 3s 4s 9s 9s", "5s", melds="P:we P:ws P:ww", sd=False),
    "no-flower=2 big-four-winds=160 half-flush=40",
)
case(
    "三元牌 pung (and 小五門齊: the winds are only the eye)",
    hand("dg dg dg 567p 123s 3s 4s ww ww", "5s", melds="C:2m", sd=False),
    "no-flower=2 dragon-pung=3 small-five-gates=10",
)
case(
    "小三元 removes 三元牌",
    hand("dg dg dg 123s 3s 4s dw dw", "5s", melds="C:2m P:dr", sd=False),
    "no-flower=2 small-three-dragons=30 mixed-all-contain=35",
)
case(
    "大三元 removes 小三元 and 三元牌",
    hand("dg dg dg dw dw dw 3s 4s ww ww", "5s", melds="C:2m P:dr", sd=False),
    "no-flower=2 big-three-dragons=60 two-concealed=5 mixed-all-contain=35",
)

# ---- 無字 family and 缺 -------------------------------------------------------------------
case(
    "無字 with a flower (平胡, not 無字花平胡)",
    hand("678m 567p 123s 3s 4s 9m 9m", "5s", melds="C:2m", flowers="f2", sd=False),
    "flower=1 no-honor=2 pinghu=5",
)
case(
    "無字花平胡 removes 平胡 and 無字花 (and 無字, 無花)",
    hand("678m 567p 123s 3s 4s 9m 9m", "5s", melds="C:2m", sd=False),
    "clean-pinghu=20",
)
case(
    "無字花 with a pung (no 平胡)",
    hand("999m 567p 123s 3s 4s 6m 6m", "5s", melds="C:2m", sd=False),
    "no-honor-flower=5",
)
case(
    "斷么 removes 無字 (無字花 stays); 2s eye 將眼",
    hand("567m 345p 6p 7p 666s 2s 2s", "8p", melds="C:2m", sd=False),
    "no-honor-flower=5 duanyao=10 dragon-eye=2",
)
case(
    "缺五",
    hand("678m 2p 3p 789s 666p 9p 9p", "4p", melds="C:1m", sd=False),
    "no-honor-flower=5 que-five=10",
)
case(
    "缺一門 with 無字花平胡",
    hand("567m 234p 789p 3m 4m 9m 9m", "5m", melds="C:1m", sd=False),
    "clean-pinghu=20 que-one-suit=10",
)
case(
    "三寶 (with a flower) removes 斷么 缺五 缺一門 無字; three concealed pungs",
    hand("6m 7m 222p 444p 888p 3m 3m", "8m", melds="C:2m", flowers="f2", sd=False),
    "flower=1 three-treasures=60 three-concealed=15",
)
case(
    "四寶 (no flower) removes 三寶 and 無字花",
    hand("6m 7m 222p 444p 888p 3m 3m", "8m", melds="C:2m", sd=False),
    "four-treasures=70 three-concealed=15",
)
case(
    "五寶 (all chows) removes 四寶, 平胡, 無字花平胡; 小全姊妹 (open) removes 般高/姊妹",
    hand("678m 234p 678p 6p 7p 3m 3m", "8p", melds="C:2m", sd=False),
    "five-treasures=120 small-all-sisters=30",
)
case(
    "六寶 (門清) removes 五寶 and 門清; 小全姊妹 closed",
    hand("234m 678m 234p 678p 6p 7p 3m 3m", "8p", sd=False),
    "six-treasures=190 small-all-sisters=60",
)

# ---- 門齊 ----------------------------------------------------------------------------------
case(
    "小五門齊: dragons only the eye",
    hand("234m 567p 345s 6s 7s dr dr", "8s", melds="P:we", sd=False),
    "no-flower=2 wind-pung=2 small-five-gates=10",
)
case(
    "小七門齊 removes 小五門齊 (f2 f6 for East: 2)",
    hand("234m 567p 345s 6s 7s dr dr", "8s", melds="P:we", flowers="f2 f6", sd=False),
    "flower=2 wind-pung=2 small-seven-gates=15",
)
case(
    "大七門齊 removes 大五門齊 (f1 f5 for East: 4)",
    hand("234m 567p 345s dr dr dr 9m", "9m", melds="P:we", flowers="f1 f5", sd=False),
    "flower=4 wind-pung=2 dragon-pung=3 true-single=2 big-seven-gates=20",
)
case(
    "大五門齊 without a plant: no 七門齊",
    hand("234m 567p 345s dr dr dr 9m", "9m", melds="P:we", flowers="f1", sd=False),
    "flower=2 wind-pung=2 dragon-pung=3 true-single=2 big-five-gates=15",
)

# ---- same chows -------------------------------------------------------------------------
case(
    "般高 (one exposed) + one 姊妹 only (不覆計)",
    hand("234m 234p 567s 7p 8p ww ww", "9p", melds="C:2m", sd=False),
    "no-flower=2 pinghu=5 pungao=5 sisters=3",
)
case(
    "雙姊妹 removes 姊妹",
    hand("234p 567m 567s 7p 8p ww ww", "9p", melds="C:2m", sd=False),
    "no-flower=2 pinghu=5 double-sisters=10",
)
case(
    "暗三相逢: its chows are not also 姊妹",
    hand("234m 234p 234s 789m 5p 6p ww ww", "7p", sd=False),
    "no-flower=2 pinghu=5 menqing=5 three-meet=20",
)
case(
    "明三相逢 (the 234m exposed)",
    hand("234p 234s 789m 5p 6p ww ww", "7p", melds="C:2m", sd=False),
    "no-flower=2 pinghu=5 three-meet=10",
)
case(
    "暗雙般高 removes 般高",
    hand("234m 234m 678s 678s 5p 6p ww ww", "7p", sd=False),
    "no-flower=2 pinghu=5 menqing=5 double-pungao=40",
)
case(
    "小雙般高: 般高 345m + eye 2m; removes 般高",
    hand("345m 345m 2m 2m 678s 6p 7p", "8p", melds="P:dr", sd=False),
    "no-flower=2 dragon-pung=3 small-double-pungao=15 dragon-eye=2 sisters=3",
)
case(
    "三般高 open (two exposed): removes 般高",
    hand("678s 5p 6p ww ww", "7p", melds="C:2m C:2m C:2m", sd=False),
    "no-flower=2 pinghu=5 triple-pungao=25",
)
case(
    "四相逢 (open) removes 三相逢; its 般高 counts",
    hand("567m 567p 567s 2p 3p ww ww", "4p", melds="C:5m", sd=False),
    "no-flower=2 pinghu=5 pungao=5 four-meet=30",
)
case(
    "全般高 closed removes 三般高, 般高, 平胡",
    hand("234m 234m 234m 567s 567s ww", "ww", sd=False),
    "no-flower=2 true-single=2 menqing=5 all-pungao=280",
)
case(
    "全姊妹 open removes 三相逢, 姊妹, 平胡",
    hand("567m 567p 567s 2m 3m dr dr", "4m", melds="C:2p", sd=False),
    "no-flower=2 all-sisters=65",
)
case(
    "五相逢 closed removes 四相逢, 般高, 平胡 (無字花平胡 stays)",
    hand("567m 567p 567s 567s 567s 9m", "9m", sd=False),
    "clean-pinghu=20 true-single=2 menqing=5 five-meet=190",
)

# ---- steps and straights ----------------------------------------------------------------
case(
    "雜V in the order 索→筒→萬 (any suit order counts)",
    hand("345p 456m dg dg dg 1m 1m 7s 8s", "9s", melds="C:2s", sd=False),
    "no-flower=2 dragon-pung=3 mixed-v=5",
)
case(
    "清V closed",
    hand("234p 345p 456p 789s dg dg dg 5m", "5m", sd=False),
    "no-flower=2 dragon-pung=3 true-single=2 menqing=5 pure-v=20 dragon-eye=2",
)
case(
    "雜龍 open",
    hand("456p 789s dg dg dg 5m 5m 6p 7p", "8p", melds="C:1m", sd=False),
    "no-flower=2 dragon-pung=3 mixed-dragon=8 dragon-eye=2",
)
case(
    "清龍 closed removes 老少",
    hand("123p 456p 789p 345s dr dr dr 9m", "9m", sd=False),
    "no-flower=2 dragon-pung=3 true-single=2 menqing=5 pure-dragon=20",
)
case(
    "一色四步高 open removes 清V",
    hand("345m 456m 567m 8p", "8p", melds="C:2m P:dr", sd=False),
    "no-flower=2 dragon-pung=3 true-single=2 one-suit-four-step=30 dragon-eye=2",
)
case(
    "三色四步高 closed removes 雜V",
    hand("234m 345p 456s 567m dr dr dr 9p", "9p", sd=False),
    "no-flower=2 dragon-pung=3 true-single=2 menqing=5 three-suit-four-step=30",
)
case(
    "雜天梯 open removes 平胡 and the 步高",
    hand("456s 567m 678p 9m", "9m", melds="C:2m C:3p", sd=False),
    "true-single=2 mixed-ladder=70 clean-pinghu=20",
)
case(
    "清天梯 closed removes 平胡 and the 步高",
    hand("123s 234s 345s 456s 567s we", "we", sd=False),
    "no-flower=2 true-single=2 menqing=5 pure-ladder=250 half-flush=40",
)
case(
    "雙龍匯 open removes 清龍, 雜龍, 雙姊妹, 老少, 平胡",
    hand("123m 456m 789m 7p 8p we we", "9p", melds="C:1s", sd=False),
    "no-flower=2 double-dragon-meet=60",
)
case(
    "雙雜龍 closed removes 雜龍, 雙老少, 雙姊妹",
    hand("456m 123p 789p 123s 789s we", "we", sd=False),
    "no-flower=2 true-single=2 menqing=5 double-mixed-dragon=160 mixed-outside=0",
)
case(
    "雙清龍 open removes 清龍, 般高, 老少",
    hand("123m 456m 789m we", "we", melds="C:1m C:4m", sd=False),
    "no-flower=2 true-single=2 double-pure-dragon=120 half-flush=40",
)

# ---- 老少 --------------------------------------------------------------------------------
case(
    "老少順 (once per suit)",
    hand("123p 789p 456s dg dg dg 5m", "5m", melds="C:3m", sd=False),
    "no-flower=2 dragon-pung=3 true-single=2 laoshao-chow=3 dragon-eye=2",
)
case(
    "老少刻",
    hand("111s 999s 456m 5p 6p dr dr", "7p", melds="C:3m", sd=False),
    "no-flower=2 laoshao-pung=5 two-concealed=5",
)
case(
    "雙老少順 (same suit twice) open: removes 老少; its 雙般高 counts",
    hand("123m 789m 789m ww", "ww", melds="C:1m C:4p", sd=False),
    "no-flower=2 pinghu=5 true-single=2 double-laoshao-chow=15 double-pungao=20",
)
case(
    "雙老少刻 closed removes 兄弟 and 老少刻",
    hand("111m 999m 111p 999p 4s 5s ww ww", "6s", sd=False),
    "no-flower=2 double-laoshao-pung=60 four-concealed=30 menqing=5",
)

# ---- pungs ------------------------------------------------------------------------------
case(
    "兄弟",
    hand("4m 4m 4m 567p 678s 9s 9s 2m 3m", "1m", melds="P:4p", sd=False),
    "brothers=5 no-honor-flower=5",
)
case(
    "小三兄弟 removes 兄弟",
    hand("123s 678s 5s 5s 6p 7p", "8p", melds="P:5m P:5p", sd=False),
    "no-honor-flower=5 small-three-brothers=15 dragon-eye=2 sisters=3",
)
case(
    "大三兄弟 removes 小三兄弟",
    hand("2s 2s 2s 678s 3m 4m dr dr", "5m", melds="P:2m P:2p", sd=False),
    "no-flower=2 big-three-brothers=30",
)
case(
    "全兄弟 removes 大三兄弟, 對對胡; 全雙數 stays",
    hand("8s 8s 8s 2m 2m 2m 8m 8m 8m 2p", "2p", melds="P:8p P:2s", sd=False),
    "no-honor-flower=5 true-single=2 all-brothers=250 all-even=80 all-dragon-eyes=120 "
    "que-five=10 dragon-eye=2 three-concealed=15",
)
case(
    "對對胡",
    hand("1m 1m 1m 5p 5p 5p dr dr dr 9s", "9s", melds="P:7s P:ww", sd=False),
    "no-flower=2 wind-pung=2 dragon-pung=3 true-single=2 all-pungs=40 three-concealed=15 "
    "mixed-odd=15 big-five-gates=15",
)
case(
    "兩連刻",
    hand("345p 123s 7s 8s 7m 7m 7m ww ww", "6s", melds="P:6m", sd=False),
    "no-flower=2 two-consec-pung=5",
)
case(
    "小三連刻 with the eye between the pungs",
    hand("3m 3m 3m 4m 4m 678p 1s 2s we we we", "3s", melds="P:5m", sd=False),
    "no-flower=2 wind-pung=2 small-three-consec=10 two-concealed=5 true-single=2",
)
case(
    "大四連刻 removes 大三連刻…; beats the 345p×3 reading",
    hand("333p 444p 555p 666p ww", "ww", melds="C:7s", sd=False),
    "no-flower=2 true-single=2 big-four-consec=35 four-concealed=30",
)
case(
    "小四連刻 removes 大三連刻, 小三連刻, 兩連刻 (two pungs exposed; 4567p waits 4p 6p 7p)",
    hand("555p 6p 123m 789s", "6p", melds="P:3p P:4p", sd=False),
    "small-four-consec=25 no-honor-flower=5 fake-single=1",
)
case(
    "大三色四連刻 (2m 3p 4s 5m) removes 大三色三連刻",
    hand("444s 555m 789p dr", "dr", melds="P:2m P:3p", sd=False),
    "big-mixed-four=45 two-concealed=5 true-single=2 no-flower=2",
)
case(
    "大三色三連刻 (2m 3p 4s) removes 小三色三連刻 (6s eye 7m 8p)",
    hand("222m 333p 444s 6s", "6s", melds="P:7m P:8p", sd=False),
    "big-mixed-three=10 all-pungs=40 three-concealed=15 no-honor-flower=5 duanyao=10 "
    "que-five=10 fake-single=1",
)
case(
    "二數 only with 嚦咕嚦咕 (3 and 6): 八面聽, 大嚦咕嚦咕",
    hand("3m 3m 3p 3p 3s 3s 6m 6m 6p 6p 6p 6p 6s 6s 6s 6s", "3m", sd=False),
    "likgu=50 big-likgu=20 eight-wait=10 two-numbers=140 no-honor-flower=5 duanyao=10 que-five=10",
)
case(
    "小三色三連刻",
    hand("2m 2m 2m 3p 3p 4s 4s 4s 567m ww ww", "ww", melds="C:7p", sd=False),
    "no-flower=2 pair-wait=2 small-mixed-three=5 wind-pung=2 two-concealed=5",
)
case(
    "大三色三連刻 removes 小三色三連刻",
    hand("2m 2m 2m 3p 3p 3p 4s 4s 4s 567m 9p", "9p", melds="C:7p", sd=False),
    "no-honor-flower=5 true-single=2 big-mixed-three=10 three-concealed=15",
)

# ---- concealed pungs / kongs ------------------------------------------------------------
case(
    "兩暗刻 (the discard-completed pung does not count)",
    hand("333m 777p 5s 5s 123s ww ww", "5s", melds="C:7m", sd=False),
    "no-flower=2 pair-wait=2 two-concealed=5",
)
case(
    "三暗刻 with a concealed kong",
    hand("333m 777p 123s ww", "ww", melds="A:9s C:7m", sd=False),
    "no-flower=2 true-single=2 three-concealed=15 one-kong=1",
)
case(
    "五暗刻 on a discard (如有明刻只當五暗刻): removes 對對胡 and 四暗刻",
    hand("333m 777p 555s we we we dg dg 8m 8m", "dg", sd=False),
    "no-flower=2 wind-pung=2 dragon-pung=3 pair-wait=2 five-concealed=150 menqing=5 "
    "big-five-gates=15 dragon-eye=2",
)
case(
    "坎坎胡 (self-drawn): removes 五暗刻, 對對胡, 門清, 自摸",
    hand("333m 777p 555s we we we dg dg 8m 8m", "dg"),
    "no-flower=2 wind-pung=2 dragon-pung=3 pair-wait=2 kan-kan=180 big-five-gates=15 dragon-eye=2",
)
case(
    "搶槓",
    hand("1m 3m 567p 789p 345s 678s ww ww", "2m", sd=False, win_robbing_kong=True),
    "no-flower=2 pinghu=5 fake-single=0 true-single=2 menqing=5 rob-kong=5",
)
case(
    "三個槓 removes 兩個槓 and 一個槓",
    hand("567m ww", "ww", melds="K:2m K:9p K:3s C:3p", sd=False),
    "no-flower=2 true-single=2 three-kong=15 three-concealed=15",
)
case(
    "四個槓",
    hand("5m 6m ww ww", "7m", melds="K:2m K:9p K:3s K:6s", sd=False),
    "no-flower=2 four-kong=80 four-concealed=30 menqing=5",
)

# ---- 歸 --------------------------------------------------------------------------------
case(
    "明四歸二",
    hand("1m 2m 3m 5m 5m 2p 3p dg dg dg", "4p", melds="C:3m C:5m", sd=False),
    "no-flower=2 dragon-pung=3 four-gui-two=10 dragon-eye=2",
)
case(
    "四歸四 open: 般高 may count",
    hand("345m 456m 234p 6s", "6s", melds="C:3m C:5m", sd=False),
    "clean-pinghu=20 duanyao=10 pungao=5 pure-v=10 four-gui-four=20 true-single=2",
)
case(
    "八歸一 removes 四歸一",
    hand("3m 4m 5m 2p 3p 4p dr dr dr 9s", "9s", melds="P:3m P:5m", sd=False),
    "no-flower=2 dragon-pung=3 true-single=2 eight-gui-one=30",
)

# ---- 門清 / 求人 --------------------------------------------------------------------------
case(
    "全求人 (discard) removes 獨獨",
    hand("6m", "6m", melds="C:2m P:dg C:6s P:8p C:5p", sd=False),
    "no-flower=2 dragon-pung=3 full-qiuren=30",
)
case(
    "半求人 (self-drawn) removes 獨獨 and 自摸",
    hand("6m", "6m", melds="C:2m P:dg C:6s P:8p C:5p"),
    "no-flower=2 dragon-pung=3 half-qiuren=20",
)
case(
    "five exposed sets with a kong: no 求人",
    hand("6m", "6m", melds="C:2m K:dg C:6s P:8p C:5p", sd=False),
    "no-flower=2 dragon-pung=3 true-single=2 one-kong=1",
)

# ---- 嚦咕嚦咕 -----------------------------------------------------------------------------
case(
    "嚦咕嚦咕 self-drawn: 自摸 is 1",
    hand("3m 3m 8m 8m 1p 1p 2p 2p 4p 4p 7s 7s ws ws ws wn", "wn"),
    "no-flower=2 wind-pung=2 likgu=50 tsumo=1",
)
case(
    "嚦咕嚦咕 with a 叮: the ting fan stays (門清大叮 is not removed as 門清類)",
    hand("3m 3m 8m 8m 1p 1p 2p 2p 4p 4p 7s 7s ws ws ws wn", "wn", ting=True),
    "no-flower=2 wind-pung=2 likgu=50 tsumo=1 menqing-big-ting=15",
)
case(
    "坎坎胡 with a 叮: 門清 and 門叮摸 and 自摸 go, 門清大叮 stays",
    hand("333m 777p 555s we we we dg dg 8m 8m", "dg", ting=True),
    "no-flower=2 wind-pung=2 dragon-pung=3 pair-wait=2 kan-kan=180 big-five-gates=15 "
    "dragon-eye=2 menqing-big-ting=15",
)
case(
    "清全小 2-4 removes 斷么 and 缺五; 三數, 三相逢, 四歸一 ×2, 小三色三連刻; 2s+234s also waits 5s",
    hand("234s 333m 444p 2s", "2s", melds="C:2m C:2p", sd=False),
    "pure-small=50 three-numbers=60 three-meet=10 no-honor-flower=5 dragon-eye=2 "
    "fake-single=1 two-concealed=5 small-mixed-three=5 four-gui-one=10",
)
case(
    "嚦咕嚦咕 with 小五門齊",
    hand("3m 3m 8m 8m 1p 1p 4p 4p 7s 7s 7s ws ws dr dr wn", "wn", sd=False),
    "no-flower=2 likgu=50 small-five-gates=10",
)
case(
    "大嚦咕嚦咕 twice (two double pairs), 同色三連對",
    hand("2m 2m 2m 2m 3m 3m 4m 4m 6p 6p 6p 6p 9s 9s dr dr", "dr", sd=False),
    "no-flower=2 dragon-pung=3 likgu=50 big-likgu=20 suit-three-pairs=5 eight-wait=10",
)
case(
    "同色五連對 removes 三/四連對",
    hand("2s 2s 3s 3s 4s 4s 5s 5s 6s 6s 9m 9m 9m we we dw", "dw", sd=False),
    "no-flower=2 likgu=50 suit-five-pairs=40",
)
case(
    "雜色通天嚦咕嚦咕 with 八面聽",
    hand("2m 2m 3s 3s 4p 4p 5m 5m 6s 6s 7p 7p 8m 8m 9s 9s", "9s", sd=False),
    "no-honor-flower=5 likgu=50 heaven-likgu=200 eight-wait=10",
)

# ---- 十六不搭 / 十三么 --------------------------------------------------------------------
case(
    "十六不搭 self-drawn, not a sixteen-sided wait",
    hand("1m 4m 8m 2p 6p 9p 1s 5s 8s we ws ww wn dr dw dw", "dg"),
    "no-flower=2 sixteen=50 tsumo=1",
)
case(
    "十六不搭 with a 8m eye: 將眼",
    hand("1m 4m 8m 8m 2p 6p 9p 1s 5s 8s we ws ww wn dr dg", "dw", sd=False),
    "no-flower=2 sixteen=50 dragon-eye=2",
)
case(
    "正十六不搭 removes 十六不搭; 十六面聽",
    hand("3m 6m 9m 1p 4p 7p 2s 5s 8s we ws ww wn dr dg dw", "9m", sd=False),
    "no-flower=2 true-sixteen=80 sixteen-wait=10",
)
case(
    "十三么 with a concealed kong and 十三面聽",
    hand("1m 9m 1p 9p 1s 9s we ws ww wn dr dg dw", "1m", melds="A:5p", sd=False),
    "no-flower=2 thirteen-orphans=130 thirteen-wait=13 one-kong=1 mixed-odd=15",
)
case(
    "十三么 self-drawn, 678s, no 13-sided wait",
    hand("678s 1m 1m 9m 1p 9p 1s 9s we ws ww wn dr dg", "dw"),
    "no-flower=2 thirteen-orphans=130 tsumo=1",
)
case(
    "十三么 with a 789m chow (么九順), 十三面聽",
    hand("789m 1m 9m 1p 9p 1s 9s we ws ww wn dr dg dw", "dw", sd=False),
    "no-flower=2 thirteen-orphans=130 orphan-terminal-chow=20 thirteen-wait=13",
)

# ---- flushes ----------------------------------------------------------------------------
case(
    "混一色 (with an open 清龍)",
    hand("123p 567p 7p 8p dg dg dg ww ww", "9p", melds="C:4p", sd=False),
    "no-flower=2 dragon-pung=3 half-flush=40 pure-dragon=10",
)
case(
    "清一色 removes 無字",
    hand("123p 567p 789p 7p 8p 4p 4p", "9p", melds="C:4p", flowers="f2", sd=False),
    "flower=1 full-flush=100 pinghu=5 pungao=10 pure-dragon=10",
)
case(
    "字一色 removes 對對胡 and 番子",
    hand("we we we ws ws ws dr dr dr dg dg dw dw", "dg", melds="P:wn", sd=False),
    "no-flower=2 pair-wait=2 all-honors=180 three-concealed=15 big-three-winds=45 "
    "small-three-dragons=30",
)
case(
    "暗一色 (winds, white, 8p): removes 番子; 混一色 stays",
    hand("ws ws ws ww ww ww wn wn wn 8p 8p dw dw", "dw", melds="P:we", sd=False),
    "no-flower=2 pair-wait=2 dark-flush=250 half-flush=40 three-concealed=15 "
    "big-four-winds=160 all-pungs=40 dragon-eye=2",
)
case(
    "綠一色 with 發 removes 混一色; 明般高, 明四歸二",
    hand("234s 666s 888s 3s", "3s", melds="P:dg C:2s", sd=False),
    "no-flower=2 dragon-pung=3 true-single=2 all-green=220 two-concealed=5 pungao=5 "
    "four-gui-two=10",
)

# ---- 九子連環 -----------------------------------------------------------------------------
case(
    "九子連環 九面聽 + a 東 pung, won on 5m",
    hand("111m 2345678m 999m we we we", "5m", sd=False),
    "no-flower=2 wind-pung=2 half-flush=40 nine-gates=120 nine-wait=40 menqing=5 "
    "laoshao-pung=5 three-concealed=15 fake-single=1 dragon-eye=2",
)

# ---- terminals, all-contain, big/small, numbers -----------------------------------------
case(
    "混全帶么",
    hand("123m 789p 999s dr dr dr 1p", "1p", melds="C:7m", sd=False),
    "no-flower=2 dragon-pung=3 true-single=2 mixed-outside=30 sisters=3 laoshao-chow=3 "
    "two-concealed=5",
)
case(
    "清全帶么 removes 缺五 (and by it 無字)",
    hand("123m 789p 999s 111p 1s", "1s", melds="C:7m", sd=False),
    "no-honor-flower=5 true-single=2 pure-outside=60 two-concealed=5 sisters=3 laoshao-chow=3",
)
case(
    "混么 removes 混全帶么 and 混單",
    hand("1m 1m 1m 9p 9p 9p dr dr dr we", "we", melds="P:1s P:9m", sd=False),
    "no-flower=2 dragon-pung=3 true-single=2 all-pungs=40 three-concealed=15 "
    "mixed-terminals=100 laoshao-pung=5 brothers=5 small-five-gates=10",
)
case(
    "清么 removes 對對胡, 全單數, 雙老少刻…",
    hand("1m 1m 1m 9m 9m 9m 1p 1p 1p 9s 9s 1s 1s", "1s", melds="P:9p", sd=False),
    "no-honor-flower=5 pair-wait=2 pure-terminals=450 three-concealed=15",
)
case(
    "混全帶 4 (honour eye)",
    hand("345p 456s 2s 3s dr dr", "4s", melds="C:2p P:4m", sd=False),
    "no-flower=2 mixed-all-contain=35 sisters=3",
)
case(
    "清全帶 1 removes 無字, 缺五, 清全小; 清全帶么 and 三數 stay; 四相逢 + its 般高",
    hand("123m 123p 111s 1m 1m 2p 3p", "1p", melds="C:1s", sd=False),
    "no-honor-flower=5 pure-all-contain=100 pure-outside=60 three-numbers=60 four-meet=30 "
    "pungao=10 four-gui-one=5",
)
case(
    "混全帶 1 removes 混全小 (the 1/9 rule); 混全帶么 stays; 明三相逢",
    hand("123s 1p 2p we we we dr dr", "3p", melds="C:1m P:1p", sd=False),
    "no-flower=2 wind-pung=2 three-meet=10 mixed-all-contain=35 mixed-outside=30 "
    "true-single=2 small-five-gates=10 four-gui-one=5",
)
case(
    "混全大 (7 in every set: 混全帶 7, not 1/9, so 混全大 stays)",
    hand("678m 789p 6s 7s dr dr dr we we", "8s", melds="C:7m", sd=False),
    "no-flower=2 dragon-pung=3 mixed-big=15 double-sisters=10 mixed-all-contain=35 "
    "small-five-gates=10",
)
case(
    "清全小 removes 缺 patterns and 無字",
    hand("123m 234p 2s 3s 1p 1p", "4s", melds="C:1s C:2m", sd=False),
    "pure-small=50 all-sisters=65 clean-pinghu=20",
)
case(
    "全單數 + 三數",
    hand("1m 1m 1m 3p 3p 3p 5s 5s 5s 5p 5p 1s 1s", "1s", melds="P:3m", sd=False),
    "no-honor-flower=5 pair-wait=2 all-pungs=40 three-numbers=60 all-odd=70 "
    "three-concealed=15 dragon-eye=2 brothers=5",
)
case(
    "混雙",
    hand("2m 2m 2m 4p 4p 4p 6s 6s 6s dr dr dr we", "we", melds="P:8m", sd=False),
    "mixed-even=15 all-pungs=40 four-concealed=30 dragon-pung=3 true-single=2 no-flower=2 "
    "small-five-gates=10",
)
case(
    "混將眼",
    hand("2m 2m 2m 5p 5p 5p 8s 8s 8s dr dr we we", "dr", melds="P:8m", sd=False),
    "mixed-dragon-eyes=20 all-pungs=40 three-concealed=15 dragon-pung=3 pair-wait=2 "
    "no-flower=2 brothers=5 small-five-gates=10",
)
case(
    "全將眼 removes 斷么 and 三數",
    hand("2m 2m 2m 5p 5p 5p 8s 8s 8s 5s 5s 5s 2s", "2s", melds="P:8m", sd=False),
    "all-dragon-eyes=120 all-pungs=40 four-concealed=30 true-single=2 no-honor-flower=5 "
    "dragon-eye=2 brothers=5",
)
case(
    "大雞胡 with 花 1 (f2 for East)",
    hand("5m 6m 2p 3p 4p 4p 5p 6p dg dg", "7m", melds="C:3m P:3s", flowers="f2", sd=False),
    "big-chicken=40",
)
case(
    "not a 大雞胡: seat flower makes 花 2",
    hand("5m 6m 2p 3p 4p 4p 5p 6p dg dg", "7m", melds="C:3m P:3s", flowers="f1", sd=False),
    "flower=2",
)
case(
    "大雞胡 + 莊 (ignored by the chicken check, then added)",
    hand("5m 6m 2p 3p 4p 4p 5p 6p dg dg", "7m", melds="C:3m P:3s", sd=False, dealer=True),
    "big-chicken=40 dealer=1",
)
case(
    "not a 大雞胡: number eye",
    hand("5m 6m 2p 3p 4p 4p 5p 6p 9s 9s", "7m", melds="C:3m P:dg", sd=False),
    "no-flower=2 dragon-pung=3",
)


# ---- every pattern also present in this file (not only in the examples) -----------------
case(
    "小三連刻 33m(declared) 444m + 5m eye removes 兩連刻; 4445m also waits 3m 6m",
    hand("444m 5m 678p 234s 999p", "5m", melds="P:3m", sd=False),
    "small-three-consec=10 two-concealed=5 fake-single=1 no-honor-flower=5 dragon-eye=2",
)
case(
    "大三連刻 (333m declared, so no 345m reading)",
    hand("444m 555m 789p 2s 3s ww ww", "4s", melds="P:3m", sd=False),
    "big-three-consec=15 two-concealed=5 no-flower=2",
)
case(
    "小五連刻 3-6p + 7p eye; 5556667p also waits 8p",
    hand("555p 666p 123s 7p", "7p", melds="P:3p P:4p", sd=False),
    "small-five-consec=60 two-concealed=5 no-honor-flower=5 fake-single=1 que-one-suit=10",
)
case(
    "大五連刻 2-6s removes 對對胡; 9m eye: 缺一門",
    hand("444s 555s 666s 9m", "9m", melds="P:2s P:3s", sd=False),
    "big-five-consec=160 three-concealed=15 no-honor-flower=5 true-single=2 que-one-suit=10",
)
case(
    "小六連刻 2-7s removes 清一色, 對對胡, 大五連刻; 斷么",
    hand("444s 555s 666s 7s", "7s", melds="P:2s P:3s", sd=False),
    "small-six-consec=300 three-concealed=15 no-honor-flower=5 fake-single=1 duanyao=10",
)
case(
    "小三色四連刻 2m 3p 4s + 5m eye (5m678m also waits 8m)",
    hand("333p 444s 789s 678m 5m", "5m", melds="P:2m", sd=False),
    "small-mixed-four=20 two-concealed=5 no-honor-flower=5 fake-single=1 dragon-eye=2",
)
case(
    "小三色五連刻 2m 3p 4s (5m eye) 6p",
    hand("444s 666p 789m 5m", "5m", melds="P:2m P:3p", sd=False),
    "small-mixed-five=90 two-concealed=5 no-honor-flower=5 dragon-eye=2 true-single=2",
)
case(
    "大三色五連刻 removes 對對胡",
    hand("444s 555m 666p 9s", "9s", melds="P:2m P:3p", sd=False),
    "big-mixed-five=180 three-concealed=15 no-honor-flower=5 true-single=2",
)
case(
    "小三色六連刻 (7s eye) removes 對對胡; 斷么",
    hand("444s 555m 666p 7s", "7s", melds="P:2m P:3p", sd=False),
    "small-mixed-six=300 three-concealed=15 no-honor-flower=5 duanyao=10 true-single=2",
)
case(
    "明八歸四 removes 四歸四; 明雙般高; 無字花平胡",
    hand("345m 456m 234p 9s", "9s", melds="C:3m C:4m", sd=False),
    "eight-gui-four=60 double-pungao=20 clean-pinghu=20 true-single=2",
)
case(
    "明十二歸一 (pungs declared) removes 八歸一, 四歸一; 大三連刻",
    hand("345m 789p 9s", "9s", melds="P:3m P:4m P:5m", sd=False),
    "twelve-gui-one=90 big-three-consec=15 no-honor-flower=5 true-single=2",
)
case(
    "明十二歸四 removes the 般高 family",
    hand("345m 345m 789p 9s", "9s", melds="C:3m C:3m", sd=False),
    "twelve-gui-four=140 clean-pinghu=20 true-single=2",
)
case(
    "同色四連對 with 八面聽",
    hand("2p 2p 3p 3p 4p 4p 5p 5p 8m 8m 1s 1s we we dr dr", "dr", sd=False),
    "likgu=50 suit-four-pairs=20 dragon-pung=3 no-flower=2 eight-wait=10",
)
case(
    "同色六連對 (嚦咕嚦咕 beats the 雙般高 reading)",
    hand("2s 2s 3s 3s 4s 4s 5s 5s 6s 6s 7s 7s 1m 1m ww ww", "ww", sd=False),
    "likgu=50 suit-six-pairs=70 wind-pung=2 no-flower=2 eight-wait=10",
)
case(
    "同色七連對 self-drawn, 混一色",
    hand("3p 3p 4p 4p 5p 5p 6p 6p 7p 7p 8p 8p 9p 9p wn wn", "wn"),
    "likgu=50 suit-seven-pairs=100 wind-pung=2 no-flower=2 half-flush=40 tsumo=1 eight-wait=10",
)
case(
    "十六不搭（三相逢） 147 in every suit, 十六面聽",
    hand("1m 4m 7m 1p 4p 7p 1s 4s 7s we ws ww wn dr dg dw", "4m", sd=False),
    "sixteen-meet=70 sixteen-wait=10 no-flower=2",
)
case(
    "十三么 with a 中 pung: 字么九刻 removes 混單; not 13-sided (the fifth 中 does not exist)",
    hand("dr dr dr dr 1m 9m 1p 9p 1s 9s we ws ww wn dg dw", "9m", sd=False),
    "thirteen-orphans=130 orphan-honor-pung=60 dragon-pung=3 no-flower=2",
)
case(
    "混全小",
    hand("234p 123s 444s we we we dr", "dr", melds="P:1m", sd=False),
    "mixed-small=15 wind-pung=2 two-concealed=5 true-single=2 no-flower=2 small-five-gates=10",
)
case(
    "清全大 removes 缺五",
    hand("678p 789s 666s 7m 8m 9p 9p", "6m", melds="P:9m", sd=False),
    "pure-big=50 no-honor-flower=5 sisters=3",
)
case(
    "大鴨胡 with 花 1: replaces 花 and 自摸",
    hand("5m 6m 2p 3p 4p 4p 5p 6p dg dg", "7m", melds="C:3m P:3s", flowers="f2"),
    "big-duck=30",
)


def parse_expect(s: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for tok in s.split():
        k, v = tok.split("=")
        if int(v):
            out[k] = int(v)
    return out


def build() -> str:
    """The JSONL text of the golden file."""
    lines = []
    names = set()
    for name, h, exp in CASES:
        if name in names:
            raise SystemExit(f"duplicate case name {name!r}")
        names.add(name)
        items = parse_expect(exp)
        lines.append({"name": name, "hand": h, "items": items, "total": sum(items.values())})
    return "".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines)


def main() -> None:
    out = HERE / "hk_tw16.jsonl"
    out.write_text(build())
    print(f"{len(CASES)} cases -> {out}")


if __name__ == "__main__":
    main()
