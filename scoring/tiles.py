"""Tiles: the shared tile codes as a small value type.

Every tile is a :class:`Tile`, an :class:`~enum.IntEnum` whose integer value is a dense index
(handy for count arrays) and whose ``str`` is the shared code::

    >>> Tile.parse("5p")
    <Tile.P5: 13>
    >>> str(Tile.parse("5p"))
    '5p'

Index layout (used by count vectors everywhere in the project):

====== ================ ===========================================
index  codes            meaning
====== ================ ===========================================
0-8    ``1m``..``9m``   萬 characters
9-17   ``1p``..``9p``   筒 dots
18-26  ``1s``..``9s``   索 bamboo
27-30  ``we ws ww wn``  東南西北 winds
31-33  ``dr dg dw``     中發白 dragons
34-41  ``f1``..``f8``   春夏秋冬 seasons, 梅蘭菊竹 plants
====== ================ ===========================================
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence

from scoring.errors import InvalidTileError

__all__ = [
    "FLOWERS",
    "HONORS",
    "KINDS",
    "SUITED",
    "TERMINALS",
    "TERMINALS_AND_HONORS",
    "Suit",
    "Tile",
    "Wind",
    "counts",
    "format_tiles",
    "parse_tiles",
]


class Suit(enum.Enum):
    """The six families of tiles; the value is the code letter."""

    MAN = "m"
    PIN = "p"
    SOU = "s"
    WIND = "w"
    DRAGON = "d"
    FLOWER = "f"

    @property
    def is_numbered(self) -> bool:
        return self in (Suit.MAN, Suit.PIN, Suit.SOU)


_SUIT_BASE = {Suit.MAN: 0, Suit.PIN: 9, Suit.SOU: 18}
_WIND_CODES = ("we", "ws", "ww", "wn")
_DRAGON_CODES = ("dr", "dg", "dw")


class Tile(enum.IntEnum):
    """One tile kind (there are four copies of each playing tile, one of each flower)."""

    M1 = 0
    M2 = 1
    M3 = 2
    M4 = 3
    M5 = 4
    M6 = 5
    M7 = 6
    M8 = 7
    M9 = 8
    P1 = 9
    P2 = 10
    P3 = 11
    P4 = 12
    P5 = 13
    P6 = 14
    P7 = 15
    P8 = 16
    P9 = 17
    S1 = 18
    S2 = 19
    S3 = 20
    S4 = 21
    S5 = 22
    S6 = 23
    S7 = 24
    S8 = 25
    S9 = 26
    EAST = 27
    SOUTH = 28
    WEST = 29
    NORTH = 30
    RED = 31
    GREEN = 32
    WHITE = 33
    F1 = 34
    F2 = 35
    F3 = 36
    F4 = 37
    F5 = 38
    F6 = 39
    F7 = 40
    F8 = 41

    # -- parse / format -------------------------------------------------------------------

    @classmethod
    def parse(cls, code: object) -> Tile:
        """Parse a shared tile code (``"5p"``, ``"we"``, ``"f3"``); raise InvalidTileError
        (for anything that is not a tile code, a non-string too)."""
        tile = _BY_CODE.get(code) if isinstance(code, str) else None
        if tile is None:
            raise InvalidTileError(f"unknown tile code {code!r}")
        return tile

    @property
    def code(self) -> str:
        return _CODES[self._value_]

    def __str__(self) -> str:
        return _CODES[self._value_]

    def __format__(self, spec: str) -> str:
        return format(_CODES[self._value_], spec)

    # -- classification -------------------------------------------------------------------

    @property
    def suit(self) -> Suit:
        v = self._value_
        if v < 27:
            return (Suit.MAN, Suit.PIN, Suit.SOU)[v // 9]
        if v < 31:
            return Suit.WIND
        if v < 34:
            return Suit.DRAGON
        return Suit.FLOWER

    @property
    def number(self) -> int:
        """1-9 for suited tiles, 1-4 for winds (E S W N), 1-3 for dragons, 1-8 for flowers."""
        v = self._value_
        if v < 27:
            return v % 9 + 1
        if v < 31:
            return v - 26
        if v < 34:
            return v - 30
        return v - 33

    @property
    def is_suited(self) -> bool:
        return self._value_ < 27

    @property
    def is_honor(self) -> bool:
        return 27 <= self._value_ < 34

    @property
    def is_wind(self) -> bool:
        return 27 <= self._value_ < 31

    @property
    def is_dragon(self) -> bool:
        return 31 <= self._value_ < 34

    @property
    def is_flower(self) -> bool:
        return self._value_ >= 34

    @property
    def is_terminal(self) -> bool:
        return self._value_ < 27 and self._value_ % 9 in (0, 8)

    @property
    def is_terminal_or_honor(self) -> bool:
        v = self._value_
        return v < 34 if v >= 27 else v % 9 in (0, 8)

    @property
    def is_simple(self) -> bool:
        return self._value_ < 27 and self._value_ % 9 not in (0, 8)

    @classmethod
    def suited(cls, suit: Suit, number: int) -> Tile:
        """The suited tile of ``suit`` and ``number`` (1-9)."""
        if not suit.is_numbered or not 1 <= number <= 9:
            raise InvalidTileError(f"no suited tile {number}{suit.value}")
        return cls(_SUIT_BASE[suit] + number - 1)

    def shifted(self, delta: int) -> Tile | None:
        """The tile ``delta`` steps along the same suit, or None past 1 or 9 / for honours."""
        if not self.is_suited:
            return None
        n = self._value_ % 9 + delta
        if not 0 <= n <= 8:
            return None
        return Tile(self._value_ - self._value_ % 9 + n)


def _build_codes() -> tuple[str, ...]:
    codes: list[str] = []
    for s in "mps":
        codes.extend(f"{n}{s}" for n in range(1, 10))
    codes.extend(_WIND_CODES)
    codes.extend(_DRAGON_CODES)
    codes.extend(f"f{n}" for n in range(1, 9))
    return tuple(codes)


_CODES = _build_codes()
_BY_CODE: dict[str, Tile] = {c: Tile(i) for i, c in enumerate(_CODES)}

#: The 34 playing tile kinds (no flowers).
KINDS: tuple[Tile, ...] = tuple(Tile(i) for i in range(34))
SUITED: tuple[Tile, ...] = KINDS[:27]
HONORS: tuple[Tile, ...] = KINDS[27:]
FLOWERS: tuple[Tile, ...] = tuple(Tile(i) for i in range(34, 42))
TERMINALS: tuple[Tile, ...] = tuple(t for t in SUITED if t.is_terminal)
TERMINALS_AND_HONORS: tuple[Tile, ...] = TERMINALS + HONORS


class Wind(enum.Enum):
    """Seat / round winds; the value is the wind tile's code."""

    EAST = "we"
    SOUTH = "ws"
    WEST = "ww"
    NORTH = "wn"

    @classmethod
    def parse(cls, code: object) -> Wind:
        try:
            return cls(code)
        except ValueError:
            raise InvalidTileError(f"not a wind {code!r} (expected we, ws, ww or wn)") from None

    def __str__(self) -> str:
        return self.value

    @property
    def tile(self) -> Tile:
        return _BY_CODE[self._value_]

    @property
    def index(self) -> int:
        """0 for East … 3 for North."""
        return _WIND_CODES.index(self._value_)

    @classmethod
    def from_index(cls, i: int) -> Wind:
        return (cls.EAST, cls.SOUTH, cls.WEST, cls.NORTH)[i % 4]

    def next(self, steps: int = 1) -> Wind:
        return Wind.from_index(self.index + steps)


def parse_tiles(text: str | Iterable[str]) -> list[Tile]:
    """Parse tiles from a list of codes or the compact text form.

    The compact form accepts codes separated by spaces and runs of numbers sharing a suit
    letter: ``"123m 456p 77s we we"`` → 1m 2m 3m 4p 5p 6p 7s 7s we we. Honour and flower
    codes are written in full (``we``, ``dr``, ``f1``).
    """
    if not isinstance(text, str):
        return [Tile.parse(c) for c in text]
    out: list[Tile] = []
    for word in text.split():
        if word in _BY_CODE:
            out.append(_BY_CODE[word])
            continue
        if len(word) >= 2 and word[-1] in "mps" and word[:-1].isdigit():
            for ch in word[:-1]:
                if ch == "0":
                    raise InvalidTileError(f"no tile 0{word[-1]} in {word!r}")
                out.append(_BY_CODE[ch + word[-1]])
            continue
        raise InvalidTileError(f"cannot parse tiles {word!r}")
    return out


def format_tiles(tiles: Sequence[Tile], compact: bool = True) -> str:
    """Inverse of :func:`parse_tiles`; compact form groups runs of the same suit."""
    if not compact:
        return " ".join(str(t) for t in tiles)
    words: list[str] = []
    run = ""
    run_suit = ""
    for t in tiles:
        if t.is_suited:
            s = t.suit.value
            if run and s != run_suit:
                words.append(run + run_suit)
                run = ""
            run += str(t.number)
            run_suit = s
        else:
            if run:
                words.append(run + run_suit)
                run = ""
            words.append(str(t))
    if run:
        words.append(run + run_suit)
    return " ".join(words)


def counts(tiles: Iterable[int], size: int = 34) -> list[int]:
    """A count vector indexed by tile value (34 long by default; 42 to include flowers);
    tiles or their int values."""
    c = [0] * size
    for t in tiles:
        c[t] += 1
    return c
