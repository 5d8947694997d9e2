"""Package data of the scoring engine: the rule tables as JSON (copied from ../shared/rules)."""
