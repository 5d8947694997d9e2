#!/usr/bin/env python3
"""Build tests/scoring/golden/mcr_cases.jsonl: hand-picked MCR cases.

    python scripts/build_mcr_cases.py > tests/scoring/golden/mcr_cases.jsonl

Each case is written by hand below: the hand, what it is about, and the facts checked by eye
(the waits, whether the 8-point minimum is met, a fan it must or must not contain). The full
item list (``expected.items``) is filled in from the independent reference calculator
pymahjonggb, normalised to the 81 fans; the script refuses to write a case whose hand-written
facts the reference contradicts.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "scoring"))

from mcr_gen import oracle_fans  # noqa: E402

from scoring.rulesets.mcr import FANS  # noqa: E402
from scoring.tiles import parse_tiles  # noqa: E402


def T(s: str) -> list[str]:
    return [str(t) for t in parse_tiles(s)]


def chow(s: str, frm: str = "left") -> dict[str, Any]:
    ts = T(s)
    return {"kind": "chow", "tiles": ts, "claimed": ts[0], "from": frm}


def pung(s: str, frm: str = "opposite") -> dict[str, Any]:
    return {"kind": "pung", "tiles": T(s) * 3, "from": frm}


def kong(s: str, concealed: bool = False, added: bool = False) -> dict[str, Any]:
    m: dict[str, Any] = {"kind": "kong", "tiles": T(s) * 4}
    if concealed:
        m["concealed"] = True
    else:
        m["from"] = "right"
        if added:
            m["added"] = True
    return m


def case(
    name: str,
    about: str,
    concealed: str,
    win: str,
    melds: list[dict[str, Any]] | None = None,
    *,
    self_drawn: bool = False,
    flags: dict[str, bool] | None = None,
    flowers: str = "",
    seat: str = "ws",
    round_: str = "we",
    waits: str | None = None,
    contains: list[str] | None = None,
    lacks: list[str] | None = None,
    minimum_met: bool | None = None,
    error: str | None = None,
) -> dict[str, Any]:
    hand = {
        "ruleset": "mcr",
        "concealed": T(concealed),
        "melds": melds or [],
        "win_tile": T(win)[0],
        "win": {"self_drawn": self_drawn, **(flags or {})},
        "seat_wind": seat,
        "round_wind": round_,
        "flowers": flowers.split(),
    }
    expected: dict[str, Any] = {}
    if error is not None:
        expected["error"] = error
        return {"name": name, "about": about, "hand": hand, "expected": expected}
    items = oracle_fans(hand)
    for fid in contains or []:
        if not items[fid]:
            raise SystemExit(f"{name}: the reference has no {fid}: {dict(items)}")
    for fid in lacks or []:
        if items[fid]:
            raise SystemExit(f"{name}: the reference has {fid}: {dict(items)}")
    total = sum(FANS[k]["points"] * v for k, v in items.items())
    expected["items"] = dict(sorted(items.items()))
    expected["total"] = total
    if waits is not None:
        expected["waits"] = T(waits)
    if minimum_met is not None:
        counted = total - items["flower-tiles"]
        if (counted >= 8) != minimum_met:
            raise SystemExit(f"{name}: minimum_met {minimum_met} but {counted} points")
        expected["minimum_met"] = minimum_met
    return {"name": name, "about": about, "hand": hand, "expected": expected}


CASES = [
    # -- wait shapes ------------------------------------------------------------------------
    case(
        "wait-two-sided",
        "23m waiting on 1m/4m: no wait fan",
        "23m 456p 678s 345s 99p",
        "4m",
        waits="1m 4m",
        lacks=["edge-wait", "closed-wait", "single-wait"],
    ),
    case(
        "wait-edge",
        "12m waiting on 3m only",
        "12m 456p 678s 345s 99p",
        "3m",
        waits="3m",
        contains=["edge-wait"],
    ),
    case(
        "wait-edge-89",
        "89p waiting on 7p only",
        "89p 456m 678s 345s 22m",
        "7p",
        waits="7p",
        contains=["edge-wait"],
    ),
    case(
        "wait-closed",
        "13m waiting on 2m only",
        "13m 456p 678s 345s 99p",
        "2m",
        waits="2m",
        contains=["closed-wait"],
    ),
    case(
        "wait-single",
        "a lone tile waiting for its pair",
        "123m 456p 678s 345s 9p",
        "9p",
        waits="9p",
        contains=["single-wait"],
    ),
    case(
        "wait-dual-pung",
        "two pairs, one becomes a pung: the claimed one is exposed",
        "55m 77p 123s 456s 789p",
        "5m",
        waits="5m 7p",
        lacks=["single-wait", "two-concealed-pungs"],
    ),
    case(
        "wait-1233-edge",
        "rule text: 1233 winning on 3 is an edge wait",
        "1233m 456p 678s 789p",
        "3m",
        waits="3m",
        contains=["edge-wait"],
    ),
    case(
        "wait-4556-closed",
        "rule text: 4556 winning on 5 is a closed wait",
        "4556m 123p 678s 789p",
        "5m",
        waits="5m",
        contains=["closed-wait"],
    ),
    case(
        "wait-45567-not-closed",
        "rule text: 45567 winning on 6 is not a closed wait",
        "45567m 123p 678s 99s",
        "6m",
        waits="3m 6m",
        lacks=["closed-wait", "edge-wait", "single-wait"],
    ),
    case(
        "wait-pure-wait-many",
        "2345678 of one suit waits on 2/5/8",
        "2345678m 456p 789s",
        "8m",
        waits="2m 5m 8m",
        lacks=["closed-wait", "edge-wait", "single-wait"],
    ),
    case(
        "wait-seven-pairs",
        "seven pairs waiting on the lone tile: single wait not counted",
        "1133m 5577p 99s we we dr",
        "dr",
        waits="dr",
        contains=["seven-pairs"],
        lacks=["single-wait", "concealed-hand"],
    ),
    case(
        "wait-thirteen-orphans-13",
        "thirteen orphans waiting on all 13 kinds",
        "19m 19p 19s we ws ww wn dr dg dw",
        "9s",
        waits="1m 9m 1p 9p 1s 9s we ws ww wn dr dg dw",
        contains=["thirteen-orphans"],
    ),
    case(
        "wait-nine-gates",
        "nine gates waits on all nine tiles of its suit",
        "1112345678999p",
        "5p",
        self_drawn=True,
        waits="1p 2p 3p 4p 5p 6p 7p 8p 9p",
        contains=["nine-gates", "self-drawn"],
        lacks=["full-flush", "fully-concealed-hand"],
    ),
    case(
        "wait-knitted-pair",
        "knitted straight + chow, waiting on the pair",
        "147m 258p 369s 789m 5s",
        "5s",
        waits="5s",
        contains=["knitted-straight", "single-wait"],
    ),
    case(
        "wait-knitted-tile",
        "knitted straight completed by a knitted tile: no wait fan",
        "14m 258p 369s 123s 55p",
        "7m",
        waits="7m",
        contains=["knitted-straight"],
        lacks=["single-wait", "edge-wait", "closed-wait"],
    ),
    # -- knitted hands -----------------------------------------------------------------------
    case(
        "knitted-chow-all-chows",
        "knitted straight + chow + numbered pair: all chows",
        "147p 258s 369m 234m 7s",
        "7s",
        contains=["knitted-straight", "all-chows", "concealed-hand"],
        minimum_met=True,
    ),
    case(
        "knitted-honor-pung",
        "knitted straight + wind pung + dragon pair: all types",
        "147s 258m 369p we we we dr",
        "dr",
        self_drawn=True,
        seat="we",
        contains=[
            "knitted-straight",
            "all-types",
            "seat-wind",
            "prevalent-wind",
            "fully-concealed-hand",
        ],
    ),
    case(
        "knitted-melded-pung",
        "knitted straight with a declared pung",
        "147m 258p 369s 9m",
        "9m",
        [pung("1s")],
        contains=["knitted-straight", "pung-of-terminals-or-honors", "single-wait"],
        lacks=["concealed-hand"],
    ),
    case(
        "knitted-concealed-kong",
        "knitted straight with a concealed kong: concealed hand",
        "147m 258p 369s dg",
        "dg",
        [kong("dr", concealed=True)],
        contains=["knitted-straight", "concealed-kong", "dragon-pung", "concealed-hand"],
    ),
    case(
        "lesser-honors-knitted",
        "lesser honours and knitted tiles, 8 knitted tiles",
        "147m 25p 369s we ws ww dr dg",
        "dw",
        contains=["lesser-honors-and-knitted-tiles"],
        lacks=["knitted-straight", "all-types", "concealed-hand"],
    ),
    case(
        "lesser-honors-knitted-straight",
        "lesser honours and knitted with all nine: + 12",
        "147m 258p 369s we ww dg dw",
        "wn",
        self_drawn=True,
        contains=["lesser-honors-and-knitted-tiles", "knitted-straight", "self-drawn"],
        lacks=["fully-concealed-hand"],
    ),
    case(
        "greater-honors-knitted",
        "greater honours and knitted tiles",
        "14m 258p 9s we ws ww wn dr dg dw",
        "3s",
        contains=["greater-honors-and-knitted-tiles"],
        lacks=["lesser-honors-and-knitted-tiles", "all-types"],
    ),
    case(
        "not-knitted",
        "knitted tiles of two different sequences are no win",
        "147m 25p 3s we ws ww wn dr dg dw",
        "8s",
        error="not-a-win",
    ),
    # -- kongs ---------------------------------------------------------------------------------
    case(
        "kong-melded",
        "one melded kong",
        "123m 456p 789s 5m",
        "5m",
        [kong("dg")],
        contains=["melded-kong", "dragon-pung"],
    ),
    case(
        "kong-added",
        "an added kong is a melded kong",
        "123m 456p 789s 5m",
        "5m",
        [kong("dg", added=True)],
        contains=["melded-kong"],
    ),
    case(
        "kong-concealed",
        "one concealed kong keeps the hand concealed",
        "123m 456p 789s 5m",
        "5m",
        [kong("2s", concealed=True)],
        contains=["concealed-kong", "concealed-hand"],
    ),
    case(
        "kong-melded-and-concealed",
        "one of each: Melded Kong 1 + Concealed Kong 2",
        "123m 456p 5m",
        "5m",
        [kong("2s", concealed=True), kong("9p")],
        contains=["concealed-kong", "melded-kong"],
    ),
    case(
        "kong-two-melded",
        "two melded kongs",
        "123m 456p 5m",
        "5m",
        [kong("2s"), kong("9p")],
        contains=["two-melded-kongs"],
        lacks=["melded-kong"],
    ),
    case(
        "kong-two-concealed",
        "two concealed kongs: not also two concealed pungs",
        "123m 456p 5m",
        "5m",
        [kong("2s", concealed=True), kong("9p", concealed=True)],
        contains=["two-concealed-kongs"],
        lacks=["concealed-kong", "two-concealed-pungs"],
    ),
    case(
        "kong-three",
        "three kongs",
        "456p 5m",
        "5m",
        [kong("2s"), kong("9p", concealed=True), kong("dg")],
        contains=["three-kongs"],
        lacks=["melded-kong", "concealed-kong"],
    ),
    case(
        "kong-four",
        "four kongs: no single wait, no all pungs",
        "5m",
        "5m",
        [kong("2s"), kong("9p", concealed=True), kong("dg"), kong("1m")],
        contains=["four-kongs"],
        lacks=["single-wait", "all-pungs", "three-kongs"],
    ),
    case(
        "kong-replacement",
        "won on a kong's replacement tile: not also self-drawn",
        "123m 456p 78s 55m",
        "9s",
        [kong("dg")],
        self_drawn=True,
        flags={"kong_replacement": True},
        contains=["out-with-replacement-tile"],
        lacks=["self-drawn"],
    ),
    case(
        "kong-replacement-needs-kong",
        "a replacement-tile win needs a declared kong",
        "123m 456p 78s 55m dg dg dg",
        "9s",
        self_drawn=True,
        flags={"kong_replacement": True},
        error="invalid-hand",
    ),
    case(
        "robbing-the-kong",
        "robbing a kong: not also last tile",
        "123m 456p 78s 55m dg dg dg",
        "9s",
        flags={"robbing_kong": True, "fourth_tile": True},
        contains=["robbing-the-kong"],
        lacks=["last-tile"],
    ),
    # -- flowers and the minimum --------------------------------------------------------------
    case(
        "flowers-all-eight",
        "eight flowers: 8 points that do not count toward the minimum",
        "23m 456p 789s 123s 55p",
        "4m",
        [],
        flowers="f1 f2 f3 f4 f5 f6 f7 f8",
        minimum_met=False,
        contains=["flower-tiles"],
    ),
    case(
        "minimum-not-met",
        "all chows + concealed hand + … is under 8",
        "23m 456p 789s 123s 55p",
        "4m",
        minimum_met=False,
    ),
    case(
        "chicken-hand",
        "no fan at all: exactly the 8-point minimum",
        "45s ww ww",
        "6s",
        [chow("234m"), chow("567p"), pung("8s", "right")],
        minimum_met=True,
        contains=["chicken-hand"],
    ),
    case(
        "chicken-hand-flowers",
        "chicken hand with flowers: flowers are added",
        "45s ww ww",
        "6s",
        [chow("234m"), chow("567p"), pung("8s", "right")],
        flowers="f2 f6",
        minimum_met=True,
        contains=["chicken-hand", "flower-tiles"],
    ),
    # -- situations -----------------------------------------------------------------------------
    case(
        "last-tile-melded-pung",
        "the win tile's three other copies are in own pung",
        "123m 456p 78s 55m",
        "9s",
        [pung("9s")],
        contains=["last-tile"],
    ),
    case(
        "fourth-tile-flag",
        "the fourth copy, others visible on the table",
        "123m 456p 78s 55m 222p",
        "9s",
        flags={"fourth_tile": True},
        contains=["last-tile"],
    ),
    case(
        "last-tile-draw",
        "self-drawn on the last wall tile",
        "123m 456p 78s 55m 222p",
        "9s",
        self_drawn=True,
        flags={"last_tile": True},
        contains=["last-tile-draw"],
        lacks=["self-drawn"],
    ),
    case(
        "last-tile-claim",
        "won on the last discard",
        "123m 456p 78s 55m 222p",
        "9s",
        flags={"last_tile": True},
        contains=["last-tile-claim"],
    ),
    case(
        "melded-hand",
        "four melds, won on a discard: no single wait",
        "5m",
        "5m",
        [chow("123m"), chow("456p"), chow("789s"), pung("dr")],
        contains=["melded-hand"],
        lacks=["single-wait"],
    ),
]


def main() -> int:
    for c in CASES:
        print(json.dumps(c, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
