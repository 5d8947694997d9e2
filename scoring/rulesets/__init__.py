"""Built-in rule sets. Importing this package registers each of them by name.

Each module defines its feature record, its pattern table and its RuleSet, and calls
:func:`scoring.engine.register`.
"""

import importlib

_MODULES = ("mcr", "hk_tw16", "zung_jung", "tw16_tai", "riichi")

for _m in _MODULES:
    try:
        importlib.import_module(f"scoring.rulesets.{_m}")
    except ModuleNotFoundError as _e:  # a rule set not written yet
        if _e.name != f"scoring.rulesets.{_m}":
            raise
