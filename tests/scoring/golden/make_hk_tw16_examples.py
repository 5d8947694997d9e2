"""Write hk_tw16_examples.jsonl: every example hand of hk_taiwan_16_v1.json as a test case.

    python tests/scoring/golden/make_hk_tw16_examples.py

Complete examples are taken as they are (self-drawn unless said otherwise); fragments are
completed here into full hands (``completed: true``, with what was added in ``note``).
Expected values come from the captions ("明般高（5）") or the table's fixed value — never
from the engine. ``mode``: ``best`` (the pattern is in the best arrangement's breakdown),
``some`` (another arrangement scores higher; the pattern is in the arrangement the example
shows), ``absorbed`` (the table's own exclusion removes it: ``by`` is the pattern that does).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parents[2]))

from hk_examples import caption_value, example_hand  # noqa: E402
from hk_spec import hand  # noqa: E402

_OTHER = "456m 789m 345s 678s"  # four sets that add nothing when combined with the fragments

OVERRIDES: dict[str, dict[str, Any]] = {
    # -- fragments completed into full hands -------------------------------------------
    "flower/0": {
        "hand": hand("234m 567m 345p 678p 456s ww", "ww", flowers="f8", seat="wn"),
        "value": 2,
        "note": "f8 held by North (seat-correct): 1 + 1; completed with an all-chow hand",
    },
    "wind-pung/0": {"hand": hand("we we we 234m 567m 345p 678p 9s", "9s"), "value": 2},
    "wind-pung/1": {"hand": hand("234m 567m 345p 678p 9s", "9s", melds="K:ws"), "value": 2},
    "wind-pung/2": {
        "hand": hand("wn wn wn 234m 567m 345p 9s", "9s", melds="K:ww"),
        "value": 4,
        "note": "two wind sets: 2 each",
    },
    "dragon-pung/0": {"hand": hand("dr dr dr 234m 567m 345p 678p 9s", "9s"), "value": 3},
    "seven-flowers/0": {
        "hand": hand(
            "234m 567m 345p 678p 9s",
            "9s",
            flowers="f1 f2 f3 f4 f5 f6 f7",
            flower_win="seven-flowers",
        ),
        "value": 20,
        "note": "a flower win: the 16 tiles held need not be complete",
    },
    "one-robs-seven/0": {
        "hand": hand("234m 567m 345p 678p 9s", "9s", flowers="f8", flower_win="one-robs-seven"),
        "value": 20,
        "note": "B (one flower, f8) robs A's seven",
    },
    "one-robs-seven/1": {
        "hand": hand("234m 567m 345p 67p 9s", "9s", flowers="f8", flower_win="one-robs-seven"),
        "value": 20,
        "note": "B's hand is not ready: the flower win needs no complete hand",
    },
    "seven-robs-one/0": {
        "hand": hand(
            "234m 567m 345p 678p 9s",
            "9s",
            flowers="f1 f2 f3 f4 f5 f6 f8",
            flower_win="seven-robs-one",
        ),
        "value": 30,
        "note": "A's six flowers + the eighth; B holds f7",
    },
    "seven-robs-one/1": {
        "hand": hand(
            "234m 567m 345p 678p 9s",
            "9s",
            flowers="f1 f2 f3 f4 f5 f6 f8",
            flower_win="seven-robs-one",
        ),
        "value": 30,
    },
    "seven-robs-one/2": {
        "hand": hand(
            "234m 567m 345p 678p 9s",
            "9s",
            flowers="f1 f2 f3 f4 f5 f6 f8",
            flower_win="seven-robs-one",
        ),
        "value": 30,
    },
    "eight-flowers/0": {
        "hand": hand("234m 567m 345p 678p 9s", "9s", flowers="f1 f2 f3 f4 f5 f6 f7 f8"),
        "value": 140,
    },
    "six-wrong-flowers/0": {
        "hand": hand("234m 567m 345p 678p 456s ww", "ww", flowers="f2 f3 f4 f6 f7 f8"),
        "value": 30,
        "note": "East seat; completed with an all-chow hand",
    },
    "ting/0": {
        "hand": hand("234m 567m 234p 789p 8s", "8s", melds="K:1s", sd=False, ting=True),
        "value": 15,
        "note": "the 13 tiles + melded kong; won on the 8s by discard",
    },
    "fake-single/0": {
        "hand": hand("1p 1p 1p 2p " + _OTHER, "2p", sd=False),
        "value": 1,
        "note": "1112p waits 2p and 3p",
    },
    "fake-single/1": {
        "hand": hand("1m 2m 3m 4m 567p 789p 345s 678s", "1m", sd=False),
        "value": 1,
        "note": "1234m waits 1m and 4m",
    },
    "pair-wait/0": {
        "hand": hand("1p 1p ww ww " + _OTHER, "1p", sd=False),
        "value": 2,
    },
    "true-single/0": {
        "hand": hand("1p 1p 1p ww " + _OTHER, "ww", sd=False),
        "value": 2,
    },
    "true-single/1": {
        "hand": hand("4p 6p ww ww " + _OTHER, "5p", sd=False),
        "value": 2,
    },
    "kan-kan/0": {"hand": hand("333m 777p 555s we we we dg dg dg 8m", "8m"), "value": 180},
    "kan-kan/1": {"hand": hand("333m 777p 555s we we we dg dg 8m 8m", "dg"), "value": 180},
    "rob-kong/0": {
        "hand": hand("1m 3m " + "567p 789p 345s 678s ww ww", "2m", sd=False, win_robbing_kong=True),
        "value": 5,
        "note": "robbing the 2m added to a kong",
    },
    "one-kong/0": {"hand": hand("567m 345p 678p 456s ww", "ww", melds="K:2m"), "value": 1},
    "two-kong/0": {"hand": hand("567m 345p 456s ww", "ww", melds="K:2m K:9p"), "value": 5},
    "three-kong/0": {"hand": hand("567m 345p ww", "ww", melds="K:2m K:9p K:3s"), "value": 15},
    "four-kong/0": {"hand": hand("567m ww", "ww", melds="K:2m K:9p K:3s K:6s"), "value": 80},
    "five-kong/0": {
        "hand": hand("ww", "ww", melds="K:1m K:9p K:3s K:6s K:dw"),
        "value": 300,
    },
    "menqing-big-ting/0": {
        "hand": hand("234m 456m 678p dw dw dw 8s 8s 2s 3s", "4s", sd=False, ting=True),
        "value": 15,
        "note": "the 18-tile picture reduced to a fully concealed ready hand won on 4s",
    },
    "eight-wait/0": {
        "hand": hand("2m 2m 4m 4m 3p 3p 5p 5p 6s 6s 8s 8s we we wn wn", "2m"),
        "value": 10,
    },
    "sixteen-wait/0": {
        "hand": hand("2m 6m 9m 2p 5p 9p 3s 6s 9s we ws ww wn dr dg dw", "2m"),
        "value": 10,
    },
    "thirteen-wait/0": {
        "hand": hand("6s 7s 8s 1m 9m 1p 9p 1s 9s we ws ww wn dr dg dw", "1m"),
        "value": 13,
    },
    "nine-wait/0": {
        "hand": hand("111p 2345678p 999p", "5p", melds="C:2p"),
        "value": 40,
        "note": "won on 5p (any of the nine)",
    },
    "big-duck/0": {
        "hand": hand("5m 6m 2p 3p 4p 4p 5p 6p dg dg", "7m", melds="P:3s C:3m"),
        "value": 30,
        "note": "won on 7m (the caption's 4m would make 456m+456p 姊妹, not a chicken)",
    },
    "big-chicken/0": {
        "hand": hand("5m 6m 2p 3p 4p 4p 5p 6p dg dg", "7m", melds="C:3m P:3s", sd=False),
        "value": 40,
        "note": "3m4m5m exposed, 3s pung shown; won on 7m by discard (two-sided)",
    },
    # -- complete examples that need a context ---------------------------------------
    "tsumo/0": {"value": 5, "note": "門清自摸 (closed value)"},
    "flower-tsumo/0": {"ctx": {"replacements": ["flower"]}},
    "kong-tsumo/0": {"ctx": {"replacements": ["kong"]}},
    "chain-flower-kong-tsumo/0": {"ctx": {"replacements": ["flower", "flower"]}, "value": 9},
    "chain-flower-kong-tsumo/1": {
        "ctx": {"replacements": ["kong", "flower", "kong"]},
        "value": 28,
        "note": "3¹ + 5²",
    },
    "men-ting-mo/0": {"ctx": {"ting": True}},
    "full-qiuren/0": {"discard": True},
    "big-likgu/0": {"value": 10},
    # -- complete examples whose pattern the table itself removes ---------------------
    "no-honor/0": {"mode": "absorbed", "by": "duanyao"},
    "no-honor-flower/0": {"mode": "absorbed", "by": "clean-pinghu"},
    "three-treasures/0": {
        "mode": "absorbed",
        "by": "four-treasures",
        "note": "no flowers: the hand is 四寶",
    },
    "big-mixed-four/0": {
        "mode": "absorbed",
        "by": "small-mixed-five",
        "note": "the 6p eye continues the run: 小三色五連刻",
    },
    "two-numbers/0": {
        "mode": "absorbed",
        "by": "all-brothers",
        "note": "333/666 in 萬筒 + 666s + 33s is 全兄弟",
    },
    # -- complete examples where another arrangement scores more ----------------------
    "double-pungao/1": {"mode": "some", "note": "7 pairs + dg pung: 嚦咕嚦咕 scores more"},
    "big-three-consec/0": {"mode": "some", "note": "333444555m also reads 345m×3 (暗三般高)"},
    "small-four-consec/0": {"mode": "some", "note": "also reads 345m×3 + 66m"},
    "twelve-gui-one/1": {"mode": "some", "note": "also reads 345m×4 (暗十二歸四 280)"},
    "small-all-sisters/1": {
        "value": 30,
        "note": "caption says （50）; the table value of 小全姊妹 is 30/60 and this one is "
        "open: we score 30 (see docs/rules/hk-tw16.md)",
    },
}

EVENT_EXAMPLES = {"one-grass", "one-flower-set", "hidden-kong-pay"}


def build() -> str:
    """The JSONL text of the examples file."""
    data = json.loads((HERE.parents[2] / "scoring/data/hk_taiwan_16_v1.json").read_text())
    lines = []
    for p in data["patterns"]:
        fan = p["fan"]
        for k, ex in enumerate(p.get("examples") or []):
            if p["id"] in EVENT_EXAMPLES:
                continue
            key = f"{p['id']}/{k}"
            o = OVERRIDES.get(key, {})
            h = o.get("hand") or example_hand(ex)
            completed = "hand" in o
            if h is None:
                raise SystemExit(f"fragment without completion: {key}")
            if o.get("discard"):
                h["win"] = {"self_drawn": False}
            if o.get("ctx"):
                h["context"] = {**h.get("context", {}), **o["ctx"]}
            value = o.get("value", caption_value(ex.get("caption")))
            if value is None:
                if fan["kind"] in ("fixed", "plus"):
                    value = fan["n"]
                else:
                    raise SystemExit(f"no expected value for {key}")
            lines.append(
                {
                    "pattern": p["id"],
                    "example": k,
                    "caption": ex.get("caption"),
                    "completed": completed,
                    "mode": o.get("mode", "best"),
                    "by": o.get("by"),
                    "value": value,
                    "note": o.get("note"),
                    "hand": h,
                }
            )
    return "".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines)


def main() -> None:
    out = HERE / "hk_tw16_examples.jsonl"
    text = build()
    out.write_text(text)
    print(f"{text.count(chr(10))} examples -> {out}")


if __name__ == "__main__":
    main()
