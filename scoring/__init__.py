"""The shared scoring engine (pure Python, stdlib only).

Public entry points: :func:`scoring.score` (hand JSON → result JSON), :class:`scoring.Hand`,
:class:`scoring.Tile`, and the rule-set registry (:func:`scoring.get_ruleset`,
:func:`scoring.ruleset_names`).
"""

import mahjong_native  # noqa: F401  (first: selects the compiled or the pure modules)
from scoring.decompose import Arrangement, Block, BlockKind, Wait, is_standard_complete, waits
from scoring.engine import (
    Features,
    Item,
    Pattern,
    Payment,
    RuleSet,
    ScoreResult,
    Seating,
    SpecialShape,
    get_ruleset,
    net,
    register,
    ruleset_names,
    score,
)
from scoring.errors import (
    InvalidHandError,
    InvalidMeldError,
    InvalidOptionsError,
    InvalidTileError,
    NotAWinError,
    ScoringError,
    UnknownRuleSetError,
)
from scoring.hand import Hand, Meld, MeldKind, Relative, WinInfo
from scoring.rows import Exclusion, Row
from scoring.tiles import Suit, Tile, Wind, format_tiles, parse_tiles

__all__ = [
    "Arrangement",
    "Block",
    "BlockKind",
    "Exclusion",
    "Features",
    "Hand",
    "InvalidHandError",
    "InvalidMeldError",
    "InvalidOptionsError",
    "InvalidTileError",
    "Item",
    "Meld",
    "MeldKind",
    "NotAWinError",
    "Pattern",
    "Payment",
    "Relative",
    "Row",
    "RuleSet",
    "ScoreResult",
    "ScoringError",
    "Seating",
    "SpecialShape",
    "Suit",
    "Tile",
    "UnknownRuleSetError",
    "Wait",
    "WinInfo",
    "Wind",
    "format_tiles",
    "get_ruleset",
    "is_standard_complete",
    "net",
    "parse_tiles",
    "register",
    "ruleset_names",
    "score",
    "waits",
]
