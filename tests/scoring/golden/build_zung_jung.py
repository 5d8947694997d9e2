"""Build the Zung Jung golden files from hand-reasoned cases.

    python tests/scoring/golden/build_zung_jung.py

Every case below was worked out by hand from the tables (docs/rules/zung-jung.md): the
patterns the best arrangement scores, with counts, and the total written out. This script
does NOT run the scorer: it expands each expectation with the names and values of the
table (the JSON data), re-adds the written total under the limit rule (cap 320, a limit hand
scores its own value) and refuses to write a file when the arithmetic disagrees, then writes

* ``zung_jung.jsonl``       — the seed table ``zung-jung`` (full expected breakdowns);
* ``zung_jung_v33.jsonl``   — the same hands under ``zung-jung-v3.3`` where given;
* ``zung_jung_examples.jsonl`` — every example hand of seed 004 (completed where it is a
  fragment; ``completion`` says how) and the pattern + seed value it must score.

Hand notation: concealed tiles in compact form (``123m we we``), melds as
``chow:123m`` / ``pung:we`` / ``kong:7p`` / ``ckong:3m`` (concealed kong), the win tile as
``+X`` (on a discard) or ``*X`` (self-drawn), flags ``last`` ``kongrep`` ``rob``
``heaven`` ``earth`` ``man``, winds ``seat=ws`` ``round=ws`` (default East / East).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))

from scoring.rulesets.zung_jung import CHICKEN_ID, SEED_ROWS, V33_ROWS, load_table  # noqa: E402
from scoring.tiles import parse_tiles  # noqa: E402

_SOURCES = {"chow": "left", "pung": "opposite", "kong": "right"}
_FLAGS = {
    "last": ("win", "last_tile"),
    "kongrep": ("win", "kong_replacement"),
    "rob": ("win", "robbing_kong"),
    "heaven": ("ctx", "blessing_of_heaven"),
    "earth": ("ctx", "blessing_of_earth"),
    "man": ("ctx", "blessing_of_man"),
}


def hand(spec: str, ruleset: str) -> dict[str, Any]:
    """The hand JSON of a spec string."""
    concealed: list[str] = []
    melds: list[dict[str, Any]] = []
    win: dict[str, bool] = {"self_drawn": False}
    ctx: dict[str, Any] = {}
    out: dict[str, Any] = {"ruleset": ruleset}
    for tok in spec.split():
        if tok[0] in "+*":
            out["win_tile"] = tok[1:]
            win["self_drawn"] = tok[0] == "*"
        elif ":" in tok:
            kind, tiles = tok.split(":")
            t = [str(x) for x in parse_tiles(tiles)]
            if kind == "chow":
                melds.append({"kind": "chow", "tiles": t, "claimed": t[0], "from": "left"})
            elif kind == "ckong":
                melds.append({"kind": "kong", "tiles": t * 4, "concealed": True})
            else:
                n = 3 if kind == "pung" else 4
                melds.append({"kind": kind, "tiles": t * n, "from": _SOURCES[kind]})
        elif tok.startswith(("seat=", "round=")):
            k, v = tok.split("=")
            out[f"{k}_wind"] = v
        elif tok in _FLAGS:
            where, key = _FLAGS[tok]
            if where == "win":
                win[key] = True
            else:
                ctx[key] = True
        else:
            concealed.extend(str(x) for x in parse_tiles(tok))
    out["concealed"] = concealed
    out["melds"] = melds
    out["win"] = win
    if ctx:
        out["context"] = ctx
    return out


# (case id, hand spec, seed expectation, v3.3 expectation or None)
# An expectation is "id id*count … = total".
CASES: list[tuple[str, str, str, str | None]] = [
    # -- 1. basic shapes and the trivial patterns ----------------------------------------
    (
        "all-sequences-concealed",
        "123m 234p 567s 789s 1p +1p",
        "all-sequences concealed-hand = 20",
        "all-sequences concealed-hand = 10",
    ),
    (
        "all-sequences-exposed",
        "chow:123m 234p 567s 789s 1p +1p",
        "all-sequences = 10",
        "all-sequences = 5",
    ),
    (
        "all-sequences-dragon-pair",
        "123m 456m 234p 678s dr +dr",
        "all-sequences concealed-hand = 20",
        "all-sequences concealed-hand = 10",
    ),
    ("chicken-hand", "chow:234s pung:9p 567m 345p 1s +1s", "chicken-hand = 1", "chicken-hand = 1"),
    (
        "chicken-hand-dragon-pair",
        "chow:123m pung:8m 567p 234s dr +dr",
        "chicken-hand = 1",
        "chicken-hand = 1",
    ),
    (
        "all-triplets-mixed-exposure",
        "pung:3m pung:4p pung:6s 777s we +we",
        "all-triplets concealed-triplet = 40",
        "all-triplets = 30",
    ),
    (
        "concealed-hand-one-concealed-triplet",
        "234m 678m 345p 111s 5s +5s",
        "concealed-hand concealed-triplet = 20",
        "concealed-hand = 5",
    ),
    (
        "discard-completes-triplet-exposed",
        "234m 678m 345p 11s 55s +5s",
        "concealed-hand = 10",
        "concealed-hand = 5",
    ),
    (
        "self-draw-completes-triplet-concealed",
        "234m 678m 345p 11s 55s *5s",
        "concealed-hand concealed-triplet = 20",
        "concealed-hand = 5",
    ),
    (
        "win-tile-read-in-chow-keeps-triplet-concealed",
        "45666m 234p 789s 11s +6m",
        "concealed-hand concealed-triplet = 20",
        "concealed-hand = 5",
    ),
    (
        "freedom-of-count-tie-goes-to-biggest-pattern",
        "111222333m 456p 9s +9s",
        "all-sequences three-identical-sequences concealed-hand = 140",
        "three-concealed-triplets three-consecutive-triplets concealed-hand = 135",
    ),
    (
        "freedom-of-count-identical-chows-vs-triplets",
        "123p 123p 123p 456m 7s +7s",
        "all-sequences three-identical-sequences concealed-hand = 140",
        "three-concealed-triplets three-consecutive-triplets concealed-hand = 135",
    ),
    (
        "no-terminals",
        "234m 345m 666s 888s 7p +7p",
        "no-terminals concealed-hand concealed-triplet*2 = 40",
        "no-terminals concealed-hand two-concealed-triplets = 15",
    ),
    # -- 2. one-suit ------------------------------------------------------------------------
    (
        "mixed-one-suit",
        "123s 456s 999s ws ws ws dr +dr",
        "mixed-one-suit wind-triplet concealed-triplet*2 concealed-hand = 80",
        "mixed-one-suit two-concealed-triplets concealed-hand = 50",
    ),
    (
        "pure-one-suit",
        "123m 234m 567m 888m 2m +2m",
        "pure-one-suit concealed-hand concealed-triplet = 100",
        "pure-one-suit concealed-hand = 85",
    ),
    (
        "pure-one-suit-straight",
        "111s 123s 456s 789s 9s +9s",
        "pure-one-suit nine-tile-straight concealed-hand concealed-triplet = 140",
        "pure-one-suit nine-tile-straight concealed-hand = 125",
    ),
    (
        "all-honors-standard",
        "we we we ws ws ws dr dr dr dg dg dg wn +wn",
        "all-honors all-triplets wind-triplet*2 dragon-triplet*2 four-concealed-triplets"
        " concealed-hand = 320",
        "all-honors all-triplets value-honor*4 small-three-winds four-concealed-triplets"
        " concealed-hand = 320",
    ),
    (
        "nine-gates",
        "1112345678999m +5m",
        "nine-gates pure-one-suit concealed-hand concealed-triplet*2 = 480",
        "nine-gates pure-one-suit concealed-hand two-concealed-triplets = 480",
    ),
    (
        "nine-gates-needs-concealment",
        "chow:234m 1115678999m +5m",
        "pure-one-suit concealed-triplet*2 = 100",
        "pure-one-suit two-concealed-triplets = 85",
    ),
    # -- 3. terminals -------------------------------------------------------------------
    (
        "mixed-lesser-terminals",
        "123m 111s 789s dr dr dr we +we",
        "mixed-lesser-terminals dragon-triplet concealed-triplet*2 concealed-hand = 80",
        "mixed-lesser-terminals value-honor two-concealed-triplets concealed-hand = 60",
    ),
    (
        "pure-lesser-terminals",
        "111m 123p 789p 789s 1s +1s",
        "pure-lesser-terminals concealed-triplet concealed-hand = 80",
        "pure-lesser-terminals concealed-hand = 55",
    ),
    (
        "mixed-greater-terminals-family",
        "pung:1m pung:9m ww ww ww dr dr dr 9p +9p",
        "mixed-greater-terminals all-triplets wind-triplet dragon-triplet concealed-triplet*2 = 170",
        "mixed-greater-terminals all-triplets value-honor two-concealed-triplets = 145",
    ),
    (
        "mixed-greater-terminals-concealed",
        "111m 999m ww ww ww dr dr dr 9p +9p",
        "mixed-greater-terminals all-triplets wind-triplet dragon-triplet four-concealed-triplets"
        " concealed-hand = 320",
        "mixed-greater-terminals all-triplets value-honor four-concealed-triplets"
        " concealed-hand = 270",
    ),
    (
        "pure-greater-terminals",
        "111m 111p 111s 999s 9m +9m",
        "pure-greater-terminals all-triplets four-concealed-triplets concealed-hand"
        " three-similar-triplets = 320",
        "pure-greater-terminals all-triplets four-concealed-triplets concealed-hand"
        " three-similar-triplets = 400",
    ),
    # -- 4. number ranges (seed only) -------------------------------------------------
    (
        "below-five",
        "111m 234m 123s 444s 3p +3p",
        "below-five concealed-triplet*2 concealed-hand = 90",
        "two-concealed-triplets concealed-hand = 10",
    ),
    (
        "above-five",
        "678m 999m 678p 789s 6m +6m",
        "above-five concealed-triplet concealed-hand = 80",
        "concealed-hand = 5",
    ),
    (
        "all-small-family",
        "111m 222m 123p 111s 3p +3p",
        "all-small three-concealed-triplets concealed-hand = 120",
        "three-concealed-triplets concealed-hand = 35",
    ),
    (
        "all-middle",
        "456m 456m 666p 456s 6m +6m",
        "all-middle two-identical-sequences concealed-triplet concealed-hand no-terminals = 130",
        "two-identical-sequences concealed-hand no-terminals = 20",
    ),
    (
        "all-large-family",
        "777m 789p 789p 789s 8s +8s",
        "all-large two-identical-sequences concealed-triplet concealed-hand = 120",
        "two-identical-sequences concealed-hand = 15",
    ),
    # -- 5. honours ---------------------------------------------------------------------
    (
        "wind-triplet-any-wind",
        "pung:wn 234m 567p 345s 9m +9m",
        "wind-triplet = 10",
        "chicken-hand = 1",
    ),
    (
        "wind-triplet-seat-and-round",
        "pung:ws 234m 567p 345s 9m +9m seat=ws round=ws",
        "wind-triplet = 10",
        "value-honor*2 = 20",
    ),
    (
        "wind-triplet-seat-only",
        "pung:ws 234m 567p 345s 9m +9m seat=ws",
        "wind-triplet = 10",
        "value-honor = 10",
    ),
    ("dragon-triplet", "pung:dg 123m 456p 789s 5m +5m", "dragon-triplet = 10", "value-honor = 10"),
    (
        "small-three-dragons",
        "pung:dr pung:dg 234m 567p dw +dw",
        "small-three-dragons dragon-triplet*2 = 80",
        "small-three-dragons value-honor*2 = 60",
    ),
    (
        "big-three-dragons",
        "pung:dr pung:dg dw dw 234m 55p +dw",
        "big-three-dragons dragon-triplet*3 = 190",
        "big-three-dragons value-honor*3 = 160",
    ),
    (
        "big-three-dragons-concealed",
        "dr dr dr dg dg dg dw dw dw 123m 9m *9m",
        "big-three-dragons dragon-triplet*3 three-concealed-triplets concealed-hand"
        " mixed-one-suit mixed-lesser-terminals = 310",
        "big-three-dragons value-honor*3 three-concealed-triplets concealed-hand"
        " mixed-one-suit mixed-lesser-terminals = 275",
    ),
    (
        "big-three-winds",
        "pung:we pung:ws ww ww ww 234m 5p +5p",
        "big-three-winds wind-triplet*3 concealed-triplet = 160",
        "big-three-winds value-honor*2 = 140",
    ),
    (
        "small-three-winds-v33",
        "pung:we pung:ws 234m 567p ww +ww",
        "wind-triplet*2 = 20",
        "small-three-winds value-honor*2 = 50",
    ),
    (
        "small-four-winds",
        "pung:we pung:ws pung:ww 234m wn +wn",
        "small-four-winds wind-triplet*3 mixed-one-suit = 320",
        "small-four-winds value-honor*2 mixed-one-suit = 320",
    ),
    (
        "big-four-winds",
        "pung:we pung:ws pung:ww wn wn 55p +wn",
        "big-four-winds wind-triplet*4 all-triplets mixed-one-suit = 480",
        "big-four-winds value-honor*2 all-triplets mixed-one-suit = 400",
    ),
    (
        "big-four-winds-all-honors",
        "we we we ws ws ws ww ww ww wn wn wn dr +dr",
        "big-four-winds all-honors all-triplets wind-triplet*4 four-concealed-triplets"
        " concealed-hand = 480",
        "big-four-winds all-honors all-triplets value-honor*2 four-concealed-triplets"
        " concealed-hand = 400",
    ),
    (
        "all-triplets-mixed-one-suit",
        "pung:2p pung:5p pung:we 999p dg +dg",
        "all-triplets mixed-one-suit wind-triplet concealed-triplet = 90",
        "all-triplets mixed-one-suit value-honor*2 = 90",
    ),
    # -- 6. identical sequences --------------------------------------------------------
    (
        "two-identical-sequences",
        "678m 678m 234p 345s 9s +9s",
        "all-sequences two-identical-sequences concealed-hand = 40",
        "all-sequences two-identical-sequences concealed-hand = 20",
    ),
    (
        "two-identical-sequences-twice-beats-seven-pairs",
        "234m 234m 456s 456s 9p +9p",
        "all-sequences two-identical-sequences-twice concealed-hand = 80",
        "all-sequences two-identical-sequences-twice concealed-hand = 70",
    ),
    (
        "three-identical-sequences",
        "chow:123p chow:123p 123p 456m 7s +7s",
        "all-sequences three-identical-sequences = 130",
        "all-sequences three-identical-sequences = 125",
    ),
    (
        "four-identical-sequences",
        "234m 234m 234m 234m 5p +5p",
        "all-sequences four-identical-sequences concealed-hand no-terminals = 480",
        "all-sequences four-identical-sequences concealed-hand no-terminals = 480",
    ),
    (
        "identical-similar-all-sequences",
        "234m 234m 234p 234s 5p +5p",
        "all-sequences two-identical-sequences three-similar-sequences no-terminals"
        " concealed-hand = 90",
        "all-sequences two-identical-sequences three-similar-sequences no-terminals"
        " concealed-hand = 60",
    ),
    # -- 7. runs ----------------------------------------------------------------------
    (
        "nine-tile-straight",
        "123m 456m 789m 234p 5s +5s",
        "all-sequences nine-tile-straight concealed-hand = 60",
        "all-sequences nine-tile-straight concealed-hand = 50",
    ),
    (
        "three-shifted-sequences",
        "234p 345p 456p 789m 1s +1s",
        "all-sequences three-shifted-sequences concealed-hand = 60",
        "all-sequences concealed-hand = 10",
    ),
    (
        "four-shifted-sequences",
        "345s 456s 567s 678s 9m +9m",
        "all-sequences four-shifted-sequences concealed-hand = 140",
        "all-sequences concealed-hand = 10",
    ),
    (
        "three-consecutive-triplets",
        "pung:5p pung:6p 777p 234s 9m +9m",
        "three-consecutive-triplets concealed-triplet = 110",
        "three-consecutive-triplets = 100",
    ),
    (
        "four-consecutive-triplets",
        "pung:1s pung:2s 333s 444s dr +dr",
        "four-consecutive-triplets all-triplets concealed-triplet*2 mixed-one-suit = 290",
        "four-consecutive-triplets all-triplets two-concealed-triplets mixed-one-suit = 275",
    ),
    # -- 8. three suits ---------------------------------------------------------------
    (
        "three-similar-sequences",
        "456m 456p 456s 789m 1p +1p",
        "all-sequences three-similar-sequences concealed-hand = 60",
        "all-sequences three-similar-sequences concealed-hand = 45",
    ),
    (
        "three-similar-triplets",
        "pung:5m pung:5p 555s 234m 8p +8p",
        "three-similar-triplets concealed-triplet no-terminals = 140",
        "three-similar-triplets no-terminals = 125",
    ),
    (
        "three-similar-triplets-concealed",
        "222m 222p 222s 567m 9s *9s",
        "three-similar-triplets three-concealed-triplets concealed-hand = 160",
        "three-similar-triplets three-concealed-triplets concealed-hand = 155",
    ),
    (
        "small-three-similar-triplets-v33",
        "pung:3m pung:3p 456m 789p 3s +3s",
        "chicken-hand = 1",
        "small-three-similar-triplets = 30",
    ),
    (
        "mixed-shifted-sequences",
        "123m 234p 345s 678s 9p +9p",
        "all-sequences mixed-shifted-sequences concealed-hand = 50",
        "all-sequences concealed-hand = 10",
    ),
    (
        "mixed-consecutive-triplets",
        "pung:6m pung:7p 888s 234p 5m +5m",
        "mixed-consecutive-triplets concealed-triplet no-terminals = 100",
        "no-terminals = 5",
    ),
    # -- 9. concealed triplets and kongs -----------------------------------------------
    (
        "two-concealed-triplets",
        "222m 777p 345s 678s 9m +9m",
        "concealed-triplet*2 concealed-hand = 30",
        "two-concealed-triplets concealed-hand = 10",
    ),
    (
        "four-concealed-triplets",
        "222m 444p 666s 888s 5m *5m",
        "four-concealed-triplets all-triplets concealed-hand no-terminals = 210",
        "four-concealed-triplets all-triplets concealed-hand no-terminals = 165",
    ),
    (
        "four-triplets-last-by-discard",
        "222m 444p 66s 888s 55m +6s",
        "three-concealed-triplets all-triplets concealed-hand no-terminals = 80",
        "three-concealed-triplets all-triplets concealed-hand no-terminals = 70",
    ),
    (
        "three-triplets-one-by-discard",
        "222m 444p 66s 88s 345m +8s",
        "concealed-triplet*2 concealed-hand no-terminals = 40",
        "two-concealed-triplets concealed-hand no-terminals = 15",
    ),
    (
        "three-triplets-self-drawn",
        "222m 444p 66s 88s 345m *8s",
        "three-concealed-triplets concealed-hand no-terminals = 50",
        "three-concealed-triplets concealed-hand no-terminals = 40",
    ),
    ("one-kong", "kong:7p 123m 456s 789s 5m +5m", "kong = 20", "one-kong = 5"),
    (
        "two-kongs",
        "kong:7p ckong:3m 456s 789s 5m +5m",
        "kong*2 concealed-triplet = 50",
        "two-kongs = 20",
    ),
    (
        "three-kongs",
        "kong:7p kong:8s ckong:3m 456s 5m +5m",
        "three-kongs concealed-triplet no-terminals = 140",
        "three-kongs no-terminals = 125",
    ),
    (
        "four-kongs",
        "kong:7p kong:8s ckong:3m kong:we 5m +5m",
        "four-kongs all-triplets wind-triplet concealed-triplet = 480",
        "four-kongs all-triplets value-honor*2 = 480",
    ),
    # -- 10. incidental ------------------------------------------------------------------
    (
        "final-draw",
        "123m 456p 789s 234s 5p *5p last",
        "all-sequences final-draw concealed-hand = 40",
        "all-sequences final-draw concealed-hand = 20",
    ),
    (
        "final-discard",
        "123m 456p 789s 234s 5p +5p last",
        "all-sequences final-discard concealed-hand = 40",
        "all-sequences final-discard concealed-hand = 20",
    ),
    (
        "win-on-kong",
        "ckong:9p 123m 456p 345s 7s *7s kongrep",
        "win-on-kong kong concealed-triplet concealed-hand = 60",
        "win-on-kong one-kong concealed-hand = 20",
    ),
    (
        "win-on-kong-final-draw",
        "ckong:9p 123m 456p 345s 7s *7s kongrep last",
        "final-draw win-on-kong kong concealed-triplet concealed-hand = 80",
        "final-draw win-on-kong one-kong concealed-hand = 30",
    ),
    (
        "robbing-a-kong",
        "123m 456p 345s 78s 99m +6s rob",
        "all-sequences robbing-a-kong concealed-hand = 40",
        "all-sequences robbing-a-kong concealed-hand = 20",
    ),
    (
        "blessing-of-heaven",
        "123m 456m 789p 234s 5s *5s heaven",
        "all-sequences blessing-of-heaven concealed-hand = 180",
        "all-sequences blessing-of-heaven concealed-hand = 165",
    ),
    (
        "blessing-of-earth",
        "234m 567m 345p 678s 9s *9s earth seat=ws",
        "all-sequences blessing-of-earth concealed-hand = 180",
        "all-sequences blessing-of-earth concealed-hand = 165",
    ),
    (
        "blessing-of-man",
        "234m 567m 345p 678s 9s +9s man seat=wn",
        "all-sequences blessing-of-man concealed-hand = 180",
        None,
    ),
    (
        "blessing-of-earth-on-discard-v33",
        "234m 567m 345p 678s 9s +9s earth seat=ws",
        "",
        "all-sequences blessing-of-earth concealed-hand = 165",
    ),
    (
        "blessing-of-heaven-seven-pairs",
        "11m 33m 55p 77p 99s we we dr *dr heaven",
        "blessing-of-heaven seven-pairs = 190",
        "blessing-of-heaven seven-pairs = 185",
    ),
    # -- 11. special hands ------------------------------------------------------------
    ("seven-pairs", "22m 44m 11p 99s we we dr dr dg +dg", "seven-pairs = 30", "seven-pairs = 30"),
    (
        "seven-pairs-all-honors",
        "we we ws ws ww ww wn wn dr dr dg dg dw +dw",
        "seven-pairs all-honors = 320",
        "seven-pairs all-honors = 320",
    ),
    (
        "seven-pairs-mixed-greater-terminals",
        "11m 99m 11p we we dr dr 99s ws +ws",
        "seven-pairs mixed-greater-terminals = 130",
        "seven-pairs mixed-greater-terminals = 130",
    ),
    (
        "seven-pairs-four-as-two",
        "1111m 33m 55m 77m 99m 2m +2m",
        "seven-pairs pure-one-suit = 110",
        "seven-pairs pure-one-suit = 110",
    ),
    (
        "seven-pairs-all-middle",
        "44m 55m 66m 44p 66p 55s 6s +6s",
        "seven-pairs no-terminals all-middle = 120",
        "seven-pairs no-terminals = 35",
    ),
    (
        "thirteen-terminals",
        "1m 9m 1p 9p 1s 1s 9s we ws ww wn dr dg +dw",
        "thirteen-terminals = 160",
        "thirteen-terminals = 160",
    ),
    (
        "consecutive-seven-pairs",
        "22s 33s 44s 55s 66s 77s 8s +8s",
        "consecutive-seven-pairs pure-one-suit no-terminals = 320",
        "all-sequences two-identical-sequences-twice pure-one-suit concealed-hand no-terminals"
        " = 155",
    ),
    # -- 12. more combinations and negatives ---------------------------------------------
    (
        "small-three-dragons-one-suit-terminals",
        "pung:dr pung:dg 123p 789p dw +dw",
        "small-three-dragons dragon-triplet*2 mixed-one-suit mixed-lesser-terminals = 160",
        "small-three-dragons value-honor*2 mixed-one-suit mixed-lesser-terminals = 140",
    ),
    (
        "all-small-sequences-beat-seven-pairs",
        "11m 22m 33m 11p 22p 33p 1s +1s",
        "all-sequences two-identical-sequences-twice concealed-hand pure-lesser-terminals"
        " all-small = 220",
        "all-sequences two-identical-sequences-twice concealed-hand pure-lesser-terminals = 120",
    ),
    (
        "concealed-kong-keeps-concealed-hand",
        "ckong:2m 444p 666s 888s 5m +5m",
        "four-concealed-triplets all-triplets kong concealed-hand no-terminals = 230",
        "four-concealed-triplets all-triplets one-kong concealed-hand no-terminals = 170",
    ),
    (
        "exposed-kong-not-concealed",
        "kong:2m 444p 666s 888s 5m *5m",
        "three-concealed-triplets all-triplets kong no-terminals = 90",
        "three-concealed-triplets all-triplets one-kong no-terminals = 70",
    ),
    (
        "number-range-excludes-honors",
        "111m 234m 123s 444s we +we",
        "concealed-triplet*2 concealed-hand = 30",
        "two-concealed-triplets concealed-hand = 10",
    ),
    (
        "prevailing-wind-only-v33",
        "pung:we 234m 567p 345s 9m +9m seat=ws",
        "wind-triplet = 10",
        "value-honor = 10",
    ),
    (
        "sequences-shifted-by-two-not-counted",
        "123p 345p 567p 789p 1s +1s",
        "all-sequences concealed-hand = 20",
        "all-sequences concealed-hand = 10",
    ),
]


# Why, for the cases whose reading is not obvious from the id.
NOTES: dict[str, str] = {
    "chicken-hand": "no pattern of either table: 雞和 scores 1",
    "all-triplets-mixed-exposure": "777s is concealed (the win tile completes the pair): one 暗刻",
    "discard-completes-triplet-exposed": "the discard completes 555s, which counts as exposed: no 暗刻",
    "self-draw-completes-triplet-concealed": "the same hand self-drawn: 555s is concealed",
    "win-tile-read-in-chow-keeps-triplet-concealed": "6m read into 456m (not 666m): 666m stays concealed",
    "freedom-of-count-tie-goes-to-biggest-pattern": "seed: 123m×3 (一色三同順 120 + 平和 10 + 門前清 10)"
    " ties 111/222/333m (三暗刻 30 + 三連刻 100 + 門前清 10) at 140; the tie goes to the reading"
    " with the bigger pattern. v3.3: triplets 135 beat sequences 130",
    "freedom-of-count-identical-chows-vs-triplets": "as above with 123p×3",
    "all-honors-standard": "sum 560 (seed) / 550 (v3.3), capped at 320",
    "nine-gates": "a limit hand: the sum (590 / 570) is replaced by its own value 480",
    "nine-gates-needs-concealment": "234m was claimed: not 九蓮寶燈",
    "mixed-greater-terminals-family": "混全帶么 also holds; the terminals family keeps 混么九",
    "pure-greater-terminals": "純全帶么 also holds; seed 清么九 320 caps the sum at 320, v3.3 清么九 400"
    " is a limit hand above the cap",
    "all-small-family": "小於五 also holds (family keeps 全小); three 暗刻 become 三暗刻",
    "all-large-family": "大於五 also holds; the family keeps 全大",
    "big-three-dragons": "the third dragon triplet is completed by the discard (exposed): no 暗刻;"
    " 箭刻 ×3 add (seed 160 + 30; v3.3 130 + 30)",
    "small-four-winds": "大三風 also holds; the winds family keeps 小四喜; the sum (390 / 380) is"
    " capped at 320",
    "big-four-winds": "a limit hand: 大四喜 480 (seed) / 400 (v3.3)",
    "big-four-winds-all-honors": "two limit hands: the higher counts",
    "two-identical-sequences-twice-beats-seven-pairs": "the tiles are also seven pairs (30);"
    " freedom of count takes 兩般高",
    "four-identical-sequences": "also readable as 222/333/444m + 234m (140); 一色四同順 is a limit hand",
    "four-triplets-last-by-discard": "the discard completes 666s: three concealed triplets",
    "two-kongs": "seed: 槓 per kong (2 × 20) + the concealed kong as 暗刻; v3.3 二槓 replaces 一槓",
    "three-kongs": "the kongs family keeps 三槓 (not 3 × 槓)",
    "win-on-kong": "a concealed kong keeps 門前清",
    "blessing-of-earth-on-discard-v33": "v3.3 accepts 地和 on the dealer's first discard; the seed's"
    " 地和 is self-drawn (not scored under zung-jung)",
    "seven-pairs-all-honors": "字一色 counts with 七對子 (see the rules doc); 350 capped at 320",
    "seven-pairs-four-as-two": "1111m counts as two pairs",
    "thirteen-terminals": "十三么九 excludes 混么九",
    "consecutive-seven-pairs": "seed: 連七對 replaces 七對子; 410 capped at 320. v3.3 has no 連七對:"
    " the standard reading (兩般高 + 清一色 + …) beats 七對子 + 清一色",
    "all-small-sequences-beat-seven-pairs": "seven pairs would be 30 + 80; the sequence reading"
    " scores more",
    "sequences-shifted-by-two-not-counted": "123/345/567/789p step by two: not 一色三步 / 四步",
}


def _expectation(text: str, ruleset: str, table: dict[str, tuple[str, str, int]]) -> dict[str, Any]:
    body, _, total_s = text.partition("=")
    items = []
    for tok in body.split():
        pid, _, n = tok.partition("*")
        count = int(n) if n else 1
        if pid not in table:
            raise SystemExit(f"{ruleset}: unknown pattern {pid!r}")
        zh, en, pts = table[pid]
        items.append({"id": pid, "name": zh, "en": en, "points": pts, "count": count})
    raw = sum(i["points"] * i["count"] for i in items)
    total, why = raw, None
    if raw > 320:
        total, why = 320, "cap"
    own = max((i["points"] for i in items if i["points"] >= 320), default=0)
    if own > total:
        total, why = own, "limit-hand"
    written = int(total_s)
    if written != total:
        raise SystemExit(f"{ruleset}: {text!r}: the items add up to {total} (sum {raw})")
    return {"total": total, "sum": raw, "limit": why, "items": sorted(items, key=lambda i: i["id"])}


def _tables() -> tuple[dict[str, tuple[str, str, int]], dict[str, tuple[str, str, int]]]:
    seed = load_table("zung_jung.json")
    v33 = load_table("zung_jung_v33.json")
    chicken = next(p for p in v33["patterns"] if p["no"] == "—")
    ck = (chicken["zh"], "Chicken Hand", chicken["points"])
    st: dict[str, tuple[str, str, int]] = {CHICKEN_ID: ck}
    for p in seed["patterns"]:
        row = SEED_ROWS[p["name"]]
        st[row.id] = (p["name"], row.en, p["points"])
    vt: dict[str, tuple[str, str, int]] = {CHICKEN_ID: ck}
    for p in v33["patterns"]:
        if p["no"] in V33_ROWS:
            vt[V33_ROWS[p["no"]][0]] = (p["zh"], p["en"], p["points"])
    return st, vt


# -- the seed's example hands --------------------------------------------------------------

# Fragments of the seed, completed into a full hand (the completion is recorded).
COMPLETIONS: dict[str, tuple[str, str]] = {
    "九蓮寶燈": ("1112345678999m +1m", "the seed's 13 tiles and its winning tile 1m"),
    "小三元": ("dr dr dr dg dg dg 234m 567p dw +dw", "added 234m 567p; won on the 白 pair"),
    "大三風": ("we we we ws ws ws ww ww ww 234m 5p +5p", "added 234m 55p"),
    "大三元": ("dr dr dr dg dg dg dw dw dw 234m 5p +5p", "added 234m 55p"),
    "小四喜": ("we we we ws ws ws ww ww ww 234m wn +wn", "added 234m; won on the 北 pair"),
    "大四喜": ("we we we ws ws ws ww ww ww wn wn wn 5p +5p", "added the pair 55p"),
    "一般高": ("678m 678m 234p 345s 9s +9s", "added 234p 345s 99s"),
    "兩般高": ("234m 234m 456s 456s 9p +9p", "added the pair 99p"),
    "一色三同順": (
        "chow:123p 123p 123p 456m 7s +7s",
        "added 456m 77s, one 123p claimed so that only the sequence reading exists",
    ),
    "一色四同順": ("234m 234m 234m 234m 5p +5p", "added the pair 55p"),
    "一氣通貫": ("123m 456m 789m 234p 5s +5s", "added 234p 55s"),
    "一色三步": ("234p 345p 456p 789m 1s +1s", "added 789m 11s"),
    "一色四步": ("345s 456s 567s 678s 9m +9m", "added the pair 99m"),
    "三連刻": (
        "pung:5p 666p 777p 234s 9m +9m",
        "added 234s 99m, 555p claimed (fully concealed, the tiles also read as three"
        " identical sequences, which tie at 140 and win the tie by their bigger pattern)",
    ),
    "四連刻": ("111s 222s 333s 444s dr +dr", "added the pair 中中"),
    "三色同順": ("456m 456p 456s 789m 1p +1p", "added 789m 11p"),
    "三色同刻": ("555m 555p 555s 234m 8p +8p", "added 234m 88p"),
    "三色三步": ("123m 234p 345s 678s 9p +9p", "added 678s 99p"),
    "三色連刻": ("666m 777p 888s 234p 5m +5m", "added 234p 55m"),
}

# Patterns the seed gives no example for: a constructed hand (a golden case) shows them.
CONSTRUCTED: dict[str, str] = {
    "門前清": "concealed-hand-one-concealed-triplet",
    "風刻": "wind-triplet-any-wind",
    "箭刻": "dragon-triplet",
    "暗刻": "two-concealed-triplets",
    "三暗刻": "three-triplets-self-drawn",
    "四暗刻": "four-concealed-triplets",
    "槓": "one-kong",
    "三槓": "three-kongs",
    "四槓": "four-kongs",
    "妙手回春": "final-draw",
    "海底撈月": "final-discard",
    "槓上開花": "win-on-kong",
    "搶槓": "robbing-a-kong",
    "人和": "blessing-of-man",
    "地和": "blessing-of-earth",
    "天和": "blessing-of-heaven",
}

_CH = {"東": "we", "南": "ws", "西": "ww", "北": "wn", "中": "dr", "發": "dg", "白": "dw"}


def _examples() -> list[dict[str, Any]]:
    seed = load_table("zung_jung.json")
    specs = {c[0]: c[1] for c in CASES}
    out = []
    for p in seed["patterns"]:
        name = p["name"]
        row = SEED_ROWS[name]
        base = {"pattern": row.id, "name": name, "points": p["points"]}
        if name in COMPLETIONS:
            spec, note = COMPLETIONS[name]
            ex = " ".join(" ".join(_CH.get(t, t) for t in g) for g in p["examples"][0])
            out.append({**base, "example": ex, "completion": note, "hand": hand(spec, "zung-jung")})
        elif p["examples"]:
            tiles = [_CH.get(t, t) for g in p["examples"][0] for t in g]
            if len(tiles) != 14:
                raise SystemExit(f"{name}: a fragment example needs a completion")
            spec = " ".join(tiles[:-1]) + " +" + tiles[-1]
            out.append(
                {
                    **base,
                    "example": " ".join(tiles),
                    "completion": None,
                    "hand": hand(spec, "zung-jung"),
                }
            )
        else:
            case = CONSTRUCTED[name]
            out.append(
                {
                    **base,
                    "example": None,
                    "completion": f"no example in the seed; constructed (golden case {case})",
                    "hand": hand(specs[case], "zung-jung"),
                }
            )
    return out


def build_all() -> dict[str, list[dict[str, Any]]]:
    """The three golden files' lines, by file name."""
    st, vt = _tables()
    unknown = set(NOTES) - {c[0] for c in CASES}
    if unknown:
        raise SystemExit(f"notes for unknown cases: {sorted(unknown)}")
    seed_lines, v33_lines = [], []
    for cid, spec, seed_exp, v33_exp in CASES:
        for exp, name, table, lines in (
            (seed_exp, "zung-jung", st, seed_lines),
            (v33_exp, "zung-jung-v3.3", vt, v33_lines),
        ):
            if exp:
                lines.append(
                    {
                        "id": cid,
                        "note": NOTES.get(cid, ""),
                        "hand": hand(spec, name),
                        "expected": _expectation(exp, name, table),
                    }
                )
    return {
        "zung_jung.jsonl": seed_lines,
        "zung_jung_v33.jsonl": v33_lines,
        "zung_jung_examples.jsonl": _examples(),
    }


def main() -> None:
    for name, lines in build_all().items():
        with (HERE / name).open("w", encoding="utf-8") as fh:
            for line in lines:
                fh.write(json.dumps(line, ensure_ascii=False) + "\n")
        print(f"{name}: {len(lines)} cases")


if __name__ == "__main__":
    main()
