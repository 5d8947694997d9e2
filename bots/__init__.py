"""The real bot: exact shanten, ukeire and a rule-set aware player (pure Python, stdlib only).

* :func:`choose` ``(view, legal, rng) -> action`` — what the server calls for empty and
  abandoned seats: the seat's view (:func:`table.view`) and its legal actions in, one of
  those legal actions (the same JSON dict) out. It never needs more than the view, so it
  cannot cheat.
* :func:`shanten`, :class:`ShapeRules` — the shanten calculator (13/16 tiles, melds, special
  shapes); :func:`ukeire`; :func:`bot_rules` derives a rule set's shapes from the scoring
  engine.

See docs/bots.md.
"""

import mahjong_native  # noqa: F401  (first: selects the compiled or the pure modules)
from bots.player import Bot, Situation, choose, situation, ukeire
from bots.rules import BotRules, bot_rules
from bots.shanten import OrphansShape, PairsShape, ShapeRules, shanten

__all__ = [
    "Bot",
    "BotRules",
    "OrphansShape",
    "PairsShape",
    "ShapeRules",
    "Situation",
    "bot_rules",
    "choose",
    "shanten",
    "situation",
    "ukeire",
]
