"""Tiles, melds and hands: parse/format pairs and input validation."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring import (
    Hand,
    InvalidHandError,
    InvalidMeldError,
    InvalidTileError,
    Meld,
    MeldKind,
    Relative,
    Suit,
    Tile,
    Wind,
    format_tiles,
    parse_tiles,
)

ALL_CODES = [f"{n}{s}" for s in "mps" for n in range(1, 10)] + [
    "we", "ws", "ww", "wn", "dr", "dg", "dw", *(f"f{i}" for i in range(1, 9)),
]  # fmt: skip


@pytest.mark.parametrize("code", ALL_CODES)
def test_parse_format_roundtrip(code: str) -> None:
    t = Tile.parse(code)
    assert str(t) == code
    assert f"{t}" == code
    assert Tile.parse(str(t)) is t


def test_index_layout_and_classification() -> None:
    assert [int(Tile.parse(c)) for c in ALL_CODES] == list(range(42))
    assert Tile.parse("5p").suit is Suit.PIN and Tile.parse("5p").number == 5
    assert Tile.parse("9s").is_terminal and not Tile.parse("9s").is_simple
    assert Tile.parse("we").is_wind and Tile.parse("we").is_honor
    assert Tile.parse("dg").is_dragon and Tile.parse("dg").number == 2
    assert Tile.parse("f5").is_flower and Tile.parse("f5").number == 5
    assert Tile.parse("8m").shifted(1) == Tile.parse("9m")
    assert Tile.parse("9m").shifted(1) is None
    assert Tile.parse("we").shifted(1) is None


@pytest.mark.parametrize("bad", ["0m", "10m", "xx", "", "5P", "f9", "wx", None, 5])
def test_parse_rejects_unknown_codes(bad: object) -> None:
    with pytest.raises(InvalidTileError):
        Tile.parse(bad)  # type: ignore[arg-type]


def test_compact_form() -> None:
    tiles = parse_tiles("123m 456p 77s we we")
    assert [str(t) for t in tiles] == ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "7s", "we", "we"]
    assert format_tiles(tiles) == "123m 456p 77s we we"
    with pytest.raises(InvalidTileError):
        parse_tiles("120m")


@given(st.lists(st.sampled_from(ALL_CODES), max_size=20))
def test_compact_roundtrip(codes: list[str]) -> None:
    tiles = parse_tiles(codes)
    assert parse_tiles(format_tiles(tiles)) == tiles
    assert parse_tiles(format_tiles(tiles, compact=False)) == tiles


def test_winds() -> None:
    assert Wind.parse("ws").next() is Wind.WEST
    assert Wind.from_index(5) is Wind.SOUTH
    assert Wind.NORTH.tile is Tile.NORTH
    with pytest.raises(InvalidTileError):
        Wind.parse("dr")


def test_meld_validation() -> None:
    assert Meld.chow(Tile.parse("7s")).tiles == tuple(parse_tiles("789s"))
    with pytest.raises(InvalidMeldError):
        Meld.chow(Tile.parse("8s"))
    with pytest.raises(InvalidMeldError):
        Meld(MeldKind.CHOW, tuple(parse_tiles("we ws ww")))
    with pytest.raises(InvalidMeldError):
        Meld(MeldKind.PUNG, tuple(parse_tiles("1m 1m 2m")))
    with pytest.raises(InvalidMeldError):
        Meld(MeldKind.PUNG, tuple(parse_tiles("1m 1m 1m")), concealed=True)
    with pytest.raises(InvalidMeldError):
        Meld.from_json({"kind": "kong", "tiles": ["5p"] * 4, "from": "behind"})
    with pytest.raises(InvalidMeldError):
        Meld.from_json({"kind": "chow", "tiles": ["1p", "2p", "3p"], "claimed": "4p"})


def test_relative_positions() -> None:
    assert Relative.between(1, 0) is Relative.LEFT
    assert Relative.between(0, 2) is Relative.OPPOSITE
    assert Relative.between(0, 1) is Relative.RIGHT
    with pytest.raises(InvalidMeldError):
        Relative.between(2, 2)


SAMPLE = {
    "ruleset": "mcr",
    "concealed": ["4s", "5s", "6s", "6s", "6s", "8s", "9s", "9s", "9s", "9s"],
    "melds": [
        {"kind": "chow", "tiles": ["2s", "3s", "4s"], "claimed": "3s", "from": "left"},
        {"kind": "kong", "tiles": ["5p", "5p", "5p", "5p"], "concealed": True},
    ],
    "flowers": ["f1"],
    "win_tile": "7s",
    "win": {"self_drawn": True, "last_tile": False, "kong_replacement": False,
            "robbing_kong": False, "fourth_tile": False},
    "seat_wind": "ww",
    "round_wind": "we",
    "dealer": True,
}  # fmt: skip


def test_hand_json_roundtrip() -> None:
    h = Hand.from_json(SAMPLE)
    assert h.get("dealer") is True  # unknown top-level keys become context
    again = Hand.from_json(h.to_json())
    assert again == h
    assert h.is_concealed is False
    assert sum(h.tile_counts()) == 10 + 1 + 3 + 4


@pytest.mark.parametrize(
    ("patch", "message"),
    [
        ({"concealed": ["9s", "9s", "9s", "9s", "9s"]}, "only four"),
        ({"flowers": ["1m"]}, "f1..f8"),
        ({"flowers": ["f1", "f1"]}, "once"),
        ({"concealed": ["f2"]}, "flowers go in"),
        ({"win_tile": "0m"}, "unknown tile"),
        ({"melds": "x"}, "must be a list"),
        ({"win": {"self_drawn": "yes"}}, "boolean"),
        ({"win": {"robbing_kong": True, "self_drawn": True}}, "robbing"),
        ({"seat_wind": "dr"}, "not a wind"),
        ({"ruleset": 3}, "ruleset"),
    ],
)
def test_hand_rejects_bad_input(patch: dict[str, object], message: str) -> None:
    obj = {**SAMPLE, **patch}
    with pytest.raises((InvalidHandError, InvalidTileError, InvalidMeldError)) as e:
        Hand.from_json(obj)
    assert message in str(e.value)
