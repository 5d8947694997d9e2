"""How tiles look in the terminal: Unicode mahjong glyphs (U+1F000 block) with colours, or
plain-text codes (``--plain``) for terminals and fonts without the glyphs.

Only presentation: tile codes are the shared codes of :mod:`scoring.tiles` (``"5p"``,
``"we"``, ``"dr"``, ``"f3"``).
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.text import Text

from clients.cli.i18n import lang

_SUITS = {"m": 0x1F006, "s": 0x1F00F, "p": 0x1F018}  # + the number: 1m is U+1F007
_HONOURS = {
    "we": "\U0001f000",
    "ws": "\U0001f001",
    "ww": "\U0001f002",
    "wn": "\U0001f003",
    "dr": "\U0001f004",
    "dg": "\U0001f005",
    "dw": "\U0001f006",
    # seasons 春夏秋冬, then plants 梅蘭菊竹
    "f1": "\U0001f026",
    "f2": "\U0001f027",
    "f3": "\U0001f028",
    "f4": "\U0001f029",
    "f5": "\U0001f022",
    "f6": "\U0001f023",
    "f7": "\U0001f025",
    "f8": "\U0001f024",
}
BACK = "\U0001f02b"

#: Chinese names, used in plain mode for honours and in the help text.
HONOUR_NAMES = {
    "we": "東",
    "ws": "南",
    "ww": "西",
    "wn": "北",
    "dr": "中",
    "dg": "發",
    "dw": "白",
    "f1": "春",
    "f2": "夏",
    "f3": "秋",
    "f4": "冬",
    "f5": "梅",
    "f6": "蘭",
    "f7": "菊",
    "f8": "竹",
}

#: the flowers by name: the four seasons, then the four plants
FLOWER_NAMES = {
    "f1": "Spring",
    "f2": "Summer",
    "f3": "Autumn",
    "f4": "Winter",
    "f5": "Plum",
    "f6": "Orchid",
    "f7": "Chrysanthemum",
    "f8": "Bamboo",
}


def flower_name(code: str) -> str:
    """A flower by name: ``秋 Autumn`` in English, ``秋`` in Chinese (``兰`` for 蘭 in
    Simplified); any other tile: its code."""
    if code not in FLOWER_NAMES:
        return code
    if lang() == "en":
        return f"{HONOUR_NAMES[code]} {FLOWER_NAMES[code]}"
    ch = HONOUR_NAMES[code]
    return "兰" if lang() == "zh-Hans" and ch == "蘭" else ch


WIND_NAMES = {"we": "East", "ws": "South", "ww": "West", "wn": "North"}
WIND_CHARS = {"we": "東", "ws": "南", "ww": "西", "wn": "北"}

_COLOURS = {
    "m": "bold red",
    "p": "bold blue",
    "s": "bold green",
    "w": "bold white",
    "dr": "bold red",
    "dg": "bold green",
    "dw": "bold white",
    "f": "bold magenta",
}

#: the sort order of tile codes: the scoring index order (m, p, s, winds, dragons, flowers)
_ORDER: dict[str, int] = {}
for _i, _s in enumerate("mps"):
    for _n in range(1, 10):
        _ORDER[f"{_n}{_s}"] = _i * 9 + _n - 1
for _j, _c in enumerate(("we", "ws", "ww", "wn", "dr", "dg", "dw")):
    _ORDER[_c] = 27 + _j
for _n in range(1, 9):
    _ORDER[f"f{_n}"] = 33 + _n


def sort_key(code: str) -> int:
    return _ORDER.get(code, 99)


def sort_tiles(codes: Iterable[str]) -> list[str]:
    return sorted(codes, key=sort_key)


def glyph(code: str) -> str:
    """The Unicode glyph of a tile code (``?`` for an unknown code)."""
    if code in _HONOURS:
        return _HONOURS[code]
    if len(code) == 2 and code[0].isdigit() and code[1] in _SUITS:
        return chr(_SUITS[code[1]] + int(code[0]))
    return "?"


def colour(code: str) -> str:
    if code in _COLOURS:
        return _COLOURS[code]
    if code[-1:] in _COLOURS and code[0].isdigit():
        return _COLOURS[code[-1]]
    return _COLOURS.get(code[:1], "bold")


def label(code: str) -> str:
    """A short plain-text label: ``5p``, ``東``, ``中``, ``春``."""
    return HONOUR_NAMES.get(code, code)


class TileStyle:
    """Renders tiles either as Unicode glyphs or as plain codes, with colours."""

    def __init__(self, plain: bool = False, colour_on: bool = True) -> None:
        self.plain = plain
        self.colour_on = colour_on

    def text(self, code: str | None, highlight: str | None = None) -> Text:
        """One tile (``None``: a hidden tile) as styled text, followed by one space."""
        if code is None:
            return Text("## " if self.plain else BACK + " ", style="dim")
        body = f"{code:<2}" if self.plain else glyph(code)
        style = colour(code) if self.colour_on else ""
        if highlight:
            style = f"{style} {highlight}".strip()
        out = Text(body, style=style)
        out.append(" ")
        return out

    def row(self, codes: Iterable[str | None], highlight_last: str | None = None) -> Text:
        items = list(codes)
        out = Text()
        for i, c in enumerate(items):
            hl = highlight_last if (highlight_last and i == len(items) - 1) else None
            out.append_text(self.text(c, hl))
        return out

    def name(self, code: str) -> str:
        """A tile for prose (log lines, help): the glyph and its code, or just the code."""
        return code if self.plain else f"{glyph(code)} {code}"
