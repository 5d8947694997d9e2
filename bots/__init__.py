"""The real bot: shanten, ukeire and a rule-set aware player (pure Python, stdlib only)."""
