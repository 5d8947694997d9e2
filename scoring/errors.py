"""Typed errors of the scoring engine.

Every error raised for bad input is a :class:`ScoringError`; its ``code`` is a stable string
that callers (the CLI, the server) put on the wire, and ``str(error)`` says exactly what is
wrong. Nothing in :mod:`scoring` asserts on input.
"""

from __future__ import annotations

__all__ = [
    "InvalidHandError",
    "InvalidMeldError",
    "InvalidOptionsError",
    "InvalidTileError",
    "NotAWinError",
    "ScoringError",
    "SeatingError",
    "UnknownRuleSetError",
]


class ScoringError(ValueError):
    """Base class: bad input to the scoring engine."""

    code = "invalid-input"


class InvalidTileError(ScoringError):
    """A tile code that does not exist (``"0m"``, ``"xx"``)."""

    code = "invalid-tile"


class InvalidMeldError(ScoringError):
    """A meld whose tiles do not form the declared chow / pung / kong."""

    code = "invalid-meld"


class InvalidHandError(ScoringError):
    """Wrong tile count, a fifth copy, flowers in the hand, a missing field…"""

    code = "invalid-hand"


class NotAWinError(ScoringError):
    """The tiles do not form a complete hand under the rule set."""

    code = "not-a-win"


class InvalidOptionsError(ScoringError):
    """Settlement options a rule set does not know, or of the wrong type / value."""

    code = "invalid-options"


class UnknownRuleSetError(ScoringError):
    """No rule set registered under that name."""

    code = "unknown-ruleset"


class SeatingError(ScoringError):
    """Who sits where does not fit the win (settlement input): the instance's ``code`` says
    which case (``discarder-is-winner``, ``self-drawn-with-discarder``,
    ``discard-without-discarder``, ``one-winner-only``), the message names the field."""

    code = "invalid-seating"

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code
