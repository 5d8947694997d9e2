"""The shared scoring engine (pure Python, stdlib only).

Public entry points: :func:`scoring.score` (hand JSON → result JSON), :class:`scoring.Hand`,
:class:`scoring.Tile`, and the rule-set registry (:func:`scoring.get_ruleset`,
:func:`scoring.ruleset_names`).
"""

from scoring.errors import (
    InvalidHandError,
    InvalidMeldError,
    InvalidTileError,
    NotAWinError,
    ScoringError,
    UnknownRuleSetError,
)
from scoring.hand import Hand, Meld, MeldKind, Relative, WinInfo
from scoring.tiles import Suit, Tile, Wind, format_tiles, parse_tiles

__all__ = [
    "Hand",
    "InvalidHandError",
    "InvalidMeldError",
    "InvalidTileError",
    "Meld",
    "MeldKind",
    "NotAWinError",
    "Relative",
    "ScoringError",
    "Suit",
    "Tile",
    "UnknownRuleSetError",
    "Wind",
    "WinInfo",
    "format_tiles",
    "parse_tiles",
]
