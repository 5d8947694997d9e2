"""Riichi red fives in every place a tile can be (concealed, the claimed tile of a chow / pung /
open kong, inside an added or a concealed kong, the winning tile self-drawn and on a discard,
a dora and an ura-dora indicator), each scored by us and by the ``mahjong`` package (2.1.0)."""

from __future__ import annotations

from typing import Any

import pytest
from riichi_gen import compare

from scoring import score


def _tiles(codes: str) -> list[str]:
    return codes.split()


#: 234m 67p 345s 88p: the rest of an all-simples hand around one meld of fives (ron on 5p).
REST = _tiles("2m 3m 4m 6p 7p 3s 4s 5s 8p 8p")


def _hand(**kw: Any) -> dict[str, Any]:
    hand: dict[str, Any] = {
        "ruleset": "riichi",
        "concealed": REST,
        "win_tile": "5p",
        "seat_wind": "ws",
        "dora_indicators": ["9s"],
    }
    hand.update(kw)
    return hand


def _meld(kind: str, tiles: str, **kw: Any) -> dict[str, Any]:
    return {"kind": kind, "tiles": tiles.split(), **kw}


#: A closed hand: 456m 567p 345s 78s 99p, waiting on 6s / 9s.
CLOSED = _tiles("4m 5m 6m 5p 6p 7p 3s 4s 5s 7s 8s 9p 9p")

#: (place, hand, aka-dora han, dora han, ura-dora han)
CASES: list[tuple[str, dict[str, Any], int, int, int]] = [
    (
        "concealed",
        _hand(concealed=["0m" if c == "5m" else c for c in CLOSED], win_tile="6s"),
        1,
        0,
        0,
    ),
    (
        "claimed tile of a chow",
        _hand(
            concealed=_tiles("2p 3p 4p 4s 5s 6s 6s 7s 8s 2m"),
            win_tile="2m",
            melds=[_meld("chow", "0m 6m 7m", claimed="0m", **{"from": "left"})],
        ),
        1,
        0,
        0,
    ),
    (
        "claimed tile of a pung",
        _hand(melds=[_meld("pung", "0m 5m 5m", claimed="0m", **{"from": "opposite"})]),
        1,
        0,
        0,
    ),
    (
        "a plain five claimed for a pung with the red one",
        _hand(melds=[_meld("pung", "0m 5m 5m", claimed="5m", **{"from": "right"})]),
        1,
        0,
        0,
    ),
    (
        "claimed tile of an open kong",
        _hand(
            melds=[_meld("kong", "0m 5m 5m 5m", claimed="0m", **{"from": "right"})],
            dora_indicators=["9s", "9s"],
        ),
        1,
        0,
        0,
    ),
    (
        "inside an added kong (claimed a plain five)",
        _hand(
            melds=[_meld("kong", "5m 5m 0m 5m", added=True, claimed="5m", **{"from": "left"})],
            dora_indicators=["9s", "9s"],
        ),
        1,
        0,
        0,
    ),
    (
        "inside an added kong (claimed the red five)",
        _hand(
            melds=[_meld("kong", "5m 5m 0m 5m", added=True, claimed="0m", **{"from": "left"})],
            dora_indicators=["9s", "9s"],
        ),
        1,
        0,
        0,
    ),
    (
        "inside a concealed kong",
        _hand(
            melds=[_meld("kong", "5m 0m 5m 5m", concealed=True)],
            riichi={"declared": True},
            dora_indicators=["9s", "9s"],
            ura_dora_indicators=["wn", "wn"],
        ),
        1,
        0,
        0,
    ),
    (
        "winning tile, self-drawn",
        _hand(
            concealed=_tiles("2m 3m 4m 5p 6p 7p 3s 4s 6s 7s 8s 9p 9p"),
            win_tile="0s",
            win={"self_drawn": True},
        ),
        1,
        0,
        0,
    ),
    (
        "winning tile, on a discard",
        _hand(concealed=_tiles("2m 3m 4m 5p 6p 7p 3s 4s 6s 7s 8s 9p 9p"), win_tile="0s"),
        1,
        0,
        0,
    ),
    ("dora indicator", _hand(concealed=CLOSED, win_tile="6s", dora_indicators=["0m"]), 0, 1, 0),
    (
        "ura-dora indicator",
        _hand(
            concealed=CLOSED,
            win_tile="6s",
            riichi={"declared": True},
            dora_indicators=["1s"],
            ura_dora_indicators=["0m"],
        ),
        0,
        0,
        1,
    ),
    (
        "one of each suit, in three places",
        _hand(
            concealed=_tiles("2m 3m 4m 6p 7p 3s 4s 0s 8p 8p"),
            win_tile="0p",
            melds=[_meld("pung", "5m 0m 5m", claimed="0m", **{"from": "left"})],
            dora_indicators=["4m"],
        ),
        3,
        3,
        0,
    ),
]


@pytest.mark.parametrize(("place", "hand", "aka", "dora", "ura"), CASES, ids=[c[0] for c in CASES])
def test_red_five_in_every_place(
    place: str, hand: dict[str, Any], aka: int, dora: int, ura: int
) -> None:
    ours, theirs, result = compare(hand)
    assert result["error"] is None, f"{place}: {result['error']}"
    assert ours == theirs, place
    assert ours is not None
    assert (ours[3]["aka-dora"], ours[3]["dora"], ours[3]["ura-dora"]) == (aka, dora, ura)


def test_a_red_claimed_tile_is_one_of_the_melds_tiles() -> None:
    """A meld that says its claimed tile was the red five but holds only plain ones."""
    hand = _hand(melds=[_meld("pung", "5m 5m 5m", claimed="0m", **{"from": "left"})])
    res = score(hand)
    assert res["error_code"] == "invalid-hand", res["error"]
    assert "claimed 0m is not among the meld's tiles" in res["error"]


def test_the_claimed_red_five_is_not_a_second_red_five() -> None:
    """The hand of the report: one red 5m, which is the claimed tile of a chow, is scored
    (it was refused: "2 red fives 0m: there is one of each")."""
    hand = CASES[1][1]
    res = score(hand)
    assert res["error"] is None, res["error"]
    assert {i["id"]: i["points"] for i in res["items"]} == {"tanyao": 1, "aka-dora": 1}
