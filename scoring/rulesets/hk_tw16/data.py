"""The table's data: the 189 patterns of 港式台牌 V1 (package data) and English glosses.

``scoring/data/hk_taiwan_16_v1.json`` is a copy of ``shared/rules/hk_taiwan_16_v1.json``;
names, categories and values are read from it, so the code never re-types a number.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

__all__ = ["EN", "PatternData", "table"]


@dataclass(frozen=True, slots=True)
class PatternData:
    """One JSON row: id, Chinese name, category, fan kind and numbers."""

    id: str
    name: str
    category: str
    kind: str  # fixed | open-closed | formula | plus | penalty
    display: str
    n: int  # fixed / plus value (0 for the others)
    open: int  # open-closed: 明 value
    closed: int  # open-closed: 暗 value
    description: str
    exclusions: str
    examples: tuple[dict[str, Any], ...]


@cache
def table() -> dict[str, PatternData]:
    """Every pattern of the JSON, by id, in table order."""
    raw = json.loads(
        resources.files("scoring").joinpath("data/hk_taiwan_16_v1.json").read_text("utf-8")
    )
    out: dict[str, PatternData] = {}
    for p in raw["patterns"]:
        fan = p["fan"]
        out[p["id"]] = PatternData(
            id=p["id"],
            name=p["name"],
            category=p["categoryId"],
            kind=fan["kind"],
            display=fan.get("display", ""),
            n=int(fan.get("n", 0)),
            open=int(fan.get("open", 0)),
            closed=int(fan.get("closed", 0)),
            description=p.get("description", ""),
            exclusions=p.get("exclusions") or "",
            examples=tuple(p.get("examples") or ()),
        )
    return out


#: English glosses of every pattern id (shown by ``mahjong-score --text``).
EN: dict[str, str] = {
    "no-flower": "no flowers",
    "flower": "flowers (1 each, +1 seat flower)",
    "no-honor": "no honours",
    "wind-pung": "wind pung",
    "dragon-pung": "dragon pung",
    "no-honor-flower": "no honours, no flowers",
    "seven-flowers": "seven flowers",
    "one-robs-seven": "one robs seven (flowers)",
    "seven-robs-one": "seven robs one (flowers)",
    "eight-flowers": "all eight flowers",
    "six-wrong-flowers": "six flowers, none of one's seat",
    "ting": "concealed declared ready",
    "instant-eat": "win within a go-round of declaring",
    "heaven-ting": "heavenly ready (declared before the first draw)",
    "earth-ting": "earthly ready (declared on the first draw)",
    "three-ting-one-laugh": "three ready, the fourth wins",
    "heaven-earth-slay": "beating a heavenly/earthly ready",
    "dealer": "dealer",
    "dealer-streak": "dealer streak (2n)",
    "fake-single": "false single wait",
    "pair-wait": "dual-pair wait",
    "true-single": "true single wait",
    "pinghu": "all chows",
    "clean-pinghu": "all chows, no honours, no flowers",
    "tsumo": "self-drawn",
    "flower-tsumo": "self-draw on a flower replacement",
    "kong-tsumo": "self-draw on a kong replacement",
    "chain-flower-kong-tsumo": "self-draw after a chain of replacements",
    "haidi": "last tile self-drawn",
    "hedi": "last discard",
    "last-tile-absolute": "winning on the last copy (15n)",
    "double-win": "double win",
    "triple-win": "triple win",
    "fanxue": "revenge self-draw (x2 of multi-win bonus)",
    "duanyao": "all simples",
    "que-five": "no fives",
    "que-one-suit": "two suits only",
    "three-treasures": "three treasures",
    "four-treasures": "four treasures",
    "five-treasures": "five treasures",
    "six-treasures": "six treasures",
    "small-five-gates": "small five gates",
    "big-five-gates": "big five gates",
    "small-seven-gates": "small seven gates",
    "big-seven-gates": "big seven gates",
    "sisters": "mixed double chow",
    "pungao": "pure double chow",
    "three-meet": "mixed triple chow",
    "triple-pungao": "pure triple chow",
    "mixed-v": "mixed shifted chows",
    "pure-v": "pure shifted chows",
    "mixed-dragon": "mixed straight",
    "pure-dragon": "pure straight",
    "one-suit-four-step": "pure four shifted chows",
    "three-suit-four-step": "mixed four shifted chows",
    "mixed-ladder": "mixed five shifted chows (ladder)",
    "pure-ladder": "pure five shifted chows (ladder)",
    "double-sisters": "two mixed double chows",
    "double-pungao": "two pure double chows",
    "small-double-pungao": "pure double chow with adjacent eye",
    "four-meet": "mixed triple chow + one more",
    "five-meet": "five chows of the same numbers",
    "all-pungao": "pure triple chow + pure double chow",
    "small-all-sisters": "small all-sisters",
    "all-sisters": "mixed triple chow + mixed double chow",
    "double-dragon-meet": "pure straight + mixed straight",
    "double-mixed-dragon": "two mixed straights",
    "double-pure-dragon": "two pure straights",
    "laoshao-chow": "two terminal chows (123+789)",
    "laoshao-pung": "one-nine pungs of a suit",
    "double-laoshao-chow": "two pairs of terminal chows",
    "double-laoshao-pung": "two suits of one-nine pungs",
    "all-pungs": "all pungs",
    "brothers": "double pung (two suits)",
    "small-three-brothers": "small triple pung",
    "big-three-brothers": "triple pung (three suits)",
    "all-brothers": "all brothers (triple + small triple pung)",
    "two-consec-pung": "two shifted pungs",
    "small-three-consec": "small three shifted pungs",
    "big-three-consec": "three shifted pungs",
    "small-four-consec": "small four shifted pungs",
    "big-four-consec": "four shifted pungs",
    "small-five-consec": "small five shifted pungs",
    "big-five-consec": "five shifted pungs",
    "small-six-consec": "small six shifted pungs",
    "small-mixed-three": "small mixed three shifted pungs",
    "big-mixed-three": "mixed three shifted pungs",
    "small-mixed-four": "small mixed four shifted pungs",
    "big-mixed-four": "mixed four shifted pungs",
    "small-mixed-five": "small mixed five shifted pungs",
    "big-mixed-five": "mixed five shifted pungs",
    "small-mixed-six": "small mixed six shifted pungs",
    "two-concealed": "two concealed pungs",
    "three-concealed": "three concealed pungs",
    "four-concealed": "four concealed pungs",
    "five-concealed": "five concealed pungs",
    "kan-kan": "self-drawn five concealed pungs",
    "rob-kong": "robbing a kong",
    "one-kong": "one kong",
    "two-kong": "two kongs",
    "three-kong": "three kongs",
    "four-kong": "four kongs",
    "five-kong": "five kongs",
    "four-gui-one": "four alike in a pung and a chow",
    "four-gui-two": "four alike in two chows and the eye",
    "four-gui-four": "four alike in four chows",
    "eight-gui-one": "two fours alike in one chow and two pungs",
    "eight-gui-four": "two fours alike in four chows",
    "twelve-gui-one": "three fours alike in one chow and three pungs",
    "twelve-gui-four": "three fours alike in four chows",
    "small-three-winds": "small three winds",
    "big-three-winds": "big three winds",
    "small-four-winds": "small four winds",
    "big-four-winds": "big four winds",
    "small-three-dragons": "small three dragons",
    "big-three-dragons": "big three dragons",
    "menqing": "concealed hand",
    "menqing-big-ting": "fully concealed declared ready",
    "men-ting-mo": "concealed ready, self-drawn",
    "half-qiuren": "half melded hand (self-drawn)",
    "full-qiuren": "fully melded hand",
    "heaven-win": "heavenly hand",
    "earth-win": "earthly hand",
    "human-win": "human hand (first self-draw)",
    "four-left": "four tiles left",
    "seven-left": "seven tiles left",
    "ten-left": "ten tiles left",
    "likgu": "seven pairs and a pung",
    "big-likgu": "big likgu (+10 per double pair)",
    "suit-three-pairs": "three consecutive pairs of a suit",
    "suit-four-pairs": "four consecutive pairs of a suit",
    "suit-five-pairs": "five consecutive pairs of a suit",
    "suit-six-pairs": "six consecutive pairs of a suit",
    "suit-seven-pairs": "seven consecutive pairs of a suit",
    "heaven-likgu": "likgu through 1-8 or 2-9",
    "eight-wait": "eight-pair wait",
    "sixteen": "sixteen unrelated",
    "sixteen-meet": "sixteen unrelated, same numbers",
    "true-sixteen": "true sixteen unrelated (147/258/369)",
    "sixteen-wait": "sixteen-sided wait",
    "thirteen-orphans": "thirteen orphans",
    "thirteen-wait": "thirteen-sided wait",
    "orphan-terminal-chow": "thirteen orphans with a terminal chow",
    "orphan-honor-pung": "thirteen orphans with a terminal/honour pung",
    "half-flush": "half flush",
    "full-flush": "full flush",
    "all-green": "all green",
    "all-honors": "all honours",
    "dark-flush": "all dark (winds, white, 8p)",
    "nine-gates": "nine gates",
    "nine-wait": "nine-sided nine gates",
    "mixed-outside": "outside hand with honours",
    "pure-outside": "pure outside hand",
    "mixed-terminals": "all terminals and honours",
    "pure-terminals": "all terminals",
    "mixed-all-contain": "all sets hold one number (with honours)",
    "pure-all-contain": "all sets hold one number",
    "mixed-small": "small numbers (1-4) with honours",
    "mixed-big": "big numbers (6-9) with honours",
    "pure-small": "small numbers (1-4)",
    "pure-big": "big numbers (6-9)",
    "dragon-eye": "2/5/8 eye",
    "two-numbers": "two numbers only",
    "three-numbers": "three numbers only",
    "all-odd": "all odd numbers",
    "all-even": "all even numbers",
    "mixed-odd": "odd numbers with honours",
    "mixed-even": "even numbers with honours",
    "all-dragon-eyes": "2/5/8 only",
    "mixed-dragon-eyes": "2/5/8 with honours",
    "big-chicken": "big chicken hand",
    "big-duck": "big duck hand (self-drawn chicken)",
    "one-grass": "set of plants",
    "one-flower-set": "set of seasons",
    "wei-dice": "dice triple",
    "one-two-three": "dice 1-2-3 / 4-5-6",
    "hidden-kong-pay": "concealed / heavenly kong payment",
    "false-win": "false win",
    "zhen-ting": "furiten / touching",
    "chase": "chasing discards",
    "self-chase": "self-chasing discards",
    "call-pong-no": "called pung, could not",
    "call-kong-no": "called kong, could not",
    "no-draw-discard": "drew/discarded out of turn",
    "wrong-tile": "took no / the wrong tile",
    "hide-kong": "concealed kong not shown",
    "wrong-kong": "false concealed kong",
    "dingpai": "declared ready",
    "paicheng": "spilled tiles",
}
