"""Source of ``tw16_tai.jsonl``: the golden hands of the ``tw16-tai`` rule set, written compactly.

Every expected breakdown here was derived by hand from the seed table and the readings in
``docs/rules/tw16-tai.md`` (the comment above each case says why), not from the scorer.
``python tests/scoring/golden/tw16_tai_source.py`` rewrites the JSONL; ``test_tw16_tai.py``
checks that the two agree and that the scorer reproduces every case.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
TABLE = json.loads(
    (HERE.parents[2] / "scoring" / "data" / "taiwan_16_tai.json").read_text("utf-8")
)["patterns"]
POINTS = {p["name"]: p["tai"] for p in TABLE}

# id -> Chinese name (the seed's); values are looked up in the table by name.
NAMES = {
    "heavenly-win": "天胡", "earthly-win": "地胡", "lik-gu": "呖咕呖咕",
    "sixteen-unrelated": "十六不搭", "three-knitted": "三不搭", "no-honors": "无字",
    "wrong-honor": "不正字", "right-honor": "正字", "double-wind": "双番字",
    "no-flowers": "无花", "wrong-flower": "不正花", "right-flower": "正花",
    "no-honors-no-flowers": "无字花", "mixed-flower-set": "一台草", "flower-set": "一台花",
    "seven-robs-one": "七抢一", "eight-immortals": "八仙过海", "big-ping-hu": "大平胡",
    "small-ping-hu": "小平胡", "single-wait": "独独", "false-single-wait": "假独",
    "eye-258": "将眼", "dual-pung-wait": "对碰", "concealed-hand": "门清",
    "self-drawn": "自摸", "concealed-self-drawn": "门清一摸五", "chicken-hand": "鸡胡",
    "missing-one-suit": "缺一门", "five-gates": "五门齐", "melded-kong": "明槓",
    "concealed-kong": "暗槓", "two-melded-kongs": "双明槓", "yin-yang-kongs": "阴阳槓",
    "two-concealed-kongs": "双暗槓", "three-kongs": "三槓", "four-kongs": "四槓",
    "five-kongs": "五槓", "kong-bloom": "槓上开花", "robbing-kong": "枪槓", "dealer": "庄",
    "dealer-streak": "拉庄", "two-brothers": "两兄弟（碰）", "three-brothers": "三兄弟（碰）",
    "two-meet": "两相逢（上）", "three-meet": "三相逢（上）", "small-three-dragons": "小三元",
    "big-three-dragons": "大三元", "small-three-winds": "小三风", "big-three-winds": "大三风",
    "small-four-winds": "小四喜", "big-four-winds": "大四喜",
    "two-concealed-pungs": "两暗间", "three-concealed-pungs": "三暗间",
    "four-concealed-pungs": "四暗间", "five-concealed-pungs": "五暗间",
    "all-terminals": "全么", "thirteen-orphans": "十三么", "terminals-and-honors": "花么",
    "outside-hand": "连么", "all-simples": "断么", "four-in-two": "四归二",
    "four-in-three": "四归三", "four-in-four": "四归四", "within-seven": "七只内",
    "within-ten": "十只内", "all-pungs": "对对胡", "half-flush": "混一色",
    "full-flush": "清一色", "two-identical-chows": "二般高",
    "three-identical-chows": "三般高", "four-identical-chows": "四般高",
    "open-straight": "明龙", "concealed-straight": "暗龙", "mixed-straight": "花龙",
    "all-claimed": "全求", "half-claimed": "半求",
}  # fmt: skip

_SRC = {"L": "left", "O": "opposite", "R": "right"}


def _tiles(text: str) -> list[str]:
    out: list[str] = []
    for word in text.split():
        if word[-1] in "mps" and word[:-1].isdigit():
            out.extend(ch + word[-1] for ch in word[:-1])
        else:
            out.append(word)
    return out


def _meld(spec: str) -> dict[str, Any]:
    """``c123m`` chow, ``pwe`` / ``p5s`` pung, ``k9m`` melded kong, ``K9m`` concealed kong,
    ``A9m`` added kong; an optional ``@L`` / ``@O`` / ``@R`` says where the claim came from."""
    body, _, src = spec.partition("@")
    kind, rest = body[0], body[1:]
    if kind == "c":
        tiles = _tiles(rest)
        m: dict[str, Any] = {"kind": "chow", "tiles": tiles, "from": "left"}
        m["claimed"] = tiles[0]
        return m
    tile = rest
    if kind == "p":
        m = {"kind": "pung", "tiles": [tile] * 3, "from": _SRC.get(src, "opposite")}
    elif kind == "K":
        m = {"kind": "kong", "tiles": [tile] * 4, "concealed": True}
    else:
        m = {"kind": "kong", "tiles": [tile] * 4, "from": _SRC.get(src, "opposite")}
        if kind == "A":
            m["added"] = True
    return m


CASES: list[dict[str, Any]] = []


def case(
    name: str,
    hand: str,
    win: str,
    expect: dict[str, int | tuple[int, int]],
    total: int,
    *,
    melds: str = "",
    flowers: str = "",
    seat: str = "we",
    rnd: str = "we",
    tsumo: bool = False,
    **extra: Any,
) -> None:
    """One golden hand: ``expect`` maps id -> count (or (points, count) for 拉庄)."""
    win_info = {k: extra.pop(k) for k in ("kong_replacement", "robbing_kong") if k in extra}
    win_info["self_drawn"] = tsumo or bool(win_info.get("kong_replacement"))
    items = []
    for pid, v in expect.items():
        pts, cnt = v if isinstance(v, tuple) else (int(POINTS[NAMES[pid]]), v)
        items.append({"id": pid, "name": NAMES[pid], "points": pts, "count": cnt})
    if sum(i["points"] * i["count"] for i in items) != total:
        raise SystemExit(f"{name}: items do not add up to {total}")
    h: dict[str, Any] = {
        "ruleset": "tw16-tai",
        "concealed": _tiles(hand),
        "melds": [_meld(m) for m in melds.split()],
        "flowers": _tiles(flowers),
        "win_tile": win,
        "win": win_info,
        "seat_wind": seat,
        "round_wind": rnd,
    }
    if extra:
        h["context"] = extra
    CASES.append({"name": name, "hand": h, "total": total, "items": items})


# -- 平胡类 ------------------------------------------------------------------------------------
# All chows, 5p eye, 67s two-sided (waits 5s 8s), no honours, no flowers, on a discard:
# 大平胡 (removes 无字花 and with it 无字/无花) + 门清 + 将眼.
PING = "123m 456m 789p 234s 55p 67s"
case("big ping hu", PING, "8s", {"big-ping-hu": 1, "concealed-hand": 1, "eye-258": 1}, 19)
# The same hand self-drawn breaks one condition: 小平胡; 门清一摸五 replaces 门清 and 自摸;
# 无字花 is no longer removed.
case(
    "small ping hu: self-drawn",
    PING,
    "8s",
    {"small-ping-hu": 1, "concealed-self-drawn": 1, "eye-258": 1, "no-honors-no-flowers": 1},
    20,
    tsumo=True,
)
# One flower (East's own, f1): 小平胡, 正花 2, 无字.
case(
    "small ping hu: a flower",
    PING,
    "8s",
    {"small-ping-hu": 1, "concealed-hand": 1, "eye-258": 1, "right-flower": 1, "no-honors": 1},
    10,
    flowers="f1",
)
# Honour eye and a flower: two conditions broken, no 平胡 at all. f2 is not East's flower.
case(
    "all chows breaking two conditions is no ping hu",
    "123m 456m 789p 234s dr dr 67s",
    "8s",
    {"concealed-hand": 1, "wrong-flower": 1},
    4,
    flowers="f2",
)
# 假独 example of the seed (7779p: waits 8p and 9p); won on 8p the closed wait; all chows with a
# one-tile shape: 小平胡; 789s + 789p: 两相逢.
case(
    "false single wait 7779p",
    "777p 9p 123m 456m 789s 345s",
    "8p",
    {
        "false-single-wait": 1,
        "concealed-hand": 1,
        "small-ping-hu": 1,
        "no-honors-no-flowers": 1,
        "two-meet": 1,
    },
    17,
)
# 枪槓 on a two-sided all-chow hand with a melded chow: 大平胡 (no 门清 needed); 345p and
# 345s: 两相逢.
case(
    "robbing a kong, big ping hu",
    "567m 345p 678s 45s 99m",
    "3s",
    {"robbing-kong": 1, "big-ping-hu": 1, "two-meet": 1},
    37,
    melds="c234m",
    robbing_kong=True,
)

# -- 鸡胡 ------------------------------------------------------------------------------------
# Exposed mixed hand, honour eye, one wrong flower (South seat, f1): the rows total 1 台,
# so it is a 鸡胡: 10.
CHICKEN = dict(hand="789s 34p we we", win="2p", melds="c123m p5p@O c456s", seat="ws")
case("chicken hand", CHICKEN["hand"], "2p", {"chicken-hand": 1}, 10,
     melds=CHICKEN["melds"], seat="ws", flowers="f1")  # fmt: skip
case(
    "chicken hand of the dealer keeps the dealer rows",
    CHICKEN["hand"],
    "2p",
    {"chicken-hand": 1, "dealer": 1, "dealer-streak": (2, 1)},
    13,
    melds=CHICKEN["melds"],
    seat="ws",
    flowers="f1",
    dealer=True,
    dealer_streak=1,
)
# Two flowers (f2 South's own 2, f1 1): 3 台 — more than 1, not a chicken hand.
case(
    "three tai is not a chicken hand",
    CHICKEN["hand"],
    "2p",
    {"right-flower": 1, "wrong-flower": 1},
    3,
    melds=CHICKEN["melds"],
    seat="ws",
    flowers="f1 f2",
)

# -- 奇牌类 ------------------------------------------------------------------------------------
# 天胡: the dealer's dealt 17 tiles. Removes 门清一摸五 (and what that removes: 门清, 自摸) and the
# speed rows (tiles_seen 0 would give 七只内). 777s 9s waits 8s and 9s: 假独. Two concealed
# pungs (111p, 777s). 拉庄 2×2. Four 7s as 777s + 678s: 四归二.
case(
    "heavenly win",
    "111p 345p 678s 234m 777s 9s",
    "9s",
    {
        "heavenly-win": 1,
        "dealer": 1,
        "dealer-streak": (4, 1),
        "no-honors-no-flowers": 1,
        "false-single-wait": 1,
        "two-concealed-pungs": 1,
        "four-in-two": 1,
    },
    144,
    tsumo=True,
    dealer=True,
    dealer_streak=2,
    heavenly=True,
    tiles_seen=0,
)
# 地胡 on the dealer's first discard: removes 门清 and the speed rows. South seat with f2: 正花.
case(
    "earthly win",
    "234m 567m 345p 999p 78s 11s",
    "6s",
    {"earthly-win": 1, "right-flower": 1, "no-honors": 1},
    93,
    seat="ws",
    flowers="f2",
    earthly=True,
    tiles_seen=0,
)

# -- special shapes ----------------------------------------------------------------------------
# 呖咕呖咕 on a discard (7s completes the 77s pair): 门清 not counted; North pung for a South seat
# in an East round: 不正字; f6 is South's: 正花.
case(
    "lik gu on a discard",
    "33m 88m 11p 22p 44p 7s we we wn wn wn",
    "7s",
    {"lik-gu": 1, "wrong-honor": 1, "right-flower": 1},
    43,
    seat="ws",
    flowers="f6",
)
# 呖咕呖咕 with four 2m as two pairs, self-drawn on the red triplet: 门清一摸五 not counted but
# 自摸 is; red pung: 正字.
case(
    "lik gu with four alike, self-drawn",
    "2222m 55m 66p 99p 33s 88s dr dr",
    "dr",
    {"lik-gu": 1, "self-drawn": 1, "right-honor": 1, "no-flowers": 1},
    44,
    tsumo=True,
)
# 十六不搭 (the seed's example 159m 269p 369s), eye 白; always 五门齐; f1 East's own, f2 not.
case(
    "sixteen unrelated",
    "159m 269p 36s we ws ww wn dr dg dw dw",
    "9s",
    {"sixteen-unrelated": 1, "five-gates": 1, "right-flower": 1, "wrong-flower": 1},
    63,
    flowers="f1 f2",
)
# 147m 258p 369s: 三不搭 on top; self-drawn: 自摸 (not 门清一摸五).
case(
    "sixteen unrelated with three knitted",
    "147m 2558p 369s ws ww wn dr dg dw",
    "we",
    {
        "sixteen-unrelated": 1,
        "three-knitted": 1,
        "five-gates": 1,
        "self-drawn": 1,
        "no-flowers": 1,
    },
    77,
    tsumo=True,
)
# 十三么, 16-tile form: the 13 orphans + an eye (白) + a concealed set (678s).
case(
    "thirteen orphans with a chow",
    "9m 19p 19s 678s we ws ww wn dr dg dw dw",
    "1m",
    {"thirteen-orphans": 1, "five-gates": 1, "no-flowers": 1},
    91,
)
# The set is an East pung (East seat, East round: 双番字); the eye 9p self-drawn.
case(
    "thirteen orphans with an east pung, self-drawn",
    "19m 1p 9p 19s we we we we ws ww wn dr dg dw",
    "9p",
    {
        "thirteen-orphans": 1,
        "five-gates": 1,
        "double-wind": 1,
        "self-drawn": 1,
        "no-flowers": 1,
    },
    97,
    tsumo=True,
)
# The set is 123m with the eye 1m as well; North seat with f4: 正花.
case(
    "thirteen orphans with a terminal chow",
    "11m 23m 9m 19p 19s we ws ww wn dr dg dw",
    "1m",
    {"thirteen-orphans": 1, "five-gates": 1, "right-flower": 1},
    92,
    seat="wn",
    flowers="f4",
)

# -- flowers -----------------------------------------------------------------------------------
EIGHT = "f1 f2 f3 f4 f5 f6 f7 f8"
# 八仙过海: an instant win on the eighth flower; the tiles need not form a hand; every other
# row is removed.
case(
    "eight immortals",
    "123m 456p 99s we dr dg wn 1p 5s 7s 8m",
    "2s",
    {"eight-immortals": 1},
    100,
    flowers=EIGHT,
    tsumo=True,
    flower_win="eight",
)
# 七抢一 by the dealer on his second deal: the dealer rows stay.
case(
    "seven rob one, dealer",
    "123m 456p 99s we dr dg wn 1p 5s 7s",
    "2s",
    {"seven-robs-one": 1, "dealer": 1, "dealer-streak": (2, 1)},
    53,
    flowers=EIGHT,
    dealer=True,
    dealer_streak=1,
    flower_win="seven-robs-one",
)
# 一台草: 1, 2 (春夏) and 3, 4 (菊竹): East's f1 正花, three 不正花; 对碰 won on a discard.
DUIPENG = "123m 456m 234p 55p 77s 999s"
case(
    "mixed flower set",
    DUIPENG,
    "7s",
    {
        "mixed-flower-set": 1,
        "right-flower": 1,
        "wrong-flower": 3,
        "dual-pung-wait": 1,
        "eye-258": 1,
        "concealed-hand": 1,
        "no-honors": 1,
    },
    21,
    flowers="f1 f2 f7 f8",
)
# Seven flowers in a normal win: one 一台花 (f1-f4), no 一台草 (no second 4); West: f3 f7 正花.
case(
    "seven flowers in a normal win",
    PING,
    "8s",
    {
        "flower-set": 1,
        "right-flower": 2,
        "wrong-flower": 5,
        "small-ping-hu": 1,
        "concealed-hand": 1,
        "eye-258": 1,
        "no-honors": 1,
    },
    37,
    flowers="f1 f2 f3 f4 f5 f6 f7",
    seat="ww",
)
# All eight flowers in a normal win (no flower_win key): two 一台花; North: f4 f8 正花.
case(
    "eight flowers in a normal win",
    DUIPENG,
    "7s",
    {
        "flower-set": 2,
        "right-flower": 2,
        "wrong-flower": 6,
        "dual-pung-wait": 1,
        "eye-258": 1,
        "concealed-hand": 1,
        "no-honors": 1,
    },
    56,
    flowers=EIGHT,
    seat="wn",
)

# -- win forms, 暗间 -----------------------------------------------------------------------------
# 对碰 on a discard: 777s is exposed (no 两暗间).
case(
    "dual pung wait on a discard",
    DUIPENG,
    "7s",
    {"dual-pung-wait": 1, "eye-258": 1, "concealed-hand": 1, "no-honors-no-flowers": 1},
    13,
)
# Self-drawn, 777s is concealed: 两暗间 with 999s.
case(
    "dual pung wait self-drawn",
    DUIPENG,
    "7s",
    {
        "dual-pung-wait": 1,
        "eye-258": 1,
        "concealed-self-drawn": 1,
        "no-honors-no-flowers": 1,
        "two-concealed-pungs": 1,
    },
    23,
    tsumo=True,
)
# 速食: 5 tiles seen: 七只内 (removes 十只内).
case(
    "within seven tiles",
    DUIPENG,
    "7s",
    {
        "within-seven": 1,
        "dual-pung-wait": 1,
        "eye-258": 1,
        "concealed-hand": 1,
        "no-honors-no-flowers": 1,
    },
    63,
    tiles_seen=5,
)
case(
    "within seven tiles: exactly seven",
    DUIPENG,
    "7s",
    {
        "within-seven": 1,
        "dual-pung-wait": 1,
        "eye-258": 1,
        "concealed-hand": 1,
        "no-honors-no-flowers": 1,
    },
    63,
    tiles_seen=7,
)
case(
    "within ten tiles",
    PING,
    "8s",
    {"within-ten": 1, "big-ping-hu": 1, "concealed-hand": 1, "eye-258": 1},
    44,
    tiles_seen=10,
)
case(
    "eleven tiles seen is not fast",
    PING,
    "8s",
    {"big-ping-hu": 1, "concealed-hand": 1, "eye-258": 1},
    19,
    tiles_seen=11,
)

# -- 字类, 三元四喜类 ----------------------------------------------------------------------------
# South seat, East round: East pung (round) and South pung (seat) are 正字, North 不正字;
# three wind pungs: 大三风; 5p single wait (独独) and a 2-5-8 eye; m and p only: 缺一门.
case(
    "big three winds",
    "123m 456m 5p",
    "5p",
    {
        "big-three-winds": 1,
        "right-honor": 2,
        "wrong-honor": 1,
        "right-flower": 1,
        "single-wait": 1,
        "missing-one-suit": 1,
        "eye-258": 1,
    },
    65,
    melds="pwe@L pws@O pwn@R",
    seat="ws",
    flowers="f2",
)
# 小三风: East and South pungs, North eye; East seat and round: East 双番字, South 不正字.
# 123p 456p 789p in hand: 暗龙 (removes 明龙); pin + honours: 混一色; only wn wins: 独独.
case(
    "small three winds",
    "123p 456p 789p wn",
    "wn",
    {
        "small-three-winds": 1,
        "double-wind": 1,
        "wrong-honor": 1,
        "half-flush": 1,
        "concealed-straight": 1,
        "single-wait": 1,
        "no-flowers": 1,
    },
    89,
    melds="pwe@L pws@O",
)
# 小四喜 removes 大三风 and 小三风. North seat, South round: ws 正字, we ww 不正字. 111s and 789m:
# every set and the eye hold a terminal or honour: 连么. m and s only: 缺一门.
case(
    "small four winds",
    "111s 789m wn",
    "wn",
    {
        "small-four-winds": 1,
        "right-honor": 1,
        "wrong-honor": 2,
        "missing-one-suit": 1,
        "single-wait": 1,
        "no-flowers": 1,
        "outside-hand": 1,
    },
    132,
    melds="pwe@L pws@O pww@R",
    seat="wn",
    rnd="ws",
)
# 大四喜 removes 大三风. East seat and round: we 双番字, the other three 不正字.
case(
    "big four winds",
    "234m 5p",
    "5p",
    {
        "big-four-winds": 1,
        "double-wind": 1,
        "wrong-honor": 3,
        "missing-one-suit": 1,
        "eye-258": 1,
        "single-wait": 1,
        "no-flowers": 1,
    },
    137,
    melds="pwe@L pws@O pww@R pwn@L",
)
# 大三元: dragon pungs are 正字 (2 each); sou + honours: 混一色; 123s 567s 9s waits only 9s.
case(
    "big three dragons",
    "123s 567s 9s",
    "9s",
    {
        "big-three-dragons": 1,
        "right-honor": 3,
        "half-flush": 1,
        "single-wait": 1,
        "no-flowers": 1,
    },
    109,
    melds="pdr@L pdg@O pdw@R",
)
case(
    "small three dragons",
    "234m 345m 678m dw",
    "dw",
    {
        "small-three-dragons": 1,
        "right-honor": 2,
        "half-flush": 1,
        "single-wait": 1,
        "no-flowers": 1,
    },
    87,
    melds="pdr@L pdg@O",
)
# Seat and round both South: the South pung is 双番字; West 不正字; White 正字; all five
# families: 五门齐.
case(
    "double wind for the south seat in the south round",
    "234m 678p 9s",
    "9s",
    {"double-wind": 1, "wrong-honor": 1, "right-honor": 1, "single-wait": 1,
     "no-flowers": 1, "five-gates": 1},
    21,
    melds="pws@L pww@O pdw@R",
    seat="ws",
    rnd="ws",
)  # fmt: skip

# -- 兄弟相逢类 --------------------------------------------------------------------------------
# 666m + 666s: 两兄弟; East pung in hand for a South seat in an East round: 正字; eye 中;
# all five families: 五门齐.
case(
    "two brothers and five gates",
    "234p 789s we we we dr",
    "dr",
    {"two-brothers": 1, "five-gates": 1, "right-honor": 1, "single-wait": 1, "no-flowers": 1},
    20,
    melds="p6m@O p6s@L",
    seat="ws",
)
# Two numbers with brothers: 2 (m, p) and 5 (m, s) — 两兄弟 twice; 222p 555m in hand: 两暗间.
case(
    "two brothers twice",
    "222p 555m 789p 1s",
    "1s",
    {"two-brothers": 2, "two-concealed-pungs": 1, "single-wait": 1,
     "no-honors-no-flowers": 1},
    25,
    melds="p2m@O p5s@L",
)  # fmt: skip
# 333 in three suits: 三兄弟; four concealed pungs (the melded 999s is not): 四暗间 (removes
# 三暗间, 两暗间); 333p + 5p also waits 4p (33p + 345p): 假独; self-drawn but not 门清: 自摸.
case(
    "three brothers, four concealed pungs",
    "333m 333p 333s 777m 5p",
    "5p",
    {
        "three-brothers": 1,
        "all-pungs": 1,
        "four-concealed-pungs": 1,
        "self-drawn": 1,
        "eye-258": 1,
        "false-single-wait": 1,
        "no-honors-no-flowers": 1,
    },
    131,
    melds="p9s@O",
    tsumo=True,
)
# 123 in three suits: 三相逢; 123m 456p 789s: 花龙. Self-drawn single wait: two 平胡 conditions
# broken; 门清一摸五.
case(
    "three meet and mixed straight",
    "123m 123p 123s 456p 789s 9m",
    "9m",
    {
        "three-meet": 1,
        "mixed-straight": 1,
        "concealed-self-drawn": 1,
        "single-wait": 1,
        "no-honors-no-flowers": 1,
    },
    38,
    tsumo=True,
)

# -- 暗间, 对对胡, 么类 -----------------------------------------------------------------------------
case(
    "five concealed pungs",
    "111m 444p 777s 999s 222p 5m",
    "5m",
    {
        "five-concealed-pungs": 1,
        "all-pungs": 1,
        "concealed-self-drawn": 1,
        "eye-258": 1,
        "single-wait": 1,
        "no-honors-no-flowers": 1,
    },
    169,
    tsumo=True,
)
# 全么 removes 对对胡 and 连么; 1 in three suits (三兄弟), 9 in two (两兄弟, 9s is the eye);
# four concealed pungs.
case(
    "all terminals",
    "999m 111p 999p 111s 9s",
    "9s",
    {
        "all-terminals": 1,
        "four-concealed-pungs": 1,
        "three-brothers": 1,
        "two-brothers": 1,
        "no-honors-no-flowers": 1,
        "single-wait": 1,
    },
    225,
    melds="p1m@L",
)
# 花么 removes 对对胡 and 连么; East 双番字, red 正字; three concealed pungs; 111m + 111s 两兄弟;
# three suits, a wind and a dragon: 五门齐.
case(
    "terminals and honours",
    "111m 999p 111s 9s",
    "9s",
    {
        "terminals-and-honors": 1,
        "double-wind": 1,
        "right-honor": 1,
        "three-concealed-pungs": 1,
        "two-brothers": 1,
        "self-drawn": 1,
        "single-wait": 1,
        "no-flowers": 1,
        "five-gates": 1,
    },
    116,
    melds="pwe@L pdr@O",
    tsumo=True,
)
# 连么: 123m 789p 789s 111s, white pung, 9m eye; 789p + 789s 两相逢.
case(
    "outside hand",
    "123m 789p 789s 111s 9m",
    "9m",
    {"outside-hand": 1, "right-honor": 1, "two-meet": 1, "single-wait": 1, "no-flowers": 1},
    37,
    melds="pdw@O",
)
# 断么; four 6m as 666m + 678m: 四归二; f4 f8 are not East's.
case(
    "all simples with four in two",
    "666m 678m 234p 345p 456s 5s",
    "5s",
    {
        "all-simples": 1,
        "four-in-two": 1,
        "concealed-self-drawn": 1,
        "eye-258": 1,
        "single-wait": 1,
        "wrong-flower": 2,
        "no-honors": 1,
    },
    24,
    tsumo=True,
    flowers="f4 f8",
)

# -- 四归, 般高 --------------------------------------------------------------------------------
# 66m + 678m + 678m: 四归三 and 二般高; 12p edge wait (独独) breaks one 平胡 condition.
case(
    "four in three",
    "66m 678m 678m 12p 456p 789s",
    "3p",
    {
        "four-in-three": 1,
        "two-identical-chows": 1,
        "small-ping-hu": 1,
        "concealed-hand": 1,
        "single-wait": 1,
        "no-honors-no-flowers": 1,
    },
    41,
)
# 678m four times: 四般高 removes the three 四归四 (6m, 7m, 8m).
case(
    "four identical chows",
    "666677778888m 234p 9s",
    "9s",
    {
        "four-identical-chows": 1,
        "concealed-hand": 1,
        "single-wait": 1,
        "small-ping-hu": 1,
        "no-honors-no-flowers": 1,
    },
    136,
)
# 6m in 456m 567m 678m 678m: 四归四; 678m twice: 二般高.
case(
    "four in four",
    "456m 567m 678m 678m 234p 1s",
    "1s",
    {
        "four-in-four": 1,
        "two-identical-chows": 1,
        "concealed-self-drawn": 1,
        "single-wait": 1,
        "no-honors-no-flowers": 1,
    },
    63,
    tsumo=True,
)
# 123p three times: read as three chows (三般高 30 + 花龙 10 + 小平胡 3 …) = 57 beats three
# concealed pungs 111p 222p 333p (三暗间 30 …) = 44.
case(
    "three identical chows beat three concealed pungs",
    "111222333p 456s 789m 5m",
    "5m",
    {
        "three-identical-chows": 1,
        "mixed-straight": 1,
        "small-ping-hu": 1,
        "eye-258": 1,
        "concealed-hand": 1,
        "single-wait": 1,
        "no-honors-no-flowers": 1,
    },
    57,
)

# -- 龙类, 大牌类 -------------------------------------------------------------------------------
# 明龙 with a claimed 123s; 2m eye (345m + 2m also waits 5m: 假独); f5 is East's flower.
case(
    "open straight",
    "456s 789s 345m 777p 2m",
    "2m",
    {"open-straight": 1, "false-single-wait": 1, "eye-258": 1, "right-flower": 1,
     "no-honors": 1},
    15,
    melds="c123s",
    flowers="f5",
)  # fmt: skip
case(
    "concealed straight",
    "123s 456s 789s 234m dg dg dg 5p",
    "5p",
    {"concealed-straight": 1, "right-honor": 1, "concealed-hand": 1, "single-wait": 1,
     "no-flowers": 1, "eye-258": 1},
    29,
)  # fmt: skip
# 清一色 with melds; 678m 789m 9m waits 6m and 9m; the 99m eye reading gives 假独.
case(
    "full flush",
    "678m 789m 9m",
    "9m",
    {"full-flush": 1, "false-single-wait": 1, "no-honors-no-flowers": 1},
    69,
    melds="p1m@O c234m c567m",
)

# -- 槓类 ------------------------------------------------------------------------------------
# A melded kong is an 暗间 too: with 999p, 两暗间. f1 f5: East's two flowers.
case(
    "melded kong",
    "234m 678m 345s 999p 7s",
    "7s",
    {"melded-kong": 1, "two-concealed-pungs": 1, "single-wait": 1, "right-flower": 2,
     "no-honors": 1},
    13,
    melds="k5p@O",
    flowers="f1 f5",
)  # fmt: skip
case(
    "concealed kong",
    "234s 456s 789m 333p 8s",
    "8s",
    {
        "concealed-kong": 1,
        "two-concealed-pungs": 1,
        "concealed-self-drawn": 1,
        "eye-258": 1,
        "single-wait": 1,
        "no-honors-no-flowers": 1,
    },
    26,
    melds="K7p",
    tsumo=True,
)
# Two melded kongs (one added to a pung) + 111s: 三暗间; f2 f3 not East's.
case(
    "two melded kongs",
    "345p 567p 111s 9m",
    "9m",
    {"two-melded-kongs": 1, "three-concealed-pungs": 1, "single-wait": 1,
     "wrong-flower": 2, "no-honors": 1},
    39,
    melds="k2m@L A8s",
    flowers="f2 f3",
)  # fmt: skip
# A melded and a concealed kong: 阴阳槓 (removes 明槓, 暗槓); a melded kong: no 门清, so 自摸.
case(
    "yin yang kongs",
    "123m 456m 789s we",
    "we",
    {
        "yin-yang-kongs": 1,
        "two-concealed-pungs": 1,
        "right-honor": 1,
        "self-drawn": 1,
        "single-wait": 1,
        "five-gates": 1,
        "no-flowers": 1,
    },
    27,
    melds="k3p@R Kdr",
    seat="ws",
    tsumo=True,
)
# Two concealed kongs keep 门清; 234 in three suits; 234p + 5p also waits 2p: 假独.
case(
    "two concealed kongs",
    "234m 234p 234s 5p",
    "5p",
    {
        "two-concealed-kongs": 1,
        "two-concealed-pungs": 1,
        "three-meet": 1,
        "concealed-hand": 1,
        "eye-258": 1,
        "false-single-wait": 1,
        "no-honors-no-flowers": 1,
    },
    36,
    melds="K1s K9s",
)
# 三槓 removes every one- and two-kong row; four flowers of one kind: 一台花.
case(
    "three kongs",
    "123s 789m 5s",
    "5s",
    {
        "three-kongs": 1,
        "three-concealed-pungs": 1,
        "self-drawn": 1,
        "eye-258": 1,
        "single-wait": 1,
        "right-flower": 1,
        "wrong-flower": 3,
        "flower-set": 1,
        "no-honors": 1,
    },
    90,
    melds="k4m@O K6p k8s@L",
    flowers="f1 f2 f3 f4",
    tsumo=True,
)
# East seat, South round: the East kong is 正字.
case(
    "four kongs",
    "234s 6p",
    "6p",
    {"four-kongs": 1, "four-concealed-pungs": 1, "right-honor": 1, "single-wait": 1,
     "no-flowers": 1},
    145,
    melds="K1m k5p@O K9s kwe@R",
    rnd="ws",
)  # fmt: skip
case(
    "five kongs",
    "7m",
    "7m",
    {
        "five-kongs": 1,
        "five-concealed-pungs": 1,
        "all-pungs": 1,
        "right-honor": 1,
        "self-drawn": 1,
        "single-wait": 1,
        "no-flowers": 1,
    },
    276,
    melds="K2m k3p@O K4s k5s@L Kdg",
    tsumo=True,
)
case(
    "win on a kong replacement",
    "123p 456p 789s 234s 6m",
    "6m",
    {
        "kong-bloom": 1,
        "concealed-kong": 1,
        "concealed-self-drawn": 1,
        "single-wait": 1,
        "no-honors-no-flowers": 1,
    },
    40,
    melds="K5m",
    kong_replacement=True,
)

# -- 求类 ------------------------------------------------------------------------------------
FIVE_MELDS = "c123m p5p@O c456s p7s@R pwe@O"
case(
    "all claimed",
    "9m",
    "9m",
    {"all-claimed": 1, "right-honor": 1, "single-wait": 1, "right-flower": 1},
    21,
    melds=FIVE_MELDS,
    seat="ws",
    flowers="f6",
)
case(
    "half claimed",
    "9m",
    "9m",
    {"half-claimed": 1, "self-drawn": 1, "right-honor": 1, "single-wait": 1, "right-flower": 1},
    15,
    melds=FIVE_MELDS,
    seat="ws",
    flowers="f6",
    tsumo=True,
)


# -- more hands: wait readings, choices between arrangements, variants ----------------------------
# 57s closed wait (only 6s wins): 独独; a one-tile shape breaks one 平胡 condition.
case(
    "closed wait",
    "123m 456m 789p 234s 55p 57s",
    "6s",
    {"single-wait": 1, "small-ping-hu": 1, "concealed-hand": 1, "eye-258": 1,
     "no-honors-no-flowers": 1},
    17,
)  # fmt: skip
# 89s edge wait (only 7s): 独独; 789p + 789s: 两相逢.
case(
    "edge wait",
    "123m 456m 789p 234s 55p 89s",
    "7s",
    {"single-wait": 1, "small-ping-hu": 1, "concealed-hand": 1, "eye-258": 1,
     "no-honors-no-flowers": 1, "two-meet": 1},
    19,
)  # fmt: skip
# 55p + East pair, East self-drawn: 对碰, the East pung is concealed (one 暗间 only), 双番字.
case(
    "dual pung wait on an honour, self-drawn",
    "123m 456m 234p 55p we we 789s",
    "we",
    {"dual-pung-wait": 1, "eye-258": 1, "concealed-self-drawn": 1, "double-wind": 1,
     "no-flowers": 1},
    16,
    tsumo=True,
)  # fmt: skip
# One suit + red eye, 123 456 789 of sou in hand: 暗龙 and 混一色. The win tile 7s can be read
# in 567s (two-sided: 小平胡 3) or in 789s (edge: 假独 1, and no 平胡); the first is better.
case(
    "half flush with a concealed straight, best wait reading",
    "123s 456s 789s 234s 56s dr dr",
    "7s",
    {"half-flush": 1, "concealed-straight": 1, "small-ping-hu": 1, "concealed-hand": 1,
     "no-flowers": 1},
    57,
)  # fmt: skip
# The dealer without a streak: 庄 only.
case(
    "dealer",
    PING,
    "8s",
    {"big-ping-hu": 1, "concealed-hand": 1, "eye-258": 1, "dealer": 1},
    20,
    dealer=True,
)
# 连庄 3: 拉庄 2×3 = 6.
case(
    "dealer on a third streak",
    PING,
    "8s",
    {"big-ping-hu": 1, "concealed-hand": 1, "eye-258": 1, "dealer": 1,
     "dealer-streak": (6, 1)},
    26,
    dealer=True,
    dealer_streak=3,
)  # fmt: skip
# 147 in every suit is 十六不搭 but not 三不搭.
case(
    "sixteen unrelated without three knitted",
    "1447m 147p 147s we ws ww wn dr dw",
    "dg",
    {"sixteen-unrelated": 1, "five-gates": 1, "no-flowers": 1},
    61,
)
# 呖咕呖咕 of sou and honours: 混一色; green triplet: 正字.
case(
    "lik gu half flush",
    "11s 22s 33s 55s 77s 99s we we dg dg",
    "dg",
    {"lik-gu": 1, "half-flush": 1, "right-honor": 1, "no-flowers": 1},
    73,
)
# 2222 33 44 55 66 77 888m self-drawn on 8m. As 呖咕呖咕: 40 + 清一色 60 + 断么 5 + 自摸 1 +
# 无字花 8 = 114. As 22 + 234 234 + 567 567 + 888: 二般高 ×2 10 + 清一色 60 + 断么 5 + 四归三 20
# + 门清一摸五 8 + 将眼 1 + 对碰 1 + 无字花 8 = 113. The better reading counts.
case(
    "lik gu beats the standard reading by one",
    "2222m 33m 44m 55m 66m 77m 88m",
    "8m",
    {"lik-gu": 1, "full-flush": 1, "all-simples": 1, "self-drawn": 1,
     "no-honors-no-flowers": 1},
    114,
    tsumo=True,
)  # fmt: skip
# Two numbers meeting twice: 123m/123p and 456m/456s; 123m 456s 789p: 花龙.
case(
    "two meet twice and a mixed straight",
    "123m 123p 456m 456s 789p 9s",
    "9s",
    {"two-meet": 2, "mixed-straight": 1, "small-ping-hu": 1, "concealed-hand": 1,
     "single-wait": 1, "no-honors-no-flowers": 1},
    30,
)  # fmt: skip
# 天胡 with 呖咕呖咕: both count; 天胡 removes 自摸 and the 门清 rows.
case(
    "heavenly lik gu",
    "11m 44m 77m 22p 55p 88p 33s 99s",
    "9s",
    {"heavenly-win": 1, "lik-gu": 1, "dealer": 1, "no-honors-no-flowers": 1},
    169,
    tsumo=True,
    dealer=True,
    heavenly=True,
)
# A self-drawn win with 3 tiles seen: 七只内.
case(
    "within seven tiles, self-drawn",
    "234s 456s 789m 333p 8s",
    "8s",
    {
        "within-seven": 1,
        "concealed-kong": 1,
        "two-concealed-pungs": 1,
        "concealed-self-drawn": 1,
        "eye-258": 1,
        "single-wait": 1,
        "no-honors-no-flowers": 1,
    },
    76,
    melds="K7p",
    tsumo=True,
    tiles_seen=3,
)
# A melded 555p and 456p in hand: 四归二; 234s + 1s waits 1s and 4s: 假独.
case(
    "four in two with a melded pung",
    "456p 123m 789m 234s 1s",
    "1s",
    {"four-in-two": 1, "false-single-wait": 1, "no-honors-no-flowers": 1},
    14,
    melds="p5p@O",
)
# 6777 8s in hand + a discarded 7s. Read as 777s + 678s with the discard completing the pung
# (对碰 with 99p), 777s would be exposed: 两暗间 5 + 对碰 1. Read as 777s (in hand) + 6_8s
# completed by the discard (closed wait; waits 7s and 9p: 假独), 777s stays concealed: 三暗间 30
# + 假独 1. Both have 四归二 (four 7s as pung + chow), 门清, 无字花; the second reading counts.
case(
    "a closed-wait reading keeps the pung concealed",
    "222m 444p 345m 99p 77s 678s",
    "7s",
    {"three-concealed-pungs": 1, "four-in-two": 1, "false-single-wait": 1,
     "concealed-hand": 1, "no-honors-no-flowers": 1},
    47,
)  # fmt: skip
case(
    "all pungs",
    "999m dr dr dr 5s",
    "5s",
    {"all-pungs": 1, "two-concealed-pungs": 1, "right-honor": 1, "eye-258": 1,
     "single-wait": 1, "no-flowers": 1},
    41,
    melds="p2m@O p7p@L p4s@R",
)  # fmt: skip
# South seat with the four plants: 一台花, f6 正花, three 不正花 — no longer a 鸡胡.
case(
    "a flower set lifts a chicken hand",
    CHICKEN["hand"],
    "2p",
    {"flower-set": 1, "right-flower": 1, "wrong-flower": 3},
    25,
    melds=CHICKEN["melds"],
    seat="ws",
    flowers="f5 f6 f7 f8",
)
# 八仙过海 with a complete hand of 17 tiles still scores only 八仙过海.
case(
    "eight immortals with a complete hand",
    PING,
    "8s",
    {"eight-immortals": 1},
    100,
    flowers=EIGHT,
    tsumo=True,
    flower_win="eight",
)
case(
    "seven rob one",
    "123m 456p 99s we dr dg wn 1p 5s 7s",
    "2s",
    {"seven-robs-one": 1},
    50,
    flowers=EIGHT,
    flower_win="seven-robs-one",
)
# 十三么 whose set is 555p; West seat with f3 f7.
case(
    "thirteen orphans with a simple pung",
    "19m 19p 19s 55p we we ws ww wn dr dg dw",
    "5p",
    {"thirteen-orphans": 1, "five-gates": 1, "right-flower": 2},
    94,
    seat="ww",
    flowers="f3 f7",
)
# Characters and bamboo only: 缺一门.
case(
    "missing one suit",
    "456m 678s 345m 2s",
    "2s",
    {"missing-one-suit": 1, "eye-258": 1, "single-wait": 1, "no-honors-no-flowers": 1},
    16,
    melds="c123m p9s@O",
)

# 23m waits 1m and 4m, but all four 4m are the winner's own melded kong: only 1m can win.
# "只得一只食胡牌" is 独独's definition (偏章/卡窿/单吊 are its examples), so a two-sided shape
# with one live tile is 独独. Kong + 111s: 两暗间.
case(
    "single wait on a two-sided shape",
    "23m 456p 789p 111s 99s",
    "1m",
    {"single-wait": 1, "melded-kong": 1, "two-concealed-pungs": 1, "no-honors-no-flowers": 1},
    16,
    melds="k4m@O",
)


def render() -> str:
    return "".join(json.dumps(c, ensure_ascii=False) + "\n" for c in CASES)


if __name__ == "__main__":
    (HERE / "tw16_tai.jsonl").write_text(render(), "utf-8")
    print(f"wrote {len(CASES)} cases")
