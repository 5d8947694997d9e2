"""Japanese riichi mahjong: the parts of its scoring that no other rule set has.

* :mod:`scoring.riichi.context` — the riichi keys of the hand JSON (riichi, dora indicators,
  first turn), the house rules, and red fives (``0m 0p 0s``);
* :mod:`scoring.riichi.dora` — dora from indicators;
* :mod:`scoring.riichi.fu` — fu counting;
* :mod:`scoring.riichi.limits` — basic points, limits (mangan … yakuman) and payments.

The rule set itself (its yaku table in the one row form) is :mod:`scoring.rulesets.riichi`;
``docs/rules/riichi.md`` lists every yaku, fu rule, limit and option with the readings taken.
"""
